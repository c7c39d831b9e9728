#!/usr/bin/env python3
"""Benchmark: the real partyhost server, simulated phones over loopback, The Mind.

Starts ``python -m partyhost`` as a subprocess (eventlet by default, ``--mode threading`` or
``--mode both``), then drives one TV page and N phones (``socketio.Client``, websocket
transport) from this process:

* closed loop -- one action in flight at a time, as at a real table: the phone holding the
  lowest card of the table plays it, every phone readies at the start of each level, the TV
  restarts the game when it is won or lost. For each action, latency runs from just before
  ``emit`` to the moment the *last* connected client (every phone and the TV) has received the
  ``state`` whose ``(party.serial, game.version)`` includes that action.
* bursts -- every phone fires actions as fast as it can: legal ``ready`` toggles (phone 1
  only ever sends ``ready: false``, so the level never starts and every toggle is accepted),
  then refused plays (``stale``). Reported: drain rate until the last ``result`` arrived
  and until every client had the final ``state``.
* fan-out -- the closed loop again with extra TV-like spectator sockets connected.
* memory -- the server's VmHWM (peak RSS) and VmRSS from ``/proc/<pid>/status``.
* engine alone -- the same game script through ``Engine.drain()`` in this process, no sockets.

Run ``.venv/bin/python bench/bench_mind.py --help`` for the options; ``make bench`` runs the
default (eventlet, 4 phones, 2000 plays or 20 s, about 35 s in all). ``--server-nodelay`` is an
experiment (TCP_NODELAY on the server's sockets). Results and their reading:
``docs/performance.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import socketio

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
from partyhost.pyclient import in_order, keep_held  # noqa: E402

perf = time.perf_counter
CLK_TCK = os.sysconf("SC_CLK_TCK")


# ----- small helpers --------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentiles(samples: list[float]) -> dict:
    """p50/p90/p99/max/mean of samples in seconds, returned in milliseconds (nearest rank)."""
    if not samples:
        return {"n": 0}
    s = sorted(samples)
    n = len(s)

    def rank(p: float) -> float:
        return s[min(n - 1, max(0, int(round(p / 100.0 * n + 0.5)) - 1))] * 1000.0

    return {
        "n": n,
        "p50": rank(50), "p90": rank(90), "p99": rank(99),
        "max": s[-1] * 1000.0, "mean": sum(s) / n * 1000.0,
    }


def proc_status(pid: int) -> dict:
    """VmRSS and VmHWM of a process in MB (from /proc/<pid>/status)."""
    out = {}
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                key, _, rest = line.partition(":")
                if key in ("VmRSS", "VmHWM"):
                    out[key] = int(rest.split()[0]) / 1024.0
                elif key == "Threads":
                    out[key] = int(rest.split()[0])
    except OSError:
        pass
    return out


def proc_cpu(pid: int) -> float:
    """User+system CPU seconds of a process (all threads)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK
    except (OSError, IndexError, ValueError):
        return float("nan")


def self_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def machine() -> dict:
    cpu = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    versions = {}
    for mod in ("eventlet", "flask_socketio", "socketio", "engineio", "websocket"):
        try:
            from importlib.metadata import version
            dist = {"flask_socketio": "Flask-SocketIO", "socketio": "python-socketio",
                    "engineio": "python-engineio", "websocket": "websocket-client"}.get(mod, mod)
            versions[dist] = version(dist)
        except Exception:
            pass
    return {"nproc": os.cpu_count(), "cpu": cpu, "python": platform.python_version(),
            "kernel": platform.release(), "packages": versions}


#: ``--server-nodelay`` (an experiment, off by default): start the same server through this
#: bootstrap, which only sets TCP_NODELAY on every socket the server accepts, then runs
#: ``partyhost.__main__.main`` unchanged. Used to show where the sender's extra ~40 ms come from
#: (docs/performance.md); partyhost itself is not modified.
NODELAY_BOOTSTRAP = r"""
import os, socket, sys, warnings
argv = sys.argv[1:]
mode = argv[argv.index("--async-mode") + 1] if "--async-mode" in argv else "eventlet"
def nodelay(cls):
    accept = cls.accept
    def patched(self):
        conn, addr = accept(self)
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return conn, addr
    cls.accept = patched
if mode == "eventlet":
    warnings.filterwarnings("ignore", message=r"\s*Eventlet is deprecated")
    os.environ.setdefault("EVENTLET_NO_GREENDNS", "yes")
    import eventlet
    eventlet.monkey_patch()
    from eventlet.greenio.base import GreenSocket
    nodelay(GreenSocket)
else:
    nodelay(socket.socket)
from partyhost.__main__ import main
sys.exit(main(argv))
"""


