"""The join doctor: what the host can check by itself about why no phone joins (issue 26).

On a real night the usual reasons a phone cannot open the join URL are outside partyhost: the
phone is on another Wi-Fi, the Wi-Fi isolates its clients (guest networks), the phone went to
mobile data because the Wi-Fi has no internet, the laptop's firewall refuses the port, or the QR
carries an address of the wrong adapter. The TV lists those with what to do; this module adds
what the laptop can find out about itself, cheaply and without ever failing:

* the join address's kind: a private LAN address, link-local (169.254/16: no DHCP server, a
  Wi-Fi that did not hand out addresses), loopback only (no network at all: phones cannot reach
  127.0.0.1) or a public / carrier address (unusual for a party Wi-Fi);
* whether the join URL's address and port accept a TCP connection *from this laptop*
  (:func:`reach`). It proves the server listens on that address; it cannot prove that a phone
  gets through (a firewall usually lets the laptop's own traffic pass, and client isolation
  happens in the access point), and the texts say so;
* several candidate addresses (the picker in the host menu chooses);
* the firewall's state where a command tells it quickly (:func:`firewall_state`): Linux ``ufw
  status`` / ``firewall-cmd --state``, macOS ``socketfilterfw --getglobalstate``, Windows
  ``netsh advfirewall show currentprofile``. Each runs only when present, with a timeout, and
  any failure is "unknown".

:func:`diagnose` gathers it into a :class:`Report`; :meth:`Report.view` is what the TV gets
(codes and parameters; the words are in the catalogues under ``doctor.*``), and
:meth:`Report.terminal_lines` the bilingual lines the host prints at start.
"""

from __future__ import annotations

import errno
import ipaddress
import os
import shutil
import socket
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Callable, Sequence

from .netaddr import Candidate
from . import i18n

__all__ = ["DEFAULT_AFTER", "Finding", "Report", "address_kind", "reach", "firewall_state",
           "parse_ufw", "parse_firewalld", "parse_socketfilterfw", "parse_netsh", "diagnose"]

DEFAULT_AFTER = 45.0
"""Seconds after the QR code shows with no phone seated before the TV shows the doctor
(``--doctor-after``; 0 turns it off). Long enough for a table to get their phones out and scan,
short enough that a host is not left guessing."""

COMMAND_TIMEOUT = 2.0
"""Seconds one firewall command may take before it counts as "unknown"."""

REACH_TIMEOUT = 1.0
"""Seconds the connection to the laptop's own join address may take."""

