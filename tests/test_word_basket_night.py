"""Word Basket at a real game night: what careless and new players did to the rules, and what a
Japanese table expects of the words (seeds/002_… ; RULES.md "Word Basket").

Each test pins a problem found by playing the game in the browser with several phones."""

from __future__ import annotations

import json

import pytest

from partyhost.games.base import RuleError
from partyhost.games.word_basket import WordBasket

from .wb_rig import NOW, K, arrange, new_game, play


def refused(g: WordBasket, code: str, seat: str, action: dict, now: float = NOW) -> RuleError:
    before = json.dumps(g.to_dict(), sort_keys=True)
    with pytest.raises(RuleError) as info:
        g.apply(seat, action, now)
    assert info.value.code == code, info.value
    assert json.dumps(g.to_dict(), sort_keys=True) == before
    return info.value


# ----- リーチ forgotten on an unknown last word that is then voted on --------------------------------

def test_a_vote_on_the_last_word_does_not_eat_the_window_to_point_out_a_missing_reach():
    """s1 plays its last card with an unknown word and without リーチ. s2 challenges at once; while
    the vote is open nobody may point out (wb_vote_open). The vote takes longer than the window; once
    the word stands, the others must still get a real chance to point out the missing リーチ, not
    lose the game on the next tick (RULES.md "Reach": not out until a window passes unchallenged)."""
    g = arrange(new_game(3, reach_window=5, vote_seconds=20),
                {"s1": [K("る")], "s2": [K("ほ"), K("ね")], "s3": [K("す"), K("く")]}, K("あ"), deck_top=[K("さ")])
    play(g, "s1", K("る"), "あぬぬぬる", now=10.0)
    assert g.pending_win["needs"] == ["reach", "word"]
    g.apply("s2", {"type": "challenge", "field": g.field["serial"]}, 11.0)
    refused(g, "wb_vote_open", "s3", {"type": "point_out", "seat": "s1"}, 12.0)
    g.apply("s3", {"type": "vote", "vote": g.vote_info["id"], "ballot": "accept"}, 25.0)  # tie: it stands
    assert g.phase == "play" and not g.over
    assert g.pending_win is not None and g.pending_win["needs"] == ["reach"]
    assert g.pending_win["until"] >= 25.0 + 5
    g.tick(26.0)
    assert not g.over
    g.apply("s3", {"type": "point_out", "seat": "s1"}, 27.0)
    assert not g.over and g.hands["s1"] == [K("さ")]


def test_after_the_vote_the_window_still_ends_and_the_player_wins():
    g = arrange(new_game(3, reach_window=5), {"s1": [K("る")], "s2": [K("ほ"), K("ね")], "s3": [K("す")]}, K("あ"))
    play(g, "s1", K("る"), "あぬぬぬる", now=10.0)
    g.apply("s2", {"type": "challenge", "field": g.field["serial"]}, 11.0)
    g.apply("s3", {"type": "vote", "vote": g.vote_info["id"], "ballot": "accept"}, 25.0)
    assert g.next_deadline() == g.pending_win["until"]
    g.tick(g.pending_win["until"])
    assert g.over and g.winner == "s1"
