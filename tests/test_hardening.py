"""Issue 10, in process: only finite numbers and clean text enter the engine, nothing non-finite is
ever written, odd Socket.IO events are answered once, loopback and the Host check.

The same attacks against the real server are in ``test_attacks_real.py``.
"""

from __future__ import annotations

import json
import math
import re

import pytest

from partyhost import wire
from partyhost.hostguard import HostGuard, host_name_of, is_loopback

from .helpers import Rig


@pytest.fixture
def rig():
    return Rig(seed=5)


def party_json(rig: Rig) -> str:
    return json.dumps(rig.engine.party.to_dict(), sort_keys=True)


def last_result(client) -> dict:
    return client.received("result")[-1]


# ----- wire.clean ---------------------------------------------------------------------------------

@pytest.mark.parametrize("value,detail", [
    (float("nan"), "non-finite number at (root)"),
    ({"a": [1, float("inf")]}, "non-finite number at a/1"),
    ({"seconds": float("-inf")}, "non-finite number at seconds"),
    ({"n": 2**53}, "integer out of range at n"),
    ({"n": -(10**400)}, "integer out of range at n"),
    ({"x": b"bytes"}, "not JSON at x"),
])
def test_clean_refuses_what_a_browser_cannot_hold(value, detail):
    with pytest.raises(wire.WireError) as caught:
        wire.clean(value)
    assert caught.value.detail == detail


def test_clean_strips_invisible_characters_from_every_text_and_keeps_the_rest():
    raw = {"clue": "空\u200b手", "list": ["\ufeffa\u202eb", 3, 2.5, True, None],
           "nested": {"w": "\u2060\u2063"}}
    assert wire.clean(raw) == {"clue": "空手", "list": ["ab", 3, 2.5, True, None], "nested": {"w": ""}}
    assert raw["clue"] == "空\u200b手"  # the input is not changed in place


def test_clean_refuses_deep_nesting_without_recursing():
    deep: list = []
    for _ in range(50_000):  # far past Python's recursion limit
        deep = [deep]
    with pytest.raises(wire.WireError, match="nested too deep"):
        wire.clean(deep)


def test_strict_dumps_never_writes_a_non_finite_number():
    assert json.dumps({"x": math.nan}) == '{"x": NaN}'  # what the stdlib would have sent
    for bad in (math.nan, math.inf, -math.inf):
        with pytest.raises(ValueError):
            wire.dumps({"x": [bad]})
        with pytest.raises(ValueError):
            wire.StrictJSON.dumps([bad], separators=(",", ":"))


def test_validator_integers_are_json_integers_only():
    validator = wire.Validator({"type": "object", "properties": {"n": {"type": "integer"}}})
    assert validator.is_valid({"n": 2})
    assert not validator.is_valid({"n": 2.0})
    assert not validator.is_valid({"n": True})


# ----- through the transport and the engine --------------------------------------------------------

@pytest.mark.parametrize("token", ["NaN", "Infinity", "-Infinity", "1e400"])
def test_a_non_finite_number_is_refused_at_the_envelope_and_changes_nothing(rig, token):
    tv = rig.tv()
    a, b = rig.phone("a"), rig.phone("b")
    assert tv.send("host", {"op": "start"})["ok"]
    before = party_json(rig)
    serial = rig.engine.party.game_serial
    a.emit_raw(f'2["act",{{"id":"n1","game":{serial},"type":"ready","level":{token},"ready":true}}]')
    result = a.result("n1")
    assert result["ok"] is False and result["code"] == "malformed"
    assert "non-finite" in result["params"]["detail"]
    assert "メッセージの形" in result["message"]
    assert party_json(rig) == before
    # every state anyone received since is standard JSON, and play goes on
    for client in (tv, a, b):
        for state in client.received("state"):
            json.loads(wire.dumps(state))
    assert a.act({"type": "ready", "level": 1, "ready": True})["ok"]


def test_a_malformed_refusal_keeps_the_validators_english_out_of_japanese(rig):
    """The schema validator's detail is English: a Japanese phone reads a whole Japanese sentence,
    an English phone reads the sentence with the detail, and the detail stays in ``params``."""
    rig.tv()
    ja, en = rig.phone("a"), rig.phone("b", lang="en")
    answers = {}
    for name, phone in (("ja", ja), ("en", en)):
        phone.emit_raw('2["lang",{"id":"bad1","lang":["ja"]}]')
        answers[name] = phone.result("bad1")
    for result in answers.values():
        assert result["code"] == "malformed" and result["params"]["detail"]
    assert "メッセージの形" in answers["ja"]["message"]
    assert not re.search(r"[A-Za-z]", answers["ja"]["message"]), answers["ja"]["message"]
    assert answers["en"]["message"].startswith("The message is not well formed (")
    assert answers["en"]["params"]["detail"] in answers["en"]["message"]


