"""Faults of the data folder are said, on the screen, and nothing is lost silently (issue 10 §4).

* A damaged data file in each form (not SQLite, truncated, a row that is not JSON, NaN/±Infinity in
  it, a game that will not load) starts the host with a clear message, keeps the party (seats,
  names, tokens, host, room) whenever its own part can be read, sends a broken game back to the
  lobby saying so, and keeps the old file aside, unchanged. ``--fresh`` always starts and makes a
  new host key.
* A failing save (disk full, read-only folder, a folder deleted or its file replaced) is shown on
  the TV until a save works again, is logged once (and its recovery once), and the game goes on.
* Two hosts on one data folder: the second refuses; a host killed with ``kill -9`` leaves no lock
  behind. The data files are the owner's only.

In-process tests use the real :class:`Store`, :func:`cli.open_store`/:func:`cli.restore` and the
``Rig``; the ``server``-marked ones run ``python -m partyhost``.
"""

from __future__ import annotations

import errno
import json
import logging
import math
import os
import re
import resource
import shutil
import sqlite3
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from partyhost import cli
from partyhost.__main__ import parse_args
from partyhost.engine import SAVE_RETRY, Engine
from partyhost.games.the_mind import TheMind
from partyhost.store import DB_NAME, LOCK_NAME, Store, StoreBusy

from .conftest import free_port
from .helpers import Rig

TOKENS = {"あき": "tok-aki", "Ben": "tok-ben"}


# --- helpers -------------------------------------------------------------------------------------


def save_party(folder: Path, game: str = "the_mind") -> dict:
    """Save a party of あき (s1) and Ben (s2, the promoted host phone) playing ``game`` in
    ``folder``, as a host would; returns its ``Party.to_dict()``."""
    with Store(str(folder)) as store:
        engine = Engine(lambda *a: None, seed=4, store=store)
        tokens = iter(TOKENS.values())
        for name in TOKENS:
            engine.party.join(name, "ja", lambda: next(tokens))
        for seat in engine.party.seats.values():
            seat.connections = 1
        engine.party.promote("s2")
        engine.party.choose(game)
        engine.party.start(engine.rng, 0.0)
        engine.drain()
        assert engine.save_failing is None
        return engine.party.to_dict()


def row(path: Path) -> str:
    """The snapshot text in the database at ``path`` (opened read-only: nothing is changed)."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return db.execute("SELECT data FROM snapshot").fetchone()[0]
    finally:
        db.close()


def set_row(folder: Path, text: str) -> None:
    db = sqlite3.connect(folder / DB_NAME)
    db.execute("UPDATE snapshot SET data = ?", (text,))
    db.commit()
    db.close()


def edit_snapshot(folder: Path, change) -> str:
    """Apply ``change(snapshot_dict)`` to the saved snapshot; write it as Python's json does (a
    NaN becomes a bare ``NaN`` token, as python-socketio once let in). Returns the text."""
    data = json.loads(row(folder / DB_NAME))
    change(data)
    text = json.dumps(data, ensure_ascii=False, sort_keys=True)
    set_row(folder, text)
    return text


def restore(folder: Path, *extra: str):
    """Start the host's app the way ``partyhost --data folder`` does, without listening."""
    args = parse_args(["--data", str(folder), "--async-mode", "threading", *extra])
    store = cli.open_store(args)
    app, sio, engine, notes = cli.restore(args, [], store)
    return store, app, sio, engine, notes


def screen_states(app, sio, engine, **auth) -> list[dict]:
    """Connect one screen (the laptop's TV by default), drain, return the states it got."""
    auth = {"role": "tv", **auth}
    client = sio.test_client(app, auth=auth, flask_test_client=app.test_client() if auth["role"] == "tv" else None)
    engine.drain()
    states = [p["args"][0] for p in client.get_received() if p["name"] == "state"]
    welcomes = [p["args"][0] for p in client.get_received() if p["name"] == "welcome"]
    client.disconnect()
    engine.drain()
    return states or welcomes


