"""Issue 18: one action encodes the game once (for the snapshot), and never deep-copies it
through ``to_dict`` (which dumps and parses).

Before: ``Engine._guarded`` kept ``Game.to_dict()`` (dumps + loads) before every change, the
snapshot called ``to_dict()`` again (dumps + loads) and the store dumped it a third time. Then the
rollback copy became ``Game.to_json()`` (parsed only when a change fails) and the snapshot encoded
``Game.live_dict()``. Sixth pass: when the store's last text holds the game as it is (only an
action has run since the write), that text is the rollback copy. The stored text is the same, and
a failing change still restores the game exactly (here, and
``test_engine.py::test_exception_inside_a_game_is_answered_and_state_restored``).
"""

from __future__ import annotations

import json

from partyhost.games.base import Game
from partyhost.games.the_mind import TheMind

from .helpers import Rig


class TextStore:
    """A store that keeps what the real one writes: the snapshot's sorted JSON text."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    def save(self, snapshot: dict) -> None:
        self.texts.append(json.dumps(snapshot, ensure_ascii=False, sort_keys=True, allow_nan=False))


def test_an_action_never_deep_copies_the_game(monkeypatch):
    rig = Rig(seed=5)
    rig.engine.store = TextStore()
    tv, a, b = rig.playing({"s1": [10, 40], "s2": [20]})
    calls = []
    real = Game.to_dict

    def counting(self):
        calls.append(type(self).__name__)
        return real(self)

    monkeypatch.setattr(Game, "to_dict", counting)
    saved = len(rig.engine.store.texts)
    assert a.act({"type": "play", "level": 1, "card": 10})["ok"]
    assert calls == [], "the rollback copy and the snapshot do not go through to_dict"
    assert len(rig.engine.store.texts) == saved + 1
    monkeypatch.undo()
    # what was written is exactly the deep-copied snapshot's text
    expected = json.dumps({"party": rig.engine.party.to_dict(), "game_now": json.loads(
        rig.engine.store.texts[-1])["game_now"]}, ensure_ascii=False, sort_keys=True, allow_nan=False)
    assert rig.engine.store.texts[-1] == expected
    assert json.loads(expected)["party"]["game"]["state"]["hands"]["s1"] == [40]


def test_to_json_and_live_dict_match_to_dict():
    rig = Rig(seed=6)
    rig.playing({"s1": [3, 50], "s2": [7]})
    game = rig.game
    assert isinstance(game, TheMind)
    assert json.loads(game.to_json()) == game.to_dict()
    assert json.dumps(game.live_dict(), sort_keys=True) == json.dumps(game.to_dict(), sort_keys=True)
    assert json.dumps(rig.engine.party.to_dict(live=True), sort_keys=True) == json.dumps(
        rig.engine.party.to_dict(), sort_keys=True)
    copy = game.to_dict()
    copy["hands"]["s1"].append(99)  # to_dict still hands out a copy nobody shares
    assert game.hands["s1"] == [3, 50]


def store_rig(tmp_path, seed: int) -> Rig:
    """A rig whose engine writes to a real :class:`partyhost.store.Store` in ``tmp_path``."""
    from partyhost.store import Store

    return Rig(seed=seed, STORE=Store(str(tmp_path)))


def counting_to_json(monkeypatch) -> list:
    calls: list = []
    real = Game.to_json

    def counting(self):
        calls.append(type(self).__name__)
        return real(self)

    monkeypatch.setattr(Game, "to_json", counting)
    return calls


def test_the_rollback_copy_of_an_action_is_the_stores_last_text(tmp_path, monkeypatch):
    """Sixth pass: after a flush wrote the snapshot, the next action's rollback copy is that
    text; the game is encoded once per action (for the snapshot), not twice."""
    rig = store_rig(tmp_path, 7)
    tv, a, b = rig.playing({"s1": [10, 40], "s2": [20]})
    calls = counting_to_json(monkeypatch)
    assert a.act({"type": "play", "level": 1, "card": 10})["ok"]
    assert b.act({"type": "play", "level": 1, "card": 20})["ok"]
    assert calls == []
    # a message that is not an action (here a phone's language) may change things outside the
    # game's pipeline: an action after it in the same batch, before any write, has its copy
    # encoded afresh; after the batch's write the store's text is current again
    a.send("lang", {"lang": "en"}, drain=False)
    assert a.act({"type": "play", "level": 1, "card": 40})["ok"]
    assert calls == ["TheMind"]
    assert rig.engine._saved_game[:2] == (rig.game, rig.game.version)


def test_a_failing_change_is_undone_from_the_stores_text(tmp_path, monkeypatch):
    rig = store_rig(tmp_path, 8)
    tv, a, b = rig.playing({"s1": [10, 40], "s2": [20, 60]})
    assert a.act({"type": "play", "level": 1, "card": 10})["ok"]  # saved: the next copy is the text
    before = rig.game.to_dict()
    calls = counting_to_json(monkeypatch)

    def broken(self, seat, action, now):
        self.hands[seat].clear()  # a half-done change, then a bug
        self.lives = 0
        raise ZeroDivisionError("bug")

    monkeypatch.setattr(TheMind, "_do_play", broken)
    assert b.act({"type": "play", "level": 1, "card": 20})["code"] == "internal"
    assert calls == []  # the copy came from the store, not from a new encoding
    monkeypatch.undo()
    assert rig.game.to_dict() == before
    assert b.act({"type": "play", "level": 1, "card": 20})["ok"]
    assert rig.game.hands["s2"] == [60]


def test_a_refused_action_keeps_the_stores_text_as_the_next_copy(tmp_path, monkeypatch):
    rig = store_rig(tmp_path, 9)
    tv, a, b = rig.playing({"s1": [10, 40], "s2": [20]})
    calls = counting_to_json(monkeypatch)
    assert a.act({"type": "play", "level": 1, "card": 99})["ok"] is False  # not in the hand: refused
    assert a.act({"type": "play", "level": 1, "card": 10})["ok"]
    assert calls == []


def test_a_failed_write_then_a_failing_change_restores_the_game_as_it_is(tmp_path, monkeypatch):
    """The store's text is the copy only while it holds the game as it is: after a write that
    failed, the next change's copy is a fresh encoding of the live game."""
    rig = store_rig(tmp_path, 10)
    tv, a, b = rig.playing({"s1": [10, 40], "s2": [20, 60]})

    def failing(snapshot):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(rig.engine.store, "save", failing)
    assert a.act({"type": "play", "level": 1, "card": 10})["ok"]  # taken; the write failed
    assert rig.engine._saved_game is None
    before = rig.game.to_dict()

    def broken(self, seat, action, now):
        self.hands[seat].clear()
        raise ZeroDivisionError("bug")

    monkeypatch.setattr(TheMind, "_do_play", broken)
    assert b.act({"type": "play", "level": 1, "card": 20})["code"] == "internal"
    assert rig.game.to_dict() == before  # the 10 stays played: not the stale stored text
