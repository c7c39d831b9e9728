"""Transport: Flask routes and Socket.IO handlers.

It knows sockets, the host key and which page a socket belongs to; it never reads game state.
Every handler does one thing: hand the message to :meth:`Engine.submit` (stamped and queued
under one lock). The engine answers through the ``emit`` callable given to it here.

The transport also protects the table (numbers in :mod:`partyhost.limits`): every message of a
socket is counted against its token bucket where Engine.IO hands it to Socket.IO, and one over
the bucket is dropped there, before any handler and the engine queue (the sender is answered
``rate_limited`` at most once a second); a socket whose outgoing queue passes
:data:`~partyhost.limits.MAX_UNSENT_PACKETS` (a client that does not read) is dropped; HTTP
requests go through :class:`~partyhost.serving.RequestGuard`.

Events (all payloads are documented in ``docs/protocol.md``):
``connect`` (auth: ``role``, ``token``, ``lang``, ``key``), ``join``, ``lang``, ``act``, ``host``.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import socket
import urllib.parse
from typing import Any

from flask import Flask, Response, abort, render_template, request, send_from_directory
from flask_socketio import Namespace, SocketIO

from . import i18n, qr, wifi, wire
from .games import registry
from .engine import Engine, reply_id
from .hostguard import HostGuard, is_loopback
from .limits import (DROP_AND_NOTIFY, MAX_HTTP_BODY_BYTES, MAX_UNSENT_PACKETS, PASS,
                     RATE_BURST, RATE_PER_SECOND, RateLimiter)
from .netaddr import Candidate
from .serving import SOCKET_KEY, RequestGuard

log = logging.getLogger("partyhost.server")

DEFAULT_PORT = 8765
"""Default HTTP port: free on common laptops (5000 is macOS AirPlay's; 8000/8080 are often
taken by development servers)."""

PING_INTERVAL = 2.0
PING_TIMEOUT = 4.0
"""Engine.IO's heartbeat, in seconds: the server pings every ``PING_INTERVAL`` and drops a
socket whose answer has not come ``PING_TIMEOUT`` later; a client that hears no ping for both
together (6 s) gives its connection up and opens a new one. Measured in the network lab
(tests/test_netlab_play.py, issue 26): with 10 s / 20 s a 10 s Wi-Fi outage went unnoticed by
both ends, and the stalled TCP connection came back only at its next retransmission, 5 s after
the link returned (TCP doubles its wait each try); at 2 s / 4 s both ends notice within 6 s, the
phone's fresh connection is up 0.8-1.6 s after the link returns. 4 s still rides out several
retransmissions of a lost ping at 5 % loss. Cost: one small frame each way per phone every 2 s."""

MESSAGE_KINDS = ("join", "lang", "act", "host")

SYNC_EVENT = "sync"
"""The clock-sync ping (issue 26): answered at once with ``synced`` by :meth:`Engine.clock_ping`,
outside the engine queue (it reads no game state; a busy loop must not lengthen the round trip)."""

RESERVED_EVENTS = ("connect", "disconnect", "*")
"""Event names a client may not emit: Socket.IO's own, and the catch-all's. A client that emits
one is answered "unknown message"; it never reaches the connect or disconnect logic."""


class UnknownEvents(Namespace):
    """Every event without a handler of its own, answered "unknown message" by the engine, in order.

    Why not Flask-SocketIO's ``@socketio.on("*")``: a client that emits an event literally named
    ``"*"`` reaches that handler with its arguments shifted by one, and Flask-SocketIO then takes
    the client's first argument for the socket id (``request.sid``): the message would be handled
    as another socket's. python-socketio hands a class-based namespace every otherwise unhandled
    event as ``(event, sid, *args)`` with the real sid, whatever the event is called.

    Args:
        namespace: ``"/"``.
        engine: the engine to hand the message to.
    """

    def __init__(self, namespace: str, engine: Engine) -> None:
        super().__init__(namespace)
        self.engine = engine

    def trigger_event(self, event: Any, sid: Any = None, *args: Any) -> None:  # noqa: D102
        name = str(event)[:40]
        if name in RESERVED_EVENTS or name in MESSAGE_KINDS or name == SYNC_EVENT:
            name = f"emitted {name}"
        self.engine.submit(str(sid), name, args[0] if args else None)


def content_security_policy(host: str) -> str:
    """The pages' Content-Security-Policy: everything from this laptop only, no framing.

    Args:
        host: the request's ``Host`` header (already checked by :class:`HostGuard`); the
            Socket.IO WebSocket is allowed to it explicitly, since older WebKit does not count
            ``ws:`` as ``'self'``.
    """
    return "; ".join([
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",  # the games set inline style attributes
        "img-src 'self' data: blob:",
        "media-src 'self' data: blob:",
        "font-src 'self' data:",
        f"connect-src 'self' ws://{host} wss://{host}",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ])


def create_app(config: dict | None = None) -> tuple[Flask, SocketIO, Engine]:
    """Build the Flask app, its SocketIO server and the engine.

    Config keys (all optional): ``ASYNC_MODE`` (``"threading"`` default here; the entry point
    passes ``"eventlet"``), ``SEED`` (int, deterministic deals for tests), ``PORT`` (int),
    ``ADDRESSES`` (list of :class:`~partyhost.netaddr.Candidate`), ``LANG`` (default UI language),
    ``ALLOWED_HOSTS`` (extra names the ``Host`` header may carry, ``--allow-host``), ``BIND``
    (the listening address, also allowed as a ``Host``),
    ``HOST_KEY`` (secret that gives a non-local TV page host powers), ``STORE`` (a snapshot
    store with ``save``), ``SNAPSHOT`` (a saved party to resume), ``PING_INTERVAL`` /
    ``PING_TIMEOUT`` (seconds), ``RATE_PER_SECOND`` / ``RATE_BURST`` (each socket's token
    bucket, :mod:`partyhost.limits`; a rate of 0 turns the rate limit off), ``MAX_UNSENT_PACKETS``
    (packets waiting for one socket before it is dropped).

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
        ping_interval=cfg.get("PING_INTERVAL", PING_INTERVAL),
        ping_timeout=cfg.get("PING_TIMEOUT", PING_TIMEOUT),
        max_http_buffer_size=MAX_HTTP_BODY_BYTES,
        json=wire.StrictJSON,  # no NaN/Infinity ever written to a browser
        serializer=wire.ViewPacket,  # a view's text, written once by the engine, goes out as is
        logger=False,
        engineio_logger=False,
    )
    # Every request (pages, assets, Socket.IO handshakes and WebSockets) passes the Host check.
    guard = HostGuard(
        extra_names=cfg.get("ALLOWED_HOSTS") or (),
        extra_addresses=[c.address for c in cfg.get("ADDRESSES") or []]
        + [a for a in (cfg.get("BIND"),) if a],
    )
    app.wsgi_app = guard.wrap(app.wsgi_app)
    app.extensions["partyhost_host_guard"] = guard
    eio = socketio.server.eio
    limiter = RateLimiter(cfg.get("RATE_PER_SECOND", RATE_PER_SECOND), cfg.get("RATE_BURST", RATE_BURST))
    max_unsent = int(cfg.get("MAX_UNSENT_PACKETS", MAX_UNSENT_PACKETS))
    # The socket of each WebSocket that was upgraded from long-polling, by Engine.IO session id,
    # while it is open (a WebSocket opened directly is found through its connect environ).
    upgraded: dict[str, Any] = {}

    def unsent(sid: str) -> tuple[str | None, int]:
        """``(engine.io sid, packets waiting in its outgoing queue)`` for Socket.IO ``sid``."""
        eio_sid = socketio.server.manager.eio_sid_from_sid(sid, "/")
        eio_socket = eio.sockets.get(eio_sid) if eio_sid is not None else None
        return eio_sid, (eio_socket.queue.qsize() if eio_socket is not None else 0)

    def drop_unread(sid: str, eio_sid: str, waiting: int) -> None:
        """Close a socket whose client does not read: its TCP connection at once (a writer
        blocked on it fails), then its Engine.IO session, which disconnects it here."""
        environ = socketio.server.get_environ(sid) or {}
        log.warning("dropping a client that does not read: %s (%d packets unsent)",
                    environ.get("REMOTE_ADDR", "?"), waiting)
        raw = upgraded.get(eio_sid)
        if raw is None:
            if environ.get("HTTP_UPGRADE", "").lower() == "websocket":
                raw = environ.get(SOCKET_KEY)
        if raw is not None:
            try:
                raw.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass  # already gone
        eio_socket = eio.sockets.get(eio_sid)
        if eio_socket is not None:
            eio_socket.close(wait=False, abort=True)

    def emit(event: str, data: Any, sid: str) -> None:
        eio_sid, waiting = unsent(sid)
        if eio_sid is not None and waiting > max_unsent:
            drop_unread(sid, eio_sid, waiting)
            return
        socketio.emit(event, data, to=sid)

    engine = Engine(
        emit,
        seed=cfg.get("SEED"),
        make_queue=eio.create_queue,
        empty_exception=eio.get_queue_empty_exception(),
        addresses=cfg.get("ADDRESSES"),
        port=int(cfg.get("PORT", DEFAULT_PORT)),
        store=cfg.get("STORE"),
        snapshot=cfg.get("SNAPSHOT"),
    )
    app.extensions["partyhost_engine"] = engine
    wifi_card = cfg.get("WIFI") or wifi.WifiCard()
    engine.wifi = wifi_card
    app.extensions["partyhost_wifi"] = wifi_card
    app.extensions["partyhost_limiter"] = limiter

    socketio_wsgi = app.wsgi_app  # the Host check, around Engine.IO, around Flask

    def track_upgrades(environ: dict, start_response: Any) -> Any:
        sid = None
        raw = environ.get(SOCKET_KEY)
        if raw is not None and environ.get("HTTP_UPGRADE", "").lower() == "websocket":
            sid = urllib.parse.parse_qs(environ.get("QUERY_STRING", "")).get("sid", [None])[0]
            if sid:
                upgraded[sid] = raw
        try:
            # A WebSocket is served inside this call, from the upgrade to the close.
            return socketio_wsgi(environ, start_response)
        finally:
            if sid and upgraded.get(sid) is raw:
                del upgraded[sid]

    app.wsgi_app = RequestGuard(track_upgrades, MAX_HTTP_BODY_BYTES)

    # The rate limit sits where Engine.IO hands a message to Socket.IO, before it is even
    # decoded: a dropped message costs no JSON parse and no Flask request context. Measured under
    # a 5,000/s flood, server CPU per dropped message: ~85 µs when the Socket.IO handlers
    # dropped it, ~30 µs here (the rest is WebSocket framing). python-socketio's admin module
    # chains these Engine.IO handlers the same way.
    deliver_message = eio.handlers["message"]
    deliver_disconnect = eio.handlers["disconnect"]

    def tell_rate_limited(eio_sid: str, data: Any) -> None:
        sid = socketio.server.manager.sid_from_eio_sid(eio_sid, "/")
        if sid is None:
            return
        payload = None
        try:  # decoded only for this answer, at most once a second per socket
            pkt = socketio.server.packet_class(encoded_packet=data)
            args = pkt.data if isinstance(pkt.data, list) else []
            payload = args[1] if len(args) > 1 else None
        except Exception:  # noqa: BLE001 - not even a packet: answer with no id
            pass
        msg_id = reply_id(payload)  # the same rule as the engine's answers
        socketio.emit("result", {
            "id": msg_id,
            "ok": False,
            "code": "rate_limited",
            "message": i18n.message(engine.language(sid), "err.rate_limited"),
        }, to=sid)

    def on_eio_message(eio_sid: str, data: Any) -> Any:
        """Every Engine.IO message of a socket is counted against its token bucket; one over
        it is dropped here, before Socket.IO decodes it, and never reaches the engine queue
        (the sender is answered ``rate_limited`` at most once a second).

        It also yields to the other sockets first: in eventlet mode a WebSocket whose frames
        keep arriving is read in a loop that never waits, so one flooding phone holds the hub.
        Measured (tests/test_attacks_real.py, 5,000 actions/s from one phone, the other phones'
        p50): with no rate limit past 10 s; rate limit without this yield 1.8–2.6x the quiet
        value (5–8 ms quiet); with it 1.1–1.5x.
        """
        socketio.sleep(0)
        verdict = limiter.admit(eio_sid)
        if verdict == PASS:
            return deliver_message(eio_sid, data)
        if verdict == DROP_AND_NOTIFY:
            tell_rate_limited(eio_sid, data)
        return None

    def on_eio_disconnect(eio_sid: str, *args: Any) -> Any:
        limiter.forget(eio_sid)
        return deliver_disconnect(eio_sid, *args)

    eio.on("message", on_eio_message)
    eio.on("disconnect", on_eio_disconnect)
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
    def headers(resp: Response) -> Response:
        if request.path in ("/", "/tv"):
            resp.headers["Cache-Control"] = "no-store"
        resp.headers["Content-Security-Policy"] = content_security_policy(request.host)
        resp.headers["X-Frame-Options"] = "DENY"
        resp.headers["X-Content-Type-Options"] = "nosniff"
        resp.headers["Referrer-Policy"] = "no-referrer"
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

    @app.get("/wifi.svg")
    def wifi_svg() -> Response:
        # The Wi-Fi card's QR code, which holds the password: only for a host TV page (this
        # laptop's own, or one with the host key), never cached, 404 while no network is set.
        key = request.args.get("key")
        if not (is_loopback(request.remote_addr)
                or (isinstance(key, str) and secrets.compare_digest(key, app.config["HOST_KEY"]))):
            abort(403)
        text = wifi_card.payload()
        if text is None:
            abort(404)
        return Response(qr.svg(text), mimetype="image/svg+xml",
                        headers={"Cache-Control": "no-store"})

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
            is_loopback(request.remote_addr)
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
        def handler(*args: Any) -> None:
            # One payload per event. Two or more (or none) are answered "malformed" by the engine,
            # in order, instead of a TypeError traceback in python-socketio.
            if len(args) == 1:
                engine.submit(request.sid, kind, args[0])
            else:
                engine.submit(request.sid, kind, None, {"arity": len(args)})
        handler.__name__ = f"on_{kind}"
        return handler

    for kind in MESSAGE_KINDS:
        socketio.on_event(kind, make_handler(kind))

    @socketio.on(SYNC_EVENT)
    def on_sync(*args: Any) -> None:
        answer = engine.clock_ping(request.sid, args[0] if len(args) == 1 else None)
        socketio.emit("synced", answer, to=request.sid)

    socketio.on_namespace(UnknownEvents("/", engine))

    return app, socketio, engine


def start_engine(socketio: SocketIO, engine: Engine) -> None:
    """Start the engine loop as the server's one background task (either async mode)."""
    socketio.start_background_task(engine.run_forever)


__all__ = ["create_app", "start_engine", "DEFAULT_PORT", "Candidate"]
