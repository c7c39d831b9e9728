"""Word Basket on the shared pipeline (issue 11): its declared phases hold, snapshots saved before
the move still restore, and the suite's hooks (``suggest``, ``redeal_hidden``) do what they say."""

from __future__ import annotations

import json
import random

import pytest

from partyhost.games.base import RuleError
from partyhost.games.word_basket import CARDS, PHASES, WordBasket

from .wb_rig import NOW, K, arrange, new_game, play

#: A 3-player game in a table vote, as ``to_dict()`` wrote it before the move onto the shared
#: pipeline (no ``"v"``; the vote under ``"vote"``): s1 played あぬぬる, s2 looked up 新学期 and
#: challenged the word.
SNAPSHOT_BEFORE_ISSUE_11 = (
    '{"game":"word_basket","players":["s1","s2","s3"],"mode":"vote","reach_window":5.0,"vote_se'
    'conds":20.0,"handicaps":{"s1":"normal","s2":"normal","s3":"normal"},"hands":{"s1":[9],"s2"'
    ':[29,23],"s3":[12,7]},"deck":[1,2,3,4,5,6,8,10,11,13,14,15,16,17,18,19,20,21,22,24,25,26,2'
    '7,28,30,31,32,33,34,35,36,37,38,39,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,5'
    '9],"basket":[{"card":0,"seat":null,"how":"turn","kana":"あ","row":null,"chain":null,"prev_w'
    'ord":null},{"card":40,"seat":"s1","how":"play","kana":"る","row":null,"chain":1,"prev_word"'
    ':null}],"field":{"serial":3,"kana":"る","row":null},"chain":[{"n":1,"seat":"s1","word":"あぬぬ'
    'る","reading":"あぬぬる","card":40,"label":"る","unknown":true,"challengeable":true,"status":nul'
    'l,"field":3}],"last_word":{"s1":"あぬぬる"},"reach":{"s1":false,"s2":false,"s3":false},"vote_i'
    'd":1,"vote_info":{"id":1,"chain":1,"seat":"s1","by":"s2"},"pending_win":null,"last_play":{'
    '"from":2,"seat":"s1","at":5.0,"word":"あぬぬる","field":{"kana":"あ","row":null}},"race":null,"'
    'race_n":0,"events":[{"n":1,"kind":"start","field":{"serial":1,"kana":"め","row":null,"card"'
    ':{"id":33,"kind":"kana","kana":"め"},"by":null,"how":"turn"}},{"n":2,"kind":"play","seat":"'
    's1","word":"あぬぬる","reading":"あぬぬる","card":{"id":40,"kind":"kana","kana":"る"},"unknown":tru'
    'e},{"n":3,"kind":"challenge","by":"s2","seat":"s1","word":"あぬぬる","vote":1}],"event_n":3,"l'
    'ookups":{"s2":{"n":1,"text":"新学期","readings":["しんがっき"]}},"lookup_n":1,"reshuffles":0,"phas'
    'e":"vote","winner":null,"version":3,"vote":{"id":1,"subject":{"word":"あぬぬる","reading":"あぬぬ'
    'る","seat":"s1","by":"s2","n":1},"voters":["s2","s3"],"opened":10.0,"closes":30.0,"ballots"'
    ':{"s2":"reject"},"overruled":null,"expired":false}}'
)


def refused(g: WordBasket, seat: str | None, action: dict) -> str:
    before = json.dumps(g.to_dict(), sort_keys=True)
    with pytest.raises(RuleError) as info:
        g.host_apply(action, NOW) if seat is None else g.apply(seat, action, NOW)
    assert json.dumps(g.to_dict(), sort_keys=True) == before
    return info.value.code


# ----- snapshots ------------------------------------------------------------------------------------

def test_a_snapshot_in_the_layout_before_versions_restores_and_plays_on():
    data = json.loads(SNAPSHOT_BEFORE_ISSUE_11)
    g = WordBasket.from_dict(data, random.Random(1))
    assert g.to_dict() == {**data, "one_card_at": {}, "v": 2}  # layout 2 adds the リーチ grace
    assert g.stage == "vote" and g.view("s2")["lookup"]["readings"] == ["しんがっき"]
    assert g.view(None)["vote"]["ballots"] == {"s2": "reject"}
    assert g.last_event == g.view(None)["events"][-1] and g.last_event["kind"] == "challenge"
    g.apply("s3", {"type": "vote", "vote": 1, "ballot": "reject"}, 11.0)
    assert g.stage == "play" and K("る") in g.hands["s1"] and len(g.hands["s1"]) == 3
    assert [e["kind"] for e in g.view(None)["events"]][-2:] == ["vote_result", "penalty"]


def test_a_vote_saved_before_votes_carried_their_id_gets_its_id_back():
    data = json.loads(SNAPSHOT_BEFORE_ISSUE_11)
    del data["vote"]["id"]
    g = WordBasket.from_dict(data, random.Random(1))
    assert g.vote.id == 1
    g.host_apply({"type": "overrule", "vote": 1, "outcome": "accept"}, 11.0)
    assert g.stage == "play" and g.hands["s1"] == [9]