def asides(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("party.damaged-*.sqlite3"))


def assert_party_kept(engine: Engine, saved: dict) -> None:
    party = engine.party
    assert party.room == saved["room"]
    assert {s.name: s.token for s in party.seats.values()} == TOKENS
    assert party.host_seat == "s2"
    assert party.names == saved["names"]


def assert_back_in_lobby(engine: Engine, notes: list[str]) -> None:
    party = engine.party
    assert party.game is None and party.phase == "lobby"
    assert party.ended["reason"] == "restore_failed"
    assert any("ロビーに戻りました" in n and "back in the lobby" in n for n in notes), notes
    app, sio = engine_app[engine]
    tv = screen_states(app, sio, engine)[-1]
    json.dumps(tv, allow_nan=False)  # the TV can parse it
    assert tv["party"]["ended"]["reason"] == "restore_failed" and tv["game"] is None
    assert [r["name"] for r in tv["party"]["roster"]] == list(TOKENS)


engine_app: dict = {}


def restored(folder: Path, *extra: str):
    store, app, sio, engine, notes = restore(folder, *extra)
    engine_app[engine] = (app, sio)
    return store, engine, notes


@pytest.fixture(autouse=True)
def _forget_apps():
    yield
    engine_app.clear()


# --- a damaged data file -------------------------------------------------------------------------


def test_a_file_that_is_not_sqlite_is_kept_aside_and_a_new_party_starts(tmp_path):
    garbage = b"this is a shopping list, not a database\n" * 40
    (tmp_path / DB_NAME).write_bytes(garbage)
    store, engine, notes = restored(tmp_path)
    assert engine.party.seats == {}
    [aside] = asides(tmp_path)
    assert aside.read_bytes() == garbage
    assert any("壊れていた" in n and "damaged" in n and str(aside) in n for n in notes), notes
    tv = screen_states(*engine_app[engine], engine)[-1]
    assert tv["alerts"] == [{"code": "party_lost", "params": {}}]
    store.close()
    assert row(tmp_path / DB_NAME)  # the new file is sound and holds the new party
    # a second damaged file in the same second does not overwrite the first one kept aside
    (tmp_path / DB_NAME).write_bytes(b"more garbage")
    restored(tmp_path)[0].close()
    assert sorted(p.read_bytes() for p in asides(tmp_path)) == sorted([garbage, b"more garbage"])


