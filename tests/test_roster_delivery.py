"""The roster goes to a socket only when it differs from what that socket holds (issue 18), and
no socket ever misses a roster change: every screen's kept roster equals the party's after every
step. A reconnect (a new socket) gets the whole roster in its first state."""

from __future__ import annotations

from partyhost.party import HOST_GRACE
from partyhost.wire import HELD_PARTS

from .helpers import Rig


def wire_states(client) -> list[dict]:
    """The states as they came on the wire (nothing kept from earlier ones)."""
    return client.received("state")


def check_everyone(rig: Rig, clients: dict, step: str) -> None:
    """Each connected socket's kept roster (as app.js keeps it) is the party's roster now."""
    truth = rig.engine.party.roster()
    for label, client in clients.items():
        kept = client.state["party"]["roster"]
        assert kept == truth, f"after {step}: {label} holds {kept}, the party has {truth}"


def test_every_roster_change_reaches_every_socket_and_an_unchanged_roster_is_not_resent():
    rig = Rig(seed=5)
    clients = {"tv": rig.tv(), "tv2": rig.tv()}
    check_everyone(rig, clients, "two TVs")

    # a seat joins (each join is a roster change every screen must get)
    for name in ("あき", "Bo", "Cy"):
        clients[name] = rig.phone(name)
        check_everyone(rig, clients, f"{name} joins")
    tv = clients["tv"]

    # a lobby change that is not a roster change: the roster is not sent again
    counts = {k: len(wire_states(c)) for k, c in clients.items()}
    assert tv.send("host", {"op": "choose", "game": "top_ten"})["ok"]
    for k, c in clients.items():
        new = wire_states(c)[counts[k]:]
        assert new, f"{k} got no state for the lobby change"
        assert all("roster" not in s["party"] for s in new), f"{k} was sent the unchanged roster"
    check_everyone(rig, clients, "a game chosen")

    # the host passes to a phone and back (the roster's "host" flags change)
    assert tv.send("host", {"op": "promote", "seat": "s2"})["ok"]
    check_everyone(rig, clients, "Bo promoted")

    # a game starts ("playing" changes), someone joins late as a spectator
    assert tv.send("host", {"op": "choose", "game": "the_mind"})["ok"]
    result = tv.send("host", {"op": "start"})
    assert result["ok"], result
    check_everyone(rig, clients, "the game starts")
    clients["Dee"] = rig.phone("Dee")
    check_everyone(rig, clients, "a spectator joins")
    assert clients["Dee"].state["party"]["roster"][-1]["spectator"] is True

    # a seat goes away and comes back on a new socket (a reconnect gets the whole roster)
    token = clients["あき"].token
    clients.pop("あき").disconnect()
    check_everyone(rig, clients, "あき goes away")
    back = rig.phone(token=token)
    first = wire_states(back)[0]
    assert first["party"]["roster"] == rig.engine.party.roster()
    assert first["party"]["games"]
    clients["あき"] = back
    check_everyone(rig, clients, "あき comes back")

    # the host phone goes away for longer than the grace: the host powers move on by a timer
    clients.pop("Bo").disconnect()
    rig.clock.advance(HOST_GRACE + 1)
    rig.drain()
    assert rig.engine.party.host_seat not in (None, "s2")
    check_everyone(rig, clients, "the host handed on")

    # a seat leaves for good (kicked): every remaining screen drops it
    assert tv.send("host", {"op": "kick", "seat": "s3"})["ok"]
    clients.pop("Cy")
    check_everyone(rig, clients, "Cy kicked")
    assert "s3" not in [r["seat"] for r in tv.state["party"]["roster"]]

    # across all of this, each socket was sent the roster only in states where it changed
    for label, client in clients.items():
        previous = None
        for state in wire_states(client):
            roster = state["party"].get("roster")
            if roster is not None:
                assert roster != previous, f"{label} was sent a roster it already held"
                previous = roster
        assert previous is not None


def test_a_reconnect_gets_the_whole_roster_even_if_nothing_changed():
    rig = Rig(seed=5)
    tv = rig.tv()
    a, b = rig.phone("a"), rig.phone("b")
    assert tv.send("host", {"op": "choose", "game": "top_ten"})["ok"]
    assert "roster" not in wire_states(a)[-1]["party"]  # a holds it already
    # a second TV page (a reload) and a phone that reloads with its token: full rosters
    tv2 = rig.tv()
    again = rig.phone(token=a.token)
    for client in (tv2, again):
        first = wire_states(client)[0]
        assert first["party"]["roster"] == rig.engine.party.roster()
        assert [r["name"] for r in first["party"]["roster"]] == ["a", "b"]
    assert b.state["party"]["roster"] == rig.engine.party.roster()


