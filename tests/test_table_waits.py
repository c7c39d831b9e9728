"""A table that waits for its players (issue 16): The Mind stops play for a phone that dropped
while holding cards, resumes once it is back and everyone is ready, and the host can go on
without it. Through the real engine and transport with a fake clock."""

from __future__ import annotations

from partyhost.games.the_mind import AWAY_GRACE, TheMind

from .helpers import Rig


def test_a_dropped_player_pauses_play_after_the_grace_and_nobody_loses_a_life():
    rig = Rig()
    tv, a, b = rig.playing({"s1": [22], "s2": [23]})
    assert rig.game.phase == "playing"
    token = a.token
    a.disconnect()
    rig.clock.advance(AWAY_GRACE / 2)
    rig.drain()
    assert rig.game.phase == "playing"  # a blink is not a stop
    rig.clock.advance(AWAY_GRACE)
    rig.drain()
    view = tv.state["game"]
    assert view["phase"] == "ready" and view["waiting"] == ["s1"]
    assert view["last_event"]["kind"] == "waiting" and view["last_event"]["seats"] == ["s1"]
    # the others cannot start without the locked phone, so 23 is never played over 22
    assert b.act({"type": "ready", "level": 1, "ready": True})["ok"]
    assert rig.game.phase == "ready"
    refused = b.act({"type": "play", "level": 1, "card": 23})
    assert not refused["ok"] and refused["code"] in ("not_playing", "stopped")
    assert rig.game.lives == 2
    # back with the same token: the seat keeps its hand, play resumes when both are ready
    a2 = rig.phone(token=token)
    assert rig.game.waiting == [] and rig.game.hands["s1"] == [22]
    assert tv.state["game"]["last_event"]["kind"] == "back"
    assert rig.game.phase == "ready" and not any(rig.game.ready.values())  # as after a stop
    assert a2.act({"type": "ready", "level": 1, "ready": True})["ok"]
    assert rig.game.phase == "ready"
    assert b.act({"type": "ready", "level": 1, "ready": True})["ok"]
    assert rig.game.phase == "playing"
    assert a2.act({"type": "play", "level": 1, "card": 22})["ok"]
    assert b.act({"type": "play", "level": 1, "card": 23})["ok"]
    assert rig.game.level == 2 and rig.game.lives == 2


def test_a_player_with_no_cards_left_is_not_waited_for():
    rig = Rig()
    tv, a, b = rig.playing({"s1": [], "s2": [23, 40]})
    a.disconnect()
    rig.clock.advance(AWAY_GRACE * 3)
    rig.drain()
    assert rig.game.phase == "playing" and rig.game.waiting == []
    # after a stop the empty-handed away player does not block the restart either
    assert b.act({"type": "stop", "level": 1})["ok"]
    assert b.act({"type": "ready", "level": 1, "ready": True})["ok"]
    assert rig.game.phase == "playing"


def test_the_host_goes_on_without_an_away_player_who_keeps_the_seat():
    rig = Rig()
    tv, a, b = rig.playing({"s1": [22], "s2": [23, 50]})
    a.disconnect()
    rig.clock.advance(AWAY_GRACE + 0.1)
    rig.drain()
    assert b.act({"type": "ready", "level": 1, "ready": True})["ok"]
    # a connected player cannot be set aside
    refused = tv.send("host", {"op": "game", "action": {"type": "continue_without", "level": 1, "seat": "s2"}})
    assert not refused["ok"] and refused["code"] == "not_away"
    result = tv.send("host", {"op": "game", "action": {"type": "continue_without", "level": 1, "seat": "s1"}})
    assert result["ok"], result
    game = rig.game
    assert game.phase == "playing" and game.hands["s1"] == [] and game.lives == 2
    assert {"card": 22, "seat": "s1", "reason": "away"} in [
        {k: d[k] for k in ("card", "seat", "reason")} for d in tv.state["game"]["discards"]]
    assert "s1" in game.players and "s1" in rig.engine.party.seats
    assert b.act({"type": "play", "level": 1, "card": 23})["ok"]
    assert b.act({"type": "play", "level": 1, "card": 50})["ok"]
    # next level: the still-away player is dealt in and waited for again
    assert game.level == 2 and len(game.hands["s1"]) == 2
    rig.clock.advance(AWAY_GRACE + 0.1)
    rig.drain()
    assert game.waiting == ["s1"]


