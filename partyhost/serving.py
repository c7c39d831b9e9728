"""The HTTP servers for both async modes, and the limits every connection lives under.

Why TCP_NODELAY: the engine often writes two small frames to one socket back to back (the
``result`` of an action, then the new ``state``). With Nagle's algorithm on, the second frame
waits for the phone's delayed ACK, about 40 ms on every action (measured by ``make bench``: the
acting phone got its state after ~44 ms while every other screen had it in ~6 ms). Turning Nagle
off on the server's sockets sends each frame at once.

Connection limits (numbers in :mod:`partyhost.limits`), the same in both modes:

* at most :data:`~partyhost.limits.MAX_CONNECTIONS_PER_ADDRESS` open connections per client
  address; the next one is closed as soon as it is accepted, and the count goes down when a
  connection closes;
* a connection that sends no request line for :data:`~partyhost.limits.IDLE_TIMEOUT` seconds
  (new or between keep-alive requests) is closed; any read or write inside a request that makes
  no progress for :data:`~partyhost.limits.IO_TIMEOUT` seconds ends it;
* a request's head (request line and headers) must be complete within
  :data:`~partyhost.limits.HEAD_TIMEOUT` seconds of its first byte, however steadily it
  trickles in (:class:`HeadClock`), or the connection is closed;
* a small kernel send buffer (:data:`~partyhost.limits.SEND_BUFFER_BYTES`), so a client that
  never reads cannot park megabytes in the kernel;
* :class:`RequestGuard` answers a request whose body is too big, malformed or never arrives
  (413/400/411/408) without reading it and closes that connection at once, and turns an
  unexpected error into a plain 500 page (no traceback, no install path: eventlet's own
  ``debug`` pages are off too).

Each server puts two keys into every request's WSGI environ: :data:`SOCKET_KEY` (the accepted
TCP socket) and :data:`CLOSE_KEY` (call it to close the connection after this response instead
of reading the rest of the request).

Only :func:`listen` and :func:`serve` import eventlet, and only in eventlet mode (the entry
point has patched first).
"""

from __future__ import annotations

import io
import logging
import socket
import sys
import time
from typing import Any, Callable, Iterable

from werkzeug.serving import ThreadedWSGIServer, WSGIRequestHandler

from .limits import (HEAD_TIMEOUT, IDLE_TIMEOUT, IO_TIMEOUT, MAX_HTTP_BODY_BYTES, SEND_BUFFER_BYTES,
                     WEBSOCKET_TIMEOUT, AddressCap)

log = logging.getLogger("partyhost.serving")

SOCKET_KEY = "partyhost.socket"
"""WSGI environ key: the accepted TCP socket that carries this request."""

CLOSE_KEY = "partyhost.close_connection"
"""WSGI environ key: a callable with no arguments; after it is called the server closes the
connection once this response is written, without reading what is left of the request."""

REFUSED_READ_TIMEOUT = 0.1
"""Seconds the threading server (werkzeug) still waits for more request bytes after a refused
request: werkzeug reads and discards what a client keeps sending before it closes, and this
makes it stop as soon as the client pauses."""

STATUS_TEXT = {
    400: "400 Bad Request",
    408: "408 Request Timeout",
    411: "411 Length Required",
    413: "413 Content Too Large",
    500: "500 Internal Server Error",
}
"""HTTP status lines of the plain-text answers :class:`RequestGuard` gives."""


def nodelay(conn: Any) -> Any:
    """Turn Nagle's algorithm off on a TCP socket (a no-op for other sockets). Returns ``conn``."""
    try:
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    except (OSError, AttributeError):
        pass  # not TCP (a unix socket in a test), or the platform refuses: keep serving
    return conn


def tune(conn: Any) -> Any:
    """Prepare an accepted TCP socket: :func:`nodelay` and a send buffer of
    :data:`~partyhost.limits.SEND_BUFFER_BYTES`. Returns ``conn``."""
    nodelay(conn)
    try:
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER_BYTES)
    except (OSError, AttributeError):
        pass
    return conn


