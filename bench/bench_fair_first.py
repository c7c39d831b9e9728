#!/usr/bin/env python3
"""Benchmark: the fair first card (issue 26). Who wins a Word Basket race over unequal links?

The real server (threading mode, in this process, on loopback) and two phones
(``socketio.Client`` over WebSocket) with one-way delays injected in the phones' send and receive
paths (both ways, so clock sync sees them): phone "near" 5 ms, phone "far" 80±20 ms (uniform), each
with its own clock (shifted by seconds, read in whole milliseconds like a browser's
``Date.now()``). Each phone syncs as ``app.js`` does (:class:`partyhost.pyclient.ClockPinger`: a
burst at the start, then one echoed exchange between races, as the phone's every-10-s ping would
between real races). Before each race the bench arranges both hands in the game (s1 holds る, s2
holds り, field あ: both plays fit); then:

* same instant: both phones stamp their tap at the same moment (order shuffled) and send it.
  Target: the far phone wins 50±10 % (arrival order: 0 %).
* far phone 40 ms earlier: target ≥ 95 % for the far phone (arrival order: 0 %: its play arrives
  ~35 ms after the near one's).

The network lab (tests/netlab.py, network namespaces with netem) was not on main when this was
written: delays are injected in the client instead. Prints the shares and the hold window.
Run: ``.venv/bin/python bench/bench_fair_first.py [--rounds N]``.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import random
import sys
import threading
import time
from pathlib import Path

import socketio

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
from partyhost.pyclient import ClockPinger, in_order  # noqa: E402
from partyhost.server import create_app, start_engine  # noqa: E402
from partyhost.serving import listen, serve  # noqa: E402
from tests.wb_rig import K, arrange  # noqa: E402

PLAYS = {"s1": (K("る"), "あひる"), "s2": (K("り"), "あさり")}


class Phone:
    """A python-socketio phone behind a simulated link: ``up``/``down`` one-way delays (mean,
    ±jitter, seconds), a clock ``theta`` seconds off the host's, read in whole milliseconds."""

    def __init__(self, url: str, name: str, up: tuple[float, float], down: tuple[float, float],
                 theta: float, rng: random.Random, inside=None) -> None:
        self.up, self.down, self.theta, self.rng = up, down, theta, rng
        self.off = False  # --no-sync
        self.client = in_order(socketio.Client(reconnection=False))
        self.results: dict = {}
        self.welcomed = threading.Event()
        self.pinger = ClockPinger(self.send, self.clock)
        self.client.on("synced", lambda a: self.later(self.down, self.pinger.on_synced, a))
        self.client.on("result", lambda r: self.later(self.down, self.results.__setitem__, r.get("id"), r))
        self.client.on("welcome", lambda w: w.get("token") and self.welcomed.set())
        with inside or contextlib.nullcontext():  # a lab phone's namespace: its sockets stay there
            self.client.connect(url, auth={"role": "phone", "lang": "ja"}, transports=["websocket"])
        self.client.emit("join", {"id": f"j-{name}", "name": name})
        self.welcomed.wait(5)

    def clock(self) -> float:
        return round(time.monotonic() + self.theta, 3)

    def later(self, delay: tuple[float, float], fn, *args) -> None:
        mean, jitter = delay
        wait = max(0.0, self.rng.uniform(mean - jitter, mean + jitter))
        timer = threading.Timer(wait, fn, args)
        timer.daemon = True
        timer.start()

    def send(self, event: str, payload) -> None:
        self.later(self.up, self.client.emit, event, payload)

    def sync(self, burst: int) -> None:
        if not self.off:
            self.pinger.start(burst)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=150, help="races per scenario")
    ap.add_argument("--no-sync", action="store_true", help="no clock sync: arrival order (before issue 26)")
    ap.add_argument("--lab", action="store_true",
                    help="in the network lab (tests/netlab.py: namespaces, links delayed in user space; root)")
    args = ap.parse_args()
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    with contextlib.ExitStack() as stack:
        run(args, stack)


