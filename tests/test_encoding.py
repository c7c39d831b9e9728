"""Issue 18: each distinct view is written as JSON once per flush, and that text is what goes out.

The engine encodes a view once for every screen that shows it; python-socketio sends the text as
it is (``wire.ViewPacket``), with no second ``json.dumps`` of the view and no walk for binary
attachments. What a browser receives is unchanged: the same content, strict JSON, ``now`` included.
"""

from __future__ import annotations

import collections
import json
import math
import sys

import pytest
from socketio import packet as sio_packet

from partyhost import wire
from partyhost.engine import encode_view

from .helpers import Rig


def written(monkeypatch) -> list:
    """Record every object any JSON encoder writes (``json.dumps`` and ``wire.compact`` both end
    in ``JSONEncoder.encode``)."""
    seen: list = []
    real = json.JSONEncoder.encode

    def spy(self, obj):
        frame = sys._getframe(1)
        while frame is not None:  # Flask-SocketIO's test client decodes and writes every packet
            if frame.f_code.co_filename.endswith("test_client.py"):  # again: not the server's work
                break
            frame = frame.f_back
        else:
            seen.append(obj)
        return real(self, obj)

    monkeypatch.setattr(json.JSONEncoder, "encode", spy)
    return seen


def times_written(seen: list, part: object) -> int:
    """How many of the objects the encoders wrote (``written``) are ``part`` or hold it somewhere
    inside (by identity): how many times ``part``'s text was produced."""
    def holds(obj: object) -> bool:
        if obj is part:
            return True
        if isinstance(obj, dict):
            return any(holds(v) for v in obj.values())
        if isinstance(obj, (list, tuple)):
            return any(holds(v) for v in obj)
        return False
    return sum(1 for obj in seen if holds(obj))


def test_one_view_on_many_screens_is_encoded_once_and_sent_as_written(monkeypatch):
    rig = Rig(seed=4)
    tvs = [rig.tv() for _ in range(6)]
    a, b = rig.phone("a"), rig.phone("b")
    assert tvs[0].send("host", {"op": "start"})["ok"]
    for c in (*tvs, a, b):
        c.pump()
    seen = written(monkeypatch)
    assert a.act({"type": "ready", "level": 1, "ready": True})["ok"]
    # Before issue 18 each of the 8 sockets' whole view was written twice (the engine's change
    # check, then python-socketio). Now no whole view is written by a JSON encoder, and no part
    # twice: the party view once for all 8 (without the roster: it did not change, and it is
    # written once only to compare it with what each socket holds); the game's table parts
    # (The Mind builds them with Game.table_part, sixth pass) once for the three game views that
    # hold them (the table, a, b), not once per view.
    views = [o for o in seen if isinstance(o, dict) and "party" in o]
    views += [o[-1] for o in seen if isinstance(o, list) and o and isinstance(o[-1], dict)
              and "party" in o[-1]]
    assert views == []
    parties = [o for o in seen if isinstance(o, dict) and "host_seat" in o]
    assert len(parties) == 1 and "roster" not in parties[0] and "games" not in parties[0]
    parts = [id(o) for o in seen if isinstance(o, (dict, list))]
    assert len(parts) == len(set(parts))  # no object is written twice
    assert len([o for o in seen if isinstance(o, list) and o and isinstance(o[0], dict)
                and "connected" in o[0]]) == 1
    assert len([o for o in seen if isinstance(o, list) and o and isinstance(o[0], dict)
                and "ready" in o[0] and "cards" in o[0]]) == 1  # The Mind's players: the table's
    # The game views are written member by member; the game's own snapshot (``Game.live_dict()``
    # with its ``"v"``) is written once, for the rollback copy; it is not a view.
    assert [o for o in seen if isinstance(o, dict) and o.get("game") == "the_mind"
            and "phase" in o and "v" not in o] == []
    assert len([o for o in seen if isinstance(o, dict) and o.get("game") == "the_mind"
                and "v" in o]) == 1
    assert rig.engine.party.game._table_parts is None  # shared only within the flush
    tv_states = [tv.state for tv in tvs]
    assert all(s == tv_states[0] for s in tv_states)
    assert a.state["me"]["name"] == "a" and b.state["me"]["name"] == "b"
    assert a.state["game"]["hand"] != b.state["game"]["hand"]
    assert "hand" not in tvs[0].state["game"] or not tvs[0].state["game"]["hand"]
    assert math.isfinite(a.state["now"]) and a.state["now"] == tvs[0].state["now"]


