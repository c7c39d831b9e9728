#!/usr/bin/env python3
"""The stack's floor for ``bench_fanout.py``: bare Flask-SocketIO + eventlet, no game work.

Every ``act`` is answered with a ``result`` to the sender, then every connected socket gets a
prepared ``state`` with the ordinary ``socketio.emit(..., to=sid)``, one emit per socket as
partyhost's per-seat views need. The state carries ``party.serial`` and ``game.version`` like
partyhost's, so the bench waits for it the same way. TCP_NODELAY is set on accepted sockets, as
partyhost's server does. Two kinds of prepared state:

* ``--states-file F`` (the *replay* floor, the bench's default): a JSON list of the real states a
  partyhost TV page received, in order, during one run of the same game at that N; action k sends
  state k (cycling) to every socket. Consecutive states then differ the way a real table's do, so
  permessage-deflate (context takeover) does the same work per frame as for partyhost's states.
* ``--state-file F`` (the *constant* floor, issue 18's first floor): one real state, sent again
  and again with only ``game.version`` changing; deflate shrinks such a repeat to ~35 bytes a
  frame where partyhost's changing states take ~77, so this floor does less work than any table.

Usage: ``python bench/floor_server.py --port P [--state-file F | --states-file F]`` (prints
nothing; ``/healthz``).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import warnings

warnings.filterwarnings("ignore", message=r"\s*Eventlet is deprecated")
os.environ.setdefault("EVENTLET_NO_GREENDNS", "yes")
import eventlet  # noqa: E402

eventlet.monkey_patch()

from eventlet.greenio.base import GreenSocket  # noqa: E402
from flask import Flask, request  # noqa: E402
from flask_socketio import SocketIO  # noqa: E402

_accept = GreenSocket.accept


def _accept_nodelay(self):
    conn, addr = _accept(self)
    conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return conn, addr


GreenSocket.accept = _accept_nodelay


def main() -> None:
    """Serve until killed."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--state-file", help="a real state (JSON) to send, e.g. a partyhost TV view")
    ap.add_argument("--states-file", help="real states (a JSON list) to replay in order, one per action")
    args = ap.parse_args()
    app = Flask(__name__)
    sio = SocketIO(app, async_mode="eventlet", async_handlers=False, logger=False,
                   engineio_logger=False)
    sids: list[str] = []
    version = [0]
    if args.states_file:
        with open(args.states_file, encoding="utf-8") as f:
            templates = json.load(f)
    elif args.state_file:
        with open(args.state_file, encoding="utf-8") as f:
            templates = [json.load(f)]
    else:
        templates = [{"party": {"serial": 1}, "game": {"version": 0}}]
    for template in templates:
        template["party"] = {**(template.get("party") or {}), "serial": 1}

    def state() -> dict:
        # a fresh dict per socket, as an app that builds each socket's view would; the state of
        # this action (replay: the k-th recorded one), with the serial and version the bench awaits
        template = templates[version[0] % len(templates)]
        return {**template, "game": {**(template.get("game") or {}), "version": version[0]}}

    @app.get("/healthz")
    def healthz() -> dict:
        return {"ok": True}

    @sio.on("connect")
    def on_connect(auth=None) -> None:
        sids.append(request.sid)
        sio.emit("welcome", {"seat": None, "role": "tv"}, to=request.sid)
        sio.emit("state", state(), to=request.sid)

    @sio.on("disconnect")
    def on_disconnect(reason=None) -> None:
        if request.sid in sids:
            sids.remove(request.sid)

    @sio.on("act")
    def on_act(payload) -> None:
        version[0] += 1
        sio.emit("result", {"id": payload.get("id"), "ok": True}, to=request.sid)
        for sid in list(sids):
            sio.emit("state", state(), to=sid)

    sio.run(app, host="127.0.0.1", port=args.port, log_output=False)


if __name__ == "__main__":
    main()
