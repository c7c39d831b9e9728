"""The host command's body: find the join address, print the QR, open the TV, serve.

Imported by :mod:`partyhost.__main__` after the async mode is settled.
"""

from __future__ import annotations

import argparse
import errno
import gc
import ipaddress
import logging
import os
import sqlite3
import sys
import threading
import webbrowser

from . import doctor, i18n, qr, wifi
from .netaddr import Candidate, discover, join_url
from .server import create_app, start_engine
from .serving import listen, serve as serve_http
from .pipesafe import tolerant_console
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
            raise SystemExit(f"--bind には IP アドレス(例 192.168.1.20)を指定してください / --bind must be"
                             f" an IP address (e.g. 192.168.1.20), not {bind!r}") from None
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
        raise SystemExit(f"--host-ip には IP アドレス(例 192.168.1.20)を指定してください / --host-ip must be"
                             f" an IP address (e.g. 192.168.1.20), not {host_ip!r}") from None
    mine = Candidate(address=str(ip), interface="--host-ip", family=ip.version,
                     default_route=False, virtual=False)
    return [mine] + [c for c in found if c.address != mine.address]


APP_NAME = "partyhost"
"""The data folder's name inside the user's data place (:func:`default_data`)."""

QR_GLYPHS = "▀▄█"
"""The characters :func:`partyhost.qr.ascii` draws with."""


def default_data() -> str:
    """This user's data folder for partyhost, from :mod:`platformdirs` (not created here):
    ``~/.local/share/partyhost`` (or ``$XDG_DATA_HOME/partyhost``) on Linux,
    ``~/Library/Application Support/partyhost`` on macOS, ``%LOCALAPPDATA%\\partyhost`` on
    Windows (local, not roaming: the snapshot belongs to this laptop)."""
    import platformdirs

    return platformdirs.user_data_dir(APP_NAME, appauthor=False, roaming=False)


def data_folder(args: argparse.Namespace) -> str:
    """The data folder to use: ``--data`` / ``PARTYHOST_DATA`` (``~`` expanded) when given,
    else :func:`default_data`. Also stores it in ``args.data``."""
    if not getattr(args, "data", None):
        args.data = default_data()
    else:
        args.data = os.path.expanduser(str(args.data))
    return args.data


def can_print(text: str, stream=None) -> bool:
    """True when ``stream`` (default ``sys.stdout``) can encode ``text`` (a console with a
    legacy code page such as cp932 or cp1252 cannot encode the QR's half blocks)."""
    encoding = getattr(stream or sys.stdout, "encoding", None) or "ascii"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def firewall_hint(platform: str | None = None) -> str | None:
    """What to click when the system's firewall asks about partyhost at the first start
    (phones cannot join until incoming connections are allowed), or None on systems that
    do not ask (Linux).

    Args:
        platform: a ``sys.platform`` value; None means this one.
    """
    platform = sys.platform if platform is None else platform
    if platform.startswith("win"):
        return ("Windows セキュリティの「Windows Defender ファイアウォール」の画面が出たら、"
                "「プライベート ネットワーク」にチェックを入れて「アクセスを許可する」を押してください"
                "(Wi-Fi がパブリックのときはプライベートに変えてください)"
                " / if Windows Defender Firewall asks, tick \"Private networks\" and click"
                " \"Allow access\" (and set this Wi-Fi to Private if it is Public)")
    if platform == "darwin":
        return ("「受信ネットワーク接続を受け入れますか?」と聞かれたら「許可」を押してください"
                " / if macOS asks whether Python may accept incoming network connections,"
                " click \"Allow\"")
    return None


ADDRESS_IN_USE = frozenset({errno.EADDRINUSE, 10048})
"""Bind errors meaning "another program listens on this port" (10048: Windows'
WSAEADDRINUSE, which the socket module reports on Windows)."""

ADDRESS_NOT_HERE = frozenset({errno.EADDRNOTAVAIL, 10049})
"""Bind errors meaning "this laptop has no such address" (10049: WSAEADDRNOTAVAIL)."""

ACCESS_DENIED = frozenset({errno.EACCES, 10013})
"""Bind errors meaning "not allowed": a port below 1024 without administrator rights, or a
port Windows keeps for itself (10013: WSAEACCES, Hyper-V's excluded port ranges)."""


def _codes(error: OSError) -> set:
    return {error.errno, getattr(error, "winerror", None)} - {None}


