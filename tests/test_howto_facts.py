"""The how-to's rules in use (今回のルール) come from each game's own rules (Game.howto_facts), not
from a copy in the page: every fact is tied here to the constant or function the rules use, and
a game set up with the same options and players plays by exactly what the lobby announced.

Pure Python, no server, no browser (about 1 s).
"""

from __future__ import annotations

import random
import re

import pytest

from partyhost import i18n
from partyhost.games import registry
from partyhost.games.base import Game
from partyhost.games.decrypto import Decrypto, balance_teams
from partyhost.games.diabolo import Diabolo, deals_each
from partyhost.games.the_mind import PLAYER_COUNT_TABLE, TheMind
from partyhost.games.top_ten import CAPTAIN_ANSWERS_UP_TO, ROUNDS, TopTen, tokens_for
from partyhost.games.word_basket import REACH_WINDOW, WordBasket
from partyhost.party import Party

from .test_top_ten import fixture_deck  # noqa: F401  (autouse: Top Ten draws from its test deck)

SEATS = [f"s{i}" for i in range(1, 10)]


def defaults(cls: type[Game]) -> dict:
    return {k: p["default"] for k, p in cls.OPTIONS["properties"].items() if "default" in p}


def fact(lines: list[dict], name: str) -> dict | None:
    """The line whose key ends in ``.name`` (e.g. ``"setup"``), or None."""
    return next((m for m in lines if m["key"].rsplit(".", 1)[-1] == name), None)


def names(lines: list[dict]) -> list[str]:
    return [m["key"].rsplit(".", 1)[-1] for m in lines]


# ----- each fact is the rules' own number ----------------------------------------------------------

@pytest.mark.parametrize("count", [2, 3, 4])
def test_the_minds_facts_are_its_setup_table_and_what_a_game_starts_with(count):
    lines = TheMind.howto_facts({}, SEATS[:count])
    assert fact(lines, "setup")["params"] == {"count": count, **PLAYER_COUNT_TABLE[count]}
    g = TheMind()
    g.setup(SEATS[:count], {}, random.Random(1), 0.0)
    p = fact(lines, "setup")["params"]
    assert (p["lives"], p["shuriken"], p["levels"]) == (g.lives, g.shuriken, g.levels)


def test_the_minds_lobby_with_too_few_or_too_many_shows_the_nearest_table_row():
    assert fact(TheMind.howto_facts({}, SEATS[:1]), "setup")["params"]["levels"] == PLAYER_COUNT_TABLE[2]["levels"]
    assert fact(TheMind.howto_facts({}, SEATS[:6]), "setup")["params"]["levels"] == PLAYER_COUNT_TABLE[4]["levels"]


@pytest.mark.parametrize("count", range(4, 9))
def test_decryptos_teams_are_balance_teams_and_the_teams_the_game_forms(count):
    placed = {"s1": "black", "s2": "black"}
    options = {**defaults(Decrypto), "teams": placed}
    teams = balance_teams(SEATS[:count], placed)
    p = fact(Decrypto.howto_facts(options, SEATS[:count]), "teams")["params"]
    assert (p["white"], p["black"]) == (len(teams["white"]), len(teams["black"]))
    g = Decrypto()
    g.setup(SEATS[:count], options, random.Random(2), 0.0)
    assert (p["white"], p["black"]) == (len(g.teams["white"]), len(g.teams["black"]))


def test_decryptos_three_players_play_the_two_against_one_variant_and_options_show():
    lines = Decrypto.howto_facts({**defaults(Decrypto), "timer": True, "lang": "en"}, SEATS[:3])
    assert names(lines) == ["three", "timer_on", "lang"]
    assert fact(lines, "lang")["params"]["lang"] == {"key": "decrypto.lang.en"}


@pytest.mark.parametrize("count", range(4, 10))
def test_top_tens_tokens_are_tokens_for_and_nine_players_have_a_silent_captain(count):
    lines = TopTen.howto_facts(defaults(TopTen), SEATS[:count])
    g = TopTen()
    g.setup(SEATS[:count], {}, random.Random(3), 0.0)
    if count > CAPTAIN_ANSWERS_UP_TO:
        assert fact(lines, "nine") and not fact(lines, "tokens")
        assert g.captain not in g.answerers
    else:
        assert fact(lines, "tokens")["params"]["count"] == tokens_for(count) == g.tokens
    assert fact(lines, "rounds")["params"]["rounds"] == ROUNDS == g.rounds


