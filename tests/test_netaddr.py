"""Ranking of join-address candidates (partyhost.netaddr), on made-up interface lists.

Only discover()/default_route_addresses()/list_interfaces() touch the real OS; they
do a routing-table lookup and an interface listing and send no traffic.
"""

from __future__ import annotations

import dataclasses
import errno
import socket

import pytest

from partyhost import netaddr
from partyhost.netaddr import Candidate, Interface, join_url, rank


def v4(name: str, address: str, description: str = "") -> Interface:
    return Interface(name=name, address=address, family=4, description=description)


def v6(name: str, address: str, description: str = "") -> Interface:
    return Interface(name=name, address=address, family=6, description=description)


def addresses(candidates: list[Candidate]) -> list[str]:
    return [c.address for c in candidates]


# A Linux laptop on Wi-Fi with Docker installed.
LAPTOP = [
    v4("lo", "127.0.0.1"),
    v6("lo", "::1"),
    v4("docker0", "172.17.0.1"),
    v4("wlan0", "192.168.1.20"),
    v4("wlan0", "169.254.12.7"),
    v6("wlan0", "fe80::1c2d:3eff:fe4f:5a6b"),
    v6("wlan0", "2a01:4f8:1:2::20"),
    v6("wlan0", "fd12:3456:789a::20"),
    v6("docker0", "fe80::42:acff:fe11:1"),
]


# --- filtering -----------------------------------------------------------------


def test_laptop_excludes_loopback_link_local():
    got = addresses(rank(LAPTOP, set()))
    for bad in ("127.0.0.1", "::1", "169.254.12.7", "fe80::1c2d:3eff:fe4f:5a6b",
                "fe80::42:acff:fe11:1"):
        assert bad not in got
    assert sorted(got) == sorted(["172.17.0.1", "192.168.1.20", "2a01:4f8:1:2::20",
                                  "fd12:3456:789a::20"])


@pytest.mark.parametrize(
    "address",
    ["127.0.0.1", "127.5.6.7", "::1", "169.254.1.1", "fe80::1", "febf::1", "0.0.0.0", "::",
     "224.0.0.251", "239.255.255.250", "ff02::fb", "255.255.255.255", "240.0.0.1",
     "not-an-ip", "", "192.168.1.300"],
)
def test_unusable_addresses_are_dropped(address):
    family = 6 if ":" in address else 4
    assert rank([Interface("eth0", address, family)], set()) == []
    assert rank([], {address}) == []


def test_empty_inputs():
    assert rank([], set()) == []


# --- ordering ------------------------------------------------------------------


def test_laptop_default_route_on_wlan0_first():
    got = rank(LAPTOP, {"192.168.1.20", "2a01:4f8:1:2::20"})
    assert got[0] == Candidate("192.168.1.20", "wlan0", 4, default_route=True, virtual=False)
    assert got[1] == Candidate("2a01:4f8:1:2::20", "wlan0", 6, default_route=True, virtual=False)
    # then the rest of the physical adapter (ULA), docker last
    assert addresses(got) == ["192.168.1.20", "2a01:4f8:1:2::20", "fd12:3456:789a::20",
                              "172.17.0.1"]
    assert [c.virtual for c in got] == [False, False, False, True]


def test_laptop_without_default_route_private_wlan_first_docker_last():
    got = rank(LAPTOP, set())
    assert not any(c.default_route for c in got)
    # IPv4 before IPv6; ULA before global; virtual docker0 last despite being IPv4 RFC 1918
    assert addresses(got) == ["192.168.1.20", "fd12:3456:789a::20", "2a01:4f8:1:2::20",
                              "172.17.0.1"]
    assert got[-1].interface == "docker0" and got[-1].virtual


