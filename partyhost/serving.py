"""The HTTP servers for both async modes, with TCP_NODELAY on every accepted connection.

Why: the engine often writes two small frames to one socket back to back (the ``result`` of an
action, then the new ``state``). With Nagle's algorithm on, the second frame waits for the
phone's delayed ACK, about 40 ms on every action (measured by ``make bench``: the acting phone
got its state after ~44 ms while every other screen had it in ~6 ms). Turning Nagle off on the
server's sockets sends each frame at once.

Only :func:`listen` and :func:`serve` import eventlet, and only in eventlet mode (the entry
point has patched first).
"""

from __future__ import annotations

import socket
from typing import Any

from werkzeug.serving import ThreadedWSGIServer


def nodelay(conn: Any) -> Any:
    """Turn Nagle's algorithm off on a TCP socket (a no-op for other sockets). Returns ``conn``."""
    try:
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    except (OSError, AttributeError):
        pass  # not TCP (a unix socket in a test), or the platform refuses: keep serving
    return conn


class NoDelayWSGIServer(ThreadedWSGIServer):
    """Werkzeug's threaded server (what Flask-SocketIO's threading mode runs) with
    TCP_NODELAY on each accepted connection."""

    def get_request(self):  # noqa: D102 - socketserver hook
        conn, addr = super().get_request()
        return nodelay(conn), addr


def listen(host: str, port: int, async_mode: str) -> Any:
    """Bind the listening socket now, before anything else starts, so a second host on the
    same port fails at once (and touches no saved party).

    Returns:
        An object for :func:`serve`: eventlet's listening socket, or the threading server.
    Raises:
        OSError: the port is taken (``EADDRINUSE``) or the address cannot be bound.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    if async_mode == "eventlet":
        from eventlet.greenio import GreenSocket

        class NoDelayListener(GreenSocket):
            def accept(self):
                conn, addr = super().accept()
                return nodelay(conn), addr

        listener = NoDelayListener(family, socket.SOCK_STREAM)
        # SO_REUSEADDR only (no SO_REUSEPORT): a restart may rebind at once, a second host
        # on the same port may not.
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((host, port))
        listener.listen(128)
        return listener
    return NoDelayWSGIServer(host, port, None)


def serve(app: Any, listener: Any, async_mode: str) -> None:
    """Serve ``app`` (the Flask app wrapped by Flask-SocketIO) on ``listener`` until interrupted.

    Args:
        app: the Flask application whose ``wsgi_app`` Flask-SocketIO has wrapped.
        listener: what :func:`listen` returned for the same ``async_mode``.
        async_mode: ``"eventlet"`` or ``"threading"``.
    """
    if async_mode == "eventlet":
        import eventlet.wsgi

        eventlet.wsgi.server(listener, app, log_output=False)
    else:
        listener.app = app
        listener.serve_forever()
