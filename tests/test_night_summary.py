"""おひらき and momentum (issue 17): each title of the night summary computed from a scripted
record (partyhost/night.py), the next-game suggestion's rule, and the host's ops (ohiraki on and
off, もう一度) through the engine, with the summary kept across a host restart.

Fast: no server, no browser (about 3 s).
"""

from __future__ import annotations

import random

import pytest

from partyhost import i18n, night
from partyhost.engine import Engine
from partyhost.games import registry
from partyhost.party import Party

from .helpers import Rig


def entry(game: str, players: list[str], result: dict, highlights: list[dict] = ()) -> dict:
    return {"serial": 1, "game": game, "players": [{"seat": s, "name": s.upper()} for s in players],
            "result": result, "highlights": list(highlights), "duration": 60.0}


def win(game, players, *places):
    return entry(game, players, {"coop": False, "won": None, "places": [list(p) for p in places]})


def hl(key, **params):
    return {"key": key, "params": params}


def board(record, seats=()):
    party = Party(room="ABCD")
    party.record = record
    return party.scoreboard()


def titled(record, seats=()):
    """{seat: (kind, params)} for the night ``record``."""
    return {t["seat"]: (t["kind"], t["params"]) for t in night.titles(record, board(record), seats)}


ALL = ["s1", "s2", "s3", "s4"]


def test_the_single_top_scorer_is_champion_with_points_and_games():
    record = [win("word_basket", ALL, ["s2"], ["s1", "s3", "s4"]),
              win("diabolo", ALL, ["s2"], ["s1"], ["s3", "s4"])]
    got = titled(record)
    assert got["s2"] == ("champion", {"points": 2, "games": 2})


def test_tied_top_scorers_are_each_joint_top_and_nobody_is_champion():
    record = [win("word_basket", ALL, ["s1"], ["s2", "s3", "s4"]),
              win("word_basket", ALL, ["s3"], ["s1", "s2", "s4"])]
    got = titled(record)
    assert got["s1"] == ("co_champion", {"points": 1, "count": 2})
    assert got["s3"] == ("co_champion", {"points": 1, "count": 2})
    assert all(kind != "champion" for kind, _ in got.values())


def test_the_closest_race_of_the_night_goes_to_its_winner():
    record = [entry("word_basket", ALL, {"coop": False, "won": None, "places": [["s1"], ["s2", "s3", "s4"]]},
                    [hl("word_basket.hl.race", ms=120, winner_seat="s3", word="いぬ", loser_seat="s4")]),
              entry("word_basket", ALL, {"coop": False, "won": None, "places": [["s1"], ["s2", "s3", "s4"]]},
                    [hl("word_basket.hl.race", ms=41, winner_seat="s4", word="ねこ", loser_seat="s3")])]
    got = titled(record)
    assert got["s1"][0] == "champion"
    assert got["s4"] == ("race", {"ms": 41, "word": "ねこ"})  # the closer of the two races


def test_the_tightest_mind_gap_titles_both_players_of_it():
    record = [entry("the_mind", ["s1", "s2", "s3"], {"coop": True, "won": False, "places": [["s1", "s2", "s3"]]},
                    [hl("the_mind.hl.gap", ms=95, card=10, next=11, seat="s2", next_seat="s3", level=2)])]
    got = titled(record)
    assert got["s2"] == ("gap", {"ms": 95, "partner_seat": "s3"})
    assert got["s3"] == ("gap", {"ms": 95, "partner_seat": "s2"})
    assert got["s1"] == ("played", {"games": 1})