class BenchError(RuntimeError):
    pass


# ----- simulated devices ----------------------------------------------------------------------

class Hub:
    """What the coordinator and the clients' receive threads share."""

    def __init__(self) -> None:
        self.cv = threading.Condition()
        self.target: tuple[int, int] | None = None
        self.clients: list["Sim"] = []


class Sim:
    """One socket: a phone or a TV page. Keeps the newest view it has received.

    python-socketio's client runs every incoming event in a new thread; :func:`in_order` makes
    it handle them one at a time in arrival order, as a browser does, so the roster and
    catalogue the server leaves out when unchanged are kept from the previous state
    (:func:`keep_held`). The newest view is still chosen by ``(party.serial, game.version)``.
    """

    #: websocket-client validates the UTF-8 of every text frame in pure Python unless wsaccel is
    #: installed: about 1.8 ms of bench CPU for an 8 KB TV state (measured), which made this
    #: process, not the server, the bottleneck with many sockets. A browser does this in native
    #: code, so the bench skips it (``--utf8-validation`` turns it back on).
    skip_utf8_validation = True

    def __init__(self, hub: Hub, label: str, role: str) -> None:
        self.hub = hub
        self.label = label
        self.role = role
        self.sio = self.make_client()
        self.view: dict | None = None
        self.held: dict | None = None  # the last state received, held parts kept
        self.key: tuple[int, int] = (-1, -1)
        self.arrival: float | None = None
        self.states = 0
        self.welcome: dict | None = None
        self.seat: str | None = None
        self.token: str | None = None
        self.results: dict = {}
        self.n_results = 0
        self.n_refused = 0
        self.refused_codes: dict[str, int] = {}
        self.last_result_t = 0.0
        self.kicked = False
        self.disconnected_at: float | None = None
        self.sio.on("state", self._on_state)
        self.sio.on("welcome", self._on_welcome)
        self.sio.on("result", self._on_result)
        self.sio.on("kicked", self._on_kicked)
        self.sio.on("disconnect", self._on_disconnect)

    def make_client(self):
        """The Socket.IO client (``bench_fanout.py`` swaps in one that offers permessage-deflate)."""
        return in_order(socketio.Client(
            reconnection=False,
            websocket_extra_options={"skip_utf8_validation": self.skip_utf8_validation},
        ))

    # receive side (client threads)
    def _on_state(self, data) -> None:
        t = perf()
        data = self.held = keep_held(data, self.held)
        party = data.get("party") or {}
        game = data.get("game") or {}
        key = (int(party.get("serial", 0)), int(game.get("version", 0)))
        hub = self.hub
        with hub.cv:
            self.states += 1
            if key >= self.key:
                self.key = key
                self.view = data
            if self.arrival is None and hub.target is not None and key >= hub.target:
                self.arrival = t
            hub.cv.notify_all()

    def _on_welcome(self, data) -> None:
        with self.hub.cv:
            self.welcome = data
            if data.get("seat"):
                self.seat = data["seat"]
            if data.get("token"):
                self.token = data["token"]
            self.hub.cv.notify_all()

    def _on_result(self, data) -> None:
        t = perf()
        with self.hub.cv:
            mid = data.get("id")
            ok = bool(data.get("ok"))
            self.results[mid] = (ok, data.get("code"), t)
            self.n_results += 1
            self.last_result_t = max(self.last_result_t, t)
            if not ok:
                self.n_refused += 1
                code = str(data.get("code"))
                self.refused_codes[code] = self.refused_codes.get(code, 0) + 1
            self.hub.cv.notify_all()

    def _on_kicked(self, data) -> None:
        self.kicked = True

    def _on_disconnect(self, *args) -> None:
        self.disconnected_at = perf()

    # send side
    def connect(self, url: str, auth: dict, timeout: float) -> None:
        self.sio.connect(url, auth=auth, transports=["websocket"], wait_timeout=timeout)

    def game(self) -> dict:
        return (self.view or {}).get("game") or {}

    def hand(self) -> list[int]:
        return list(self.game().get("hand") or [])

    def clear_results(self) -> None:
        self.results.clear()


def wait_until(hub: Hub, pred, timeout: float, what: str) -> None:
    with hub.cv:
        if not hub.cv.wait_for(pred, timeout=timeout):
            raise BenchError(f"timed out after {timeout:.0f} s waiting for {what}")


def disconnect_all(sims: list[Sim]) -> float:
    """Disconnect in parallel (a Python client can take 3 s against threading mode). Returns s."""
    t0 = perf()
    threads = []
    for s in sims:
        th = threading.Thread(target=_safe_disconnect, args=(s,), daemon=True)
        th.start()
        threads.append(th)
    for th in threads:
        th.join(15)
    return perf() - t0