def test_a_reconnect_within_the_grace_changes_nothing_for_the_table():
    rig = Rig()
    tv, a, b = rig.playing({"s1": [22], "s2": [23]})
    token = a.token
    a.disconnect()
    rig.clock.advance(AWAY_GRACE / 2)
    rig.phone(token=token)
    rig.clock.advance(AWAY_GRACE * 2)
    rig.drain()
    assert rig.game.phase == "playing" and rig.game.away == {} and rig.game.waiting == []


def test_an_old_snapshot_without_away_fields_loads():
    rig = Rig()
    rig.playing({"s1": [22], "s2": [23]})
    data = rig.game.to_dict()
    data["v"] = 1
    del data["away"], data["waiting"]
    game = TheMind.from_dict(data, rig.engine.rng)
    assert game.away == {} and game.waiting == []


# --- taking a seat back from another browser (issue 16 item 2) ---------------------------------

def test_an_away_seat_is_taken_over_from_another_device_with_the_hosts_permission():
    rig = Rig()
    tv, a, b = rig.playing({"s1": [22, 60], "s2": [23]})
    old_token = a.token
    a.disconnect()
    other = rig.phone()
    asked = other.send("join", {"name": "A"})  # same name after NFKC + casefold
    assert not asked["ok"] and asked["code"] == "name_taken_away"
    assert "ホスト" in asked["message"]
    assert other.send("join", {"name": "a", "claim": True})["ok"]
    assert other.state["claim"] == {"status": "pending", "name": "a"}
    assert tv.state["claims"] == [{"id": tv.state["claims"][0]["id"], "seat": "s1", "name": "a"}]
    assert "claims" not in b.state  # a player's phone is not asked
    # a player cannot answer; the host can
    claim_id = tv.state["claims"][0]["id"]
    assert b.send("host", {"op": "claim", "claim": claim_id, "allow": True})["code"] == "not_host"
    assert tv.send("host", {"op": "claim", "claim": claim_id, "allow": True})["ok"]
    welcome = other.welcome
    assert welcome["seat"] == "s1" and welcome["token"] and welcome["token"] != old_token
    assert other.state["me"]["seat"] == "s1" and other.state["game"]["hand"] == [22, 60]
    assert tv.state["claims"] == []
    # the old page wakes with its old token: told it moved, bound to nothing
    old = rig.phone(token=old_token)
    assert old.welcome["seat"] is None and old.welcome["reason"] == "moved"
    assert old.state["me"] is None
    assert rig.engine.party.seats["s1"].connections == 1


def test_a_connected_seat_can_never_be_taken_over():
    rig = Rig()
    tv, a, b = rig.playing({"s1": [22], "s2": [23]})
    other = rig.phone()
    assert other.send("join", {"name": "a"})["code"] == "name_taken"
    assert other.send("join", {"name": "a", "claim": True})["code"] == "claim_no_seat"
    assert tv.state["claims"] == []
    # asked while away, but the owner came back before the host answered
    token = a.token
    a.disconnect()
    assert other.send("join", {"name": "a", "claim": True})["ok"]
    claim_id = tv.state["claims"][0]["id"]
    back = rig.phone(token=token)
    assert tv.state["claims"] == [] and other.state["claim"] == {"status": "gone"}
    assert tv.send("host", {"op": "claim", "claim": claim_id, "allow": True})["code"] == "no_such_claim"
    assert back.state["me"]["seat"] == "s1" and other.state["me"] is None


def test_a_refused_take_over_tells_the_asking_phone_and_changes_nothing():
    rig = Rig()
    tv, a, b = rig.playing({"s1": [22], "s2": [23]})
    token = a.token
    a.disconnect()
    other = rig.phone()
    assert other.send("join", {"name": "a", "claim": True})["ok"]
    claim_id = tv.state["claims"][0]["id"]
    # a host phone is asked too, and may answer
    assert tv.send("host", {"op": "promote", "seat": "s2"})["ok"]
    assert b.state["claims"][0]["id"] == claim_id
    assert b.send("host", {"op": "claim", "claim": claim_id, "allow": False})["ok"]
    assert other.state["claim"] == {"status": "refused"} and other.state["me"] is None
    assert rig.engine.party.seats["s1"].token == token
    # the asking phone going away drops a pending request
    assert other.send("join", {"name": "a", "claim": True})["ok"]
    assert len(tv.state["claims"]) == 1
    other.disconnect()
    assert tv.state["claims"] == []


