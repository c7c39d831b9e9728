"""Transport: Flask routes and Socket.IO handlers.

It knows sockets, the host key and which page a socket belongs to; it never reads game state.
Every handler does one thing: hand the message to :meth:`Engine.submit` (stamped and queued
under one lock). The engine answers through the ``emit`` callable given to it here.

HTTP requests go through :class:`~partyhost.serving.RequestGuard` (limits in
:mod:`partyhost.limits`).

Events (all payloads are documented in ``docs/protocol.md``):
``connect`` (auth: ``role``, ``token``, ``lang``, ``key``), ``join``, ``lang``, ``act``, ``host``.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import os
import secrets
from typing import Any

from flask import Flask, Response, abort, render_template, request, send_from_directory
from flask_socketio import SocketIO

from . import i18n, qr
from .games import registry
from .engine import Engine
from .limits import MAX_HTTP_BODY_BYTES
from .netaddr import Candidate
from .serving import RequestGuard

log = logging.getLogger("partyhost.server")

DEFAULT_PORT = 8765
"""Default HTTP port: free on common laptops (5000 is macOS AirPlay's; 8000/8080 are often
taken by development servers)."""

MESSAGE_KINDS = ("join", "lang", "act", "host")


def _is_loopback(addr: str | None) -> bool:
    try:
        return addr is not None and ipaddress.ip_address(addr.split("%")[0]).is_loopback
    except ValueError:
        return False


def create_app(config: dict | None = None) -> tuple[Flask, SocketIO, Engine]:
    """Build the Flask app, its SocketIO server and the engine.

    Config keys (all optional): ``ASYNC_MODE`` (``"threading"`` default here; the entry point
    passes ``"eventlet"``), ``SEED`` (int, deterministic deals for tests), ``PORT`` (int),
    ``ADDRESSES`` (list of :class:`~partyhost.netaddr.Candidate`), ``LANG`` (default UI language),
    ``HOST_KEY`` (secret that gives a non-local TV page host powers), ``STORE`` (a snapshot
    store with ``save``), ``SNAPSHOT`` (a saved party to resume), ``PING_INTERVAL`` /
    ``PING_TIMEOUT`` (seconds).

    Returns:
        ``(app, socketio, engine)``. The engine loop is not started: :func:`start_engine`
        starts it (the entry point does; in-process tests call ``engine.drain()`` instead).
    """
    cfg = dict(config or {})
    app = Flask(__name__)
    app.config.update(cfg)
    app.config.setdefault("LANG", "ja")
    app.config.setdefault("HOST_KEY", secrets.token_urlsafe(12))
    socketio = SocketIO(
        app,
        async_mode=cfg.get("ASYNC_MODE", "threading"),
        async_handlers=False,
        ping_interval=cfg.get("PING_INTERVAL", 10),
        ping_timeout=cfg.get("PING_TIMEOUT", 20),
        max_http_buffer_size=MAX_HTTP_BODY_BYTES,
        logger=False,
        engineio_logger=False,
    )
    eio = socketio.server.eio
    engine = Engine(
        lambda event, data, sid: socketio.emit(event, data, to=sid),
        seed=cfg.get("SEED"),
        make_queue=eio.create_queue,
        empty_exception=eio.get_queue_empty_exception(),
        addresses=cfg.get("ADDRESSES"),
        port=int(cfg.get("PORT", DEFAULT_PORT)),
        store=cfg.get("STORE"),
        snapshot=cfg.get("SNAPSHOT"),
    )
    app.extensions["partyhost_engine"] = engine
    app.wsgi_app = RequestGuard(app.wsgi_app, MAX_HTTP_BODY_BYTES)
    for cls in registry.GAMES.values():
        cls.prepare()  # word lists and such load now, before the first game, not in a handler

    def page(template: str, role: str) -> str:
        lang = i18n.normalize_lang(request.args.get("lang"), app.config["LANG"])
        return render_template(
            template,
            role=role,
            lang=lang,
            assets=registry.assets(),
            catalogues=json.dumps({code: i18n.catalogue(code) for code in i18n.LANGS},
                                  ensure_ascii=False),
        )

    @app.after_request
    def no_store(resp: Response) -> Response:
        if request.path in ("/", "/tv"):
            resp.headers["Cache-Control"] = "no-store"
        return resp

    @app.get("/")
    def phone_page() -> str:
        return page("phone.html", "phone")

    @app.get("/tv")
    def tv_page() -> str:
        return page("tv.html", "tv")

    @app.get("/healthz")
    def healthz() -> dict:
        return {"ok": True, "room": engine.party.room}

    @app.get("/qr.svg")
    def qr_svg() -> Response:
        # The TV fetches its QR code here (and inlines it) only when the join URL changes,
        # so the 5 KB drawing is not resent with every state.
        data = request.args.get("data", "")
        if not data or len(data) > 512:
            abort(400)
        return Response(qr.svg(data), mimetype="image/svg+xml",
                        headers={"Cache-Control": "max-age=3600"})

    @app.get("/favicon.ico")
    def favicon() -> Response:
        return send_from_directory(os.path.join(app.root_path, "static"), "favicon.svg",
                                   mimetype="image/svg+xml")

    def client_sent(event: str, payload: Any) -> bool:
        """True when a connected client *emitted* an event named connect/disconnect.

        python-socketio routes such events to the real handlers; during a real connect or
        disconnect the socket is pending, so ``is_connected`` tells the two apart. The fake
        one is answered as an unknown message and changes nothing.
        """
        if socketio.server.manager.is_connected(request.sid, "/"):
            engine.submit(request.sid, f"emitted {event}", payload)
            return True
        return False

    @socketio.on("connect")
    def on_connect(auth: Any = None) -> None:
        if client_sent("connect", auth):
            return
        auth = auth if isinstance(auth, dict) else {}
        role = "tv" if auth.get("role") == "tv" else "phone"
        key = auth.get("key")
        host_screen = role == "tv" and (
            _is_loopback(request.remote_addr)
            or (isinstance(key, str) and secrets.compare_digest(key, app.config["HOST_KEY"]))
        )
        engine.submit(request.sid, "connect", None, {
            "role": role,
            "token": auth.get("token") if isinstance(auth.get("token"), str) else None,
            "lang": auth.get("lang"),
            "host_screen": host_screen,
        })

    @socketio.on("disconnect")
    def on_disconnect(reason: Any = None) -> None:
        if client_sent("disconnect", reason):
            return
        engine.submit(request.sid, "disconnect")

    def make_handler(kind: str):
        def handler(payload: Any = None) -> None:
            engine.submit(request.sid, kind, payload)
        handler.__name__ = f"on_{kind}"
        return handler

    for kind in MESSAGE_KINDS:
        socketio.on_event(kind, make_handler(kind))

    @socketio.on("*")
    def on_unknown(event: Any, payload: Any = None) -> None:
        # Any other event name is answered "unknown message" by the engine, in order.
        engine.submit(request.sid, str(event)[:40], payload)

    return app, socketio, engine


def start_engine(socketio: SocketIO, engine: Engine) -> None:
    """Start the engine loop as the server's one background task (either async mode)."""
    socketio.start_background_task(engine.run_forever)


__all__ = ["create_app", "start_engine", "DEFAULT_PORT", "Candidate"]