def _safe_disconnect(s: Sim) -> None:
    try:
        s.sio.disconnect()
    except Exception:
        pass


# ----- the bench for one async mode -----------------------------------------------------------

class ModeBench:
    sim_class = Sim

    def __init__(self, mode: str, args: argparse.Namespace) -> None:
        self.mode = mode
        self.args = args
        self.hub = Hub()
        self.proc: subprocess.Popen | None = None
        self.tmp = tempfile.mkdtemp(prefix=f"partyhost-bench-{mode}-")
        self.log_path = os.path.join(self.tmp, "server.log")
        self.url = ""
        self.tv: Sim | None = None
        self.phones: list[Sim] = []
        self.spectators: list[Sim] = []
        self.ids = 0
        self.out: dict = {"mode": mode, "oddities": []}
        self.timeouts = 0

    # --- server -------------------------------------------------------------------------------
    def start_server(self) -> None:
        port = free_port()
        self.url = f"http://127.0.0.1:{port}"
        server_args = ["--port", str(port), "--bind", "127.0.0.1", "--no-browser", "--fresh",
                       "--data", os.path.join(self.tmp, "data"), "--seed", str(self.args.seed),
                       "--async-mode", self.mode,
                       # the bursts send as fast as the bench can: far above a finger, so the
                       # per-socket rate limit (partyhost/limits.py) would drop most of them
                       "--rate-limit", "0"]
        if self.args.server_nodelay:
            cmd = [sys.executable, "-c", NODELAY_BOOTSTRAP, *server_args]
        else:
            cmd = [sys.executable, "-m", "partyhost", *server_args]
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self._log = open(self.log_path, "wb")
        t0 = perf()
        self.proc = subprocess.Popen(cmd, cwd=str(ROOT), stdout=self._log, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, env=env)
        deadline = t0 + 30
        while True:
            if self.proc.poll() is not None:
                raise BenchError(f"server exited with {self.proc.returncode}:\n{self.server_log()[-3000:]}")
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=1) as r:
                    if r.status == 200 and json.loads(r.read()).get("ok"):
                        break
            except OSError:
                pass
            if perf() > deadline:
                raise BenchError("server did not answer /healthz within 30 s")
            time.sleep(0.05)
        self.out["startup_s"] = perf() - t0
        self.out["mem_idle"] = proc_status(self.proc.pid)

    def server_log(self) -> str:
        try:
            return Path(self.log_path).read_text(errors="replace")
        except OSError:
            return ""

    def stop_server(self) -> None:
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.out["mem_end"] = proc_status(self.proc.pid)
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self._log.close()

    # --- clients ------------------------------------------------------------------------------
    def all_clients(self) -> list[Sim]:
        return [c for c in [self.tv, *self.phones, *self.spectators] if c is not None]

    def new_id(self, prefix: str) -> str:
        self.ids += 1
        return f"{prefix}{self.ids}"

    def connect_clients(self) -> None:
        a = self.args
        hub = self.hub
        self.tv = self.sim_class(hub, "tv", "tv")
        self.tv.connect(self.url, {"role": "tv", "lang": "en"}, a.timeout)
        wait_until(hub, lambda: self.tv.view is not None, a.timeout, "the TV's first state")
        if not self.tv.view.get("host"):
            raise BenchError("the loopback TV page has no host powers")
        t0 = perf()
        for i in range(a.phones):
            p = self.sim_class(hub, f"phone{i + 1}", "phone")
            self.phones.append(p)  # before connecting: the finally block disconnects it
            p.connect(self.url, {"role": "phone", "lang": "en"}, a.timeout)
            wait_until(hub, lambda: p.welcome is not None, a.timeout, f"{p.label} welcome")
            jid = self.new_id("j")
            p.sio.emit("join", {"id": jid, "name": f"Bench{i + 1}", "lang": "en"})
            wait_until(hub, lambda: p.token is not None or jid in p.results, a.timeout, f"{p.label} join")
            if p.token is None:
                raise BenchError(f"{p.label} join refused: {p.results.get(jid)}")
        self.out["connect_join_s"] = perf() - t0

    def connect_spectators(self, n: int) -> float:
        t0 = perf()
        for i in range(n):
            s = Sim(self.hub, f"spectator{i + 1}", "tv")
            self.spectators.append(s)
            s.connect(self.url, {"role": "tv", "lang": "en"}, self.args.timeout)
        wait_until(self.hub, lambda: all(s.view is not None for s in self.spectators),
                   self.args.timeout, "spectator views")
        # every client must agree on the game state again before the closed loop goes on
        key = self.tv.key
        wait_until(self.hub, lambda: all(c.key >= key for c in self.all_clients()), self.args.timeout,
                   "spectators in sync")
        return perf() - t0

    # --- one action, measured -----------------------------------------------------------------
    def act(self, sender: Sim, event: str, payload: dict, target: tuple[int, int]):
        """Send one message, wait until every client has a state with key >= target.

        Returns (latency_s or None, result_rtt_s or None, refused_code or None, parts) where
        parts splits the latency by recipient: the sender, the other phones, the TV, spectators.
        """
        hub = self.hub
        clients = self.all_clients()
        mid = payload["id"]
        with hub.cv:
            hub.target = target
            for c in clients:
                c.arrival = None
        t0 = perf()
        sender.sio.emit(event, payload)

        def done() -> bool:
            r = sender.results.get(mid)
            if r is not None and not r[0]:
                return True
            return all(c.arrival is not None for c in clients)

        with hub.cv:
            finished = hub.cv.wait_for(done, timeout=self.args.timeout)
            r = sender.results.get(mid)
            arrivals = [c.arrival for c in clients]
            hub.target = None
        if r is not None and not r[0]:
            return None, r[2] - t0, r[1], {}
        if not finished:
            self.timeouts += 1
            missing = [c.label for c, a in zip(clients, arrivals) if a is None]
            self.out["oddities"].append(
                f"{event} {payload.get('type') or payload.get('op')}: no state reached "
                f"{', '.join(missing)} within {self.args.timeout:.0f} s (result: {r})")
            if self.timeouts > 5:
                raise BenchError("too many lost views")
            return None, None, "timeout", {}
        # the result may still be in flight (it is sent before the state, but handled in its own
        # client thread); give it a moment so result RTTs are complete
        with hub.cv:
            hub.cv.wait_for(lambda: mid in sender.results, timeout=1.0)
            r = sender.results.get(mid)
        rtt = (r[2] - t0) if r else None
        parts: dict[str, float] = {}
        for c, a in zip(clients, arrivals):
            if c is sender:
                part = "sender"
            elif c is self.tv:
                part = "tv"
            elif c.role == "tv":
                part = "spectators"
            else:
                part = "other phones"
            parts[part] = max(parts.get(part, 0.0), a - t0)
        return max(arrivals) - t0, rtt, None, parts

    def table(self) -> dict:
        return self.tv.game()

    def step(self, stats: dict) -> str:
        """Make the next move of the game in the closed loop. Returns the kind of action."""
        g = self.table()
        serial, version = self.tv.key
        phase = g.get("phase")
        if not g or phase in ("won", "lost"):
            op = "start" if not g else "restart"
            kind = op
            sender, event = self.tv, "host"
            payload = {"id": self.new_id("h"), "op": op}
            target = (serial + 1, 1)
            if phase:
                stats["games"][phase] = stats["games"].get(phase, 0) + 1
        elif phase == "ready":
            seat_ready = {p["seat"]: p["ready"] for p in g.get("players", [])}
            sender = next((p for p in self.phones if not seat_ready.get(p.seat, True)), None)
            if sender is None:
                raise BenchError(f"phase ready but everyone is ready: {g}")
            kind, event = "ready", "act"
            payload = {"id": self.new_id("r"), "game": serial, "type": "ready",
                       "level": g["level"], "ready": True}
            target = (serial, version + 1)
        elif phase == "playing":
            best = None
            for p in self.phones:
                h = p.hand()
                if h and (best is None or h[0] < best[1]):
                    best = (p, h[0])
            if best is None:
                raise BenchError(f"phase playing but no phone holds a card: {g}")
            sender, card = best
            kind, event = "play", "act"
            payload = {"id": self.new_id("p"), "game": serial, "type": "play",
                       "level": g["level"], "card": card}
            target = (serial, version + 1)
        else:
            raise BenchError(f"unexpected phase {phase!r}")
        lat, rtt, refused, parts = self.act(sender, event, payload, target)
        if refused is not None:
            stats["refused"][f"{kind}:{refused}"] = stats["refused"].get(f"{kind}:{refused}", 0) + 1
            if refused != "timeout":
                self.out["oddities"].append(f"closed loop: {kind} refused as {refused}: {payload}")
            # resync: wait a moment for every client to have the newest state
            time.sleep(0.2)
        else:
            stats["lat"].setdefault(kind, []).append(lat)
            if rtt is not None:
                stats["rtt"].setdefault(kind, []).append(rtt)
            if kind == "play":
                for part, v in parts.items():
                    stats["parts"].setdefault(part, []).append(v)
        return kind

    def closed_loop(self, plays: int, time_limit: float) -> dict:
        stats = {"lat": {}, "rtt": {}, "refused": {}, "games": {}, "parts": {}}
        cpu0, mycpu0 = proc_cpu(self.proc.pid), self_cpu()
        t0 = perf()
        end = t0 + time_limit
        actions = 0
        while len(stats["lat"].get("play", [])) < plays and perf() < end:
            self.step(stats)
            actions += 1
        wall = perf() - t0
        n_plays = len(stats["lat"].get("play", []))
        return {
            "wall_s": wall,
            "actions": actions,
            "plays": n_plays,
            "actions_per_s": actions / wall if wall else 0.0,
            "plays_per_s": n_plays / wall if wall else 0.0,
            "latency_ms": {k: percentiles(v) for k, v in stats["lat"].items()},
            "result_rtt_ms": {k: percentiles(v) for k, v in stats["rtt"].items()},
            "play_state_by_recipient_ms": {k: percentiles(v) for k, v in stats["parts"].items()},
            "refused": stats["refused"],
            "games_finished": stats["games"],
            "server_cpu_s": proc_cpu(self.proc.pid) - cpu0,
            "bench_cpu_s": self_cpu() - mycpu0,
            "clients": len(self.all_clients()),
            "_raw_play": stats["lat"].get("play", []),
        }

    # --- bursts -------------------------------------------------------------------------------
    def to_ready_phase(self) -> None:
        """Bring the game to phase "ready" (stop a level in play, restart a finished game)."""
        for _ in range(3):
            g = self.table()
            serial, version = self.tv.key
            if g.get("phase") == "ready":
                return
            if g.get("phase") == "playing":
                p = self.phones[0]
                self.act(p, "act", {"id": self.new_id("s"), "game": serial, "type": "stop",
                                    "level": g["level"]}, (serial, version + 1))
            else:
                self.act(self.tv, "host", {"id": self.new_id("h"), "op": "restart"}, (serial + 1, 1))
        raise BenchError("could not reach phase ready")

    def burst(self, kind: str, per_phone: int) -> dict:
        """Every phone sends ``per_phone`` actions as fast as it can, all phones at once."""
        self.to_ready_phase()
        hub = self.hub
        g = self.table()
        serial, v0 = self.tv.key
        level = g["level"]
        payloads: list[list[dict]] = []
        for i, p in enumerate(self.phones):
            mine = []
            for j in range(per_phone):
                if kind == "ready_toggle":
                    # phone 1 only ever lifts its hand: the level never starts, every toggle is legal
                    ready = False if i == 0 else (j % 2 == 0)
                    mine.append({"id": self.new_id("b"), "game": serial, "type": "ready",
                                 "level": level, "ready": ready})
                else:  # refused: a play for another level is answered stale
                    other = level + 1 if level < 12 else level - 1
                    mine.append({"id": self.new_id("x"), "game": serial, "type": "play",
                                 "level": other, "card": 1})
            payloads.append(mine)
        total = sum(len(x) for x in payloads)
        clients = self.all_clients()
        expected = (serial, v0 + total) if kind == "ready_toggle" else None
        with hub.cv:
            for c in clients:
                c.n_results = 0
                c.n_refused = 0
                c.refused_codes = {}
                c.last_result_t = 0.0
                c.arrival = None
                c._states0 = c.states
            hub.target = expected  # arrival = the state that includes the burst's last action
        go = threading.Event()
        send_done: list[float] = []

        def sender(p: Sim, items: list[dict]) -> None:
            go.wait()
            for item in items:
                p.sio.emit("act", item)
            send_done.append(perf())

        threads = [threading.Thread(target=sender, args=(p, items), daemon=True)
                   for p, items in zip(self.phones, payloads)]
        for th in threads:
            th.start()
        cpu0, mycpu0 = proc_cpu(self.proc.pid), self_cpu()
        t0 = perf()
        go.set()
        timeout = max(self.args.timeout, total / 50.0)
        wait_until(hub, lambda: sum(p.n_results for p in self.phones) >= total, timeout,
                   f"{kind} burst results")
        t_results = max(p.last_result_t for p in self.phones)
        for th in threads:
            th.join(5)
        ok = total - sum(p.n_refused for p in self.phones)
        codes: dict[str, int] = {}
        for p in self.phones:
            for c, n in p.refused_codes.items():
                codes[c] = codes.get(c, 0) + n
        final = (serial, v0 + ok)
        t_views = None
        if ok:
            wait_until(hub, lambda: all(c.key >= final for c in clients), self.args.timeout,
                       f"{kind} burst final views")
            if final == expected:
                t_views = max(c.arrival for c in clients)
            else:  # some toggles were refused: the final key was not known in advance
                t_views = perf()
        with hub.cv:
            hub.target = None
        wall_results = t_results - t0
        res = {
            "actions": total,
            "accepted": ok,
            "refused": codes,
            "send_s": max(send_done) - t0 if send_done else None,
            "results_s": wall_results,
            "results_per_s": total / wall_results if wall_results > 0 else 0.0,
            "views_s": (t_views - t0) if t_views else None,
            "views_per_s": (total / (t_views - t0)) if t_views else None,
            "states_per_client": round(sum(c.states - c._states0 for c in clients) / len(clients), 1),
            "server_cpu_s": proc_cpu(self.proc.pid) - cpu0,
            "bench_cpu_s": self_cpu() - mycpu0,
        }
        # a legal burst must not have been refused; the refused burst must be refused throughout
        if kind == "ready_toggle" and codes:
            self.out["oddities"].append(f"ready-toggle burst: unexpected refusals {codes}")
        if kind == "refused" and (ok or set(codes) != {"stale"}):
            self.out["oddities"].append(f"refused burst: expected only stale, got {codes}, {ok} ok")
        return res

    # --- the whole run ------------------------------------------------------------------------
    def run(self) -> dict:
        a = self.args
        t_start = perf()
        self.out["loadavg_start"] = os.getloadavg()
        try:
            self.start_server()
            self.connect_clients()
            self.out["mem_connected"] = proc_status(self.proc.pid)
            cl = self.closed_loop(a.plays, a.time_limit)
            raw = cl.pop("_raw_play")
            self.out["closed"] = cl
            self.out["mem_after_closed"] = proc_status(self.proc.pid)
            if a.burst > 0:
                per = max(1, a.burst // len(self.phones))
                self.out["burst_ready"] = self.burst("ready_toggle", per)
                self.out["burst_refused"] = self.burst("refused", per)
                self.out["mem_after_burst"] = proc_status(self.proc.pid)
            if a.spectators > 0 and a.spectator_plays > 0:
                self.out["spectators_connect_s"] = self.connect_spectators(a.spectators)
                self.out["mem_spectators"] = proc_status(self.proc.pid)
                sp = self.closed_loop(a.spectator_plays, a.spectator_time)
                sp.pop("_raw_play")
                sp["spectators"] = a.spectators
                self.out["closed_spectators"] = sp
            # payload sizes of the last views (JSON, compact)
            self.out["state_bytes"] = {
                "phone": len(json.dumps(self.phones[0].view, separators=(",", ":"), ensure_ascii=False).encode()),
                "tv": len(json.dumps(self.tv.view, separators=(",", ":"), ensure_ascii=False).encode()),
            }
            self.out["mem_peak"] = proc_status(self.proc.pid)
            self.out["slowest_plays_ms"] = [round(x * 1000, 2) for x in sorted(raw)[-5:]]
        finally:
            self.out["disconnect_s"] = disconnect_all(self.all_clients())
            self.stop_server()
            log = self.server_log()
            if "Traceback" in log or " ERROR " in log or "error" in log.lower().replace("errors", ""):
                tail = [ln for ln in log.splitlines() if "Traceback" in ln or "rror" in ln][:5]
                if tail:
                    self.out["oddities"].append("server log: " + " | ".join(tail))
            self.out["server_log_lines"] = len(log.splitlines())
            if not a.keep:
                shutil.rmtree(self.tmp, ignore_errors=True)
            else:
                self.out["tmp"] = self.tmp
            self.out["total_s"] = perf() - t_start
            self.out["loadavg_end"] = os.getloadavg()
        if self.out["disconnect_s"] > 1.0:
            self.out["oddities"].append(
                f"disconnecting {len(self.all_clients())} clients in parallel took "
                f"{self.out['disconnect_s']:.1f} s")
        return self.out


# ----- the engine alone, in this process ------------------------------------------------------

def engine_inprocess(actions: int, phones: int, seed: int, with_store: bool) -> dict:
    """Time ``Engine.drain()`` per action with the same game script, without any socket.

    The engine is fed the messages the transport would submit; ``emit`` is a no-op. This is the
    engine's own work per action (rules, rollback snapshot, views for 1 TV + the phones,
    change detection, and with ``with_store`` the SQLite snapshot), for comparison with the
    end-to-end latency.
    """
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from partyhost.engine import Engine
    from partyhost.store import Store

    tmp = tempfile.mkdtemp(prefix="partyhost-bench-engine-")
    store = Store(os.path.join(tmp, "data")) if with_store else None
    try:
        e = Engine(lambda event, data, sid: None, seed=seed, store=store)
        e.submit("tv", "connect", None, {"role": "tv", "host_screen": True})
        for i in range(phones):
            e.submit(f"p{i}", "connect", None, {"role": "phone"})
            e.submit(f"p{i}", "join", {"id": f"j{i}", "name": f"Bench{i + 1}"})
        e.drain()
        e.submit("tv", "host", {"id": "h0", "op": "start"})
        e.drain()
        sid_of = {c.seat: sid for sid, c in e.connections.items() if c.seat}
        times: dict[str, list[float]] = {}
        for n in range(actions):
            g = e.party.game
            serial = e.party.game_serial
            if g.over:
                kind = "restart"
                e.submit("tv", "host", {"id": f"h{n}", "op": "restart"})
            elif g.phase == "ready":
                kind = "ready"
                seat = next(x for x in g.players if not g.ready.get(x))
                e.submit(sid_of[seat], "act", {"id": f"a{n}", "game": serial, "type": "ready",
                                               "level": g.level, "ready": True})
            else:
                kind = "play"
                seat, card = min(((x, h[0]) for x, h in g.hands.items() if h), key=lambda v: v[1])
                e.submit(sid_of[seat], "act", {"id": f"a{n}", "game": serial, "type": "play",
                                               "level": g.level, "card": card})
            t0 = perf()
            e.drain()
            times.setdefault(kind, []).append(perf() - t0)
        return {k: percentiles(v) for k, v in times.items()}
    finally:
        if store is not None:
            store.close()
        shutil.rmtree(tmp, ignore_errors=True)


# ----- report ---------------------------------------------------------------------------------

def fmt_lat(d: dict) -> str:
    if not d or not d.get("n"):
        return "-"
    return (f"{d['p50']:7.2f} {d['p90']:7.2f} {d['p99']:7.2f} {d['max']:7.2f}  n={d['n']}")


def report(results: list[dict], info: dict) -> str:
    lines = []
    w = lines.append
    w(f"partyhost bench — The Mind, {info['args']['phones']} phones + 1 TV over loopback websocket")
    m = info["machine"]
    w(f"machine: {m['nproc']} CPU ({m['cpu']}), Python {m['python']}, "
      + ", ".join(f"{k} {v}" for k, v in m["packages"].items()))
    for label, key in (("with SQLite snapshot", "engine_store"), ("without snapshot", "engine_nostore")):
        eng = info.get(key)
        if eng:
            w(f"engine alone, in-process, drain() per action {label} (ms): "
              + "; ".join(f"{k} p50 {d['p50']:.2f} p90 {d['p90']:.2f} p99 {d['p99']:.2f} max {d['max']:.2f}"
                          for k, d in eng.items() if k in ("play", "ready")))
    for r in results:
        w("")
        la = "/".join(f"{x:.1f}" for x in r.get("loadavg_start", ())[:1] + r.get("loadavg_end", ())[:1])
        w(f"== mode {r['mode']}{' + TCP_NODELAY experiment' if info['args'].get('server_nodelay') else ''}  (run {r.get('total_s', 0):.1f} s, server start {r.get('startup_s', 0):.2f} s, "
          f"1-min load before/after {la})")
        cl = r.get("closed")
        if cl:
            w(f"closed loop: {cl['plays']} plays, {cl['actions']} actions in {cl['wall_s']:.1f} s "
              f"= {cl['actions_per_s']:.0f} actions/s ({cl['plays_per_s']:.0f} plays/s); "
              f"server CPU {cl['server_cpu_s']:.1f} s, bench CPU {cl['bench_cpu_s']:.1f} s; "
              f"games {cl['games_finished']}")
            w(f"  {'latency to all ' + str(cl['clients']) + ' clients (ms)':34s}   p50     p90     p99     max")
            for k in ("play", "ready", "restart", "start"):
                if k in cl["latency_ms"]:
                    w(f"  {k:32s} {fmt_lat(cl['latency_ms'][k])}")
            for part, d in cl.get("play_state_by_recipient_ms", {}).items():
                w(f"  {'play: state at ' + part:32s} {fmt_lat(d)}")
            if "play" in cl["result_rtt_ms"]:
                w(f"  {'play: result at sender':32s} {fmt_lat(cl['result_rtt_ms']['play'])}")
            if cl["refused"]:
                w(f"  refused: {cl['refused']}")
        sp = r.get("closed_spectators")
        if sp:
            w(f"with {sp['spectators']} extra TV spectators ({sp['clients']} clients): "
              f"{sp['plays']} plays, {sp['actions_per_s']:.0f} actions/s; server CPU {sp['server_cpu_s']:.1f} s")
            if "play" in sp["latency_ms"]:
                w(f"  {'play latency to all clients':32s} {fmt_lat(sp['latency_ms']['play'])}")
            for part, d in sp.get("play_state_by_recipient_ms", {}).items():
                w(f"  {'play: state at ' + part:32s} {fmt_lat(d)}")
        for key, title in (("burst_ready", "burst, legal ready toggles"),
                           ("burst_refused", "burst, refused plays (stale)")):
            b = r.get(key)
            if b:
                views = f", all views in {b['views_s']:.2f} s ({b['views_per_s']:.0f}/s)" if b.get("views_s") else ""
                w(f"{title}: {b['actions']} sent ({b['accepted']} ok, refused {b['refused'] or 0}) "
                  f"in {b['send_s']:.2f} s; results in {b['results_s']:.2f} s = {b['results_per_s']:.0f} actions/s"
                  f"{views}; {b['states_per_client']} states/client; server CPU {b['server_cpu_s']:.1f} s")
        mems = [("idle", "mem_idle"), ("connected", "mem_connected"), ("after closed", "mem_after_closed"),
                ("after bursts", "mem_after_burst"), ("+spectators", "mem_spectators"), ("end", "mem_peak")]
        parts = [f"{lbl} {r[k]['VmRSS']:.1f}" for lbl, k in mems if r.get(k, {}).get("VmRSS")]
        peak = r.get("mem_peak") or r.get("mem_end") or {}
        if parts:
            w("server RSS MB: " + ", ".join(parts) + f"; peak (VmHWM) {peak.get('VmHWM', float('nan')):.1f}")
        if r.get("state_bytes"):
            w(f"state payload: phone {r['state_bytes']['phone']} B, TV {r['state_bytes']['tv']} B (compact JSON)")
        w(f"disconnect of all clients: {r.get('disconnect_s', 0):.2f} s")
        for o in r.get("oddities", []):
            w(f"  ! {o}")
        if r.get("error"):
            w(f"  ERROR: {r['error']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mode", choices=["eventlet", "threading", "both"], default="eventlet")
    ap.add_argument("--phones", type=int, default=4, help="phones (The Mind: 2-4)")
    ap.add_argument("--plays", type=int, default=2000, help="plays in the closed loop")
    ap.add_argument("--time-limit", type=float, default=20.0, help="seconds cap of the closed loop")
    ap.add_argument("--burst", type=int, default=2000, help="actions per burst (all phones), 0 = none")
    ap.add_argument("--spectators", type=int, default=8, help="extra TV sockets for the fan-out run")
    ap.add_argument("--spectator-plays", type=int, default=400, help="plays with spectators, 0 = skip")
    ap.add_argument("--spectator-time", type=float, default=8.0, help="seconds cap of the spectator loop")
    ap.add_argument("--engine-actions", type=int, default=600,
                    help="actions for the in-process engine timing (no sockets), 0 = skip")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=5.0, help="seconds to wait for one view")
    ap.add_argument("--json", nargs="?", const="-", metavar="FILE",
                    help="write results as JSON to FILE ('-' or no value: stdout, table to stderr)")
    ap.add_argument("--keep", action="store_true", help="keep the temp folder (server log, snapshot)")
    ap.add_argument("--server-nodelay", action="store_true",
                    help="experiment: start the server with TCP_NODELAY on accepted sockets")
    ap.add_argument("--utf8-validation", action="store_true",
                    help="let websocket-client validate UTF-8 of every frame (slow, pure Python)")
    args = ap.parse_args(argv)
    Sim.skip_utf8_validation = not args.utf8_validation
    if not 2 <= args.phones <= 4:
        ap.error("The Mind takes 2-4 phones")
    modes = ["eventlet", "threading"] if args.mode == "both" else [args.mode]
    info = {"machine": machine(), "args": vars(args), "started": time.strftime("%Y-%m-%d %H:%M:%S")}
    results = []
    t0 = perf()
    status = 0
    if args.engine_actions > 0:
        info["engine_store"] = engine_inprocess(args.engine_actions, args.phones, args.seed, True)
        info["engine_nostore"] = engine_inprocess(args.engine_actions, args.phones, args.seed, False)
    for mode in modes:
        mb = ModeBench(mode, args)
        try:
            results.append(mb.run())
        except Exception as exc:  # report and go on with the next mode
            mb.out["error"] = f"{type(exc).__name__}: {exc}"
            results.append(mb.out)
            status = 1
        except KeyboardInterrupt:
            mb.out["error"] = "interrupted"
            results.append(mb.out)
            status = 130
            break
    info["total_s"] = perf() - t0
    text = report(results, info) + f"\n\ntotal {info['total_s']:.1f} s"
    doc = {"info": info, "results": results}
    if args.json == "-":
        print(text, file=sys.stderr)
        print(json.dumps(doc, indent=2, default=str))
    else:
        print(text)
        if args.json:
            Path(args.json).write_text(json.dumps(doc, indent=2, default=str) + "\n")
    return status


if __name__ == "__main__":
    sys.exit(main())
