"""Word Basket privacy: no view holds another player's hand (DESIGN.md "Views and privacy").

Whole seeded games are played by random bots. The check is an indistinguishability one: at every
step, every seat's view (and the TV's) must stay exactly the same when the cards that seat cannot
see — the other hands and the deck order — are dealt differently, and when the other seats' private
lookups change. Through the real engine, every state a socket receives must be the view of its own
seat (the TV: the table view, which has no hand at all)."""

from __future__ import annotations

import json
import random

import pytest

from partyhost.games.base import RuleError
from partyhost.games.word_basket import WordBasket

from .helpers import Rig
from .wb_rig import bot_action, new_game


def shuffled_secrets(g: WordBasket, viewer: str | None, rng: random.Random) -> WordBasket:
    """A copy of ``g`` where everything ``viewer`` cannot see is dealt anew: the other hands (same
    sizes) and the deck (same size) hold a random rearrangement of the same cards, and the other
    seats' lookups are replaced."""
    data = json.loads(json.dumps(g.to_dict()))
    others = [s for s in data["players"] if s != viewer]
    pool = [c for s in others for c in data["hands"][s]] + data["deck"]
    rng.shuffle(pool)
    for s in others:
        n = len(data["hands"][s])
        data["hands"][s], pool = pool[:n], pool[n:]
        data["lookups"][s] = {"n": 999, "text": "秘密", "readings": ["ひみつ"]}
    data["deck"] = pool
    return WordBasket.from_dict(data, random.Random(0))


def assert_private(g: WordBasket, rng: random.Random) -> None:
    for viewer in [None, *g.players]:
        view = g.view(viewer)
        for _ in range(2):
            assert shuffled_secrets(g, viewer, rng).view(viewer) == view, viewer
        if viewer is None:
            assert "hand" not in view and "lookup" not in view
        text = json.dumps(view, ensure_ascii=False)
        assert "秘密" not in text


@pytest.mark.parametrize("players,seed,mode", [(2, 1, "vote"), (3, 2, "vote"), (5, 3, "free"), (8, 4, "strict"),
                                               (4, 5, "vote")])
def test_views_do_not_depend_on_what_the_seat_cannot_see(players, seed, mode):
    rng = random.Random(seed)
    g = new_game(players, seed, word_mode=mode, reach_window=2)
    now = 0.0
    steps = 0
    while not g.over and steps < 400:
        steps += 1
        now += rng.choice([0.0, 0.05, 0.5, 2.5])
        if g.next_deadline() is not None and now >= g.next_deadline():
            g.tick(now)
        seat, action, host = bot_action(g, rng)
        try:
            g.host_apply(action, now) if host else g.apply(seat, action, now)
        except RuleError:
            continue
        if steps % 3 == 0 or g.over:
            assert_private(g, rng)
    assert_private(g, rng)


@pytest.mark.parametrize("players,seed", [(3, 21), (4, 22)])
def test_every_socket_gets_only_its_own_seats_view(players, seed):
    rng = random.Random(seed)
    rig = Rig(seed=seed)
    tv = rig.tv()
    phones = {}
    for i in range(players):
        p = rig.phone(f"p{i}")
        phones[p.seat] = p
    assert tv.send("host", {"op": "choose", "game": "word_basket", "options": {"reach_window": 2}})["ok"]
    assert tv.send("host", {"op": "start"})["ok"]
    late = rig.phone("late")  # a spectator (the table view), who plays the next game
    clients = {**phones, "tv": tv, late.seat: late}
    checked = games = 0
    for step in range(400):
        g = rig.game
        if g.over:
            games += 1
            if games == 3:
                break
            assert tv.send("host", {"op": "restart", "serial": rig.engine.party.game_serial})["ok"]
            continue
        seat, action, host = bot_action(g, rng)
        if host:
            tv.send("host", {"op": "game", "action": action})
        else:
            clients[seat].act(action)
        rig.clock.advance(rng.choice([0.0, 0.1, 1.0, 2.5]))
        rig.drain()
        g = rig.game
        for label, client in clients.items():
            for state in client.received("state")[-1:]:
                checked += 1
                seat_of = label if label in g.players else None
                view = state["game"]
                assert view == json.loads(json.dumps(g.view(seat_of))), label
                if seat_of is None:
                    assert "hand" not in view and "lookup" not in view
        assert_private(g, rng)
    assert checked > 100 and games >= 1
