"""Whole games through the real engine and transport: no view a socket receives — table or
seat — ever holds a card still in another seat's hand (DESIGN.md "Views and privacy")."""

from __future__ import annotations

import random

import pytest

from .helpers import Rig

GAME_KEYS = {"game", "guide", "coach", "phase", "level", "levels", "lives", "shuriken", "players", "pile", "discards",
             "proposal", "last_event", "chart", "revealed", "version", "away", "waiting"}
SEAT_KEYS = GAME_KEYS | {"hand", "me"}


def cards_in(node, path=()):
    """Every int that sits under a key called "card" or in a list of ints, outside the chart, a
    level-complete event (both tell of the previous level: its cards may be dealt again), the
    party's record (finished games) and the how-to (rules per player count: levels, not cards)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "chart" or (key == "last_event" and (value or {}).get("kind") == "level_complete"):
                continue  # the level that just ended: its cards are public and may be dealt again
            if path == ("party",) and key == "record":
                continue  # tonight's record tells of finished games: their cards may be dealt again
            if path == ("party",) and key == "howto":
                continue  # the how-to's rules per player count (levels, lives): numbers, never cards
            if key == "card" and isinstance(value, int):
                yield value, path + (key,)
            else:
                yield from cards_in(value, path + (key,))
    elif isinstance(node, list):
        if node and all(isinstance(v, int) and not isinstance(v, bool) for v in node):
            for v in node:
                yield v, path
        else:
            for i, value in enumerate(node):
                yield from cards_in(value, path + (i,))


def check_views(rig: Rig, clients: dict, seen: dict) -> int:
    """Check every state each client received since the last check. ``clients`` maps a seat id
    (or a TV's label) to its client. Returns the number of states checked."""
    game = rig.game
    players = set(rig.engine.party.players)
    hands = {seat: set(cards) for seat, cards in game.hands.items()} if game else {}
    checked = 0
    for label, client in clients.items():
        seat = label if label in players else None  # TVs and spectators get the table view
        states = client.received("state")
        for state in states[seen.get(label, 0):]:
            checked += 1
            view = state.get("game")
            if view is None:
                continue
            assert set(view) == (SEAT_KEYS if seat else GAME_KEYS), set(view)
            # hands are turned over only once the game is lost, never during play
            assert (view["revealed"] is not None) == (view["phase"] == "lost"), view["phase"]
            if view["phase"] == "lost":
                continue
            others = set().union(*(h for s, h in hands.items() if s != seat))
            for value, path in cards_in(state):
                if path == ("game", "hand"):
                    continue  # the seat's own hand, compared with the game below
                assert value not in others, (label, path, value)
        seen[label] = len(states)
        if seat and game is not None:
            assert client.state["game"]["hand"] == sorted(game.hands.get(seat, []))
    return checked


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3), (3, 4)])
def test_no_view_ever_holds_another_seats_cards(players, seed):
    rng = random.Random(seed)
    rig = Rig(seed=seed)
    clients = {"tv": rig.tv(), "tv2": rig.tv()}
    for i in range(players):
        phone = rig.phone(f"p{i}")
        clients[phone.seat] = phone
    assert clients["tv"].send("host", {"op": "start"})["ok"]
    if players < 4:
        late = rig.phone("late")  # joins mid-game: watches now, plays the next game
        clients[late.seat] = late
    seen: dict = {}
    checked = steps = games = 0
    while games < 2 and steps < 4000:
        steps += 1
        game = rig.game
        if game.over:
            games += 1
            assert clients["tv"].send("host", {"op": "restart"})["ok"]
            continue
        seat = rng.choice(rig.engine.party.players)
        phone = clients[seat]
        view = phone.state["game"]
        roll = rng.random()
        if game.phase == "ready":
            phone.act({"type": "ready", "level": view["level"], "ready": roll > 0.05})
        elif game.proposal:
            phone.act({"type": "vote_shuriken", "proposal": game.proposal["id"], "agree": roll > 0.2})
        elif roll < 0.02 and game.shuriken:
            phone.act({"type": "propose_shuriken", "level": view["level"]})
        elif roll < 0.03:
            phone.act({"type": "stop", "level": view["level"]})
        else:
            # mostly the true global lowest, sometimes a rash play (a mistake), sometimes junk
            holders = [s for s in game.players if game.hands[s]]
            if roll < 0.85 and holders:
                phone = clients[min(holders, key=lambda s: game.hands[s][0])]
                view = phone.state["game"]
            if view["hand"]:
                card = view["hand"][0] if roll < 0.97 else rng.randint(1, 100)
                phone.act({"type": "play", "level": view["level"], "card": card})
        checked += check_views(rig, clients, seen)
    assert games == 2, f"only {games} games finished in {steps} steps"
    assert checked > 200