def listen_failure(error: OSError, bind: str, port: int, addresses: list[str] | None = None) -> str:
    """The bilingual one-line message for a listening socket that could not be bound.

    Args:
        error: what ``bind`` raised.
        bind: the ``--bind`` address; port: the ``--port``.
        addresses: this laptop's addresses to suggest when ``bind`` is not one of them
            (None: found with :func:`partyhost.netaddr.discover`).
    """
    where = f"{bind}:{port}"
    codes = _codes(error)
    if codes & ADDRESS_IN_USE:
        return (f"ポート {port} は使用中です(別の partyhost が動いていませんか?)。そちらを終了するか、"
                f"--port で別の番号を指定してください / cannot listen on {where}: the port is in use"
                f" ({error}). Is another partyhost running? Stop it, or try another --port")
    if codes & ADDRESS_NOT_HERE:
        if addresses is None:
            addresses = ["127.0.0.1", *(c.address for c in discover())]
        mine = ", ".join(dict.fromkeys(addresses)) or "127.0.0.1"
        return (f"{bind} はこのパソコンのアドレスではありません。--bind を付けずに起動するか"
                f"(すべてのアドレスで待ち受けます)、このパソコンのアドレス({mine})を指定してください"
                f" / cannot listen on {where}: {bind} is not an address of this laptop ({error})."
                f" Leave --bind out to listen on every address, or give one of this laptop's: {mine}")
    if codes & ACCESS_DENIED:
        return (f"ポート {port} で待ち受ける権限がありません。--port を付けずに(既定の番号で)起動するか、"
                f"1024 以上の別の番号を指定してください / cannot listen on {where}: not allowed"
                f" ({error}). Leave --port out, or use another port of 1024 or more")
    return (f"{where} で待ち受けられません({error})。--bind と --port を確かめてください"
            f" / cannot listen on {where}: {error}. Check --bind and --port")


def foreign_host_ip(host_ip: str | None, found: list[Candidate] | None = None) -> str | None:
    """A bilingual warning when ``--host-ip`` is none of this laptop's addresses: the QR code then
    sends phones to another machine (``--host 10.9.9.9`` is argparse's abbreviation of
    ``--host-ip``). None when it is one of them, a loopback address, not given or not an IP
    address (:func:`candidates` refuses that).

    Args:
        host_ip: the ``--host-ip`` value.
        found: this laptop's addresses; None finds them (:func:`partyhost.netaddr.discover`).
    """
    try:
        given = ipaddress.ip_address((host_ip or "").strip("[]"))
    except ValueError:
        return None
    mine = [c.address for c in (discover() if found is None else found)]
    if str(given) in mine or given.is_loopback:
        return None
    listed = ", ".join(mine) or "127.0.0.1"
    return (f"--host-ip {given} はこのパソコンのアドレスではないので、QR コードからつながらないかもしれません。"
            f"このパソコンのアドレス: {listed} / --host-ip {given} is not an address of this laptop:"
            f" phones may not reach it through the QR code. This laptop's addresses: {listed}")


