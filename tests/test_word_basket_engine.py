"""Word Basket through the real engine and transport (Socket.IO test clients, tests/helpers.py Rig).

The issue's "Done when": two plays for the same field from two clients a few ms apart, many times —
the earlier stamp always wins and the loser keeps its card (no penalty). Once with the engine
drained by hand on a fake clock, once with the engine's own loop (``run_forever``) in a thread on
the real clock."""

from __future__ import annotations

import threading
import time

import pytest

from partyhost.games.word_basket import CARDS

from .helpers import Rig
from .wb_rig import K, arrange

ROUNDS = 50


def start(rig: Rig, **options):
    tv = rig.tv()
    a = rig.phone("あき")
    b = rig.phone("ベン", lang="en")
    assert tv.send("host", {"op": "choose", "game": "word_basket", "options": options})["ok"]
    assert tv.send("host", {"op": "start"})["ok"]
    assert rig.game.players == ["s1", "s2"]
    return tv, a, b


def race_position(rig: Rig):
    """s1 holds る (あひる), s2 holds り (あさり): both fit the field あ."""
    g = arrange(rig.game, {"s1": [K("る"), K("こ"), K("ね")], "s2": [K("り"), K("ほ"), K("み")]}, K("あ"))
    return g, g.field["serial"]


PLAYS = {"s1": (K("る"), "あひる"), "s2": (K("り"), "あさり")}


def play_msg(seat: str, serial: int) -> dict:
    card, word = PLAYS[seat]
    return {"type": "play", "field": serial, "card": card, "word": word}


def test_first_received_play_wins_every_time_and_the_loser_keeps_its_card():
    rig = Rig(seed=11)
    tv, a, b = start(rig)
    phones = {"s1": a, "s2": b}
    for i in range(ROUNDS):
        g, serial = race_position(rig)
        first, second = ("s1", "s2") if i % 2 == 0 else ("s2", "s1")
        gap = 0.2 if i % 5 == 4 else 0.003  # mostly a few ms; every fifth time a clear loser
        phones[first].act(play_msg(first, serial), drain=False)
        if gap > 0.15:
            rig.drain()  # the first play is processed before the second arrives
        rig.clock.advance(gap)
        phones[second].act(play_msg(second, serial), drain=False)
        rig.drain()
        r_first = phones[first].received("result")[-1]
        r_second = phones[second].received("result")[-1]
        assert r_first["ok"], r_first
        g = rig.game
        win_card, _ = PLAYS[first]
        lose_card, _ = PLAYS[second]
        assert win_card not in g.hands[first] and len(g.hands[first]) == 2
        assert lose_card in g.hands[second] and len(g.hands[second]) == 3  # no penalty
        assert g.field["kana"] == CARDS[win_card]["kana"]
        if gap > 0.15:
            assert r_second["ok"] is False and r_second["code"] == "wb_stale_field"
        else:
            assert r_second["ok"], r_second
            race = phones[second].state["game"]["race"]
            assert (race["winner"], race["loser"], race["field"]) == (first, second, serial)
            assert 0 <= race["margin_ms"] <= 150
            assert tv.state["game"]["race"] == race  # the TV shows the near-race


def test_the_real_engine_loop_keeps_stamp_order():
    """``run_forever`` in a thread on the real clock; the two phones send 4 ms apart."""
    rig = Rig(seed=12)
    rig.engine.clock = time.monotonic  # the real clock from the start
    tv, a, b = start(rig)
    phones = {"s1": a, "s2": b}
    game_serial = a.state["party"]["serial"]
    engine = rig.engine
    outcomes = []
    for i in range(ROUNDS):
        g, serial = race_position(rig)  # the loop is not running: safe to arrange
        first, second = ("s1", "s2") if i % 2 == 0 else ("s2", "s1")
        engine._stopped = False
        loop = threading.Thread(target=engine.run_forever, kwargs={"max_wait": 0.02}, daemon=True)
        loop.start()
        phones[first].client.emit("act", {"id": f"f{i}", "game": game_serial, **play_msg(first, serial)})
        time.sleep(0.004)
        phones[second].client.emit("act", {"id": f"s{i}", "game": game_serial, **play_msg(second, serial)})
        deadline = time.monotonic() + 5
        while (not engine._queue.empty() or PLAYS[first][0] in rig.game.hands[first]) and time.monotonic() < deadline:
            time.sleep(0.005)
        engine.stop()
        loop.join(timeout=5)
        assert not loop.is_alive()
        rig.drain()  # anything the loop left when it stopped
        g = rig.game
        assert PLAYS[first][0] not in g.hands[first], f"round {i}: the first play did not win"
        assert PLAYS[second][0] in g.hands[second] and len(g.hands[second]) == 3
        r_second = phones[second].result(f"s{i}")
        assert phones[first].result(f"f{i}")["ok"]
        if r_second["ok"]:
            race = g.race
            assert (race["winner"], race["loser"]) == (first, second) and 0 <= race["margin_ms"] <= 150
            outcomes.append(race["margin_ms"])
        else:
            assert r_second["code"] == "wb_stale_field"
    assert outcomes, "a few ms apart should mostly be a near-race"


