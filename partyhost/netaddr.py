"""Pick the LAN address that goes into the join QR code.

The server binds to ``0.0.0.0``; phones need one concrete, numeric address of this
laptop that they can reach. Two sources are combined (see research notes, section 7):

* :func:`default_route_addresses` -- the UDP ``connect()`` + ``getsockname()`` trick.
  It asks the OS which source address it would use for the default route. No packet
  is sent. It fails (empty set) on a network without a default route, e.g. a
  phone hotspot or a travel router with no uplink.
* :func:`list_interfaces` -- every address on every adapter (via ``ifaddr``), which
  also works without a default route but includes docker/VM/VPN adapters.

:func:`rank` merges both into an ordered list of :class:`Candidate`; the first one is
the best guess, and the whole list is meant to be shown on the host screen so a
person can pick another (together with a ``--host-ip`` override).

Decision on VPNs: when the default route goes through a VPN adapter (``tun0``,
``utun3``, ``wg0``, ...) its address is still ranked first, because that is where
the OS routes traffic and we do not second-guess the routing table. It is marked
``virtual=True`` so the UI can warn, and the physical LAN address follows it.

Host names are never resolved here (eventlet DNS pitfalls); everything is numeric.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass

__all__ = [
    "Interface",
    "Candidate",
    "VIRTUAL_NAME_PREFIXES",
    "VIRTUAL_NAME_MARKERS",
    "is_virtual_name",
    "rank",
    "default_route_addresses",
    "list_interfaces",
    "discover",
    "join_url",
]

#: Adapter-name prefixes (compared case-insensitively) of adapters that are not the
#: laptop's real LAN connection: containers, VMs, VPNs/tunnels, overlay networks.
#: Loopback (``lo``, ``lo0``) is matched exactly, not by prefix, so that Windows'
#: "Local Area Connection" is not taken for loopback.
VIRTUAL_NAME_PREFIXES: tuple[str, ...] = (
    "docker",  # Docker bridge (docker0)
    "br-",  # Docker user-defined bridges
    "veth",  # container veth pairs
    "virbr",  # libvirt
    "vnet",  # libvirt guest taps
    "lxcbr",  # LXC
    "lxdbr",  # LXD
    "podman",  # Podman bridge
    "cni",  # Kubernetes CNI bridges
    "flannel",  # Kubernetes overlay
    "vmnet",  # VMware (Linux/macOS)
    "vboxnet",  # VirtualBox host-only (Linux/macOS)
    "tun",  # OpenVPN and other tunnels
    "tap",  # tap devices
    "wg",  # WireGuard
    "utun",  # macOS tunnels (VPNs, iCloud Private Relay, ...)
    "zt",  # ZeroTier
    "tailscale",  # Tailscale
    "bridge",  # macOS Internet Sharing / VM bridges
    "awdl",  # macOS Apple Wireless Direct Link
    "llw",  # macOS low-latency WLAN
    "anpi",  # macOS
)

#: Substrings (case-insensitive) of Windows adapter names or descriptions that mark
#: virtual adapters, e.g. "vEthernet (WSL)", "VirtualBox Host-Only Network",
#: "Hyper-V Virtual Ethernet Adapter", "TAP-Windows Adapter V9".
VIRTUAL_NAME_MARKERS: tuple[str, ...] = (
    "virtualbox",
    "vmware",
    "hyper-v",
    "vethernet",
    "docker",
    "wsl",
    "loopback",
    "tap-windows",
    "wintun",
    "wireguard",
    "zerotier",
    "tailscale",
)

_IP = ipaddress.IPv4Address | ipaddress.IPv6Address

_LOOPBACK_NAMES = frozenset({"lo", "lo0"})

#: "Private" networks that a home/office LAN uses: RFC 1918 and IPv6 ULA. Python's
#: ``is_private`` is deliberately not used: it also covers documentation, benchmark
#: and other special ranges that are not typical LANs.
_PRIVATE_NETWORKS = (
    ipaddress.ip_network("10.0.0.0/8"),
    ipaddress.ip_network("172.16.0.0/12"),
    ipaddress.ip_network("192.168.0.0/16"),
    ipaddress.ip_network("fc00::/7"),
)

# Destinations for the default-route probe. Documentation ranges (RFC 5737 /
# RFC 3849): off-link on any real LAN, so the OS picks its default route. UDP
# connect() only does a route lookup; nothing is ever sent to them.
_PROBE_V4 = ("198.51.100.1", 9)
_PROBE_V6 = ("2001:db8::1", 9)


@dataclass(frozen=True)
class Interface:
    """One address on one adapter, as the OS lists it.

    Attributes:
        name: adapter name as users see it: ``"wlan0"``, ``"en0"``, ``"docker0"``,
            ``"Wi-Fi"``, ``"vEthernet (WSL)"`` (on Windows the friendly name).
        address: numeric address without prefix length or ``%scope``:
            ``"192.168.1.20"`` or ``"fd00::5"``.
        family: ``4`` or ``6``.
        description: optional extra adapter text used only for virtual-adapter
            detection (Windows' adapter description, e.g. ``"Hyper-V Virtual
            Ethernet Adapter"``); empty when the OS gives nothing beyond the name.
    """

    name: str
    address: str
    family: int
    description: str = ""


@dataclass(frozen=True)
class Candidate:
    """A usable address for the join URL, in ranked order (see :func:`rank`).

    Attributes:
        address: canonical numeric address (``ipaddress`` string form).
        interface: adapter name; ``""`` if only the default-route probe knew it.
        family: ``4`` or ``6``.
        default_route: the OS uses this address as source for its default route.
        virtual: the adapter looks like docker/VM/VPN/tunnel (see
            :data:`VIRTUAL_NAME_PREFIXES` and :data:`VIRTUAL_NAME_MARKERS`).
    """

    address: str
    interface: str
    family: int
    default_route: bool
    virtual: bool

    @property
    def url_host(self) -> str:
        """Host part for a URL: ``"192.168.1.20"`` or ``"[fd00::5]"``."""
        return f"[{self.address}]" if self.family == 6 else self.address


def is_virtual_name(name: str, description: str = "") -> bool:
    """Return True if an adapter name (or Windows description) looks virtual.

    Args:
        name: adapter name, e.g. ``"docker0"``, ``"utun3"``, ``"Wi-Fi"``.
        description: optional adapter description (Windows).

    Returns:
        True for loopback (``lo``/``lo0``), names starting with one of
        :data:`VIRTUAL_NAME_PREFIXES`, or name/description containing one of
        :data:`VIRTUAL_NAME_MARKERS` (all case-insensitive).
    """
    folded = name.strip().casefold()
    if folded in _LOOPBACK_NAMES:
        return True
    if folded.startswith(VIRTUAL_NAME_PREFIXES):
        return True
    text = f"{folded} {description.casefold()}"
    return any(marker in text for marker in VIRTUAL_NAME_MARKERS)


def _parse(address: str) -> _IP | None:
    """Parse ``address``, dropping ``%scope``, ``/prefix`` and brackets; None if invalid."""
    text = address.strip().strip("[]").split("%", 1)[0].split("/", 1)[0]
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def _usable(ip: _IP) -> bool:
    """False for loopback, link-local, unspecified, multicast and reserved addresses."""
    return not (
        ip.is_loopback
        or ip.is_link_local
        or ip.is_unspecified
        or ip.is_multicast
        or ip.is_reserved
    )


def _is_private_lan(ip: _IP) -> bool:
    return any(ip.version == net.version and ip in net for net in _PRIVATE_NETWORKS)


def rank(interfaces: list[Interface], default_route_addresses: set[str]) -> list[Candidate]:
    """Order the usable addresses, best first, for the join URL.

    Args:
        interfaces: addresses as listed by :func:`list_interfaces` (or made up in tests).
        default_route_addresses: addresses the OS uses for its default route(s), as
            from :func:`default_route_addresses`. Scope suffixes are ignored.

    Returns:
        A new list of :class:`Candidate`, possibly empty. Excluded: loopback
        (127/8, ``::1``), link-local (169.254/16, ``fe80::/10``), unspecified,
        multicast, reserved, and unparsable addresses. Order (each rule breaks ties
        of the previous ones):

        1. default-route addresses first (even on a VPN/virtual adapter: the OS
           routes there);
        2. non-virtual adapters before virtual ones;
        3. IPv4 before IPv6;
        4. private LAN ranges (RFC 1918, IPv6 ULA ``fc00::/7``) before others;
        5. adapter name (case-insensitive), then address, for a stable order.

        Each address appears once (the best-ranked occurrence wins). A usable
        default-route address that no interface lists (e.g. interface listing
        failed) is still included, with ``interface=""`` and ``virtual=False``.

    Raises:
        Nothing for bad input; invalid addresses are skipped.
    """
    default_ips = {ip for ip in (_parse(a) for a in default_route_addresses) if ip is not None}

    rows: list[tuple[_IP, str, bool]] = []  # (address, interface name, virtual)
    seen_ips: set[_IP] = set()
    for iface in interfaces:
        ip = _parse(iface.address)
        if ip is None or not _usable(ip):
            continue
        seen_ips.add(ip)
        rows.append((ip, iface.name, is_virtual_name(iface.name, iface.description)))
    for ip in default_ips - seen_ips:
        if _usable(ip):
            rows.append((ip, "", False))

    def key(row: tuple[_IP, str, bool]) -> tuple:
        ip, name, virtual = row
        return (
            ip not in default_ips,
            virtual,
            ip.version != 4,
            not _is_private_lan(ip),
            name.casefold(),
            name,
            ip.version,
            ip.packed,
        )

    result: list[Candidate] = []
    emitted: set[_IP] = set()
    for ip, name, virtual in sorted(rows, key=key):
        if ip in emitted:
            continue
        emitted.add(ip)
        result.append(
            Candidate(
                address=str(ip),
                interface=name,
                family=ip.version,
                default_route=ip in default_ips,
                virtual=virtual,
            )
        )
    return result


def _probe(family: socket.AddressFamily, destination: tuple[str, int]) -> str | None:
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as sock:
            sock.connect(destination)  # route lookup only; UDP connect sends nothing
            address = sock.getsockname()[0]
    except OSError:  # ENETUNREACH (no default route), EAFNOSUPPORT (no IPv6), ...
        return None
    ip = _parse(address)
    if ip is None or not _usable(ip):
        return None
    return str(ip)


def default_route_addresses() -> set[str]:
    """Source addresses the OS would use for its IPv4 and IPv6 default routes.

    Uses a UDP socket ``connect()`` to a documentation address (198.51.100.1,
    2001:db8::1) followed by ``getsockname()``; this is only a routing-table lookup
    and sends no packet.

    Returns:
        A set of 0-2 canonical numeric address strings (no ``%scope``). Empty when
        there is no default route (``ENETUNREACH``), no IPv6 support, or any other
        ``OSError``; loopback/link-local/unspecified results are dropped too.

    Raises:
        Nothing.
    """
    found: set[str] = set()
    probes = [(socket.AF_INET, _PROBE_V4)]
    if socket.has_ipv6:
        probes.append((socket.AF_INET6, _PROBE_V6))
    for family, destination in probes:
        address = _probe(family, destination)
        if address is not None:
            found.add(address)
    return found


def list_interfaces() -> list[Interface]:
    """Every IPv4/IPv6 address of every adapter, as the OS lists it (via ``ifaddr``).

    Nothing is filtered out here (loopback and link-local included); IPv6 entries,
    which ``ifaddr`` gives as ``(address, flowinfo, scope_id)`` tuples, are reduced
    to the bare address, and any ``%scope`` suffix is removed. On Windows ``name`` is
    the friendly name ("Wi-Fi") and ``description`` the adapter description.

    Returns:
        A list of :class:`Interface` in OS order; unparsable entries are skipped.

    Raises:
        OSError: if the OS refuses to enumerate adapters.
    """
    import ifaddr  # local import: only needed when actually discovering

    result: list[Interface] = []
    for adapter in ifaddr.get_adapters():
        adapter_text = str(adapter.nice_name or adapter.name or "")
        for entry in adapter.ips:
            raw = entry.ip[0] if isinstance(entry.ip, tuple) else entry.ip
            ip = _parse(str(raw))
            if ip is None:
                continue
            name = str(entry.nice_name or adapter_text)
            description = adapter_text if adapter_text != name else ""
            result.append(Interface(name=name, address=str(ip), family=ip.version,
                                    description=description))
    return result


def discover() -> list[Candidate]:
    """Ranked join-address candidates for this machine, best first.

    Equivalent to ``rank(list_interfaces(), default_route_addresses())``, except
    that a failing interface listing (``OSError``) is treated as an empty list, so
    the default-route address alone can still be returned.

    Returns:
        A list of :class:`Candidate`; empty if the machine has no usable address
        (no loopback or link-local addresses are ever returned).

    Raises:
        Nothing for OS/network failures.
    """
    try:
        interfaces = list_interfaces()
    except OSError:
        interfaces = []
    return rank(interfaces, default_route_addresses())


def join_url(host: str, port: int, path: str = "/") -> str:
    """Build the ``http://`` URL phones open, e.g. ``http://192.168.1.20:8765/``.

    Args:
        host: numeric address or host name; an IPv6 literal (contains ``:``) is put
            in brackets unless it already is: ``fd00::5`` -> ``[fd00::5]``.
        port: TCP port, 1-65535. Always written out, even 80.
        path: URL path; a leading ``/`` is added if missing.

    Returns:
        The URL string.

    Raises:
        ValueError: empty host, a port outside 1-65535 (or not an int), or an IPv6
            zone (``%scope``), which browsers cannot use in URLs.
    """
    host = host.strip()
    if not host:
        raise ValueError("empty host")
    if isinstance(port, bool) or not isinstance(port, int) or not 1 <= port <= 65535:
        raise ValueError(f"invalid port: {port!r}")
    if "%" in host:
        raise ValueError(f"IPv6 zone ids are not usable in URLs: {host!r}")
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    if not path.startswith("/"):
        path = "/" + path
    return f"http://{host}:{port}{path}"