def test_default_route_via_vpn_tun0_stays_first():
    # Decision (documented in netaddr): the OS routes via the VPN, so its address is
    # first, flagged virtual; the physical LAN address comes right after it.
    interfaces = LAPTOP + [v4("tun0", "10.8.0.6")]
    got = rank(interfaces, {"10.8.0.6"})
    assert got[0] == Candidate("10.8.0.6", "tun0", 4, default_route=True, virtual=True)
    assert got[1].address == "192.168.1.20" and not got[1].virtual
    assert got[-1].address == "172.17.0.1"


def test_private_ipv4_before_public_ipv4():
    got = rank([v4("eth1", "203.0.113.9"), v4("eth0", "10.0.0.5"), v4("eth2", "100.64.3.4")],
               set())
    # RFC 1918 first; public and CGNAT (not RFC 1918) after, by interface name
    assert addresses(got) == ["10.0.0.5", "203.0.113.9", "100.64.3.4"]


def test_ipv4_before_ipv6_even_if_ipv6_is_ula():
    got = rank([v6("eth0", "fd00::5"), v4("eth0", "198.51.100.7")], set())
    assert addresses(got) == ["198.51.100.7", "fd00::5"]


def test_virtual_last_whatever_the_address():
    got = rank([v4("vboxnet0", "192.168.56.1"), v6("eth0", "2a01:4f8::7"),
                v4("virbr0", "192.168.122.1")], set())
    # virtual ones after the physical IPv6, then by name: "vboxnet0" < "virbr0"
    assert addresses(got) == ["2a01:4f8::7", "192.168.56.1", "192.168.122.1"]


def test_two_default_route_addresses_ipv4_first():
    got = rank([v6("eth0", "fd00::2"), v4("eth0", "192.168.0.9")], {"fd00::2", "192.168.0.9"})
    assert addresses(got) == ["192.168.0.9", "fd00::2"]
    assert all(c.default_route for c in got)


def test_stable_order_by_name_then_address():
    ifaces = [v4("wlan1", "192.168.2.3"), v4("eth0", "192.168.1.9"), v4("eth0", "192.168.1.10"),
              v4("ETH1", "10.1.1.1")]
    got = rank(ifaces, set())
    assert [(c.interface, c.address) for c in got] == [
        ("eth0", "192.168.1.9"), ("eth0", "192.168.1.10"), ("ETH1", "10.1.1.1"),
        ("wlan1", "192.168.2.3"),
    ]
    assert rank(list(reversed(ifaces)), set()) == got


# --- platform names ------------------------------------------------------------


def test_macos_names():
    ifaces = [
        v4("lo0", "127.0.0.1"),
        v6("lo0", "fe80::1"),
        v6("utun3", "fd7a:115c:a1e0::1"),
        v4("utun3", "100.101.102.103"),
        v4("bridge100", "192.168.64.1"),
        v6("awdl0", "fe80::aa:bbff:fecc:ddee"),
        v4("en0", "192.168.1.42"),
        v6("en0", "fd00::42"),
    ]
    got = rank(ifaces, set())
    assert addresses(got)[:2] == ["192.168.1.42", "fd00::42"]
    assert {c.interface for c in got if c.virtual} == {"utun3", "bridge100"}
    assert all(c.virtual for c in got[2:])


