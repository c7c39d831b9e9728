"""The built-in Japanese noun list (Word Basket, ``seeds/002_…`` 使える言葉; RULES.md "Words").

Data (``partyhost/lexicon/data/``, built by ``tools/build_ja_lexicon.py`` from SudachiDict core and
JMdict; licences beside the files, see ``docs/lexicon.md``):

- ``ja_readings.txt.gz``: the known readings, as :func:`partyhost.lexicon.kana.reading` gives
  them (hiragana, ー kept). Held in a ``frozenset``: :func:`is_known` is O(1).
- ``ja_surfaces.tsv.gz``: written forms with kanji (or latin letters with kana) → readings, most
  likely first. Held as one string with an index by first character, so a lookup scans only the
  lines that share the surface's first character (tens of microseconds) and costs a few MB
  instead of a dict of 240k entries.

Call :func:`load` once before the first game (``Game.prepare``); the lookups load lazily if it was
not called, but that would put the ~0.2 s load inside a handler.
"""

from __future__ import annotations

import gzip
import re
import threading
from importlib import resources

from partyhost.lexicon.kana import normalize

__all__ = ["is_known", "load", "loaded", "readings_of"]

READINGS_FILE = "ja_readings.txt.gz"
SURFACES_FILE = "ja_surfaces.tsv.gz"

_lock = threading.Lock()
_readings: frozenset[str] | None = None
_surfaces: str = ""                    # "\n" + sorted "surface\treading\treading…" lines + "\n"
_buckets: dict[str, tuple[int, int]] = {}  # first char of surface → [start, end) in _surfaces


def _read_gz(name: str) -> str:
    data = resources.files("partyhost.lexicon").joinpath("data", name).read_bytes()
    return gzip.decompress(data).decode("utf-8")


# One match per run of lines that start with the same character (the file is sorted).
_RUN = re.compile(r"\n(.)[^\n]*(?:\n\1[^\n]*)*")


def _index(text: str) -> dict[str, tuple[int, int]]:
    """First character → ``(start, end)`` offsets in ``text`` of the run of lines starting with it
    (``start`` at the newline before its first line, ``end`` just past its last line's newline)."""
    return {m.group(1): (m.start(), m.end() + 1) for m in _RUN.finditer(text)}


def load() -> None:
    """Load both data files (idempotent, thread-safe). Raises ``OSError`` if the package data is
    missing (a broken install)."""
    global _readings, _surfaces, _buckets
    if _readings is not None:
        return
    with _lock:
        if _readings is not None:
            return
        readings = frozenset(_read_gz(READINGS_FILE).split("\n")) - {""}
        surfaces = "\n" + _read_gz(SURFACES_FILE).strip("\n") + "\n"
        _buckets = _index(surfaces)
        _surfaces = surfaces
        _readings = readings


def loaded() -> bool:
    """Whether :func:`load` has run."""
    return _readings is not None


def is_known(kana: str) -> bool:
    """Whether ``kana`` (a :attr:`Reading.kana <partyhost.lexicon.kana.Reading.kana>`: normalised
    hiragana, ー kept) is the reading of a noun in the list. O(1)."""
    if _readings is None:
        load()
    return kana in _readings  # type: ignore[operator]


def readings_of(surface: str) -> list[str]:
    """Readings (normalised hiragana) of a written form with kanji, most likely first:
    ``readings_of("新学期") == ["しんがっき"]``, ``readings_of("今日")[0] == "きょう"``.

    The surface is normalised like a typed word (NFKC, katakana parts → hiragana, spaces
    dropped), so ``歯ブラシ`` and ``歯ぶらし`` agree. ``[]`` when the form is unknown, and for
    pure kana (that is already a reading: use :func:`is_known`).
    """
    if _readings is None:
        load()
    key = normalize(surface)
    if not key or "\t" in key or "\n" in key:
        return []
    span = _buckets.get(key[0])
    if span is None:
        return []
    needle = "\n" + key + "\t"
    i = _surfaces.find(needle, span[0], span[1])
    if i < 0:
        return []
    j = _surfaces.index("\n", i + len(needle))
    return _surfaces[i + len(needle):j].split("\t")
