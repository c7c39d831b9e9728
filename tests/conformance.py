"""The conformance checks every registered game passes (``tests/test_conformance.py`` runs them).

:func:`play` drives one whole game from a seed: at each step it fires a due deadline, or makes a
move a seat (or the host) could make (:meth:`Game.suggest`), or an illegal variant of one (made by
another seat or a spectator, a stale round, a missing or extra field, a wrong type, an unknown type). After every step:

* a refused action changed nothing (the snapshot is JSON-equal before and after);
* an accepted one bumped ``version``;
* the snapshot round-trips: the restored game's snapshot and every view equal the live game's;
* every view is strict JSON (``wire.dumps``: no NaN, no object) and holds only finite numbers;
* non-interference: with everything a seat may not know dealt anew
  (:meth:`Game.redeal_hidden`), that seat's view (and the table's) is unchanged (every viewer
  every fifth step, one sampled viewer otherwise); and the re-deal changed something at least
  once in the game (a ``redeal_hidden`` that hides nothing proves nothing);
* no deadline is left in the past after ``tick``;
* teaching: every view holds ``guide`` (``{"now": {"key", "params"}}``) and ``coach`` (None while
  the coach is off; with it on, the TV's ``strip`` only in the table's view and a ``tip`` only
  in a seat's), every key of both in the Japanese and the English catalogue; the coach is on
  in every game the suite plays (so non-interference covers the tips: a seat's tip never
  depends on what it may not know), and a game with the coach off shows none of it.

The game must end within ``max_steps``. Any failed check raises ``AssertionError`` naming the
game, the seed, the step and the action, so a failing seed can be replayed.
"""

from __future__ import annotations

import json
import random
from typing import Any

from partyhost import i18n, wire
from partyhost.engine import encode_view
from partyhost.games import schema
from partyhost.games.base import Game, RuleError

JUNK: tuple[Any, ...] = ("", "x" * 300, -1, 10**6, 0.5, True, None, [], {}, "\u200b")


def snapshot_text(game: Game) -> str:
    return json.dumps(game.to_dict(), sort_keys=True, allow_nan=False)


def seats(game: Game) -> list[str]:
    return list(game.players)


def views(game: Game, who: list[str | None]) -> dict:
    return {str(s): game.view(s) for s in who}


def illegal_variant(action: dict, game: Game, rng: random.Random) -> dict:
    """One way to spoil a good action."""
    bad = dict(action)
    choice = rng.randrange(6)
    keys = [k for k in bad if k != "type"]
    if choice == 0 and game.STALE_FIELD in bad and isinstance(bad[game.STALE_FIELD], int):
        bad[game.STALE_FIELD] += rng.choice((-1, 1, 5))
    elif choice == 1 and keys:
        bad.pop(rng.choice(keys))
    elif choice == 2:
        bad["extra"] = 1
    elif choice == 3 and keys:
        bad[rng.choice(keys)] = rng.choice(JUNK)
    elif choice == 4:
        bad["type"] = rng.choice(("nope", "", "PLAY"))
    else:
        bad = rng.choice(JUNK) if rng.random() < 0.2 else {**bad, "type": 7}
    return bad


def check_text(text: object, where: str) -> None:
    """``text`` is ``{"key", "params"}`` whose key (and every ``{"key"}`` param) both
    catalogues hold."""
    assert isinstance(text, dict) and isinstance(text.get("key"), str), f"{where}: not a text: {text!r}"
    assert isinstance(text.get("params", {}), dict), f"{where}: params of {text!r}"
    keys = [text["key"], *(v["key"] for v in text.get("params", {}).values() if isinstance(v, dict))]
    for key in keys:
        for lang in i18n.LANGS:
            assert key in i18n.catalogue(lang), f"{where}: {key!r} is not in the {lang} catalogue"