def test_windows_names():
    ifaces = [
        v4("vEthernet (WSL)", "172.29.96.1", "Hyper-V Virtual Ethernet Adapter"),
        v4("VirtualBox Host-Only Network", "192.168.56.1",
           "VirtualBox Host-Only Ethernet Adapter"),
        v4("VMware Network Adapter VMnet8", "192.168.80.1", "VMware Virtual Ethernet Adapter"),
        v4("Ethernet 3", "10.10.0.2", "TAP-Windows Adapter V9"),
        v4("vEthernet (Default Switch)", "172.20.0.1", "Hyper-V Virtual Ethernet Adapter"),
        v4("Local Area Connection* 10", "192.168.137.1", "Microsoft Wi-Fi Direct Virtual Adapter"),
        v4("Wi-Fi", "192.168.0.105", "Intel(R) Wi-Fi 6 AX201 160MHz"),
        v4("Loopback Pseudo-Interface 1", "127.0.0.1"),
        v6("Wi-Fi", "fe80::1234%12"),
    ]
    got = rank(ifaces, {"192.168.0.105"})
    assert got[0] == Candidate("192.168.0.105", "Wi-Fi", 4, default_route=True, virtual=False)
    virtual = {c.interface for c in got if c.virtual}
    assert virtual == {"vEthernet (WSL)", "VirtualBox Host-Only Network",
                       "VMware Network Adapter VMnet8", "Ethernet 3",
                       "vEthernet (Default Switch)"}
    # "Local Area Connection* N" (the Mobile Hotspot adapter) is not taken for loopback
    # ("lo" is matched exactly) and counts as physical: hotspot phones can reach it.
    assert got[1].interface == "Local Area Connection* 10" and not got[1].virtual
    assert all(c.virtual for c in got[2:])
    # without a default route: physical adapters by name, all virtual ones after them
    got = rank(ifaces, set())
    assert [c.interface for c in got[:2]] == ["Local Area Connection* 10", "Wi-Fi"]
    assert all(c.virtual for c in got[2:]) and len(got) == 7


@pytest.mark.parametrize(
    "name",
    ["docker0", "br-3f2a9c", "veth12ab", "virbr0", "vmnet8", "vboxnet0", "tun0", "tap0", "wg0",
     "utun3", "ztabcdef", "lo", "LO0", "Docker", "vEthernet (WSL)", "VirtualBox Host-Only Network",
     "Hyper-V Adapter", "vEthernet (WSL (Hyper-V firewall))", "tailscale0"],
)
def test_is_virtual_name_true(name):
    assert netaddr.is_virtual_name(name)


@pytest.mark.parametrize(
    "name", ["wlan0", "wlp2s0", "eth0", "enp3s0", "en0", "en1", "Wi-Fi", "Ethernet",
             "Local Area Connection", "WLAN", "lowpan0"],
)
def test_is_virtual_name_false(name):
    assert not netaddr.is_virtual_name(name)


def test_windows_description_can_mark_virtual():
    assert netaddr.is_virtual_name("Ethernet 2", "Hyper-V Virtual Ethernet Adapter")
    assert not netaddr.is_virtual_name("Ethernet 2", "Realtek PCIe GbE Family Controller")


# --- dedup and address normalisation -------------------------------------------


def test_dedup_same_address_keeps_best_ranked_occurrence():
    ifaces = [v4("docker0", "192.168.1.20"), v4("wlan0", "192.168.1.20"),
              v4("wlan0", "192.168.1.20")]
    got = rank(ifaces, set())
    assert got == [Candidate("192.168.1.20", "wlan0", 4, default_route=False, virtual=False)]


def test_dedup_ipv6_spellings_and_scope():
    ifaces = [v6("eth0", "FD00:0:0::5"), v6("eth0", "fd00::5%eth0"), v6("eth0", "fd00::5/64")]
    got = rank(ifaces, {"fd00:0::5"})
    assert got == [Candidate("fd00::5", "eth0", 6, default_route=True, virtual=False)]


def test_default_route_address_not_in_interface_list_is_kept():
    got = rank([v4("wlan0", "192.168.1.20")], {"192.168.1.77", "127.0.0.1"})
    assert got[0] == Candidate("192.168.1.77", "", 4, default_route=True, virtual=False)
    assert addresses(got) == ["192.168.1.77", "192.168.1.20"]


