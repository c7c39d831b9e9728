"""Diabolo through the real engine and Socket.IO handlers (tests/helpers.py Rig, fake clock):
races between claims, the dealer's clock-driven turning, the host's overrule, and privacy of
every view a socket receives."""

from __future__ import annotations

import json
import random

from .helpers import Rig


def start(seed=3, players=3, **options):
    rig = Rig(seed=seed)
    tv = rig.tv()
    phones = [rig.phone(name) for name in ("a", "b", "c", "d")[:players]]
    assert tv.send("host", {"op": "choose", "game": "diabolo", "options": options})["ok"]
    assert tv.send("host", {"op": "start"})["ok"]
    return rig, tv, phones


def lay_out(game, faces: list[str]) -> dict[str, int]:
    """A fresh row holding exactly these faces (all other cards back in the deck)."""
    ids: dict[str, int] = {}
    for face in faces:
        ids[face] = next(c["id"] for c in game.cards if c["face"] == face and c["id"] not in ids.values())
    game.table = list(ids.values())
    game.piles = {s: [] for s in game.players}
    game.deck = [c["id"] for c in game.cards if c["id"] not in ids.values()]
    game.phase, game.claim, game.vote, game.picking = "turning", None, None, None
    return ids


def test_of_two_overlapping_claims_a_few_ms_apart_the_earlier_stamp_always_wins():
    rig, tv, (a, b, c) = start()
    order = random.Random(11)
    for round_no in range(50):
        ids = lay_out(rig.game, ["H", "A", "N", "G", "E", "L"])
        claims = {
            a: ("HANG", [ids[f] for f in "HANG"]),
            b: ("ENG", [ids[f] for f in "ENG"]),  # both need the G
        }
        first, second = order.sample([a, b], 2)
        gap = order.choice([0.001, 0.003, 0.008])
        for phone in (first, second):
            word, cards = claims[phone]
            phone.act({"type": "claim", "round": 1, "word": word, "cards": [{"id": i} for i in cards]},
                      drain=False)
            rig.clock.advance(gap)
        rig.drain()
        won = [r for r in first.received("result") if r["ok"]]
        lost = second.received("result")[-1]
        assert first.received("result")[-1]["ok"], (round_no, first.received("result")[-1])
        assert lost["ok"] is False and lost["code"] == "card_taken", (round_no, lost)
        assert lost["params"]["face"] in ("N", "G") and lost["params"]["face"] in lost["message"]
        game = rig.game
        first_seat, second_seat = first.seat, second.seat
        assert len(game.piles[first_seat]) == len(claims[first][1])
        assert game.piles[second_seat] == []  # refused without penalty
        assert game.phase == "turning" and game.card_count() == 66
        assert won


def test_the_dealers_auto_turn_runs_on_the_engine_clock_and_a_claim_pauses_it():
    rig, tv, (a, b, c) = start(interval=2)
    assert a.state["game"]["dealer"] == a.seat
    assert b.act({"type": "auto", "round": 1, "on": True})["code"] == "not_dealer"
    assert a.act({"type": "auto", "round": 1, "on": True})["ok"]
    assert len(rig.game.table) == 1  # the first card turns at once
    rig.clock.advance(2.0)
    rig.drain()
    assert len(rig.game.table) == 2 and tv.state["game"]["deck_left"] == 64
    ids = lay_out(rig.game, ["H", "A", "N", "G"])
    rig.game.next_turn_at = rig.engine.game_now() + 2
    assert c.act({"type": "claim", "round": 1, "word": "hang", "cards": [{"id": ids[f]} for f in "HANG"]})["ok"]
    view = tv.state["game"]
    assert view["claim"]["status"] == "taken" and view["claim"]["seat"] == c.seat
    assert [p["cards"] for p in view["players"]] == [0, 0, 4]
    rig.clock.advance(1.9)
    rig.drain()
    assert rig.game.table == []  # the claim put the turning back
    rig.clock.advance(0.2)
    rig.drain()
    assert len(rig.game.table) == 1


