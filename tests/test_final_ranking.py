"""A finished game's view carries the ranking the game computed (``Game.outcome()["places"]``):
the pages draw it and never rank the players themselves (the rule lives in the game module).
Word Basket and Diabolo, each with a tie. About 1 s."""

from __future__ import annotations

import json

from . import reveal_stage as stage
from . import test_diabolo as dia
from . import wb_rig as wb


def views(g) -> list[dict]:
    """The table's view and every seat's, as JSON would carry them."""
    return [json.loads(json.dumps(g.view(seat))) for seat in (None, *g.players)]


def test_word_basket_view_carries_the_games_ranking_with_a_tie():
    g = wb.arrange(wb.new_game(4), {"s1": [wb.K("る")], "s2": [wb.K("か"), wb.K("す")],
                                    "s3": [wb.K("こ")], "s4": [wb.K("ね"), wb.K("め")]}, wb.K("あ"))
    assert all(v["places"] is None for v in views(g))  # no ranking while the game runs
    wb.play(g, "s1", wb.K("る"), "あまがえる", now=10.0)
    assert all(v["places"] is None for v in views(g))  # the last word's window is still open
    g.tick(g.next_deadline())
    assert g.over
    places = g.outcome()["places"]
    # the winner alone, then fewer cards left first; s2 and s4 (two each) share a place
    assert places == [["s1"], ["s3"], ["s2", "s4"]]
    assert all(v["places"] == places for v in views(g))


def test_word_basket_staged_tie_matches_the_browser_scene():
    g = stage.word_basket_tie()
    assert g.view(None)["places"] == g.outcome()["places"] == [["s1"], ["s3"], ["s2", "s4"]]


def test_diabolo_view_carries_the_games_ranking_with_a_tie():
    g = stage.diabolo_tie()
    places = g.outcome()["places"]
    assert places == [["s2", "s3"], ["s1"]]  # equal totals share first place
    assert all(v["places"] == places for v in views(g))


def test_diabolo_view_has_no_ranking_before_the_end():
    g = dia.new_game(3)
    dia.turn_up(g, ["H", "A", "N", "G"])
    dia.claim(g, "s2", "HANG", ["H", "A", "N", "G"])
    dia.play_round_out(g, 5.0)
    assert g.phase == "scored" and all(v["places"] is None for v in views(g))

