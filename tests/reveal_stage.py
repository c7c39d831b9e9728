"""Staged moments for the reveal tests (tests/test_e2e_reveals.py): a game scripted in Python up
to its big moment, put into a party and saved where the next host start resumes it.

Seats are s1, s2, … in the order of the names; player i's phone token is ``tok<i>``.
"""

from __future__ import annotations

import random
import re

from partyhost.games.registry import GAMES
from partyhost.games.the_mind import TheMind
from partyhost.party import Party
from partyhost.store import Store

from . import test_decrypto as dc
from . import test_diabolo as dia
from . import test_the_mind as tm
from . import test_top_ten as tt
from . import wb_rig as wb
from .test_e2e_howto import LONG_NAMES

NAMES = ["さくら", "あかり", "Ben", "ダイスケ", "えみ", "Maximilian", "ゆうと", "Chloé"]
NOW = 100.0  # the game clock of the staged moment

__all__ = ["LONG_NAMES", "NAMES", "save"]


def re_word(word: str) -> re.Pattern:
    """A class attribute containing ``word``."""
    return re.compile(rf"(^|\s){word}(\s|$)")


def save(data, build, names=None) -> list[str]:
    """Build the game (``build()`` returns it, seats s1…), seat ``names`` (default: as many of
    NAMES as it has players), save the party in ``data``; returns the phones' tokens."""
    game = build()
    names = list(names or NAMES[: len(game.players)])
    party = Party(room="SHOW")
    for i, name in enumerate(names):
        party.join(name, "ja", lambda i=i: f"tok{i}")
    party.played = list(GAMES)  # no first-time coach: the moment itself
    game.coach = False
    party.game_key = game.KEY
    party.game = game
    party.players = list(game.players)
    party.last_players = list(game.players)
    party.phase = "game"
    party.game_serial = 1
    party.started_at = 0.0
    if game.over:
        party.settle(NOW)
    store = Store(str(data))
    try:
        store.save({"party": party.to_dict(), "game_now": NOW})
    finally:
        store.close()
    return [f"tok{i}" for i in range(len(names))]


def top_ten_miss():
    """Five players, round 1: s1 (captain) has revealed 3, then 7, then 5: a miss."""
    g = tt.make(5, first_captain="s1")
    tt.to_order(g, {"s1": 3, "s2": 7, "s3": 5, "s4": 9, "s5": 1} if "s1" in g.answerers else None)
    order = sorted(g.answerers, key=lambda s: g.numbers[s])
    tt.reveal_in(g, [order[0], order[2], order[1]])  # low, higher, then lower: a mistake
    assert g.reveals[-1]["mistake"]
    return g


def the_mind_two_levels():
    """Two players at level 1 of a game of two levels: s1 holds 10, s2 holds 20."""
    g = TheMind()
    g.setup(["s1", "s2"], {}, random.Random(1), 0.0)
    g.hands = {"s1": [10], "s2": [20]}
    g.levels = 2
    return g


def diabolo_round():
    """Six players, round 1: s2 took HANG, s1 LAGER (the round's best), s3's ZURK was voted down."""
    g = dia.new_game(6)
    dia.turn_up(g, ["H", "A", "N", "G"])
    dia.claim(g, "s2", "HANG", ["H", "A", "N", "G"])
    dia.turn_up(g, ["E", "A", "L", "R", "G", "Z"], now=3.0)
    dia.claim(g, "s1", "LAGER", ["L", "A", "G", "E", "R"], now=4.0)
    dia.turn_up(g, ["U", "R", "K", "E", "N", "S", "T", "I"], now=5.0)
    dia.claim(g, "s3", "ZURK", ["Z", "U", "R", "K"], now=6.0)
    for s in ("s1", "s2", "s4", "s5"):
        g.apply(s, {"type": "vote", "vote": g.vote["id"], "ballot": "reject"}, 6.5)
        if g.phase != "vote":
            break
    for s in list(g.picking["pickers"]):
        g.apply(s, {"type": "pick", "round": 1, "card": g.table[-1]}, 7.0)
    assert g.phase == "turning"
    return g


