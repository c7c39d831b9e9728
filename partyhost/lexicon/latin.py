"""German and English word lists for letter games (Diabolo), checked on a folded spelling.

Folding (``seeds/004_…``, the spelling rules; ``RULES.md`` Diabolo): NFKC first (NFC plus the
width fold, so the full-width ｈａｎｇ a Japanese keyboard types is HANG), then upper case,
whitespace removed, and for German Ä→AE, Ö→OE, Ü→UE, ß/ẞ→SS. The lists ship already folded, one
word a line, gzip'd, in ``partyhost/lexicon/data/{de,en}_words.txt.gz`` (built by
``tools/build_latin_lexicons.py``; sources and licences in ``docs/lexicon_latin.md`` and next to the
data files). Every stored word matches ``^[A-Z]+$``.

Loading is lazy and idempotent: the first :func:`load` (or the first :func:`is_known` /
:func:`words` for that language) reads the file once, later calls return at once. Games call
:func:`load` from ``Game.prepare()`` so the cost is paid at server start.
"""

from __future__ import annotations

import gzip
import threading
import unicodedata
from importlib import resources

LANGS: tuple[str, ...] = ("de", "en")
"""The languages with a word list."""

_DE_FOLDS = str.maketrans({"Ä": "AE", "Ö": "OE", "Ü": "UE", "ẞ": "SS", "ß": "SS"})

_sets: dict[str, frozenset[str]] = {}
_sorted: dict[str, tuple[str, ...]] = {}
_lock = threading.Lock()


def fold(word: str, lang: str = "de") -> str:
    """Fold a typed or listed word to the spelling the lists use.

    ``word``: any string (non-strings give ``""``). ``lang``: ``"de"`` folds umlauts and ß as the
    rulebook says (Häuser → HAEUSER, Straße/STRAẞE → STRASSE); any other language only upper-cases.
    Both remove all whitespace and apply NFKC first: it composes like NFC (a decomposed "a" +
    combining diaeresis folds like "ä") and also folds full-width forms, so ｈａｎｇ (a Japanese
    IME in full-width mode) is HANG; ß, ẞ and the umlauts are left to the steps below. Raises
    nothing; the result may still hold characters outside A–Z, which callers validate (``str.isascii() and str.isalpha()``).
    """
    if not isinstance(word, str):
        return ""
    s = "".join(unicodedata.normalize("NFKC", word).split())
    if lang == "de":
        # translate before upper(): "ß".upper() is already "SS", "ẞ".upper() stays "ẞ".
        return s.upper().translate(_DE_FOLDS)
    return s.upper()


def _path(lang: str):
    return resources.files("partyhost.lexicon").joinpath("data", f"{lang}_words.txt.gz")


def load(lang: str) -> None:
    """Read the word list for ``lang`` into memory once (thread-safe, idempotent).

    Raises ``ValueError`` for a language not in :data:`LANGS`, ``OSError`` if the data file is
    missing from the installation.
    """
    if lang in _sets:
        return
    if lang not in LANGS:
        raise ValueError(f"no word list for language {lang!r}; have {LANGS}")
    with _lock:
        if lang in _sets:
            return
        with _path(lang).open("rb") as raw, gzip.open(raw, "rt", encoding="ascii") as fh:
            data = fh.read()
        listed = data.split()
        listed.sort()  # the files are sorted already: linear time, and then A-Z is guaranteed
        _sorted[lang] = tuple(listed)
        _sets[lang] = frozenset(listed)


def is_known(folded: str, lang: str) -> bool:
    """True if the already folded word (see :func:`fold`) is in the ``lang`` list.

    One hash lookup once loaded; loads the list on first use. Raises ``ValueError`` for an
    unknown language.
    """
    load(lang)
    return folded in _sets[lang]


#: German linking elements (Fugenelemente) allowed between two parts of a compound (issue 14):
#: Geburt-s-tag, Sonne-n-blume, Tomate-n-suppe, Kind-er-garten, Tag-es-zeitung, or none (Haus-tür).
DE_LINKS: tuple[str, ...] = ("", "S", "ES", "N", "EN", "ER")
#: Shortest part of a compound (keeps out splits into AB, IN, UM, ZU …).
COMPOUND_PART_MIN = 3
#: Longest word the splitter tries (a typed word on a phone; keeps the work bounded).
COMPOUND_MAX = 60


def _modifier(part: str, known: frozenset[str]) -> bool:
    """A first part of a German compound: a known word (Haus, Kinder), or the stem of one that ends
    in -en, -n or -e, i.e. a verb stem or a noun without its final -e (Wasch-maschine from
    waschen, Schreib-tisch, Schul-bus from Schule)."""
    return part in known or part + "EN" in known or part + "N" in known or part + "E" in known


def compound_parts(folded: str, lang: str = "de") -> list[str] | None:
    """How an unlisted German word is built from known words, or None (issue 14).

    ``folded`` (see :func:`fold`) splits as ``first [link] second [link] … last``: every part at
    least :data:`COMPOUND_PART_MIN` letters; the last part is a word of the list (so it may be
    inflected: HAUS+TUEREN, FAHRRAD+WEGE); the others are words of the list or the stem of one
    (:func:`_modifier`), each followed by one linking element of :data:`DE_LINKS`. Returns the
    parts with their links (``["ZAHN", "BUERSTE"]``, ``["GEBURT", "S", "TAG"]``), the longest first
    part first. Only German compounds this way (``lang`` other than ``"de"`` gives None); a word already
    in the list gives None too (it needs no split). Abbreviations and letter salad stay unknown:
    no part of them is a word.
    """
    if lang != "de" or not (2 * COMPOUND_PART_MIN <= len(folded) <= COMPOUND_MAX):
        return None
    known = words(lang)
    if folded in known:
        return None
    n = len(folded)
    # chains[i]: the shortest list of parts (with links) that spells folded[:i] as first parts
    chains: dict[int, list[str]] = {0: []}
    for i in range(n):
        chain = chains.get(i)
        if chain is None:
            continue
        if chain and n - i >= COMPOUND_PART_MIN and folded[i:] in known:
            return chain + [folded[i:]]
        for j in range(n - COMPOUND_PART_MIN, i + COMPOUND_PART_MIN - 1, -1):  # longest part first
            part = folded[i:j]
            if not _modifier(part, known):
                continue
            for link in DE_LINKS:
                k = j + len(link)
                if folded.startswith(link, j) and k <= n - COMPOUND_PART_MIN and k not in chains:
                    chains[k] = chain + [part] + ([link] if link else [])
    return None


def is_word(folded: str, lang: str) -> bool:
    """True if the folded word is in the ``lang`` list or, for German, is a compound of its words
    (:func:`compound_parts`): what a table accepts without a vote."""
    return is_known(folded, lang) or compound_parts(folded, lang) is not None


def sorted_words(lang: str) -> tuple[str, ...]:
    """The folded word list of ``lang`` in A-Z order (shared and immutable): what a solver that
    walks the list in order needs, without sorting the whole set again (issue 18: that sort cost
    Diabolo ~0.25 s CPU at every start)."""
    load(lang)
    return _sorted[lang]


def words(lang: str) -> frozenset[str]:
    """The whole folded word set of ``lang`` (shared and immutable; do not copy per call)."""
    load(lang)
    return _sets[lang]
