"""Reading a word: one kana pipeline for typed words, the dictionary and the cards.

Rules: ``RULES.md`` "Word Basket → Reading a word", from the rulebook ``seeds/002_…``
(使える言葉と、文字の数え方; 濁点と半濁点; ワイルド…):

1. Unicode NFKC (half-width ｶﾞ → ガ, full-width forms, か + U+3099 → が).
2. Katakana → hiragana (``jaconv``). Spaces, ・ and the name separators ゠/= are dropped and not
   counted. Dash-like marks (-, ‐, ―, −, 〜, ~) typed for a long vowel become ー. Iteration marks
   ゝ/ゞ are spelled out (いすゞ → いすず). What remains must be hiragana (ー allowed).
3. Length = number of kana; small kana, っ and ー count one each (すきー, らっこ, しゅみ are 3).
4. First kana without dakuten/handakuten (が → か, ぱ → は, ゔ → う).
5. Last kana: ー → the vowel of the kana before it (a small kana's own vowel: しょー → お);
   small → large (ゃ → や, っ → つ, ゎ → わ, ゕ → か); dakuten/handakuten dropped (はっぱ → は).
   A last kana ん (also んー) is flagged by ``ends_with_n``: such a word may not be played.

Vowels and small/large pairs are taken from the Unicode character names (``HIRAGANA LETTER SMALL
YA`` ↔ ``HIRAGANA LETTER YA``), not from a hand-typed table.
"""

from __future__ import annotations

import unicodedata
from typing import NamedTuple

import jaconv

__all__ = [
    "MAX_KANA",
    "ROWS",
    "Reading",
    "ReadingError",
    "normalize",
    "plain",
    "reading",
    "row_of",
]

#: Longest accepted reading, in kana (the longest dictionary readings are well under this).
MAX_KANA = 30

#: Raw input longer than this is refused before any normalisation work (cheap guard).
_MAX_RAW = MAX_KANA * 8

LONG_VOWEL = "ー"
_DAKUTEN = "\u3099"
_HANDAKUTEN = "\u309a"
_MARKS = (_DAKUTEN, _HANDAKUTEN)

#: Row key → the kana of that row (modern gojūon, plain large kana). The わ row holds わ and を,
#: as in the traditional table; Word Basket has no わ-row card, so this only matters for
#: :func:`row_of`. The historical ゐ/ゑ are not listed but :func:`row_of` puts them in the わ row.
ROWS: dict[str, str] = {
    "あ": "あいうえお",
    "か": "かきくけこ",
    "さ": "さしすせそ",
    "た": "たちつてと",
    "な": "なにぬねの",
    "は": "はひふへほ",
    "ま": "まみむめも",
    "や": "やゆよ",
    "ら": "らりるれろ",
    "わ": "わを",
}

_ROW_OF: dict[str, str] = {k: row for row, kanas in ROWS.items() for k in kanas}
_ROW_OF.update({"ゐ": "わ", "ゑ": "わ"})

_HIRAGANA = frozenset(chr(c) for c in range(0x3041, 0x3097))  # ぁ … ゖ (incl. ゔ ゕ ゖ)
_KANA_OK = _HIRAGANA | {LONG_VOWEL}

# Dropped (not counted): whitespace is handled separately; these are the word separators.
_DROP = frozenset("・゠=")
# Typed stand-ins for the long-vowel mark (after NFKC: ～ → ~, － → -).
_DASHES = frozenset("-‐‑‒–—―−~〜")
# Katakana with no hiragana counterpart in Unicode (ヷ = ワ + ゛ …): decompose before conversion.
_DECOMPOSE = frozenset("ヷヸヹヺ")


def _name_parts(ch: str) -> tuple[bool, str] | None:
    """(is_small, romanised syllable) from the Unicode name of a hiragana letter, e.g. ゃ → (True, "YA")."""
    try:
        name = unicodedata.name(ch)
    except ValueError:
        return None
    prefix = "HIRAGANA LETTER "
    if not name.startswith(prefix):
        return None
    rest = name[len(prefix):]
    small = rest.startswith("SMALL ")
    return small, rest[6:] if small else rest


def _build_tables() -> tuple[dict[str, str], dict[str, str]]:
    vowels = {"A": "あ", "I": "い", "U": "う", "E": "え", "O": "お"}
    large: dict[str, str] = {}
    vowel: dict[str, str] = {}
    for ch in _HIRAGANA:
        parts = _name_parts(ch)
        if parts is None:
            continue
        small, syllable = parts
        if small:
            large[ch] = unicodedata.lookup("HIRAGANA LETTER " + syllable)
        if syllable[-1] in vowels:
            vowel[ch] = vowels[syllable[-1]]
    return large, vowel


#: small kana → large kana (ゃ → や, っ → つ, ゎ → わ, ゕ → か, ゖ → け)
_LARGE, _VOWEL = _build_tables()


