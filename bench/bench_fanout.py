#!/usr/bin/env python3
"""Benchmark: server CPU per action as the number of screens grows, with browser-like clients.

Real browsers open the Socket.IO WebSocket with ``permessage-deflate`` (Chromium offers it on
every WebSocket), so the server compresses every frame it writes; python-socketio's own client
(websocket-client) never offers it, so ``bench_mind.py`` does not measure that cost. Here every
client is a small Socket.IO client on wsproto that offers ``permessage-deflate`` as Chromium does
(the bench checks that the server accepted it).

The table is The Mind's closed loop of ``bench_mind.py`` (one action in flight; an action counts
when every socket has the state that includes it): 1 TV page + 4 playing phones + N-5 phones that
joined after the game began (spectators; they rotate into play on restarts, as at a real party).
N = 5 + spectators. Server CPU comes from ``/proc/<pid>/stat``.

Servers, measured alternately in blocks in one run so that only ratios count on a noisy machine:

* ``--server NAME=DIR`` (repeatable): ``python -m partyhost`` run from source folder DIR
  (default: this checkout, named ``partyhost``). Pass an older checkout to compare before/after.
* ``floor``: ``bench/floor_server.py``, bare Flask-SocketIO + eventlet that does no game work and
  sends each socket prepared states (``socketio.emit`` per socket): the *replay* floor. Action k
  sends the k-th of the (up to 400 latest) states the TV page received in the first partyhost run
  at that N, in order, so consecutive frames change as a real table's do and permessage-deflate
  does the same work as for partyhost's states.
* ``floor-const``: the same server sending one constant state (the TV state of that run whose
  size is closest to the mean), issue 18's first floor. A repeated state deflates to ~35 B a
  frame (context takeover) where real, changing states take ~77 B, so this floor does less work
  than any real table; it stays for comparison with earlier runs. ``--floors`` picks the floors
  (default both), ``--no-floor`` skips them.

For each N and server it prints one line (medians over blocks; ``ratio`` = x / replay floor,
``ratio_const`` = x / constant floor)::

    N=<n> cpu_ms_per_action=<x> floor_cpu_ms_per_action=<y> ratio=<x/y> p50_ms=<a> p99_ms=<b>
        actions_per_s=<c> cpu_ms_per_action_per_socket=<x/n> wire_bytes_per_action=<w> server=<name>
        const_floor_cpu_ms_per_action=<z> ratio_const=<x/z>

Latency runs from just before the sender's ``emit`` until the last socket has the new state.

``wire_bytes_per_action`` counts the compressed WebSocket payload bytes the clients received;
each block also reports ``state_chars_per_action`` (the state packets' characters before
compression: what permessage-deflate had to read) and ``state_bytes`` (each socket's newest
view as the page holds it, the roster and catalogue kept).
Results and their reading: ``docs/performance.md``.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import wsproto
from wsproto.events import (AcceptConnection, BytesMessage, CloseConnection, Ping, RejectConnection,
                            Request, TextMessage)
from wsproto.extensions import PerMessageDeflate

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_mind as bm  # noqa: E402  (the closed loop, Hub, percentiles, /proc readers)

ROOT = Path(__file__).resolve().parent.parent
perf = time.perf_counter


class MiniSocketIO:
    """A Socket.IO v5 / Engine.IO v4 client over one WebSocket that offers permessage-deflate.

    Only what the bench needs: connect with auth, ``on(event, handler)``, ``emit(event, data)``,
    answer Engine.IO pings, ``disconnect()``. One reader thread; handlers run in it, in order.
    """

    def __init__(self) -> None:
        self.handlers: dict = {}
        self.sock: socket.socket | None = None
        self.ws = wsproto.WSConnection(wsproto.ConnectionType.CLIENT)
        self.lock = threading.Lock()
        self.deflate = False
        self.wire_bytes = 0  # payload bytes received on the wire (compressed)
        self.state_chars = 0  # characters of the state packets received (before compression)
        self._connected = threading.Event()
        self._closed = False
        self.state_texts: collections.deque = collections.deque(maxlen=400)  # the latest states

    def on(self, event: str, handler) -> None:
        """Call ``handler(data)`` for each ``event`` received (``disconnect``: ``handler()``)."""
        self.handlers[event] = handler

    def _send_text(self, text: str) -> None:
        with self.lock:
            data = self.ws.send(TextMessage(data=text))
        self.sock.sendall(data)

    def emit(self, event: str, data) -> None:
        """Send one Socket.IO event with one argument."""
        self._send_text("42" + json.dumps([event, data], separators=(",", ":")))

    def connect(self, url: str, auth: dict, transports=None, wait_timeout: float = 5.0) -> None:
        """Open the WebSocket (offering permessage-deflate) and join ``/`` with ``auth``."""
        host, port = url.split("//", 1)[1].split(":")
        self.sock = socket.create_connection((host, int(port)))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock.sendall(self.ws.send(Request(
            host=f"{host}:{port}", target="/socket.io/?EIO=4&transport=websocket",
            extensions=[PerMessageDeflate()])))
        self._auth = auth
        threading.Thread(target=self._read, daemon=True).start()
        if not self._connected.wait(wait_timeout):
            raise bm.BenchError("socket.io connect timed out")

    def _read(self) -> None:
        parts: list[str] = []
        while not self._closed:
            try:
                chunk = self.sock.recv(65536)
            except OSError:
                break
            if not chunk:
                break
            texts: list[str] = []
            with self.lock:
                self.ws.receive_data(chunk)
                out = b""
                for ev in self.ws.events():
                    if isinstance(ev, AcceptConnection):
                        self.deflate = any(isinstance(e, PerMessageDeflate) for e in ev.extensions)
                    elif isinstance(ev, RejectConnection):
                        self._closed = True
                    elif isinstance(ev, TextMessage):
                        parts.append(ev.data)
                        if ev.message_finished:
                            texts.append("".join(parts))
                            parts = []
                    elif isinstance(ev, BytesMessage):
                        pass
                    elif isinstance(ev, Ping):
                        out += self.ws.send(ev.response())
                    elif isinstance(ev, CloseConnection):
                        self._closed = True
            self.wire_bytes += len(chunk)
            if out:
                self.sock.sendall(out)
            for text in texts:
                self._engineio(text)
        self._closed = True
        handler = self.handlers.get("disconnect")
        if handler:
            handler()

    def _engineio(self, text: str) -> None:
        kind = text[:1]
        if kind == "0":  # open: join the default namespace with the auth
            self._send_text("40" + json.dumps(self._auth, separators=(",", ":")))
        elif kind == "2":  # ping
            self._send_text("3")
        elif kind == "4":
            body = text[1:]
            if body.startswith("0"):
                self._connected.set()
            elif body.startswith("2"):
                if body.startswith('2["state",'):
                    self.state_texts.append(body)
                    self.state_chars += len(body)
                event, *args = json.loads(body[1:])
                handler = self.handlers.get(event)
                if handler:
                    handler(*args[:1])

    def disconnect(self) -> None:
        """Leave the namespace and close the WebSocket."""
        if self._closed:
            return
        try:
            self._send_text("41")
            with self.lock:
                data = self.ws.send(CloseConnection(code=1000))
            self.sock.sendall(data)
        except Exception:  # noqa: BLE001 - already gone
            pass
        self._closed = True
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()


class DeflateSim(bm.Sim):
    """``bench_mind.Sim`` on :class:`MiniSocketIO` (permessage-deflate, like a browser)."""

    def make_client(self) -> MiniSocketIO:
        """A :class:`MiniSocketIO` instead of python-socketio's client."""
        return MiniSocketIO()

    def connect(self, url: str, auth: dict, timeout: float) -> None:
        """Connect; fail if the server did not accept permessage-deflate."""
        self.sio.connect(url, auth=auth, wait_timeout=timeout)
        if not self.sio.deflate:
            raise bm.BenchError("the server did not accept permessage-deflate")


