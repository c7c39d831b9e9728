#!/usr/bin/env python3
"""Where the engine's own time goes per action: The Mind driven through ``Engine.drain()`` in this
process (``bench_mind.engine_inprocess``: no sockets, ``emit`` a no-op, the real SQLite store),
with a wall-clock accumulator around the engine's steps (drain, flush, fan-out, held parts,
party view, snapshot, checks, rollback copy). Nested steps are included in their callers.

Run from a partyhost folder: ``.venv/bin/python bench/bench_engine_parts.py [--actions 2000]
[--phones 8]``; to compare two folders, run it from each (``cd OTHER && python
/path/to/bench_engine_parts.py``: it measures the ``partyhost`` of the current folder) and
alternate. Issue 18, fifth pass (docs/performance.md).
"""

from __future__ import annotations

import argparse
import collections
import functools
import os
import sys
import time

sys.path.insert(0, os.getcwd())
sys.path.insert(0, os.path.join(os.getcwd(), "bench"))


def main() -> None:
    """Drive the game, print each step's microseconds per action and share of ``drain``."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--actions", type=int, default=2000)
    ap.add_argument("--phones", type=int, default=8, help="phones besides the one TV")
    ap.add_argument("--wall", action="store_true",
                    help="wall-clock time (default: this thread's CPU time, steadier on a busy machine)")
    args = ap.parse_args()
    clock = time.perf_counter if args.wall else time.thread_time
    import bench_mind
    from partyhost import engine, party, store
    from partyhost.games import base, schema

    spent: collections.Counter = collections.Counter()
    calls: collections.Counter = collections.Counter()

    def timed(owner, name: str) -> None:
        label = f"{getattr(owner, '__name__', owner).rsplit('.', 1)[-1]}.{name}"
        real = getattr(owner, name)

        @functools.wraps(real)
        def wrapper(*a, **k):
            t0 = clock()
            try:
                return real(*a, **k)
            finally:
                spent[label] += clock() - t0
                calls[label] += 1
        setattr(owner, name, wrapper)

    E = engine.Engine
    for owner, name in [(E, "drain"), (E, "_process"), (E, "_flush"), (E, "_fan_out"), (E, "_save"),
                        (E, "_check_envelope"), (E, "_guarded"), (E, "_held_texts"), (E, "party_view"),
                        (store.Store, "save"), (party.Party, "to_dict"), (base.Game, "to_json"),
                        (schema, "check_action")]:
        timed(owner, name)
    bench_mind.engine_inprocess(args.actions, args.phones, 7, True)
    total = spent["Engine.drain"]
    print(f"# {os.getcwd()}: {args.actions} actions, 1 TV + {args.phones} phones, load {os.getloadavg()[0]:.2f}, "
          f"{'wall' if args.wall else 'CPU'} time")
    for label, seconds in spent.most_common():
        print(f"{label:28s} {seconds * 1e6 / args.actions:8.1f} us/action {100 * seconds / total:5.1f} %"
              f"  calls/action {calls[label] / args.actions:.2f}")


if __name__ == "__main__":
    main()
