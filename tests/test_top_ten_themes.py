"""The Top Ten theme decks: partyhost/games/data/top_ten_themes.{ja,en}.json.

Each card has two sides of two themes (seeds/001_… §theme: 「日本語版は1枚の両面に2題ずつ」); a
theme is a title, what 1 means (``low``), what 10 means (``high``) and whether it is spoken or
acted (``mode``). The decks are read the way the game reads them, through importlib.resources,
so a file left out of the package fails here too.
"""

from __future__ import annotations

import fnmatch
import json
import pathlib
import re
import unicodedata
from importlib import resources

import jsonschema
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]

THEME = {
    "type": "object",
    "additionalProperties": False,
    "required": ["title", "low", "high", "mode"],
    "properties": {
        "title": {"type": "string", "minLength": 1},
        "low": {"type": "string", "minLength": 1},
        "high": {"type": "string", "minLength": 1},
        "mode": {"enum": ["speak", "gesture"]},
    },
}
SIDE = {"type": "array", "minItems": 2, "maxItems": 2, "items": THEME}
DECK_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "additionalProperties": False,
    "required": ["cards"],
    "properties": {
        "cards": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["id", "sides"],
                "properties": {
                    "id": {"type": "string", "pattern": "^(ja|en)-[0-9]{3}$"},
                    "sides": {"type": "array", "minItems": 2, "maxItems": 2, "items": SIDE},
                },
            },
        }
    },
}

# lang: (minimum cards, longest title, longest pole)
LIMITS = {"ja": (60, 40, 16), "en": (30, 70, 24)}
FILES = {lang: f"games/data/top_ten_themes.{lang}.json" for lang in LIMITS}


def load(lang: str) -> dict:
    """The deck of ``lang`` as shipped in the package."""
    path = resources.files("partyhost").joinpath(FILES[lang])
    return json.loads(path.read_text("utf-8"))


def themes(deck: dict) -> list[dict]:
    return [t for card in deck["cards"] for side in card["sides"] for t in side]


def has_japanese(text: str) -> bool:
    return any(unicodedata.name(ch, "").startswith(("HIRAGANA", "KATAKANA", "CJK UNIFIED")) for ch in text)


@pytest.mark.parametrize("lang", sorted(LIMITS))
def test_deck_matches_the_schema_and_has_enough_cards(lang):
    deck = load(lang)
    jsonschema.Draft202012Validator.check_schema(DECK_SCHEMA)
    jsonschema.validate(deck, DECK_SCHEMA)
    assert len(deck["cards"]) >= LIMITS[lang][0]
    assert all(card["id"].startswith(f"{lang}-") for card in deck["cards"])


@pytest.mark.parametrize("lang", sorted(LIMITS))
def test_ids_and_titles_are_unique(lang):
    deck = load(lang)
    ids = [card["id"] for card in deck["cards"]]
    assert len(ids) == len(set(ids))
    titles = [re.sub(r"\s+", " ", t["title"].strip().casefold()) for t in themes(deck)]
    dupes = sorted({t for t in titles if titles.count(t) > 1})
    assert not dupes


@pytest.mark.parametrize("lang", sorted(LIMITS))
def test_titles_and_poles_are_short_and_filled(lang):
    _, title_max, pole_max = LIMITS[lang]
    for t in themes(load(lang)):
        for key in ("title", "low", "high"):
            assert t[key] == t[key].strip() and t[key], (key, t)
        assert len(t["title"]) <= title_max, t
        assert len(t["low"]) <= pole_max and len(t["high"]) <= pole_max, t
        assert t["low"] != t["high"], t
        assert t["mode"] in {"speak", "gesture"}


@pytest.mark.parametrize("lang", sorted(LIMITS))
def test_gestures_are_about_one_in_eight_and_spread_over_cards(lang):
    deck = load(lang)
    all_themes = themes(deck)
    gestures = [t for t in all_themes if t["mode"] == "gesture"]
    assert 1 / 12 <= len(gestures) / len(all_themes) <= 1 / 5
    for card in deck["cards"]:
        assert sum(t["mode"] == "gesture" for side in card["sides"] for t in side) <= 1, card["id"]


def test_each_deck_is_in_its_language():
    for t in themes(load("ja")):
        assert has_japanese(t["title"]), t
    for t in themes(load("en")):
        text = t["title"] + t["low"] + t["high"]
        assert not has_japanese(text), t
        assert all(ord(ch) < 0x2000 for ch in text), t


def test_the_game_accepts_every_card():
    from partyhost.games.top_ten import load_deck

    for lang in LIMITS:
        assert [c["id"] for c in load_deck(lang)] == [c["id"] for c in load(lang)["cards"]]


def test_decks_ship_as_package_data():
    tomllib = pytest.importorskip("tomllib")  # Python ≥ 3.11
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["partyhost"]
    for rel in FILES.values():
        assert (ROOT / "partyhost" / rel).is_file()
        assert any(fnmatch.fnmatch(rel, p) for p in patterns), (rel, patterns)
