"""The TV's Wi-Fi card: a QR code that puts a phone on the night's network (issue 26).

For an offline night on the laptop's hotspot or a travel router, the TV can show a second QR
code next to the join code. Phones' cameras (iOS 11+, Android 10+) read the ``WIFI:`` format
(ZXing's de-facto standard, also what Android's "share Wi-Fi" writes) and offer to join::

    WIFI:T:WPA;S:<ssid>;P:<password>;;      (T:nopass and no P for an open network)

where ``\\ ; , : "`` in the SSID or password are escaped with a backslash.

Who may see the password: it is set by the host (the host menu, or ``--wifi-ssid`` with
``--wifi-password-file`` / ``PARTYHOST_WIFI_PASSWORD`` at start, never the command line, where
``ps`` shows it), and it only ever leaves the laptop as the QR drawing ``/wifi.svg`` fetched by
a *host* TV page (the laptop's own, or one opened with the host key). No state sent to any
phone or to a TV page without host powers holds it: they get the SSID and a version number at
most (:meth:`WifiCard.public`). The TV shows the password as the QR code only, never as text:
everyone in the room sees the TV (and photos of it), and the code is for the guests anyway.
It is not saved with the party.
"""

from __future__ import annotations

import os
import string
import threading

__all__ = ["escape", "payload", "WifiCard", "read_password"]

_SPECIAL = '\\;,:"'
_HEX = frozenset(string.hexdigits)


def escape(text: str) -> str:
    """Backslash-escape ``\\ ; , : "`` for a ``WIFI:`` field: ``a;b`` → ``a\\;b``."""
    return "".join("\\" + c if c in _SPECIAL else c for c in text)


def check(ssid: str, password: str) -> None:
    """Check an SSID and password as a WPA2/WPA3 personal network (or an open one) takes them.

    Args:
        ssid: 1–32 bytes in UTF-8, no control characters.
        password: empty (an open network), 8–63 printable ASCII characters, or 64 hex digits.
    Raises:
        ValueError: ``"wifi_ssid"`` or ``"wifi_password"`` (the refusal's code).
    """
    if not isinstance(ssid, str) or not 1 <= len(ssid.encode("utf-8")) <= 32 \
            or any(ord(c) < 32 or ord(c) == 127 for c in ssid):
        raise ValueError("wifi_ssid")
    if not isinstance(password, str):
        raise ValueError("wifi_password")
    if password == "":
        return
    if len(password) == 64 and set(password) <= _HEX:
        return
    if not 8 <= len(password) <= 63 or any(not 32 <= ord(c) <= 126 for c in password):
        raise ValueError("wifi_password")


def payload(ssid: str, password: str = "") -> str:
    """The ``WIFI:`` text of a network: ``WIFI:T:WPA;S:<ssid>;P:<password>;;``, or
    ``WIFI:T:nopass;S:<ssid>;;`` when ``password`` is empty.

    Raises:
        ValueError: as :func:`check`.
    """
    check(ssid, password)
    if not password:
        return f"WIFI:T:nopass;S:{escape(ssid)};;"
    return f"WIFI:T:WPA;S:{escape(ssid)};P:{escape(password)};;"


def read_password(path: str | None, environ: dict | None = None) -> str:
    """The password for ``--wifi-ssid``: the first line of ``path`` (its line end dropped), else
    the ``PARTYHOST_WIFI_PASSWORD`` environment variable, else ``""`` (an open network).

    Raises:
        OSError: ``path`` cannot be read.
    """
    if path:
        with open(path, encoding="utf-8") as handle:
            return handle.readline().rstrip("\r\n")
    return (environ if environ is not None else os.environ).get("PARTYHOST_WIFI_PASSWORD", "")


class WifiCard:
    """The night's Wi-Fi network for the TV's QR code; empty until set. Thread-safe.

    Attributes:
        version: goes up with every change (the TV fetches ``/wifi.svg?v=<version>`` anew).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._ssid = ""
        self._password = ""
        self.version = 0

    def set(self, ssid: str, password: str = "") -> None:
        """Show this network (an empty ``ssid`` clears the card).

        Raises:
            ValueError: ``"wifi_ssid"`` / ``"wifi_password"`` (:func:`check`); nothing changes.
        """
        if ssid != "":
            check(ssid, password)
        with self._lock:
            self._ssid, self._password = (ssid, password) if ssid else ("", "")
            self.version += 1

    def payload(self) -> str | None:
        """The ``WIFI:`` text, or None when no network is set."""
        with self._lock:
            return payload(self._ssid, self._password) if self._ssid else None

    def public(self) -> dict | None:
        """What a host TV page's state carries: ``{"ssid", "open", "v"}``, or None when empty.
        Never the password."""
        with self._lock:
            if not self._ssid:
                return None
            return {"ssid": self._ssid, "open": not self._password, "v": self.version}
