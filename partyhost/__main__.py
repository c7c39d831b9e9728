"""Entry point: ``partyhost`` / ``python -m partyhost`` / ``make run``.

Only this module knows about eventlet, and it patches first, before Flask is imported
(``../shared/research/stack.md`` §2). Everything else is mode-neutral.
"""

from __future__ import annotations

import argparse
import os
import sys


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options. Environment variables give the defaults (PARTYHOST_PORT …)."""
    env = os.environ
    parser = argparse.ArgumentParser(
        prog="partyhost",
        description="Game-night host: shows a QR code on the TV; phones join over the LAN.",
    )
    parser.add_argument("--port", type=int, default=int(env.get("PARTYHOST_PORT", 8765)),
                        help="HTTP port (default 8765)")
    parser.add_argument("--bind", default=env.get("PARTYHOST_BIND", "0.0.0.0"),
                        help="address to listen on (default 0.0.0.0: every interface)")
    parser.add_argument("--host-ip", default=env.get("PARTYHOST_HOST_IP"),
                        help="address to put in the QR code (default: the best LAN address found)")
    parser.add_argument("--allow-host", action="append", metavar="NAME",
                        default=[n for n in env.get("PARTYHOST_ALLOW_HOST", "").split(",") if n],
                        help="a DNS name of this laptop that phones may use besides its addresses,"
                             " localhost and <hostname>.local (repeatable; other names are refused)")
    parser.add_argument("--lang", choices=["ja", "en"], default=env.get("PARTYHOST_LANG", "ja"),
                        help="default UI language (each phone can switch)")
    parser.add_argument("--data", default=env.get("PARTYHOST_DATA", "data"),
                        help="data folder for the party snapshot (default ./data)")
    parser.add_argument("--fresh", action="store_true",
                        help="start a new party instead of resuming the saved one")
    parser.add_argument("--async-mode", choices=["eventlet", "threading"],
                        default=env.get("PARTYHOST_ASYNC_MODE", env.get("GAME_ASYNC_MODE", "eventlet")),
                        help="server mode: eventlet (default) or threading (fallback)")
    parser.add_argument("--seed", type=int, default=None,
                        help="seed the shuffles (tests and demos)")
    rate = env.get("PARTYHOST_RATE_LIMIT")
    parser.add_argument("--rate-limit", type=float, default=float(rate) if rate else None,
                        help="messages per second each phone or TV page may send, after a burst "
                             "(default 10, see partyhost/limits.py; 0 turns the limit off, for "
                             "scripted play in tests and benchmarks)")
    parser.add_argument("--debug", action="store_true", help="log every message")
    parser.add_argument("--no-browser", action="store_true",
                        help="do not open the TV page in this laptop's browser")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    """Run the host until Ctrl+C."""
    args = parse_args(argv)
    if args.async_mode == "eventlet":
        import warnings

        warnings.filterwarnings("ignore", message=r"\s*Eventlet is deprecated")
        os.environ.setdefault("EVENTLET_NO_GREENDNS", "yes")
        import eventlet

        eventlet.monkey_patch()
    from .cli import serve

    serve(args)


if __name__ == "__main__":
    sys.exit(main())
