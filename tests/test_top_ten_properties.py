"""Property tests for Top Ten's pure rules (hypothesis): random sequences of legal and illegal
actions by random seats keep the invariants of seeds/001_… and leave state untouched on refusal."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from partyhost.games import top_ten
from partyhost.games.base import RuleError
from partyhost.games.top_ten import NUMBERS, TopTen, rating_for

from .test_top_ten import FIXTURE_DECK, SEATS

KINDS = ["choose", "answer", "close_answers", "pick", "undo", "confirm", "next_round"]


@pytest.fixture(autouse=True)
def fixture_deck(monkeypatch):
    monkeypatch.setattr(top_ten, "load_deck", lambda lang: FIXTURE_DECK)


def check_invariants(g: TopTen) -> None:
    assert 0 <= g.unicorns <= g.tokens == min(len(g.players), 8)
    assert g.unicorns + g.poops == g.tokens
    lost_tokens = sum(h["mistakes"] for h in g.history) + (
        0 if g.history and g.history[-1]["round"] == g.round else sum(r["mistake"] for r in g.reveals))
    assert g.poops == lost_tokens
    if g.numbers:
        assert set(g.numbers) == set(g.answerers)
        assert sorted([*g.numbers.values(), *g.undealt]) == list(NUMBERS)
    for i, r in enumerate(g.reveals):
        assert r["number"] == g.numbers[r["seat"]]
        assert r["mistake"] == (i > 0 and r["number"] < g.reveals[i - 1]["number"])
    assert len({r["seat"] for r in g.reveals}) == len(g.reveals)
    assert g.captain in g.players
    assert (g.captain in g.answerers) == (len(g.players) <= 8)
    assert g.pending is None or (g.phase == "order" and g.pending in g.answerers)
    if g.phase == "over":
        assert g.rating == rating_for(g.unicorns, g.poops) or (g.rating == "lost" and g.unicorns == 0)
        assert g.unicorns == 0 or g.round == g.rounds
    else:
        assert g.rating is None and g.unicorns > 0
    table = g.view(None)
    assert "number" not in table and "choices" not in table
    hidden = {(s, n) for s, n in g.numbers.items()} - {(r["seat"], r["number"]) for r in g.reveals}
    for s, n in hidden:
        for r in table["reveals"]:
            assert (r["seat"], r["number"]) != (s, n)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    n=st.integers(min_value=4, max_value=9),
    seed=st.integers(min_value=0, max_value=10_000),
    steps=st.lists(st.tuples(st.integers(0, 8), st.sampled_from(KINDS), st.integers(0, 9), st.booleans()),
                   min_size=1, max_size=400),
)
def test_random_play_keeps_invariants(n, seed, steps):
    g = TopTen()
    g.setup(SEATS[:n], {"rounds": "players" if seed % 3 == 0 else "five"}, random.Random(seed), 0.0)
    check_invariants(g)
    for who, kind, x, smart in steps:
        if g.over:
            break
        seat = g.players[who % len(g.players)]
        if smart:  # mostly sensible moves, so games get far
            seat = g.captain if kind in ("choose", "close_answers", "pick", "undo", "confirm") else seat
            if kind == "next_round":
                seat = g._after(g.captain)
        target = g.players[x % len(g.players)]
        left = [s for s in g.answerers if all(r["seat"] != s for r in g.reveals)]
        if smart and kind == "pick" and left:
            target = left[x % len(left)]  # an unrevealed answerer, in a random order
        fields = {"choose": {"theme": x % 4}, "answer": {"text": ["", "ねこ", "a" * 70][x % 3]},
                  "pick": {"seat": target}, "confirm": {"seat": g.pending or target if smart else target}}
        action = {"type": kind, "round": g.round if smart or x % 5 else g.round + 1, **fields.get(kind, {})}
        before = json.dumps(g.to_dict(), sort_keys=True)
        try:
            g.apply(seat, action, 0.0)
        except RuleError:
            assert json.dumps(g.to_dict(), sort_keys=True) == before
        check_invariants(g)