def test_a_truncated_file_is_kept_aside_unchanged_and_a_new_party_starts(tmp_path):
    save_party(tmp_path)
    path = tmp_path / DB_NAME
    assert not (tmp_path / (DB_NAME + "-wal")).exists()
    with open(path, "r+b") as f:
        f.truncate(path.stat().st_size // 2)
    cut = path.read_bytes()
    store, engine, notes = restored(tmp_path)
    assert engine.party.seats == {}
    [aside] = asides(tmp_path)
    assert aside.read_bytes() == cut
    assert any("damaged" in n and str(aside) in n for n in notes), notes


def test_a_snapshot_that_is_not_json_is_copied_aside_and_a_new_party_starts(tmp_path):
    save_party(tmp_path)
    bad = '{"party": {"room": "ABCD", "seats": [{"id": "s1", "na'
    set_row(tmp_path, bad)
    store, engine, notes = restored(tmp_path)
    assert engine.party.seats == {}
    [aside] = asides(tmp_path)
    assert row(aside) == bad
    assert any("読めなかった" in n and "could not be read" in n and str(aside) in n for n in notes), notes
    assert screen_states(*engine_app[engine], engine)[-1]["alerts"][0]["code"] == "party_lost"
    assert row(tmp_path / DB_NAME) != bad  # the live file moved on; the copy keeps the old row


@pytest.mark.parametrize("token", ["NaN", "Infinity", "-Infinity"])
def test_a_non_finite_number_in_the_game_drops_the_game_and_keeps_the_party(tmp_path, token):
    saved = save_party(tmp_path)
    text = edit_snapshot(tmp_path, lambda d: d["party"]["game"]["state"].update(level=float(token)))
    assert f'"level": {token}' in text
    store, engine, notes = restored(tmp_path)
    assert_party_kept(engine, saved)
    assert_back_in_lobby(engine, notes)
    [aside] = asides(tmp_path)
    assert row(aside) == text
    # a phone coming back with its token gets its seat, and only finite JSON
    app, sio = engine_app[engine]
    states = screen_states(app, sio, engine, role="phone", token="tok-aki")
    assert states[-1]["me"]["name"] == "あき"
    json.dumps(states, allow_nan=False)


def test_a_non_finite_game_clock_drops_the_game_and_keeps_the_party(tmp_path):
    saved = save_party(tmp_path)
    edit_snapshot(tmp_path, lambda d: d.update(game_now=float("nan")))
    store, engine, notes = restored(tmp_path)
    assert_party_kept(engine, saved)
    assert_back_in_lobby(engine, notes)
    assert math.isfinite(engine.game_now())


def test_a_non_finite_number_in_the_party_itself_is_refused(tmp_path):
    save_party(tmp_path)
    text = edit_snapshot(tmp_path, lambda d: d["party"].update(address_index=float("inf")))
    store, engine, notes = restored(tmp_path)
    assert engine.party.seats == {}  # refused, never resumed
    [aside] = asides(tmp_path)
    assert row(aside) == text
    assert any("再開できなかった" in n and "could not be resumed" in n for n in notes), notes
    json.dumps(screen_states(*engine_app[engine], engine), allow_nan=False)


def test_an_unknown_game_goes_back_to_the_lobby_with_the_party(tmp_path):
    saved = save_party(tmp_path)
    text = edit_snapshot(tmp_path, lambda d: d["party"]["game"].update(key="chess"))
    store, engine, notes = restored(tmp_path)
    assert_party_kept(engine, saved)
    assert_back_in_lobby(engine, notes)
    assert any("chess" in n for n in notes)
    assert row(asides(tmp_path)[0]) == text


def test_a_game_whose_from_dict_raises_goes_back_to_the_lobby_with_the_party(tmp_path):
    saved = save_party(tmp_path)
    edit_snapshot(tmp_path, lambda d: d["party"]["game"].update(state={"written by": "a later version"}))
    store, engine, notes = restored(tmp_path)
    assert_party_kept(engine, saved)
    assert_back_in_lobby(engine, notes)
    assert len(asides(tmp_path)) == 1


def test_a_game_that_loads_but_cannot_be_shown_goes_back_to_the_lobby(tmp_path, monkeypatch):
    saved = save_party(tmp_path)

    def broken_view(self, seat):
        raise KeyError("hands")

    monkeypatch.setattr(TheMind, "view", broken_view)
    store, engine, notes = restored(tmp_path)
    assert_party_kept(engine, saved)
    assert_back_in_lobby(engine, notes)


def test_a_sound_file_resumes_without_notes_or_copies(tmp_path):
    saved = save_party(tmp_path)
    store, engine, notes = restored(tmp_path)
    assert notes == [] and asides(tmp_path) == []
    assert_party_kept(engine, saved)
    assert engine.party.game is not None
    assert screen_states(*engine_app[engine], engine)[-1]["alerts"] == []


def test_fresh_starts_on_a_file_that_is_not_sqlite_and_makes_a_new_host_key(tmp_path):
    save_party(tmp_path)
    with Store(str(tmp_path)) as store:
        old_key = store.host_key()
    store, engine, notes = restored(tmp_path, "--fresh")
    new_key = engine_app[engine][0].config["HOST_KEY"]
    assert new_key != old_key and engine.party.seats == {}
    app, sio = engine_app[engine]
    assert screen_states(app, sio, engine)[-1]["alerts"] == []  # a new party was asked for
    # a TV on another device: the old ?key= URL no longer gives host powers, the new one does
    remote = lambda key: sio.test_client(app, auth={"role": "tv", "key": key})  # noqa: E731
    old, new = remote(old_key), remote(new_key)
    engine.drain()
    host = lambda c: [p["args"][0]["host"] for p in c.get_received() if p["name"] == "state"][-1]  # noqa: E731
    assert host(old) is False and host(new) is True
    store.close()

    garbage = b"\x00\x01 not sqlite at all"
    (tmp_path / DB_NAME).write_bytes(garbage)
    store, engine, notes = restored(tmp_path, "--fresh")
    assert engine.party.seats == {}
    assert engine_app[engine][0].config["HOST_KEY"] not in (old_key, new_key)
    assert [p.read_bytes() for p in asides(tmp_path)] == [garbage]
    store.close()


# --- a failing save ------------------------------------------------------------------------------


class FlakyStore:
    """A store whose ``save`` raises ``error`` while it is set."""

    def __init__(self) -> None:
        self.error: Exception | None = None
        self.saved: list[dict] = []

    def save(self, snapshot: dict) -> None:
        if self.error is not None:
            raise self.error
        self.saved.append(json.loads(json.dumps(snapshot)))


def test_a_failing_save_is_on_the_tv_until_a_save_works_and_the_game_goes_on(caplog):
    store = FlakyStore()
    rig = Rig(STORE=store)
    tv = rig.tv()
    a, b = rig.phone("a"), rig.phone("b")
    assert tv.state["alerts"] == [] and "alerts" not in a.state
    store.error = OSError(errno.ENOSPC, "No space left on device")
    caplog.set_level(logging.INFO, logger="partyhost")
    assert a.send("lang", {"lang": "en"})["ok"]
    warning = [{"code": "save_failed", "params": {"reason": "disk_full"}}]
    assert tv.state["alerts"] == warning
    assert "alerts" not in a.state  # a player's phone is not told; the host's screens are
    assert tv.send("host", {"op": "promote", "seat": "s2"})["ok"]
    assert b.state["alerts"] == warning

    # the game goes on meanwhile, batch after batch of failed saves
    assert tv.send("host", {"op": "start"})["ok"]
    for phone in (a, b):
        assert phone.act({"type": "ready", "level": 1, "ready": True})["ok"]
    assert tv.state["game"]["phase"] == "playing" and tv.state["alerts"] == warning
    assert not store.saved[-1]["party"]["game"]

    # the disk has room again: the next retry saves without anyone acting, and the warning goes
    store.error = None
    rig.clock.advance(SAVE_RETRY)
    rig.drain()
    assert tv.state["alerts"] == [] and b.state["alerts"] == []
    assert store.saved[-1]["party"]["game"]["state"]["phase"] == "playing"
    failures = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(failures) == 1, [r.getMessage() for r in failures]
    assert "保存できません" in failures[0].getMessage() and "cannot save" in failures[0].getMessage()
    assert sum("saving works again (" in r.getMessage() for r in caplog.records) == 1


def test_saving_retries_on_its_own_while_nothing_changes():
    store = FlakyStore()
    rig = Rig(STORE=store)
    tv = rig.tv()
    store.error = PermissionError(errno.EROFS, "Read-only file system")
    rig.phone("a")
    assert tv.state["alerts"][0]["params"]["reason"] == "read_only"
    assert rig.engine.next_wakeup() == pytest.approx(rig.clock.now + SAVE_RETRY)
    rig.clock.advance(SAVE_RETRY)
    rig.drain()  # still failing: the warning stays, the next retry is planned
    assert tv.state["alerts"][0]["code"] == "save_failed"
    store.error = None
    rig.clock.advance(SAVE_RETRY)
    rig.drain()
    assert tv.state["alerts"] == [] and rig.engine.next_wakeup() is None


def test_a_deleted_data_folder_is_made_again_with_the_whole_party(tmp_path):
    folder = tmp_path / "data"
    rig = Rig(STORE=Store(str(folder)))
    tv = rig.tv()
    a = rig.phone("あき")
    shutil.rmtree(folder)  # while the host runs: saving on into deleted files would lose the night
    assert a.send("lang", {"lang": "en"})["ok"]
    saved = json.loads(row(folder / DB_NAME))["party"]
    assert [(s["name"], s["token"], s["lang"]) for s in saved["seats"]] == [("あき", a.token, "en")]
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE((folder / DB_NAME).stat().st_mode) == 0o600
    assert tv.state["alerts"] == []


def test_a_data_file_replaced_by_a_folder_is_on_the_tv_until_it_can_be_written_again(tmp_path):
    """Works as root too (chmod would not stop root): the file's place is taken by a directory."""
    folder = tmp_path / "data"
    rig = Rig(STORE=Store(str(folder)))
    tv = rig.tv()
    a = rig.phone("あき")
    for suffix in ("", "-wal", "-shm"):
        (folder / (DB_NAME + suffix)).unlink(missing_ok=True)
    (folder / DB_NAME).mkdir()
    assert a.send("lang", {"lang": "en"})["ok"]
    assert tv.state["alerts"] == [{"code": "save_failed", "params": {"reason": "io"}}]
    (folder / DB_NAME).rmdir()
    rig.clock.advance(SAVE_RETRY)
    rig.drain()
    assert tv.state["alerts"] == []
    saved = json.loads(row(folder / DB_NAME))["party"]
    assert [(s["name"], s["token"], s["lang"]) for s in saved["seats"]] == [("あき", a.token, "en")]


# --- the folder lock and file modes --------------------------------------------------------------


def test_one_store_per_folder(tmp_path):
    first = Store(str(tmp_path))
    with pytest.raises(StoreBusy) as busy:
        Store(str(tmp_path))
    assert busy.value.pid == os.getpid()
    with pytest.raises(SystemExit) as refused:
        cli.open_store(parse_args(["--data", str(tmp_path)]))
    assert "別の partyhost" in str(refused.value) and "in use by another partyhost" in str(refused.value)
    first.save({"party": {"room": "ABCD"}})  # the first one keeps working
    first.close()
    with Store(str(tmp_path)) as again:
        assert again.load() == {"party": {"room": "ABCD"}}


def test_data_files_are_readable_by_their_owner_only(tmp_path):
    old = os.umask(0)  # even with the loosest umask
    try:
        folder = tmp_path / "made-by-us"
        store = Store(str(folder))
        store.save({"party": {"room": "ABCD", "token": "secret"}})
        aside = Path(store.keep_aside())
        modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in folder.iterdir()}
        store.close()
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
        assert {DB_NAME, DB_NAME + "-wal", DB_NAME + "-shm", LOCK_NAME, aside.name} <= set(modes)
        assert set(modes.values()) == {0o600}, modes
        # a file an older version left world-readable is tightened at the next start
        os.chmod(folder / DB_NAME, 0o644)
        with Store(str(folder)):
            assert stat.S_IMODE((folder / DB_NAME).stat().st_mode) == 0o600
    finally:
        os.umask(old)


