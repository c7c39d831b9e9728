#!/usr/bin/env python3
"""Benchmark: the built-in Japanese noun list (``partyhost.lexicon.japanese``).

Measured in a fresh process (this one): time of :func:`japanese.load`, its resident-memory cost
(wall and CPU time; RSS from ``/proc/self/statm`` before and after; peak from ``VmHWM``), then lookups per second for
:func:`japanese.is_known` on known and unknown readings, :func:`kana.reading` on typed words, and
:func:`japanese.readings_of` on kanji surfaces. Run: ``.venv/bin/python bench/bench_lexicon_ja.py``
(``--json`` for one machine-readable line). Numbers go to ``docs/performance.md``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import sys
import time
from importlib import resources
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6


def hwm_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1e3
    return float("nan")


def rate(fn, items, min_seconds: float = 0.5) -> float:
    """Calls per second of ``fn`` over ``items`` (repeated until ``min_seconds`` have passed)."""
    n, t0 = 0, time.perf_counter()
    while True:
        for x in items:
            fn(x)
        n += len(items)
        dt = time.perf_counter() - t0
        if dt >= min_seconds:
            return n / dt


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", action="store_true", help="print one JSON line")
    args = ap.parse_args()

    import_t0 = time.perf_counter()
    from partyhost.lexicon import japanese, kana
    import_s = time.perf_counter() - import_t0

    rss0, hwm0 = rss_mb(), hwm_mb()
    t0, c0 = time.perf_counter(), time.process_time()
    japanese.load()
    load_s, load_cpu_s = time.perf_counter() - t0, time.process_time() - c0
    rss1, hwm1 = rss_mb(), hwm_mb()
    t0 = time.perf_counter()
    japanese.load()
    reload_s = time.perf_counter() - t0

    data = resources.files("partyhost.lexicon").joinpath("data")
    sizes = {name: data.joinpath(name).stat().st_size if hasattr(data.joinpath(name), "stat")
             else len(data.joinpath(name).read_bytes())
             for name in (japanese.READINGS_FILE, japanese.SURFACES_FILE)}
    readings = gzip.decompress(data.joinpath(japanese.READINGS_FILE).read_bytes()).decode().split()
    surfaces = [line.split("\t", 1)[0] for line in
                gzip.decompress(data.joinpath(japanese.SURFACES_FILE).read_bytes()).decode().split("\n")
                if line]

    rng = random.Random(3)
    known = rng.sample(readings, 10_000)
    unknown = ["".join(rng.choice("あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほ")
                       for _ in range(rng.randint(3, 7))) for _ in range(10_000)]
    typed = [kana.normalize(w).translate({c: c + 0x60 for c in range(0x3041, 0x3097)})
             for w in known[:2000]]  # the same words typed in katakana
    kanji = rng.sample(surfaces, 5_000)
    unknown_share = sum(not japanese.is_known(u) for u in unknown) / len(unknown)

    result = {
        "readings": len(readings),
        "surfaces": len(surfaces),
        "file_bytes": sizes,
        "import_s": round(import_s, 4),
        "load_s": round(load_s, 4),
        "load_cpu_s": round(load_cpu_s, 4),
        "load_avg_1min": round(os.getloadavg()[0], 2),
        "load_again_s": round(reload_s, 6),
        "rss_delta_mb": round(rss1 - rss0, 1),
        "peak_rss_delta_mb": round(hwm1 - hwm0, 1),
        "rss_mb": round(rss1, 1),
        "is_known_known_per_s": round(rate(japanese.is_known, known)),
        "is_known_unknown_per_s": round(rate(japanese.is_known, unknown)),
        "random_kana_unknown_share": round(unknown_share, 3),
        "reading_katakana_per_s": round(rate(kana.reading, typed)),
        "readings_of_kanji_per_s": round(rate(japanese.readings_of, kanji)),
    }
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
        return 0
    print(f"Japanese noun list: {result['readings']:,} readings, {result['surfaces']:,} kanji surfaces; "
          f"files {sizes[japanese.READINGS_FILE] / 1e6:.2f} MB + {sizes[japanese.SURFACES_FILE] / 1e6:.2f} MB (gzip)")
    print(f"  load():          {load_s * 1000:7.1f} ms wall, {load_cpu_s * 1000:.1f} ms CPU "
          f"(again: {reload_s * 1e6:.1f} µs; import {import_s * 1000:.1f} ms; "
          f"machine load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs)")
    print(f"  memory:          {rss1 - rss0:7.1f} MB RSS added, peak +{hwm1 - hwm0:.1f} MB (process RSS {rss1:.0f} MB)")
    print(f"  is_known:        {result['is_known_known_per_s']:>12,} /s known   "
          f"{result['is_known_unknown_per_s']:>12,} /s unknown ({unknown_share:.1%} of random kana unknown)")
    print(f"  kana.reading:    {result['reading_katakana_per_s']:>12,} /s (katakana input)")
    print(f"  readings_of:     {result['readings_of_kanji_per_s']:>12,} /s (kanji surfaces)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
