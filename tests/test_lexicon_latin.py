"""Word lists and decks for Diabolo (partyhost/lexicon/latin.py, games/data/diabolo_decks.json).

Spelling rules: seeds/004_… (ß as SS, umlauts as AE/OE/UE, no abbreviations); deck: RULES.md.
"""

from __future__ import annotations

import gzip
import json
import re
import time
import unicodedata
from importlib import resources

import pytest

from partyhost.lexicon import latin

# ----- folding -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "typed, folded",
    [
        ("Häuser", "HAEUSER"),
        ("Straße", "STRASSE"),
        ("STRAẞE", "STRASSE"),
        ("straẞe", "STRASSE"),
        ("Öl", "OEL"),
        ("Übel", "UEBEL"),
        ("MÜNCHEN", "MUENCHEN"),
        (" kin dern\t", "KINDERN"),
        ("hang", "HANG"),
        # decomposed input (a + COMBINING DIAERESIS), as some phone keyboards send it
        (unicodedata.normalize("NFD", "Häuser"), "HAEUSER"),
        ("", ""),
    ],
)
def test_fold_german(typed, folded):
    assert latin.fold(typed) == folded
    assert latin.fold(typed, "de") == folded


def test_fold_full_width_letters_as_a_japanese_keyboard_types_them():
    # a Japanese IME in full-width mode types ｈａｎｇ / ＨＡＮＧ and a full-width space
    assert latin.fold("ｈａｎｇ") == "HANG"
    assert latin.fold("ＨÄＵＳＥＲ", "de") == "HAEUSER"
    assert latin.fold("ｓｔｒａßｅ") == "STRASSE"
    assert latin.fold("ｈａ\u3000ｎｇ") == "HANG"
    assert latin.fold("ｔｈｅｎ", "en") == "THEN"


def test_fold_english_only_uppercases():
    assert latin.fold("Quizzes", "en") == "QUIZZES"
    assert latin.fold(" went ", "en") == "WENT"
    # no umlaut folding outside German: the caller's A–Z check refuses it
    assert latin.fold("Häuser", "en") == "HÄUSER"


def test_fold_raises_nothing():
    assert latin.fold(None) == ""  # type: ignore[arg-type]
    assert latin.fold(12) == ""  # type: ignore[arg-type]
    assert latin.fold("ÉTÉ?!") == "ÉTÉ?!"  # left for the caller's A–Z validation


# ----- German list -----------------------------------------------------------------------------

GERMAN_KNOWN = ["HANG", "LAGER", "STOP", "POST", "GEHST", "HAEUSER", "KINDERN", "HEISST",
                "STRASSE", "HAUS", "FUSS", "MUESST", "ASTES", "STIELE", "KOCH", "BAUER",
                "LAGERN", "GEHEN", "SCHOEN", "ESSEN"]
# Names the build's denylists remove (german-nouns name tags, wamerican's capitalised names,
# unvouched capitalised entries, s-genitives) and abbreviations.
GERMAN_UNKNOWN = ["PETER", "BERLIN", "MUENCHEN", "DORTMUND", "MERKEL", "HAMBURG", "ITALIEN",
                  "SALZBURGS", "PETERS", "HANS", "MICROSOFT", "USA", "GMBH", "ZB", "BZW", "USW", "ETC", "EVTL", "KM", "THE"]


@pytest.mark.parametrize("word", GERMAN_KNOWN)
def test_german_known(word):
    assert latin.is_known(word, "de")


@pytest.mark.parametrize("word", GERMAN_UNKNOWN)
def test_german_names_and_abbreviations_unknown(word):
    assert not latin.is_known(word, "de")


def test_german_seed_examples_via_fold():
    # seeds/004_…: HANG, LAGER, STOP, POST — typed in any case and with umlauts
    for typed in ["hang", "Lager", "stop", "Post", "Häuser", "heißt", "Straße", "STRAẞE"]:
        assert latin.is_known(latin.fold(typed), "de"), typed


# ----- English list ----------------------------------------------------------------------------

@pytest.mark.parametrize("word", ["STOP", "HOUSES", "WENT", "QUIZZES", "POST", "HANG", "GOES",
                                  "STEERS", "LAGER"])
def test_english_known(word):
    assert latin.is_known(word, "en")


