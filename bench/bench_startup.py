#!/usr/bin/env python3
"""Benchmark: start to first accepted connection, and idle memory (issue 18's last two targets).

Each run starts ``python -m partyhost`` (a fresh party in a new data folder, every game
registered, so every word list loads: ``create_app`` calls each game's ``prepare()`` before the
server listens) and times from just before the process is spawned until a Socket.IO client (the
TV page's role, over a WebSocket offering permessage-deflate like a browser) has its ``welcome``:
the first connection the host accepted. The client retries every 10 ms while the port is not
open yet. ``start_cpu_s`` is the host's own CPU time (user + system) until then: on a loaded
machine the wall time includes waiting for a core, the CPU time does not. Then the host idles with that one screen connected for ``--idle`` seconds, and its
resident memory (VmRSS) and peak (VmHWM) are read from ``/proc``.

Prints one line per async mode, medians over ``--runs`` (targets: start <= 1.5 s, RSS <= 200 MB)::

    mode=<m> start_to_first_connection_s=<x> start_cpu_s=<c> idle_rss_mb=<y> peak_rss_mb=<z> runs=<...> load=<1-min>
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_mind as bm  # noqa: E402  (free_port, proc_status)
from bench_fanout import MiniSocketIO  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
perf = time.perf_counter

START_TARGET_S = 1.5
RSS_TARGET_MB = 200.0


def one_run(mode: str, idle: float, timeout: float) -> dict:
    """Start a host, time its first accepted connection, read its memory after ``idle`` s."""
    with tempfile.TemporaryDirectory(prefix="ph-start-") as tmp:
        port = bm.free_port()
        cmd = [sys.executable, "-m", "partyhost", "--port", str(port), "--bind", "127.0.0.1",
               "--no-browser", "--fresh", "--data", os.path.join(tmp, "data"), "--async-mode", mode]
        log = open(os.path.join(tmp, "server.log"), "wb")
        t0 = perf()
        proc = subprocess.Popen(cmd, cwd=str(ROOT), stdout=log, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, env=dict(os.environ, PYTHONUNBUFFERED="1"))
        client = None
        try:
            welcomed = threading.Event()
            while True:
                if proc.poll() is not None:
                    raise bm.BenchError(f"host exited with {proc.returncode}: "
                                        + Path(tmp, "server.log").read_text(errors="replace")[-2000:])
                if perf() - t0 > timeout:
                    raise bm.BenchError(f"no connection accepted within {timeout} s")
                client = MiniSocketIO()
                client.on("welcome", lambda data: welcomed.set())
                try:
                    client.connect(f"http://127.0.0.1:{port}", {"role": "tv", "lang": "ja"},
                                   wait_timeout=timeout)
                except (ConnectionRefusedError, ConnectionResetError, socket.timeout):
                    client = None
                    time.sleep(0.01)
                    continue
                break
            if not welcomed.wait(timeout):
                raise bm.BenchError("no welcome")
            started = perf() - t0
            cpu = bm.proc_cpu(proc.pid)  # the host's own CPU seconds to get there (load-proof)
            time.sleep(idle)
            mem = bm.proc_status(proc.pid)
            return {"start_s": started, "cpu_s": cpu, "rss_mb": mem.get("VmRSS", float("nan")),
                    "peak_mb": mem.get("VmHWM", float("nan"))}
        finally:
            if client is not None:
                client.disconnect()
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            log.close()


def main() -> None:
    """Run the start-up and memory measurement and print one line per mode."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--modes", default="eventlet,threading")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--idle", type=float, default=3.0, help="seconds idle before reading memory")
    ap.add_argument("--timeout", type=float, default=30.0)
    args = ap.parse_args()
    for mode in args.modes.split(","):
        load = os.getloadavg()[0]
        runs = [one_run(mode, args.idle, args.timeout) for _ in range(args.runs)]
        start = statistics.median(r["start_s"] for r in runs)
        rss = statistics.median(r["rss_mb"] for r in runs)
        cpu = statistics.median(r["cpu_s"] for r in runs)
        peak = max(r["peak_mb"] for r in runs)
        each = ",".join(f"{r['start_s']:.2f}" for r in runs)
        print(f"mode={mode} start_to_first_connection_s={start:.2f} start_cpu_s={cpu:.2f} idle_rss_mb={rss:.1f} "
              f"peak_rss_mb={peak:.1f} runs={each} "
              f"load={load:.1f}-{os.getloadavg()[0]:.1f} "
              f"targets: start {'met' if start <= START_TARGET_S else 'NOT met'} (<= {START_TARGET_S} s), "
              f"rss {'met' if rss <= RSS_TARGET_MB else 'NOT met'} (<= {RSS_TARGET_MB:.0f} MB)",
              flush=True)


if __name__ == "__main__":
    main()
