"""Who is the laptop, and which names may reach it: loopback detection and the ``Host`` check.

DNS rebinding (issue 10): a web page at ``http://evil.example:8765`` whose name is made to
resolve to 127.0.0.1, opened in the laptop's own browser, would talk to partyhost as the
laptop's loopback TV, with host powers. Browsers always send the name they resolved in the
``Host`` header, so every HTTP request and every Socket.IO handshake (long-polling and WebSocket
alike) whose ``Host`` is not one of this machine's own names or addresses is refused here,
before Flask or Socket.IO see it.

Allowed ``Host`` values (the port is not checked: the listening socket already decided it):

* an IP literal that is loopback (``127.0.0.0/8``, ``::1``, ``::ffff:127.0.0.1``) or one of this
  machine's addresses (every adapter, re-listed at most every :data:`REFRESH_SECONDS` when an
  unknown address is asked for, so a laptop that changed Wi-Fi keeps working);
* ``localhost``, the machine's host name and ``<host name>.local`` (mDNS);
* names given with ``--allow-host`` (a router's DNS name for the laptop, a test's LAN name).
"""

from __future__ import annotations

import ipaddress
import logging
import socket
import time
from typing import Any, Callable, Iterable
from urllib.parse import urlsplit

from .netaddr import list_interfaces
from .serving import CLOSE_KEY

log = logging.getLogger("partyhost.hostguard")

REFRESH_SECONDS = 10.0
"""Least time between two listings of this machine's addresses when a request names an unknown
IP address (listing adapters costs about a millisecond; a flood of bad Hosts must not repeat it)."""

REFUSAL = ("このアドレスではパーティーに入れません。QRコードのアドレスを使ってください。\n"
           "This address does not reach the party: use the one in the QR code.\n").encode()
"""Body of the 403 answer to a request with a foreign ``Host``."""


def is_loopback(addr: str | None) -> bool:
    """True for a loopback peer address, IPv4-mapped IPv6 included.

    Args:
        addr: ``REMOTE_ADDR`` as the server gives it: ``"127.0.0.1"``, ``"::1"``,
            ``"::ffff:127.0.0.1"`` (an IPv4 peer of a server bound to ``::``), maybe with a
            ``%zone``. None or unparsable text is not loopback.
    """
    if not addr:
        return False
    try:
        ip = ipaddress.ip_address(addr.split("%")[0].strip("[]"))
    except ValueError:
        return False
    mapped = getattr(ip, "ipv4_mapped", None)
    return ip.is_loopback or (mapped is not None and mapped.is_loopback)


def host_name_of(header: str | None) -> str | None:
    """The host part of a ``Host`` header, lowercased, without port, brackets or a trailing dot;
    None when the header is missing or not a valid ``host[:port]``."""
    if not header or len(header) > 300 or any(c in header for c in "/?#@\\ \t"):
        return None
    try:
        parts = urlsplit("//" + header)
        name = parts.hostname
        parts.port  # noqa: B018 - raises ValueError on a bad port
    except ValueError:
        return None
    if not name:
        return None
    return name.rstrip(".")


def _ip(name: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(name.split("%")[0])
    except ValueError:
        return None


class HostGuard:
    """Decides whether a ``Host`` header names this machine (see the module docstring).

    Args:
        extra_names: names allowed besides the machine's own (``--allow-host``), any case.
        extra_addresses: addresses known to be this machine's (the join candidates,
            ``--host-ip``, the ``--bind`` address).
        list_addresses: returns this machine's addresses now (default: every adapter's, via
            :func:`partyhost.netaddr.list_interfaces`); tests pass their own.
        clock: monotonic seconds, for :data:`REFRESH_SECONDS`.
    """

    def __init__(
        self,
        extra_names: Iterable[str] = (),
        extra_addresses: Iterable[str] = (),
        list_addresses: Callable[[], Iterable[str]] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        hostname = socket.gethostname().lower().rstrip(".")
        self.names = {"localhost", hostname, f"{hostname}.local"} | {
            n.lower().rstrip(".") for n in extra_names if n}
        self._fixed = {ip for ip in (_ip(a) for a in extra_addresses) if ip is not None}
        self._list = list_addresses or (lambda: [i.address for i in list_interfaces()])
        self._clock = clock
        self._known: set = set()
        self._listed_at = float("-inf")
        self._refresh()

    def _refresh(self) -> None:
        self._listed_at = self._clock()
        try:
            listed = {ip for ip in (_ip(a) for a in self._list()) if ip is not None}
        except OSError:
            listed = set()
        self._known = self._fixed | listed

    def allows(self, header: str | None) -> bool:
        """True when ``header`` (the raw ``Host`` value, maybe None) names this machine."""
        name = host_name_of(header)
        if name is None:
            return False
        ip = _ip(name)
        if ip is None:
            return name in self.names
        if is_loopback(str(ip)):
            return True
        mapped = getattr(ip, "ipv4_mapped", None)
        if ip in self._known or (mapped is not None and mapped in self._known):
            return True
        if self._clock() - self._listed_at >= REFRESH_SECONDS:
            self._refresh()
            return ip in self._known
        return False

    def wrap(self, wsgi_app: Callable) -> Callable:
        """A WSGI app that answers 403 (with :data:`REFUSAL`) to a foreign ``Host`` and passes
        everything else to ``wsgi_app``. Logs one line per refused name, not per request."""
        refused_names: set[str] = set()

        def guarded(environ: dict, start_response: Callable) -> Any:
            header = environ.get("HTTP_HOST")
            if self.allows(header):
                return wsgi_app(environ, start_response)
            shown = str(header)[:80]
            if shown not in refused_names and len(refused_names) < 100:
                refused_names.add(shown)
                log.warning("refused a request for Host %r from %s (not this machine's name; "
                            "--allow-host NAME allows one)", shown, environ.get("REMOTE_ADDR"))
            start_response("403 Forbidden", [("Content-Type", "text/plain; charset=utf-8"),
                                             ("Content-Length", str(len(REFUSAL))),
                                             ("Connection", "close")])
            close = environ.get(CLOSE_KEY)  # the server closes the connection, not only says so
            if callable(close):
                close()
            return [REFUSAL]

        return guarded
