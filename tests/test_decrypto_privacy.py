"""Decrypto privacy (issue 4, DESIGN.md "Views and privacy"): whole seeded games.

Two complementary checks:

1. *Search*, through the real engine and sockets (``Rig``): after every action, every state each
   socket received is searched for each secret it may not hold — the other team's keywords
   (exact strings, until the game is over) and clues not yet read out (planted unique strings,
   only on their encryptor's phone). No socket ever gets a ``codes`` key, and ``my_code`` is
   only ever on the encryptor's phone.
2. *Non-interference*, on the pure game: at every step each secret is changed in a copy of the
   state, and every view that may not depend on it must come out identical — codes (only their
   encryptor), unread clues and clue drafts (only their encryptor), a team's draft and locked
   guess (never the other team or the TV before the reveal), the keyword guesses of the
   tie-break (never the other team before both have answered), the keywords (own team only,
   until the end).
"""

from __future__ import annotations

import json
import random

import pytest

from partyhost.games.decrypto import CODE_DECK, TEAMS, Decrypto, other

from .helpers import Rig


# --- a random table ----------------------------------------------------------------------------


class Driver:
    """Chooses one plausible (sometimes wrong, sometimes illegal) action for the game's state."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.n = 0

    def planted(self, team: str, round_no: int) -> str:
        self.n += 1
        return f"clue{team[0]}{round_no}x{self.n}z{self.rng.randrange(10**6)}"

    def choose(self, g: Decrypto) -> tuple[str | None, dict]:
        """Returns (seat or None for the host, action)."""
        rng = self.rng
        if g.phase == "encrypt":
            team = rng.choice([t for t in g.encrypting if g.clues[t] is None])
            seat = g.encryptors[team]
            roll = rng.random()
            if roll < 0.1:
                seat = rng.choice(g.players)  # maybe not the encryptor: refused
            clues = [self.planted(team, g.round) for _ in range(3)]
            if roll > 0.9:
                clues[1] = g.keywords[team][0]  # refused
            return seat, {"type": "clues", "round": g.round, "clues": clues, "final": roll > 0.35}
        if g.phase == "guess":
            kind = rng.choice(sorted(g.guesses))
            guess = g.guesses[kind]
            members = [s for s in g.teams[guess["team"]] if s != g.encryptors.get(guess["team"])
                       or kind == "intercept"]
            seat = rng.choice(members if rng.random() < 0.9 else g.players)
            code = g.codes[g.active] if rng.random() < (0.8 if kind == "decode" else 0.3) else list(rng.choice(CODE_DECK))
            if rng.random() < 0.6:
                draft = [rng.choice([0, 1, 2, 3, 4]) for _ in range(3)]
                return seat, {"type": "draft", "round": g.round, "team": g.active, "code": draft}
            return seat, {"type": "lock", "round": g.round, "team": g.active, "code": list(code)}
        if g.phase == "reveal":
            if rng.random() < 0.2:
                return None, {"type": "next", "round": g.round, "team": g.active}
            return rng.choice(g.players), {"type": "next", "round": g.round, "team": g.active}
        if g.phase == "keywords":
            team = rng.choice([t for t in TEAMS if g.kw[t]["words"] is None])
            words = [w if rng.random() < 0.5 else f"guess{self.n}{i}" for i, w in enumerate(g.keywords[other(team)])]
            self.n += 1
            return rng.choice(g.teams[team]), {"type": "kw_guess", "words": words, "final": rng.random() < 0.4}
        team = rng.choice([t for t in TEAMS if not g.judge[t]["done"]])
        seat = rng.choice(g.teams[team])
        if rng.random() < 0.5:
            return seat, {"type": "accept", "number": rng.randint(1, 4), "accept": rng.random() < 0.5}
        return seat, {"type": "judged"}


def options_for(rng: random.Random, n: int) -> dict:
    return {"timer": rng.random() < 0.5, "lang": rng.choice(["ja", "en"])}


# --- 1. search every socket's states -------------------------------------------------------------


def strings_in(node):
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for k, v in node.items():
            yield k
            yield from strings_in(v)
    elif isinstance(node, list):
        for v in node:
            yield from strings_in(v)


def check_sockets(rig: Rig, clients: dict, seen: dict) -> int:
    g = rig.game
    team_of = {s: g.team_of(s) for s in g.players}
    # clues still secret: submitted or drafted, not yet read out, by team
    unread: dict[str, set[str]] = {}
    for team in g.encrypting:
        public = any(h["round"] == g.round and h["team"] == team for h in g.history) or (
            g.phase in ("guess", "reveal") and g.active == team)
        hidden = set(g.clue_drafts.get(team) or []) | set(g.clues.get(team) or [])
        unread[team] = set() if public else {c for c in hidden if c.startswith("clue")}
    checked = 0
    for label, client in clients.items():
        states = client.received("state")
        for state in states[seen.get(label, 0):]:
            view = state.get("game")
            if not view:
                continue
            checked += 1
            seat = label if label in team_of else None
            mine = team_of.get(seat)
            found = set(strings_in(view))
            assert "codes" not in found and "clue_drafts" not in found and "kw" not in view
            if view.get("my_code") is not None:
                assert seat == g.encryptors.get(mine), (label, view.get("my_code"))
            if view["phase"] != "over":
                # a guess typed by the seat's own team, or any answer read out in the judging,
                # may be right: that word is then known by guessing, not by a leak
                guessed = set(g.kw[mine]["draft"]) | set(g.kw[mine]["words"] or []) if g.kw and mine else set()
                if view["phase"] == "judge":
                    guessed |= {w for t in TEAMS for w in g.kw[t]["words"]}
                for team in TEAMS:
                    if team != mine:
                        leaked = found & set(g.keywords[team]) - guessed
                        assert not leaked, (label, team, leaked, view["phase"])
            for team, clues in unread.items():
                if seat != g.encryptors.get(team):
                    assert not (found & clues), (label, team, found & clues)
        seen[label] = len(states)
    return checked


@pytest.mark.parametrize("players,seed", [(4, 1), (5, 2), (6, 3), (3, 4), (8, 5), (3, 6)])
def test_no_socket_ever_receives_another_teams_secret(players, seed):
    rng = random.Random(seed)
    rig = Rig(seed=seed)
    clients = {"tv": rig.tv()}
    for i in range(players):
        phone = rig.phone(f"p{i}")
        clients[phone.seat] = phone
    opts = options_for(rng, players)
    assert clients["tv"].send("host", {"op": "choose", "game": "decrypto", "options": opts})["ok"]
    assert clients["tv"].send("host", {"op": "start"})["ok"]
    late = rig.phone("late")  # a spectator: the table view
    clients["late"] = late
    driver = Driver(rng)
    seen: dict = {}
    checked = steps = 0
    while not rig.game.over and steps < 3000:
        steps += 1
        g = rig.game
        if g.next_deadline() is not None and rng.random() < 0.05:
            rig.clock.advance(31.0)  # the clue timer or a reveal runs out
            rig.drain()
        else:
            seat, action = driver.choose(g)
            if seat is None:
                clients["tv"].send("host", {"op": "game", "action": action})
            else:
                clients[seat].act(action)
        checked += check_sockets(rig, clients, seen)
    assert rig.game.over, f"no end in {steps} steps: {rig.game.phase}"
    checked += check_sockets(rig, clients, seen)
    final = clients["tv"].state["game"]
    assert final["keywords"] == {t: rig.game.keywords[t] for t in TEAMS}  # everyone at the end
    assert checked > 50


# --- 2. non-interference on the pure game --------------------------------------------------------


def views(g: Decrypto) -> dict:
    return {s: json.dumps(g.view(s), sort_keys=True) for s in [None, *g.players]}


def variant(g: Decrypto, change) -> Decrypto:
    data = json.loads(json.dumps(g.to_dict()))
    change(data)
    return Decrypto.from_dict(data, random.Random(0))


def same_for(base: dict, g2: Decrypto, seats) -> None:
    after = views(g2)
    for s in seats:
        assert base[s] == after[s], (s, base[s], after[s])


def check_non_interference(g: Decrypto) -> int:
    base = views(g)
    checks = 0
    everyone = [None, *g.players]
    for team in g.encrypting:
        enc = g.encryptors[team]
        not_enc = [s for s in everyone if s != enc]
        code = g.codes[team]
        alt = next(list(c) for c in CODE_DECK if list(c) != code)
        same_for(base, variant(g, lambda d, t=team, a=alt: d["codes"].__setitem__(t, a)), not_enc)
        same_for(base, variant(g, lambda d, t=team: d["clue_drafts"].__setitem__(t, ["zz1", "zz2", "zz3"])), not_enc)
        up = g.phase in ("guess", "reveal") and (g.active == team or g.encrypting.index(g.active) > g.encrypting.index(team))
        if g.clues.get(team) is not None and not up and g.phase == "encrypt":
            same_for(base, variant(g, lambda d, t=team: d["clues"].__setitem__(t, ["yy1", "yy2", "yy3"])), not_enc)
        if g.phase != "over":
            outsiders = [None, *[s for s in g.players if g.team_of(s) != team]]
            same_for(base, variant(g, lambda d, t=team: d["keywords"].__setitem__(t, ["k1", "k2", "k3", "k4"])), outsiders)
        checks += 1
    if g.phase == "guess":
        for kind, guess in g.guesses.items():
            outsiders = [None, *[s for s in g.players if g.team_of(s) != guess["team"]]]

            def change(d, k=kind):
                d["guesses"][k]["code"] = [4, 3, 2] if d["guesses"][k]["code"] != [4, 3, 2] else [1, 2, 3]
                d["guesses"][k]["by"] = "nobody"

            same_for(base, variant(g, change), outsiders)
            checks += 1
    if g.phase == "keywords":
        for team in TEAMS:
            outsiders = [None, *g.teams[other(team)]]

            def change_kw(d, t=team):
                d["kw"][t]["draft"] = ["q1", "q2", "q3", "q4"]
                if d["kw"][t]["words"] is not None:
                    d["kw"][t]["words"] = ["q1", "q2", "q3", "q4"]

            same_for(base, variant(g, change_kw), outsiders)
            checks += 1
    return checks


@pytest.mark.parametrize("players,seed", [(4, 11), (7, 12), (3, 13), (6, 14), (4, 15), (5, 16), (4, 17), (8, 18)])
def test_no_view_depends_on_a_secret_it_may_not_hold(players, seed):
    rng = random.Random(seed)
    g = Decrypto()
    g.setup([f"s{i}" for i in range(1, players + 1)], options_for(rng, players), random.Random(seed), 0.0)
    driver = Driver(rng)
    now = 0.0
    checks = 0
    for _ in range(3000):
        if g.over:
            break
        checks += check_non_interference(g)
        now += 1.0
        deadline = g.next_deadline()
        if deadline is not None and rng.random() < 0.05:
            g.tick(deadline)
            continue
        seat, action = driver.choose(g)
        try:
            if seat is None:
                g.host_apply(action, now)
            else:
                g.apply(seat, action, now)
        except Exception as e:  # noqa: BLE001 - only rule refusals are expected
            assert type(e).__name__ == "RuleError", e
    assert g.over
    assert checks > 30
