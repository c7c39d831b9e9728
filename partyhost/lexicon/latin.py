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
        _sets[lang] = frozenset(data.split())


def is_known(folded: str, lang: str) -> bool:
    """True if the already folded word (see :func:`fold`) is in the ``lang`` list.

    One hash lookup once loaded; loads the list on first use. Raises ``ValueError`` for an
    unknown language.
    """
    load(lang)
    return folded in _sets[lang]


def words(lang: str) -> frozenset[str]:
    """The whole folded word set of ``lang`` (shared and immutable; do not copy per call)."""
    load(lang)
    return _sets[lang]