def test_the_longest_word_the_biggest_claim_and_the_widest_miss():
    record = [
        entry("word_basket", ALL, {"coop": False, "won": None, "places": [["s1"], ["s2", "s3", "s4"]]},
              [hl("word_basket.hl.longest", word="かたつむり", length=5, seat="s2")]),
        entry("word_basket", ALL, {"coop": False, "won": None, "places": [["s1"], ["s2", "s3", "s4"]]},
              [hl("word_basket.hl.longest", word="あさがお", length=4, seat="s3")]),
        entry("diabolo", ALL, {"coop": False, "won": None, "places": [["s1"], ["s2", "s3", "s4"]]},
              [hl("diabolo.hl.word", seat="s3", word="TEAPOT", count=6, round=1)]),
        entry("top_ten", ALL, {"coop": True, "won": False, "places": [ALL]},
              [hl("top_ten.hl.miss", gap=3, theme="こわいもの", round=1, seat="s1", number=2, answer="a",
                  before_seat="s2", before_number=5, before_answer="b"),
               hl("top_ten.hl.miss", gap=8, theme="おいしいもの", round=2, seat="s4", number=1, answer="カレー",
                  before_seat="s3", before_number=9, before_answer="すし")]),
    ]
    got = titled(record)
    assert got["s2"] == ("longest", {"word": "かたつむり", "length": 5})
    assert got["s3"] == ("big_word", {"word": "TEAPOT", "count": 6})
    assert got["s4"] == ("miss", {"answer": "カレー", "gap": 8, "theme": "おいしいもの"})


def test_cooperative_hero_winner_of_runner_up_regular_played_and_cheer():
    record = [
        entry("the_mind", ["s1", "s2"], {"coop": True, "won": True, "places": [["s1", "s2"]]}),
        entry("the_mind", ["s1", "s2"], {"coop": True, "won": True, "places": [["s1", "s2"]]}),
        entry("top_ten", ["s1", "s2", "s3", "s4"], {"coop": True, "won": True, "places": [ALL]}),
        win("word_basket", ALL, ["s3"], ["s4"], ["s1", "s2"]),
        win("diabolo", ["s1", "s2", "s4", "s5"], ["s5"], ["s4"], ["s1", "s2"]),
        win("diabolo", ["s1", "s2", "s4", "s5", "s6"], ["s6"], ["s1", "s2", "s4", "s5"]),
    ]
    got = titled(record, seats=["s1", "s2", "s3", "s4", "s5", "s6", "s7"])
    assert got["s1"] == ("co_champion", {"points": 3, "count": 2})  # 3 co-op wins each
    assert got["s2"] == ("co_champion", {"points": 3, "count": 2})
    assert got["s3"] == ("winner_of", {"game": {"key": "word_basket.name"}})
    assert got["s5"] == ("winner_of", {"game": {"key": "diabolo.name"}})
    assert got["s4"] == ("runner_up", {"count": 3})
    assert got["s6"] == ("winner_of", {"game": {"key": "diabolo.name"}})
    assert got["s7"] == ("cheer", {})  # at the party, played nothing


def test_hero_and_regular_when_the_top_is_taken():
    record = [
        win("word_basket", ["s1", "s2", "s3"], ["s1"], ["s2", "s3"]),
        win("word_basket", ["s1", "s2", "s3"], ["s1"], ["s3", "s2"]),
        win("word_basket", ["s1", "s2", "s3"], ["s1"], ["s2"], ["s3"]),
        entry("the_mind", ["s2", "s3"], {"coop": True, "won": True, "places": [["s2", "s3"]]}),
        entry("the_mind", ["s1", "s3"], {"coop": True, "won": False, "places": [["s1", "s3"]]}),
    ]
    got = titled(record)
    assert got["s1"] == ("champion", {"points": 3, "games": 4})
    assert got["s2"] == ("hero", {"count": 1})  # s2 and s3 each cleared one co-op game: the first holder listed
    assert got["s3"] == ("hero", {"count": 1})
    record.append(entry("decrypto", ["s1", "s2", "s3", "s4"], {  # a team game: the losing team is second
        "coop": False, "won": None, "places": [["s1", "s2"], ["s3", "s4"]],
        "detail": {"winner": "white", "label": {"key": "decrypto.team.white", "params": {}}}}))
    got = titled(record)
    assert got["s4"] == ("runner_up", {"count": 1})


def test_the_one_who_played_every_game_is_the_regular():
    record = [entry("the_mind", ["s1", "s2"], {"coop": True, "won": False, "places": [["s1", "s2"]]}),
              entry("the_mind", ["s2", "s3"], {"coop": True, "won": False, "places": [["s2", "s3"]]})]
    got = titled(record)
    assert got == {"s1": ("played", {"games": 1}), "s2": ("regular", {"games": 2}), "s3": ("played", {"games": 1})}
    assert titled(record[:1])["s1"] == ("played", {"games": 1})  # one game is not a night to be regular at


