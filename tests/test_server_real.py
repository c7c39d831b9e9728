"""The real server in a subprocess, driven by python-socketio clients over WebSocket.

Both async modes: a TV and two phones connect, join, the TV starts The Mind, each phone sees only
its own hand, a play is answered, and a phone that drops and comes back with its token gets its
seat and its hand back (docs/protocol.md). Disconnects are kept few: a Python client takes ~3 s
to leave a threading-mode server (shared/research/stack.md).
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.server

@pytest.mark.parametrize("mode", ["eventlet", "threading"])
def test_tv_and_two_phones_play_and_rejoin(server, sio_peer, mode):
    srv = server(mode=mode, seed=11)
    tv = sio_peer(srv.url, {"role": "tv", "lang": "en"}, "tv")
    tv.wait_state(lambda s: s["host"] is True, "host powers on the laptop's TV")
    import urllib.parse
    import urllib.request

    url = tv.state["join"]["url"]
    with urllib.request.urlopen(f"{srv.url}/qr.svg?data={urllib.parse.quote(url)}", timeout=10) as resp:
        assert resp.headers["Content-Type"].startswith("image/svg+xml")
        assert resp.read().decode().lstrip().startswith("<svg")

    phones = []
    for name in ("あき", "Bo"):
        ph = sio_peer(srv.url, {"role": "phone", "token": None, "lang": "en"}, name)
        ph.wait(lambda ph=ph: ph.welcomes, "welcome")
        assert ph.welcomes[0]["seat"] is None and "token" not in ph.welcomes[0]
        res = ph.send("join", {"name": name, "lang": "en"})
        assert res["ok"], res
        w = ph.wait(lambda ph=ph: next((w for w in ph.welcomes if w.get("token")), None), "welcome with token")
        assert w["name"] == name and w["seat"]
        ph.token, ph.seat = w["token"], w["seat"]
        ph.wait_state(lambda s, ph=ph: s["me"] and s["me"]["seat"] == ph.seat, "own seat in state")
        phones.append(ph)
    assert phones[0].seat != phones[1].seat
    tv.wait_state(lambda s: [r["name"] for r in s["party"]["roster"]] == ["あき", "Bo"], "roster on the TV")
    # A phone's token is never sent to anybody else.
    assert all("token" not in w for w in tv.welcomes)
    assert all(w.get("token") in (None, ph.token) for ph in phones for w in ph.welcomes)

    # Only the host can start; the laptop's TV can.
    refused = phones[0].send("host", {"op": "start"})
    assert refused == {**refused, "ok": False, "code": "not_host"}
    assert tv.send("host", {"op": "start"})["ok"]

    tv_game = tv.wait_state(lambda s: s["game"] and s["game"]["level"] == 1, "the game on the TV")["game"]
    assert "hand" not in tv_game and "me" not in tv_game
    assert [p["cards"] for p in tv_game["players"]] == [1, 1]
    hands = {}
    for ph in phones:
        g = ph.wait_state(lambda s: s["game"] and len(s["game"].get("hand", [])) == 1, "own hand")["game"]
        assert g["me"] == ph.seat
        hands[ph.seat] = g["hand"]
    assert hands[phones[0].seat] != hands[phones[1].seat]
    # No view holds the other phone's unplayed card (nor any hand at all on the TV).
    for ph in phones:
        other = next(p for p in phones if p is not ph)
        for s in ph.states:
            assert (s.get("game") or {}).get("hand", []) != hands[other.seat]
    assert all("hand" not in (s.get("game") or {}) for s in tv.states)

    for ph in phones:
        assert ph.act(type="ready", level=1, ready=True)["ok"]
    tv.wait_state(lambda s: s["game"]["phase"] == "playing", "phase playing")

    low, high = sorted(phones, key=lambda ph: hands[ph.seat][0])
    # A refused play is answered and changes nothing.
    gone = low.act(type="play", level=1, card=hands[high.seat][0])
    assert gone["ok"] is False and gone["code"] == "card_gone"
    stale = low.act(type="play", level=2, card=hands[low.seat][0])
    assert stale["ok"] is False and stale["code"] == "stale"
    played = low.act(type="play", level=1, card=hands[low.seat][0])
    assert played["ok"] is True, played
    tv.wait_state(lambda s: [c["card"] for c in s["game"]["pile"]] == hands[low.seat], "the play on the pile")
    assert tv.state["game"]["lives"] == 2  # two players start with two lives; none lost
    low.wait_state(lambda s: s["game"]["hand"] == [], "the played card leaves the hand")

    # The phone still holding a card drops off (screen lock) and comes back with its token.
    high.close()
    tv.wait_state(
        lambda s: any(r["seat"] == high.seat and not r["connected"] for r in s["party"]["roster"]),
        "the dropped phone shown away",
    )
    back = sio_peer(srv.url, {"role": "phone", "token": high.token, "lang": "en"}, high.label + "-back")
    w = back.wait(lambda: back.welcomes, "welcome after reconnect")[0]
    assert w["seat"] == high.seat and w["name"] == high.label and "token" not in w
    g = back.wait_state(lambda s: s["game"] and "hand" in s["game"], "game view after reconnect")["game"]
    assert g["me"] == high.seat and g["hand"] == hands[high.seat]
    assert back.state["me"] == {"seat": high.seat, "name": high.label, "spectator": False, "playing": True}
    roster = tv.wait_state(
        lambda s: all(r["connected"] for r in s["party"]["roster"]), "every seat connected again"
    )["party"]["roster"]
    assert [r["name"] for r in roster] == ["あき", "Bo"]  # the same seat, no duplicate

    # If the phone stayed away past The Mind's grace (a slow reconnect under load), play stopped
    # for it and, now that it is back, everyone lays the hand down again (issue 16); else play
    # simply goes on.
    if back.state["game"]["phase"] == "ready":
        assert back.state["game"]["waiting"] == [] and back.state["game"]["lives"] == 2
        for ph in (low, back):
            assert ph.act(type="ready", level=1, ready=True)["ok"]
        tv.wait_state(lambda s: s["game"]["phase"] == "playing", "phase playing again")

    # The game goes on: the last card completes level 1 and level 2 is dealt.
    assert back.act(type="play", level=1, card=hands[high.seat][0])["ok"]
    g = tv.wait_state(lambda s: s["game"]["level"] == 2, "level 2")["game"]
    assert g["phase"] == "ready" and [p["cards"] for p in g["players"]] == [2, 2]
    assert g["chart"]["level"] == 1 and g["chart"]["outcome"] == "complete"
    assert sorted(c["card"] for c in g["chart"]["cards"]) == sorted(hands[low.seat] + hands[high.seat])
    assert len(back.wait_state(lambda s: s["game"]["level"] == 2, "level 2 hand")["game"]["hand"]) == 2


@pytest.mark.parametrize("mode", ["eventlet", "threading"])
def test_a_second_host_on_the_same_port_refuses_and_leaves_the_first_alone(server, tmp_path, mode):
    """Two hosts on one port once split a party in two (SO_REUSEPORT); the second must stop
    at once, before it prints a QR code or touches the saved party."""
    import subprocess
    import sys

    first = server(mode=mode, seed=3)
    second = subprocess.run(
        [sys.executable, "-m", "partyhost", "--port", str(first.port), "--bind", "127.0.0.1",
         "--no-browser", "--fresh", "--data", str(tmp_path / "second"), "--async-mode", mode],
        capture_output=True, text=True, timeout=30,
    )
    assert second.returncode != 0
    assert "in use" in (second.stderr + second.stdout)
    assert "http://127.0.0.1" not in second.stdout  # no banner, no QR for a host that is not there
    assert not (tmp_path / "second" / "party.sqlite3").exists()
    assert first.wait_ready()["ok"] is True
