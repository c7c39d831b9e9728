"""Diabolo's cards and words: the deck as data, how cards spell a word, and the word solver.

Pure functions of cards and word lists, with no game state: :mod:`partyhost.games.diabolo` judges
claims with them, the round's end lists still-possible words with them, and ``suggest`` (bots,
the conformance suite) finds real words to claim with them. ``static/js/diabolo.js`` mirrors
:func:`fold` and :func:`best_assignment` for the phone's typed claims (``tests/test_e2e_diabolo.py``
checks they agree).

Rulebook ``shared/seeds/004_cde4d22f2f5d4f5d.txt``, sections by their order in the file:
§1 the 66 letter cards, jokers among them; §2 a word uses at least 3 face-up cards, each once, in
any order; §5 what a word is (German, no abbreviations, ß as SS, umlauts as AE/OE/UE, a two-letter
card's letters together and in written order, a joker is one letter, the double joker two, never
one); §8 quick players use at least 4 cards. Our deck (the original list is not public) is
``shared/RULES.md`` "Diabolo", kept as one table in ``games/data/diabolo_decks.json``.

A card is ``{"id": int, "face": str, "joker": 0|1|2}`` throughout (see :func:`deck_table`).
"""

from __future__ import annotations

import bisect
import json
import re
from functools import lru_cache
from pathlib import Path

from .base import RuleError

DECKS_FILE = Path(__file__).resolve().parent / "data" / "diabolo_decks.json"
LANGS = ("de", "en")
"""The decks (and word lists): German cards as printed, and our English deck."""

MIN_CARDS = 3
"""Fewest cards a word must use (§2)."""
HANDICAP_CARDS = 4
"""Fewest cards for a player given the quick-player handicap (§8)."""
POSSIBLE_WORDS = 5
"""How many still-possible words the round's end shows."""
POSSIBLE_SCAN = 40_000
"""At most this many list words are tried for the round's end (keeps the engine loop fast)."""

_FOLDED = re.compile(r"^[A-Z]+$")
_STRIDE = 1_000_003
"""A prime larger than any length bucket: stepping by it visits every word of a bucket once."""


# --- the deck as data ------------------------------------------------------------------------

@lru_cache(maxsize=None)
def deck_table(lang: str) -> tuple[dict, ...]:
    """The deck of ``lang`` as one card per entry, ids in table order (§1; RULES.md "Diabolo").

    Returns:
        ``({"id": 0, "face": "E", "joker": 0}, …)``: ``face`` is the letter(s) printed on the
        card (``"?"`` / ``"??"`` for jokers), ``joker`` is 0 for a letter card, 1 for a joker
        (any one letter) and 2 for the double joker (any two letters, §5).
    Raises:
        KeyError: no deck for ``lang``. OSError / ValueError: the data file is missing or broken.
    """
    data = json.loads(DECKS_FILE.read_text(encoding="utf-8"))[lang]
    cards: list[dict] = []
    for entry in data["cards"]:
        for _ in range(int(entry["count"])):
            cards.append({"id": len(cards), "face": str(entry["face"]), "joker": int(entry.get("joker", 0))})
    return tuple(cards)


ABBREVIATIONS_FILE = Path(__file__).resolve().parent / "data" / "diabolo_abbreviations.json"


@lru_cache(maxsize=None)
def abbreviations(lang: str) -> frozenset[str]:
    """The folded abbreviations of ``lang`` that a claim may never name (§5: no abbreviations;
    RULES.md: refused outright, not voted): our own curated list, built by
    ``tools/build_diabolo_abbreviations.py`` (its source is named there). Empty when the data file
    has no list for ``lang``."""
    data = json.loads(ABBREVIATIONS_FILE.read_text(encoding="utf-8"))
    return frozenset(data.get(lang, ()))


def abbreviation(word: str, lang: str) -> str | None:
    """The folded abbreviation ``word`` is, written with or without dots (``"usw."``, ``"U.S.W."``,
    ``"USW"``, ``"GmbH"``), or None when it is none."""
    folded = fold(word, lang)
    bare = "".join(ch for ch in folded if ch not in ". \u00a0")
    return bare if bare in abbreviations(lang) else None


def prepare(lang: str) -> None:
    """Load the deck, the word list and the solver's buckets of ``lang`` (server start).

    Raises:
        KeyError / OSError / ValueError: the deck or the word list cannot be read.
    """
    deck_table(lang)
    abbreviations(lang)
    _lexicon().load(lang)
    _words_by_length(lang)


# --- spelling (§5) ---------------------------------------------------------------------------

def _lexicon():
    """The word-list module (``partyhost.lexicon.latin``), imported when first needed."""
    from ..lexicon import latin

    return latin