def test_a_nan_message_id_is_answered_with_a_null_id(rig):
    a = rig.phone("a")
    a.emit_raw('2["lang",{"id":NaN,"lang":"en"}]')
    result = last_result(a)
    assert result["id"] is None and result["code"] == "malformed"
    assert "メッセージの形" in result["message"]


def test_the_dealers_nan_tempo_never_reaches_a_view(rig):
    """The reported attack: a Diabolo dealer sends ``{"type": "tempo", "seconds": NaN}``."""
    tv = rig.tv()
    phones = [rig.phone(n) for n in ("a", "b", "c")]
    assert tv.send("host", {"op": "choose", "game": "diabolo"})["ok"]
    assert tv.send("host", {"op": "start"})["ok"]
    sender = phones[int(rig.game.dealer.lstrip("s")) - 1]
    before = party_json(rig)
    serial = rig.engine.party.game_serial
    for token in ("NaN", "Infinity", "-Infinity"):
        sender.emit_raw(f'2["act",{{"id":"t{token}","game":{serial},"type":"tempo","seconds":{token}}}]')
        assert sender.result(f"t{token}")["code"] == "malformed"
    assert party_json(rig) == before
    rig.clock.advance(30)
    rig.drain()
    for client in (tv, *phones):
        wire.dumps(client.state)  # raises on NaN


def test_integral_floats_are_refused_as_malformed_not_an_internal_error(rig):
    tv = rig.tv()
    a, _ = rig.phone("a"), rig.phone("b")
    assert tv.send("host", {"op": "start"})["ok"]
    assert a.act({"type": "ready", "level": 1.0, "ready": True})["code"] == "malformed"
    assert a.send("act", {"game": float(rig.engine.party.game_serial), "type": "ready",
                          "level": 1, "ready": True})["code"] == "malformed"
    assert tv.send("host", {"op": "address", "index": 0.0})["code"] == "malformed"
    hand = rig.game.hands["s1"][0]
    assert a.act({"type": "ready", "level": 1, "ready": True})["ok"]
    result = a.act({"type": "play", "level": 1, "card": float(hand)})
    assert result["code"] == "malformed", result
    assert hand in rig.game.hands["s1"]


def test_invisible_characters_are_removed_before_any_check(rig):
    a = rig.phone()
    assert a.send("join", {"name": "\u200bゆう\u202eき\ufeff"})["ok"]
    assert rig.engine.party.seats["s1"].name == "ゆうき"
    b = rig.phone()
    assert b.send("join", {"name": "ゆう\u2060き"})["code"] == "name_taken"
    assert b.send("join", {"name": "\u200b\u200c\u200d"})["code"] == "name_empty"


def test_invisible_characters_cannot_hide_a_decrypto_keyword(rig):
    tv = rig.tv()
    phones = [rig.phone(n) for n in ("a", "b", "c", "d")]
    assert tv.send("host", {"op": "choose", "game": "decrypto"})["ok"]
    assert tv.send("host", {"op": "start"})["ok"]
    game = rig.game
    assert game.phase == "encrypt"
    team, seat = next(iter(game.encryptors.items()))
    word = game.keywords[team][0]
    phone = phones[int(seat.lstrip("s")) - 1]
    for disguised in (word[0] + "\u200b" + word[1:], "\u202e" + word + "\ufeff"):
        result = phone.act({"type": "clues", "round": game.round, "final": True,
                            "clues": [disguised, "あかいろ", "あおいろ"]})
        assert result["ok"] is False and result["code"] == "dc_clue_is_keyword", result
    result = phone.act({"type": "clues", "round": game.round, "final": True,
                        "clues": ["\u200b\u200d", "あかいろ", "あおいろ"]})
    assert result["code"] == "dc_clue_empty", result
    assert game.clues.get(team) is None


def test_events_with_two_arguments_or_none_are_answered_once(rig, caplog):
    a = rig.phone("a")
    before = party_json(rig)
    a.client.emit("lang", {"id": "two", "lang": "en"}, {"second": 1})
    a.client.emit("act")
    rig.drain()
    results = a.received("result")[-2:]
    assert [r["code"] for r in results] == ["malformed", "malformed"]
    assert party_json(rig) == before
    assert "Traceback" not in caplog.text


@pytest.mark.parametrize("args", [("disconnect",), ("connect", {"role": "tv"}), ("act", {"x": 1}),
                                  ("*",), ()])
def test_the_catch_all_event_acts_only_as_an_unknown_message(rig, args):
    tv = rig.tv()
    a = rig.phone("a")
    a.client.emit("*", *args)
    rig.drain()
    assert last_result(a)["code"] == "unknown_message"
    conn = next(c for c in rig.engine.connections.values() if c.role == "phone")
    assert conn.seat == "s1" and rig.engine.party.seats["s1"].connections == 1
    assert tv.state["party"]["roster"][0]["connected"] is True
    assert a.send("lang", {"lang": "en"})["ok"]