class FanoutBench(bm.ModeBench):
    """One server (partyhost from ``source``, or the floor) with N sockets."""

    sim_class = DeflateSim

    def __init__(self, name: str, source: Path | None, n: int, args: argparse.Namespace,
                 state_file: str | None = None, states_file: str | None = None) -> None:
        super().__init__("eventlet", args)
        self.name, self.source, self.n, self.state_file = name, source, n, state_file
        self.states_file = states_file

    def start_server(self) -> None:
        """Start this bench's server and wait for ``/healthz``."""
        port = bm.free_port()
        self.url = f"http://127.0.0.1:{port}"
        if self.source is None:
            cmd = [sys.executable, str(ROOT / "bench" / "floor_server.py"), "--port", str(port)]
            if self.states_file:
                cmd += ["--states-file", self.states_file]
            elif self.state_file:
                cmd += ["--state-file", self.state_file]
            cwd = str(ROOT)
        else:
            entry = ["-m", "partyhost"]
            if self.args.profile:
                entry = [str(ROOT / "bench" / "sample_profile.py")]
            cmd = [sys.executable, *entry, "--port", str(port), "--bind", "127.0.0.1",
                   "--no-browser", "--fresh", "--data", os.path.join(self.tmp, "data"),
                   "--seed", str(self.args.seed), "--async-mode", "eventlet", "--rate-limit", "0"]
            cwd = str(self.source)  # `-m` puts the cwd first on sys.path: that checkout's code
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        if self.args.profile and self.source is not None:
            os.makedirs(self.args.profile, exist_ok=True)
            env["PARTYHOST_PROFILE_OUT"] = os.path.join(self.args.profile, f"{self.name}-N{self.n}.txt")
            env["PYTHONPATH"] = cwd  # a script's own folder comes first on sys.path, not the cwd
        self._log = open(self.log_path, "wb")
        self.proc = subprocess.Popen(cmd, cwd=cwd, stdout=self._log, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, env=env)
        deadline = perf() + 30
        while True:
            if self.proc.poll() is not None:
                raise bm.BenchError(f"{self.name} exited:\n{self.server_log()[-3000:]}")
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=1) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if perf() > deadline:
                raise bm.BenchError(f"{self.name} did not answer /healthz within 30 s")
            time.sleep(0.05)

    def connect_all(self) -> None:
        """The TV, 4 phones that join, the game started, then N-5 late joiners (partyhost);
        N plain sockets (the floor)."""
        a, hub = self.args, self.hub
        self.tv = DeflateSim(hub, "tv", "tv")
        self.tv.connect(self.url, {"role": "tv", "lang": "en"}, a.timeout)
        bm.wait_until(hub, lambda: self.tv.view is not None, a.timeout, "the TV's first state")
        if self.source is None:  # the floor: plain sockets, no game
            for i in range(self.n - 1):
                s = DeflateSim(hub, f"socket{i}", "phone")
                self.phones.append(s)
                s.connect(self.url, {"role": "phone"}, a.timeout)
            bm.wait_until(hub, lambda: all(p.view is not None for p in self.phones), a.timeout, "views")
            return
        self.args.phones = 4
        self.connect_clients()  # 4 phones join
        ok = self.act(self.tv, "host", {"id": self.new_id("h"), "op": "start"}, (1, 1))
        if ok[2] is not None:
            raise bm.BenchError(f"start refused: {ok[2]}")
        for i in range(self.n - 5):  # late joiners watch this game, play in a later one
            p = DeflateSim(hub, f"watcher{i + 1}", "phone")
            self.phones.append(p)
            p.connect(self.url, {"role": "phone", "lang": "en"}, a.timeout)
            bm.wait_until(hub, lambda: p.welcome is not None, a.timeout, f"{p.label} welcome")
            jid = self.new_id("j")
            p.sio.emit("join", {"id": jid, "name": f"Watch{i + 1}", "lang": "en"})
            bm.wait_until(hub, lambda: p.token is not None or jid in p.results, a.timeout, "join")
        key = self.tv.key
        bm.wait_until(hub, lambda: all(c.key >= key for c in self.all_clients()), a.timeout, "sync")

    def floor_loop(self, seconds: float) -> dict:
        """The floor's closed loop: phones take turns sending one ``act``."""
        lat = []
        t0 = perf()
        i = 0
        while perf() - t0 < seconds:
            serial, version = self.tv.key
            sender = self.phones[i % min(4, len(self.phones))] if self.phones else self.tv
            i += 1
            r = self.act(sender, "act", {"id": self.new_id("f"), "game": 1, "type": "play"},
                         (serial, version + 1))
            if r[0] is not None:
                lat.append(r[0])
        return {"lat": lat}

    def measure(self, seconds: float) -> dict:
        """Closed loop for ``seconds``; server CPU, latency, wire bytes and state sizes."""
        clients = self.all_clients()
        cpu0, bytes0 = bm.proc_cpu(self.proc.pid), sum(c.sio.wire_bytes for c in clients)
        chars0 = sum(c.sio.state_chars for c in clients)
        t0 = perf()
        if self.source is None:
            lat = self.floor_loop(seconds)["lat"]
            actions = len(lat)
        else:
            stats = {"lat": {}, "rtt": {}, "refused": {}, "games": {}, "parts": {}}
            actions = 0
            while perf() - t0 < seconds:
                self.step(stats)
                actions += 1
            lat = [x for v in stats["lat"].values() for x in v]
        wall = perf() - t0
        cpu = bm.proc_cpu(self.proc.pid) - cpu0
        wire = sum(c.sio.wire_bytes for c in clients) - bytes0
        chars = sum(c.sio.state_chars for c in clients) - chars0
        sizes = [len(json.dumps(c.view, separators=(",", ":"), ensure_ascii=False).encode())
                 for c in clients if c.view]
        pct = bm.percentiles(lat)
        return {"cpu_ms_per_action": 1000 * cpu / max(1, actions), "actions": actions,
                "actions_per_s": actions / wall, "p50_ms": pct.get("p50"), "p99_ms": pct.get("p99"),
                "wire_bytes_per_action": wire / max(1, actions),
                "state_chars_per_action": chars / max(1, actions),  # what deflate had to read
                "state_bytes": int(statistics.mean(sizes)) if sizes else 0}

    def close(self) -> None:
        """Disconnect every client and stop the server."""
        bm.disconnect_all(self.all_clients())
        self.stop_server()


