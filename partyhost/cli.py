"""The host command's body: find the join address, print the QR, open the TV, serve.

Imported by :mod:`partyhost.__main__` after the async mode is settled.
"""

from __future__ import annotations

import argparse
import ipaddress
import logging
import sys
import threading
import webbrowser

from . import qr
from .netaddr import Candidate, discover, join_url
from .server import create_app, start_engine
from .serving import listen, serve as serve_http
from .store import Store

log = logging.getLogger("partyhost")


def candidates(host_ip: str | None, bind: str = "0.0.0.0") -> list[Candidate]:
    """Ranked join addresses; ``host_ip`` (from ``--host-ip``) goes first when given.

    When the server listens on one address only (``--bind``), that address is the only one
    phones can reach, so it is the only candidate.
    Raises:
        SystemExit: ``host_ip`` is not an IP address literal (names are not resolved: the QR
            must work without DNS).
    """
    if bind not in ("0.0.0.0", "::", ""):
        try:
            ip = ipaddress.ip_address(bind.strip("[]"))
        except ValueError:
            raise SystemExit(f"--bind must be an IP address, not {bind!r}") from None
        return [Candidate(address=str(ip), interface="--bind", family=ip.version,
                          default_route=False, virtual=False)]
    found = discover()
    if bind != "::":
        # 0.0.0.0 listens on IPv4 only: an IPv6 address in the QR could never answer
        found = [c for c in found if c.family == 4]
    if not host_ip:
        return found
    try:
        ip = ipaddress.ip_address(host_ip.strip("[]"))
    except ValueError:
        raise SystemExit(f"--host-ip must be an IP address, not {host_ip!r}") from None
    mine = Candidate(address=str(ip), interface="--host-ip", family=ip.version,
                     default_route=False, virtual=False)
    return [mine] + [c for c in found if c.address != mine.address]


def banner(join: str, tv: str, others: list[str]) -> str:
    """The terminal text: join URL, an ASCII QR code and the TV URL."""
    lines = [
        "",
        "  partyhost — スマホでQRコードを読み取って参加 / scan to join",
        "",
        qr.ascii(join),
        f"  参加 / Join:  {join}",
        f"  テレビ / TV:  {tv}",
    ]
    if others:
        lines.append("  他のアドレス / other addresses: " + ", ".join(others))
    lines.append("  終了は Ctrl+C / Ctrl+C to stop")
    return "\n".join(lines) + "\n"


def _build(args: argparse.Namespace, addresses: list[Candidate], store: Store, saved: dict | None):
    limits = {} if args.rate_limit is None else {"RATE_PER_SECOND": args.rate_limit}
    return create_app({
        **limits,
        "ASYNC_MODE": args.async_mode,
        "SEED": args.seed,
        "PORT": args.port,
        "ADDRESSES": addresses,
        "LANG": args.lang,
        "STORE": store,
        "SNAPSHOT": saved,
        "HOST_KEY": store.host_key(),
    })


def serve(args: argparse.Namespace) -> None:
    """Build the app for ``args`` and serve until interrupted."""
    logging.basicConfig(level=logging.DEBUG if args.debug else logging.INFO, format="%(asctime)s %(name)s %(message)s")
    for noisy in ("werkzeug", "engineio", "socketio", "geventwebsocket"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    addresses = candidates(args.host_ip, args.bind)
    try:
        listener = listen(args.bind, args.port, args.async_mode)
    except OSError as error:
        raise SystemExit(f"cannot listen on {args.bind}:{args.port}: {error} "
                         f"(is another partyhost running? try --port)") from None
    store = Store(args.data)
    saved = None if args.fresh else store.load()
    if args.fresh:
        store.clear()
    try:
        app, socketio, engine = _build(args, addresses, store, saved)
    except Exception:
        if not saved:
            raise
        log.exception("the saved party could not be read; starting a new one")
        app, socketio, engine = _build(args, addresses, store, None)
    join = engine.join_url()
    local_tv = f"http://127.0.0.1:{args.port}/tv"
    key_tv = join_url(addresses[0].url_host, args.port, "/tv") + f"?key={app.config['HOST_KEY']}" \
        if addresses else local_tv
    sys.stdout.write(banner(join, local_tv, [c.url_host for c in addresses[1:]]))
    if saved and engine.party.seats:
        sys.stdout.write("  前回のパーティーを再開しました(新しく始めるには --fresh)"
                         " / resumed the last party (--fresh starts a new one)\n")
    sys.stdout.write(f"  別の画面をテレビにするとき / TV on another device: {key_tv}\n\n")
    sys.stdout.flush()
    start_engine(socketio, engine)
    if not args.no_browser:
        threading.Timer(1.0, lambda: webbrowser.open(local_tv)).start()
    try:
        serve_http(app, listener, args.async_mode)
    except KeyboardInterrupt:
        pass
    finally:
        engine.stop()