def test_refusals_reach_the_phone_in_its_language_and_change_nothing():
    rig = Rig(seed=13)
    tv, a, b = start(rig)
    g, serial = race_position(rig)
    r = a.act({"type": "play", "field": serial, "card": K("る"), "word": "abc"})
    assert r["code"] == "wb_word_not_kana" and r["message"].startswith("読みをかなで")
    r = b.act({"type": "play", "field": serial, "card": K("る"), "word": "あひる"})
    assert r["code"] == "wb_card_not_in_hand" and "not in your hand" in r["message"]
    r = b.act({"type": "play", "field": serial, "card": K("り"), "word": "あり"})
    assert r["code"] == "wb_word_too_short" and r["message"] == "The word needs at least 3 kana (it has 2)"
    r = a.act({"type": "play", "field": serial, "card": K("る"), "word": "あ" * 200})
    assert r["code"] == "wb_word_too_long" and r["message"] == "長すぎます（30文字まで）"
    r = a.act({"type": "play", "field": serial, "card": K("る"), "word": "あ" * 241})
    assert r["code"] == "malformed"  # longer than the schema allows
    r = a.act({"type": "play", "field": serial, "card": K("る"), "word": "新学期"})
    assert r["code"] == "wb_reading_needed" and "しんがっき" in r["message"]
    assert rig.game.hands["s1"] == [K("る"), K("こ"), K("ね")]
    # a doubled tap: the same message id again is a duplicate, a new id finds the card gone
    msg = {"id": "tap-1", "game": a.state["party"]["serial"], **play_msg("s1", serial)}
    a.client.emit("act", msg)
    a.client.emit("act", msg)
    a.client.emit("act", {**msg, "id": "tap-2"})
    rig.drain()
    codes = [r.get("code") for r in a.received("result")[-3:]]
    assert codes == [None, "duplicate", "wb_card_not_in_hand"]
    assert len(rig.game.hands["s1"]) == 2


def test_two_players_a_challenge_is_no_veto_the_vote_shows_and_the_host_can_overrule():
    """RULES.md "Words" (seed: 全員で常識的に話し合って決めます): nobody decides alone. With 2 players
    the challenge opens a vote every phone shows (the word's player votes too), the challenger's
    reject settles nothing, and the host's overrule is taken while the vote is open. On main the
    challenger was the only voter and the word was rejected in the same instant."""
    rig = Rig(seed=14)
    tv, a, b = start(rig)
    c = rig.phone("しま")  # joins late: a spectator, no vote
    g, serial = race_position(rig)
    assert a.act({"type": "play", "field": serial, "card": K("る"), "word": "あぬぬる"})["ok"]
    view = b.state["game"]
    assert view["chain"][-1]["unknown"] and view["challengeable"]["word"] == "あぬぬる"
    assert b.act({"type": "challenge", "field": view["challengeable"]["field"]})["ok"]
    g = rig.game
    assert g.phase == "vote" and len(g.hands["s1"]) == 2  # the word is still in the basket
    for phone in (tv, a, b, c):
        vote = phone.state["game"]["vote"]
        assert vote and vote["decided"] is None and vote["voters"] == ["s1", "s2"]
    assert c.act({"type": "reach"})["code"] == "not_playing_this_game"
    vid = tv.state["game"]["vote"]["id"]
    r = tv.send("host", {"op": "game", "action": {"type": "overrule", "vote": vid, "outcome": "reject"}})
    assert r["ok"], r
    assert g.phase == "play" and K("る") in g.hands["s1"] and len(g.hands["s1"]) == 4
    assert tv.state["game"]["events"][-1]["kind"] in ("penalty", "reshuffle")