def test_an_unknown_word_goes_to_the_phones_and_the_tv_host_overrules():
    rig, tv, (a, b, c) = start()
    ids = lay_out(rig.game, ["Z", "U", "R", "K", "E"])
    assert a.act({"type": "claim", "round": 1, "word": "ZURK", "cards": [{"id": ids[f]} for f in "ZURK"]})["ok"]
    assert b.state["game"]["phase"] == "vote" and b.state["game"]["vote"]["voters"] == [b.seat, c.seat]
    assert a.act({"type": "vote", "vote": rig.game.vote["id"], "ballot": "accept"})["code"] == "not_a_voter"
    assert b.act({"type": "vote", "vote": rig.game.vote["id"], "ballot": "reject"})["ok"]  # 1 of 2: not yet decided
    assert a.send("host", {"op": "game", "action": {"type": "overrule", "vote": rig.game.vote["id"], "outcome": "reject"}})["code"] == "not_host"
    assert tv.send("host", {"op": "game", "action": {"type": "overrule", "vote": rig.game.vote["id"], "outcome": "reject"}})["ok"]
    assert c.state["game"]["phase"] == "picking"
    assert b.act({"type": "pick", "round": 1, "card": ids["Z"]})["ok"]
    assert c.act({"type": "pick", "round": 1, "card": ids["Z"]})["code"] == "card_taken"
    assert c.act({"type": "pick", "round": 1, "card": ids["E"]})["ok"]
    assert tv.state["game"]["phase"] == "turning"
    assert [p["cards"] for p in tv.state["game"]["players"]] == [0, 1, 1]


def test_no_socket_ever_receives_the_undealt_deck():
    rig, tv, phones = start(seed=5, end_seconds=5)
    dealer = phones[0]
    for _ in range(30):
        assert dealer.act({"type": "turn", "round": 1, "turned": rig.game.turned})["ok"]
        deck = list(rig.game.deck)
        for client in [tv, *phones]:
            state = client.state
            text = json.dumps(state["game"])
            assert "deck\"" not in text.replace("deck_left\"", "").replace("deck_size\"", "")
            shown = {card["id"] for card in state["game"]["table"]}
            assert not shown & set(deck)
            # the next cards, in order, appear nowhere in any view
            assert json.dumps(deck[:3]) not in text


def test_a_doubled_claim_is_refused_and_takes_nothing_more():
    rig, tv, (a, b, c) = start()
    ids = lay_out(rig.game, ["H", "A", "N", "G", "E"])
    action = {"type": "claim", "round": 1, "word": "HANG", "cards": [{"id": ids[f]} for f in "HANG"]}
    assert b.act(action)["ok"]
    again = b.act(action)  # a second send of the same claim (a new message id)
    assert again["code"] == "card_taken"
    msg = {"id": "same-id", "game": b.state["party"]["serial"], **action}
    b.emit("act", msg)
    b.emit("act", msg)
    rig.drain()
    codes = [r["code"] for r in b.received("result") if r["id"] == "same-id"]
    assert codes == ["card_taken", "card_taken"]  # refused messages do not use their id up
    assert [p["cards"] for p in tv.state["game"]["players"]] == [0, 4, 0]
    assert rig.game.card_count() == 66


def test_a_late_ballot_for_an_earlier_vote_never_decides_the_next_one():
    """Reproduced before ballots named their vote: c's "accept" for ZURK, sent as ZURK's vote
    closed, arrived once the table was voting on NAUK and took NAUK for b with nobody voting."""
    rig, tv, (a, b, c) = start()
    ids = lay_out(rig.game, ["Z", "U", "R", "K"])
    assert a.act({"type": "claim", "round": 1, "word": "ZURK", "cards": [{"id": ids[f]} for f in "ZURK"]})["ok"]
    first = tv.state["game"]["vote"]["id"]
    assert tv.send("host", {"op": "game", "action": {"type": "overrule", "vote": first, "outcome": "reject"}})["ok"]
    ids = lay_out(rig.game, ["N", "A", "U", "K"])
    assert b.act({"type": "claim", "round": 1, "word": "NAUK", "cards": [{"id": ids[f]} for f in "NAUK"]})["ok"]
    second = tv.state["game"]["vote"]["id"]
    assert second != first and rig.game.phase == "vote"
    late = c.act({"type": "vote", "vote": first, "ballot": "accept"})
    assert late["ok"] is False and late["code"] == "vote_gone", late
    assert rig.game.phase == "vote" and tv.state["game"]["vote"]["ballots"] == {}
    assert tv.send("host", {"op": "game", "action": {"type": "overrule", "vote": first,
                                                    "outcome": "accept"}})["code"] == "vote_gone"
    assert c.act({"type": "vote", "vote": second, "ballot": "accept"})["ok"]