@pytest.mark.parametrize("view", [
    {"party": {"b": 1, "a": [1, 2.5, None, True]}, "host": False, "me": None, "game": None},
    {"zeta": "空手\u3042\n\"", "alpha": {"nested": {"y": 1, "x": "\u00e9"}}, "mid": [{"k": 0.1}]},
    # every kind of top-level value (bool/None are looked up, keys' texts kept per process since
    # the fifth pass of issue 18), dict/list subclasses, a key that needs escaping
    {"host": True, "me": None, "now": 12.5, "n": -3, "big": 2**53 - 1, "s": "é\"", "t": "",
     "od": collections.OrderedDict([("b", 1), ("a", False)]), "tu": (1, None), "e": {}, "l": [],
     "ke\u3042y\"": 0, "f": False},
])
def test_encode_view_writes_exactly_what_one_dumps_writes(view):
    memo: dict = {}
    expected = wire.dumps(view, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    assert wire.compact(view) == expected
    assert encode_view(view, memo) == expected
    assert encode_view(dict(view), memo) == expected  # from the memo: the same text


def test_encode_view_reuses_a_shared_part_one_level_down_and_writes_the_same_text(monkeypatch):
    table = {"pile": [{"card": 7, "t": 0.5}], "lives": 2, "name": "ゆうき\n\"", "ok": True, "x": None}
    memo: dict = {}
    views = [{"game": {**table, "hand": [i], "me": f"s{i}"}, "party": {"k": [1]}} for i in range(3)]
    texts = [wire.compact(view) for view in views]
    seen = written(monkeypatch)
    assert [encode_view(view, memo) for view in views] == texts
    assert times_written(seen, table["pile"]) == 1  # once for the three views
    assert encode_view({"game": {1: "a", 2: "b"}}, {}) == wire.compact({"game": {1: "a", 2: "b"}})


def test_encode_view_refuses_a_non_finite_number():
    with pytest.raises(ValueError):
        encode_view({"game": {"x": math.inf}, "party": {}}, {})
    with pytest.raises(ValueError):
        encode_view({"now": math.nan}, {})


def test_an_unchanged_view_is_not_sent_again_and_a_reconnect_gets_everything():
    rig = Rig(seed=4)
    tv = rig.tv()
    a = rig.phone("a")
    sent = len(a.received("state"))
    rig.engine._dirty = True  # nothing changed: no new state goes out
    rig.drain()
    assert len(a.received("state")) == sent
    again = rig.phone(token=a.token)
    assert again.state["me"]["name"] == "a" and again.state["party"]["roster"]
    assert tv.state["party"]["roster"][0]["name"] == "a"


def test_view_packet_writes_the_ready_text_and_never_scans_for_binary(monkeypatch):
    view = wire.EncodedView({"party": {"room": "ABCD"}, "now": 1.5},
                            '{"now":1.5,"party":{"room":"ABCD"}}')
    monkeypatch.setattr(sio_packet.Packet, "data_is_binary",
                        classmethod(lambda cls, data: pytest.fail("binary scan")))
    pkt = wire.ViewPacket(sio_packet.EVENT, data=["state", view], namespace="/")
    encoded = pkt.encode()
    assert encoded == '2["state",{"now":1.5,"party":{"room":"ABCD"}}]'
    monkeypatch.undo()
    decoded = sio_packet.Packet(encoded_packet=encoded)
    assert decoded.data == ["state", {"now": 1.5, "party": {"room": "ABCD"}}]


def test_view_packet_keeps_strict_json_for_every_other_packet():
    wire.ViewPacket.json = wire.StrictJSON  # what SocketIO(json=...) sets on the class
    assert wire.ViewPacket(sio_packet.EVENT, data=["result", {"id": 1, "ok": True}]).encode() \
        == '2["result",{"id":1,"ok":true}]'
    with pytest.raises(ValueError):
        wire.ViewPacket(sio_packet.EVENT, data=["result", {"x": math.nan}]).encode()


def test_non_ascii_text_goes_out_as_utf8_and_reads_back_equal():
    rig = Rig(seed=4)
    rig.tv()
    a = rig.phone("空手\u3042")
    assert a.state["me"]["name"] == "空手\u3042"


def test_the_games_catalogue_comes_once_per_connection_and_again_after_a_reconnect():
    rig = Rig(seed=4)
    tv = rig.tv()
    a, _ = rig.phone("a"), rig.phone("b")
    first_tv, first_a = tv.received("state")[0], a.received("state")[0]
    assert [g["key"] for g in first_tv["party"]["games"]] == [g["key"] for g in first_a["party"]["games"]]
    assert "the_mind" in [g["key"] for g in first_tv["party"]["games"]]
    assert tv.send("host", {"op": "start"})["ok"]
    later = tv.state
    assert later["party"]["serial"] > first_tv["party"]["serial"]
    wire_tv, wire_a = tv.received("state")[-1], a.received("state")[-1]  # as sent, not as kept
    assert "games" not in wire_tv["party"] and "games" not in wire_a["party"]
    assert later["party"]["roster"] and later["party"]["game_key"] == "the_mind"
    again = rig.phone(token=a.token)  # a reconnect is a new socket: it gets everything
    assert again.state["party"]["games"] == first_a["party"]["games"]
    # as sent to the new socket: everything the old socket holds (catalogue and roster kept)
    assert again.received("state")[-1]["party"] == a.state["party"]


def test_the_games_catalogue_is_built_and_written_once_not_every_flush(monkeypatch):
    """The catalogue never changes while the host runs: ``registry.describe`` hands out the same
    list, and the engine keeps its JSON, so a flush neither rebuilds nor re-encodes it only to
    find that every socket already holds it."""
    from partyhost.games import registry

    rig = Rig(seed=4)
    tv, a = rig.tv(), rig.phone("a")
    assert registry.describe() is registry.describe()
    seen = written(monkeypatch)
    assert tv.send("host", {"op": "choose", "game": "top_ten"})["ok"]
    assert a.send("lang", {"lang": "en"})["ok"]
    catalogue = registry.describe()
    assert not [o for o in seen if o is catalogue or (isinstance(o, list) and o and isinstance(o[0], dict)
                                                      and "min" in o[0] and "options" in o[0])]
    # a new socket still gets it, from the kept text
    first = rig.tv().received("state")[0]
    assert first["party"]["games"] == catalogue
