"""Python Socket.IO clients of partyhost (the tests' peers, the benches): read states the way the
page does.

Pythonのクライアント（テスト・ベンチ）がページと同じ順序・同じ保持で state を読むための補助。

* python-socketio's ``Client`` runs every incoming message in a new thread, so two ``state``
  messages can be handled out of order; a browser handles them in arrival order. :func:`in_order`
  makes the client hand messages to its handlers one at a time, in arrival order.
* The server leaves out the parts of the party view a page keeps (``wire.HELD_PARTS``: the
  games catalogue and the roster) unless they differ from what that socket holds.
  :func:`keep_held` fills them in from the previous state, as ``app.js`` does.
* When a connection dies without a close (the server stopped answering pings: a Wi-Fi outage),
  python-engineio's client leaves its WebSocket's socket open until it is garbage-collected.
  :func:`closes_dead_sockets` closes it as soon as the client gives the connection up.
"""
from __future__ import annotations

import threading
import time
from typing import Any, Callable

from .clocksync import ClockSync
from .wire import HELD_PARTS  # the parts the server leaves out while they are unchanged


def in_order(client: Any) -> Any:
    """Make a ``socketio.Client`` handle incoming messages one at a time, in arrival order.

    Engine.IO's client starts each message's handler with its public
    ``start_background_task``; this wraps that method on the one client: each message takes a
    ticket in the reader thread (in arrival order) and its thread waits for its turn. Every
    other background task (the read and write loops) starts as before. Returns ``client``.
    """
    eio = client.eio
    start = eio.start_background_task
    cond = threading.Condition()
    turn = {"issued": 0, "next": 0}

    def start_in_order(target, *args, **kwargs):
        if target != eio.handlers.get("message"):
            return start(target, *args, **kwargs)
        with cond:
            ticket = turn["issued"]
            turn["issued"] += 1

        def run() -> None:
            with cond:
                cond.wait_for(lambda: turn["next"] == ticket)
            try:
                target(*args, **kwargs)
            finally:
                with cond:
                    turn["next"] += 1
                    cond.notify_all()

        return start(run)

    eio.start_background_task = start_in_order
    return client


def closes_dead_sockets(client: Any) -> Any:
    """Make a ``socketio.Client`` close its WebSocket's socket whenever Engine.IO resets the
    connection. python-engineio's client (4.x) ends its read loop on a ping timeout or a read
    error without closing ``ws``; the socket then stays open (a file descriptor, and a
    ``ResourceWarning`` when collected) while the client already reconnects on a new one.
    The close is ``WebSocket.shutdown()``: no closing handshake, which on a dead link would wait
    up to 3 s. Wraps ``_reset`` on the one client (as :func:`in_order` wraps one method).
    Returns ``client``."""
    eio = client.eio
    reset = eio._reset

    def reset_and_close() -> None:
        ws = getattr(eio, "ws", None)  # kept on the client: disconnect() may still read it
        reset()
        if ws is not None:
            try:
                ws.shutdown()
            except OSError:  # already closed
                pass

    eio._reset = reset_and_close
    return client


def keep_held(state: Any, last: dict | None) -> Any:
    """``state`` with each held part it lacks (catalogue, roster) taken from ``last`` (the
    previous state of the same socket, already filled in), as the page keeps them. ``state``
    itself is not changed: a new dict is returned when something was filled in."""
    if not isinstance(state, dict) or not isinstance(state.get("party"), dict) or not last:
        return state
    party, before = state["party"], last.get("party") or {}
    kept = {key: before[key] for key in HELD_PARTS if key not in party and key in before}
    return {**state, "party": {**party, **kept}} if kept else state


class ClockPinger:
    """The phone's side of clock sync (issue 26), as ``app.js`` does it: ``sync`` pings, each
    answer (``synced``) a sample of the host clock on this client's clock, kept in a min-RTT
    window (:class:`~partyhost.clocksync.ClockSync`: client = host + offset); while a burst
    lasts, each answer is echoed at once by the next ping, so the host measures the round trip
    on its own clock.

    Args:
        send: ``send(event, payload)`` (``client.emit``, or a delayed one in the benches).
        clock: this phone's clock, seconds (``time.monotonic``; the benches shift it).
    Call :meth:`on_synced` with each ``synced`` payload (register it, or delay it first).
    """

    def __init__(self, send: Callable[[str, Any], Any], clock: Callable[[], float] = time.monotonic) -> None:
        self.send = send
        self.clock = clock
        self.sync = ClockSync()
        self.game_lag = 0.0  # host clock − game clock, seconds (the host's pauses)
        self.n = 0
        self.burst = 0
        self._sent: dict[int, float] = {}
        self._lock = threading.Lock()

    def start(self, burst: int = 8) -> None:
        """Send a burst of ``burst`` pings (each after the previous answer)."""
        with self._lock:
            self.burst = burst
        self._ping(None)

    def _ping(self, echo: float | None) -> None:
        with self._lock:
            self.n += 1
            n, c = self.n, self.clock()
            self._sent[n] = c
            while len(self._sent) > 16:
                self._sent.pop(next(iter(self._sent)))
        payload: dict = {"n": n, "c": c}
        if echo is not None:
            payload["echo"] = echo
        self.send("sync", payload)

    def on_synced(self, answer: Any) -> None:
        """One ``synced`` answer: a sample, and the next ping of the burst (echoing it)."""
        received = self.clock()
        if not isinstance(answer, dict) or "s" not in answer:
            return
        with self._lock:
            sent = self._sent.pop(answer.get("n"), None)
            if sent is not None:
                self.sync.add(sent, answer["s"], received)
                self.game_lag = float(answer.get("g", 0.0))
            more = self.burst > 0
            if more:
                self.burst -= 1
        if more:
            self._ping(answer["s"])

    def stamps(self) -> dict:
        """``{"tc": this clock now, "at": the host's game clock now}`` for an ``act`` (seconds);
        ``{}`` before the first sample."""
        with self._lock:
            if not self.sync.synced:
                return {}
            tc = self.clock()
            return {"tc": tc, "at": tc - self.sync.offset - self.game_lag}


RECONNECT: dict[str, float] = {
    "reconnection_delay": 0.25,
    "reconnection_delay_max": 0.4,
    "randomization_factor": 0.12,
    "request_timeout": 1.0,
}
"""The reconnection policy of a Python phone, the page's (``app.js``) in python-socketio's terms: a
first retry after 0.25 s, then every 0.4 s ± 0.12 s (python-socketio adds ``randomization_factor``
*seconds* of jitter; the page's ±30 %), each attempt given up after 1 s. Short on purpose: after a
Wi-Fi outage the phone must be back within 2 s of the link returning (issue 26). An attempt made
while the link is down waits on a SYN that Linux retries after 1 s and then only 2 s later:
giving it up at 1 s and trying afresh sends a new SYN every ~1.4 s at most."""


def phone_client(**options: Any) -> Any:
    """A ``socketio.Client`` that handles messages in arrival order (:func:`in_order`) and
    reconnects after a lost connection with :data:`RECONNECT` (``options`` override it); a dead
    connection's socket is closed at once (:func:`closes_dead_sockets`).
    The auth passed to ``connect`` may be a callable: it is read at every reconnection."""
    import socketio

    return closes_dead_sockets(in_order(socketio.Client(reconnection=True, **{**RECONNECT, **options})))
