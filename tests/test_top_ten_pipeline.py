"""Top Ten on the shared pipeline (issue 11): no import of the registry, the declared phase table
holds, one ``stale`` refusal worded by the game, snapshots in the layout saved before snapshots
had versions still load, and ``redeal_hidden``/``suggest`` do what the conformance suite
(``tests/test_conformance.py``) relies on.
"""

from __future__ import annotations

import ast
import json
import pathlib
import random
import subprocess
import sys

import pytest

from partyhost import i18n
from partyhost.games import top_ten
from partyhost.games.base import RuleError
from partyhost.games.top_ten import NOT_NOW, PHASES, TopTen

from .test_top_ten import FIXTURE_DECK, make, play_round, to_order

GAMES = pathlib.Path(top_ten.__file__).resolve().parent


@pytest.fixture(autouse=True)
def fixture_deck(monkeypatch):
    monkeypatch.setattr(top_ten, "load_deck", lambda lang: FIXTURE_DECK)


# --- no import cycle -----------------------------------------------------------------------------


def test_top_ten_imports_before_the_registry_in_a_fresh_interpreter():
    code = "\n".join([
        "import random, sys",
        "import partyhost.games.top_ten as t",
        "g = t.TopTen(); g.setup(['s1', 's2', 's3', 's4'], {'first_captain': 's1'}, random.Random(1), 0.0)",
        "g.apply('s1', {'type': 'choose', 'round': 1, 'theme': 0}, 0.0)",
        "try: g.apply('s1', {'type': 'choose', 'round': 1, 'theme': 9}, 0.0)",
        "except t.RuleError as e: assert e.code == 'malformed', e.code",
        "assert 'partyhost.games.registry' not in sys.modules, 'top_ten pulled in the registry'",
        "import partyhost.games.registry as r; assert r.GAMES['top_ten'] is t.TopTen",
    ])
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_no_top_ten_module_imports_the_registry_even_late():
    for path in sorted(GAMES.glob("top_ten*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""] + [a.name for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            assert not any("registry" in n for n in names), (path.name, node.lineno)


# --- the phase table is true ------------------------------------------------------------------------


def in_phase(phase: str) -> TopTen:
    """A 5-player game (captain s1) in ``phase``."""
    g = make(5, first_captain="s1")
    if phase == "answer":
        g.apply("s1", {"type": "choose", "round": 1, "theme": 0}, 0.0)
    elif phase == "order":
        to_order(g)
    elif phase == "round_over":
        play_round(g)
    elif phase == "over":
        for r in range(5):
            play_round(g)
            if r < 4:
                g.apply(g._after(g.captain), {"type": "next_round", "round": g.round}, 0.0)
    assert g.phase == phase
    return g


def entitled(g: TopTen, kind: str) -> str:
    """The seat that would make ``kind`` if its phase were open."""
    if kind == "next_round":
        return g._after(g.captain)
    if kind == "answer":
        return next((s for s in g.answerers if s != g.captain), "s2")
    return g.captain


FIELDS = {"choose": {"theme": 1}, "answer": {"text": "ねこ"}, "pick": {"seat": "s3"}, "confirm": {"seat": "s3"}}


@pytest.mark.parametrize("phase", list(PHASES))
def test_a_move_outside_its_phases_is_refused_as_not_now(phase):
    g = in_phase(phase)
    closed = [k for k in TopTen.MOVES if k not in PHASES[phase].moves]
    host_closed = [k for k in TopTen.HOST_MOVES if k not in PHASES[phase].host_moves]
    for kind in closed + [f"host:{k}" for k in host_closed]:
        host = kind.startswith("host:")
        kind = kind.removeprefix("host:")
        action = {"type": kind, "round": g.round, **FIELDS.get(kind, {})}
        before = json.dumps(g.to_dict(), sort_keys=True)
        with pytest.raises(RuleError) as info:
            g.host_apply(action, 0.0) if host else g.apply(entitled(g, kind), action, 0.0)
        expected = "game_over" if phase == "over" else NOT_NOW[kind]
        assert info.value.code == expected, (phase, kind, info.value.code)
        assert json.dumps(g.to_dict(), sort_keys=True) == before


def test_every_move_is_open_somewhere_and_phases_follow_the_table():
    for kind in TopTen.MOVES:
        assert any(kind in p.moves for p in PHASES.values()), kind
    for kind in TopTen.HOST_MOVES:
        assert any(kind in p.host_moves for p in PHASES.values()), kind
    seen = set()
    for seed in range(12):
        rng = random.Random(seed)
        g = make(rng.choice((4, 6, 9)), seed=seed)
        for _ in range(3000):
            if g.over:
                break
            seat = rng.choice([*g.players, None])
            options = g.suggest(seat, rng)
            if not options:
                continue
            before = g.phase
            try:
                g.host_apply(rng.choice(options), 0.0) if seat is None else g.apply(seat, rng.choice(options), 0.0)
            except RuleError:
                assert g.phase == before
                continue
            if g.phase != before:
                assert g.phase in PHASES[before].then, (before, g.phase)
                seen.add((before, g.phase))
        assert g.over, seed
    assert seen == {(a, b) for a, p in PHASES.items() for b in p.then}  # every declared step happens


# --- one stale refusal ---------------------------------------------------------------------------------


def test_a_move_for_another_round_is_refused_stale_in_the_games_words():
    g = make(4, first_captain="s1")
    play_round(g)
    g.apply("s2", {"type": "next_round", "round": 1}, 0.0)
    for call in (lambda: g.apply("s2", {"type": "choose", "round": 1, "theme": 0}, 0.0),
                 lambda: g.host_apply({"type": "pass_captain", "round": 3}, 0.0)):
        before = json.dumps(g.to_dict(), sort_keys=True)
        with pytest.raises(RuleError) as info:
            call()
        error = info.value
        assert (error.code, error.scope, error.params["current"]) == ("stale", "top_ten", 2)
        assert error.params["round"] in (1, 3)
        assert json.dumps(g.to_dict(), sort_keys=True) == before
    assert i18n.refusal("ja", "stale", "top_ten", round=1, current=2) == "そのラウンドはもう終わっています（いまはラウンド2）"
    assert i18n.refusal("en", "stale", "top_ten", round=1, current=2) == "That round is over: it's round 2 now"
    assert "err.tt_stale_round" not in i18n.catalogue("ja")


def test_refusals_keep_their_order_game_over_then_not_a_player_then_stale():
    g = make(4, first_captain="s1")
    with pytest.raises(RuleError) as info:
        g.apply("s99", {"type": "choose", "round": 7, "theme": 0}, 0.0)
    assert info.value.code == "not_a_player"
    with pytest.raises(RuleError) as info:
        g.apply("s2", {"type": "choose", "round": 7, "theme": 0}, 0.0)
    assert info.value.code == "stale"  # before the rules' tt_not_captain
    g.phase = "over"
    with pytest.raises(RuleError) as info:
        g.apply("s99", {"type": "choose", "round": 7, "theme": 0}, 0.0)
    assert info.value.code == "game_over"


# --- snapshots ----------------------------------------------------------------------------------------

#: A snapshot written by main before the move onto the pipeline (8f9986b: ``to_dict()`` of a
#: 4-player game with FIXTURE_DECK, round 2, ordering, one mistake, a pick pending). No ``"v"``.
OLD_SNAPSHOT = {
    "game": "top_ten", "players": ["s1", "s2", "s3", "s4"], "rounds": 5, "round": 2, "phase": "order",
    "tokens": 4, "unicorns": 3, "captain": "s2", "lang": "ja",
    "cards": [FIXTURE_DECK[i - 1] for i in (9, 4, 2, 5, 8)],
    "theme": {"title": "お題4B", "low": "小さい", "high": "大きい", "mode": "gesture"}, "theme_index": 1,
    "numbers": {"s1": 4, "s2": 6, "s3": 3, "s4": 2}, "undealt": [1, 5, 7, 8, 9, 10],
    "answerers": ["s1", "s2", "s3", "s4"], "answers": {"s2": "ねこ", "s1": "", "s3": "", "s4": ""},
    "answer_order": ["s2", "s1", "s3", "s4"], "pending": "s3",
    "reveals": [{"seat": "s2", "number": 6, "mistake": False}, {"seat": "s1", "number": 4, "mistake": True}],
    "history": [{"round": 1, "captain": "s1", "theme": {"title": "Theme 9C", "low": "meh", "high": "wow", "mode": "speak"},
                 "reveals": [{"seat": "s1", "number": 2, "mistake": False}, {"seat": "s2", "number": 3, "mistake": False},
                             {"seat": "s3", "number": 5, "mistake": False}, {"seat": "s4", "number": 7, "mistake": False}],
                 "mistakes": 0}],
    "rating": None, "last_event": {"n": 25, "kind": "picked", "seat": "s3"}, "event_n": 25, "version": 23,
}  # fmt: skip

#: The table view main showed for it.
OLD_TABLE_VIEW = {
    "game": "top_ten", "phase": "order", "round": 2, "rounds": 5, "tokens": 4, "unicorns": 3, "poops": 1,
    "captain": "s2", "next_captain": "s3", "lang": "ja", "theme": OLD_SNAPSHOT["theme"],
    "players": [
        {"seat": "s1", "answerer": True, "answered": True, "answer": "", "revealed": True},
        {"seat": "s2", "answerer": True, "answered": True, "answer": "ねこ", "revealed": True},
        {"seat": "s3", "answerer": True, "answered": True, "answer": "", "revealed": False},
        {"seat": "s4", "answerer": True, "answered": True, "answer": "", "revealed": False},
    ],
    "answer_order": ["s2", "s1", "s3", "s4"], "pending": "s3", "reveals": OLD_SNAPSHOT["reveals"],
    "history": OLD_SNAPSHOT["history"], "rating": None, "last_event": {"n": 25, "kind": "picked", "seat": "s3"},
    "version": 23,
}  # fmt: skip


def test_a_snapshot_saved_before_versions_restores_and_plays_on():
    assert TopTen.STATE_VERSION == 1  # the layout did not change
    g = TopTen.from_dict(json.loads(json.dumps(OLD_SNAPSHOT)), random.Random(3))
    assert g.to_dict() == {**json.loads(json.dumps(OLD_SNAPSHOT)), "v": 1}
    view = g.view(None)
    assert view.pop("coach") is None  # a game saved before the coach: off
    assert view.pop("guide")["now"]["key"] == "top_ten.guide.watch"
    assert view == OLD_TABLE_VIEW
    assert [g.view(s)["number"] for s in g.players] == [4, 6, 3, 2]
    g.apply("s2", {"type": "confirm", "round": 2, "seat": "s3"}, 0.0)  # 4 → 3: a second mistake
    assert (g.unicorns, g.poops, g.version) == (2, 2, 24) and g.last_event == {
        "n": 26, "kind": "reveal", "seat": "s3", "number": 3, "mistake": True}


# --- redeal_hidden and suggest -----------------------------------------------------------------------


def test_redeal_hidden_deals_the_secrets_anew_and_keeps_the_rest():
    g = make(6, seed=2, first_captain="s1")
    to_order(g)
    low = min(g.answerers, key=g.numbers.get)
    g.apply("s1", {"type": "pick", "round": 1, "seat": low}, 0.0)
    g.apply("s1", {"type": "confirm", "round": 1, "seat": low}, 0.0)
    moved = {"numbers": 0, "undealt": 0, "cards": 0}
    for seed in range(20):
        for seat in ["s2", "s1", None]:
            twin = g.redeal_hidden(seat, random.Random(seed))
            assert twin.numbers[low] == g.numbers[low]  # revealed
            if seat is not None:
                assert twin.numbers[seat] == g.numbers[seat]  # its own
            assert sorted([*twin.numbers.values(), *twin.undealt]) == list(top_ten.NUMBERS)
            assert twin.cards[0] == g.cards[0] and len(twin.cards) == len(g.cards) == 5  # round 1 was chosen
            assert len({c["id"] for c in twin.cards}) == 5
            assert twin.view(seat) == g.view(seat)
            moved["numbers"] += twin.numbers != g.numbers
            moved["undealt"] += twin.undealt != g.undealt
            moved["cards"] += [c["id"] for c in twin.cards] != [c["id"] for c in g.cards]
    assert all(count > 30 for count in moved.values()), moved  # it really deals anew


def test_redeal_hidden_while_choosing_keeps_the_card_only_for_the_captain():
    g = make(5, seed=4, first_captain="s3")
    for seed in range(10):
        assert g.redeal_hidden("s3", random.Random(seed)).cards[0] == g.cards[0]
    changed = [g.redeal_hidden(s, random.Random(seed)).cards[0] != g.cards[0]
               for seed in range(10) for s in ("s1", None)]
    assert sum(changed) > 10


def test_bots_reach_every_ending_from_suggestions_alone():
    endings = set()
    for seed in range(16):
        rng = random.Random(seed)
        g = make(rng.choice((4, 5, 8, 9)), seed=seed)
        for _ in range(3000):
            if g.over:
                break
            seat = rng.choice([*g.players, None])
            options = g.suggest(seat, rng)
            if options:
                try:
                    g.host_apply(rng.choice(options), 0.0) if seat is None else g.apply(seat, rng.choice(options), 0.0)
                except RuleError:
                    pass
        assert g.over, seed
        endings.add(g.rating)
    assert {"lost", "great"} <= endings and endings <= set(top_ten.RATINGS)
    assert g.suggest("s1", random.Random(1)) == [] and g.suggest(None, random.Random(1)) == []
