"""Python Socket.IO clients of partyhost (the tests' peers, the benches): read states the way the
page does.

Pythonのクライアント（テスト・ベンチ）がページと同じ順序・同じ保持で state を読むための補助。

* python-socketio's ``Client`` runs every incoming message in a new thread, so two ``state``
  messages can be handled out of order; a browser handles them in arrival order. :func:`in_order`
  makes the client hand messages to its handlers one at a time, in arrival order.
* The server leaves out the parts of the party view a page keeps (``wire.HELD_PARTS``: the
  games catalogue and the roster) unless they differ from what that socket holds.
  :func:`keep_held` fills them in from the previous state, as ``app.js`` does.
"""
from __future__ import annotations

import threading
from typing import Any

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


def keep_held(state: Any, last: dict | None) -> Any:
    """``state`` with each held part it lacks (catalogue, roster) taken from ``last`` (the
    previous state of the same socket, already filled in), as the page keeps them. ``state``
    itself is not changed: a new dict is returned when something was filled in."""
    if not isinstance(state, dict) or not isinstance(state.get("party"), dict) or not last:
        return state
    party, before = state["party"], last.get("party") or {}
    kept = {key: before[key] for key in HELD_PARTS if key not in party and key in before}
    return {**state, "party": {**party, **kept}} if kept else state
