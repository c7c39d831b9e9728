"""Issue 18, item 3: the snapshot is written before anything acknowledges the batch it holds,
but the other screens' states do not wait for it.

A message's answers (``result``, the ``welcome`` carrying a new seat's token, ``kicked``) and the
state of the socket that sent it go out only after the batch's snapshot was written, so ``kill
-9`` never loses an action a phone was told was taken (``test_store_faults.py`` kills a real
host). Sockets that sent nothing get their state first, and a burst of messages drained together
is written once (a group commit).
"""

from __future__ import annotations

from .helpers import Rig


class Recorder:
    """A store that notes, at each save, the events sent so far, and the snapshot."""

    def __init__(self, log: list) -> None:
        self.log = log
        self.saves: list[dict] = []

    def save(self, snapshot: dict) -> None:
        self.saves.append(snapshot)
        self.log.append(("SAVE", None, len(self.saves)))


def rig_with_log(seed: int = 7):
    rig = Rig(seed=seed)
    log: list = []
    real = rig.engine._emit

    def emit(event, data, sid):
        log.append((event, data, sid))
        real(event, data, sid)

    rig.engine._emit = emit
    rig.engine.store = Recorder(log)
    return rig, log



def test_answers_wait_for_the_snapshot_and_the_other_screens_do_not():
    rig, log = rig_with_log()
    tv = rig.tv()
    a, b = rig.phone("a"), rig.phone("b")
    assert tv.send("host", {"op": "start"})["ok"]
    watcher = rig.phone("c")  # joined during the game: it only watches
    sids = {c.seat: sid for sid, c in rig.engine.connections.items() if c.seat}
    tv_sid = next(sid for sid, c in rig.engine.connections.items() if c.role == "tv")
    del log[:]
    saves_before = len(rig.engine.store.saves)

    # two phones answer at once: one batch, one snapshot, both answers after it
    a.send("act", {"game": a.state["party"]["serial"], "type": "ready", "level": 1, "ready": True},
           drain=False)
    b.send("act", {"game": b.state["party"]["serial"], "type": "ready", "level": 1, "ready": True},
           drain=False)
    rig.drain()
    assert len(rig.engine.store.saves) == saves_before + 1
    saved = rig.engine.store.saves[-1]["party"]["game"]["state"]
    assert saved["phase"] == "playing", "the snapshot holds both answers"
    cut = next(i for i, e in enumerate(log) if e[0] == "SAVE")
    before, after = log[:cut], log[cut + 1:]
    # the screens that sent nothing (TV, the watcher) had their states before the disk write
    assert {sid for ev, _, sid in before if ev == "state"} == {tv_sid, sids["s3"]}
    assert not [e for e in before if e[0] != "state"]
    # a and b: their results, then their states, only after it
    assert [(ev, sid) for ev, _, sid in after] == [
        ("result", sids["s1"]), ("result", sids["s2"]), ("state", sids["s1"]), ("state", sids["s2"])]
    assert all(data["ok"] for ev, data, _ in after if ev == "result")
    assert watcher.state["game"]["phase"] == "playing"


def test_a_new_seat_s_token_is_given_only_once_the_seat_is_saved():
    rig, log = rig_with_log()
    rig.tv()
    del log[:]
    phone = rig.phone("あき")
    welcome = next(i for i, e in enumerate(log) if e[0] == "welcome" and e[1].get("token"))
    saves = [i for i, e in enumerate(log) if e[0] == "SAVE"]
    assert saves and saves[-1] < welcome
    saved = rig.engine.store.saves[-1]["party"]["seats"]
    assert [s["token"] for s in saved if s["name"] == "あき"] == [phone.token]


def test_a_refusal_changes_nothing_and_is_answered_without_a_write():
    rig, log = rig_with_log()
    tv = rig.tv()
    rig.phone("a")
    saves = len(rig.engine.store.saves)
    result = tv.send("host", {"op": "kick", "seat": "s9"})
    assert result is not None and result["ok"] is False
    assert len(rig.engine.store.saves) == saves


def test_a_view_that_cannot_be_built_still_saves_and_answers(monkeypatch):
    """A bug in a game's view must not hold the answers back or skip the write."""
    import pytest

    rig, log = rig_with_log()
    tv = rig.tv()
    a = rig.phone("a")
    saves = len(rig.engine.store.saves)

    def broken(*args, **kwargs):
        raise RuntimeError("a bug in a view")

    monkeypatch.setattr(rig.engine, "view_for", broken)
    a.client.emit("lang", {"id": "x1", "lang": "en"})
    with pytest.raises(RuntimeError):
        rig.drain()
    assert len(rig.engine.store.saves) == saves + 1
    assert rig.engine.store.saves[-1]["party"]["seats"][0]["lang"] == "en"
    assert a.result("x1") == {"id": "x1", "ok": True}


def test_a_seat_is_saved_exactly_as_dataclasses_asdict_wrote_it():
    """``Seat.to_dict`` replaced ``asdict`` in the snapshot (a tenth of the cost): same dict."""
    from dataclasses import asdict, fields

    from partyhost.party import Seat

    seats = [Seat("s1", "あき", "tok"), Seat("s2", "Bo", "t2", "en", 2, 12.5, True)]
    for seat in seats:
        assert seat.to_dict() == asdict(seat)
        assert list(seat.to_dict()) == [f.name for f in fields(Seat)]


def test_a_timer_that_raises_does_not_hold_the_batch_s_answers_back(monkeypatch):
    """A game's timer that fails (the engine restores the game and raises) in the same turn as
    a message: the message's answer and the states still go out, after the snapshot."""
    import pytest

    from partyhost.games.base import RuleError

    rig, log = rig_with_log()
    tv = rig.tv()
    a = rig.phone("a")
    rig.phone("b")
    assert tv.send("host", {"op": "start"})["ok"]
    game = rig.game

    def broken_tick(now):
        raise RuntimeError("a bug in a timer")

    monkeypatch.setattr(game, "next_deadline", lambda: rig.engine.game_now() - 1)
    monkeypatch.setattr(game, "tick", broken_tick)
    saves = len(rig.engine.store.saves)
    a.client.emit("lang", {"id": "t1", "lang": "en"})
    with pytest.raises(RuleError):
        rig.drain()
    assert a.result("t1") == {"id": "t1", "ok": True}
    assert len(rig.engine.store.saves) == saves + 1
    assert rig.engine.store.saves[-1]["party"]["seats"][0]["lang"] == "en"