_CGNAT = ipaddress.ip_network("100.64.0.0/10")
_PRIVATE = tuple(ipaddress.ip_network(n) for n in
                 ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"))


@dataclass(frozen=True)
class Finding:
    """One thing the host found out about itself.

    Attributes:
        code: what was checked and its outcome, the catalogue key under ``doctor.check.``:
            ``reach_ok`` / ``reach_failed``, ``address_private`` / ``address_link_local`` /
            ``address_loopback`` / ``address_public`` / ``no_address``, ``several_addresses``,
            ``firewall_on`` / ``firewall_off`` / ``firewall_unknown``.
        level: ``"ok"``, ``"warn"`` (a likely cause) or ``"info"``.
        params: the values the text needs (``address``, ``port``, ``count``, ``tool``,
            ``interface``; ``detail`` is a code under ``doctor.reason.``), all strings or ints.
    """

    code: str
    level: str
    params: dict = field(default_factory=dict)


def address_kind(address: str) -> str:
    """Classify a join address.

    Args:
        address: a numeric IPv4/IPv6 address, maybe in brackets.
    Returns:
        ``"private"`` (RFC 1918, IPv6 ULA, and the carrier range 100.64/10 some travel routers
        and hotspots hand out), ``"link_local"`` (169.254/16, fe80::/10), ``"loopback"``,
        ``"public"`` (anything else) or ``"invalid"``.
    """
    try:
        ip = ipaddress.ip_address(address.strip("[]").split("%", 1)[0])
    except ValueError:
        return "invalid"
    if ip.is_loopback or ip.is_unspecified:
        return "loopback"
    if ip.is_link_local:
        return "link_local"
    if any(ip.version == n.version and ip in n for n in _PRIVATE) or \
            (ip.version == 4 and ip in _CGNAT):
        return "private"
    return "public"


def reach(address: str, port: int, timeout: float = REACH_TIMEOUT) -> str | None:
    """Open (and close) a TCP connection to ``address:port`` from this machine.

    Returns:
        None when it connected; otherwise why not, as a catalogue code under
        ``doctor.reason.``: ``"refused"``, ``"timed_out"``, ``"unreachable"`` or ``"error"``.
        Never raises.
    """
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as sock:
            sock.settimeout(timeout)
            sock.connect((address.strip("[]"), port))
    except TimeoutError:
        return "timed_out"
    except ConnectionRefusedError:
        return "refused"
    except OSError as error:
        if error.errno in (errno.ENETUNREACH, errno.EHOSTUNREACH, errno.EADDRNOTAVAIL):
            return "unreachable"
        return "error"
    return None


# ----- firewall ------------------------------------------------------------------------------

def parse_ufw(out: str) -> str:
    """``ufw status`` output → ``"on"``, ``"off"`` or ``"unknown"`` (e.g. "You need to be root")."""
    for line in out.splitlines():
        line = line.strip().lower()
        if line.startswith("status:"):
            value = line.split(":", 1)[1].strip()
            return "on" if value == "active" else "off" if value == "inactive" else "unknown"
    return "unknown"


def parse_firewalld(out: str) -> str:
    """``firewall-cmd --state`` output (``running`` / ``not running``) → on/off/unknown."""
    text = out.strip().lower()
    if text == "running":
        return "on"
    if text == "not running":
        return "off"
    return "unknown"


def parse_socketfilterfw(out: str) -> str:
    """macOS ``socketfilterfw --getglobalstate`` output → on/off/unknown.

    It says ``Firewall is enabled. (State = 1)`` (or ``= 2``, block all), or ``Firewall is
    disabled. (State = 0)``."""
    text = out.lower()
    if "disabled" in text or "state = 0" in text:
        return "off"
    if "enabled" in text or "state = 1" in text or "state = 2" in text:
        return "on"
    return "unknown"


def parse_netsh(out: str) -> str:
    """Windows ``netsh advfirewall show currentprofile`` output → on/off/unknown (its
    ``State  ON`` line; the word is English whatever the display language)."""
    for line in out.splitlines():
        words = line.split()
        if len(words) >= 2 and words[0].lower() == "state":
            value = words[-1].upper()
            return "on" if value == "ON" else "off" if value == "OFF" else "unknown"
    return "unknown"


_MAC_FW = "/usr/libexec/ApplicationFirewall/socketfilterfw"

#: Per platform: (tool name shown, command, parser). Tried in order; the first whose program
#: exists and whose output says on or off wins.
FIREWALL_COMMANDS: dict[str, list[tuple[str, list[str], Callable[[str], str]]]] = {
    "linux": [("ufw", ["ufw", "status"], parse_ufw),
              ("firewalld", ["firewall-cmd", "--state"], parse_firewalld)],
    "darwin": [("macOS", [_MAC_FW, "--getglobalstate"], parse_socketfilterfw)],
    "win32": [("Windows", ["netsh", "advfirewall", "show", "currentprofile"], parse_netsh)],
}


def _run(command: Sequence[str], timeout: float) -> str | None:
    """The command's stdout+stderr, or None when it is missing, fails to start or times out."""
    program = command[0]
    if not (os.path.isabs(program) and os.access(program, os.X_OK)) and shutil.which(program) is None:
        return None
    try:
        done = subprocess.run(list(command), capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL, errors="replace")
    except (OSError, subprocess.SubprocessError, ValueError):
        return None
    return (done.stdout or "") + (done.stderr or "")


def firewall_state(platform: str | None = None, timeout: float = COMMAND_TIMEOUT,
                   commands: dict | None = None) -> tuple[str, str]:
    """What the laptop's firewall command says, if one is present.

    Args:
        platform: ``sys.platform`` style (``"linux"``, ``"darwin"``, ``"win32"``); None = this one.
        timeout: seconds each command may take.
        commands: a table like :data:`FIREWALL_COMMANDS` (tests give their own programs).
    Returns:
        ``(tool, state)``: ``state`` is ``"on"``, ``"off"`` or ``"unknown"``; ``tool`` names the
        command that answered (``"ufw"``, ``"firewalld"``, ``"macOS"``, ``"Windows"``) or is ``""``
        when none was present. Never raises; waits at most ``timeout`` per command.
    """
    plat = platform or sys.platform
    key = "linux" if plat.startswith("linux") else plat
    table = (commands if commands is not None else FIREWALL_COMMANDS).get(key, [])
    found = ("", "unknown")
    for tool, command, parse in table:
        out = _run(command, timeout)
        if out is None:
            continue
        state = parse(out)
        if state != "unknown":
            return tool, state
        if not found[0]:
            found = (tool, "unknown")
    return found


# ----- the report ------------------------------------------------------------------------------

@dataclass
class Report:
    """What :func:`diagnose` found. ``findings`` in the order the TV lists them; ``after`` is
    the doctor's delay in seconds (0 = the TV never shows it by itself)."""

    findings: list[Finding]
    after: float = DEFAULT_AFTER

    def view(self) -> dict:
        """The TV's part of the join box: ``{"after": s, "checks": [{code, level, params}]}``."""
        return {"after": self.after,
                "checks": [{"code": f.code, "level": f.level, "params": dict(f.params)}
                           for f in self.findings]}

    def terminal_lines(self, catalogues: dict[str, dict[str, str]]) -> list[str]:
        """One bilingual line per finding (``ja / en``), marked ✓ (ok), ⚠ (warn) or ・ (info).

        Args:
            catalogues: ``{"ja": {...}, "en": {...}}`` (:func:`partyhost.i18n.catalogue`).
        """
        mark = {"ok": "✓", "warn": "⚠", "info": "・"}
        lines = []
        for f in self.findings:
            key = "doctor.check." + f.code
            texts = []
            for lang in ("ja", "en"):
                params = dict(f.params)
                if "detail" in params:
                    reason = "doctor.reason." + str(params["detail"])
                    params["detail"] = catalogues[lang].get(reason, reason)
                # the catalogue's {n, plural, …} blocks first, then the placeholders (i18n.plurals)
                texts.append(i18n.plurals(lang, catalogues[lang].get(key, key), params).format(**params))
            lines.append(f"{mark.get(f.level, '・')} {texts[0]} / {texts[1]}")
        return lines


def diagnose(addresses: list[Candidate], index: int, port: int, *, after: float = DEFAULT_AFTER,
             firewall: tuple[str, str] | None = None,
             reach_fn: Callable[[str, int], str | None] = reach) -> Report:
    """Check what the laptop can about the join address ``addresses[index]``.

    Args:
        addresses: the ranked candidates (:func:`partyhost.netaddr.discover`, ``--host-ip``).
        index: the one in the QR code.
        port: the port phones connect to.
        after: the TV's delay, carried in the report.
        firewall: ``(tool, state)`` already found; None runs :func:`firewall_state` now.
        reach_fn: how the own address is tried (``reach``).
    Returns:
        A :class:`Report`. Never raises for network or command failures.
    """
    findings: list[Finding] = []
    if not addresses:
        findings.append(Finding("no_address", "warn", {}))
    else:
        chosen = addresses[min(index, len(addresses) - 1)]
        kind = address_kind(chosen.address)
        params = {"address": chosen.address, "port": port}
        error = reach_fn(chosen.address, port)
        if error is None:
            findings.append(Finding("reach_ok", "ok", params))
        else:
            findings.append(Finding("reach_failed", "warn", {**params, "detail": error}))
        level = "ok" if kind == "private" else "warn" if kind in ("link_local", "loopback") else "info"
        findings.append(Finding(f"address_{kind}" if kind != "invalid" else "address_public",
                                level, {"address": chosen.address}))
        if len(addresses) > 1:
            findings.append(Finding("several_addresses", "info",
                                    {"count": len(addresses), "address": chosen.address,
                                     "interface": chosen.interface or "?"}))
    tool, state = firewall if firewall is not None else firewall_state()
    if state == "on":
        findings.append(Finding("firewall_on", "warn", {"tool": tool, "port": port}))
    elif state == "off":
        findings.append(Finding("firewall_off", "ok", {"tool": tool}))
    else:
        findings.append(Finding("firewall_unknown", "info", {"tool": tool or "?"}))
    return Report(findings, after)