class HeadClock(io.RawIOBase):
    """The raw reader under a connection's ``rfile`` that holds a request's head to a total
    deadline (both async modes).

    Between :meth:`start_head` (the server is about to read a request line) and :meth:`end_head`
    (the headers are parsed) the first byte that arrives starts the clock; each later read waits
    at most what is left of ``head_timeout`` (and never more than ``io_timeout``), and a read
    after the deadline raises :class:`TimeoutError`, which both servers answer by closing the
    connection. Before the first byte the server's own idle timeout applies; outside the head
    the socket's timeout is left as the server set it (I/O, WebSocket).

    Args:
        sock: the accepted socket (a green socket in eventlet mode); its timeout is set here.
        inner: the raw reader the server made for it (``sock.makefile``'s, which keeps the socket
            open while the server still reads); the bytes come from it, and closing this closes it.
        head_timeout: seconds for the whole head, from its first byte.
        io_timeout: the socket's timeout once the head is in.
        clock: a monotonic clock in seconds (``time.monotonic``).
    """

    def __init__(self, sock: Any, inner: Any, head_timeout: float = HEAD_TIMEOUT,
                 io_timeout: float = IO_TIMEOUT, clock: Callable[[], float] | None = None) -> None:
        super().__init__()
        self.sock = sock
        self.inner = inner
        self.head_timeout = float(head_timeout)
        self.io_timeout = float(io_timeout)
        self.clock = clock or time.monotonic
        self.in_head = False
        self.deadline: float | None = None

    def readable(self) -> bool:  # noqa: D102 - io hook
        return True

    def close(self) -> None:  # noqa: D102 - io hook
        try:
            self.inner.close()
        finally:
            super().close()

    def start_head(self) -> None:
        """A new request's head is about to be read; its clock starts at its first byte."""
        self.in_head = True
        self.deadline = None

    def end_head(self) -> None:
        """The head is in: reads get the plain I/O timeout again."""
        if self.in_head and self.deadline is not None:
            try:
                self.sock.settimeout(self.io_timeout)
            except OSError:
                pass
        self.in_head = False
        self.deadline = None

    def readinto(self, buffer: Any) -> int:  # noqa: D102 - io hook
        if self.in_head and self.deadline is not None:
            left = self.deadline - self.clock()
            if left <= 0:
                raise TimeoutError("the request head did not arrive in time")
            self.sock.settimeout(min(left, self.io_timeout))
        count = self.inner.readinto(buffer)
        if self.in_head and self.deadline is None and count:
            self.deadline = self.clock() + self.head_timeout
        return count


def _clock_rfile(handler: Any) -> HeadClock:
    """Put a :class:`HeadClock` under ``handler.rfile`` (after the server's own ``setup``)."""
    made = handler.rfile
    try:
        raw = made.detach()  # the buffer goes (ours replaces it) without closing the raw reader
    except (AttributeError, ValueError, io.UnsupportedOperation):
        raw = made
    clock = HeadClock(handler.connection, raw)
    handler.rfile = io.BufferedReader(clock, io.DEFAULT_BUFFER_SIZE)
    return clock


def _is_websocket(environ: dict) -> bool:
    return environ.get("HTTP_UPGRADE", "").lower() == "websocket"


