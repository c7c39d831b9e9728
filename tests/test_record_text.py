"""Issue 18, fifth pass: the night's record (up to 40 games) is written as JSON only when it holds
other entries, not twice per action (the held-parts check of every flush and the snapshot).

The store still writes exactly ``json.dumps(snapshot, ensure_ascii=False, sort_keys=True,
allow_nan=False)`` (the record's text is put in its place), whatever happens to the record: a
game added, the oldest dropped at :data:`RECORD_MAX`, a restored list of equal but new entries, a
text elsewhere holding the mark. A settled entry shares nothing with the game, so the entries
really never change once written.
"""

from __future__ import annotations

import json
import math

import pytest

from partyhost import wire
from partyhost.party import RECORD_MAX
from partyhost.store import Store

from .helpers import Rig
from .test_night_record import lose_the_mind


def _dumps(snapshot: dict) -> str:
    return json.dumps(snapshot, ensure_ascii=False, sort_keys=True, allow_nan=False)


def _entry(n: int) -> dict:
    return {"serial": n, "game": "the_mind", "players": [{"seat": "s1", "name": "名前"}],
            "result": {"coop": True, "won": n % 2 == 0, "detail": {"level": n}},
            "highlights": [{"key": "the_mind.hl.level_lost", "params": {"x": 1.5}}], "duration": 2.5 * n}


def _snapshot(record: list, game_text: str = "x") -> dict:
    return {"party": {"room": "ABCD", "record": record, "game": {"key": "k", "state": {"t": game_text}},
                      "seats": [], "summary": False}, "game_now": 12.25}


def _saved(store: Store) -> str:
    return store._connection().execute("SELECT data FROM snapshot WHERE id = 1").fetchone()[0]


def test_the_store_writes_exactly_the_whole_dump_as_the_record_changes(tmp_path, monkeypatch):
    store = Store(str(tmp_path / "data"))
    encoded = []
    real = store._record._encoder.encode
    monkeypatch.setattr(store._record, "_encoder", type("E", (), {
        "encode": staticmethod(lambda obj: encoded.append(len(obj)) or real(obj))})())
    record: list = []
    for step in range(RECORD_MAX + 3):
        record.append(_entry(step))
        del record[:-RECORD_MAX]
        for now in (1.0, 2.0):  # the second save: same record, another clock
            snap = _snapshot(record)
            snap["game_now"] = now + step
            store.save(snap)
            assert _saved(store) == _dumps(snap)
    assert len(encoded) == RECORD_MAX + 3, "the record is written once per change, not per save"
    restored = json.loads(json.dumps(record))  # equal entries, other objects: written again
    store.save(_snapshot(restored))
    assert _saved(store) == _dumps(_snapshot(restored)) and len(encoded) == RECORD_MAX + 4
    marked = _snapshot(restored, game_text="partyhost:record-text")  # the mark elsewhere
    store.save(marked)
    assert _saved(store) == _dumps(marked)
    assert json.loads(_saved(store))["party"]["game"]["state"]["t"] == "partyhost:record-text"
    empty = _snapshot([])
    store.save(empty)
    assert _saved(store) == _dumps(empty)
    store.close()


def test_a_non_finite_number_in_the_record_is_still_refused(tmp_path):
    store = Store(str(tmp_path / "data"))
    bad = _entry(1)
    bad["duration"] = math.inf
    with pytest.raises(ValueError):
        store.save(_snapshot([bad]))
    store.save(_snapshot([_entry(1)]))
    assert _saved(store) == _dumps(_snapshot([_entry(1)]))
    store.close()


def test_a_settled_entry_shares_nothing_with_the_game_and_its_text_is_kept():
    rig = Rig(seed=3)
    lose_the_mind(rig)
    party, game = rig.engine.party, rig.game
    entry = party.record[0]
    outcome = game.outcome()
    assert entry["result"] == outcome
    game.levels = 99  # the game changes after the record was written: the entry does not
    assert entry["result"]["detail"] == {"level": 1, "levels": 12}
    held = rig.engine._held_texts(rig.engine.party_view())
    assert held["record"] == wire.compact(party.record)
    assert rig.engine._held_texts(rig.engine.party_view())["record"] is held["record"]  # kept