def test_titles_are_deterministic_one_per_seat_and_worded_in_both_languages():
    record = [win("word_basket", ALL, ["s2"], ["s1", "s3", "s4"],),
              entry("the_mind", ALL, {"coop": True, "won": True, "places": [ALL]},
                    [hl("the_mind.hl.gap", ms=12, card=1, next=2, seat="s4", next_seat="s1", level=1)])]
    first = night.titles(record, board(record), ["s1", "s2", "s3", "s4", "s5"])
    assert first == night.titles(record, board(record), ["s1", "s2", "s3", "s4", "s5"])
    assert [t["seat"] for t in first] == ["s2", "s1", "s3", "s4", "s5"]  # the score's order, then the rest
    for lang in i18n.LANGS:
        for t in first:
            params = {k: ("Name" if k.endswith("seat") else v) for k, v in t["params"].items()}
            for key in (t["key"], t["why"]):
                text = i18n.message(lang, key, **params)
                assert key in i18n.catalogue(lang) and "{" not in text, (lang, key, text)


def test_the_podium_groups_equal_points_and_stops_at_three_places():
    record = [win("word_basket", ALL, ["s1"], ["s2", "s3", "s4"]),
              win("word_basket", ALL, ["s1"], ["s2", "s3", "s4"]),
              win("word_basket", ALL, ["s2"], ["s1", "s3", "s4"]),
              win("word_basket", ALL, ["s3"], ["s1", "s2", "s4"]),
              win("word_basket", ["s1", "s2", "s4"], ["s4", "s2"], ["s1"])]
    summary = night.summary(record, board(record), ALL)
    assert summary["podium"] == [["s1", "s2"], ["s3", "s4"]]
    assert summary["games"] == 5 and len(summary["titles"]) == 4


# ----- momentum: the next game ----------------------------------------------------------------

RANGES = {key: (cls.MIN_PLAYERS, cls.MAX_PLAYERS) for key, cls in registry.GAMES.items()}


def played(*games):
    return [entry(g, ["s1"], {"coop": True, "won": True, "places": [["s1"]]}) for g in games]


@pytest.mark.parametrize("present,record,expected", [
    # a game for the players present, not played tonight, the next after the last in the lobby's order
    (3, played("the_mind"), {"game": "word_basket", "fresh": True}),
    (3, played("word_basket"), {"game": "decrypto", "fresh": True}),
    (3, played("the_mind", "word_basket", "decrypto"), {"game": "diabolo", "fresh": True}),
    # Top Ten takes 4 to 9: with 9 present only Top Ten fits (the rest top out lower)
    (9, played("the_mind"), {"game": "top_ten", "fresh": True}),
    # every fitting game played: the one played longest ago, never the last game itself
    (2, played("the_mind", "word_basket", "diabolo"), {"game": "the_mind", "fresh": False}),
    (2, played("word_basket", "the_mind", "diabolo", "word_basket"), {"game": "the_mind", "fresh": False}),
    # the last game is offered only when nothing else fits (9 players: Top Ten only)
    (9, played("top_ten"), {"game": "top_ten", "fresh": False}),
    # no game takes one player, or ten
    (1, played("the_mind"), None),
    (10, played("the_mind"), None),
    # before any game: the first fitting game in the lobby's order
    (2, [], {"game": "the_mind", "fresh": True}),
])
def test_the_next_game_suggestion_follows_its_rule(present, record, expected):
    assert night.suggest(RANGES, present, record) == expected


# ----- the host's ops through the engine --------------------------------------------------------

def lose_the_mind(rig: Rig):
    tv, a, b = rig.playing({"s1": [50], "s2": [10]}, lives=1)
    rig.clock.advance(1.0)
    assert a.act({"type": "play", "level": 1, "card": 50})["ok"]
    return tv, a, b


def test_ohiraki_needs_a_finished_game_and_is_refused_mid_game():
    rig = Rig()
    tv = rig.tv()
    a, b = rig.phone("a"), rig.phone("b")
    reply = tv.send("host", {"op": "ohiraki", "on": True})
    assert not reply["ok"] and reply["code"] == "night_empty"
    assert not a.send("host", {"op": "ohiraki", "on": True})["ok"]  # not the host
    tv2, a2, _ = Rig().playing({"s1": [50], "s2": [10]})
    reply = tv2.send("host", {"op": "ohiraki", "on": True})
    assert not reply["ok"] and reply["code"] == "game_running"


