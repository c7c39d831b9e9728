#!/usr/bin/env python3
"""Benchmark: the Diabolo word lists (partyhost/lexicon/latin.py), German and English.

For each language, in a fresh Python process (so nothing is cached or shared):

* load -- wall time of the first ``latin.load(lang)`` (gunzip + split + frozenset), best of
  ``--repeat`` fresh processes;
* memory -- the process's VmRSS before and after the load, and VmHWM (peak RSS), from
  ``/proc/self/status``; the difference is what one list costs the server;
* lookups -- ``is_known`` on folded words (half hits drawn from the list, half misses made by
  changing a letter), and ``fold`` + ``is_known`` on raw typed words, per second, one core;
* file -- the gzip'd data file's size and word count.

Run: ``.venv/bin/python bench/bench_lexicon_latin.py [--repeat N] [--lookups N]``;
``make bench`` runs it with the defaults (about 15 s on 2 shared cores). Results: ``docs/lexicon_latin.md``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, random, sys, time
sys.path.insert(0, sys.argv[1])
lang, n = sys.argv[2], int(sys.argv[3])

def status(key):
    for line in open("/proc/self/status"):
        if line.startswith(key + ":"):
            return int(line.split()[1]) / 1024  # MiB
from partyhost.lexicon import latin
rss0 = status("VmRSS")
t = time.perf_counter()
latin.load(lang)
load_s = time.perf_counter() - t
rss1 = status("VmRSS")
t = time.perf_counter()
latin.load(lang)
reload_s = time.perf_counter() - t
ws = latin.words(lang)
rng = random.Random(4)
pool = sorted(ws)
hits = rng.sample(pool, 5000)
misses = []
for w in hits:
    i = rng.randrange(len(w))
    misses.append(w[:i] + "Q" + w[i + 1:] + "X")
probe = [w for pair in zip(hits, misses) for w in pair]
reps = max(1, n // len(probe))
is_known = latin.is_known
t = time.perf_counter()
found = 0
for _ in range(reps):
    for w in probe:
        found += is_known(w, lang)
look_s = time.perf_counter() - t
typed = [w.lower() for w in probe]
fold = latin.fold
t = time.perf_counter()
for _ in range(reps):
    for w in typed:
        is_known(fold(w, lang), lang)
fold_s = time.perf_counter() - t
print(json.dumps({
    "load_s": load_s, "reload_s": reload_s, "rss_before": rss0, "rss_after": rss1,
    "hwm": status("VmHWM"), "words": len(ws), "lookups": reps * len(probe),
    "lookups_per_s": reps * len(probe) / look_s, "fold_lookups_per_s": reps * len(probe) / fold_s,
    "hit_rate": found / (reps * len(probe)),
}))
"""


def run_child(lang: str, lookups: int) -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD, str(ROOT), lang, str(lookups)],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def main() -> None:
    ap = argparse.ArgumentParser(description="Diabolo word lists: load time, lookups/s, memory.")
    ap.add_argument("--repeat", type=int, default=3, help="fresh processes per language (best load kept)")
    ap.add_argument("--lookups", type=int, default=1_000_000, help="lookups per measurement")
    ap.add_argument("--json", action="store_true", help="print the raw numbers as JSON too")
    a = ap.parse_args()
    rows = {}
    for lang in ("de", "en"):
        runs = [run_child(lang, a.lookups) for _ in range(a.repeat)]
        best = min(runs, key=lambda r: r["load_s"])
        best["lookups_per_s"] = max(r["lookups_per_s"] for r in runs)
        best["fold_lookups_per_s"] = max(r["fold_lookups_per_s"] for r in runs)
        best["file_kib"] = (ROOT / f"partyhost/lexicon/data/{lang}_words.txt.gz").stat().st_size / 1024
        rows[lang] = best
    head = (f"{'lang':4} {'words':>8} {'file KiB':>9} {'load ms':>8} {'reload µs':>10} "
            f"{'RSS +MiB':>9} {'peak MiB':>9} {'lookups/s':>11} {'fold+look/s':>12} {'hits':>5}")
    print(head)
    print("-" * len(head))
    for lang, r in rows.items():
        print(f"{lang:4} {r['words']:>8} {r['file_kib']:>9.0f} {1000 * r['load_s']:>8.0f} "
              f"{1e6 * r['reload_s']:>10.1f} {r['rss_after'] - r['rss_before']:>9.1f} "
              f"{r['hwm']:>9.1f} {r['lookups_per_s']:>11,.0f} {r['fold_lookups_per_s']:>12,.0f} "
              f"{r['hit_rate']:>5.2f}")
    print(f"(best load of {a.repeat} fresh processes; {a.lookups:,} lookups each, half hits; "
          f"RSS + = VmRSS after load minus before; peak = VmHWM of that process)")
    compounds = compound_rate()
    print(f"de compound check (latin.is_word on words not in the list): "
          f"{compounds['split_per_s']:,.0f}/s on unlisted compounds (ZAHNBUERSTE…), "
          f"{compounds['salad_per_s']:,.0f}/s on 6–20-letter letter salad (worst case, no split)")
    rows["de_compounds"] = compounds
    if a.json:
        print(json.dumps(rows, indent=1))


def compound_rate(seconds: float = 0.5) -> dict:
    """German compound splitting (issue 14), in this process: checks per second of
    :func:`partyhost.lexicon.latin.is_word` on unlisted compounds and on random letter strings."""
    import random
    import string
    import time

    sys.path.insert(0, str(ROOT))
    from partyhost.lexicon import latin

    latin.load("de")
    compounds = ["ZAHNBUERSTE", "HAUSAUFGABE", "APFELSAFT", "HAUSTUEREN", "FAHRRADWEG",
                 "GEBURTSTAGSKUCHEN", "SCHOKOLADENKUCHEN", "FEUERWEHRAUTO"]
    rng = random.Random(1)
    salad = ["".join(rng.choice(string.ascii_uppercase) for _ in range(rng.randint(6, 20)))
             for _ in range(2000)]
    out = {}
    for key, items in (("split_per_s", compounds), ("salad_per_s", salad)):
        n, t0 = 0, time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            for w in items:
                latin.is_word(w, "de")
            n += len(items)
        out[key] = n / (time.perf_counter() - t0)
    return out


if __name__ == "__main__":
    main()
