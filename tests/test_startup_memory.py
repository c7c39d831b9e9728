"""Issue 18, sixth pass: what the host loads at start (word lists, catalogues, the restored party)
is moved out of the garbage collector's reach before it serves, so no collection during the night
walks it again (the first ones after start stopped the loop for ~40–60 ms each: measured in
``docs/performance.md``)."""

from __future__ import annotations

import gc

from partyhost import cli
from partyhost.__main__ import parse_args


def test_what_the_start_made_is_frozen_before_the_host_serves(tmp_path, monkeypatch):
    seen: dict = {}
    monkeypatch.setattr(cli, "listen", lambda bind, port, mode: object())
    monkeypatch.setattr(cli, "start_engine", lambda socketio, engine: None)
    monkeypatch.setattr(cli, "serve_http", lambda app, listener, mode: seen.setdefault(
        "frozen", gc.get_freeze_count()))
    before = gc.get_freeze_count()
    try:
        cli.serve(parse_args(["--data", str(tmp_path), "--no-browser", "--async-mode", "threading",
                              "--port", "8765"]))
    finally:
        gc.unfreeze()  # the rest of the test session collects as usual
    assert before == 0
    assert seen["frozen"] > 10_000  # every object alive at start, the games' word lists among them