class ReadingError(ValueError):
    """A typed word that is not a usable kana reading.

    ``code`` is one of ``word_empty`` (nothing left after normalisation), ``word_not_kana``
    (kanji, latin or other symbols: "type the reading in kana"; ``params["char"]`` is the first
    offending character), ``word_too_long`` (``params["max"]`` = :data:`MAX_KANA`,
    ``params["length"]`` = kana counted, or raw characters for absurdly long input).
    """

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(code)
        self.code = code
        self.params = params

    def __repr__(self) -> str:
        return f"ReadingError({self.code!r}, **{self.params!r})"


class Reading(NamedTuple):
    """A validated reading.

    kana: normalised hiragana (ー kept; spaces and ・ dropped).
    length: kana count (small kana, っ and ー one each).
    first: first kana without dakuten/handakuten (が → か, ぱ → は, ゔ → う).
    last: last kana for matching the card and the next field (ー → vowel, small → large,
        dakuten dropped); ``"ん"`` when the word ends in ん.
    ends_with_n: the last kana is ん (also ん followed by ー): not playable.
    """

    kana: str
    length: int
    first: str
    last: str
    ends_with_n: bool


def plain(kana: str) -> str:
    """``kana`` without dakuten/handakuten (が → か, ぱ → は, ゔ → う). Small kana stay small.

    Works on any string (each character is decomposed, the marks removed); non-kana pass through.
    """
    decomposed = unicodedata.normalize("NFD", kana)
    return unicodedata.normalize("NFC", "".join(c for c in decomposed if c not in _MARKS))


def _large(kana: str) -> str:
    return _LARGE.get(kana, kana)


def row_of(kana: str) -> str | None:
    """Row key ("あ", "か", …, "わ") of one kana, plain or voiced, small or large (ぶ → "は",
    ゃ → "や", を → "わ"); ``None`` for ん, ー and anything that is not a kana of a row."""
    if not kana:
        return None
    base = plain(kana)[:1]
    return _ROW_OF.get(_large(base))


def _expand_iteration(chars: list[str]) -> list[str]:
    out: list[str] = []
    for ch in chars:
        if ch in ("ゝ", "ゞ") and out:
            prev = out[-1]
            # the base of the previous kana (skip a trailing combining mark)
            base = prev if prev not in _MARKS or len(out) < 2 else out[-2]
            base = plain(base)
            if base in _HIRAGANA:
                out.append(base if ch == "ゝ" else unicodedata.normalize("NFC", base + _DAKUTEN))
                continue
        out.append(ch)
    return out


def normalize(text: str) -> str:
    """NFKC, katakana → hiragana, spaces/・ dropped, dashes → ー, ゝゞ spelled out. No validation:
    the result may still hold kanji or latin letters (``normalize("新学期") == "新学期"``)."""
    s = unicodedata.normalize("NFKC", text)
    kept = []
    for ch in s:
        if ch.isspace() or ch in _DROP or unicodedata.category(ch) == "Cf":
            continue
        kept.append(LONG_VOWEL if ch in _DASHES else ch)
    # Recompose marks that a dropped space had separated (か゛ → NFKC "か ゙" → が).
    s = unicodedata.normalize("NFC", "".join(kept))
    # ヷヸヹヺ have no hiragana form: keep them as わ゙ … (base + combining mark).
    s = "".join(unicodedata.normalize("NFD", c) if c in _DECOMPOSE else c for c in s)
    s = jaconv.kata2hira(s)
    return "".join(_expand_iteration(list(s)))


def _units(kana: str) -> list[str]:
    """Split into kana units (a base kana plus any combining mark left after NFC, e.g. わ゙);
    raises ``word_not_kana`` for anything else."""
    units: list[str] = []
    for ch in kana:
        if ch in _MARKS:
            if not units or units[-1][0] not in _HIRAGANA:
                raise ReadingError("word_not_kana", char=ch)
            units[-1] += ch
        elif ch in _KANA_OK:
            units.append(ch)
        else:
            raise ReadingError("word_not_kana", char=ch)
    return units


def reading(text: str) -> Reading:
    """Validate and read a typed word (see module docstring for the rules).

    Raises :class:`ReadingError` ``word_empty``, ``word_not_kana`` (also for a leading ー, which
    has no kana to lengthen) or ``word_too_long`` (more than :data:`MAX_KANA` kana).
    """
    if len(text) > _MAX_RAW:
        raise ReadingError("word_too_long", max=MAX_KANA, length=len(text))
    kana = normalize(text)
    if not kana:
        raise ReadingError("word_empty")
    units = _units(kana)
    if units[0] == LONG_VOWEL:
        raise ReadingError("word_not_kana", char=LONG_VOWEL)
    if len(units) > MAX_KANA:
        raise ReadingError("word_too_long", max=MAX_KANA, length=len(units))

    first = plain(units[0])
    end = len(units) - 1
    while units[end] == LONG_VOWEL:
        end -= 1  # units[0] is not ー, so this stops
    base = plain(units[end])
    if units[-1] == LONG_VOWEL:
        # ー: the vowel of the kana before it (a small kana's own vowel); ん keeps ん.
        last = _VOWEL.get(base, base)
    else:
        last = plain(_large(base))
    return Reading(kana=kana, length=len(units), first=first, last=last, ends_with_n=last == "ん")
