"""Entry point: ``partyhost`` / ``python -m partyhost`` / ``make run``.

Only this module knows about eventlet, and it patches first, before Flask is imported
(``../shared/research/stack.md`` §2). Everything else is mode-neutral.

eventlet is the default mode. When it was not asked for by name (no ``--async-mode``, no
``PARTYHOST_ASYNC_MODE``) and it cannot be imported or cannot patch (a Python it does not
support yet, a broken install), the host starts in threading mode and says so in one line;
asked for by name, it stops with that reason instead (a test or a benchmark must not measure
the other mode by accident).
"""

from __future__ import annotations

import argparse
import os
import sys

DEFAULT_PORT = 8765
"""The HTTP port when neither ``--port`` nor ``PARTYHOST_PORT`` gives one (the same as
:data:`partyhost.server.DEFAULT_PORT`, kept here so ``--help`` needs no Flask import)."""


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors: ``partyhost: error: …`` and exit status 2, without the
    usage block (``partyhost --help`` shows it)."""

    def error(self, message: str):  # noqa: D102 - argparse hook
        self.exit(2, f"{self.prog}: error: {message} (partyhost --help lists the options)\n")


def port_number(text: str) -> int:
    """``--port`` / ``PARTYHOST_PORT``: a TCP port, 1–65535.

    Raises:
        argparse.ArgumentTypeError: not a whole number, or outside 1–65535 (argparse turns it
            into a one-line error and exit status 2).
    """
    try:
        port = int(str(text).strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"ポート番号は 1〜65535 の数です(既定 {DEFAULT_PORT}) / {text!r} is not"
                                         " a port number (1–65535)") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"ポート番号は 1〜65535 の数です(既定 {DEFAULT_PORT}) / {port} is not a"
                                         f" port number: use 1–65535 (default {DEFAULT_PORT})")
    return port


def _at_least_zero(ja: str, en: str):
    """An argparse ``type`` for a number 0 or more (``--doctor-after`` in seconds, ``--rate-limit``
    in messages per second, and their ``PARTYHOST_*`` variables). ``ja`` / ``en`` name what the
    number counts in the one-line error (Japanese first), which a bad value in the environment
    gets as well, not a traceback. NaN and infinity are refused."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{ja}を数字で指定してください / {text!r} is not a number of {en}") from None
        if not 0 <= value < float("inf"):  # also refuses NaN
            raise argparse.ArgumentTypeError(f"{ja}は 0 以上の数です / {text!r} is not a number of {en} (0 or more)")
        return value

    return parse


_seconds = _at_least_zero("秒数", "seconds")
_rate = _at_least_zero("1秒あたりのメッセージ数", "messages per second")


def version() -> str:
    """The installed distribution's version (package metadata), or the source tree's
    :data:`partyhost.__version__` when it runs from a checkout that was never installed."""
    from importlib.metadata import PackageNotFoundError, version as dist_version

    try:
        return dist_version("partyhost")
    except PackageNotFoundError:
        from . import __version__

        return __version__