def test_a_view_with_a_non_finite_number_fails_loudly_and_is_never_sent(rig, monkeypatch):
    tv = rig.tv()
    a, _ = rig.phone("a"), rig.phone("b")
    assert tv.send("host", {"op": "start"})["ok"]
    sent_before = len(a.received("state"))
    game = rig.game
    real_view = type(game).view
    monkeypatch.setattr(type(game), "view", lambda self, seat: {**real_view(self, seat), "bug": math.nan})
    rig.engine._dirty = True
    with pytest.raises(ValueError, match="non-finite"):
        rig.engine.drain()
    assert len(a.received("state")) == sent_before


# ----- loopback and Host -----------------------------------------------------------------------

@pytest.mark.parametrize("addr,loop", [
    ("127.0.0.1", True), ("127.8.9.10", True), ("::1", True), ("::ffff:127.0.0.1", True),
    ("[::1]", True), ("192.168.1.20", False), ("::ffff:192.168.1.20", False), ("", False),
    (None, False), ("not an address", False),
])
def test_loopback_includes_ipv4_mapped(addr, loop):
    assert is_loopback(addr) is loop


@pytest.mark.parametrize("remote,host", [("::ffff:127.0.0.1", True), ("::1", True),
                                         ("::ffff:192.168.1.30", False)])
def test_a_tv_page_from_ipv4_mapped_loopback_is_host(rig, remote, host):
    """With ``--bind ::`` the laptop's own browser arrives as ``::ffff:127.0.0.1``."""
    http = rig.app.test_client()
    http.environ_base["REMOTE_ADDR"] = remote
    client = rig.sio.test_client(rig.app, auth={"role": "tv"}, flask_test_client=http)
    rig.drain()
    states = [data for packet in client.get_received() if packet["name"] == "state"
              for data in packet["args"]]
    assert states[-1]["host"] is host


@pytest.mark.parametrize("header,name", [
    ("127.0.0.1:8765", "127.0.0.1"), ("[::1]:8765", "::1"), ("Game.LAN:80", "game.lan"),
    ("laptop.local.", "laptop.local"), ("", None), (None, None), ("a/b", None),
    ("evil.example:notaport", None), ("user@evil.example", None),
])
def test_host_name_of(header, name):
    assert host_name_of(header) == name


def test_host_guard_allows_only_this_machines_names_and_addresses():
    listed = ["192.168.1.20", "fe80::1"]
    clock = [0.0]
    guard = HostGuard(extra_names=["Party.Lan"], extra_addresses=["10.0.0.7"],
                      list_addresses=lambda: listed, clock=lambda: clock[0])
    for ok in ("127.0.0.1:8765", "127.1.2.3", "[::1]:8765", "[::ffff:127.0.0.1]:1", "localhost:8765",
               "192.168.1.20:8765", "10.0.0.7", "party.lan:8765", "[fe80::1]:8765"):
        assert guard.allows(ok), ok
    for bad in ("evil.example:8765", "evil.example", "192.168.1.99:8765", "localhost.evil.example",
                "", None, "127.0.0.1.evil.example"):
        assert not guard.allows(bad), bad
    # the laptop joined another Wi-Fi: its new address is allowed once listed again
    listed.append("172.20.1.5")
    assert not guard.allows("172.20.1.5")  # listed less than REFRESH_SECONDS ago
    clock[0] += 60
    assert guard.allows("172.20.1.5:8765")


def test_pages_and_socketio_refuse_a_foreign_host_and_forbid_framing():
    rig = Rig(seed=1)
    http = rig.app.test_client()
    ok = http.get("/tv", headers={"Host": "127.0.0.1:8765"})
    assert ok.status_code == 200
    assert "frame-ancestors 'none'" in ok.headers["Content-Security-Policy"]
    assert ok.headers["X-Frame-Options"] == "DENY"
    for path in ("/tv", "/", "/healthz", "/socket.io/?EIO=4&transport=polling", "/static/js/app.js"):
        refused = http.get(path, headers={"Host": "evil.example:8765"})
        assert refused.status_code == 403, path
        assert "QR" in refused.get_data(as_text=True)


def test_the_catch_all_event_cannot_act_for_another_socket(rig):
    """Flask-SocketIO's ``@on("*")`` took a client's first argument of an event named "*" for the
    socket id; naming another socket's sid there made the engine answer (and act for) that one."""
    tv = rig.tv()
    victim = rig.phone("victim")
    attacker = rig.phone("attacker")
    victim_sid = next(sid for sid, c in rig.engine.connections.items() if c.seat == "s1")
    victim_results = len(victim.received("result"))
    attacker.client.emit("*", victim_sid, {"id": "x"})
    attacker.client.emit("*", victim_sid, "disconnect")
    rig.drain()
    assert len(victim.received("result")) == victim_results
    assert [r["code"] for r in attacker.received("result")[-2:]] == ["unknown_message"] * 2
    assert rig.engine.connections[victim_sid].seat == "s1"
    assert tv.state["party"]["roster"][0]["connected"] is True