# --- the real host ---------------------------------------------------------------------------------


def _key(srv) -> str:
    match = re.search(r"\?key=([\w-]+)", srv.output())
    assert match, srv.output()
    return match.group(1)


def _second_host(data: Path, mode: str = "threading") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "partyhost", "--port", str(free_port()), "--bind", "127.0.0.1",
         "--no-browser", "--data", str(data), "--async-mode", mode],
        capture_output=True, text=True, timeout=20,
    )


def _phone(sio_peer, srv, name: str, token: str | None = None):
    ph = sio_peer(srv.url, {"role": "phone", "token": token, "lang": "ja"}, name)
    if token is None:
        assert ph.send("join", {"name": name})["ok"]
    ph.token = ph.wait(lambda: next((w.get("token") for w in ph.welcomes if w.get("token")), None) or token,
                       "token")
    ph.wait_state(lambda s: s.get("me"), "own seat")
    return ph


@pytest.mark.server
def test_a_second_host_on_one_data_folder_refuses_and_the_first_keeps_working(server, sio_peer, tmp_path):
    data = tmp_path / "data"
    first = server(data=data)
    aki = _phone(sio_peer, first, "あき")
    second = _second_host(data)
    assert second.returncode != 0
    said = second.stderr + second.stdout
    assert "別の partyhost" in said and "in use by another partyhost" in said, said
    assert f"pid {first.proc.pid}" in said
    assert "http://127.0.0.1" not in second.stdout  # no banner for a host that is not there
    ben = _phone(sio_peer, first, "Ben")  # the first one still serves and saves
    aki.wait_state(lambda s: [r["name"] for r in s["party"]["roster"]] == ["あき", "Ben"], "both seats")
    deadline = time.monotonic() + 5
    while [s["name"] for s in json.loads(row(data / DB_NAME))["party"]["seats"]] != ["あき", "Ben"]:
        assert time.monotonic() < deadline, "Ben's seat was never saved"
        time.sleep(0.05)
    assert ben.token


