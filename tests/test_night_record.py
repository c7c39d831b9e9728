"""Tonight's record (issue 17): each finished game is written into the party once, with its
players, result, duration and highlights; the party score follows its stated rule; the record
survives a host restart and an old snapshot without it still loads. Each game's highlights are
computed here from a scripted game (see partyhost/games/*.py ``highlights``).

Fast: no server, no browser (about 2 s).
"""

from __future__ import annotations

import random

from partyhost import i18n
from partyhost.engine import Engine
from partyhost.games.the_mind import TheMind
from partyhost.party import RECORD_MAX, Party

from . import test_decrypto as dc
from . import test_diabolo as dia
from . import test_top_ten as tt
from . import wb_rig as wb
from .helpers import Rig
from .test_top_ten import fixture_deck  # noqa: F401  (autouse: Top Ten draws from its test deck)


def words(mark: dict, lang: str = "en") -> str:
    return i18n.message(lang, mark["key"], **mark["params"])


# ----- the record in the party ----------------------------------------------------------------

def lose_the_mind(rig: Rig) -> None:
    """Two phones, The Mind with one life: s1 plays 50 over s2's 10 and the table loses."""
    tv, a, b = rig.playing({"s1": [50], "s2": [10]}, lives=1)
    rig.clock.advance(3.0)
    assert a.act({"type": "play", "level": 1, "card": 50})["ok"]
    assert rig.game.over and rig.game.phase == "lost"
    return tv


def test_a_finished_game_is_recorded_once_with_names_result_duration_and_highlights():
    rig = Rig()
    tv = lose_the_mind(rig)
    party = rig.engine.party
    assert len(party.record) == 1
    entry = party.record[0]
    assert entry["game"] == "the_mind" and entry["serial"] == party.game_serial
    assert entry["players"] == [{"seat": "s1", "name": "a"}, {"seat": "s2", "name": "b"}]
    assert entry["result"] == {"coop": True, "won": False, "places": [["s1", "s2"]],
                               "detail": {"level": 1, "levels": 12}}
    assert entry["duration"] is not None and 2.9 <= entry["duration"] <= 3.1
    assert [h["key"] for h in entry["highlights"]] == ["the_mind.hl.level_lost"]
    rig.drain()
    assert len(party.record) == 1  # written once, however often the engine settles
    view = tv.state["party"]
    assert view["record"] == party.record
    assert view["scoreboard"] == [{"seat": "s1", "name": "a", "points": 0, "games": 1},
                                  {"seat": "s2", "name": "b", "points": 0, "games": 1}]
    assert tv.send("host", {"op": "end"})["ok"]  # back to the lobby: still one entry
    assert len(party.record) == 1 and party.phase == "lobby"


def test_a_game_the_host_ends_midway_is_recorded_as_ended_early_with_no_points():
    """Issue 27: a game ended with ゲームを終える vanished from tonight's record. It stays, as
    ended early by the host: its players and duration, no result, no highlights, no points; it
    earns no title and does not count as a game played for the score or the summary."""
    rig = Rig()
    tv, a, b = rig.playing({"s1": [50], "s2": [10]})
    rig.clock.advance(42.0)
    assert tv.send("host", {"op": "end"})["ok"]
    party = rig.engine.party
    assert len(party.record) == 1
    entry = party.record[0]
    assert entry["game"] == "the_mind" and entry["ended"] == "host" and entry["serial"] == party.game_serial
    assert entry["players"] == [{"seat": "s1", "name": "a"}, {"seat": "s2", "name": "b"}]
    assert entry["result"] is None and entry["highlights"] == []
    assert 41.9 <= entry["duration"] <= 42.1
    assert party.scoreboard() == []  # no points, no games counted
    assert tv.state["party"]["record"] == party.record and a.state["party"]["record"] == party.record
    assert tv.state["party"]["ended"]["reason"] == "host"
    # a finished game after it: the score counts that one only, the summary too
    lose_the_mind_again(rig, tv, a, b)
    assert [e.get("ended") for e in party.record] == ["host", None]
    assert [r["games"] for r in party.scoreboard()] == [1, 1]
    assert tv.send("host", {"op": "ohiraki", "on": True})["ok"]
    summary = tv.state["party"]["summary"]
    assert summary["games"] == 1
    # the record survives a host restart with the early end kept
    back = Party.from_dict(party.to_dict(), random.Random(1))
    assert [e.get("ended") for e in back.record] == ["host", None]


def lose_the_mind_again(rig: Rig, tv, a, b) -> None:
    """From the lobby: The Mind again, lost at once (s1 plays 50 over s2's 10, one life)."""
    assert tv.send("host", {"op": "start"})["ok"]
    rig.game.hands = {"s1": [50], "s2": [10]}
    rig.game.lives = 1
    for p in (a, b):
        assert p.act({"type": "ready", "level": 1, "ready": True})["ok"]
    assert a.act({"type": "play", "level": 1, "card": 50})["ok"]
    assert rig.game.over
    assert tv.send("host", {"op": "end"})["ok"]