def run(args: argparse.Namespace, stack: contextlib.ExitStack) -> None:
    rng = random.Random(26)
    near_link, far_link = ((0.005, 0.0), (0.005, 0.0)), ((0.080, 0.020), (0.080, 0.020))
    if args.lab:
        from tests.netlab import HOST_ADDRESS, Lab, unavailable
        why = unavailable()
        if why:
            raise SystemExit(f"no network lab here: {why}")
        lab = stack.enter_context(Lab(seed=26))
        with lab.in_host():  # the listening socket belongs to the host's namespace for good
            listener = listen("0.0.0.0", 8765, "threading")
        port, address = 8765, HOST_ADDRESS
        near_ns = lab.phone("near", delay_ms=5).inside
        far_ns = lab.phone("far", delay_ms=80, jitter_ms=20).inside
        near_link = far_link = ((0.0, 0.0), (0.0, 0.0))  # the lab's links delay the packets
        print("network lab: near 5 ms, far 80±20 ms each way (user-space links)")
    else:
        listener = listen("127.0.0.1", 0, "threading")
        port, address = listener.server_port, "127.0.0.1"
        near_ns = far_ns = None
        print("loopback, delays injected in the phones' send and receive paths: near 5 ms, far 80±20 ms")
    app, sio, engine = create_app({"ASYNC_MODE": "threading", "SEED": 5, "PORT": port, "RATE_PER_SECOND": 0,
                                   "BIND": address})
    start_engine(sio, engine)
    threading.Thread(target=serve, args=(app, listener, "threading"), daemon=True).start()
    url = f"http://{address}:{port}"
    tv = socketio.Client(reconnection=False)
    with lab.in_host() if args.lab else contextlib.nullcontext():
        tv.connect(f"http://127.0.0.1:{port}", auth={"role": "tv", "lang": "ja"}, transports=["websocket"])
    near = Phone(url, "ちか", *near_link, theta=1234.5, rng=rng, inside=near_ns and near_ns())
    far = Phone(url, "とお", *far_link, theta=-77.25, rng=rng, inside=far_ns and far_ns())
    tv.emit("host", {"id": "c", "op": "choose", "game": "word_basket", "options": {"word_mode": "free"}})
    time.sleep(0.3)
    tv.emit("host", {"id": "s", "op": "start"})
    deadline = time.time() + 5
    while (engine.party.game is None or not engine.party.running) and time.time() < deadline:
        time.sleep(0.05)
    seat_of = {}
    for conn in list(engine.connections.values()):
        if conn.sid == near.client.get_sid("/"):
            seat_of[near] = conn.seat
        elif conn.sid == far.client.get_sid("/"):
            seat_of[far] = conn.seat
    for phone in (near, far):
        phone.off = args.no_sync
        phone.sync(8)
    time.sleep(2.0)
    if args.no_sync:
        print("no clock sync: arrival order")
    else:
        print(f"hold window {engine.hold_window() * 1000:.0f} ms; far phone: min RTT "
              f"{engine.clock_of(far.client.get_sid('/')).min_rtt * 1000:.0f} ms, delay bound "
              f"{engine.clock_of(far.client.get_sid('/')).delay_bound * 1000:.0f} ms, jitter "
              f"{engine.clock_of(far.client.get_sid('/')).jitter * 1000:.1f} ms; draw zone "
              f"{engine.draw_zone() * 1000:.1f} ms")
    ids = iter(range(10 ** 9))

    def race(far_lead: float) -> tuple[str | None, dict | None]:
        time.sleep(0.25)  # the last race's states have gone out: the link is quiet
        for phone in (near, far):
            phone.sync(1)  # the phones' periodic exchange between races
        time.sleep(0.45)
        g = arrange(engine.party.game, {"s1": [K("る"), K("こ"), K("ね")], "s2": [K("り"), K("ほ"), K("み")]}, K("あ"))
        g.race = None
        serial = g.field["serial"]
        order = [near, far] if far_lead == 0 and rng.random() < 0.5 else [far, near]
        sent = []
        for i, phone in enumerate(order):
            if i == 1 and far_lead:
                time.sleep(far_lead)
            seat = seat_of[phone]
            card, word = PLAYS[seat]
            msg = {"id": f"r{next(ids)}", "game": engine.party.game_serial, "type": "play", "field": serial,
                   "card": card, "word": word, **phone.pinger.stamps()}
            phone.send("act", msg)
            sent.append((phone, msg["id"]))
        end = time.time() + 2
        while not all(mid in p.results for p, mid in sent) and time.time() < end:
            time.sleep(0.01)
        lp = g.last_play
        return (lp["seat"] if lp and lp["from"] == serial else None), g.race

    for label, lead, rounds in (("same instant", 0.0, args.rounds), ("far phone 40 ms earlier", 0.040, args.rounds // 2)):
        wins = ties = decided = 0
        for _ in range(rounds):
            winner, r = race(lead)
            if winner is None:
                continue
            decided += 1
            wins += winner == seat_of[far]
            ties += bool(r and r.get("tie"))
        print(f"{label}: far phone (80±20 ms) won {wins}/{decided} = {100 * wins / max(decided, 1):.0f} %, "
              f"near phone (5 ms) {100 * (decided - wins) / max(decided, 1):.0f} %; shown as ほぼ同時 {ties}")
    engine.stop()
    for c in (near.client, far.client, tv):
        c.disconnect()
    listener.shutdown() if hasattr(listener, "shutdown") else None


if __name__ == "__main__":
    main()