def test_the_host_phone_cannot_overrule_a_vote_on_its_own_word():
    """RULES.md "General" (nobody decides alone on their own move): the host promoted to a phone
    claims an unknown word; its overrule of that vote is refused (on main it decided its own word),
    while the TV's overrule, and the same phone's overrule of another player's word, are taken."""
    rig, tv, (a, b, c) = start()
    assert tv.send("host", {"op": "promote", "seat": a.seat})["ok"]
    ids = lay_out(rig.game, ["H", "A", "N", "E", "L"])
    made_up = "HANEL"  # not a word: it goes to a vote
    assert a.act({"type": "claim", "round": 1, "word": made_up, "cards": [{"id": ids[f]} for f in made_up]})["ok"]
    game = rig.game
    assert game.phase == "vote"
    vote_id = game.vote["id"]
    r = a.send("host", {"op": "game", "action": {"type": "overrule", "vote": vote_id, "outcome": "accept"}})
    assert r["ok"] is False and r["code"] == "overrule_own_word", r
    assert game.phase == "vote" and game.piles[a.seat] == []
    assert tv.send("host", {"op": "game", "action": {"type": "overrule", "vote": vote_id, "outcome": "reject"}})["ok"]
    assert game.phase == "picking"
    # another player's word: the host's phone rules
    ids = lay_out(game, ["H", "A", "N", "E", "L"])
    assert b.act({"type": "claim", "round": 1, "word": made_up, "cards": [{"id": ids[f]} for f in made_up]})["ok"]
    r = a.send("host", {"op": "game", "action": {"type": "overrule", "vote": game.vote["id"], "outcome": "accept"}})
    assert r["ok"], r
    assert len(game.piles[b.seat]) == 5


def test_the_claim_tapped_first_takes_the_card_though_it_arrives_later():
    """Issue 26: b's phone is 80 ms away and claims ENG 20 ms before a (5 ms away) claims HANG;
    a's claim arrives first and is held, b's takes the G; a's is refused without penalty. Then
    the picks after a voted-down word: b's tap on the R comes first, arrives later, and takes it
    (arrival order gave both to a)."""
    from .test_clocksync import Phone

    rig, tv, (a, b, c) = start(seed=5)
    near = Phone(rig, a, theta=7.0, up=0.005, down=0.005)
    far = Phone(rig, b, theta=-40.0, up=0.080, down=0.080)
    near.sync()
    far.sync()
    assert rig.engine.hold_window() > 0.080
    ids = lay_out(rig.game, ["H", "A", "N", "G", "E", "L"])
    far_tc = far.now()
    rig.clock.advance(0.020)
    near_tc = near.now()
    rig.clock.advance(0.005)
    a.act({"type": "claim", "round": 1, "word": "HANG", "cards": [{"id": ids[f]} for f in "HANG"], "tc": near_tc},
          drain=False)
    rig.drain()
    assert rig.game.piles[a.seat] == []  # held: an earlier tap may still come
    rig.clock.advance(0.055)
    b.act({"type": "claim", "round": 1, "word": "ENG", "cards": [{"id": ids[f]} for f in "ENG"], "tc": far_tc},
          drain=False)
    rig.clock.advance(0.3)
    rig.drain()
    assert sorted(rig.game.piles[b.seat]) == sorted(ids[f] for f in "ENG")
    assert rig.game.piles[a.seat] == []
    lost = a.received("result")[-1]
    assert lost["ok"] is False and lost["code"] == "card_taken", lost

    # the picks: c's word was voted down; a and b both tap the R
    game = rig.game
    ids = lay_out(game, ["R", "S"])
    game.phase = "picking"
    game.picking = {"pickers": [a.seat, b.seat], "picked": {}, "deadline": rig.engine.game_now() + 15}
    far_tc = far.now()
    rig.clock.advance(0.020)
    near_tc = near.now()
    rig.clock.advance(0.005)
    a.act({"type": "pick", "round": 1, "card": ids["R"], "tc": near_tc}, drain=False)
    rig.drain()
    rig.clock.advance(0.055)
    b.act({"type": "pick", "round": 1, "card": ids["R"], "tc": far_tc}, drain=False)
    rig.clock.advance(0.3)
    rig.drain()
    assert ids["R"] in game.piles[b.seat] and ids["R"] not in game.piles[a.seat]
    lost = a.received("result")[-1]
    assert lost["ok"] is False and lost["code"] == "card_taken", lost
    assert game.phase == "picking" and ids["S"] in game.table  # a may still pick the S
