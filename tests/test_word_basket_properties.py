"""Word Basket under random action sequences (hypothesis): legal and illegal plays, resets, リーチ,
point-outs, challenges, ballots, host overrules, kicks and the clock, in any order.

Whatever happens: deck + basket + hands always hold the same 60 cards, a refusal changes nothing,
the views stay JSON and never show another seat's hand, and the phase agrees with the state."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from partyhost.games.base import RuleError
from partyhost.games.word_basket import CARDS, WordBasket


FILLER = "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわがぎぱっゃー"


def legal_word(draw, g: WordBasket, seat: str, card: int) -> str:
    """A kana word built to fit ``card`` on the current field (most of the time)."""
    field = g.field
    if field["kana"]:
        start = field["kana"]
    elif field["row"]:
        start = draw(st.sampled_from(list(g.view(None)["rows"][field["row"]])))
    else:
        start = "あ"
    face = CARDS[card]
    low, low_last = g.minimums(seat)
    need = low_last if len(g.hands[seat]) == 1 else low
    if face["kind"] == "number":
        length = face["number"] if face["number"] != 7 else draw(st.integers(7, 9))
        end = draw(st.sampled_from("あいうえおかきくけこ"))
    else:
        length = draw(st.integers(max(need, 2), 6))
        end = face["kana"] if face["kind"] == "kana" else draw(st.sampled_from(list(face["kana"])))
    middle = "".join(draw(st.sampled_from(FILLER)) for _ in range(max(0, length - 2)))
    return start + middle + end


def check(g: WordBasket) -> None:
    assert sorted(g.all_cards()) == list(range(60))
    assert (g.phase == "vote") == (g.vote is not None)
    assert (g.phase == "over") == (g.winner is not None)
    if g.winner is not None:
        assert g.hands[g.winner] == []
    for s in g.players:
        if not g.hands[s]:
            assert s == g.winner or (g.pending_win and g.pending_win["seat"] == s)
    if g.pending_win is not None:
        assert g.hands[g.pending_win["seat"]] == [] and g.pending_win["needs"]
    top = g.basket[-1] if g.basket else None
    if top is not None and (top["kana"] or top["row"]):
        assert (g.field["kana"], g.field["row"]) == (top["kana"], top["row"])
    for viewer in [None, *g.players]:
        view = json.loads(json.dumps(g.view(viewer)))
        others = {c for s, h in g.hands.items() if s != viewer for c in h}
        if viewer is not None:
            assert {c["id"] for c in view["hand"]} == set(g.hands[viewer])
            assert not others & {c["id"] for c in view["hand"]}
        assert "deck_order" not in view and "hands" not in view


@settings(max_examples=70, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_sequences_keep_every_card_and_refusals_change_nothing(data):
    draw = data.draw
    players = draw(st.integers(2, 8), label="players")
    mode = draw(st.sampled_from(["vote", "strict", "free"]), label="mode")
    handicaps = {f"s{i}": draw(st.sampled_from(["easy", "normal", "hard"])) for i in range(1, players + 1)}
    g = WordBasket()
    g.setup([f"s{i}" for i in range(1, players + 1)], {"word_mode": mode, "handicaps": handicaps, "reach_window": 2},
            random.Random(draw(st.integers(0, 10_000))), now=0.0)
    now = 0.0
    check(g)
    applied = refused = 0
    for _ in range(draw(st.integers(10, 80), label="steps")):
        if g.over:
            break
        seat = draw(st.sampled_from(g.players))
        kind = draw(st.sampled_from(["play", "play", "play", "play", "stale", "bad", "reset", "reach", "point_out",
                                     "challenge", "vote", "host", "clock", "lookup", "leave"]))
        now += draw(st.sampled_from([0.0, 0.01, 0.1, 1.0, 3.0]))
        hand = g.hands[seat]
        if kind == "clock":
            deadline = g.next_deadline()
            if deadline is not None and now >= deadline:
                g.tick(now)
            check(g)
            continue
        if kind == "leave":
            if draw(st.integers(0, 9)) == 0:
                try:
                    g.leave(seat, now)
                except RuleError as e:
                    assert e.code == "cannot_continue"
                check(g)
            continue
        host = False
        if kind in ("play", "stale", "bad"):
            card = draw(st.sampled_from(hand)) if hand and kind != "bad" else draw(st.integers(0, 59))
            word = legal_word(draw, g, seat, card) if kind != "bad" else draw(
                st.sampled_from(["", "abc", "あ", "あああああああああああああああああああああああああああああああああ", "猫", "あいん"]))
            serial = g.field["serial"] - (draw(st.integers(1, 2)) if kind == "stale" else 0)
            action = {"type": "play", "field": max(0, serial), "card": card, "word": word}
            if len(hand) == 2 and draw(st.booleans()):
                action["reach"] = True
        elif kind == "reset":
            top = [c for c in hand if CARDS[c]["kind"] != "number"]
            action = {"type": "reset", "field": g.field["serial"]}
            if top:
                action["top"] = draw(st.sampled_from(top))
        elif kind == "reach":
            action = {"type": "reach"}
        elif kind == "point_out":
            action = {"type": "point_out", "seat": draw(st.sampled_from(g.players))}
        elif kind == "challenge":
            action = {"type": "challenge", "field": g.field["serial"]}
        elif kind == "vote":
            action = {"type": "vote", "vote": max(1, g.vote_id), "ballot": draw(st.sampled_from(["accept", "reject"]))}
        elif kind == "host":
            host = True
            action = {"type": "overrule", "vote": max(1, g.vote_id), "outcome": draw(st.sampled_from(["accept", "reject"]))}
        else:
            action = {"type": "lookup", "text": draw(st.sampled_from(["猫", "新学期", "あひる", "xyz"]))}
        before = json.dumps(g.to_dict(), sort_keys=True)
        version = g.version
        try:
            g.host_apply(action, now) if host else g.apply(seat, action, now)
        except RuleError:
            refused += 1
            assert json.dumps(g.to_dict(), sort_keys=True) == before
        else:
            applied += 1
            assert g.version >= version
        check(g)
    # a restored snapshot is the same game
    h = WordBasket.from_dict(json.loads(json.dumps(g.to_dict())), random.Random(1))
    assert h.to_dict() == g.to_dict()
    assert applied + refused > 0
