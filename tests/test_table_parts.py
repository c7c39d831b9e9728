"""Each game builds the part of its views every seat sees alike once per flush (issue 18, sixth
pass: :meth:`Game.table_part` inside :meth:`Game.sharing_views`), so the engine writes it once
however many seats' views hold it (:func:`partyhost.engine.encode_view` reuses the text of a
shared object). These tests keep that sharing from silently disappearing: within
``sharing_views`` every seat's view holds the very objects of the table's view, and outside it
nothing is kept from one flush to the next. (That the shared views equal views built alone, and
that a table part never reads the seat, is the conformance suite's ``check_views``.)
"""

from __future__ import annotations

import random

import pytest

from partyhost.engine import encode_view
from partyhost.games import registry, schema
from partyhost.games.base import Game, RuleError
from partyhost import wire

from .test_encoding import times_written, written

#: Per game, parts of the view that must be shared objects (the biggest; every other dict or list
#: of the table's view is checked too, whatever it holds).
SHARED = {
    "decrypto": ("sheet", "teams", "tokens", "scores", "encryptors"),
    "top_ten": ("players", "history", "reveals", "answer_order"),
    "word_basket": ("players", "chain", "events", "field", "rows", "options"),
    "diabolo": ("players", "table", "log", "winners"),
    "the_mind": ("players", "pile"),
}

#: Parts each seat builds for itself (never the table's).
OWN = {"guide", "coach"}


#: Legal bot moves played before the views are built: under way, not over (Word Basket's bots
#: empty a hand in about twenty).
MOVES = {"word_basket": 12}


def played(key: str, seed: int = 5) -> Game:
    """``key``'s game at its largest table with the coach on, after some legal bot moves."""
    moves = MOVES.get(key, 40)
    cls = registry.GAMES[key]
    cls.prepare()
    rng = random.Random(seed)
    game = cls()
    game.setup([f"s{i}" for i in range(1, cls.MAX_PLAYERS + 1)], schema.check_options(cls, {}),
               random.Random(seed), 0.0)
    game.coach = True
    now, done = 0.0, 0
    for _ in range(moves * 20):
        if game.over or done == moves:
            break
        now += 0.5
        actor = rng.choice([*game.players, None])
        options = game.suggest(actor, rng)
        if not options:
            if game.next_deadline() is not None and rng.random() < 0.2:
                now = max(now, game.next_deadline())
                game.tick(now)
            continue
        try:
            if actor is None:
                game.host_apply(rng.choice(options), now)
            else:
                game.apply(actor, rng.choice(options), now)
        except RuleError:
            continue
        done += 1
    assert not game.over
    return game


@pytest.mark.parametrize("key", list(SHARED))
def test_within_one_flush_every_seat_holds_the_tables_parts(key, monkeypatch):
    game = played(key)
    who = [*game.players, "s99", None]  # the players, a spectator's seat, the table
    memo: dict = {}
    with game.sharing_views():
        views = {s: game.view(s) for s in who}
        seen = written(monkeypatch)
        texts = {s: encode_view({"game": views[s]}, memo) for s in who}
        monkeypatch.undo()
    table = views[None]
    containers = [k for k, v in table.items() if k not in OWN and isinstance(v, (dict, list))]
    assert set(SHARED[key]) <= set(containers)
    for s in who:
        assert texts[s] == wire.compact({"game": views[s]})
        for k in containers:
            assert views[s][k] is table[k], f"{key}: {s}'s {k!r} is not the table's"
    # each shared part's text was written once for all the views
    for k in SHARED[key]:
        assert times_written(seen, table[k]) == 1, f"{key}: {k!r} written more than once"
    # and only for this flush: the next one builds its table anew
    assert game._table_parts is None
    again = game.view(None)
    assert again == table and all(again[k] is not table[k] for k in containers)


@pytest.mark.parametrize("key", list(SHARED))
def test_a_seats_own_keys_stay_its_own(key):
    game = played(key)
    a, b = game.players[:2]
    with game.sharing_views():
        va, vb, vt = game.view(a), game.view(b), game.view(None)
    own = set(va) - set(vt)
    assert "me" in own and va["me"] == a and vb["me"] == b and "me" not in vt
    for k in own:
        value = va[k]
        if isinstance(value, (dict, list)):
            assert value is not vb.get(k), f"{key}: {k!r} is one object in two seats' views"