def test_a_game_a_kick_leaves_with_too_few_players_is_recorded_as_ended_early():
    rig = Rig()
    tv, _, _ = rig.playing({"s1": [50], "s2": [10]})
    assert tv.send("host", {"op": "kick", "seat": "s2"})["ok"]
    party = rig.engine.party
    assert party.phase == "lobby"
    assert [(e["game"], e.get("ended"), e["result"]) for e in party.record] == [("the_mind", "too_few", None)]
    assert party.scoreboard() == []


def test_a_saved_record_entry_with_an_unknown_early_end_is_dropped_and_a_known_one_kept():
    party = Party(room="ABCD")
    entry = {"serial": 1, "game": "the_mind", "players": [{"seat": "s1", "name": "a"}], "result": None,
             "highlights": [], "duration": 3.0}
    data = {**party.to_dict(), "record": [{**entry, "ended": "host"}, {**entry, "serial": 2, "ended": "lava"}]}
    back = Party.from_dict(data, random.Random(1))
    assert [e["serial"] for e in back.record] == [1]


def test_ending_a_finished_game_that_was_never_settled_records_it_without_a_duration():
    party = Party(room="ABCD")
    for name in ("a", "b"):
        party.join(name, "ja", lambda n=name: "t" + n).connections = 1
    party.start(random.Random(1), 0.0)
    game = party.game
    game.levels = 1
    game.hands = {"s1": [5], "s2": [9]}
    for seat in ("s1", "s2"):
        game.apply(seat, {"type": "ready", "level": 1, "ready": True}, 1.0)
    game.apply("s1", {"type": "play", "level": 1, "card": 5}, 2.0)
    game.apply("s2", {"type": "play", "level": 1, "card": 9}, 2.5)
    assert game.phase == "won"
    party.end()
    assert len(party.record) == 1 and party.record[0]["duration"] is None
    assert party.record[0]["result"]["won"] is True


def entry(game: str, players: list[str], result: dict) -> dict:
    return {"serial": 1, "game": game, "players": [{"seat": s, "name": s.upper()} for s in players],
            "result": result, "highlights": [], "duration": 60.0}


def test_the_party_score_counts_wins_and_cooperative_wins_for_everyone():
    party = Party(room="ABCD")
    party.record = [
        entry("word_basket", ["s1", "s2", "s3"], {"coop": False, "won": None, "places": [["s2"], ["s1", "s3"]]}),
        entry("diabolo", ["s1", "s2", "s3"], {"coop": False, "won": None, "places": [["s1", "s3"], ["s2"]]}),
        entry("the_mind", ["s1", "s2"], {"coop": True, "won": True, "places": [["s1", "s2"]]}),
        entry("top_ten", ["s1", "s2", "s3"], {"coop": True, "won": False, "places": [["s1", "s2", "s3"]]}),
        entry("decrypto", ["s1", "s2", "s3", "s4"], {"coop": False, "won": None,
                                                   "places": [["s1", "s2", "s3", "s4"]]}),  # a draw
    ]
    rows = {r["seat"]: (r["points"], r["games"]) for r in party.scoreboard()}
    assert rows == {"s1": (3, 5), "s2": (3, 5), "s3": (2, 4), "s4": (1, 1)}
    assert [r["seat"] for r in party.scoreboard()] == ["s1", "s2", "s3", "s4"]
    party.join("Zed", "ja", lambda: "tz")  # a seated player shows their current name
    party.seats["s1"].name = "Renamed"
    assert party.scoreboard()[0]["name"] == "Renamed"


def test_the_party_score_is_kept_until_the_record_or_a_name_changes():
    """Issue 18, sixth pass: the score is built once per change, not once per action."""
    party = Party(room="ABCD")
    won = {"coop": False, "won": None, "places": [["s1"], ["s2"]]}
    party.record = [entry("word_basket", ["s1", "s2"], won)]
    first = party.scoreboard()
    assert party.scoreboard() is first
    party.record.append(entry("diabolo", ["s1", "s2"], {**won, "places": [["s2"], ["s1"]]}))
    second = party.scoreboard()
    assert second is not first
    assert {r["seat"]: r["points"] for r in second} == {"s1": 1, "s2": 1}
    party.join("Ann", "ja", lambda: "ta")  # s1 is now at the party: its current name shows
    assert [r["name"] for r in party.scoreboard() if r["seat"] == "s1"] == ["Ann"]
    party.seats["s1"].name = "Bea"
    assert [r["name"] for r in party.scoreboard() if r["seat"] == "s1"] == ["Bea"]