def fold(word: str, lang: str = "de") -> str:
    """The word in the spelling cards use (§5): NFKC (full-width letters too), Ä→AE, Ö→OE, Ü→UE,
    ß/ẞ→SS, upper case. Raises nothing; the result may hold characters outside A–Z (see
    :func:`is_letters`)."""
    return _lexicon().fold(word, lang)


def is_letters(folded: str) -> bool:
    """True when the folded word is only letters A–Z (no dots, digits, spaces: §5 forbids
    abbreviations), and not empty."""
    return bool(_FOLDED.match(folded))


def is_known(folded: str, lang: str) -> bool:
    """True when the word list of ``lang`` holds the folded word or, in German, the word is a
    compound of its words (ZAHNBUERSTE, HAUSTUEREN: :func:`partyhost.lexicon.latin.compound_parts`,
    issue 14). An unknown word goes to the table's vote (RULES.md "Diabolo")."""
    return bool(_lexicon().is_word(folded, lang))


def shown_face(card: dict) -> str:
    """A card's face as people see it on the table (for refusal messages): a joker is the trident
    ``"Ψ"``, the double joker ``"ΨΨ"`` (the data's ``"?"``/``"??"`` mean nothing to a player)."""
    return "Ψ" * card["joker"] if card["joker"] else card["face"]


def card_letters(card: dict, as_letters: str | None) -> str:
    """The letters a card gives a word: its face, or the letters a joker stands for (§5).

    Raises:
        RuleError: ``"joker_letter"`` (``face``, ``count``) when a joker's letters are missing,
            not A–Z, or the wrong number (one for a joker, two for the double joker);
            ``"not_a_joker"`` (``face``) when letters are given for a letter card that differ
            from its face.
    """
    if card["joker"]:
        letters = (as_letters or "").upper()
        if len(letters) != card["joker"] or not _FOLDED.match(letters):
            raise RuleError("joker_letter", face=shown_face(card), count=card["joker"])
        return letters
    if as_letters is not None and as_letters.upper() != card["face"]:
        raise RuleError("not_a_joker", face=card["face"])
    return card["face"]


# --- the solver ------------------------------------------------------------------------------

def best_assignment(word: str, cards: list[dict]) -> list[dict] | None:
    """The way to spell the folded ``word`` from ``cards`` that uses the most cards (RULES.md:
    a typed word takes the assignment with the most cards; §5 for what a card may stand for).

    A word is cut into pieces of one letter (a letter card or a joker) and two letters (a
    two-letter card in its written order, or the double joker). Among the cuttings with the most
    cards the one with the fewest jokers wins, then the one using the earliest cards of the row.

    Args:
        word: folded letters ``A–Z``.
        cards: the available cards ``{"id", "face", "joker"}`` in row order.
    Returns:
        ``[{"id", "face", "joker", "as"}]`` in spelling order (``"as"`` is the letters the card
        gives), or None when the word cannot be spelt.
    """
    if not word or not _FOLDED.match(word):
        return None
    by_face: dict[str, list[dict]] = {}
    jokers: dict[int, list[dict]] = {1: [], 2: []}
    for c in cards:
        (jokers[c["joker"]] if c["joker"] else by_face.setdefault(c["face"], [])).append(c)
    faces = sorted(by_face)
    start = tuple(len(by_face[f]) for f in faces)
    index = {f: i for i, f in enumerate(faces)}
    n = len(word)
    memo: dict[tuple, tuple | None] = {}

    def solve(pos: int, left: tuple, j1: int, j2: int):
        """Best (cards, -jokers, pieces) from ``pos`` on, or None."""
        if pos == n:
            return (0, 0, ())
        key = (pos, left, j1, j2)
        if key in memo:
            return memo[key]
        best = None
        options = []
        for size in (1, 2):
            piece = word[pos:pos + size]
            if len(piece) != size:
                continue
            i = index.get(piece)
            if i is not None and left[i] > 0:
                options.append((size, piece, i, 0))
            if size == 1 and j1 > 0:
                options.append((1, piece, None, 1))
            if size == 2 and j2 > 0:
                options.append((2, piece, None, 2))
        for size, piece, i, joker in options:
            rest = solve(pos + size, left if i is None else left[:i] + (left[i] - 1,) + left[i + 1:],
                         j1 - (joker == 1), j2 - (joker == 2))
            if rest is None:
                continue
            cand = (rest[0] + 1, rest[1] - (1 if joker else 0), ((piece, joker),) + rest[2])
            if best is None or cand[:2] > best[:2]:
                best = cand
        memo[key] = best
        return best

    found = solve(0, start, len(jokers[1]), len(jokers[2]))
    if found is None:
        return None
    used = {f: 0 for f in faces}
    used_j = {1: 0, 2: 0}
    out = []
    for piece, joker in found[2]:
        if joker:
            card = jokers[joker][used_j[joker]]
            used_j[joker] += 1
        else:
            card = by_face[piece][used[piece]]
            used[piece] += 1
        out.append({"id": card["id"], "face": card["face"], "joker": card["joker"], "as": piece})
    return out