@pytest.mark.server
def test_a_host_killed_with_kill_9_restarts_into_its_party_and_holds_the_folder_again(server, sio_peer, tmp_path):
    data = tmp_path / "data"
    first = server(data=data)
    tv = sio_peer(first.url, {"role": "tv", "lang": "ja"}, "tv")
    phones = [_phone(sio_peer, first, name) for name in TOKENS]
    assert tv.send("host", {"op": "promote", "seat": phones[1].state["me"]["seat"]})["ok"]
    tv.wait_state(lambda s: s["party"]["host_seat"] == "s2", "Ben is host")
    room = tv.state["party"]["room"]  # a state goes out after its batch was saved
    first.proc.kill()  # kill -9: no clean shutdown, the lock file stays behind
    first.proc.wait(timeout=5)
    assert (data / LOCK_NAME).exists()

    again = server(data=data, fresh=False)
    assert again.wait_ready()["room"] == room
    back = _phone(sio_peer, again, "あき-back", token=phones[0].token)
    assert back.state["me"]["name"] == "あき" and back.state["party"]["host_seat"] == "s2"
    assert [r["name"] for r in back.state["party"]["roster"]] == list(TOKENS)
    refused = _second_host(data)  # the restarted host holds the folder again
    assert refused.returncode != 0 and "in use by another partyhost" in refused.stderr