def test_python_clients_handle_messages_in_arrival_order_like_a_browser():
    """python-socketio starts a thread per message; in_order makes them run one at a time, in
    the order they came, even when the first one is slow (without it the others overtake).
    The first handler waits until the last one has run (or 0.3 s): a thread per message lets
    the last one overtake it for sure; in order, it times out and the order holds."""
    import threading

    from partyhost.pyclient import in_order

    handled: list[int] = []
    last_ran = threading.Event()

    class FakeEio:
        def __init__(self) -> None:
            self.handlers = {"message": self.on_message}
            self.threads: list[threading.Thread] = []

        def on_message(self, n: int) -> None:
            if n == 0:
                last_ran.wait(timeout=0.3)
            handled.append(n)
            if n == 4:
                last_ran.set()

        def start_background_task(self, target, *args):
            thread = threading.Thread(target=target, args=args)
            thread.start()
            self.threads.append(thread)
            return thread

    class FakeClient:
        eio = FakeEio()

    client = FakeClient()
    for n in range(5):  # what Engine.IO's reader thread does for each message, in arrival order
        client.eio.start_background_task(client.eio.handlers["message"], n)
    for thread in client.eio.threads:
        thread.join()
    assert handled[-1] == 0  # threads alone: the slow first message is overtaken
    handled.clear()
    last_ran.clear()
    in_order(client)
    other = client.eio.start_background_task(lambda: handled.append("loop"))  # not a message
    other.join()
    handled.clear()
    for n in range(5):
        client.eio.start_background_task(client.eio.handlers["message"], n)
    for thread in client.eio.threads:
        thread.join()
    assert handled == [0, 1, 2, 3, 4]


def test_keep_held_fills_only_what_is_missing_and_leaves_the_state_as_sent():
    from partyhost.pyclient import keep_held

    first = {"party": {"roster": [{"seat": "s1"}], "games": [{"key": "the_mind"}], "serial": 1}}
    lean = {"party": {"serial": 2}}
    kept = keep_held(lean, first)
    assert kept["party"] == {"roster": [{"seat": "s1"}], "games": [{"key": "the_mind"}], "serial": 2}
    assert lean == {"party": {"serial": 2}}
    newer = {"party": {"roster": [], "serial": 3}}  # an empty roster is a roster: kept as sent
    assert keep_held(newer, kept)["party"]["roster"] == []
    assert keep_held(lean, None) is lean


def test_a_settled_game_reaches_every_socket_in_the_record_and_plays_carry_no_held_part():
    """The night's record, the scoreboard and the names are held like the roster: a game action
    sends none of them; the game that settles puts them in every socket's next state; a new
    socket gets them all in its first state."""
    rig = Rig(seed=5)
    tv, a, b = rig.playing({"s1": [10, 30], "s2": [20]}, lives=1)
    late = rig.phone("Cy")  # joins during the game: a spectator
    clients = {"tv": tv, "a": a, "b": b, "Cy": late}
    before = {k: len(wire_states(c)) for k, c in clients.items()}
    # a play that does not end the game: no held part in anybody's state
    rig.clock.advance(1)
    assert a.act({"type": "play", "card": 10, "level": 1, "at": rig.engine.game_now()})["ok"]
    for k, c in clients.items():
        new = wire_states(c)[before[k]:]
        assert new, f"{k} got no state for the play"
        held = [p for s in new for p in HELD_PARTS if p in s["party"]]
        assert held == [], f"{k} was sent {held} for a play"
    assert rig.engine.party.record == []
    # a plays 30 while b holds 20: the last life is lost, the game is over and settles
    rig.clock.advance(1)
    assert a.act({"type": "play", "card": 30, "level": 1, "at": rig.engine.game_now()})["ok"]
    rig.drain()
    party = rig.engine.party
    assert party.game.over
    assert len(party.record) == 1, party.record
    view = rig.engine.party_view()
    for k, c in clients.items():
        kept = c.state["party"]
        assert kept["record"] == party.record, k
        assert kept["scoreboard"] == party.scoreboard(), k
        assert kept["names"] == party.names, k
        for part in HELD_PARTS:  # momentum (もう一度) and howto too: as the party has them now
            assert kept[part] == view[part], (k, part)
        assert any("record" in s["party"] for s in wire_states(c)[before[k]:]), k
    # a new TV page and a reloaded phone get every held part in their first state
    for client in (rig.tv(), rig.phone(token=a.token)):
        first = wire_states(client)[0]["party"]
        view = rig.engine.party_view()
        assert first["record"] == party.record and first["scoreboard"] == party.scoreboard()
        assert {p: first[p] for p in HELD_PARTS} == {p: view[p] for p in HELD_PARTS}


def test_the_page_keeps_the_same_parts_the_server_holds_back():
    """app.js lists the held parts itself (no build step shares wire.py's tuple): same list."""
    import re
    from pathlib import Path

    import partyhost

    app = (Path(partyhost.__file__).parent / "static" / "js" / "app.js").read_text()
    listed = re.search(r"const HELD = \[([^\]]*)\]", app)
    assert listed, "app.js no longer declares const HELD = [...]"
    assert tuple(re.findall(r'"(\w+)"', listed.group(1))) == HELD_PARTS