def test_ohiraki_shows_the_summary_everywhere_survives_a_restart_and_the_night_goes_on():
    rig = Rig()
    tv, a, b = lose_the_mind(rig)
    assert tv.send("host", {"op": "ohiraki", "on": True})["ok"]  # straight from the finished game
    party = rig.engine.party
    assert party.summary and party.phase == "lobby"
    view = b.state["party"]["summary"]
    assert view["games"] == 1 and [t["seat"] for t in view["titles"]] == ["s1", "s2"]
    assert view["podium"] == []  # a lost co-op game: no points
    # a host restart: the summary is still up
    again = Engine(lambda *x: None, seed=2, snapshot={"party": party.to_dict(), "game_now": 10.0})
    assert again.party.summary and again.party_view()["summary"]["games"] == 1
    # back to the lobby: the night goes on, and a new game closes the summary for good
    assert tv.send("host", {"op": "ohiraki", "on": False})["ok"]
    assert b.state["party"]["summary"] is None and len(party.record) == 1
    assert tv.send("host", {"op": "ohiraki", "on": True})["ok"]
    assert tv.send("host", {"op": "start"})["ok"]
    assert not party.summary and party.phase == "game"
    assert "summary" in party.to_dict() and Party.from_dict({**party.to_dict(), "summary": "yes"},
                                                            random.Random(1)).summary is False


def test_again_starts_the_last_recorded_game_with_its_options_and_momentum_is_in_the_view():
    rig = Rig()
    tv, a, b = lose_the_mind(rig)
    party = rig.engine.party
    options = dict(party.options.get("the_mind", {}))
    assert tv.send("host", {"op": "end"})["ok"]
    momentum = tv.state["party"]["momentum"]
    assert momentum == {"again": "the_mind", "present": 2, "next": {"game": "word_basket", "fresh": True}}
    assert tv.send("host", {"op": "choose", "game": "word_basket"})["ok"]
    assert tv.send("host", {"op": "again"})["ok"]
    assert party.game.KEY == "the_mind" and party.phase == "game"
    assert party.options.get("the_mind", {}) == options
    fresh = Rig()
    fresh_tv = fresh.tv()
    reply = fresh_tv.send("host", {"op": "again"})
    assert not reply["ok"] and reply["code"] == "night_empty"


def test_a_refused_again_leaves_the_lobby_as_it_was():
    """Review find: もう一度 chose the last game before start refused, so the lobby flipped to it."""
    rig = Rig()
    tv, a, b = lose_the_mind(rig)
    party = rig.engine.party
    assert tv.send("host", {"op": "end"})["ok"]
    assert tv.send("host", {"op": "choose", "game": "word_basket"})["ok"]
    b.disconnect()
    rig.drain()
    reply = tv.send("host", {"op": "again"})
    assert not reply["ok"] and reply["code"] == "player_away"
    assert party.game_key == "word_basket" and party.phase == "lobby"
    assert tv.state["party"]["game_key"] == "word_basket"


def test_after_a_tie_for_first_nobody_is_runner_up():
    """Review find: 10, 10, 8 points made the third seat 'so close' (second), while the TV's
    rankings call it third."""
    record = [win("word_basket", ["s1", "s2", "s3"], ["s1", "s2"], ["s3"])]
    assert titled(record)["s3"][0] != "runner_up"
    record = [win("word_basket", ["s1", "s2", "s3"], ["s1"], ["s3"], ["s2"])]
    assert titled(record)["s3"] == ("runner_up", {"count": 1})


def test_a_night_where_everyone_is_level_on_top_gives_titles_that_say_something():
    """Seen on a look-through: one won game of The Mind made both players 'joint top' (2 players
    level on 1 pt), and the true, specific 'mind reader' title (a 70 ms gap) was lost."""
    record = [entry("the_mind", ["s1", "s2"], {"coop": True, "won": True, "places": [["s1", "s2"]]},
                    [hl("the_mind.hl.gap", ms=70, seat="s1", next_seat="s2", card=1, next_card=4, level=12)])]
    got = titled(record)
    assert got["s1"] == ("gap", {"ms": 70, "partner_seat": "s2"})
    assert got["s2"] == ("gap", {"ms": 70, "partner_seat": "s1"})
