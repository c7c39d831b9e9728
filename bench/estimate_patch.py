#!/usr/bin/env python3
"""Estimate: would a per-socket patch (only the changed top-level parts of a view) shrink what a
browser receives? (issue 18, item 3)

In-process (the real app and engine, Flask-SocketIO test clients, a fake clock): a TV, 4 players
and 28 spectators play 40 cards of The Mind. One spectator's states are compressed as a browser's
WebSocket would receive them, with one persistent raw-deflate stream (permessage-deflate with
context takeover, level 6, a sync flush per frame, its 4-byte tail dropped): once as the full
states, once as patches holding only the top-level parts of ``game`` and ``party`` (and the other
keys) that changed since the previous state. Prints characters and deflated bytes per frame.
"""

from __future__ import annotations

import json
import random
import sys
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.helpers import Rig  # noqa: E402


def patch_of(state: dict, prev: dict) -> dict:
    """The top-level parts of ``state`` (one level down in ``game`` and ``party``) that differ."""
    patch: dict = {}
    for key, value in state.items():
        if key in ("game", "party") and isinstance(value, dict) and isinstance(prev.get(key), dict):
            changed = {k: v for k, v in value.items() if prev[key].get(k) != v}
            if changed:
                patch[key] = changed
        elif prev.get(key) != value:
            patch[key] = value
    return patch


def main() -> None:
    """Play 40 cards with 33 screens and print the per-frame sizes of full states and patches."""
    rig = Rig(seed=4)
    tv = rig.tv()
    players = [rig.phone(f"p{i}") for i in range(4)]
    assert tv.send("host", {"op": "start"})["ok"]
    spectators = [rig.phone(f"s{i}") for i in range(28)]
    cards = random.Random(1).sample(range(1, 101), 40)
    rig.game.hands = {f"s{i + 1}": sorted(cards[i * 10:(i + 1) * 10]) for i in range(4)}
    for p in players:
        assert p.act({"type": "ready", "level": 1, "ready": True})["ok"]
    watcher = spectators[5]
    start = len(watcher.received("state"))
    while rig.game.phase == "playing" and any(rig.game.hands.values()):
        seat, card = min(((s, min(h)) for s, h in rig.game.hands.items() if h), key=lambda x: x[1])
        rig.clock.advance(0.5)
        who = players[int(seat[1:]) - 1]
        assert who.act({"type": "play", "card": card, "level": rig.game.level,
                        "at": rig.engine.game_now()})["ok"]
    states = watcher.received("state")[start:]
    streams = {"full state": zlib.compressobj(6, zlib.DEFLATED, -15),
               "top-level patch": zlib.compressobj(6, zlib.DEFLATED, -15)}
    sizes = {name: [0, 0] for name in streams}
    prev = None
    for state in states:
        for name, stream in streams.items():
            body = state if name == "full state" or prev is None else patch_of(state, prev)
            text = '42["state",' + json.dumps(body, ensure_ascii=False, separators=(",", ":")) + "]"
            sizes[name][0] += len(text)
            sizes[name][1] += len(stream.compress(text.encode()) + stream.flush(zlib.Z_SYNC_FLUSH)) - 4
        prev = state
    print(f"{len(states)} states to one spectator (33 screens)")
    for name, (chars, wire) in sizes.items():
        print(f"{name}: {chars / len(states):.0f} characters, {wire / len(states):.1f} bytes deflated per frame")


if __name__ == "__main__":
    main()
