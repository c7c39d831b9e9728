"""Word Basket: the 60 cards and the judging of a word against them (pure functions, no state).

What a word must be to carry a card into the basket, as the rulebook ``shared/seeds/002_…`` says
(sections 使える言葉と、文字の数え方; ワイルドは長さ、または行を指定する; 同時に入ったとき、残り1枚と上がり;
子どもや経験差があるとき) and ``shared/RULES.md`` "Word Basket → Reading a word / Plays" settles:

* :data:`CARDS` — the deck as data; :func:`card_label` — a card's short public name.
* :func:`read_word` — the shown word and its kana reading for a play (kana typed, or kanji with a
  confirmed reading); :func:`readings` / :func:`lookup` — the known readings of a typed word.
* :func:`fit_error` — why a reading cannot carry a card onto a field, or None when it fits.
* :func:`is_known` — whether the built-in noun list knows a reading (the table judges the rest).

Readings come from one pipeline (:mod:`partyhost.lexicon.kana`) for typed words, the dictionary
(:mod:`partyhost.lexicon.japanese`) and the cards alike. Refusals are :class:`~.base.RuleError`
with ``wb_*`` codes, worded in ``partyhost/i18n/word_basket.{ja,en}.json``.
"""

from __future__ import annotations

import unicodedata

from ..lexicon import japanese, kana
from .base import RuleError

# --- the cards, as data ----------------------------------------------------------------------

#: The 45 kana cards: the 44 gojūon kana without を and ん, and a second わ (seed: カードを配り…;
#: research §2).
KANA_CARDS: str = "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわ" + "わ"
#: The 6 number wilds: exactly 5, exactly 6, 7 or more kana (7 stands for "7+"), two each.
NUMBER_CARDS: tuple[int, ...] = (5, 5, 6, 6, 7, 7)
#: The 9 row wilds (RULES.md: no わ-row card).
ROW_CARDS: str = "あかさたなはまやら"


def _build_cards() -> tuple[dict, ...]:
    cards: list[dict] = []
    for k in KANA_CARDS:
        cards.append({"id": len(cards), "kind": "kana", "kana": k})
    for n in NUMBER_CARDS:
        cards.append({"id": len(cards), "kind": "number", "number": n})
    for r in ROW_CARDS:
        cards.append({"id": len(cards), "kind": "row", "row": r, "kana": kana.ROWS[r]})
    return tuple(cards)


#: Card id → card face: ``{"id": 0‥44, "kind": "kana", "kana": "る"}``, ``{"id": 45‥50, "kind":
#: "number", "number": 5 | 6 | 7}`` (7 is "7+") or ``{"id": 51‥59, "kind": "row", "row": "か",
#: "kana": "かきくけこ"}``. Every game uses all 60.
CARDS: tuple[dict, ...] = _build_cards()
DECK_SIZE = len(CARDS)
assert DECK_SIZE == 60

#: Handicap → (shortest word, shortest word for the last card), in kana (seed: 子どもや経験差があるとき).
HANDICAPS: dict[str, tuple[int, int]] = {"easy": (2, 3), "normal": (3, 4), "hard": (4, 5)}
#: Most readings a lookup returns.
LOOKUP_MAX = 8
#: Honorific prefixes (美化語) said before everyday nouns: お寿司, ご近所 (see :func:`readings`).
HONORIFICS = ("お", "ご")


def card_label(card_id: int) -> str:
    """A short public label of card ``card_id`` (0‥59): ``"る"``, ``"5"``, ``"7+"``, ``"か行"``.

    Raises:
        IndexError: ``card_id`` is not a card.
    """
    c = CARDS[card_id]
    if c["kind"] == "kana":
        return c["kana"]
    if c["kind"] == "number":
        return "7+" if c["number"] == 7 else str(c["number"])
    return c["row"] + "行"


def is_number(card_id: int) -> bool:
    """True for a number wild (it never becomes the field; seed: 数字のワイルドが最初に出たときだけは…)."""
    return CARDS[card_id]["kind"] == "number"


# --- reading a typed word ----------------------------------------------------------------------

def has_kanji(text: str) -> bool:
    """True when ``text`` holds a kanji (CJK ideograph or 々), i.e. it may have a dictionary reading."""
    return any(ch == "々" or unicodedata.name(ch, "").startswith("CJK") for ch in text)