def check_teaching(game: Game, seat: str | None, view: dict, where: str) -> None:
    """The ``guide`` and ``coach`` parts of one view (see the module docstring)."""
    guide = view.get("guide")
    assert isinstance(guide, dict) and "now" in guide, f"{where}: view({seat!r}) has no guide"
    check_text(guide["now"], f"{where}: guide of {seat!r}")
    coach = view.get("coach", "missing")
    if not game.coach:
        assert coach is None, f"{where}: coach shown while off: {coach!r}"
        return
    # on: there at every moment, the end included (issue 27)
    assert isinstance(coach, dict), f"{where}: coach on but view({seat!r}) has none"
    if seat is None:
        assert coach["tip"] is None, f"{where}: a tip in the table's view"
        assert coach["strip"] is not None, f"{where}: coach on but the TV's strip is empty"
        check_text(coach["strip"]["now"], f"{where}: strip")
        check_text(coach["strip"]["next"], f"{where}: strip next")
    else:
        assert coach["strip"] is None, f"{where}: the TV's strip in {seat!r}'s view"
        check_text(coach["line"], f"{where}: coach line of {seat!r}")
        if coach["tip"] is not None:
            assert isinstance(coach["tip"].get("id"), str), f"{where}: a tip without id"
            check_text(coach["tip"], f"{where}: tip of {seat!r}")


def check_views(game: Game, who: list[str | None], where: str) -> None:
    alone = {}
    for s in who:
        view = alone[s] = game.view(s)
        try:
            wire.dumps(view)
        except (TypeError, ValueError) as error:
            raise AssertionError(f"{where}: view({s!r}) is not strict JSON: {error}") from None
        check_teaching(game, s, view, where)
    # Built together as the engine builds one flush's views (Game.sharing_views: the table parts
    # are one object shared by the views), each view is the same as built alone, and the engine's
    # encoder, reusing the shared parts' texts, writes what one json.dumps writes.
    memo: dict = {}
    with game.sharing_views():
        together = {s: game.view(s) for s in who}
    for s in who:
        assert together[s] == alone[s], (
            f"{where}: view({s!r}) differs when built with the others' (a table part that reads the seat?)")
        assert encode_view({"game": together[s]}, memo) == wire.compact({"game": alone[s]}), (
            f"{where}: view({s!r}) is written differently from its shared parts")


def check_round_trip(game: Game, who: list[str | None], rng: random.Random, where: str) -> None:
    data = game.to_dict()
    # the store's per-action snapshot encodes the game's live values (no deep copy) and the
    # engine's rollback copy is the JSON text: both must be the very snapshot to_dict gives
    assert json.loads(game.to_json()) == data, f"{where}: to_json differs from to_dict"
    assert json.dumps(game.live_dict(), sort_keys=True, allow_nan=False) == snapshot_text(game), (
        f"{where}: the live snapshot encodes to another text")
    restored = type(game).from_dict(json.loads(json.dumps(data)), rng)
    assert snapshot_text(restored) == snapshot_text(game), f"{where}: snapshot does not round-trip"
    assert views(restored, who) == views(game, who), f"{where}: a restored game shows other views"
    assert restored.next_deadline() == game.next_deadline(), f"{where}: deadline lost in the snapshot"


def check_non_interference(game: Game, who: list[str | None], rng: random.Random, where: str) -> bool:
    """Returns True when some re-deal changed the state (so the check had something to hide)."""
    changed = False
    for s in who:
        twin = game.redeal_hidden(s, random.Random(rng.random()))
        assert twin.view(s) == game.view(s), (
            f"{where}: view({s!r}) changed when only what it may not know was dealt anew")
        changed = changed or snapshot_text(twin) != snapshot_text(game)
    return changed


def check_record(game: Game, where: str, seated: list[str] | None = None) -> None:
    """The finished game's :meth:`~partyhost.games.base.Game.outcome` and
    :meth:`~partyhost.games.base.Game.highlights` are well formed: JSON-safe; the places hold
    every player exactly once (a cooperative game: one place, ``won`` a bool); at most two
    highlights, each a catalogued text whose every placeholder its params fill (in both
    languages) and whose seat params name seats of the game (``seated``: every seat it started
    with, players who left included; default: its players)."""
    result = game.outcome()
    wire.dumps(result)
    assert isinstance(result, dict) and isinstance(result.get("coop"), bool), f"{where}: outcome {result!r}"
    places = result.get("places")
    assert isinstance(places, list) and all(isinstance(p, list) and p for p in places), f"{where}: places"
    flat = [s for p in places for s in p]
    assert sorted(flat) == sorted(game.players), f"{where}: places {places!r} vs players {game.players!r}"
    if result["coop"]:
        assert len(places) == 1 and isinstance(result.get("won"), bool), f"{where}: coop outcome {result!r}"
    assert isinstance(result.get("detail", {}), dict), f"{where}: detail"
    if result.get("detail", {}).get("label") is not None:
        check_text(result["detail"]["label"], f"{where}: outcome label")
    marks = game.highlights()
    assert isinstance(marks, list) and len(marks) <= 2, f"{where}: highlights {marks!r}"
    wire.dumps(marks)
    for mark in marks:
        check_text(mark, f"{where}: highlight")
        for name, value in mark["params"].items():
            if name.endswith("seat"):
                assert value in (seated or game.players), f"{where}: highlight seat {name}={value!r}"
        for lang in i18n.LANGS:
            text = i18n.message(lang, mark["key"], **mark["params"])
            assert "{" not in text, f"{where}: highlight {mark['key']} leaves a placeholder: {text}"


