"""The how-to's rules by player count (人数ごとのルール, issue 27): every count a game takes, shown
before anyone joins, computed by each game's own ``howto_count_facts`` from the constants its
rules use, and each row the same as what a game of that many players really plays by.

Pure Python, no server, no browser (under a second).
"""

from __future__ import annotations

import random

import pytest

from partyhost import i18n
from partyhost.games import registry
from partyhost.games.decrypto import MAX_ROUNDS, MAX_ROUNDS_THREE, Decrypto
from partyhost.games.decrypto_scoring import TOKENS_TO_WIN
from partyhost.games.diabolo import Diabolo
from partyhost.games.the_mind import PLAYER_COUNT_TABLE, TheMind, rewarded_levels
from partyhost.games.top_ten import TopTen
from partyhost.games.word_basket import WordBasket, outvoted
from partyhost.party import Party

from .test_howto_facts import _placeholders, _texts, defaults
from .test_top_ten import fixture_deck  # noqa: F401  (autouse: Top Ten draws from its test deck)

SEATS = [f"s{i}" for i in range(1, 10)]


def row_of(cls, count: int, options: dict | None = None) -> dict:
    rows = cls.howto_counts({**defaults(cls), **(options or {})})
    return next(r for r in rows if r["min"] <= count <= r["max"])


def started(cls, count: int, options: dict | None = None):
    g = cls()
    g.setup(SEATS[:count], {**defaults(cls), **(options or {})} if cls is not TheMind else {}, random.Random(count), 0.0)
    return g


@pytest.mark.parametrize("cls", [c for c in registry.GAMES.values()], ids=lambda c: c.KEY)
def test_every_count_has_one_row_in_order_and_rows_differ(cls):
    rows = cls.howto_counts(defaults(cls))
    assert rows, cls.KEY  # every game of ours has something that changes with the count
    covered = [n for r in rows for n in range(r["min"], r["max"] + 1)]
    assert covered == list(range(cls.MIN_PLAYERS, cls.MAX_PLAYERS + 1))
    for a, b in zip(rows, rows[1:]):
        assert a["lines"] != b["lines"]
    for r in rows:
        assert r["lines"] == cls.howto_count_facts(r["min"], defaults(cls)) == cls.howto_count_facts(r["max"], defaults(cls))


@pytest.mark.parametrize("count", [2, 3, 4])
def test_the_minds_rows_are_its_table_and_a_game_of_that_many(count):
    lines = row_of(TheMind, count)["lines"]
    g = started(TheMind, count)
    assert lines[0]["params"] == PLAYER_COUNT_TABLE[count] == {"lives": g.lives, "shuriken": g.shuriken, "levels": g.levels}
    rewards = lines[1]["params"]
    assert rewards["shuriken"]["join"] == rewarded_levels(count)["shuriken"]
    assert rewards["lives"]["join"] == rewarded_levels(count)["life"]
    # no level the game never plays, nor the last one (its reward comes as the game is won)
    assert max(rewards["shuriken"]["join"] + rewards["lives"]["join"]) < g.levels


def test_decryptos_three_player_game_beside_the_team_game():
    assert [(r["min"], r["max"]) for r in Decrypto.howto_counts(defaults(Decrypto))] == [(3, 3), (4, 8)]
    three = row_of(Decrypto, 3)["lines"][0]
    assert three == {"key": "decrypto.howto.v.three", "params": {"tokens": TOKENS_TO_WIN, "rounds": MAX_ROUNDS_THREE}}
    assert started(Decrypto, 3).variant == "three"
    assert row_of(Decrypto, 6)["lines"][0]["params"]["rounds"] == MAX_ROUNDS
    assert started(Decrypto, 6).variant == "teams"


@pytest.mark.parametrize("count", range(4, 10))
def test_top_tens_nine_player_game_has_its_own_row(count):
    lines = row_of(TopTen, count)["lines"]
    g = started(TopTen, count)
    if count == 9:
        assert lines == [{"key": "top_ten.howto.v.nine", "params": {"tokens": g.tokens}}]
        assert g.captain not in g.answerers
    else:
        assert lines == [{"key": "top_ten.howto.c.tokens_each", "params": {}}]
        assert g.tokens == count and g.captain in g.answerers


def test_word_baskets_two_player_vote_is_its_own_row_and_strict_has_none():
    assert [(r["min"], r["max"]) for r in WordBasket.howto_counts(defaults(WordBasket))] == [(2, 2), (3, 8)]
    assert row_of(WordBasket, 2)["lines"][0]["key"] == "word_basket.howto.c.vote_two"
    assert row_of(WordBasket, 5)["lines"][0]["key"] == "word_basket.howto.c.vote_many"
    assert [outvoted(n) for n in range(2, 9)] == [False] + [True] * 6
    assert WordBasket.howto_counts({**defaults(WordBasket), "word_mode": "strict"}) == []


@pytest.mark.parametrize("count", range(2, 7))
def test_diabolos_rows_are_how_often_a_game_of_that_many_deals(count):
    times = row_of(Diabolo, count)["lines"][0]["params"]["times"]
    assert len(started(Diabolo, count).dealers) == count * times
    assert Diabolo.howto_counts({**defaults(Diabolo), "victory_tiles": True}) == []


@pytest.mark.parametrize("lang", i18n.LANGS)
@pytest.mark.parametrize("cls", [c for c in registry.GAMES.values()], ids=lambda c: c.KEY)
def test_every_row_has_its_words_and_every_placeholder_a_value(cls, lang):
    cat = i18n.catalogue(lang)
    for r in cls.howto_counts(defaults(cls)):
        for m in r["lines"]:
            for text in _texts(m):
                assert text["key"] in cat, (lang, text["key"])
                assert _placeholders(cat[text["key"]]) <= set(text["params"]), (lang, text)


def test_the_lobby_view_has_every_count_before_anyone_joins_and_marks_the_tables():
    party = Party(room="ABCD")
    party.choose("the_mind")
    h = party.howto()
    assert h["counts"] == TheMind.howto_counts({}) and h["count"] == 0
    for i in range(3):
        party.join(f"p{i}", "ja", lambda i=i: f"t{i}")
    assert party.howto()["count"] == 3
    party.choose("top_ten")
    assert [r["max"] for r in party.howto()["counts"]] == [8, 9]