# --- what the other games do for an absent player ----------------------------------------------

def test_diabolo_stops_the_turning_when_the_dealers_phone_goes():
    rig = Rig()
    tv = rig.tv()
    phones = {name: rig.phone(name) for name in ("a", "b", "c")}
    assert tv.send("host", {"op": "choose", "game": "diabolo"})["ok"]
    assert tv.send("host", {"op": "start"})["ok"]
    game = rig.game
    dealer = phones[{"s1": "a", "s2": "b", "s3": "c"}[game.dealer]]
    other = next(p for p in phones.values() if p is not dealer)
    assert dealer.act({"type": "auto", "round": game.round, "on": True})["ok"]
    assert game.auto_on
    # another player's phone going changes nothing
    other.disconnect()
    assert game.auto_on
    turned = game.turned
    dealer.disconnect()
    assert not game.auto_on and game.next_turn_at is None
    assert tv.state["game"]["last_event"]["kind"] == "auto"
    rig.clock.advance(30)
    rig.drain()
    assert game.turned == turned  # no card turned past the absent dealer
    # the host can start it again for them
    assert tv.send("host", {"op": "game", "action": {"type": "auto", "on": True}})["ok"]
    assert game.auto_on


def test_after_a_host_restart_the_mind_waits_for_whoever_does_not_come_back():
    from partyhost.engine import Engine, Message

    rig = Rig()
    rig.playing({"s1": [22], "s2": [23]})
    snapshot = {"party": rig.engine.party.to_dict(), "game_now": rig.engine.game_now()}
    clock = rig.clock
    engine = Engine(lambda *args: None, seed=1, clock=clock, snapshot=snapshot)
    game = engine.party.game
    assert game.phase == "ready" and set(game.away) == {"s1", "s2"}
    token = engine.party.seats["s1"].token
    engine._process(Message(clock(), 0, "sid-a", "connect", None, {"role": "phone", "token": token}))
    clock.advance(2.0)
    engine.drain()
    assert game.waiting == ["s2"] and "s1" not in game.away


def test_word_basket_does_not_hold_a_vote_for_an_away_voter():
    from .wb_rig import K, arrange

    rig = Rig(seed=15)
    tv = rig.tv()
    a, b, c, d = (rig.phone(n) for n in ("a", "b", "c", "d"))
    assert tv.send("host", {"op": "choose", "game": "word_basket"})["ok"]
    assert tv.send("host", {"op": "start"})["ok"]
    g = arrange(rig.game, {"s1": [K("る"), K("こ")], "s2": [K("ほ"), K("ね")], "s3": [K("す"), K("く")],
                           "s4": [K("み"), K("か")]}, K("あ"))
    assert a.act({"type": "play", "field": g.field["serial"], "card": K("る"), "word": "あぬぬる"})["ok"]
    assert b.act({"type": "challenge", "field": rig.game.field["serial"]})["ok"]
    vote = tv.state["game"]["vote"]
    assert "s4" in vote["voters"] and "s4" not in vote["ballots"]
    if "s1" in vote["voters"] and "s1" not in vote["ballots"]:
        assert a.act({"type": "vote", "vote": vote["id"], "ballot": "accept"})["ok"]
    assert c.act({"type": "vote", "vote": vote["id"], "ballot": "reject"})["ok"]
    # 2 reject : 1 accept with s4 still to vote: s4 could still tie it, so the vote stays open
    assert rig.game.vote is not None and rig.game.vote.count() == {"accept": 1, "reject": 2, "waiting": 1}
    d.disconnect()  # s4's phone goes: the present voters' ballots decide at once
    assert rig.game.vote is None
    assert tv.state["game"]["chain"][-1]["status"] == "rejected"