def banner(join: str, tv: str, others: list[str], *, console_qr: bool = True) -> str:
    """The terminal text: join URL, an ASCII QR code and the TV URL.

    With ``console_qr=False`` (a console whose encoding has no half blocks, see
    :func:`can_print`) a line says the QR code is on the TV page instead of the drawing.
    """
    lines = [
        "",
        "  partyhost — スマホでQRコードを読み取って参加 / scan to join",
        "",
        qr.ascii(join) if console_qr else
        "  (このコンソールでは QR コードを表示できません。テレビの画面の QR コードを使ってください"
        " / this console cannot draw the QR code: scan the one on the TV page)\n",
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
    data_folder(args)
    if os.path.exists(args.data) and not os.path.isdir(args.data):
        parent = os.path.dirname(os.path.abspath(args.data))
        raise SystemExit(
            f"{args.data} はフォルダではなくファイルです。--data にはフォルダを指定してください(例: {parent})"
            f" / {args.data} is a file, not a folder: give --data a folder (e.g. {parent})")
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


def open_tv(url: str) -> bool:
    """Open the TV page in this laptop's default browser (:mod:`webbrowser`: the default
    browser on Windows and macOS, ``xdg-open``/``$BROWSER`` on Linux). When none can be
    started, say where to open it instead. Returns whether a browser was started."""
    try:
        opened = webbrowser.open(url)
    except Exception:  # noqa: BLE001 - webbrowser.Error, an OSError from a broken launcher
        opened = False
    if not opened:
        sys.stdout.write(f"  ブラウザーを開けませんでした。テレビのページを開いてください"
                         f" / no browser could be opened: open the TV page at {url}\n")
        sys.stdout.flush()
    return opened


def serve(args: argparse.Namespace) -> None:
    """Build the app for ``args`` and serve until interrupted."""
    tolerant_console()  # already done by __main__.main; again for a caller of serve() alone
    logging.basicConfig(level=logging.DEBUG if args.debug else logging.INFO, format="%(asctime)s %(name)s %(message)s")
    for noisy in ("werkzeug", "engineio", "socketio", "geventwebsocket"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    addresses = candidates(args.host_ip, args.bind)
    try:
        listener = listen(args.bind, args.port, args.async_mode)
    except OSError as error:
        raise SystemExit(listen_failure(error, args.bind, args.port)) from None
    defaulted = not args.data
    store = open_store(args)
    app, socketio, engine, notes = restore(args, addresses, store)
    absent = foreign_host_ip(args.host_ip) if args.host_ip and args.bind in ("0.0.0.0", "::", "") else None
    if absent:
        notes.append(absent)
    if args.host_ip and args.bind in ("0.0.0.0", "") and ":" in args.host_ip:
        notes.append(f"IPv6 のアドレス {args.host_ip} を QR コードに入れるには --bind :: も付けてください"
                     f"(いまは IPv4 だけで待ち受けています) / the host listens on IPv4 only (--bind"
                     f" {args.bind or '0.0.0.0'}), so phones cannot reach the QR code's IPv6 address"
                     f" {args.host_ip}: add --bind :: to listen on IPv6 as well")
    old = os.path.join("data", "party.sqlite3")  # where versions before issue 25 kept it
    if defaulted and os.path.isfile(old) and os.path.realpath(old) != os.path.realpath(store.path):
        notes.append(f"以前の版が ./data に保存したパーティーは使っていません。再開するには --data data"
                     f" / the party an older version saved in ./data is not used: --data data resumes it")
    if getattr(args, "wifi_ssid", None):
        try:
            app.extensions["partyhost_wifi"].set(args.wifi_ssid, wifi.read_password(args.wifi_password_file))
        except OSError as error:
            raise SystemExit(f"Wi-Fiのパスワードのファイルを読めません({error}) / cannot read the Wi-Fi"
                             f" password file ({error})") from None
        except ValueError:
            raise SystemExit("Wi-Fiの名前(1〜32バイト)かパスワード(8〜63文字)が正しくありません / the Wi-Fi"
                             " name (1-32 bytes) or password (8-63 characters) is not valid") from None
    join = engine.join_url()
    after = max(0.0, float(getattr(args, "doctor_after", doctor.DEFAULT_AFTER)))
    firewall = doctor.firewall_state()  # once: the commands take up to 2 s each
    reports = [doctor.diagnose(addresses, i, args.port, after=after, firewall=firewall)
               for i in range(max(1, len(addresses)))]  # each address the picker may choose
    report = reports[min(engine.party.address_index, len(reports) - 1)]
    engine.doctor = [r.view() for r in reports]
    local_tv = f"http://127.0.0.1:{args.port}/tv"
    key_tv = join_url(addresses[0].url_host, args.port, "/tv") + f"?key={app.config['HOST_KEY']}" \
        if addresses else local_tv
    sys.stdout.write(banner(join, local_tv, [c.url_host for c in addresses[1:]],
                            console_qr=can_print(QR_GLYPHS)))
    for line in (getattr(args, "async_note", None), firewall_hint()):
        if line:
            sys.stdout.write(f"  ⚠ {line}\n")
    if not args.fresh and engine.party.seats:
        sys.stdout.write("  前回のパーティーを再開しました(新しく始めるには --fresh)"
                         " / resumed the last party (--fresh starts a new one)\n")
    for note in notes:
        sys.stdout.write(f"  ⚠ {note}\n")
    sys.stdout.write("  接続の確認 / connection checks:\n")
    catalogues = {lang: i18n.catalogue(lang) for lang in i18n.LANGS}
    for line in report.terminal_lines(catalogues):
        sys.stdout.write(f"    {line}\n")
    if getattr(args, "wifi_ssid", None):
        sys.stdout.write(f"  テレビにWi-FiのQRコードを表示します / the TV shows a Wi-Fi QR code: {args.wifi_ssid}\n")
    sys.stdout.write(f"  別の画面をテレビにするとき / TV on another device: {key_tv}\n")
    sys.stdout.write(f"  データ / data: {args.data}\n\n")
    sys.stdout.flush()
    keep_out_of_collections()
    start_engine(socketio, engine)
    if not args.no_browser:
        threading.Timer(1.0, open_tv, (local_tv,)).start()
    try:
        serve_http(app, listener, args.async_mode)
    except KeyboardInterrupt:
        pass
    finally:
        engine.stop()