@pytest.mark.server
def test_fresh_on_a_garbage_file_starts_and_rotates_the_host_key(server, tmp_path):
    data = tmp_path / "data"
    first = server(data=data, fresh=False)
    old_key = _key(first)
    first.stop()
    garbage = b"GIF89a this is a picture, not a party\n" * 30
    for suffix in ("-wal", "-shm"):
        (data / (DB_NAME + suffix)).unlink(missing_ok=True)
    (data / DB_NAME).write_bytes(garbage)
    again = server(data=data, fresh=True)
    assert again.wait_ready()["ok"]
    assert _key(again) != old_key
    [aside] = asides(data)
    assert aside.read_bytes() == garbage
    assert str(aside) in again.output() and "damaged" in again.output()


def _wal_size(data: Path) -> int:
    wal = data / (DB_NAME + "-wal")
    return wal.stat().st_size if wal.exists() else 0


@pytest.mark.server
@pytest.mark.skipif(not hasattr(resource, "prlimit"), reason="resource.prlimit is Linux-only")
def test_a_full_disk_is_on_the_tv_until_saving_works_again(server, sio_peer, tmp_path):
    """The disk fills up (RLIMIT_FSIZE on the running host: its files may not grow), the party
    plays on with the warning on the TV, the limit is lifted, the warning goes."""
    data = tmp_path / "data"
    srv = server(mode="threading", data=data)
    tv = sio_peer(srv.url, {"role": "tv", "lang": "ja"}, "tv")
    aki, ben = (_phone(sio_peer, srv, name) for name in TOKENS)
    tv.wait_state(lambda s: len(s["party"]["roster"]) == 2 and s["alerts"] == [], "two seats, no warning")
    soft, hard = resource.prlimit(srv.proc.pid, resource.RLIMIT_FSIZE)
    resource.prlimit(srv.proc.pid, resource.RLIMIT_FSIZE, (_wal_size(data), hard))
    try:
        assert aki.send("lang", {"lang": "en"})["ok"]
        tv.wait_state(lambda s: [a["code"] for a in s["alerts"]] == ["save_failed"], "the warning on the TV")
        assert tv.send("host", {"op": "start"})["ok"]  # the game goes on
        for ph in (aki, ben):
            ph.wait_state(lambda s: s["game"] and s["game"]["phase"] == "ready", "the deal")
            assert ph.act(type="ready", level=1, ready=True)["ok"]
        tv.wait_state(lambda s: s["game"]["phase"] == "playing" and s["alerts"], "playing, still warned")
    finally:
        resource.prlimit(srv.proc.pid, resource.RLIMIT_FSIZE, (soft, hard))
    tv.wait_state(lambda s: s["alerts"] == [], "the warning gone after the retry", )
    saved = json.loads(row(data / DB_NAME))["party"]
    assert saved["game"]["state"]["phase"] == "playing" and saved["seats"][0]["lang"] == "en"
    log = srv.output()
    assert log.count("cannot save the party") == 1, log
    assert log.count("saving works again (") == 1, log