def test_top_tens_rounds_by_player_count_and_first_captain_are_the_games():
    options = {**defaults(TopTen), "rounds": "players", "first_captain": "s3"}
    lines = TopTen.howto_facts(options, SEATS[:6])
    g = TopTen()
    g.setup(SEATS[:6], options, random.Random(4), 0.0)
    assert fact(lines, "rounds")["params"]["rounds"] == g.rounds == 6
    assert fact(lines, "first")["params"] == {"name": {"seat": "s3"}} and g.captain == "s3"
    # a first captain who is not playing: the game picks one at random, and the panel says so
    assert fact(TopTen.howto_facts({**options, "first_captain": "s9"}, SEATS[:6]), "first_random")


def test_word_baskets_defaults_are_its_schemas_and_strict_has_no_vote():
    lines = WordBasket.howto_facts({}, SEATS[:3])
    assert fact(lines, "reach")["params"]["seconds"] == REACH_WINDOW
    assert fact(lines, "vote")["params"]["seconds"] == WordBasket.OPTIONS["properties"]["vote_seconds"]["default"]
    assert fact(lines, "mode")["params"]["mode"] == {"key": "word_basket.word_mode.vote"}
    strict = WordBasket.howto_facts({"word_mode": "strict", "handicaps": {"s2": "easy", "s9": "hard"}}, SEATS[:3])
    assert not fact(strict, "vote")
    # only a playing seat's handicap other than normal, shown by name
    assert fact(strict, "handicap")["params"]["list"] == {"join": [
        {"key": "word_basket.howto.v.handicap_item",
         "params": {"name": {"seat": "s2"}, "level": {"key": "word_basket.handicap.easy"}}}]}


@pytest.mark.parametrize("count", range(2, 7))
def test_diabolos_rounds_are_the_games_dealer_plan(count):
    lines = Diabolo.howto_facts(defaults(Diabolo), SEATS[:count])
    g = Diabolo()
    g.setup(SEATS[:count], {}, random.Random(5), 0.0)
    p = fact(lines, "deals")["params"]
    assert p["times"] == deals_each(count)
    assert p["rounds"] == len(g.dealers) == count * deals_each(count)


def test_diabolos_tiles_replace_the_deal_count_and_handicaps_name_players():
    options = {**defaults(Diabolo), "victory_tiles": True, "tile_handicap": 7, "handicap": ["s2", "s8"], "interval": 6}
    lines = Diabolo.howto_facts(options, SEATS[:3])
    assert names(lines) == ["lang", "tiles", "interval", "handicap"]
    assert fact(lines, "tiles")["params"]["minus"] == 7
    assert fact(lines, "interval")["params"]["seconds"] == 6
    assert fact(lines, "handicap")["params"]["names"] == {"join": [{"seat": "s2"}]}


# ----- what the lobby announces is what the game plays by -------------------------------------------

CASES = [
    (TheMind, {}), (Decrypto, {"timer": True}), (TopTen, {"rounds": "players"}),
    (WordBasket, {"word_mode": "strict", "handicaps": {"s1": "hard"}}),
    (Diabolo, {"lang": "en", "handicap": ["s2"]}), (Diabolo, {"victory_tiles": True}),
]


@pytest.mark.parametrize("cls,given", CASES, ids=lambda x: getattr(x, "KEY", None) or "")
def test_a_started_game_states_the_rules_the_lobby_announced(cls, given):
    for count in range(cls.MIN_PLAYERS, cls.MAX_PLAYERS + 1):
        options = {**defaults(cls), **given}
        g = cls()
        g.setup(SEATS[:count], {} if cls is TheMind else options, random.Random(count), 0.0)
        lobby = [m for m in cls.howto_facts(options, SEATS[:count]) if not m["key"].endswith((".first", ".first_random"))]
        assert g.howto_facts_now(options) == lobby, (cls.KEY, count)


def test_diabolos_facts_in_play_follow_the_dealers_tempo():
    g = Diabolo()
    g.setup(SEATS[:4], {}, random.Random(6), 0.0)
    g.interval = 9.0  # the dealer's tempo move sets this
    assert fact(g.howto_facts_now(defaults(Diabolo)), "interval")["params"]["seconds"] == 9.0


# ----- every line can be drawn in both languages ------------------------------------------------------

def _placeholders(template: str) -> set[str]:
    return i18n.placeholders(template)