class _Version(argparse.Action):
    """``--version``: print ``partyhost <version>`` and exit 0. The package metadata is read
    only when asked (reading it costs ~20 ms of every start otherwise)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest=dest, default=default, nargs=0,
                         help=help or "show the version and exit")

    def __call__(self, parser, namespace, values, option_string=None):  # noqa: D102
        sys.stdout.write(f"partyhost {version()}\n")
        parser.exit(0)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options. Environment variables give the defaults (PARTYHOST_PORT …).

    ``args.data`` is None when neither ``--data`` nor ``PARTYHOST_DATA`` names a folder:
    :func:`partyhost.cli.data_folder` then picks the user's data folder.
    ``args.async_mode`` is ``"eventlet"`` or ``"threading"``; ``args.async_mode_asked`` says
    whether it was given by name (option or environment) rather than by default.
    """
    env = os.environ
    parser = _Parser(
        prog="partyhost",
        description="Game-night host: shows a QR code on the TV; phones join over the LAN.",
    )
    parser.add_argument("--version", action=_Version)
    parser.add_argument("--port", type=port_number, default=env.get("PARTYHOST_PORT", str(DEFAULT_PORT)),
                        help=f"HTTP port, 1–65535 (default {DEFAULT_PORT})")
    parser.add_argument("--bind", default=env.get("PARTYHOST_BIND", "0.0.0.0"),
                        help="address of this laptop to listen on (default 0.0.0.0: every interface)")
    parser.add_argument("--host-ip", default=env.get("PARTYHOST_HOST_IP"),
                        help="address to put in the QR code (default: the best LAN address found)")
    parser.add_argument("--allow-host", action="append", metavar="NAME",
                        default=[n for n in env.get("PARTYHOST_ALLOW_HOST", "").split(",") if n],
                        help="a DNS name of this laptop that phones may use besides its addresses,"
                             " localhost and <hostname>.local (repeatable; other names are refused)")
    parser.add_argument("--lang", choices=["ja", "en"], default=env.get("PARTYHOST_LANG", "ja"),
                        help="default UI language (each phone can switch)")
    parser.add_argument("--data", default=env.get("PARTYHOST_DATA") or None,
                        help="data folder for the party snapshot (default: this user's data folder,"
                             " e.g. ~/.local/share/partyhost, ~/Library/Application Support/partyhost,"
                             " %%LOCALAPPDATA%%\\partyhost)")
    parser.add_argument("--fresh", action="store_true",
                        help="start a new party instead of resuming the saved one")
    asked = env.get("PARTYHOST_ASYNC_MODE", env.get("GAME_ASYNC_MODE")) or None
    parser.add_argument("--async-mode", choices=["eventlet", "threading"], default=asked,
                        help="server mode: eventlet (default) or threading. When eventlet is the"
                             " default and cannot be imported or patch this Python, the host starts"
                             " in threading mode and says so; --async-mode eventlet stops instead")
    parser.add_argument("--seed", type=int, default=None,
                        help="seed the shuffles (tests and demos)")
    parser.add_argument("--rate-limit", type=_rate, default=env.get("PARTYHOST_RATE_LIMIT") or None,
                        help="messages per second each phone or TV page may send, after a burst "
                             "(default 10, see partyhost/limits.py; 0 turns the limit off, for "
                             "scripted play in tests and benchmarks)")
    parser.add_argument("--doctor-after", type=_seconds, default=env.get("PARTYHOST_DOCTOR_AFTER") or "45",
                        metavar="SECONDS",
                        help="seconds after the QR code shows with nobody joined before the TV lists"
                             " why phones may not connect (default 45; 0 turns it off)")
    parser.add_argument("--wifi-ssid", default=env.get("PARTYHOST_WIFI_SSID"),
                        help="show a Wi-Fi QR code on the TV for this network (the laptop's hotspot"
                             " or a travel router)")
    parser.add_argument("--wifi-password-file", default=env.get("PARTYHOST_WIFI_PASSWORD_FILE"),
                        metavar="PATH",
                        help="file holding that network's password (first line); or set"
                             " PARTYHOST_WIFI_PASSWORD. Never on the command line, where ps shows it")
    parser.add_argument("--debug", action="store_true", help="log every message")
    parser.add_argument("--no-browser", action="store_true",
                        help="do not open the TV page in this laptop's browser")
    args = parser.parse_args(argv)
    args.async_mode_asked = args.async_mode is not None
    args.async_mode = args.async_mode or "eventlet"
    return args


def _patch_eventlet() -> None:
    """Import eventlet and monkey-patch the standard library (before Flask is imported).

    Raises:
        Exception: whatever eventlet raises when it cannot be imported or cannot patch.
    """
    import warnings

    warnings.filterwarnings("ignore", message=r"\s*Eventlet is deprecated")
    os.environ.setdefault("EVENTLET_NO_GREENDNS", "yes")
    import eventlet

    eventlet.monkey_patch()


def _half_patched() -> bool:
    """True when a failed ``monkey_patch()`` had already patched part of the standard library:
    threading mode cannot run on green sockets without eventlet's hub, so the host stops."""
    patcher = sys.modules.get("eventlet.patcher")
    check = getattr(patcher, "is_monkey_patched", None)
    if check is None:
        return False
    try:
        return any(check(name) for name in ("socket", "select", "thread", "time", "os"))
    except Exception:  # noqa: BLE001 - a broken eventlet: assume the worst
        return True


def settle_async_mode(args: argparse.Namespace) -> str | None:
    """Patch for eventlet mode, or fall back to threading mode (see the module docstring).

    Returns:
        None, or the bilingual line that says the host fell back to threading mode (the
        terminal shows it with the banner). Changes ``args.async_mode`` to ``"threading"``
        when it falls back.
    Raises:
        SystemExit: eventlet was asked for by name and cannot be used.
    """
    if args.async_mode != "eventlet":
        return None
    try:
        _patch_eventlet()
    except Exception as error:  # noqa: BLE001 - any failure of the import or the patch
        reason = f"{type(error).__name__}: {error}"
        if args.async_mode_asked or _half_patched():
            raise SystemExit(f"eventlet を使えません({reason})。--async-mode threading で起動できます"
                             f" / eventlet cannot be used ({reason}): --async-mode threading starts"
                             " without it") from None
        args.async_mode = "threading"
        return (f"eventlet を使えないので threading モードで起動します({reason})"
                f" / eventlet is unavailable ({reason}): starting in threading mode")
    return None


def main(argv: list[str] | None = None) -> None:
    """Run the host until Ctrl+C."""
    from .pipesafe import guard_console, tolerant_console

    guard_console()  # a reader that closes the terminal pipe never stops the host (pipesafe.py)
    tolerant_console()  # before argparse prints --help or an error on a cp932/cp1252 console
    args = parse_args(argv)
    args.async_note = settle_async_mode(args)
    from .cli import serve

    serve(args)


if __name__ == "__main__":
    sys.exit(main())