# ----- the phase table ------------------------------------------------------------------------------

def _stages() -> dict[str, WordBasket]:
    hands = {"s1": [K("る"), K("こ")], "s2": [K("ほ"), K("ね")], "s3": [K("す"), K("く")]}
    games = {"play": arrange(new_game(3), hands, K("あ"))}
    g = arrange(new_game(3), {**hands, "s1": [K("る")]}, K("あ"))
    play(g, "s1", K("る"), "あいどる", now=NOW)  # no リーチ: the win waits
    games["win_pending"] = g
    g = arrange(new_game(3), hands, K("あ"))
    play(g, "s1", K("る"), "あぬぬる")
    g.apply("s2", {"type": "challenge", "field": g.field["serial"]}, NOW)
    games["vote"] = g
    g = arrange(new_game(3), {**hands, "s1": [K("る")]}, K("あ"))
    g.apply("s1", {"type": "reach"}, NOW)
    play(g, "s1", K("る"), "あいどる")
    games["over"] = g
    return games


def _sample(g: WordBasket, kind: str) -> tuple[str | None, dict]:
    """One well-formed move of ``kind`` by a seat that could make it if it were open."""
    serial = g.field["serial"]
    vote = g.vote_info["id"] if g.vote_info else 1
    return {
        "play": ("s2", {"type": "play", "field": serial, "card": K("ね"), "word": "るいね"}),
        "reset": ("s3", {"type": "reset", "field": serial, "top": K("す")}),
        "reach": ("s3", {"type": "reach"}),
        "point_out": ("s3", {"type": "point_out", "seat": "s1"}),
        "challenge": ("s3", {"type": "challenge", "field": serial}),
        "vote": ("s3", {"type": "vote", "vote": vote, "ballot": "accept"}),
        "lookup": ("s3", {"type": "lookup", "text": "猫"}),
        "overrule": (None, {"type": "overrule", "vote": vote, "outcome": "accept"}),
    }[kind]


CLOSED = {"play": "wb_vote_gone", "win_pending": "wb_win_pending", "vote": "wb_vote_open", "over": "game_over"}


@pytest.mark.parametrize("stage", list(PHASES))
def test_every_move_the_phase_table_closes_is_refused(stage):
    g = _stages()[stage]
    assert g.stage == stage
    open_moves = set(PHASES[stage].moves) | set(PHASES[stage].host_moves)
    closed = [k for k in [*WordBasket.MOVES, *WordBasket.HOST_MOVES] if k not in open_moves]
    assert closed
    codes = {kind: refused(g, *_sample(g, kind)) for kind in closed}
    expected = {"wb_vote_gone", "wb_win_pending", "wb_vote_open", "game_over"}
    assert set(codes.values()) <= expected and CLOSED[stage] in codes.values(), codes


@pytest.mark.parametrize("stage", ["play", "win_pending", "vote"])
def test_lookup_and_reach_stay_open_in_every_stage_but_over(stage):
    g = _stages()[stage]
    g.apply("s3", {"type": "lookup", "text": "猫"}, NOW)
    assert g.view("s3")["lookup"]["readings"]
    g.hands["s3"] = g.hands["s3"][:1]
    g.apply("s3", {"type": "reach"}, NOW)
    assert g.reach["s3"]


# ----- suggest and redeal_hidden ------------------------------------------------------------------

def test_suggested_plays_are_known_words_that_fit_and_the_host_only_overrules():
    g = new_game(4, seed=3)
    rng = random.Random(3)
    plays = [a for s in g.players for a in g.suggest(s, rng) if a["type"] == "play"]
    assert plays
    for action in plays:
        seat = next(s for s in g.players if action["card"] in g.hands[s])
        h = WordBasket.from_dict(g.to_dict(), random.Random(1))
        h.apply(seat, action, NOW)
        assert h.chain[-1]["card"] == action["card"]
    assert g.suggest(None, rng) == [] and g.suggest("s99", rng) == []
    assert _stages()["vote"].suggest(None, rng)[0]["type"] == "overrule"


def test_redeal_hidden_keeps_what_a_seat_knows_and_deals_the_rest_anew():
    g = _stages()["vote"]
    g.apply("s2", {"type": "lookup", "text": "新学期"}, NOW)
    g.apply("s3", {"type": "lookup", "text": "猫"}, NOW)
    twin = g.redeal_hidden("s2", random.Random(5))
    assert twin.hands["s2"] == g.hands["s2"] and twin.lookups["s2"] == g.lookups["s2"]
    assert sorted(twin.all_cards()) == list(range(60))
    assert {s: len(h) for s, h in twin.hands.items()} == {s: len(h) for s, h in g.hands.items()}
    assert twin.basket == g.basket and twin.chain == g.chain and len(twin.deck) == len(g.deck)
    assert twin.view("s2") == g.view("s2") and twin.view(None) == g.view(None)
    assert twin.hands != g.hands or twin.deck != g.deck or twin.lookups != g.lookups
    assert all(CARDS[c] for c in twin.deck)