class RequestGuard:
    """WSGI middleware in front of the whole application (Flask and Engine.IO).

    * A request body must come with a ``Content-Length`` of at most ``max_body`` bytes
      (``Transfer-Encoding`` is refused): otherwise the answer is 411 (no length), 400 (not a
      number) or 413 (too big), the body is not read and the connection is closed.
    * An accepted body is read here, before the application sees it; if it does not arrive
      within the server's I/O timeout the answer is 408 and the connection is closed. (Engine.IO
      would answer such a request "ok" after a long wait, and keep the connection.)
    * A WebSocket request gets :data:`~partyhost.limits.WEBSOCKET_TIMEOUT` on its socket.
    * An exception from the application is logged and answered with a plain
      ``500 Internal Server Error`` that names no file, line or path. (An ``OSError`` is the
      connection's business and goes on to the server, which closes the connection.)

    Args:
        app: the WSGI application to guard.
        max_body: the largest body accepted, in bytes.
    """

    def __init__(self, app: Callable, max_body: int = MAX_HTTP_BODY_BYTES) -> None:
        self.app = app
        self.max_body = int(max_body)

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        try:
            refusal = self._read_body(environ)
            if refusal is not None:
                return self._answer(environ, start_response, *refusal)
            if _is_websocket(environ):
                raw = environ.get(SOCKET_KEY)
                if raw is not None:
                    raw.settimeout(WEBSOCKET_TIMEOUT)
            return self.app(environ, start_response)
        except OSError:
            # The connection's own end (werkzeug's WebSocket ends by raising ConnectionError,
            # a client that went away, a timeout): the server handles these, not a 500 page.
            raise
        except Exception:
            log.exception("request %s %s failed", environ.get("REQUEST_METHOD"),
                          environ.get("PATH_INFO"))
            return self._answer(environ, start_response, 500, "internal server error",
                                error=True)

    def _read_body(self, environ: dict) -> tuple[int, str] | None:
        """Check the declared body and read it into memory. Returns ``(status, text)`` for a
        refusal, or None when the request may go on (its body, if any, is now in memory)."""
        if environ.get("HTTP_TRANSFER_ENCODING"):
            return 411, "send a Content-Length, not a Transfer-Encoding"
        declared = (environ.get("CONTENT_LENGTH") or "").strip()
        if not declared:
            if environ.get("REQUEST_METHOD") in ("POST", "PUT", "PATCH"):
                return 411, "a body needs a Content-Length"
            return None
        if not (declared.isascii() and declared.isdigit()):
            return 400, "the Content-Length is not a number"
        length = int(declared)
        if length > self.max_body:
            return 413, f"the body is larger than {self.max_body} bytes"
        if length == 0:
            return None
        stream = environ["wsgi.input"]
        chunks: list[bytes] = []
        left = length
        try:
            while left > 0:
                chunk = stream.read(left)
                if not chunk:
                    return 400, "the body ended before its Content-Length"
                chunks.append(chunk)
                left -= len(chunk)
        except TimeoutError:
            return 408, "the body did not arrive in time"
        except OSError:
            return 400, "the connection failed while the body was read"
        environ["wsgi.input"] = io.BytesIO(b"".join(chunks))
        return None

    def _answer(self, environ: dict, start_response: Callable, status: int, text: str,
                error: bool = False) -> list[bytes]:
        close = environ.get(CLOSE_KEY)
        if close is not None:
            close()
        body = (text + "\n").encode()
        headers = [("Content-Type", "text/plain; charset=utf-8"),
                   ("Content-Length", str(len(body))), ("Cache-Control", "no-store")]
        start_response(STATUS_TEXT[status], headers, sys.exc_info() if error else None)
        return [body]


# ----- threading mode (werkzeug) -----------------------------------------------------------------


class GuardedRequestHandler(WSGIRequestHandler):
    """Werkzeug's request handler with the idle and I/O timeouts and the environ keys.

    ``timeout`` (socketserver applies it when the connection starts) is the idle timeout for the
    request line; once the request line is in, reads and writes get the I/O timeout.
    """

    timeout = IDLE_TIMEOUT

    def setup(self) -> None:  # noqa: D102 - socketserver hook
        super().setup()
        self.head_clock = _clock_rfile(self)

    def handle_one_request(self) -> None:  # noqa: D102 - http.server hook
        self.head_clock.start_head()
        super().handle_one_request()

    def parse_request(self) -> bool:  # noqa: D102 - http.server hook, after the request line
        self.connection.settimeout(IO_TIMEOUT)
        try:
            return super().parse_request()
        finally:
            self.head_clock.end_head()

    def make_environ(self) -> dict:  # noqa: D102 - werkzeug hook
        environ = super().make_environ()
        environ[SOCKET_KEY] = self.connection
        environ[CLOSE_KEY] = self._close_after_response
        return environ

    def _close_after_response(self) -> None:
        # Werkzeug closes every connection after its response, but first reads and discards
        # whatever the client still sends: stop that as soon as the client pauses.
        self.close_connection = True
        try:
            self.connection.settimeout(REFUSED_READ_TIMEOUT)
        except OSError:
            pass

    def log_error(self, format: str, *args: Any) -> None:  # noqa: A002 - http.server's name
        if format.startswith("Request timed out"):
            return  # an idle connection closed on purpose: not an error worth a log line
        super().log_error(format, *args)