def play(cls: type[Game], seed: int, players: int, max_steps: int = 4000,
         options: dict | None = None, illegal_rate: float = 0.25, coach: bool = True) -> Game:
    """Play one whole game of ``cls`` from ``seed`` with ``players`` seats, checking every step
    (with the first-round coach on unless ``coach`` is False).

    Returns:
        The finished game.
    Raises:
        AssertionError: a check failed, or the game did not end within ``max_steps``.
    """
    rng = random.Random(seed)
    game = cls()
    seat_ids = [f"s{i}" for i in range(1, players + 1)]
    now = 0.0
    game.setup(seat_ids, schema.check_options(cls, options or {}), random.Random(seed), now)
    game.coach = coach
    who: list[str | None] = [*seat_ids, "s99", None]  # players, a spectator, the table
    where = f"{cls.KEY} seed={seed} players={players} after setup"
    check_views(game, who, where)
    check_round_trip(game, who, random.Random(seed), where)
    redealt = check_non_interference(game, who, rng, where)
    for step in range(max_steps):
        if game.over:
            break
        where = f"{cls.KEY} seed={seed} players={players} step={step}"
        deadline = game.next_deadline()
        if deadline is not None and (rng.random() < 0.15 or deadline <= now):
            now = max(now, deadline)
            before = game.version
            game.tick(now)
            later = game.next_deadline()
            assert later is None or later > now or game.version > before, (
                f"{where}: tick at {now} left deadline {later} due and changed nothing")
            action, actor = "tick", None
        else:
            now += rng.choice((0.0, 0.01, 0.3, 1.5))
            actor = rng.choice([*seats(game), None, None] if seats(game) else [None])
            options_now = game.suggest(actor, rng)
            if not options_now:
                continue
            action = rng.choice(options_now)
            if rng.random() < illegal_rate:
                roll = rng.random()
                if roll < 0.2 and actor is not None:
                    actor = "s99"  # a spectator tries a player's move
                elif roll < 0.45 and actor is not None and len(seats(game)) > 1:
                    actor = rng.choice([s for s in seats(game) if s != actor])  # another seat's move
                else:
                    action = illegal_variant(action, game, rng)
            before_text = snapshot_text(game)
            before_version = game.version
            try:
                if actor is None:
                    game.host_apply(action, now)
                else:
                    game.apply(actor, action, now)
            except RuleError:
                assert snapshot_text(game) == before_text, (
                    f"{where}: refused {action!r} by {actor} but the state changed")
            else:
                assert game.version > before_version, f"{where}: {action!r} accepted without a version bump"
        where = f"{cls.KEY} seed={seed} players={players} step={step} after {action!r} by {actor}"
        check_views(game, who, where)
        check_round_trip(game, who, random.Random(seed + step), where)
        # every viewer every few steps, one sampled viewer otherwise (the check re-deals a copy)
        sample = who if step % 5 == 0 else [rng.choice(who)]
        redealt = check_non_interference(game, sample, rng, where) or redealt
    assert game.over, f"{cls.KEY} seed={seed} players={players}: not over after {max_steps} steps"
    check_record(game, f"{cls.KEY} seed={seed} players={players} at the end", seat_ids)
    assert redealt, f"{cls.KEY} seed={seed}: redeal_hidden never dealt anything anew (nothing hidden?)"
    return game
