"""Word Basket: finding words that fit, and the plays a seat could make with them, for
:meth:`WordBasket.suggest` (the conformance suite, the engine fuzz test, a demo bot). Not used by
the rules: what a play must be is :mod:`.word_basket_words`; this module only proposes plays that
pass it (:func:`plays`, :func:`race_play`).

The built-in noun list (:mod:`partyhost.lexicon.japanese`, about 250 000 readings) is indexed once,
lazily, on the first question (about 0.5 s): by (first kana, last kana) for kana and row cards, and
by (first kana, length, with 7 meaning "7 or more") for number wilds. Readings in the list are
already normalised hiragana, so the first and last kana are read off the text the way
:func:`partyhost.lexicon.kana.reading` reads them (RULES.md "Reading a word", steps 4–5), with one
:func:`~partyhost.lexicon.kana.reading` call per distinct ending, not per word. Words ending in ん
and readings with a combining mark (ヷ-like forms) are left out.
"""

from __future__ import annotations

import random
import threading
from typing import TYPE_CHECKING

from ..lexicon import japanese, kana
from .word_basket_words import CARDS, fit_error, starts

if TYPE_CHECKING:  # pragma: no cover
    from .word_basket import WordBasket

_lock = threading.Lock()
_by_ends: dict[tuple[str, str], list[str]] = {}  # (first, last) → readings, sorted
_by_length: dict[tuple[str, int], list[str]] = {}  # (first, min(length, 7)) → readings, sorted
_ready = False

#: Kana a made-up word is filled with (no ん, no small kana at the end: the end is the card's).
FILLER = "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわがぎぱっゃー"
#: Ends a made-up word may use for a number wild.
_ANY_END = "あいうえおかきくけこさしすせそ"


def _build() -> None:
    global _ready
    with _lock:
        if _ready:
            return
        japanese.load()
        lasts: dict[str, str] = {}
        firsts: dict[str, str] = {}
        for word in sorted(japanese._readings or ()):  # sorted: the same picks in every process
            if "\u3099" in word or "\u309a" in word or word[0] == kana.LONG_VOWEL:
                continue
            base = word.rstrip(kana.LONG_VOWEL)
            ending = base[-1:] + (kana.LONG_VOWEL if len(base) < len(word) else "")
            last = lasts.get(ending)
            if last is None:
                last = lasts[ending] = kana.reading(ending).last
            if last == "ん":
                continue
            first = firsts.get(word[0])
            if first is None:
                first = firsts[word[0]] = kana.plain(word[0])
            _by_ends.setdefault((first, last), []).append(word)
            _by_length.setdefault((first, min(len(word), 7)), []).append(word)
        _ready = True


def _pools(field: dict, card_id: int) -> list[list[str]]:
    """The index lists whose words start right for ``field`` and end right for the card."""
    begin = starts(field) or "".join(kana.ROWS[r] for r in kana.ROWS)
    card = CARDS[card_id]
    if card["kind"] == "number":
        lengths = (7,) if card["number"] == 7 else (card["number"],)
        return [_by_length[(f, n)] for f in begin for n in lengths if (f, n) in _by_length]
    ends = card["kana"]  # one kana, or a row wild's whole row
    return [_by_ends[(f, e)] for f in begin for e in ends if (f, e) in _by_ends]


def known_word(field: dict, card_id: int, shortest: int, rng: random.Random, last_card: bool = False,
               previous: str | None = None, tries: int = 12) -> str | None:
    """A reading from the noun list that carries ``card_id`` onto ``field`` (``{"kana", "row"}``)
    for a player who needs ``shortest`` kana (and whose previous word was ``previous``), or None
    when ``tries`` random picks find none. Every word returned passes
    :func:`~.word_basket_words.fit_error`."""
    if not _ready:
        _build()
    pools = _pools(field, card_id)
    total = sum(len(p) for p in pools)
    for _ in range(tries if total else 0):
        i = rng.randrange(total)
        for pool in pools:
            if i < len(pool):
                word = pool[i]
                break
            i -= len(pool)
        if fit_error(card_id, kana.reading(word), field, shortest, last_card, previous) is None:
            return word
    return None


def made_up_word(field: dict, card_id: int, shortest: int, rng: random.Random) -> str:
    """A kana "word" built to fit ``card_id`` on ``field`` (start, end, length), which the list
    will almost never know: in "vote" mode it enters marked "?" for the table to judge."""
    begin = starts(field) or "あ"
    card = CARDS[card_id]
    if card["kind"] == "number":
        length = card["number"] if card["number"] != 7 else rng.randint(7, 9)
        end = rng.choice(_ANY_END)
    else:
        length = rng.randint(max(shortest, 3), 6)
        end = rng.choice(card["kana"])
    return rng.choice(begin) + "".join(rng.choice(FILLER) for _ in range(length - 2)) + end


# --- plays a seat could make -----------------------------------------------------------------

#: How often :func:`plays` adds a made-up word (so the table gets words to challenge), and how
#: often a play that leaves one card declares リーチ (so a missing one can be pointed out).
MADE_UP_RATE = 0.25
REACH_RATE = 0.75


def plays(game: "WordBasket", seat: str, rng: random.Random) -> list[dict]:
    """``play`` actions for up to three of ``seat``'s cards with known words that fit the field
    now, and now and then (:data:`MADE_UP_RATE`, not in strict mode) one with a made-up word.
    With two cards in hand a play declares リーチ (``"reach": true``) at :data:`REACH_RATE`.
    ``[]`` when nothing is found (the caller may reset)."""
    hand = game.hands[seat]
    shortest, last = game.shortest(seat)
    field, serial = game.field, game.field["serial"]
    out = []
    for card in rng.sample(hand, min(3, len(hand))):
        word = known_word(field, card, shortest, rng, last, game.last_word.get(seat))
        if word is not None:
            out.append({"type": "play", "field": serial, "card": card, "word": word})
    if hand and game.mode != "strict" and rng.random() < MADE_UP_RATE:
        card = rng.choice(hand)
        out.append({"type": "play", "field": serial, "card": card,
                    "word": made_up_word(field, card, shortest, rng)})
    if len(hand) == 2:
        for action in out:
            action["reach"] = rng.random() < REACH_RATE
    return out


def race_play(game: "WordBasket", seat: str, rng: random.Random) -> dict:
    """A play of one of ``seat``'s cards (it must hold one) for the field the last accepted play
    was made for (``game.last_play`` must be set): a near-race bounce when it comes within
    :data:`~.word_basket.RACE_WINDOW` and fits there, ``wb_stale_field`` when not."""
    lp = game.last_play
    card = rng.choice(game.hands[seat])
    shortest, last = game.shortest(seat)
    word = known_word(lp["field"], card, shortest, rng, last, game.last_word.get(seat))
    return {"type": "play", "field": lp["from"], "card": card,
            "word": word or made_up_word(lp["field"], card, shortest, rng)}