SO_EXCLUSIVEADDRUSE = getattr(socket, "SO_EXCLUSIVEADDRUSE", ~4)
"""Windows' option that keeps any other socket off our port (``~SO_REUSEADDR``, -5)."""


def address_options(platform: str | None = None) -> list[tuple[int, int, int]]:
    """The ``setsockopt`` calls for a listening socket, as ``(level, option, value)``.

    Linux and macOS: ``SO_REUSEADDR`` (no ``SO_REUSEPORT``): a restart may rebind at once while
    old connections linger, a second host on the same port may not. Windows: ``SO_REUSEADDR``
    there lets a second program bind a port that is listened on (two hosts would split the
    phones between them), so ``SO_EXCLUSIVEADDRUSE`` instead; a restart rebinds at once without it.

    Args:
        platform: a ``sys.platform`` value; None means this one.
    """
    platform = sys.platform if platform is None else platform
    if platform.startswith("win"):
        return [(socket.SOL_SOCKET, SO_EXCLUSIVEADDRUSE, 1)]
    return [(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)]


def _set_address_options(sock: Any) -> None:
    for level, option, value in address_options():
        sock.setsockopt(level, option, value)


class _BindFailed(Exception):
    """Carries a bind error past werkzeug, which prints an ``OSError`` from binding and calls
    ``sys.exit(1)``: the host says what to do itself (:func:`partyhost.cli.listen_failure`)."""

    def __init__(self, error: OSError) -> None:
        super().__init__(str(error))
        self.error = error


class NoDelayWSGIServer(ThreadedWSGIServer):
    """Werkzeug's threaded server (what Flask-SocketIO's threading mode runs) with
    TCP_NODELAY and a small send buffer on each accepted connection, the per-address cap
    (``cap``, an :class:`~partyhost.limits.AddressCap`; a fresh default one when None) and
    :class:`GuardedRequestHandler`'s timeouts.

    Raises:
        OSError: the address cannot be bound or listened on (as in eventlet mode; werkzeug's
            own handling would print the error and exit).
    """

    def __init__(self, host: str, port: int, app: Any, cap: AddressCap | None = None) -> None:
        try:
            super().__init__(host, port, app, handler=GuardedRequestHandler)
        except _BindFailed as failed:
            self.server_close()
            raise failed.error from None
        self.cap = cap if cap is not None else AddressCap()
        self._counted: dict[Any, str] = {}

    allow_reuse_address = False  # set by server_bind, per system (address_options)

    def server_bind(self) -> None:  # noqa: D102 - socketserver hook
        try:
            _set_address_options(self.socket)
            super().server_bind()
        except OSError as error:
            raise _BindFailed(error) from None

    def server_activate(self) -> None:  # noqa: D102 - socketserver hook
        try:
            super().server_activate()
        except OSError as error:
            raise _BindFailed(error) from None

    def get_request(self):  # noqa: D102 - socketserver hook
        conn, addr = super().get_request()
        return tune(conn), addr

    def verify_request(self, request: Any, client_address: Any) -> bool:
        """Count the connection for its address; False (socketserver closes it) over the cap."""
        key = self.cap.acquire(client_address)
        if key is None:
            return False
        self._counted[request] = key
        return True

    def shutdown_request(self, request: Any) -> None:
        """Close the connection and uncount it."""
        key = self._counted.pop(request, None)
        try:
            super().shutdown_request(request)
        finally:
            if key is not None:
                self.cap.release(key)


# ----- both modes ------------------------------------------------------------------------------