def test_candidates_are_frozen():
    c = rank([v4("wlan0", "192.168.1.20")], set())[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.address = "10.0.0.1"  # type: ignore[misc]


# --- url_host and join_url -----------------------------------------------------


def test_url_host_brackets_ipv6_only():
    got = rank([v4("wlan0", "192.168.1.20"), v6("wlan0", "fd00::5")], set())
    assert [c.url_host for c in got] == ["192.168.1.20", "[fd00::5]"]


@pytest.mark.parametrize(
    ("host", "port", "path", "expected"),
    [
        ("192.168.1.20", 8765, "/", "http://192.168.1.20:8765/"),
        ("fd00::5", 8765, "/", "http://[fd00::5]:8765/"),
        ("[fd00::5]", 8765, "/", "http://[fd00::5]:8765/"),
        ("192.168.1.20", 80, "join", "http://192.168.1.20:80/join"),
        ("192.168.1.20", 8765, "/tv?x=1", "http://192.168.1.20:8765/tv?x=1"),
        ("partyhost.local", 1, "/", "http://partyhost.local:1/"),
    ],
)
def test_join_url(host, port, path, expected):
    assert join_url(host, port, path) == expected


def test_join_url_default_path():
    assert join_url("10.0.0.2", 65535) == "http://10.0.0.2:65535/"


def test_join_url_with_candidate_url_host():
    c = rank([v6("wlan0", "fd00::5")], set())[0]
    assert join_url(c.url_host, 8765) == join_url(c.address, 8765) == "http://[fd00::5]:8765/"


@pytest.mark.parametrize(
    ("host", "port"),
    [("", 8765), ("  ", 8765), ("10.0.0.2", 0), ("10.0.0.2", 65536), ("10.0.0.2", -1),
     ("10.0.0.2", "8765"), ("10.0.0.2", True), ("fe80::1%eth0", 8765)],
)
def test_join_url_rejects(host, port):
    with pytest.raises(ValueError):
        join_url(host, port)


# --- OS-facing functions -------------------------------------------------------


class _UnreachableSocket:
    """Stands in for socket.socket: connect() fails like on a network with no default route."""

    def __init__(self, family, kind):
        self.family = family

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def connect(self, address):
        raise OSError(errno.ENETUNREACH, "Network is unreachable")


class _FixedSocket(_UnreachableSocket):
    results = {socket.AF_INET: ("127.0.0.1", 5000),
               socket.AF_INET6: ("fd00::9%3", 5000, 0, 0)}

    def connect(self, address):
        self.connected = address

    def getsockname(self):
        return self.results[self.family]


def test_default_route_addresses_empty_when_unreachable(monkeypatch):
    monkeypatch.setattr(netaddr.socket, "socket", _UnreachableSocket)
    assert netaddr.default_route_addresses() == set()


def test_default_route_addresses_drops_loopback_and_scope(monkeypatch):
    monkeypatch.setattr(netaddr.socket, "socket", _FixedSocket)
    monkeypatch.setattr(netaddr.socket, "has_ipv6", True)
    assert netaddr.default_route_addresses() == {"fd00::9"}


def test_discover_survives_interface_listing_failure(monkeypatch):
    def boom():
        raise OSError("getifaddrs denied")

    monkeypatch.setattr(netaddr, "list_interfaces", boom)
    monkeypatch.setattr(netaddr, "default_route_addresses", lambda: {"192.168.1.20"})
    assert netaddr.discover() == [Candidate("192.168.1.20", "", 4, True, False)]


def test_list_interfaces_on_this_machine():
    got = netaddr.list_interfaces()
    assert isinstance(got, list)
    for iface in got:
        assert isinstance(iface, Interface)
        assert iface.family in (4, 6)
        assert "%" not in iface.address and "/" not in iface.address
        assert isinstance(iface.name, str) and iface.name


def test_default_route_addresses_on_this_machine():
    got = netaddr.default_route_addresses()
    assert isinstance(got, set) and len(got) <= 2
    assert all(isinstance(a, str) and "%" not in a for a in got)


def test_discover_on_this_machine():
    got = netaddr.discover()
    assert isinstance(got, list)
    for c in got:
        assert isinstance(c, Candidate)
        assert c.family in (4, 6)
        assert isinstance(c.default_route, bool) and isinstance(c.virtual, bool)
        assert not c.address.startswith("127.") and c.address != "::1"
        assert not c.address.startswith(("169.254.", "fe80:"))
        assert join_url(c.url_host, 8765).startswith("http://")
    assert len({c.address for c in got}) == len(got)
