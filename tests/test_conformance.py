"""Every registered game passes the same conformance checks (``tests/conformance.py``): whole games
from many seeds, legal and illegal moves, snapshots, JSON-safe views, non-interference, ticks, an
end. A sixth game is checked the moment it is in the registry. A deliberately broken toy game
shows each check can fail.

Bounded for CI: ``SEEDS`` seeds per game and player count (the smallest and largest table).
"""

from __future__ import annotations

import random
from typing import ClassVar

import pytest

from partyhost.games import registry
from partyhost.games.base import Game, Move, RuleError, SnapshotError

from .conformance import play

SEEDS = range(3)


def tables(cls: type[Game]) -> list[int]:
    return sorted({cls.MIN_PLAYERS, cls.MAX_PLAYERS})


CASES = [pytest.param(cls, n, seed, id=f"{key}-{n}p-seed{seed}")
         for key, cls in registry.GAMES.items() for n in tables(cls) for seed in SEEDS]


@pytest.fixture(scope="module", autouse=True)
def prepared():
    for cls in registry.GAMES.values():
        cls.prepare()


@pytest.mark.parametrize("cls,players,seed", CASES)
def test_every_game_plays_to_the_end_and_keeps_every_promise(cls, players, seed):
    game = play(cls, seed, players)
    assert game.over


@pytest.mark.parametrize("cls", list(registry.GAMES.values()), ids=list(registry.GAMES))
def test_a_snapshot_from_a_newer_host_or_another_game_is_refused(cls):
    game = cls()
    game.setup([f"s{i}" for i in range(1, cls.MIN_PLAYERS + 1)],
               registry.check_options(cls, {}), random.Random(1), 0.0)
    data = game.to_dict()
    assert data["v"] == cls.STATE_VERSION
    with pytest.raises(SnapshotError):
        cls.from_dict({**data, "v": cls.STATE_VERSION + 1}, random.Random(1))
    with pytest.raises(SnapshotError):
        cls.from_dict({**data, "game": "another_game"}, random.Random(1))
    old = {k: v for k, v in data.items() if k != "v"}  # written before snapshots had versions
    assert cls.from_dict(old, random.Random(1)).to_dict() == data


# ----- the suite catches a broken game -------------------------------------------------------------

class Toy(Game):
    """A tiny correct game: each player says a secret number once; done when all have."""

    KEY: ClassVar[str] = "toy"
    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int] = 2
    FIELDS: ClassVar[tuple[str, ...]] = ("players", "secret", "said", "version", "round")
    MOVES: ClassVar[dict[str, Move]] = {
        "say": Move({"type": "object", "properties": {"type": {"const": "say"}, "round": {"type": "integer"}},
                     "required": ["type", "round"], "additionalProperties": False}, "_do_say", stale=True),
    }

    def setup(self, players, options, rng, now):
        self.players = list(players)
        self.secret = {p: rng.randrange(100) for p in players}
        self.said: list[str] = []
        self.round = 1

    @property
    def over(self):
        return len(self.said) == len(self.players)

    def _do_say(self, seat, action, now):
        if seat in self.said:
            raise RuleError("already")
        self.said.append(seat)

    def view(self, seat):
        return {"said": list(self.said), "mine": self.secret.get(seat)}

    def outcome(self):
        return {"coop": True, "won": True, "places": [list(self.players)]}

    def guide(self, seat):
        return {"now": {"key": "coach.title", "params": {}}}

    def coach_view(self, seat):
        return {"strip": {"step": "say", "now": {"key": "coach.title", "params": {}},
                          "next": {"key": "coach.title", "params": {}}},
                "tip": {"id": "toy.say", "key": "coach.title", "params": {}}}

    def suggest(self, seat, rng):
        return [{"type": "say", "round": self.round}] if seat is not None else []

    def redeal_hidden(self, seat, rng):
        twin = type(self).from_dict(self.to_dict(), rng)
        twin.secret = {p: (v if p == seat else rng.randrange(100)) for p, v in self.secret.items()}
        return twin


class LeakyToy(Toy):
    def view(self, seat):
        return {**super().view(seat), "total": sum(self.secret.values())}  # leaks the others'


class SloppyToy(Toy):
    def _do_say(self, seat, action, now):
        if seat in self.said:
            self.secret[seat] += 1  # changes state, then refuses
            raise RuleError("already")
        self.said.append(seat)


class TipLeakToy(Toy):
    def coach_view(self, seat):
        out = super().coach_view(seat)
        out["tip"]["params"] = {"total": sum(self.secret.values())}  # a tip that tells a secret
        return out


class UnwordedToy(Toy):
    def guide(self, seat):
        return {"now": {"key": "toy.guide.nowhere", "params": {}}}  # in no catalogue


class SilentToy(Toy):
    guide = Game.guide  # says nothing about what a seat can do


class SharedSeatToy(Toy):
    def view(self, seat):
        # a "table part" that reads the seat: built once per flush, it shows the first seat's
        # secret to every view built in that flush
        return {**super().view(seat), "mine": self.table_part("mine", lambda: self.secret.get(seat))}


class NaNToy(Toy):
    def view(self, seat):
        return {**super().view(seat), "ratio": float("nan")}


def test_the_suite_passes_a_correct_toy_game():
    for seed in range(5):
        play(Toy, seed, 2, illegal_rate=0.5)


@pytest.mark.parametrize("broken,what", [(LeakyToy, "changed when only"), (SloppyToy, "state changed"),
                                         (NaNToy, "not strict JSON"),
                                         (TipLeakToy, "changed when only"),
                                         (UnwordedToy, "not in the ja catalogue"),
                                         (SharedSeatToy, "differs when built with the others")])
def test_the_suite_catches_a_broken_game(broken, what):
    with pytest.raises(AssertionError, match=what):
        for seed in range(20):
            play(broken, seed, 2, illegal_rate=0.6)


def test_a_game_without_a_guide_fails_the_suite():
    with pytest.raises(NotImplementedError):
        play(SilentToy, 0, 2)


@pytest.mark.parametrize("cls", list(registry.GAMES.values()), ids=list(registry.GAMES))
def test_with_the_coach_off_no_view_holds_a_coach_but_every_view_a_guide(cls):
    game = play(cls, 1, cls.MIN_PLAYERS, coach=False)
    for seat in [None, *game.players]:
        assert game.view(seat)["coach"] is None
        assert game.view(seat)["guide"]["now"]["key"].startswith(cls.KEY + ".guide.")