def _texts(m: dict):
    yield m
    for v in m["params"].values():
        if isinstance(v, dict) and "key" in v:
            yield from _texts({"params": {}, **v})
        if isinstance(v, dict) and "join" in v:
            for item in v["join"]:
                if isinstance(item, dict) and "key" in item:
                    yield from _texts(item)


@pytest.mark.parametrize("lang", i18n.LANGS)
@pytest.mark.parametrize("key", sorted(registry.GAMES))
def test_every_fact_has_its_words_and_every_placeholder_a_value(key, lang):
    cls = registry.GAMES[key]
    cat = i18n.catalogue(lang)
    rich = {"teams": {"s1": "white"}, "first_captain": "s1", "handicaps": {"s2": "easy"},
            "handicap": ["s2"], "victory_tiles": True}
    for count in (3, 4, 9):
        for options in (defaults(cls), {**defaults(cls), **{k: v for k, v in rich.items() if k in defaults(cls)}}):
            for m in cls.howto_facts(options, SEATS[:count]):
                for text in _texts(m):
                    assert text["key"] in cat, (lang, text["key"])
                    assert _placeholders(cat[text["key"]]) <= set(text["params"]), (lang, text)


# ----- the party puts them in the lobby view ------------------------------------------------------------

def party_with(n: int, game: str) -> Party:
    party = Party(room="ABCD")
    for i in range(n):
        party.join(f"p{i}", "ja", lambda i=i: f"t{i}")
    party.choose(game)
    return party


def test_the_party_view_says_how_many_play_then_the_games_facts():
    party = party_with(3, "the_mind")
    h = party.howto()
    assert h["game"] == "the_mind"
    assert h["lines"][0] == {"key": "howto.players", "params": {"count": 3}}
    assert h["lines"][1:] == TheMind.howto_facts({}, ["s1", "s2", "s3"])
    six = party_with(6, "the_mind").howto()["lines"]
    assert six[:2] == [{"key": "howto.players", "params": {"count": 4}}, {"key": "howto.sitout", "params": {"count": 2}}]
    assert fact(six, "setup")["params"]["levels"] == PLAYER_COUNT_TABLE[4]["levels"]
    few = party_with(2, "top_ten").howto()["lines"]
    assert few[0] == {"key": "howto.too_few", "params": {"min": 4, "count": 2}}


def test_the_party_view_follows_the_options_and_the_running_game():
    party = party_with(4, "diabolo")
    party.choose("diabolo", {"victory_tiles": True, "tile_handicap": 3})
    assert fact(party.howto()["lines"], "tiles")["params"]["minus"] == 3
    for seat in party.seats.values():
        seat.connections = 1
    party.start(random.Random(1), 0.0)
    party.game.interval = 12.0
    assert fact(party.howto()["lines"], "interval")["params"]["seconds"] == 12.0
    assert party.howto()["lines"][0] == {"key": "howto.players", "params": {"count": 4}}


def test_a_failing_hook_costs_only_its_own_lines(monkeypatch):
    party = party_with(3, "the_mind")

    def broken(cls, options, players):
        raise RuntimeError("a bug in a game")

    monkeypatch.setattr(TheMind, "howto_facts", classmethod(broken))
    assert party.howto()["lines"] == [{"key": "howto.players", "params": {"count": 3}}]


def test_the_lobby_names_the_first_captain_only_when_that_seat_will_really_play():
    """Review find: the lobby's lines took the first seats in seating order, while a start seats
    those who sat out the last game first (and no away seat), so Top Ten's first captain line could
    name a seat that would sit out. Both now go through ``Party.would_play``."""
    import itertools

    from partyhost.games import registry
    from partyhost.party import Party

    party = Party(room="ABCD")
    count = itertools.count()
    seats = [party.join(f"p{i}", "ja", lambda: f"t{next(count)}").id for i in range(10)]
    for sid in seats:
        party.seats[sid].connections = 1
    party.last_players = seats[:9]  # seats[9] sat out: it plays next, and seats[8] sits out
    party.choose("top_ten", {"first_captain": seats[8]})
    keys = [line["key"] for line in party.howto()["lines"]]
    assert "top_ten.howto.v.first" not in keys and "top_ten.howto.v.first_random" in keys
    party.choose("top_ten", {"first_captain": seats[9]})
    first = [line for line in party.howto()["lines"] if line["key"] == "top_ten.howto.v.first"]
    assert first and first[0]["params"]["name"] == {"seat": seats[9]}
    assert party.would_play(registry.get("top_ten")) == seats[:8] + seats[9:]