def listen(host: str, port: int, async_mode: str, cap: AddressCap | None = None) -> Any:
    """Bind the listening socket now, before anything else starts, so a second host on the
    same port fails at once (and touches no saved party).

    Args:
        host, port: the address to listen on.
        async_mode: ``"eventlet"`` or ``"threading"``.
        cap: the per-address connection cap; None makes a default
            :class:`~partyhost.limits.AddressCap`.
    Returns:
        An object for :func:`serve`: eventlet's listening socket, or the threading server.
    Raises:
        OSError: the port is taken (``EADDRINUSE``) or the address cannot be bound.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    cap = cap if cap is not None else AddressCap()
    if async_mode == "eventlet":
        from eventlet import sleep as green_sleep
        from eventlet.greenio import GreenSocket

        class GuardedListener(GreenSocket):
            """The listening socket: accepted connections are tuned and counted; one over
            the cap is closed at once and the next is accepted."""

            def accept(self):
                while True:
                    conn, addr = super().accept()
                    key = cap.acquire(addr)
                    if key is not None:
                        break
                    conn.close()
                    # accept() does not wait while connections are queued: let the rest of
                    # the server run between two refusals of a connection flood.
                    green_sleep(0)
                # eventlet's server closes every connection it served with close(): that is
                # where the count goes down (once, however often close is called).
                original_close = conn.close

                def close() -> None:
                    nonlocal key
                    if key is not None:
                        counted, key = key, None
                        cap.release(counted)
                    original_close()

                conn.close = close
                return tune(conn), addr

        listener = GuardedListener(family, socket.SOCK_STREAM)
        # SO_REUSEADDR only (no SO_REUSEPORT; SO_EXCLUSIVEADDRUSE on Windows): a restart may
        # rebind at once, a second host on the same port may not.
        _set_address_options(listener)
        listener.bind((host, port))
        listener.listen(128)
        return listener
    return NoDelayWSGIServer(host, port, None, cap)


def _eventlet_protocol() -> type:
    import eventlet.wsgi

    class GuardedProtocol(eventlet.wsgi.HttpProtocol):
        """eventlet's HTTP protocol with the environ keys of :mod:`partyhost.serving` and the
        request head's total deadline (:class:`HeadClock`)."""

        def setup(self) -> None:  # noqa: D102 - eventlet hook
            super().setup()
            self.head_clock = _clock_rfile(self)

        def handle_one_request(self) -> None:  # noqa: D102 - eventlet hook
            self.head_clock.start_head()
            super().handle_one_request()

        def parse_request(self) -> bool:  # noqa: D102 - http.server hook, after the request line
            try:
                return super().parse_request()
            finally:
                self.head_clock.end_head()

        def get_environ(self):  # noqa: D102 - eventlet hook
            environ = super().get_environ()
            environ[SOCKET_KEY] = self.connection
            environ[CLOSE_KEY] = self._close_after_response
            return environ

        def _close_after_response(self) -> None:
            # Before the response is written: eventlet then says "Connection: close" and does
            # not read (and discard) the rest of the request body, which may never come.
            self.close_connection = 1

    return GuardedProtocol


def serve(app: Any, listener: Any, async_mode: str) -> None:
    """Serve ``app`` (the Flask app wrapped by Flask-SocketIO) on ``listener`` until interrupted.

    Args:
        app: the Flask application whose ``wsgi_app`` Flask-SocketIO has wrapped.
        listener: what :func:`listen` returned for the same ``async_mode``.
        async_mode: ``"eventlet"`` or ``"threading"``.
    """
    if async_mode == "eventlet":
        import eventlet.wsgi

        eventlet.wsgi.server(
            listener, app,
            log_output=False,
            debug=False,  # True (eventlet's default) puts tracebacks in 500 pages
            keepalive=IDLE_TIMEOUT,  # numeric: the timeout for each request line
            socket_timeout=IO_TIMEOUT,
            protocol=_eventlet_protocol(),
        )
    else:
        listener.app = app
        listener.serve_forever()
