"""Top Ten privacy through the real engine and transport: a secret number reaches only its holder
until it is revealed — not the captain, not the TV, not a spectator — and the numbers nobody was
dealt never leave the server (seeds/001_… §theme; ISSUE-5 "Privacy").

Whole seeded games are played with random (legal and illegal) moves; after every move every state
each socket received is searched. Numbers are small ints, so the search is structural: every int
in a game view must sit under a known key, and every ``"number"`` must be the viewer's own
(``game.number``) or belong to a seat whose number has been revealed.
"""

from __future__ import annotations

import random

import pytest

from partyhost.games import top_ten

from .helpers import Rig
from .test_top_ten import FIXTURE_DECK

INT_KEYS = {"round", "rounds", "tokens", "unicorns", "poops", "version", "n", "number", "mistakes"}
WORDS = ["ねこ", "富士山", "おにぎり", "a whale", "雷", "そよ風", "", "宇宙", "カレー", ""]


@pytest.fixture(autouse=True)
def fixture_deck(monkeypatch):
    monkeypatch.setattr(top_ten, "load_deck", lambda lang: FIXTURE_DECK)


def walk(node, path=()):
    """Yield (key path, value, parent dict) for every scalar in ``node``."""
    if isinstance(node, dict):
        for key, value in node.items():
            if isinstance(value, (dict, list)):
                yield from walk(value, path + (key,))
            else:
                yield path + (key,), value, node
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from walk(value, path + (i,))


def revealed_pairs(game) -> set[tuple[str, int]]:
    pairs = {(r["seat"], r["number"]) for r in game.reveals}
    for h in game.history:
        pairs |= {(r["seat"], r["number"]) for r in h["reveals"]}
    return pairs


def check_views(rig: Rig, clients: dict, seen: dict) -> int:
    """Check every state each client received since the last check; returns how many."""
    game = rig.game
    players = set(rig.engine.party.players)
    revealed = revealed_pairs(game)
    secret = {(s, n) for s, n in game.numbers.items()} - revealed
    checked = 0
    for label, client in clients.items():
        seat = label if label in players else None
        states = client.received("state")
        for state in states[seen.get(label, 0):]:
            view = state.get("game")
            if view is None:
                continue
            checked += 1
            assert ("number" in view) == (seat is not None), (label, sorted(view))
            for path, value, parent in walk(view):
                if isinstance(value, bool) or not isinstance(value, int):
                    continue
                key = path[-1] if isinstance(path[-1], str) else path[-2]
                assert key in INT_KEYS, (label, path, value)
                if key != "number":
                    continue
                if path == ("number",):
                    assert seat is not None and value == game.numbers.get(seat), (label, value)
                    continue
                owner = parent.get("seat")
                assert (owner, value) in revealed, (label, path, value, owner)
                assert (owner, value) not in secret
            # the card's other themes stay with the captain while choosing
            assert ("choices" in view) == (seat is not None and seat == game.captain and view["phase"] == "choose")
        seen[label] = len(states)
        if seat is not None and states:
            assert states[-1]["game"]["number"] == game.numbers.get(seat)
    return checked


def random_move(rng: random.Random, rig: Rig, clients: dict, tv) -> None:
    game = rig.game
    party = rig.engine.party
    view = tv.state["game"]
    rnd = view["round"]
    roll = rng.random()
    captain = clients[game.captain]
    if roll < 0.06:  # anyone tries anything: refusals must change nothing and leak nothing
        phone = clients[rng.choice(party.players)]
        kind = rng.choice(["choose", "answer", "close_answers", "pick", "undo", "confirm", "next_round"])
        fields = {"choose": {"theme": rng.randint(0, 3)}, "answer": {"text": rng.choice(WORDS)},
                  "pick": {"seat": rng.choice(party.players)}, "confirm": {"seat": rng.choice(party.players)}}
        phone.act({"type": kind, "round": rnd + rng.choice([0, 0, 0, -1]), **fields.get(kind, {})})
        return
    if game.phase == "choose":
        assert captain.act({"type": "choose", "round": rnd, "theme": rng.randint(0, 3)})["ok"]
    elif game.phase == "answer":
        if game.captain in game.answerers and game.captain not in game.answers:
            who = game.captain
        elif roll < 0.1:
            assert captain.act({"type": "close_answers", "round": rnd})["ok"]
            return
        else:
            who = rng.choice([s for s in game.answerers if s not in game.answers])
        assert clients[who].act({"type": "answer", "round": rnd, "text": rng.choice(WORDS)})["ok"]
    elif game.phase == "order":
        if game.pending is not None:
            kind = "undo" if roll < 0.15 else "confirm"
            fields = {} if kind == "undo" else {"seat": game.pending}
            assert captain.act({"type": kind, "round": rnd, **fields})["ok"]
            return
        left = [s for s in game.answerers if all(r["seat"] != s for r in game.reveals)]
        # the captain reads the table well most of the time (so games also reach round 5)
        target = min(left, key=lambda s: game.numbers[s]) if roll < 0.8 else rng.choice(left)
        assert captain.act({"type": "pick", "round": rnd, "seat": target})["ok"]
    elif game.phase == "round_over":
        if roll < 0.2:
            assert tv.send("host", {"op": "game", "action": {"type": "next_round", "round": rnd}})["ok"]
        else:
            assert clients[game._after(game.captain)].act({"type": "next_round", "round": rnd})["ok"]


@pytest.mark.parametrize("players,seed", [(4, 1), (5, 2), (9, 3), (6, 4), (8, 5)])
def test_no_view_holds_an_unrevealed_number(players, seed):
    rng = random.Random(seed)
    rig = Rig(seed=seed)
    tv = rig.tv()
    clients = {"tv": tv, "tv2": rig.tv()}
    for i in range(players):
        phone = rig.phone(f"p{i}")
        clients[phone.seat] = phone
    assert tv.send("host", {"op": "choose", "game": "top_ten", "options": {"rounds": "players" if seed % 2 else "five"}})["ok"]
    assert tv.send("host", {"op": "start"})["ok"]
    if players < 9:
        late = rig.phone("late")  # joins mid-game: a spectator sees the table view
        clients[late.seat] = late
    seen: dict = {}
    checked = steps = games = 0
    ratings = []
    while games < 2 and steps < 2000:
        steps += 1
        if rig.game.over:
            games += 1
            ratings.append(rig.game.rating)
            assert tv.send("host", {"op": "restart"})["ok"]
        else:
            random_move(rng, rig, clients, tv)
        checked += check_views(rig, clients, seen)
    assert games == 2, f"only {games} games finished in {steps} steps"
    assert checked > 200
    assert set(ratings) <= {"perfect", "great", "fair", "lost"}