def _chattr(flag: str, *paths: Path) -> bool:
    try:
        return subprocess.run(["chattr", flag, *map(str, paths)], capture_output=True).returncode == 0
    except FileNotFoundError:
        return False


@pytest.mark.server
def test_a_read_only_folder_is_on_the_tv_until_it_can_be_written_again(server, sio_peer, tmp_path):
    """The folder and its files become read-only while the host runs (``chattr +i``: chmod does
    not stop root, nor an open file)."""
    data = tmp_path / "data"
    srv = server(mode="eventlet", data=data)
    tv = sio_peer(srv.url, {"role": "tv", "lang": "ja"}, "tv")
    aki = _phone(sio_peer, srv, "あき")
    tv.wait_state(lambda s: len(s["party"]["roster"]) == 1, "the seat saved and shown")
    frozen = [data, data / DB_NAME, data / (DB_NAME + "-wal")]
    if not _chattr("+i", *frozen):
        pytest.skip("chattr +i is not permitted here (needs root on ext4/xfs)")
    try:
        assert aki.send("lang", {"lang": "en"})["ok"]
        state = tv.wait_state(lambda s: s["alerts"], "the warning on the TV")
        assert state["alerts"] == [{"code": "save_failed", "params": {"reason": "read_only"}}]
        assert aki.send("lang", {"lang": "ja"})["ok"]  # the party goes on
    finally:
        _chattr("-i", *frozen)
    tv.wait_state(lambda s: s["alerts"] == [], "the warning gone")
    assert "cannot save the party (read_only" in srv.output()

    # a host started on a folder it cannot write refuses, saying so, and changes nothing
    srv.stop()
    before = {p.name: p.read_bytes() for p in data.iterdir() if p.is_file()}
    for p in data.iterdir():
        _chattr("+i", p)
    _chattr("+i", data)
    try:
        refused = _second_host(data)
    finally:
        _chattr("-i", data, *data.iterdir())
    assert refused.returncode != 0
    assert "書き込めるフォルダを --data で" in refused.stderr and "give a writable folder" in refused.stderr
    assert {p.name: p.read_bytes() for p in data.iterdir() if p.is_file()} == before


