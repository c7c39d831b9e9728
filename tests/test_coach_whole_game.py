"""The coach (はじめてモード) is there through the whole game, in every game (issue 27): it
stopped after The Mind's level 1 and was missing after a mistake and during Word Basket's
reach countdown. Each game is played to its end through the real engine (``tests/helpers.Rig``:
the app, the engine loop drained by hand, one Socket.IO client per phone and the TV), the moves
from the game's own ``suggest`` (as ``tests/conformance.play`` plays them) and its timers fired
by moving the clock. At every step, on every screen, while the coach is on:

* the TV's strip has a "now" and a "next" line, each a catalogued text that reads as words in
  Japanese and English (no placeholder left);
* every seat's phone has its coach line (``coach.line``) that reads as words in both languages.

Fast enough for the unit lane (a few seconds a game): no server, no browser.
"""

from __future__ import annotations

import random

import pytest

from partyhost import i18n
from partyhost.games import registry

from .helpers import Rig
from .test_top_ten import fixture_deck  # noqa: F401  (autouse: Top Ten draws from its test deck)

MAX_STEPS = 6000


def words(text: dict, names: dict, lang: str) -> str:
    """The words a page shows for a coach text (coach.js's ``text``, seat ids as names)."""

    def value(v):
        if isinstance(v, dict):
            if "key" in v:
                return words(v, names, lang)
            if "seat" in v:
                return names.get(v["seat"], v["seat"])
            if "join" in v:
                return "、".join(str(value(x)) for x in v["join"])
        return v

    params = {}
    for k, v in (text.get("params") or {}).items():
        params[k] = names.get(v, v) if k.endswith("seat") and isinstance(v, str) else value(v)
    assert text["key"] in i18n.catalogue(lang), f"{text['key']} is not in the {lang} catalogue"
    return i18n.message(lang, text["key"], **params)


def check(where: str, tv, phones, names: dict, seen: set) -> None:
    """Every screen shows its coach line now (see the module docstring)."""
    game = tv.state["game"]
    coach = game["coach"]
    assert coach is not None, f"{where}: the TV has no coach"
    strip = coach["strip"]
    assert strip is not None, f"{where}: the TV's strip is empty (phase {game.get('phase')})"
    seen.add(strip["step"])
    for lang in i18n.LANGS:
        for part in ("now", "next"):
            line = words(strip[part], names, lang)
            assert line.strip() and "{" not in line, f"{where}: strip {part} in {lang}: {line!r}"
    for phone in phones:
        mine = phone.state["game"]["coach"]
        assert mine is not None and mine.get("line"), f"{where}: {phone.seat} has no coach line: {mine!r}"
        for lang in i18n.LANGS:
            line = words(mine["line"], names, lang)
            assert line.strip() and "{" not in line, f"{where}: {phone.seat}'s line in {lang}: {line!r}"


GAMES = {"the_mind": 3, "word_basket": 3, "decrypto": 4, "top_ten": 4, "diabolo": 3}
"""Players per game."""

MUST_SEE = {
    "the_mind": {"mistake", "level_up", "over"},  # past level 1, after a mistake
    "word_basket": {"win_pending", "over"},  # the reach countdown (a last card without リーチ)
    "decrypto": {"encrypt_n", "intercept_n", "over"},  # past round 2
    "top_ten": {"mistake", "round_over_n", "over"},  # past round 1, after a mistake
    "diabolo": {"scored", "scored_n", "over"},  # between rounds
}
"""Moments each game must have gone through (over a few seeds) for the test to count."""


def play_to_the_end(key: str, seed: int) -> set:
    """One whole game of ``key`` through the engine, every screen checked at every step.
    Returns the strip steps seen."""
    rig = Rig(seed=seed)
    tv = rig.tv()
    phones = [rig.phone(f"p{i}", lang="en" if i % 2 else "ja") for i in range(GAMES[key])]
    names = {p.seat: f"p{i}" for i, p in enumerate(phones)}
    assert tv.send("host", {"op": "choose", "game": key})["ok"]
    assert tv.state["party"]["coach"] is True  # a kind not played tonight: on by default
    assert tv.send("host", {"op": "start"})["ok"], key
    rng = random.Random(seed)
    forgetful = key == "word_basket"
    seen: set = set()
    by_seat = {p.seat: p for p in phones}
    for step in range(MAX_STEPS):
        game = rig.game
        check(f"{key} seed {seed} step {step}", tv, phones, names, seen)
        if game.over:
            break
        deadline = game.next_deadline()
        actor = rng.choice([*game.players, None])
        moves = game.suggest(actor, rng)
        if forgetful and rng.random() < 0.7:  # a first-timer forgets リーチ: the reach countdown
            moves = [{k: v for k, v in m.items() if k != "reach"} for m in moves if m.get("type") != "reach"]
        if deadline is not None and (not moves or rng.random() < 0.1):
            rig.clock.advance(max(0.0, deadline - rig.engine.game_now()) + 0.01)
            rig.drain()
            continue
        if not moves:
            rig.clock.advance(0.5)
            rig.drain()
            continue
        action = rng.choice(moves)
        rig.clock.advance(rng.choice((0.0, 0.05, 0.4)))
        if actor is None:
            tv.send("host", {"op": "game", "action": action})
        else:
            by_seat[actor].act(action)
    else:
        raise AssertionError(f"{key} seed {seed}: not over after {MAX_STEPS} steps")
    assert tv.state["party"]["over"] is True
    assert "going" not in seen, f"{key} seed {seed}: a moment the game's own coach had no words for"
    return seen


@pytest.mark.parametrize("key", list(registry.GAMES), ids=list(registry.GAMES))
def test_the_coach_line_is_on_every_screen_at_every_step_to_the_end(key):
    registry.GAMES[key].prepare()
    seen: set = set()
    for seed in range(5, 15):
        seen |= play_to_the_end(key, seed)
        if MUST_SEE[key] <= seen:
            break
    assert MUST_SEE[key] <= seen, f"{key}: never went through {MUST_SEE[key] - seen} (saw {sorted(seen)})"