@pytest.mark.parametrize("word", ["LONDON", "IBM", "NASA", "OBAMA", "DONT", "HAEUSER"])
def test_english_names_acronyms_unknown(word):
    assert not latin.is_known(word, "en")


# ----- shape of the data -------------------------------------------------------------------------

@pytest.mark.parametrize("lang, at_least", [("de", 300_000), ("en", 100_000)])
def test_words_are_folded_az_and_large(lang, at_least):
    ws = latin.words(lang)
    assert isinstance(ws, frozenset)
    assert len(ws) >= at_least
    az = re.compile(r"^[A-Z]{2,}$")
    bad = [w for w in ws if not az.match(w)]
    assert bad == []
    assert latin.words(lang) is ws  # loaded once, shared


def test_data_file_matches_set():
    raw = resources.files("partyhost.lexicon").joinpath("data", "de_words.txt.gz").read_bytes()
    lines = gzip.decompress(raw).decode("ascii").split("\n")
    assert lines[-1] == ""
    body = lines[:-1]
    assert body == sorted(body)
    assert len(body) == len(set(body)) == len(latin.words("de"))


def test_licences_ship_beside_data():
    data = resources.files("partyhost.lexicon").joinpath("data")
    de = data.joinpath("de_words.LICENSE").read_text(encoding="utf-8")
    en = data.joinpath("en_words.LICENSE").read_text(encoding="utf-8")
    assert "GNU GENERAL PUBLIC LICENSE" in de and "Version 2" in de
    assert "SCOWL" in en and "Kevin Atkinson" in en


def test_load_idempotent_and_unknown_language():
    latin.load("de")
    before = latin.words("de")
    latin.load("de")
    assert latin.words("de") is before
    with pytest.raises(ValueError):
        latin.load("xx")
    with pytest.raises(ValueError):
        latin.is_known("HAUS", "xx")


def test_lookup_is_fast():
    latin.load("de")
    probe = ["HAUS", "XYZQ", "HAEUSER", "PETER"] * 25_000
    t = time.perf_counter()
    hits = sum(latin.is_known(w, "de") for w in probe)
    elapsed = time.perf_counter() - t
    assert hits == 50_000
    assert elapsed < 1.0  # ~100k lookups; in practice ~30 ms


# ----- decks ----------------------------------------------------------------------------------

def _decks():
    raw = resources.files("partyhost.games").joinpath("data", "diabolo_decks.json").read_text("utf-8")
    return json.loads(raw)


def test_german_deck_is_rules_md():
    deck = _decks()["de"]
    got = {c["face"]: c["count"] for c in deck["cards"]}
    want = dict(E=9, N=6, R=5, A=4, T=3, S=3, I=3, U=3, L=3, D=2, G=2, O=2, M=2,
                B=1, H=1, F=1, K=1, W=1, Z=1, P=1, V=1, CH=2, EI=1, IE=1, ST=1)
    want["?"] = 5
    want["??"] = 1
    assert got == want
    jokers = {c["face"]: c.get("joker") for c in deck["cards"] if c.get("joker")}
    assert jokers == {"?": 1, "??": 2}
    assert "not the original" in deck["note"]


@pytest.mark.parametrize("lang", ["de", "en"])
def test_deck_shape(lang):
    deck = _decks()[lang]
    cards = deck["cards"]
    assert sum(c["count"] for c in cards) == 66
    faces = [c["face"] for c in cards]
    assert len(faces) == len(set(faces))
    letters = [c for c in cards if not c.get("joker")]
    assert all(re.fullmatch(r"[A-Z]{1,2}", c["face"]) and c["count"] >= 1 for c in letters)
    assert sum(c["count"] for c in letters if len(c["face"]) == 1) == 55
    assert sum(c["count"] for c in letters if len(c["face"]) == 2) == 5
    assert sum(c["count"] for c in cards if c.get("joker") == 1) == 5
    assert sum(c["count"] for c in cards if c.get("joker") == 2) == 1


def test_english_deck_spells_english():
    # every single letter the deck carries is common in English; the rare ones are jokers' work
    got = {c["face"]: c["count"] for c in _decks()["en"]["cards"]}
    assert got["E"] == max(v for k, v in got.items() if len(k) == 1 and k != "?")
    for rare in "JQXZ":
        assert rare not in got
