"""After おひらき the lobby no longer says why the game before it ended: a もう一度 game the host
ended mid-way left 「ホストがゲームを終えました」 at the top of the TV lobby and every phone's, even
after the table had watched the night's summary and come back to play on.

Fast: the in-process rig, no server, no browser (under a second).
"""

from __future__ import annotations

from .helpers import Rig


def test_back_from_the_summary_the_lobby_does_not_repeat_an_old_ended_notice():
    rig = Rig()
    tv, a, b = rig.playing({"s1": [50], "s2": [10]}, lives=1)
    rig.clock.advance(1.0)
    assert a.act({"type": "play", "level": 1, "card": 50})["ok"]  # the level is lost: game over
    assert tv.send("host", {"op": "again"})["ok"]  # もう一度
    assert tv.send("host", {"op": "end"})["ok"]  # ended by the host, mid-game
    assert b.state["party"]["ended"]["reason"] == "host"  # the lobby says so: true, and news
    assert tv.send("host", {"op": "ohiraki", "on": True})["ok"]
    assert b.state["party"]["summary"]
    assert tv.send("host", {"op": "ohiraki", "on": False})["ok"]  # back to the lobby, play on
    party = b.state["party"]
    assert party["summary"] is None and party["phase"] == "lobby"
    assert party["ended"] is None, party["ended"]  # old news after the night's summary
    # nothing lost: the finished game is still recorded, and the もう一度 game as ended early
    assert [e.get("ended") for e in rig.engine.party.record] == [None, "host"]
