"""In-process test rig: the real app, engine and Socket.IO test clients, drained synchronously."""

from __future__ import annotations

import itertools

from partyhost.pyclient import keep_held
from partyhost.server import create_app

_ids = itertools.count(1)


class FakeClock:
    """A monotonic clock the test moves by hand (seconds)."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class Rig:
    """The real ``create_app`` with a fake clock; tests call :meth:`drain` instead of a loop."""

    def __init__(self, seed: int = 3, **config) -> None:
        self.app, self.sio, self.engine = create_app({"SEED": seed, **config})
        self.clock = FakeClock()
        self.engine.clock = self.clock

    def drain(self) -> None:
        self.engine.drain()

    def tv(self, **auth):
        # With a Flask test client the socket's REMOTE_ADDR is 127.0.0.1: the laptop's own TV.
        client = self.sio.test_client(self.app, auth={"role": "tv", **auth},
                                      flask_test_client=self.app.test_client())
        self.drain()
        return Client(self, client)

    def phone(self, name: str | None = None, lang: str = "ja", token: str | None = None):
        auth = {"role": "phone", "lang": lang}
        if token:
            auth["token"] = token
        client = Client(self, self.sio.test_client(self.app, auth=auth))
        self.drain()
        if name is not None:
            result = client.send("join", {"name": name})
            assert result["ok"], result
        return client

    def start(self, *phones, game: str = "the_mind") -> "Client":
        tv = self.tv()
        assert tv.send("host", {"op": "choose", "game": game})["ok"]
        result = tv.send("host", {"op": "start"})
        assert result["ok"], result
        return tv

    def playing(self, hands: dict, **fields):
        """A TV and two phones ("a" = s1, "b" = s2) in The Mind's level 1, with these hands and
        any other game fields set (``lives=1``…), both ready: play is on. Returns (tv, a, b)."""
        tv = self.tv()
        a = self.phone("a")
        b = self.phone("b")
        assert tv.send("host", {"op": "start"})["ok"]
        self.game.hands = hands
        for name, value in fields.items():
            setattr(self.game, name, value)
        for p in (a, b):
            assert p.act({"type": "ready", "level": 1, "ready": True})["ok"]
        return tv, a, b

    @property
    def game(self):
        return self.engine.party.game


class Client:
    """One Socket.IO test client plus everything it has received, in order."""

    def __init__(self, rig: Rig, client) -> None:
        self.rig = rig
        self.client = client
        self.events: list[tuple[str, object]] = []  # as they came on the wire
        self.held: dict | None = None  # the newest state with the held parts kept (as the page)

    def pump(self) -> None:
        for packet in self.client.get_received():
            data = packet["args"][0] if packet["args"] else None
            self.events.append((packet["name"], data))
            if packet["name"] == "state":
                self.held = keep_held(data, self.held)

    def received(self, name: str) -> list:
        self.pump()
        return [data for event, data in self.events if event == name]

    @property
    def state(self) -> dict:
        """The newest state with the catalogue and roster it was last sent kept, as the page
        keeps them (:func:`partyhost.pyclient.keep_held`); ``received("state")`` is the wire."""
        self.pump()
        return self.held or {}

    @property
    def welcome(self) -> dict:
        return self.received("welcome")[-1]

    @property
    def token(self) -> str | None:
        for data in reversed(self.received("welcome")):
            if data.get("token"):
                return data["token"]
        return None

    @property
    def seat(self) -> str | None:
        return (self.state.get("me") or {}).get("seat")

    def emit(self, event: str, payload) -> None:
        self.client.emit(event, payload)

    def emit_raw(self, text: str, drain: bool = True) -> None:
        """Send one Socket.IO packet exactly as written, e.g. ``'2["act",{"card":NaN}]'``
        (what a hostile client can put on the wire: the test client's own encoder refuses NaN)."""
        self.client.socketio.server._handle_eio_message(self.client.eio_sid, text)
        if drain:
            self.rig.drain()

    def send(self, event: str, payload: dict, drain: bool = True) -> dict | None:
        """Emit with a fresh id, drain the engine, return the matching ``result``."""
        msg = {"id": f"m{next(_ids)}", **payload}
        self.client.emit(event, msg)
        if not drain:
            return None
        self.rig.drain()
        return self.result(msg["id"])

    def result(self, msg_id) -> dict | None:
        for data in self.received("result"):
            if data.get("id") == msg_id:
                return data
        return None

    def act(self, action: dict, drain: bool = True) -> dict | None:
        serial = self.state["party"]["serial"]
        return self.send("act", {"game": serial, **action}, drain=drain)

    def disconnect(self) -> None:
        self.client.disconnect()
        self.rig.drain()
