"""The host command's body: find the join address, print the QR, open the TV, serve.

Imported by :mod:`partyhost.__main__` after the async mode is settled.
"""

from __future__ import annotations

import argparse
import gc
import ipaddress
import logging
import sqlite3
import sys
import threading
import webbrowser

from . import qr
from .netaddr import Candidate, discover, join_url
from .server import create_app, start_engine
from .serving import listen, serve as serve_http
from .store import SnapshotError, Store, StoreBusy

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
        "BIND": args.bind,
        "ALLOWED_HOSTS": list(getattr(args, "allow_host", None) or []),
    })


def open_store(args: argparse.Namespace) -> Store:
    """Open and lock the data folder ``args.data``; with ``args.fresh``, forget the saved party
    and make a new host key (the old ``?key=`` TV URL stops giving host powers).

    A damaged file is renamed aside by :class:`Store` (``store.damaged`` says where), so this
    starts whatever the old file holds.
    Raises:
        SystemExit: another host uses the folder, or the folder cannot be created or written
            (a bilingual message for the terminal).
    """
    try:
        store = Store(args.data)
    except StoreBusy as busy:
        who = f"(pid {busy.pid})" if busy.pid else ""
        raise SystemExit(
            f"このデータフォルダ {args.data} は別の partyhost{who} が使っています。"
            "先にそちらを終了するか、--data で別のフォルダを指定してください"
            f" / the data folder {args.data} is in use by another partyhost {who}: stop that one"
            " first, or give another folder with --data") from None
    except (OSError, sqlite3.Error) as error:
        raise SystemExit(
            f"データフォルダ {args.data} を使えません({error})。書き込めるフォルダを --data で指定してください"
            f" / cannot use the data folder {args.data} ({error}): give a writable folder with --data"
        ) from None
    if args.fresh:
        store.clear()
        store.rotate_host_key()
    return store


def _keep_aside(store: Store) -> str:
    """Copy the data file aside before anything overwrites it; refuse to start when even that
    fails (a full disk): the file stays as it was, nothing is lost."""
    try:
        return store.keep_aside()
    except (OSError, sqlite3.Error) as error:
        raise SystemExit(
            f"保存されたパーティーを読めず、その控えも作れませんでした({error})。空きを作ってからもう一度起動してください"
            f" (ファイルはそのままです) / the saved party could not be read, and a copy of it could not be"
            f" made ({error}): make room and start again (the file is left as it was)") from None


def restore(args: argparse.Namespace, addresses: list[Candidate], store: Store):
    """Build the app, resuming the party saved in ``store`` when it can be resumed.

    Whatever the saved file holds, this starts: a damaged file or an unreadable snapshot starts
    a new party; a game that cannot be restored is dropped and the party (seats, names, tokens,
    host, room) goes back to the lobby. In each case the old file is kept aside (renamed or
    copied next to it with a timestamp) and the returned notes say so.

    Returns:
        ``(app, socketio, engine, notes)``: ``notes`` are bilingual lines for the terminal.
    """
    notes: list[str] = []
    lost = False
    if store.damaged:
        notes.append(f"データファイルが壊れていたので、新しいパーティーを始めます。壊れたファイルは"
                     f" {store.damaged['aside']} に残しました / the data file was damaged"
                     f" ({store.damaged['detail']}); a new party starts. The damaged file is kept"
                     f" as {store.damaged['aside']}")
        lost = not args.fresh
    saved = None
    if not args.fresh:
        try:
            saved = store.load()
        except SnapshotError as error:
            aside = _keep_aside(store)
            notes.append(f"保存されたパーティーを読めなかったので、新しいパーティーを始めます。元のファイルは"
                         f" {aside} に残しました / the saved party could not be read ({error});"
                         f" a new party starts. The file is kept as {aside}")
            lost = True
    try:
        app, socketio, engine = _build(args, addresses, store, saved)
    except Exception as error:
        if not saved:
            raise
        log.debug("restore failed", exc_info=True)
        aside = _keep_aside(store)
        notes.append(f"保存されたパーティーを再開できなかったので、新しいパーティーを始めます。元のファイルは"
                     f" {aside} に残しました / the saved party could not be resumed ({error});"
                     f" a new party starts. The file is kept as {aside}")
        lost = True
        app, socketio, engine = _build(args, addresses, store, None)
    else:
        if engine.restore_problems:
            aside = _keep_aside(store)
            dropped = (engine.party.ended or {}).get("reason") == "restore_failed"
            head = ("前回のゲームは復元できなかったので、ロビーに戻りました。参加者はそのままです"
                    " / the last game could not be restored, so the party is back in the lobby with"
                    " every seat kept" if dropped else
                    "保存されたパーティーの一部を直して再開しました / resumed the saved party after repairs")
            notes.append(f"{head}: {'; '.join(engine.restore_problems)}."
                         f" 元のファイルは {aside} に残しました / the file as it was is kept as {aside}")
    if lost:
        engine.alert("party_lost")
    return app, socketio, engine, notes


def keep_out_of_collections() -> int:
    """Move every object the start made (word lists and their indexes, catalogues, the restored
    party) to the garbage collector's permanent generation (:func:`gc.freeze`), where no later
    collection walks it. They live until the host stops anyway; walking their large sets and dicts
    made the first collections after start-up stop the loop for ~40–60 ms each (a full collection
    later would again), on the first actions of the night (issue 18, sixth pass; measured in
    ``docs/performance.md``). Nothing is collected first: a collection here would cost start-up
    ~0.1 s for the few cycles left from loading. Returns the number of objects frozen."""
    gc.freeze()
    return gc.get_freeze_count()


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
    store = open_store(args)
    app, socketio, engine, notes = restore(args, addresses, store)
    join = engine.join_url()
    local_tv = f"http://127.0.0.1:{args.port}/tv"
    key_tv = join_url(addresses[0].url_host, args.port, "/tv") + f"?key={app.config['HOST_KEY']}" \
        if addresses else local_tv
    sys.stdout.write(banner(join, local_tv, [c.url_host for c in addresses[1:]]))
    if not args.fresh and engine.party.seats:
        sys.stdout.write("  前回のパーティーを再開しました(新しく始めるには --fresh)"
                         " / resumed the last party (--fresh starts a new one)\n")
    for note in notes:
        sys.stdout.write(f"  ⚠ {note}\n")
    sys.stdout.write(f"  別の画面をテレビにするとき / TV on another device: {key_tv}\n\n")
    sys.stdout.flush()
    keep_out_of_collections()
    start_engine(socketio, engine)
    if not args.no_browser:
        threading.Timer(1.0, lambda: webbrowser.open(local_tv)).start()
    try:
        serve_http(app, listener, args.async_mode)
    except KeyboardInterrupt:
        pass
    finally:
        engine.stop()