def test_the_record_survives_a_host_restart_and_an_old_snapshot_loads_without_it():
    rig = Rig()
    lose_the_mind(rig)
    party = rig.engine.party
    snap = {"party": party.to_dict(), "game_now": 10.0}
    again = Engine(lambda *a: None, seed=2, snapshot=snap)
    assert again.party.record == party.record and again.party.recorded == party.game_serial
    again.drain()
    assert len(again.party.record) == 1  # the restored finished game is not written twice
    assert again.party_view()["scoreboard"][0]["games"] == 1
    old = {k: v for k, v in party.to_dict().items() if k not in ("record", "recorded", "started_at")}
    restored = Party.from_dict(old, random.Random(1))
    assert restored.record == [] and restored.started_at is None


def test_unreadable_record_entries_are_dropped_and_the_record_is_bounded():
    party = Party(room="ABCD")
    good = entry("the_mind", ["s1"], {"coop": True, "won": True, "places": [["s1"]]})
    data = {**party.to_dict(), "record": [good, {"game": 5}, "x", {**good, "players": [{"seat": 1}]}]}
    notes: list[str] = []
    restored = Party.from_dict(data, random.Random(1), problems=notes)
    assert restored.record == [good] and notes == ["3 unreadable record entries dropped"]
    data = {**party.to_dict(), "record": [good] * (RECORD_MAX + 5)}
    assert len(Party.from_dict(data, random.Random(1)).record) == RECORD_MAX


def test_an_older_entry_is_completed_without_changing_the_snapshot_it_came_from():
    """Reading the record checks each entry, then fills what an older entry lacks (no
    highlights, no duration) in a copy; an entry whose highlights are not a list is dropped."""
    party = Party(room="ABCD")
    old = {"serial": 1, "game": "the_mind", "players": [{"seat": "s1", "name": "A"}], "result": None}
    bad = {**old, "highlights": "x"}
    data = {**party.to_dict(), "record": [old, bad]}
    restored = Party.from_dict(data, random.Random(1))
    assert restored.record == [{**old, "highlights": [], "duration": None}]
    assert data["record"][0] == {"serial": 1, "game": "the_mind", "players": [{"seat": "s1", "name": "A"}],
                                 "result": None}  # the snapshot's own entry is left as it was


# ----- highlights, one scripted game each ------------------------------------------------------

def test_the_mind_highest_level_and_tightest_gap():
    g = TheMind()
    g.setup(["s1", "s2"], {}, random.Random(1), 0.0)
    g.levels = 1
    g.hands = {"s1": [10, 40], "s2": [20]}
    for seat in ("s1", "s2"):
        g.apply(seat, {"type": "ready", "level": 1, "ready": True}, 0.0)
    g.apply("s1", {"type": "play", "level": 1, "card": 10}, 1.0)
    g.apply("s2", {"type": "play", "level": 1, "card": 20}, 1.25)   # 250 ms after another player
    g.apply("s1", {"type": "play", "level": 1, "card": 40}, 3.0)    # 1750 ms
    assert g.phase == "won"
    marks = g.highlights()
    assert words(marks[0]) == "All 1 level cleared!"  # the catalogue's plural: one level
    assert marks[1]["key"] == "the_mind.hl.gap"
    assert marks[1]["params"] == {"ms": 250, "card": 10, "next": 20, "seat": "s1", "next_seat": "s2", "level": 1}


def test_word_basket_closest_race_and_longest_word():
    g = wb.arrange(wb.new_game(3), {"s1": [wb.K("る"), wb.K("こ")], "s2": [wb.K("か"), wb.K("ね")],
                                    "s3": [wb.K("す"), wb.K("く")]}, wb.K("あ"))
    serial = g.field["serial"]
    wb.play(g, "s1", wb.K("る"), "あひる", now=10.000)
    wb.play(g, "s2", wb.K("か"), "あいか", now=10.042, field=serial)  # lost by 42 ms
    wb.play(g, "s3", wb.K("す"), "るーれっとます", now=12.0)
    marks = {m["key"]: m["params"] for m in g.highlights()}
    assert marks["word_basket.hl.race"] == {"ms": 42, "winner_seat": "s1", "word": "あひる", "loser_seat": "s2"}
    assert marks["word_basket.hl.longest"] == {"word": "るーれっとます", "length": 7, "seat": "s3"}


def test_diabolo_biggest_word():
    g = dia.new_game(2)
    dia.turn_up(g, ["H", "A", "N", "G"])
    dia.claim(g, "s2", "HANG", ["H", "A", "N", "G"])
    dia.turn_up(g, ["E", "A", "L", "R", "G"], now=3.0)
    dia.claim(g, "s1", "LAGER", ["L", "A", "G", "E", "R"], now=4.0)
    assert g.highlights() == [{"key": "diabolo.hl.word",
                               "params": {"seat": "s1", "word": "LAGER", "count": 5, "round": 1}}]


