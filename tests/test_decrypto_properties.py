"""Property tests of Decrypto's rules (hypothesis): random legal and illegal actions from random
seats, and the clock, never break the invariants.

* a refused action changes nothing (the whole snapshot); an accepted one bumps ``version``;
* no exception other than ``RuleError`` escapes ``apply``, ``host_apply`` or ``tick``;
* tokens only grow and stay within what the rounds allow; rounds never pass the limit
  (8, or 5 for 3 players), and a game over has a result;
* every reveal holds a deck code and three clues, and the clue sheet is exactly the reveals;
* a team's given clues never repeat (normalised) and never equal one of its keywords, blank
  clues (the timer) aside;
* every view is JSON and the snapshot round-trips.
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from partyhost.games.base import RuleError
from partyhost.games.decrypto import CODE_DECK, TEAMS, Decrypto, normalize

WORDS = ["海", "ウミ", "sea", "Sea ", "空", "", "  ", "x" * 50]


def action_strategy(g: Decrypto):
    """One strategy per game: the action's round is the current one shifted by -1, 0 (mostly)
    or +1, and its team the active one or any, filled in when the action is applied."""
    seats = st.sampled_from(g.players + ["nobody"])
    shift = st.sampled_from([0, 0, 0, -1, 1])
    teams = st.sampled_from([None, "white", "black"])  # None: the active team
    code3 = st.lists(st.integers(1, 4), min_size=3, max_size=3)
    draft3 = st.lists(st.integers(0, 4), min_size=3, max_size=3)
    kw = [w for t in TEAMS for w in g.keywords[t]]
    word = st.sampled_from(WORDS + kw + ["山", "川", "鳥", "moon", "ｻﾎﾞﾃﾝ", "さぼてん"])
    deck_code = st.sampled_from([list(c) for c in CODE_DECK])
    actions = st.one_of(
        st.builds(lambda r, c, f: {"type": "clues", "round": r, "clues": c, "final": f},
                  shift, st.lists(word, min_size=3, max_size=3), st.booleans()),
        st.builds(lambda r, t, c: {"type": "draft", "round": r, "team": t, "code": c}, shift, teams, draft3),
        st.builds(lambda r, t, c: {"type": "lock", "round": r, "team": t, "code": c}, shift, teams,
                  st.one_of(code3, deck_code)),
        st.builds(lambda r, t: {"type": "next", "round": r, "team": t}, shift, teams),
        st.builds(lambda w, f: {"type": "kw_guess", "words": w, "final": f},
                  st.lists(word, min_size=4, max_size=4), st.booleans()),
        st.builds(lambda n, a: {"type": "accept", "number": n, "accept": a}, st.integers(1, 4), st.booleans()),
        st.just({"type": "judged"}),
        st.just({"type": "lock", "round": 1}),  # malformed
    )
    return st.tuples(seats, actions, st.sampled_from(["act", "act", "act", "act", "host", "tick"]),
                     st.sampled_from([0.0, 1.0, 31.0]))


def concrete(g: Decrypto, action: dict) -> dict:
    """Fill in the round (current + shift, kept in 1–8) and the team (None = the active one)."""
    action = dict(action)
    if "round" in action and "team" in action or action["type"] == "clues":
        action["round"] = min(8, max(1, g.round + action["round"]))
    if action.get("team", "x") is None:
        action["team"] = g.active or "white"
    return action


def snapshot(g: Decrypto) -> str:
    return json.dumps(g.to_dict(), sort_keys=True)


def check_invariants(g: Decrypto, before_tokens: dict) -> None:
    for t in TEAMS:
        for kind in ("interceptions", "miscommunications"):
            assert g.tokens[t][kind] >= before_tokens[t][kind]
            assert g.tokens[t][kind] <= len(g.history)
    assert 1 <= g.round <= g.max_rounds
    if g.over:
        assert g.result and "winner" in g.result
    sheet = g.sheet()
    assert sum(len(v) for v in sheet.values()) == len(g.history)
    for h in g.history:
        assert tuple(h["code"]) in CODE_DECK and len(h["clues"]) == 3
    for t in g.encrypting:
        given_ = [normalize(c) for h in g.history if h["team"] == t for c in h["clues"] if normalize(c)]
        assert len(given_) == len(set(given_)), given_
        assert not set(given_) & {normalize(k) for k in g.keywords[t]}
    for s in [None, *g.players]:
        json.dumps(g.view(s))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(3, 8), st.integers(0, 10_000), st.booleans(), st.data())
def test_random_play_keeps_the_invariants(players, seed, timer, data):
    g = Decrypto()
    g.setup([f"s{i}" for i in range(1, players + 1)], {"timer": timer}, random.Random(seed), 0.0)
    now = 0.0
    strategy = action_strategy(g)
    for _ in range(100):
        if g.over:
            break
        seat, action, how, step = data.draw(strategy)
        action = concrete(g, action)
        now += step
        before, tokens, version = snapshot(g), json.loads(json.dumps(g.tokens)), g.version
        try:
            if how == "tick":
                g.tick(now)
            elif how == "host":
                g.host_apply(action, now)
            else:
                g.apply(seat, action, now)
        except RuleError:
            assert snapshot(g) == before
        else:
            if how != "tick":
                assert g.version == version + 1
        check_invariants(g, tokens)
    again = Decrypto.from_dict(json.loads(snapshot(g)), random.Random(1))
    assert snapshot(again) == snapshot(g)
