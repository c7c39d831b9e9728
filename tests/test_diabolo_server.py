"""Diabolo races on the real server (``python -m partyhost`` in a subprocess, eventlet, real
clock, WebSocket clients): two phones claim the same cards 60 ms apart, again and again; the
claim sent first always wins and the other is refused as ``card_taken`` without penalty.

The server orders by the time it *reads* a frame. When both frames are already waiting (the hub
was busy longer than the gap, as on a machine running other test suites), the order it services
two sockets in is the kernel's, so this end-to-end test keeps a gap a loaded 2-core machine still
honours; the few-ms races are in ``test_diabolo_engine.py`` against the engine loop itself."""

from __future__ import annotations

import time

import pytest

from partyhost.games.diabolo import best_assignment, deck_table, possible_words

pytestmark = [pytest.mark.server]

DECK = deck_table("de")


def test_races_on_the_real_server(server, sio_peer):
    srv = server(mode="eventlet", seed=77)
    tv = sio_peer(srv.url, {"role": "tv", "lang": "ja"}, "tv")
    phones = []
    for name in ("a", "b", "c"):
        ph = sio_peer(srv.url, {"role": "phone", "token": None, "lang": "ja"}, name)
        assert ph.send("join", {"name": name})["ok"]
        phones.append(ph)
    assert tv.send("host", {"op": "choose", "game": "diabolo"})["ok"]
    assert tv.send("host", {"op": "start"})["ok"]
    dealer, first, second = phones
    state = dealer.wait_state(lambda s: s["game"] and s["game"]["phase"] == "turning", "the deal")
    races = 0
    expected = {"s1": 0, "s2": 0, "s3": 0}
    while races < 8:
        game = dealer.state["game"]
        cards = [DECK[c["id"]] for c in game["table"]]
        words = possible_words(cards, "de", limit=1) if len(cards) >= 5 else []
        if not words:
            if not game["deck_left"]:
                break
            turned = game["turned"]
            assert dealer.act(type="turn", round=1, turned=turned)["ok"]
            dealer.wait_state(lambda s: s["game"]["turned"] == turned + 1, "a card turned")
            continue
        plan = best_assignment(words[0], cards)
        claim = {"type": "claim", "round": 1, "word": words[0],
                 "cards": [{"id": c["id"], **({"as": c["as"]} if c["joker"] else {})} for c in plan]}
        one, other = (first, second) if races % 2 == 0 else (second, first)
        ids = (f"race{races}-1", f"race{races}-2")
        one.sio.emit("act", {"id": ids[0], "game": state["party"]["serial"], **claim})
        time.sleep(0.060)
        other.sio.emit("act", {"id": ids[1], "game": state["party"]["serial"], **claim})
        won = one.wait(lambda: one.results.get(ids[0]), "the first claim's result")
        lost = other.wait(lambda: other.results.get(ids[1]), "the second claim's result")
        assert won["ok"], won
        assert lost["ok"] is False and lost["code"] == "card_taken", lost
        winner = one.state["me"]["seat"]
        expected[winner] += len(plan)
        for peer in (tv, dealer):
            peer.wait_state(lambda s: [p["cards"] for p in s["game"]["players"]] == list(expected.values()),
                            "the winner's cards, and none for the later claim")
        races += 1
    assert races >= 4, "the deck ran out before enough races"
