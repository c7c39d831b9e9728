#!/usr/bin/env python3
"""One flush's game views, built and written in this process: each game at its largest table,
played by its own bots (:meth:`Game.suggest`, legal moves only) to about half way, then every
player's view and the table's built and encoded as the engine does at a flush
(``Game.sharing_views`` around the batch, one ``encode_view`` memo), against each view built and
written alone (no sharing, a fresh memo per view). Best of ``--runs`` timings of ``--loops``
flushes each, in microseconds per flush.

Run from a partyhost folder: ``.venv/bin/python bench/bench_table_parts.py [--games decrypto,...]``;
to compare two folders, run it from each (it measures the ``partyhost`` of the current folder).
Issue 18, sixth pass (the games' table parts).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.getcwd())


def midgame(cls, players: int, seed: int):
    """``cls`` set up for ``players`` seats (coach on) and played by its bots to about half of
    the moves a whole game takes from ``seed``."""
    from partyhost.games import schema
    from partyhost.games.base import RuleError

    def run(stop: int | None):
        rng = random.Random(seed)
        game = cls()
        seats = [f"s{i}" for i in range(1, players + 1)]
        game.setup(seats, schema.check_options(cls, {}), random.Random(seed), 0.0)
        game.coach = True
        now, moves = 0.0, 0
        for _ in range(20000):
            if game.over or moves == stop:
                break
            deadline = game.next_deadline()
            if deadline is not None and (rng.random() < 0.1 or deadline <= now):
                now = max(now, deadline)
                game.tick(now)
                moves += 1
                continue
            now += rng.choice((0.0, 0.3, 1.5))
            actor = rng.choice([*game.players, None])
            options = game.suggest(actor, rng)
            if not options:
                continue
            try:
                (game.host_apply if actor is None else lambda a, n: game.apply(actor, a, n))(rng.choice(options), now)
            except RuleError:
                continue
            moves += 1
        return game, moves

    _, total = run(None)
    game, _ = run(total // 2)
    return game


def flush(game, who, shared: bool, encode_view) -> int:
    """One flush's views of ``who``, written; the total length (so nothing is optimised away)."""
    if shared:
        memo: dict = {}
        with game.sharing_views():
            return sum(len(encode_view({"game": game.view(s)}, memo)) for s in who)
    return sum(len(encode_view({"game": game.view(s)}, {})) for s in who)


def best(fn, loops: int, runs: int) -> float:
    """Best of ``runs`` mean CPU times (this process's: the machine is shared) of ``fn`` over
    ``loops`` calls, in microseconds."""
    out = float("inf")
    for _ in range(runs):
        t0 = time.process_time()
        for _ in range(loops):
            fn()
        out = min(out, (time.process_time() - t0) / loops * 1e6)
    return out


def main() -> None:
    """Print, per game, one flush's microseconds alone and shared, and the written size."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", default="decrypto,top_ten,word_basket,diabolo,the_mind")
    ap.add_argument("--loops", type=int, default=30)
    ap.add_argument("--runs", type=int, default=25)
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args()
    from partyhost.engine import encode_view
    from partyhost.games import registry

    print(f"{'game':12} {'seats':>5} {'alone us':>9} {'shared us':>9} {'bytes':>7}")
    for key in args.games.split(","):
        cls = registry.GAMES[key]
        cls.prepare()
        game = midgame(cls, cls.MAX_PLAYERS, args.seed)
        who = [*game.players, None]
        size = flush(game, who, True, encode_view)
        assert size == flush(game, who, False, encode_view)
        alone = shared = float("inf")
        for _ in range(args.runs):  # alternated, so load changes hit both alike
            alone = min(alone, best(lambda: flush(game, who, False, encode_view), args.loops, 1))
            shared = min(shared, best(lambda: flush(game, who, True, encode_view), args.loops, 1))
        print(f"{key:12} {len(who):5} {alone:9.0f} {shared:9.0f} {size:7}")


if __name__ == "__main__":
    main()