def main(argv: list[str] | None = None) -> int:
    """Run the bench (see the module docstring); returns the exit status."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", default="5,9,17,33", help="sockets per run, comma-separated (>= 5)")
    ap.add_argument("--server", action="append", default=[], metavar="NAME=DIR",
                    help="a partyhost source folder to measure (repeatable; default: this one)")
    ap.add_argument("--no-floor", action="store_true", help="skip the bare Flask-SocketIO floors")
    ap.add_argument("--floors", default="floor,floor-const",
                    help="which floors: floor (replayed real states), floor-const (one constant state)")
    ap.add_argument("--blocks", type=int, default=2, help="rounds over all servers, alternating")
    ap.add_argument("--seconds", type=float, default=6.0, help="closed loop per block")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=10.0)
    ap.add_argument("--profile", metavar="DIR",
                    help="sample each partyhost server's CPU (bench/sample_profile.py) into DIR")
    ap.add_argument("--json", metavar="FILE", help="also write every block's numbers here")
    args = ap.parse_args(argv)
    args.server_nodelay = False
    servers = [(s.split("=", 1)[0], Path(s.split("=", 1)[1]).resolve()) for s in args.server] \
        or [("partyhost", ROOT)]
    ns = [int(x) for x in args.n.split(",")]
    print(f"# load average before: {os.getloadavg()}; nproc={os.cpu_count()}; "
          f"clients offer permessage-deflate; {args.blocks} blocks x {args.seconds:.0f} s", flush=True)
    floors = [] if args.no_floor else [(f, None) for f in args.floors.split(",") if f]
    rows: dict = {}
    state_files: dict[int, str] = {}
    states_files: dict[int, str] = {}
    tmp = tempfile.mkdtemp(prefix="partyhost-fanout-")
    for block in range(args.blocks):
        for n in ns:
            order = servers + floors
            if block % 2:
                order = order[::-1]
            order.sort(key=lambda s: s[1] is None and n not in state_files)  # floor after one
            for name, source in order:
                if source is None and n not in state_files:
                    continue  # the floor needs a real state of this N first
                bench = FanoutBench(name, source, n, args, state_files.get(n),
                                    states_files.get(n) if name == "floor" else None)
                try:
                    bench.start_server()
                    bench.connect_all()
                    bench.measure(1.0)  # warm up
                    bench.tv.sio.state_texts.clear()  # record the measured loop's states only
                    r = bench.measure(args.seconds)
                    if source is not None and n not in state_files:
                        # the floor's state: the TV state of this run closest to their mean size
                        texts = list(bench.tv.sio.state_texts)
                        mean = statistics.mean(len(t) for t in texts)
                        typical = min(texts, key=lambda t: abs(len(t) - mean))
                        state_files[n] = os.path.join(tmp, f"tv-state-{n}.json")
                        Path(state_files[n]).write_text(
                            json.dumps(json.loads(typical[1:])[1], ensure_ascii=False))
                        # the replay floor's states: this run's TV states, in the order received
                        states_files[n] = os.path.join(tmp, f"tv-states-{n}.json")
                        Path(states_files[n]).write_text(json.dumps(
                            [json.loads(t[1:])[1] for t in texts], ensure_ascii=False))
                finally:
                    bench.close()
                r["load1"] = os.getloadavg()[0]
                rows.setdefault((n, name), []).append(r)
                print(f"#  block {block + 1} N={n} {name}: " + " ".join(
                    f"{k}={v:.2f}" if isinstance(v, float) else f"{k}={v}" for k, v in r.items()),
                    flush=True)
    print(f"# load average after: {os.getloadavg()}")
    for n in ns:
        floor = rows.get((n, "floor"))
        floor_cpu = statistics.median(r["cpu_ms_per_action"] for r in floor) if floor else None
        const = rows.get((n, "floor-const"))
        const_cpu = statistics.median(r["cpu_ms_per_action"] for r in const) if const else None
        for name, _ in servers + floors:
            rs = rows[(n, name)]
            med = {k: statistics.median(r[k] for r in rs if r[k] is not None)
                   for k in ("cpu_ms_per_action", "p50_ms", "p99_ms", "actions_per_s",
                             "wire_bytes_per_action")}
            line = f"N={n} cpu_ms_per_action={med['cpu_ms_per_action']:.2f}"
            if floor_cpu:
                line += (f" floor_cpu_ms_per_action={floor_cpu:.2f}"
                         f" ratio={med['cpu_ms_per_action'] / floor_cpu:.2f}")
            line += (f" p50_ms={med['p50_ms']:.1f} p99_ms={med['p99_ms']:.1f}"
                     f" actions_per_s={med['actions_per_s']:.0f}"
                     f" cpu_ms_per_action_per_socket={med['cpu_ms_per_action'] / n:.3f}"
                     f" wire_bytes_per_action={med['wire_bytes_per_action']:.0f} server={name}")
            if const_cpu:
                line += (f" const_floor_cpu_ms_per_action={const_cpu:.2f}"
                         f" ratio_const={med['cpu_ms_per_action'] / const_cpu:.2f}")
            print(line, flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps({f"{n}:{k}": v for (n, k), v in rows.items()}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
