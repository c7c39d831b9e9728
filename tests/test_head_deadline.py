"""A request's head must arrive within HEAD_TIMEOUT in total (issue 26; partyhost/serving.py).

Before, each trickled header byte restarted the 10 s I/O timeout, so a client sending one byte
every half second kept its connection (and, from many addresses, the server's slots) forever.
Real server in both async modes, real sockets: a trickling head is closed at the deadline; a
head that comes in two parts a second apart, plain requests and a Socket.IO WebSocket still work.
"""

from __future__ import annotations

import select
import socket
import time
import urllib.request

import pytest

from partyhost import limits

pytestmark = pytest.mark.server

MODES = ["eventlet", "threading"]


def closed_by_peer(sock: socket.socket) -> bool:
    """True when the server has closed its end (EOF or a reset), without blocking."""
    readable, _, _ = select.select([sock], [], [], 0)
    if not readable:
        return False
    try:
        return sock.recv(4096) == b"" or True  # EOF, or an answer (408) before the close
    except ConnectionError:
        return True


def trickle(port: int, give_up: float) -> float | None:
    """Send an endless request head one byte per 0.5 s; seconds until the server closed the
    connection, or None if it was still open after ``give_up`` seconds."""
    head = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 1000
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        started = time.monotonic()
        for byte in head:
            if time.monotonic() - started > give_up:
                return None
            try:
                sock.sendall(bytes([byte]))
            except (BrokenPipeError, ConnectionResetError):
                return time.monotonic() - started
            deadline = time.monotonic() + 0.5
            while time.monotonic() < deadline:
                if closed_by_peer(sock):
                    return time.monotonic() - started
                time.sleep(0.02)
    return None


@pytest.mark.parametrize("mode", MODES)
def test_a_trickled_head_is_closed_at_the_deadline_and_normal_requests_still_work(server, sio_peer, mode):
    srv = server(mode=mode, seed=26)
    took = trickle(srv.port, give_up=limits.HEAD_TIMEOUT + 6)
    print(f"{mode}: trickled head closed after {took} s (deadline {limits.HEAD_TIMEOUT} s)")
    assert took is not None, f"a head trickled for {limits.HEAD_TIMEOUT + 6} s was still open"
    assert limits.HEAD_TIMEOUT - 0.6 <= took <= limits.HEAD_TIMEOUT + 1.5

    # a head in two parts a second apart is within the deadline and answered
    with socket.create_connection(("127.0.0.1", srv.port), timeout=5) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0")
        time.sleep(1.0)
        sock.sendall(b".1\r\nConnection: close\r\n\r\n")
        answer = b""
        while chunk := sock.recv(4096):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 200"), answer[:80]

    # plain requests, keep-alive included, and a Socket.IO WebSocket that acts
    with urllib.request.urlopen(srv.url + "/healthz", timeout=5) as resp:
        assert resp.status == 200
    tv = sio_peer(srv.url, {"role": "tv"}, "tv")
    phone = sio_peer(srv.url, {"role": "phone"}, "phone")
    phone.wait_state(lambda s: s["party"], "the first state")
    assert phone.send("join", {"name": "あき"})["ok"]
    tv.wait_state(lambda s: len(s["party"]["roster"]) == 1, "the seat on the TV")
    # the WebSocket outlives the head deadline (its own timeout governs it)
    time.sleep(limits.HEAD_TIMEOUT + 1)
    assert phone.send("lang", {"lang": "en"})["ok"]