def _is_rendaku_of(reading: str, candidates: list[str]) -> bool:
    """True when ``reading`` is the voiced (rendaku) form of another reading in ``candidates``
    (ずし of すし, ばな of はな): the form a noun takes inside a compound, not after お."""
    unvoiced = kana.plain(reading[:1]) + reading[1:]
    return unvoiced != reading and unvoiced in candidates


def readings(surface: str) -> list[str]:
    """Known kana readings of a word typed in kanji (normalised hiragana, deduplicated, most likely
    first, at most :data:`LOOKUP_MAX`); ``[]`` when the list knows none (RULES.md "Words").

    A written form the list does not hold but that is the honorific お/ご before a word it does
    hold (お寿司, お花, ご近所: how a Japanese table says many everyday nouns) reads as the prefix
    and the readings of the rest, without their rendaku forms (お寿司 is おすし, never おずし).
    Such a reading is not made a known word by this: the table still judges it.
    """
    candidates = japanese.readings_of(surface)
    key = kana.normalize(surface)
    if not candidates and key[:1] in HONORIFICS and has_kanji(key[1:]):
        rest = japanese.readings_of(key[1:])
        candidates = [key[0] + r for r in rest if not _is_rendaku_of(r, rest)]
    out: list[str] = []
    for candidate in candidates:
        try:
            k = kana.reading(candidate).kana
        except kana.ReadingError:
            continue
        if k not in out:
            out.append(k)
        if len(out) >= LOOKUP_MAX:
            break
    return out


def lookup(text: str) -> tuple[str, list[str]]:
    """What the ``lookup`` action answers for ``text``: ``(shown text, readings)``. A kana word is
    its own one reading; kanji get :func:`readings`; anything unreadable gets ``[]``. Never raises."""
    shown = unicodedata.normalize("NFKC", text).strip()
    try:
        return shown, [kana.reading(shown).kana]
    except kana.ReadingError as error:
        return shown, readings(shown) if error.code == "word_not_kana" else []


def read_word(word: str, chosen: str | None) -> tuple[str, kana.Reading]:
    """The shown word and its reading for a play of ``word`` (as typed, ≤ 240 characters) with the
    confirmed reading ``chosen`` (needed when ``word`` is not kana). RULES.md "Reading a word";
    seed: 使える言葉と、文字の数え方.

    Returns:
        ``(surface, reading)``: ``surface`` is ``word`` NFKC-normalised and stripped (what the
        chain shows); ``reading`` the :class:`~partyhost.lexicon.kana.Reading` the rules judge.
    Raises:
        RuleError: ``wb_word_empty``, ``wb_word_not_kana`` (``char``), ``wb_word_too_long``
            (``max``, ``length``) from :mod:`~partyhost.lexicon.kana`; ``wb_reading_unknown``
            (``word``: kanji with no known reading); ``wb_reading_needed`` (``word``, ``readings``:
            the candidates joined by "・"; kanji sent without a reading); ``wb_reading_mismatch``
            (``word``, ``readings``: ``chosen`` is not a reading of ``word``).
    """
    surface = unicodedata.normalize("NFKC", word).strip()
    try:
        r = kana.reading(word)
    except kana.ReadingError as error:
        if error.code != "word_not_kana":
            raise RuleError("wb_" + error.code, **error.params) from None
        not_kana = error
    else:
        if chosen is not None and kana.normalize(chosen) != r.kana:
            raise RuleError("wb_reading_mismatch", word=surface[:20], readings=r.kana)
        return surface, r
    candidates = readings(surface)
    if not candidates:
        if not has_kanji(surface):  # latin letters, symbols…: "type the reading in kana"
            raise RuleError("wb_word_not_kana", **not_kana.params)
        raise RuleError("wb_reading_unknown", word=surface[:20])
    if chosen is None:
        raise RuleError("wb_reading_needed", word=surface[:20], readings=list(candidates))
    try:
        r = kana.reading(chosen)
    except kana.ReadingError as error:
        raise RuleError("wb_" + error.code, **error.params) from None
    if r.kana not in candidates:
        raise RuleError("wb_reading_mismatch", word=surface[:20], readings=list(candidates))
    return surface, r


# --- does a reading fit a card on a field? -----------------------------------------------------