_OVERLAPS = """([box, others]) => { const a = document.querySelector(box).getBoundingClientRect();
  return [...document.querySelectorAll(others)].filter((el) => { const r = el.getBoundingClientRect();
    return r.width > 0 && r.left < a.right && r.right > a.left && r.top < a.bottom && r.bottom > a.top; })
  .map((el) => el.getAttribute("data-testid") || el.className); }"""
_OUTSIDE = """(sel) => [...document.querySelectorAll(sel)].filter((el) => { const r = el.getBoundingClientRect();
  return r.width > 0 && (r.left < -0.5 || r.top < -0.5 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5); })
  .map((el) => el.getAttribute("data-testid") || el.className)"""


@pytest.mark.e2e
@pytest.mark.server
def test_the_save_warning_on_a_1280x720_tv_leaves_the_qr_code_and_start_uncovered(server, browser, sio_peer, tmp_path):
    from playwright.sync_api import expect

    data = tmp_path / "data"
    srv = server(data=data)
    ctx = browser.new_context(viewport={"width": 1280, "height": 720})
    tv = ctx.new_page()
    problems: list[str] = []
    tv.on("pageerror", lambda e: problems.append(str(e)))
    tv.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)  # CSP included
    shots = Path(os.environ.get("PARTYHOST_SHOT_DIR") or tmp_path)
    try:
        tv.goto(srv.url + "/tv")
        names = ["あき", "Ben", "Chloé", "だいすけ"]
        phones = [_phone(sio_peer, srv, name) for name in names]
        expect(tv.get_by_test_id("roster").locator("li .who")).to_have_text(names)
        expect(tv.get_by_test_id("alerts")).to_be_hidden()

        for suffix in ("", "-wal", "-shm"):  # saving fails: the data file's place is taken
            (data / (DB_NAME + suffix)).unlink(missing_ok=True)
        (data / DB_NAME).mkdir()
        assert phones[0].send("lang", {"lang": "en"})["ok"]
        alerts = tv.get_by_test_id("alerts")
        expect(alerts).to_contain_text("保存できていません")
        lobby = "[data-testid=qr], [data-testid=start], [data-testid=join-url], [data-testid=room-code], [data-testid=roster] li"
        for lang in ("ja", "en"):
            if lang == "en":
                from .test_e2e_mind import menu_click

                menu_click(tv, "[data-testid=lang]")
                expect(alerts).to_contain_text("The party is not being saved")
            tv.screenshot(path=str(shots / f"tv-lobby-save-warning-{lang}.png"), animations="disabled")
            assert tv.evaluate(_OVERLAPS, ["[data-testid=alerts]", lobby]) == []
            assert tv.evaluate(_OUTSIDE, lobby + ", [data-testid=alerts]") == []
            height = alerts.bounding_box()["height"]
            assert 30 <= height <= 720 * 0.15, height  # legible, and at most two lines' worth
            font = tv.evaluate("() => parseFloat(getComputedStyle(document.querySelector('.alerts .alert')).fontSize)")
            assert font >= 20, font

        tv.get_by_test_id("start").click()  # in a game the warning stays, above the table
        expect(tv.locator(".corner")).to_be_visible()
        expect(alerts).to_contain_text("The party is not being saved")
        tv.screenshot(path=str(shots / "tv-game-save-warning-en.png"), animations="disabled")
        assert tv.evaluate(_OVERLAPS, ["[data-testid=alerts]", ".corner, #game-root, .tvbar button"]) == []

        (data / DB_NAME).rmdir()  # the folder can be written again: the next retry saves
        expect(alerts).to_be_hidden(timeout=(SAVE_RETRY + 5) * 1000)
        assert not problems, problems
    finally:
        ctx.close()