def test_diabolo_best_claim_of_a_round_and_the_claim_log():
    # round 1: s1's LAGER (5) and s2's HANG (4): the biggest word, 5 of the round's 9 cards;
    # round 2: s2's HANG takes all 4 cards taken: the round's best claim by share
    g = dia.new_game(2)
    dia.turn_up(g, ["H", "A", "N", "G"])
    dia.claim(g, "s2", "HANG", ["H", "A", "N", "G"])
    dia.turn_up(g, ["E", "A", "L", "R", "G"], now=3.0)
    dia.claim(g, "s1", "LAGER", ["L", "A", "G", "E", "R"], now=4.0)
    assert g.view(None)["log"] == [
        {"seat": "s2", "word": "HANG", "count": 4, "status": "taken"},
        {"seat": "s1", "word": "LAGER", "count": 5, "status": "taken"}]
    assert g.view(None)["log_best"] == 1  # the TV stars LAGER, the round's best so far
    dia.play_round_out(g, 5.0)
    g.apply(g.view(None)["next_dealer"], {"type": "deal", "round": 2}, 6.0)
    assert g.view(None)["log"] == [] and g.view(None)["log_best"] is None  # a new round, a new log
    dia.turn_up(g, ["H", "A", "N", "G"], now=7.0)
    dia.claim(g, "s2", "HANG", ["H", "A", "N", "G"], now=8.0)
    dia.play_round_out(g, 9.0)
    marks = {m["key"]: m["params"] for m in g.highlights()}
    assert marks["diabolo.hl.word"] == {"seat": "s1", "word": "LAGER", "count": 5, "round": 1}
    assert marks["diabolo.hl.claim"] == {"seat": "s2", "word": "HANG", "count": 4, "of": 4, "round": 2}
    assert "“HANG” (4 of the 4 cards taken in round 2)" in words(g.highlights()[1])
    # the log survives a snapshot; a layout-2 snapshot (before the log) loads with an empty one
    again = type(g).from_dict(g.to_dict(), random.Random(1))
    assert again.view(None)["log"] == g.view(None)["log"]
    old = g.to_dict()
    old["v"] = 2
    del old["log"]
    assert type(g).from_dict(old, random.Random(1)).log == []


def test_diabolo_best_claim_is_not_repeated_when_it_is_the_biggest_word():
    g = dia.new_game(2)
    dia.turn_up(g, ["E", "A", "L", "R", "G", "Z"])
    dia.claim(g, "s1", "LAGER", ["L", "A", "G", "E", "R"])
    dia.turn_up(g, ["U", "R", "K"], now=4.0)
    dia.claim(g, "s2", "ZURK", ["Z", "U", "R", "K"], now=5.0)  # unknown: the table votes it down
    g.apply("s1", {"type": "vote", "vote": g.vote["id"], "ballot": "reject"}, 5.5)
    assert g.phase == "picking"
    g.apply("s1", {"type": "pick", "round": 1, "card": g.table[0]}, 6.0)
    assert g.view(None)["log"][-1] == {"seat": "s2", "word": "ZURK", "count": 0, "status": "rejected"}
    dia.play_round_out(g, 7.0)
    assert [m["key"] for m in g.highlights()] == ["diabolo.hl.word"]


def test_top_ten_perfect_round_and_widest_miss():
    g = tt.make(4, first_captain="s1")
    tt.to_order(g, {"s1": 4, "s2": 2, "s3": 3, "s4": 9})
    tt.reveal_in(g, ["s1", "s2", "s3", "s4"])  # 4 → 2: off by two
    tt.next_round(g)
    tt.play_round(g, mistakes=0)
    marks = {m["key"]: m["params"] for m in g.highlights()}
    assert marks["top_ten.hl.perfect"]["round"] == 2
    miss = marks["top_ten.hl.miss"]
    assert (miss["gap"], miss["before_seat"], miss["before_number"], miss["seat"], miss["number"]) == (2, "s1", 4, "s2", 2)
    assert (miss["before_answer"], miss["answer"]) == ("親のこたえ", "s2のこたえ")


def test_decrypto_decisive_interception_with_its_clues():
    g = dc.make(4, seed=1)
    dc.play_round(g)
    dc.play_round(g, black=(True, True))
    dc.play_round(g, black=(True, True))
    assert g.result["winner"] == "white"
    last = g.history[-1]
    assert last["team"] == "black" and last["intercepted"]
    (mark,) = g.highlights()
    assert mark["key"] == "decrypto.hl.intercept" and mark["params"]["team"] == {"key": "decrypto.team.white"}
    assert mark["params"]["round"] == 3 and mark["params"]["clues"] == " / ".join(last["clues"])
    assert mark["params"]["code"] == "-".join(map(str, last["code"]))
    assert g.outcome()["places"][0] == g.teams["white"]