def possible_words(cards: list[dict], lang: str, min_cards: int = MIN_CARDS,
                   limit: int = POSSIBLE_WORDS, scan: int = POSSIBLE_SCAN) -> list[str]:
    """A few list words that could still be spelt from ``cards`` (the round's end; ``suggest``).

    Tries at most ``scan`` words of the list (a seventh of them per length), the longest lengths
    the cards can reach first; in each length it starts at a place that depends on the cards and
    strides across the alphabet, so rounds show different words, and only one form per stem.
    Words needing fewer jokers go first, then longer ones. Deterministic for the same cards.
    Takes well under 0.1 s on the measured tables (the engine loop runs it at a round's end).

    Args:
        cards: the cards that may be used, ``{"id", "face", "joker"}``.
        lang: ``"de"`` or ``"en"``.
        min_cards: fewest cards a word must take (3, or 4 with the handicap).
        limit: most words returned.
        scan: most list words tried.
    Returns:
        Up to ``limit`` folded words of 4–10 letters, each spellable from ``cards`` with at
        least ``min_cards`` cards.
    Raises:
        ValueError / OSError: the word list of ``lang`` cannot be read.
    """
    if len(cards) < min_cards:
        return []
    have: dict[str, int] = {}
    for c in cards:
        if not c["joker"]:
            for ch in c["face"]:
                have[ch] = have.get(ch, 0) + 1
    wild = sum(c["joker"] for c in cards)
    most = sum(len(c["face"]) if not c["joker"] else c["joker"] for c in cards)
    seed = sum((c["id"] + 1) * 7919 for c in cards)
    letters = frozenset(have)
    found: list[tuple[int, int, str]] = []
    stems: set[str] = set()  # one form per stem: not five inflections of one word
    tried = 0
    for length, bucket in _words_by_length(lang):
        if length > most or length < min_cards:
            continue
        start = seed % len(bucket)
        for k in range(min(len(bucket), scan // 7 + 1)):  # each length gets its share
            word = bucket[(start + k * _STRIDE) % len(bucket)]  # spread over the alphabet
            tried += 1
            if tried > scan or len(found) >= limit * 3:
                break
            if len(set(word) - letters) > wild:
                continue  # more different letters missing than there are jokers
            if word[:5] in stems or sum(max(0, word.count(ch) - have.get(ch, 0)) for ch in set(word)) > wild:
                continue  # more letters missing than jokers can stand for
            plan = best_assignment(word, cards)
            if plan is not None and len(plan) >= min_cards:
                stems.add(word[:5])
                found.append((sum(1 for c in plan if c["joker"]), -length, word))
        if tried > scan or len(found) >= limit * 3:
            break
    return [w for _, _, w in sorted(found)[:limit]]


@lru_cache(maxsize=4)
def _words_by_length(lang: str) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """The word list of ``lang`` (folded, 4–10 letters A–Z) by length, longest first, A–Z inside.

    Built from the list already in A–Z order by one stable sort on length (C speed) and slices,
    not a Python loop over every word (issue 18: 0.26 s of CPU at start, now ~0.04 s);
    ``tests/test_diabolo_index.py`` checks it equals :func:`_words_by_length_slow`.
    """
    by_length = sorted(_lexicon().sorted_words(lang), key=len, reverse=True)  # stable: A–Z stays
    buckets = []
    for n in range(10, 3, -1):
        lo = bisect.bisect_left(by_length, -n, key=_minus_len)
        hi = bisect.bisect_right(by_length, -n, key=_minus_len)
        if hi > lo:
            bucket = by_length[lo:hi]
            if not _ASCII_LETTERS.fullmatch("\n".join(bucket)):  # the lists hold only A–Z: a guard
                bucket = [w for w in bucket if w.isascii() and w.isalpha()]
            if bucket:
                buckets.append((n, tuple(bucket)))
    return tuple(buckets)


def _minus_len(word: str) -> int:
    return -len(word)


_ASCII_LETTERS = re.compile(r"[A-Za-z\n]*")


def _words_by_length_slow(lang: str) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """The same index as :func:`_words_by_length`, built word by word from the set (the old
    way; kept as the reference its test compares with)."""
    buckets: dict[int, list[str]] = {}
    for w in _lexicon().words(lang):
        if 4 <= len(w) <= 10 and w.isascii() and w.isalpha():
            buckets.setdefault(len(w), []).append(w)
    return tuple((n, tuple(sorted(buckets[n]))) for n in sorted(buckets, reverse=True))
