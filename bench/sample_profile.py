#!/usr/bin/env python3
"""Run ``python -m partyhost ARGS`` under a small sampling profiler (``bench_fanout.py --profile``).

Every 2 ms of the process's CPU time (``ITIMER_PROF``) the running Python stack is sampled
(eventlet runs every green thread on the one OS thread, so this is where the CPU went). On
SIGTERM the share of samples per function (self, and anywhere on the stack) is written to the
file named by ``PARTYHOST_PROFILE_OUT``. Start-up work (imports, word lists) is left out. No dependency beyond the standard library.
"""

from __future__ import annotations

import collections
import os
import signal
import sys

self_counts: collections.Counter = collections.Counter()
total_counts: collections.Counter = collections.Counter()
samples = [0]


def _where(code) -> str:
    path = code.co_filename
    for marker in ("site-packages/", "partyhost/", "lib/python3"):
        if marker in path:
            path = path.split(marker, 1)[1]
            break
    return f"{path}:{code.co_name}"


STARTUP = ("cli.py:_build",)
"""Samples with one of these on the stack (or any module being imported) are start-up work
(word lists, indexes, imports) and left out: the profile is of the running server."""


def _sample(signum, frame) -> None:
    if frame is None:
        return
    names = []
    while frame is not None:
        name = _where(frame.f_code)
        if name in STARTUP or name.endswith(":<module>") and "sample_profile" not in name:
            return
        names.append(name)
        frame = frame.f_back
    samples[0] += 1
    self_counts[names[0]] += 1
    for name in set(names):
        total_counts[name] += 1


def _dump(*_args) -> None:
    signal.setitimer(signal.ITIMER_PROF, 0)
    n = max(1, samples[0])
    lines = [f"samples: {samples[0]} (2 ms of CPU each)", "", "self %  function"]
    lines += [f"{100 * c / n:6.1f}  {name}" for name, c in self_counts.most_common(40)]
    lines += ["", "total %  function (anywhere on the stack)"]
    lines += [f"{100 * c / n:6.1f}  {name}" for name, c in total_counts.most_common(70)]
    with open(os.environ.get("PARTYHOST_PROFILE_OUT", "profile.txt"), "w") as out:
        out.write("\n".join(lines) + "\n")
    os._exit(0)


if __name__ == "__main__":
    signal.signal(signal.SIGPROF, _sample)
    signal.signal(signal.SIGTERM, _dump)
    signal.setitimer(signal.ITIMER_PROF, 0.002, 0.002)
    from partyhost.__main__ import main

    sys.exit(main(sys.argv[1:]))
