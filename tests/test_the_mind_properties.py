"""Property tests of The Mind: random legal and illegal action sequences keep the invariants.

Hypothesis drives 2–4 players (from level 1, or from a part-played later level with other
counters) through sequences of readies, stops, plays (the right card, a player's own lowest card
that may be a mistake, random cards, stale levels), shuriken proposals, votes with live and stale
ids, clock ticks, kicks and malformed dicts, with ``now`` increasing.
After every step:

* the 100 cards are conserved within the level: hands + pile + discards + undealt = 1..100 once;
* the pile rises and no hand holds a card below its top card;
* lives stay in 0..5, shuriken in 0..3, and zero lives means the game is lost;
* only ``RuleError`` escapes, and a ``RuleError`` leaves ``to_dict()`` unchanged;
* no view shows another seat's hand (the table view has no hand at all);
* the snapshot survives a JSON round trip with equal views.
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from partyhost.games.base import RuleError
from partyhost.games.the_mind import MAX_LIVES, MAX_SHURIKEN, PHASES, TheMind

SEATS = ["s1", "s2", "s3", "s4"]
OUTSIDERS = ["tv", "ghost"]
EVENT_KINDS = {
    "start", "play", "mistake", "stop", "shuriken", "shuriken_proposed", "shuriken_declined",
    "shuriken_lapsed", "level_complete", "won", "lost", "left",
}  # fmt: skip
STEPS = [
    "ready_all", "ready_all", "ready", "play_right", "play_right", "play_right", "play_own_lowest",
    "play_own_lowest", "play_random", "stop", "propose", "vote", "vote_all", "tick", "leave", "malformed",
]  # fmt: skip

VOTE_STEPS = ["vote", "vote", "vote_all"]  # drawn more often while a proposal is open


def snapshot(g: TheMind) -> dict:
    return g.to_dict()


def keys_anywhere(obj, found=None) -> set:
    found = set() if found is None else found
    if isinstance(obj, dict):
        for k, v in obj.items():
            found.add(k)
            keys_anywhere(v, found)
    elif isinstance(obj, list):
        for v in obj:
            keys_anywhere(v, found)
    return found


def check_invariants(g: TheMind, all_seats: list[str], round_trip: bool = True) -> None:
    table = g.view(None)
    state = g.to_dict()
    hands = state["hands"]
    assert set(hands) == set(g.players)

    # cards conserved within the level
    pile = [e["card"] for e in table["pile"]]
    discards = [e["card"] for e in table["discards"]]
    held = [c for h in hands.values() for c in h]
    assert sorted(held + pile + discards + g.undealt()) == list(range(1, 101))
    assert all(h == sorted(h) and len(h) <= g.level for h in hands.values())
    # the pile rises, and after every play no hand holds a card below its top (§4)
    assert pile == sorted(pile)
    if pile:
        assert all(c > pile[-1] for c in held)

    # counters in bounds, phases coherent
    assert 0 <= g.lives <= MAX_LIVES
    assert 0 <= g.shuriken <= MAX_SHURIKEN
    assert table["phase"] in PHASES
    assert g.over == (table["phase"] in ("won", "lost"))
    assert (g.lives == 0) == (table["phase"] == "lost")
    assert 1 <= table["level"] <= table["levels"]
    assert 2 <= len(table["players"]) <= 4
    if table["phase"] == "playing":
        assert all(p["ready"] for p in table["players"])
        assert any(hands.values())
    if table["proposal"] is not None:
        assert not g.over
        assert set(table["proposal"]["agreed"]) < set(g.players)
        assert g.next_deadline() == table["proposal"]["deadline"]
    else:
        assert g.next_deadline() is None
    if table["last_event"] is not None:
        assert table["last_event"]["kind"] in EVENT_KINDS
    if table["chart"] is not None:
        assert table["chart"]["outcome"] in ("complete", "lost")

    # privacy: the table has no hand; a seat sees its own hand and nobody else's
    assert keys_anywhere(table).isdisjoint({"hand", "hands", "stock", "undealt"})
    for x in list(g.players) + [s for s in all_seats if s not in g.players] + OUTSIDERS[:1]:
        v = g.view(x)
        assert v["me"] == x
        assert v["hand"] == hands.get(x, [])
        shown = json.loads(json.dumps(v))["hand"]
        for y, cards in hands.items():
            if y != x:
                assert not set(cards) & set(shown), (x, y)
        rest = dict(v)
        del rest["hand"]
        # the teaching parts speak to this seat (its own role; conformance checks them)
        teach = ("guide", "coach")
        assert {k: w for k, w in rest.items() if k not in teach} == \
            {**{k: w for k, w in table.items() if k not in teach}, "me": x}  # so, like the table, no other hand anywhere

    # a JSON round trip rebuilds an equal game
    if not round_trip:
        return
    again = TheMind.from_dict(json.loads(json.dumps(state)), random.Random(0))
    assert again.to_dict() == state
    assert again.view(None) == table


def start_later(
    g: TheMind, level: int, lives: int, shuriken: int, played: int, rng: random.Random
) -> TheMind:
    """The same table later on: a fresh deal of ``level``, of which the ``played`` lowest cards
    are already on the pile in order, with the given lives and shuriken."""
    d = g.to_dict()
    deck = list(range(1, 101))
    rng.shuffle(deck)
    players = d["players"]
    d.update(level=level, lives=lives, shuriken=shuriken)
    hands = {s: sorted(deck[i * level : (i + 1) * level]) for i, s in enumerate(players)}
    dealt = sorted((c, s) for s, h in hands.items() for c in h)
    played = min(played, len(dealt) - 1)
    d["log"] = [
        {"card": c, "seat": s, "t": float(i), "kind": "play", "reason": None} for i, (c, s) in enumerate(dealt[:played])
    ]
    d["hands"] = {s: [c for c in h if c > dealt[played - 1][0]] if played else h for s, h in hands.items()}
    d["stock"] = sorted(deck[len(players) * level :])
    d["elapsed"] = float(played)
    return TheMind.from_dict(d, rng)


def attempt(g: TheMind, fn, *args) -> bool:
    """Run one action; a RuleError must leave the snapshot untouched. True when it succeeded."""
    before = snapshot(g)
    version = g.version
    try:
        fn(*args)
    except RuleError as err:
        assert isinstance(err.code, str) and err.code
        assert snapshot(g) == before, err.code
        return False
    assert g.version > version
    return True


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), count=st.integers(2, 4), seed=st.integers(0, 2**32 - 1))
def test_random_action_sequences_keep_invariants(data, count, seed):
    players = SEATS[:count]
    g = TheMind()
    g.setup(players, {}, random.Random(seed), 0.0)
    if data.draw(st.booleans(), label="start later"):
        g = start_later(
            g,
            level=data.draw(st.sampled_from([g.levels, g.levels - 1, 2, 4, 6]), label="level"),
            lives=data.draw(st.integers(1, MAX_LIVES), label="lives"),
            shuriken=data.draw(st.integers(0, MAX_SHURIKEN), label="shuriken"),
            played=data.draw(st.sampled_from([0, 5, 20, 40]), label="already played"),
            rng=random.Random(seed + 1),
        )
    now = 0.0
    check_invariants(g, players)
    seat_st = st.sampled_from(players + OUTSIDERS)
    level_st = st.one_of(st.just(None), st.integers(1, 12))  # None: the current level
    for step_no in range(data.draw(st.integers(1, 50), label="steps")):
        now += data.draw(st.sampled_from([0.0, 0.001, 0.003, 0.5, 0.5, 2.0, 2.0, 31.0]), label="dt")
        deadline = g.next_deadline()
        if deadline is not None and now >= deadline and data.draw(st.booleans(), label="engine tick"):
            version = g.version
            g.tick(now)
            assert g.version == version + 1 and g.next_deadline() is None
        voting = g.proposal is not None and data.draw(st.booleans(), label="vote now")
        step = data.draw(st.sampled_from(VOTE_STEPS if voting else STEPS), label="step")

        def lvl():
            chosen = data.draw(level_st, label="level")
            return g.level if chosen is None else chosen

        if step == "ready_all":
            for s in list(g.players):
                attempt(g, g.apply, s, {"type": "ready", "level": g.level, "ready": True}, now)
        elif step == "ready":
            action = {"type": "ready", "level": lvl(), "ready": data.draw(st.booleans(), label="flag")}
            attempt(g, g.apply, data.draw(seat_st, label="seat"), action, now)
        elif step == "play_right":
            holders = [(h[0], s) for s, h in g.hands.items() if h]
            if holders:
                card, s = min(holders)
                lives, level = g.lives, g.level
                if attempt(g, g.apply, s, {"type": "play", "level": level, "card": card}, now) and g.level == level:
                    assert g.lives == lives  # the lowest card on the table is never a mistake
        elif step == "play_own_lowest":
            s = data.draw(st.sampled_from(list(g.players)), label="seat")
            if g.hands[s]:
                lives, level = g.lives, g.level
                card = g.hands[s][0]
                others_lower = any(c < card for o, h in g.hands.items() if o != s for c in h)
                if attempt(g, g.apply, s, {"type": "play", "level": level, "card": card}, now):
                    if g.level == level:  # (a completed level may add a life)
                        assert g.lives == lives - (1 if others_lower else 0)
                    kinds = ("mistake", "lost") if others_lower else ("play",)
                    assert g.view(None)["last_event"]["kind"] in (*kinds, "level_complete", "won")
        elif step == "play_random":
            action = {"type": "play", "level": lvl(), "card": data.draw(st.integers(1, 100), label="card")}
            attempt(g, g.apply, data.draw(seat_st, label="seat"), action, now)
        elif step == "stop":
            attempt(g, g.apply, data.draw(seat_st, label="seat"), {"type": "stop", "level": lvl()}, now)
        elif step == "propose":
            action = {"type": "propose_shuriken", "level": lvl()}
            attempt(g, g.apply, data.draw(seat_st, label="seat"), action, now)
        elif step == "vote":
            live = g.proposal["id"] if g.proposal else 1
            pid = data.draw(st.sampled_from([live, live, live + 1, max(1, live - 1)]), label="proposal")
            action = {"type": "vote_shuriken", "proposal": pid, "agree": data.draw(st.booleans(), label="agree")}
            attempt(g, g.apply, data.draw(seat_st, label="seat"), action, now)
        elif step == "vote_all":
            if g.proposal is not None:
                pid = g.proposal["id"]
                for s in list(g.players):
                    attempt(g, g.apply, s, {"type": "vote_shuriken", "proposal": pid, "agree": True}, now)
        elif step == "tick":
            before = snapshot(g)
            deadline = g.next_deadline()
            g.tick(now)
            if deadline is None or now < deadline:
                assert snapshot(g) == before
        elif step == "leave":
            attempt(g, g.leave, data.draw(st.sampled_from(SEATS + OUTSIDERS), label="seat"), now)
        elif step == "malformed":
            action = data.draw(
                st.sampled_from(
                    [
                        {"type": "play"},
                        {"type": "play", "level": 1, "card": 0},
                        {"type": "play", "level": 1, "card": "5"},
                        {"type": "ready", "level": 1, "ready": 1},
                        {"type": "vote_shuriken", "proposal": 0, "agree": True},
                        {"type": "stop", "level": 1, "extra": True},
                        {"type": "jump"},
                        {"type": ["play"]},
                        {"type": None},
                        {},
                    ]
                ),
                label="malformed",
            )
            assert not attempt(g, g.apply, data.draw(seat_st, label="seat"), action, now)
        check_invariants(g, players, round_trip=step_no % 8 == 0)
    check_invariants(g, players)
