"""Diabolo under random play (hypothesis): cards are conserved (deck + table + piles always hold
the 66) and no view carries the undealt deck (a view does not change when the deck's order does)."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from partyhost.games.base import RuleError
from partyhost.games.diabolo_words import abbreviation
from partyhost.games.diabolo import Diabolo

OPS = ("turn", "auto", "tick", "claim", "vote", "pick", "pass", "deal", "tempo", "overrule")


def random_claim(g: Diabolo, data, seat: str) -> dict:
    """A claim of 2–5 face-up (or any) cards spelling their own letters; jokers as E."""
    pool = list(g.table) + ([data.draw(st.integers(0, 65))] if data.draw(st.booleans()) else [])
    k = data.draw(st.integers(1, 5))
    chosen = data.draw(st.permutations(pool))[:k] if pool else [0]
    cards, word = [], ""
    for i in chosen:
        c = g.cards[i]
        entry = {"id": i}
        if c["joker"]:
            entry["as"] = "E" * c["joker"]
        word += entry.get("as", c["face"])
        cards.append(entry)
    if data.draw(st.integers(0, 9)) == 0:
        word = word[::-1]  # sometimes a misspelling
    return {"type": "claim", "round": g.round, "word": word, "cards": cards}


def step(g: Diabolo, data, now: float) -> None:
    op = data.draw(st.sampled_from(OPS))
    seat = data.draw(st.sampled_from(g.players))
    if op == "turn":
        g.apply(g.dealer, {"type": "turn", "round": g.round, "turned": g.turned}, now)
    elif op == "auto":
        g.apply(g.dealer, {"type": "auto", "round": g.round, "on": data.draw(st.booleans())}, now)
    elif op == "tempo":
        g.apply(g.dealer, {"type": "tempo", "seconds": data.draw(st.integers(1, 20))}, now)
    elif op == "tick":
        deadline = g.next_deadline()
        if deadline is not None:
            g.tick(max(now, deadline))
    elif op == "claim":
        g.apply(seat, random_claim(g, data, seat), now)
    elif op == "vote":
        g.apply(seat, {"type": "vote", "vote": (g.vote or {}).get("id", 1), "ballot": data.draw(st.sampled_from(["accept", "reject"]))}, now)
    elif op == "pick":
        card = data.draw(st.sampled_from(g.table)) if g.table else 0
        g.apply(seat, {"type": "pick", "round": g.round, "card": card}, now)
    elif op == "pass":
        g.apply(seat, {"type": "pass", "round": g.round}, now)
    elif op == "deal":
        g.apply(seat, {"type": "deal", "round": g.round + 1}, now)
    elif op == "overrule":
        g.host_apply({"type": "overrule", "vote": (g.vote or {}).get("id", 1), "outcome": data.draw(st.sampled_from(["accept", "reject"]))}, now)


def check(g: Diabolo) -> None:
    every = sorted(g.deck + g.table + [i for p in g.piles.values() for i in p])
    assert every == list(range(len(g.cards))), "cards lost or doubled"
    assert g.card_count() == 66
    if g.phase == "vote":
        assert g.claim["status"] == "vote" and set(g.claim["ids"]) <= set(g.table)
    # privacy: the views do not depend on the order of the undealt deck
    if len(g.deck) > 1:
        other = Diabolo.from_dict(g.to_dict(), random.Random(0))
        other.deck = list(reversed(other.deck))
        for seat in [None, *g.players]:
            assert g.view(seat) == other.view(seat)
    snapshot = json.loads(json.dumps(g.to_dict()))  # the store writes JSON
    assert Diabolo.from_dict(snapshot, random.Random(0)).to_dict() == g.to_dict()
    for seat in [None, *g.players]:
        view = g.view(seat)
        assert "deck" not in view
        text = json.dumps(view)
        assert json.loads(text) == view  # JSON-ready


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.integers(2, 6), st.integers(0, 10_000), st.booleans())
def test_cards_are_conserved_and_views_never_carry_the_deck(data, n, seed, tiles):
    g = Diabolo()
    g.setup([f"s{i + 1}" for i in range(n)], {"victory_tiles": tiles, "end_seconds": 5},
            random.Random(seed), now=0.0)
    now = 0.0
    for _ in range(data.draw(st.integers(10, 120))):
        now += data.draw(st.sampled_from([0.0, 0.003, 0.5, 3.0]))
        before = g.to_dict()
        try:
            step(g, data, now)
        except RuleError:
            assert g.to_dict() == before, "a refusal changed the state"
        check(g)
        if g.over:
            break


def test_a_whole_random_game_ends_with_every_round_scored():
    rng = random.Random(7)
    g = Diabolo()
    g.setup(["s1", "s2", "s3"], {"end_seconds": 5}, random.Random(3), now=0.0)
    now = 0.0
    while not g.over:
        now += 0.5
        if g.phase == "scored":
            g.apply(g.view(None)["next_dealer"], {"type": "deal", "round": g.round + 1}, now)
        elif g.phase == "turning" and g.deck:
            g.apply(g.dealer, {"type": "turn", "round": g.round, "turned": g.turned}, now)
            if len(g.table) >= 4 and rng.random() < 0.3:
                seat = rng.choice(g.players)
                cards = g.table[:3]
                word = "".join("E" * g.cards[i]["joker"] or g.cards[i]["face"] for i in cards)
                if abbreviation(word, g.lang):  # refused outright (TEL, STR…): no claim
                    continue
                g.apply(seat, {"type": "claim", "round": g.round, "word": word,
                               "cards": [{"id": i, **({"as": "E" * g.cards[i]["joker"]} if g.cards[i]["joker"] else {})}
                                         for i in cards]}, now)
        else:
            g.tick(max(now, g.next_deadline() or now))
        check(g)
    assert len(g.results) == 6 and g.winners
    assert sum(g.totals().values()) == sum(sum(r["cards"].values()) for r in g.results)
