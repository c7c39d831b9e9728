"""Connection limits that protect the table: the numbers, and a count of open connections per
client address.

Every device on the party Wi-Fi is untrusted. These limits keep one guest (or one broken phone)
from taking the host away from everyone else, while a phone used at human speed never meets
them. The HTTP servers (:mod:`partyhost.serving`) apply them. Nothing here reads game state.

:class:`AddressCap` is safe to call from any thread (threading mode) or green thread (eventlet):
its critical sections are short and never block.
"""

from __future__ import annotations

import ipaddress
import threading
from collections import Counter

# ----- HTTP and TCP ------------------------------------------------------------------------------

MAX_HTTP_BODY_BYTES = 64 * 1024
"""Largest HTTP request body accepted, in bytes (also Engine.IO's ``max_http_buffer_size``, which
the Socket.IO client reads from the handshake and respects). A long-polling POST carries a few
messages of at most 4 KB each (``engine.MAX_MESSAGE_BYTES``); 64 KB leaves room for a batch of
them. A bigger declared body is answered 413 without being read, and the connection is closed."""

IDLE_TIMEOUT = 5.0
"""Seconds a connection may wait before sending a request line: a new connection that never
speaks, or a keep-alive connection between two requests. Then it is closed. Apache's default
``KeepAliveTimeout`` is the same 5 s. A browser treats a closed idle connection as normal and
opens a new one; a live Socket.IO phone is not idle (a long-poll is always pending, or it has
upgraded to a WebSocket, which :data:`WEBSOCKET_TIMEOUT` governs)."""

IO_TIMEOUT = 10.0
"""Seconds any single read or write inside an HTTP request may make no progress (headers, body,
response). A body that never arrives is answered 408 after this long and the connection closed.
Long enough for a phone's Wi-Fi retransmissions (a lost packet is retried within about a
second, several times), short enough that a stalled request frees its slot soon."""

WEBSOCKET_TIMEOUT = 35.0
"""Seconds a WebSocket may receive nothing before the server gives up on it. Engine.IO pings
every ``PING_INTERVAL`` (10 s) and waits ``PING_TIMEOUT`` (20 s) for the answer, so a live phone
sends something at least every 10 s and Engine.IO itself drops a silent one after 30 s; 35 s
is above both, so this timeout never cuts a phone that Engine.IO would keep. (In eventlet mode
Engine.IO sets its own 30 s on the socket; this value matters in threading mode.)"""

SEND_BUFFER_BYTES = 256 * 1024
"""The kernel send buffer of each accepted TCP connection, in bytes (Linux doubles it for its
own bookkeeping). Left alone, Linux grows it up to 4 MB per connection, which a client that never
reads can fill with old states. 256 KB still sends a 1 MB page at 50 MB/s on a 5 ms Wi-Fi round
trip, far above what the party's pages need."""

MAX_CONNECTIONS_PER_ADDRESS = 32
"""Open TCP connections allowed at once from one client address; the next one is closed as soon
as it is accepted. A browser opens at most 6 HTTP/1.1 connections per host, shared by its tabs,
plus one WebSocket per tab: a phone with two tabs needs 8, and a TV page (or a second device)
behind the same address another 7. Twice that, 32, covers the connections the server still
counts after a Wi-Fi drop (a dead WebSocket stays open until Engine.IO's 30 s ping timeout)
while the phone reconnects. With eventlet's pool of 1024 connections, one address can hold at
most 1/32 of it."""

UNLIMITED_ADDRESSES = frozenset({"127.0.0.1", "::1"})
"""Addresses the per-address cap does not apply to: this laptop itself (its TV page, and the
test suite and benchmarks, which run many simulated devices from here). No packet from the
Wi-Fi can carry a loopback source address (the kernel drops it), so no guest can use this. Other
loopback addresses (127.0.0.2 …) are capped, so tests can play other devices from them."""

# ----- open connections per address ------------------------------------------------------------


def address_key(address: object) -> str:
    """The key a client address is counted under: the IP address as text, an IPv4-mapped IPv6
    address as its IPv4 form (``::ffff:10.0.0.5`` → ``10.0.0.5``), without a zone
    (``fe80::1%wlan0`` → ``fe80::1``). ``address`` is a socket address tuple or a string;
    anything unparsable is counted under its own text."""
    host = address[0] if isinstance(address, tuple) and address else address
    text = str(host).split("%", 1)[0]
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        return text
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return str(ip)


class AddressCap:
    """Counts open connections per client address and refuses those over a cap.

    Args:
        cap: connections allowed at once per address (``<= 0``: no cap).
        unlimited: address keys (see :func:`address_key`) that are never capped.
    """

    def __init__(self, cap: int = MAX_CONNECTIONS_PER_ADDRESS,
                 unlimited: frozenset[str] = UNLIMITED_ADDRESSES) -> None:
        self.cap = int(cap)
        self.unlimited = frozenset(unlimited)
        self._open: Counter[str] = Counter()
        self._lock = threading.Lock()

    def acquire(self, address: object) -> str | None:
        """Count a new connection from ``address``. Returns the key to :meth:`release` later,
        or None when the address is at its cap (nothing was counted: close the connection)."""
        key = address_key(address)
        with self._lock:
            if self.cap > 0 and key not in self.unlimited and self._open[key] >= self.cap:
                return None
            self._open[key] += 1
        return key

    def release(self, key: str) -> None:
        """Uncount one connection that :meth:`acquire` counted under ``key``."""
        with self._lock:
            self._open[key] -= 1
            if self._open[key] <= 0:
                del self._open[key]

    def open_count(self, address: object) -> int:
        """Connections counted now for ``address``."""
        with self._lock:
            return self._open.get(address_key(address), 0)
