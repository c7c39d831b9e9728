"""The Decrypto keyword decks (partyhost/games/data/decrypto_keywords.{ja,en}.txt).

ISSUE-4 item 2 and RULES.md "Decrypto": at least 400 keywords per language, our own, everyday and
distinct after normalisation (the same normalisation the game uses to refuse a clue equal to a
keyword: NFKC, casefold, katakana→hiragana). The files are read the way the installed package
reads them, through ``importlib.resources``, and must be covered by the package-data globs in
pyproject.toml so they ship in the wheel.

Katakana→hiragana: ``jaconv`` is used when it is importable; it is not a project dependency, so
otherwise the fold is the fixed Unicode offset between the two syllabaries (U+30A1–U+30F6 →
U+3041–U+3096), which is all jaconv does for this case.
"""

from __future__ import annotations

import importlib.resources
import unicodedata
from pathlib import Path

import pytest

import partyhost

try:  # optional: not installed in the project venv
    import jaconv
except ImportError:  # pragma: no cover - depends on the environment
    jaconv = None

DATA = "games/data"
FILES = {"ja": "decrypto_keywords.ja.txt", "en": "decrypto_keywords.en.txt"}
MIN_COUNT = 400
MAX_LEN = {"ja": 12, "en": 14}


def kata_to_hira(text: str) -> str:
    """Katakana letters → hiragana; everything else (ー, kanji, ASCII) unchanged."""
    if jaconv is not None:
        return jaconv.kata2hira(text)
    return "".join(chr(ord(c) - 0x60) if "\u30a1" <= c <= "\u30f6" else c for c in text)


def normalize(word: str) -> str:
    """The identity of a keyword: NFKC, trimmed, casefolded, katakana folded to hiragana."""
    return kata_to_hira(unicodedata.normalize("NFKC", word).strip().casefold())


def raw_lines(lang: str) -> list[str]:
    res = importlib.resources.files("partyhost").joinpath(f"{DATA}/{FILES[lang]}")
    assert res.is_file(), f"{FILES[lang]} is not reachable through importlib.resources"
    return res.read_text(encoding="utf-8").splitlines()


def keywords(lang: str) -> list[str]:
    """Entries as the loader sees them: blank lines and ``#`` comment lines skipped."""
    return [ln.strip() for ln in raw_lines(lang) if ln.strip() and not ln.lstrip().startswith("#")]


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_at_least_400_keywords(lang):
    assert len(keywords(lang)) >= MIN_COUNT


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_no_duplicates_after_normalisation(lang):
    seen: dict[str, str] = {}
    dups = []
    for word in keywords(lang):
        key = normalize(word)
        if key in seen:
            dups.append((seen[key], word))
        seen[key] = word
    assert dups == []


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_entries_are_clean_and_short(lang):
    for word in keywords(lang):
        assert 1 <= len(word) <= MAX_LEN[lang], word
        assert word == unicodedata.normalize("NFKC", word), word
        assert "#" not in word, word
        assert not any(unicodedata.category(c).startswith("C") for c in word), repr(word)
    # no stray whitespace around entries in the file itself
    for ln in raw_lines(lang):
        assert ln == ln.strip(), repr(ln)


def test_japanese_has_no_spaces_and_no_ascii():
    for word in keywords("ja"):
        assert not any(c.isspace() for c in word), repr(word)
        assert not any(c.isascii() for c in word), word
        # written in kana or kanji (plus the long-vowel mark), nothing else
        for c in word:
            name = unicodedata.name(c, "")
            assert name.startswith(("HIRAGANA", "KATAKANA", "CJK UNIFIED")) or c in "ー々", (
                word,
                c,
            )


def test_english_is_single_lowercase_words():
    for word in keywords("en"):
        assert word.isascii() and word.isalpha(), word
        # lowercase, except a capitalised proper noun (Paris, Tokyo, Christmas…)
        assert word[1:].islower(), word


def test_the_two_decks_are_not_the_same_file():
    assert {normalize(w) for w in keywords("ja")}.isdisjoint(normalize(w) for w in keywords("en"))


def test_keyword_files_are_package_data():
    tomllib = pytest.importorskip("tomllib")
    pkg_dir = Path(partyhost.__file__).parent
    root = pkg_dir.parent
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["partyhost"]
    shipped = {p.relative_to(pkg_dir).as_posix() for pat in patterns for p in pkg_dir.glob(pat)}
    for name in FILES.values():
        assert f"{DATA}/{name}" in shipped, f"{name} is not matched by package-data {patterns}"