def starts(field: dict) -> str:
    """The kana a word may start with on ``field`` (``{"kana", "row"}``): the field kana, any kana
    of a row wild's row, or (neither: an edge no table meets) any kana, ``""``."""
    if field.get("kana") is not None:
        return field["kana"]
    if field.get("row") is not None:
        return kana.ROWS[field["row"]]
    return ""


def same_word(previous: str | None, previous_surface: str | None, r: kana.Reading, surface: str | None) -> bool:
    """Whether a word is the same word as the player's previous one (the repeat rule, seed:
    同じ人が、自分の連続した回答で同じ単語を繰り返すのは禁止): words are compared, not readings.
    Two words with the same reading are different words when both were written with kanji and
    the writings differ (白紙 then 博士, both はくし); a word typed in kana cannot be told apart
    from another of its reading, so it counts as the same word."""
    if previous is None or previous != r.kana:
        return False
    if previous_surface and surface and has_kanji(previous_surface) and has_kanji(surface):
        return previous_surface == surface
    return True


def fit_error(card_id: int, r: kana.Reading, field: dict, shortest: int, last_card: bool = False,
              previous: str | None = None, previous_surface: str | None = None,
              surface: str | None = None) -> RuleError | None:
    """Why reading ``r`` cannot carry card ``card_id`` onto ``field``, or None when it fits.

    Args:
        card_id: the card played (0‥59).
        r: the word's reading (:func:`read_word`).
        field: ``{"kana": str | None, "row": str | None}`` the word must start from.
        shortest: the fewest kana this word needs (the player's handicap, :data:`HANDICAPS`;
            the larger number when it carries the player's last card).
        last_card: the card is the player's last (the refusal is then ``wb_last_word_too_short``).
        previous: the player's own previous reading (the repeat rule), or None.
        previous_surface, surface: how the previous and this word were written (see
            :func:`same_word`: 白紙 then 博士 is no repeat); None when not known.

    Rules (seed: 使える言葉と、文字の数え方; ワイルドは長さ、または行を指定する; 最後の1枚は4文字以上;
    同じ人が…同じ単語を繰り返すのは禁止), checked in this order, each a returned
    :class:`~.base.RuleError`: ``wb_word_ends_n`` (``word``); ``wb_word_too_short`` /
    ``wb_last_word_too_short`` (``min``, ``length``); ``wb_wrong_start``
    (``field``, ``first``); ``wb_wrong_start_row`` (``row``, ``first``); ``wb_wrong_end``
    (``card``, ``last``); ``wb_wrong_end_row`` (``row``, ``last``); ``wb_wrong_length`` (``card``,
    ``length``); ``wb_word_repeated`` (``word``).
    """
    if r.ends_with_n:
        return RuleError("wb_word_ends_n", word=r.kana)
    if r.length < shortest:
        if last_card:
            return RuleError("wb_last_word_too_short", min=shortest, length=r.length)
        return RuleError("wb_word_too_short", min=shortest, length=r.length)
    first = kana.plain(r.first)
    if field.get("kana") is not None:
        if first != kana.plain(field["kana"]):
            return RuleError("wb_wrong_start", field=field["kana"], first=r.first)
    elif field.get("row") is not None:
        if first not in kana.ROWS[field["row"]]:
            return RuleError("wb_wrong_start_row", row=field["row"], first=r.first)
    card = CARDS[card_id]
    last = kana.plain(r.last)
    if card["kind"] == "kana" and last != card["kana"]:
        return RuleError("wb_wrong_end", card=card["kana"], last=last)
    if card["kind"] == "row" and last not in kana.ROWS[card["row"]]:
        return RuleError("wb_wrong_end_row", row=card["row"], last=last)
    if card["kind"] == "number":
        n = card["number"]
        if (n == 7 and r.length < 7) or (n != 7 and r.length != n):
            return RuleError("wb_wrong_length", card=card_label(card_id), length=r.length)
    if same_word(previous, previous_surface, r, surface):
        return RuleError("wb_word_repeated", word=r.kana)
    return None


def is_known(reading: str) -> bool:
    """Whether the built-in noun list knows ``reading`` (normalised hiragana): a known word stands,
    an unknown one is for the table (RULES.md "Words")."""
    return japanese.is_known(reading)
