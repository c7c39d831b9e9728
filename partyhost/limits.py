"""Connection limits that protect the table: the numbers, a token bucket per socket, and a count
of open connections per client address.

Every device on the party Wi-Fi is untrusted. These limits keep one guest (or one broken phone)
from taking the host away from everyone else, while a phone used at human speed never meets
them. The HTTP servers (:mod:`partyhost.serving`) apply the connection limits; the transport
(:mod:`partyhost.server`) applies the rate limit where Engine.IO hands a message to Socket.IO,
before it is decoded and long before the engine queue, and drops a socket that does not read.
Nothing here reads game state.

Both classes are safe to call from any thread (threading mode) or green thread (eventlet):
their critical sections are short and never block.
"""

from __future__ import annotations

import ipaddress
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

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

HEAD_TIMEOUT = 5.0
"""Seconds a request's head (request line and headers, up to the blank line) may take in total,
from its first byte. A browser sends a head in one or two packets, well under a second even
over a poor Wi-Fi with retransmissions; a client that trickles one byte at a time (each byte
restarting :data:`IO_TIMEOUT`) no longer keeps its slot for as long as it likes: at the
deadline the connection is closed."""

WEBSOCKET_TIMEOUT = 35.0
"""Seconds a WebSocket may receive nothing before the server gives up on it. Engine.IO pings
every ``PING_INTERVAL`` (2 s) and waits ``PING_TIMEOUT`` (4 s) for the answer, so a live phone
sends something at least every 2 s and Engine.IO itself drops a silent one after 6 s; 35 s
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

# ----- Socket.IO messages ----------------------------------------------------------------------

RATE_PER_SECOND = 10.0
"""Messages per second one socket may send, sustained (the token bucket's refill rate). A finger
taps at most about 7 times a second, and no game needs more than a few actions a second from one
phone (Diabolo's dealer taps are at least 300 ms apart; a typed word is one message)."""

RATE_BURST = 30
"""Messages one socket may send at once (the token bucket's size): 20 quick taps, or the
messages a phone resends after a reconnect, pass untouched; a flood passes 30 and then
:data:`RATE_PER_SECOND`."""

RATE_NOTICE_INTERVAL = 1.0
"""Seconds between two ``rate_limited`` answers to one socket: a flood is told once a second that
it is being dropped, so answering it costs the server next to nothing."""

MAX_UNSENT_PACKETS = 128
"""Engine.IO packets that may wait in one socket's outgoing queue before the socket is dropped as
a client that does not read. On a WebSocket the queue only grows once the kernel's send buffer
(:data:`SEND_BUFFER_BYTES`) is full; a long-polling client has no such buffer and collects its
packets between two polls. A phone that reads gets a few packets per engine batch (a
``result``, a ``state``, a ping) and takes them within a round trip; even a burst of 30 actions
answered in one batch is 31 packets, and 128 is several seconds of the busiest game for a phone
whose Wi-Fi hiccups. A state is a few KB (the TV's largest about 10 KB), so one stuck socket
holds at most about 1 MB before it is dropped (and Engine.IO drops a client silent for 30 s
anyway)."""


# ----- token bucket ----------------------------------------------------------------------------


@dataclass
class TokenBucket:
    """A token bucket: up to ``capacity`` tokens, refilled at ``rate`` tokens per second.

    ``take(now)`` spends one token if there is one. ``now`` is seconds on a monotonic clock and
    must not go backwards (a smaller value refills nothing).

    >>> b = TokenBucket(rate=1.0, capacity=2, tokens=2, stamp=0.0)
    >>> [b.take(0.0), b.take(0.0), b.take(0.0), b.take(1.0)]
    [True, True, False, True]
    """

    rate: float
    capacity: float
    tokens: float
    stamp: float

    def take(self, now: float) -> bool:
        """Spend one token at time ``now`` (seconds). Returns False (and spends nothing) when
        the bucket is empty."""
        if now > self.stamp:
            self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
            self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


PASS = "pass"
"""Verdict of :meth:`RateLimiter.admit`: hand the message on."""
DROP = "drop"
"""Verdict of :meth:`RateLimiter.admit`: drop the message silently."""
DROP_AND_NOTIFY = "notify"
"""Verdict of :meth:`RateLimiter.admit`: drop the message and answer ``rate_limited``."""


@dataclass
class _SocketBudget:
    bucket: TokenBucket
    next_notice: float = float("-inf")
    dropped: int = field(default=0)


class RateLimiter:
    """One token bucket per socket, and a throttle on the ``rate_limited`` answers.

    Args:
        rate: tokens per second (messages per second, sustained); ``<= 0`` admits everything.
        burst: bucket size (messages at once).
        notice_interval: seconds between two :data:`DROP_AND_NOTIFY` verdicts for one socket.
        clock: monotonic seconds (``time.monotonic``); tests pass a fake.
    """

    def __init__(self, rate: float = RATE_PER_SECOND, burst: int = RATE_BURST,
                 notice_interval: float = RATE_NOTICE_INTERVAL,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = float(rate)
        self.burst = float(burst)
        self.notice_interval = float(notice_interval)
        self.clock = clock
        self._sockets: dict[str, _SocketBudget] = {}
        self._lock = threading.Lock()

    def admit(self, sid: str) -> str:
        """Count one message from socket ``sid``; return :data:`PASS`, :data:`DROP` or
        :data:`DROP_AND_NOTIFY`. An unknown ``sid`` starts with a full bucket."""
        if self.rate <= 0:
            return PASS
        now = self.clock()
        with self._lock:
            budget = self._sockets.get(sid)
            if budget is None:
                budget = self._sockets[sid] = _SocketBudget(
                    TokenBucket(self.rate, self.burst, self.burst, now))
            if budget.bucket.take(now):
                return PASS
            budget.dropped += 1
            if now >= budget.next_notice:
                budget.next_notice = now + self.notice_interval
                return DROP_AND_NOTIFY
            return DROP

    def dropped(self, sid: str) -> int:
        """How many messages of ``sid`` were dropped so far (0 for an unknown socket)."""
        with self._lock:
            budget = self._sockets.get(sid)
            return budget.dropped if budget else 0

    def forget(self, sid: str) -> None:
        """Drop the bucket of a socket that has gone (a no-op for an unknown one)."""
        with self._lock:
            self._sockets.pop(sid, None)


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