def diabolo_over():
    """Three players, six rounds: s2 took 9 cards, s1 4, s3 none."""
    g = dia.new_game(3)
    dia.turn_up(g, ["H", "A", "N", "G"])
    dia.claim(g, "s1", "HANG", ["H", "A", "N", "G"])
    dia.turn_up(g, ["E", "A", "L", "R", "G"], now=3.0)
    dia.claim(g, "s2", "LAGER", ["L", "A", "G", "E", "R"], now=4.0)
    dia.play_round_out(g, 5.0)
    g.apply(g.view(None)["next_dealer"], {"type": "deal", "round": 2}, 6.0)
    dia.turn_up(g, ["H", "A", "N", "G"], now=7.0)
    dia.claim(g, "s2", "HANG", ["H", "A", "N", "G"], now=8.0)
    dia.play_round_out(g, 9.0)
    while not g.over:
        g.apply(g.view(None)["next_dealer"], {"type": "deal", "round": g.round + 1}, 10.0)
        dia.play_round_out(g, 11.0)
    assert g.totals() == {"s1": 4, "s2": 9, "s3": 0}
    return g


def _word_basket_won(hands: dict[str, list[str]]):
    """A Word Basket game of ``len(hands)`` players (``s1``… holding those kana cards) that s1,
    holding only る, wins with あまがえる on あ: nobody challenges the last word in time."""
    g = wb.arrange(wb.new_game(len(hands)), {s: [wb.K(k) for k in cards] for s, cards in hands.items()},
                   wb.K("あ"))
    wb.play(g, "s1", wb.K("る"), "あまがえる", now=10.0)
    g.tick(g.next_deadline())  # nobody challenges the last word in time: it stands
    assert g.over and g.winner == "s1"
    return g


def word_basket_over():
    """Three players: s1 plays its last card and wins; s2 keeps one card, s3 three."""
    return _word_basket_won({"s1": ["る"], "s2": ["か"], "s3": ["す", "こ", "ね"]})


def word_basket_tie():
    """Four players: s1 plays its last card and wins; s3 keeps one card, s2 and s4 two each
    (tied: they share third place)."""
    return _word_basket_won({"s1": ["る"], "s2": ["か", "す"], "s3": ["こ"], "s4": ["ね", "め"]})


def word_basket_eight():
    """Eight players: s1 plays its last card and wins; then three with one card (s2, s3, s5), three
    with two (s4, s6, s8) and s7 with three: places 1, 2, 2, 2, 5, 5, 5, 8."""
    return _word_basket_won({"s1": ["る"], "s2": ["か"], "s3": ["こ"], "s4": ["ね", "め"], "s5": ["い"],
                             "s6": ["う", "え"], "s7": ["き", "く", "け"], "s8": ["す", "お"]})


def diabolo_tie():
    """Three players, six rounds: s2 and s3 took 4 cards each (tied first), s1 none."""
    g = dia.new_game(3)
    dia.turn_up(g, ["H", "A", "N", "G"])
    dia.claim(g, "s2", "HANG", ["H", "A", "N", "G"])
    dia.play_round_out(g, 5.0)
    g.apply(g.view(None)["next_dealer"], {"type": "deal", "round": 2}, 6.0)
    dia.turn_up(g, ["H", "A", "N", "G"], now=7.0)
    dia.claim(g, "s3", "HANG", ["H", "A", "N", "G"], now=8.0)
    dia.play_round_out(g, 9.0)
    while not g.over:
        g.apply(g.view(None)["next_dealer"], {"type": "deal", "round": g.round + 1}, 10.0)
        dia.play_round_out(g, 11.0)
    assert g.totals() == {"s1": 0, "s2": 4, "s3": 4}
    return g


def decrypto_reveal():
    """Four players, round 2: the white team's code was intercepted by black (the reveal)."""
    g = dc.make(4)
    dc.play_round(g, now=NOW - 5)
    dc.write_all(g, NOW - 4)
    dc.play_team(g, decode_ok=True, intercept_ok=True, now=NOW - 3)
    assert g.phase == "reveal"
    g.reveal_deadline = NOW + 600.0  # the reveal stays while the test looks
    return g


def the_mind_won():
    """Three players, every level played perfectly: the team won."""
    g = TheMind()
    g.setup(["s1", "s2", "s3"], {}, random.Random(1), 0.0)
    now = 0.0
    while not g.over:
        now = tm.play_level_perfectly(g, now)
    assert g.phase == "won"
    return g


def top_ten_over():
    """Four players, every round without a mistake: the game is over, perfect."""
    g = tt.make(4, first_captain="s1")
    while not g.over:
        tt.play_round(g, 0)
        if not g.over:
            tt.next_round(g)
    return g


def decrypto_over():
    """Four players: the white team intercepted black's code twice and won."""
    g = dc.make(4, seed=1)
    dc.play_round(g)
    dc.play_round(g, black=(True, True))
    dc.play_round(g, black=(True, True))
    assert g.over and g.result["winner"] == "white"
    return g
