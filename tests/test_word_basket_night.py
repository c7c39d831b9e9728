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
    g.apply("s1", {"type": "vote", "vote": g.vote_info["id"], "ballot": "accept"}, 20.0)
    g.apply("s3", {"type": "vote", "vote": g.vote_info["id"], "ballot": "accept"}, 25.0)  # it stands
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
    g.apply("s1", {"type": "vote", "vote": g.vote_info["id"], "ballot": "accept"}, 20.0)
    g.apply("s3", {"type": "vote", "vote": g.vote_info["id"], "ballot": "accept"}, 25.0)
    assert g.next_deadline() == g.pending_win["until"]
    g.tick(g.pending_win["until"])
    assert g.over and g.winner == "s1"


# ----- words typed in kanji with the honorific お/ご ------------------------------------------------

@pytest.mark.parametrize("surface,first", [("お寿司", "おすし"), ("お花", "おはな"), ("お肉", "おにく"),
                                           ("お箸", "おはし"), ("お手紙", "おてがみ"), ("お団子", "おだんご"),
                                           ("ご近所", "ごきんじょ"), ("ご家族", "ごかぞく")])
def test_honorific_o_and_go_before_a_kanji_word_give_a_reading(surface, first):
    """A Japanese table says お寿司, お花, ご近所 as often as the bare noun; the written form is not in
    the list, but its reading is the prefix and a reading of the rest. The phone must show that
    reading (not "no reading found, type it in kana"); a rendaku form (ずし) is not offered."""
    readings = WordBasket._readings(surface)
    assert readings and readings[0] == first, readings
    assert "おずし" not in readings


def test_a_word_with_honorific_o_is_played_with_its_reading_and_judged_by_the_table():
    g = arrange(new_game(3), {"s1": [K("し"), K("こ")], "s2": [K("ほ"), K("ね")], "s3": [K("す")]}, K("お"))
    with pytest.raises(RuleError) as info:
        play(g, "s1", K("し"), "お寿司")
    assert info.value.code == "wb_reading_needed" and "おすし" in info.value.params["readings"]
    play(g, "s1", K("し"), "お寿司", reading="おすし")
    top = g.view(None)["chain"][-1]
    assert (top["word"], top["reading"], top["unknown"]) == ("お寿司", "おすし", True)  # "?": the table decides
    assert g.field["kana"] == "し"


def test_known_written_forms_keep_their_own_readings_and_junk_stays_unknown():
    assert WordBasket._readings("お茶") == ["おちゃ"]
    assert WordBasket._readings("お") == [] and WordBasket._readings("おabc") == []
    assert WordBasket._readings("お蟐蟐") == []