def test_two_players_the_words_player_keeps_a_challenged_word_by_voting_for_it():
    """RULES.md "Words": in a 2-player game a disputed word stands unless its player withdraws it or
    the host rules: the player's accept makes a tie, which stands; at the deadline the challenger's
    ballot alone never rejects."""
    rig = Rig(seed=14)
    tv, a, b = start(rig)
    g, serial = race_position(rig)
    assert a.act({"type": "play", "field": serial, "card": K("る"), "word": "あぬぬる"})["ok"]
    assert b.act({"type": "challenge", "field": b.state["game"]["challengeable"]["field"]})["ok"]
    vid = a.state["game"]["vote"]["id"]
    assert a.act({"type": "vote", "vote": vid, "ballot": "accept"})["ok"]
    g = rig.game
    assert g.phase == "play" and len(g.hands["s1"]) == 2 and g.chain[-1]["status"] == "accepted"


def test_host_overrules_through_the_host_op():
    rig = Rig(seed=15)
    tv = rig.tv()
    phones = [rig.phone(n) for n in ("a", "b", "c")]
    assert tv.send("host", {"op": "choose", "game": "word_basket"})["ok"]
    assert tv.send("host", {"op": "start"})["ok"]
    g = arrange(rig.game, {"s1": [K("る"), K("こ")], "s2": [K("ほ"), K("ね")], "s3": [K("す"), K("く")]}, K("あ"))
    a, b, c = phones
    assert a.act({"type": "play", "field": g.field["serial"], "card": K("る"), "word": "あぬぬる"})["ok"]
    assert b.act({"type": "challenge", "field": rig.game.field["serial"]})["ok"]
    vote = tv.state["game"]["vote"]
    assert vote and vote["voters"] == ["s1", "s2", "s3"]
    r = a.send("host", {"op": "game", "action": {"type": "overrule", "vote": vote["id"], "outcome": "accept"}})
    assert r["code"] == "not_host"
    r = tv.send("host", {"op": "game", "action": {"type": "overrule", "vote": vote["id"], "outcome": "accept"}})
    assert r["ok"], r
    assert rig.game.phase == "play" and rig.game.hands["s1"] == [K("こ")]
    assert c.state["game"]["chain"][-1]["status"] == "accepted"


@pytest.mark.parametrize("mode", ["strict", "free"])
def test_lobby_options_reach_the_game(mode):
    rig = Rig(seed=16)
    tv, a, b = start(rig, word_mode=mode, handicaps={"s2": "easy"}, reach_window=3)
    g = rig.game
    assert g.mode == mode and g.handicaps == {"s1": "normal", "s2": "easy"} and g.reach_window == 3
    assert [p["min"] for p in a.state["game"]["players"]] == [3, 2]
    r = tv.send("host", {"op": "choose", "game": "word_basket", "options": {"word_mode": "loose"}})
    assert r["code"] in ("bad_options", "game_running")


def test_a_handicaps_key_with_invisible_characters_is_refused_and_never_reaches_a_screen():
    """Found by the engine fuzz: object keys keep their invisible characters at the envelope
    (only text values lose them) and the lobby options go out in every state. A handicap names
    a seat, and no seat id holds one: such a key is a bad option."""
    rig = Rig(seed=16)
    tv = rig.tv()
    a = rig.phone("あき")
    for key in ("s1\u200b", "\u202es1", "s\u20641", "\ufeff"):
        r = tv.send("host", {"op": "choose", "game": "word_basket", "options": {"handicaps": {key: "easy"}}})
        assert r.get("code") == "bad_options", (key, r)
    assert tv.send("host", {"op": "choose", "game": "word_basket", "options": {"handicaps": {"s1": "easy"}}})["ok"]
    for client in (tv, a):
        for state in client.received("state"):
            assert state["party"]["options"].get("handicaps", {}) in ({}, {"s1": "easy"})


def test_the_host_phone_cannot_overrule_a_vote_on_its_own_word():
    """Nobody decides alone on their own word (RULES.md "Words"): the host, promoted to a phone,
    cannot overrule the vote on its own challenged word (it may still vote, or withdraw it)."""
    rig = Rig(seed=14)
    tv, a, b = start(rig)
    assert tv.send("host", {"op": "promote", "seat": a.seat})["ok"]
    g, serial = race_position(rig)
    assert a.act({"type": "play", "field": serial, "card": K("る"), "word": "あぬぬる"})["ok"]
    assert b.act({"type": "challenge", "field": b.state["game"]["challengeable"]["field"]})["ok"]
    vid = rig.game.vote_info["id"]
    r = a.send("host", {"op": "game", "action": {"type": "overrule", "vote": vid, "outcome": "accept"}})
    assert r["ok"] is False and r["code"] == "overrule_own_word", r
    assert rig.game.phase == "vote"
    assert tv.send("host", {"op": "game", "action": {"type": "overrule", "vote": vid, "outcome": "accept"}})["ok"]
    assert rig.game.phase == "play" and rig.game.chain[-1]["status"] == "accepted"
