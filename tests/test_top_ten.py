"""Rules of Top Ten (partyhost/games/top_ten.py) against seeds/001_… and RULES.md "Top Ten".

Plain pytest on the pure game: a seeded ``random.Random``, no clock. The theme deck is a small
fixture of our own (``FIXTURE_DECK``) so the rules do not depend on the deck file's content.
"""

from __future__ import annotations

import json
import random

import pytest
from jsonschema import Draft202012Validator

from partyhost.games import top_ten
from partyhost.games.base import RuleError
from partyhost.games.top_ten import MAX_TOKENS, NUMBERS, TopTen, clean_answer, rating_for, tokens_for

SEATS = [f"s{i}" for i in range(1, 10)]


def _theme(title: str, low: str, high: str, mode: str = "speak") -> dict:
    return {"title": title, "low": low, "high": high, "mode": mode}


#: Ten cards of four test themes each (ours, for tests only).
FIXTURE_DECK: tuple[dict, ...] = tuple(
    {
        "id": f"t-{i:03d}",
        "sides": [
            [_theme(f"お題{i}A", "ぜんぜん", "すごく"), _theme(f"お題{i}B", "小さい", "大きい", "gesture")],
            [_theme(f"Theme {i}C", "meh", "wow"), _theme(f"Theme {i}D", "cold", "hot")],
        ],
    }
    for i in range(1, 11)
)


@pytest.fixture(autouse=True)
def fixture_deck(monkeypatch):
    """Every game in this file draws from FIXTURE_DECK, whatever the deck files hold."""
    monkeypatch.setattr(top_ten, "load_deck", lambda lang: FIXTURE_DECK)


# --- helpers -------------------------------------------------------------------------------


def make(n=5, seed=1, **options) -> TopTen:
    g = TopTen()
    g.setup(SEATS[:n], options, random.Random(seed), 0.0)
    return g


def act(g: TopTen, who: str, kind: str, /, **kw) -> None:
    action = {"type": kind, "round": g.round, **kw}
    assert Draft202012Validator(TopTen.ACTIONS[kind]).is_valid(action), action
    g.apply(who, action, 0.0)


def refused(g: TopTen, code: str, who: str, kind: str, /, **kw) -> RuleError:
    """The action is refused with ``code`` and the snapshot is unchanged."""
    before = json.dumps(g.to_dict(), sort_keys=True)
    with pytest.raises(RuleError) as info:
        act(g, who, kind, **kw)
    assert info.value.code == code, (info.value.code, info.value.params)
    assert json.dumps(g.to_dict(), sort_keys=True) == before
    return info.value


def to_order(g: TopTen, numbers: dict | None = None) -> None:
    """Choose theme 0, optionally set the numbers, everyone answers: the captain is ordering."""
    act(g, g.captain, "choose", theme=0)
    if numbers is not None:
        assert set(numbers) == set(g.answerers)
        g.numbers = dict(numbers)
    if g.captain in g.answerers:
        act(g, g.captain, "answer", text="親のこたえ")
    for s in g.answerers:
        if s != g.captain:
            act(g, s, "answer", text=f"{s}のこたえ")
    assert g.phase == "order"


def reveal(g: TopTen, seat: str) -> None:
    act(g, g.captain, "pick", seat=seat)
    act(g, g.captain, "confirm", seat=seat)


def reveal_in(g: TopTen, order: list[str]) -> None:
    for s in order:
        reveal(g, s)


def play_round(g: TopTen, mistakes: int = 0) -> None:
    """Play one round whose reveal order makes exactly ``mistakes`` drops (≤ answerers - 1)."""
    to_order(g)
    asc = sorted(g.answerers, key=lambda s: g.numbers[s])
    # reverse the first (mistakes + 1) seats: each step down in that block is one mistake
    order = asc[: mistakes + 1][::-1] + asc[mistakes + 1 :]
    for s in order:
        if g.over:  # the last unicorn flipped: lost at once, the rest stay face down
            break
        reveal(g, s)
    assert g.history[-1]["mistakes"] == mistakes


def next_round(g: TopTen) -> None:
    act(g, g._after(g.captain), "next_round")


# --- set-up and tokens -----------------------------------------------------------------------


@pytest.mark.parametrize("n,tokens", [(4, 4), (5, 5), (6, 6), (7, 7), (8, 8), (9, 8)])
def test_tokens_by_player_count(n, tokens):
    g = make(n)
    assert tokens_for(n) == tokens
    assert (g.tokens, g.unicorns, g.poops) == (tokens, tokens, 0)
    v = g.view(None)
    assert (v["tokens"], v["unicorns"], v["poops"]) == (tokens, tokens, 0)
    assert v["rounds"] == 5 and v["round"] == 1 and v["phase"] == "choose"


@pytest.mark.parametrize("n", [1, 2, 3, 10])
def test_player_count_is_four_to_nine(n):
    with pytest.raises(RuleError) as info:
        TopTen().setup(SEATS[:n] if n <= 9 else [f"x{i}" for i in range(n)], {}, random.Random(1), 0.0)
    assert info.value.code == "player_count"


def test_bad_options_and_missing_deck(monkeypatch):
    for options in ({"rounds": 3}, {"themes": "fr"}, {"colour": "red"}):
        with pytest.raises(RuleError) as info:
            make(5, **options)
        assert info.value.code == "bad_options"
    monkeypatch.setattr(top_ten, "load_deck", lambda lang: FIXTURE_DECK[:3])
    with pytest.raises(RuleError) as info:
        make(5)
    assert info.value.code == "tt_no_themes"


def test_numbers_are_distinct_one_to_ten_and_undealt_kept_apart():
    for seed in range(20):
        for n in (4, 6, 8, 9):
            g = make(n, seed=seed)
            act(g, g.captain, "choose", theme=seed % 4)
            dealt = list(g.numbers.values())
            assert len(dealt) == len(g.answerers) == min(n, 8)
            assert sorted(dealt + g.undealt) == list(NUMBERS)


def test_the_captain_sees_four_themes_and_the_table_sees_the_chosen_one():
    g = make(5)
    v = g.view(g.captain)
    assert [t["title"] for t in v["choices"]] == [f"お題{int(g.cards[0]['id'][2:])}{x}" for x in "AB"] + [
        f"Theme {int(g.cards[0]['id'][2:])}{x}" for x in "CD"]
    for s in g.players:
        if s != g.captain:
            assert "choices" not in g.view(s)
    assert "choices" not in g.view(None) and g.view(None)["theme"] is None
    assert g.view(g.captain)["number"] is None  # nothing dealt before the theme is chosen
    refused(g, "tt_not_captain", g._after(g.captain), "choose", theme=1)
    act(g, g.captain, "choose", theme=3)
    t = g.view(None)["theme"]
    assert t == g.cards[0]["sides"][1][1]
    assert "choices" not in g.view(g.captain)
    refused(g, "tt_not_choosing", g.captain, "choose", theme=0)


def test_each_seat_sees_only_its_own_number():
    g = make(6)
    act(g, g.captain, "choose", theme=0)
    for s in g.players:
        assert g.view(s)["number"] == g.numbers[s]
    assert "number" not in g.view(None)


# --- the nine-player captain -------------------------------------------------------------------


def test_nine_players_captain_has_no_number_and_gives_no_answer():
    g = make(9, first_captain="s3")
    assert g.tokens == MAX_TOKENS == 8
    assert g.captain == "s3" and "s3" not in g.answerers and len(g.answerers) == 8
    act(g, "s3", "choose", theme=0)
    assert "s3" not in g.numbers and len(g.numbers) == 8
    assert g.view("s3")["number"] is None
    assert next(p for p in g.view(None)["players"] if p["seat"] == "s3")["answerer"] is False
    refused(g, "tt_no_number", "s3", "answer", text="わたし")
    # no captain-first rule: the answerers start at once
    act(g, "s5", "answer", text="いちばん")
    for s in g.answerers:
        if s != "s5":
            act(g, s, "answer", text="")
    assert g.phase == "order"
    refused(g, "tt_not_answerer", "s3", "pick", seat="s3")
    reveal_in(g, sorted(g.answerers, key=lambda s: g.numbers[s]))
    assert g.phase == "round_over" and g.unicorns == 8
    assert len(g.reveals) == 8
    # the next captain (s4) answers nothing either, and s3 now holds a number
    act(g, "s4", "next_round")
    assert g.captain == "s4" and "s4" not in g.answerers and "s3" in g.answerers


# --- answers -----------------------------------------------------------------------------------


def test_captain_answers_first_then_anyone_in_any_order():
    g = make(5, first_captain="s2")
    act(g, "s2", "choose", theme=0)
    refused(g, "tt_captain_first", "s4", "answer", text="はやい")
    refused(g, "tt_captain_first", "s2", "close_answers")
    refused(g, "tt_not_captain", "s4", "close_answers")
    act(g, "s2", "answer", text="  親の\tこたえ  ")
    assert g.answers["s2"] == "親の こたえ"
    for s in ("s5", "s1", "s4"):
        act(g, s, "answer", text="")
    assert g.phase == "answer"
    v = g.view(None)
    assert v["answer_order"] == ["s2", "s5", "s1", "s4"]
    assert {p["seat"]: p["answered"] for p in v["players"]} == {"s1": True, "s2": True, "s3": False, "s4": True, "s5": True}
    act(g, "s3", "answer", text="さいご")
    assert g.phase == "order"


def test_an_answer_cannot_change_but_out_loud_may_be_written_once():
    g = make(4, first_captain="s1")
    act(g, "s1", "choose", theme=0)
    act(g, "s1", "answer", text="ひみつ")
    refused(g, "tt_already_answered", "s1", "answer", text="べつの")
    act(g, "s2", "answer", text="")
    act(g, "s2", "answer", text="書き足し")
    assert g.answers["s2"] == "書き足し" and g.answer_order == ["s1", "s2"]
    refused(g, "tt_already_answered", "s2", "answer", text="もう一回")
    refused(g, "tt_answer_too_long", "s3", "answer", text="あ" * 61)
    assert clean_answer("a\u200bb\x00c  d") == "abc d"


def test_close_answers_counts_the_rest_as_out_loud():
    g = make(5, first_captain="s1")
    act(g, "s1", "choose", theme=0)
    act(g, "s1", "answer", text="親")
    act(g, "s3", "answer", text="三")
    act(g, "s1", "close_answers")
    assert g.phase == "order"
    assert g.answers == {"s1": "親", "s3": "三", "s2": "", "s4": "", "s5": ""}
    refused(g, "tt_not_answering", "s1", "close_answers")


# --- ordering and mistakes ---------------------------------------------------------------------


def test_four_two_three_costs_one_token():
    """§reveal: only the previous reveal counts."""
    g = make(4, first_captain="s1")
    to_order(g, {"s1": 4, "s2": 2, "s3": 3, "s4": 9})
    reveal(g, "s1")
    assert g.unicorns == 4
    reveal(g, "s2")  # 4 → 2: one token
    assert (g.unicorns, g.poops) == (3, 1)
    reveal(g, "s3")  # 2 → 3: going up, no token (though 3 < 4)
    assert (g.unicorns, g.poops) == (3, 1)
    reveal(g, "s4")
    assert [r["mistake"] for r in g.reveals] == [False, True, False, False]
    assert g.phase == "round_over" and g.history[-1]["mistakes"] == 1


def test_pick_undo_confirm():
    g = make(5, first_captain="s1")
    to_order(g, {"s1": 1, "s2": 2, "s3": 3, "s4": 4, "s5": 5})
    refused(g, "tt_not_captain", "s2", "pick", seat="s2")
    refused(g, "tt_no_pick", "s1", "undo")
    refused(g, "tt_no_pick", "s1", "confirm", seat="s1")
    act(g, "s1", "pick", seat="s3")
    assert g.view(None)["pending"] == "s3" and g.view(None)["reveals"] == []
    refused(g, "tt_pick_pending", "s1", "pick", seat="s2")
    refused(g, "tt_pick_changed", "s1", "confirm", seat="s2")
    act(g, "s1", "undo")
    assert g.pending is None and g.reveals == []
    reveal(g, "s1")  # the captain calls themself
    refused(g, "tt_already_revealed", "s1", "pick", seat="s1")
    refused(g, "tt_not_answerer", "s1", "pick", seat="s9")
    assert g.view(None)["reveals"] == [{"seat": "s1", "number": 1, "mistake": False}]


def test_a_mistake_does_not_stop_the_round():
    g = make(5, first_captain="s1")
    to_order(g, {"s1": 7, "s2": 2, "s3": 3, "s4": 10, "s5": 1})
    reveal_in(g, ["s4", "s1", "s3", "s2", "s5"])  # 10,7,3,2,1: four drops
    assert (g.unicorns, g.poops) == (1, 4)
    assert g.phase == "round_over"


def test_all_tokens_flipped_loses_at_once_mid_round():
    g = make(4, first_captain="s1")
    to_order(g, {"s1": 9, "s2": 6, "s3": 3, "s4": 1})
    reveal_in(g, ["s1", "s2", "s3"])  # two drops
    assert g.unicorns == 2
    g.unicorns = 1  # earlier rounds cost two
    reveal(g, "s4")
    assert g.over and g.phase == "over" and g.rating == "lost"
    assert (g.unicorns, g.poops) == (0, 4)
    g2 = make(4, first_captain="s1")
    g2.unicorns = 1
    to_order(g2, {"s1": 9, "s2": 6, "s3": 3, "s4": 1})
    reveal_in(g2, ["s1", "s2"])  # the first drop is the last unicorn
    assert g2.over and g2.rating == "lost" and len(g2.reveals) == 2  # s3 and s4 never revealed
    assert g2.view(None)["last_event"]["kind"] == "lost"
    refused(g2, "game_over", "s1", "pick", seat="s3")


def test_lost_game_keeps_unrevealed_numbers_hidden():
    g = make(5, first_captain="s1")
    g.unicorns = 1
    to_order(g, {"s1": 9, "s2": 6, "s3": 3, "s4": 1, "s5": 2})
    reveal_in(g, ["s1", "s2"])
    assert g.over
    table = json.dumps(g.view(None))
    assert '"number": 3' not in table and '"number": 1' not in table and '"number": 2' not in table


# --- rounds, rotation, ratings ---------------------------------------------------------------------


def test_captain_rotates_in_seating_order():
    g = make(6, first_captain="s5")
    captains = []
    for r in range(1, 6):
        assert g.round == r
        captains.append(g.captain)
        assert g.view(None)["captain"] == g.captain
        play_round(g)
        if r < 5:
            assert g.view(None)["next_captain"] == g._after(g.captain)
            refused(g, "tt_not_next_captain", g.captain, "next_round")
            next_round(g)
    assert captains == ["s5", "s6", "s1", "s2", "s3"]
    assert g.over and g.rating == "perfect"


def test_first_captain_random_when_not_set():
    seen = {make(5, seed=s).captain for s in range(30)}
    assert len(seen) > 2 and seen <= set(SEATS[:5])
    assert make(5, seed=4, first_captain="s99").captain in SEATS[:5]


@pytest.mark.parametrize(
    "n,mistakes,rating",
    [
        (5, [0, 0, 0, 0, 0], "perfect"),
        (5, [0, 1, 1, 0, 0], "great"),  # 3 unicorns, 2 poops
        (4, [0, 1, 0, 1, 0], "great"),  # 2 = 2
        (5, [0, 1, 1, 0, 2], "fair"),  # rulebook's example: 1 unicorn, 4 poops; still a win
        (4, [0, 3, 0, 0, 0], "fair"),
        (4, [1, 1, 1, 1], "lost"),  # lost in round 4
    ],
)
def test_ratings(n, mistakes, rating):
    g = make(n, first_captain="s1")
    for i, m in enumerate(mistakes):
        play_round(g, m)
        if i < len(mistakes) - 1:
            next_round(g)
    assert g.over and g.rating == rating == rating_for(g.unicorns, g.poops)
    assert g.view(None)["rating"] == rating
    assert g.round == len(mistakes)


def test_rounds_option_as_many_as_players():
    g = make(6, first_captain="s1", rounds="players")
    assert g.rounds == 6
    for r in range(6):
        play_round(g)
        if r < 5:
            next_round(g)
    assert g.over and g.rating == "perfect" and len(g.history) == 6


def test_stale_round_and_round_not_over():
    g = make(4, first_captain="s1")
    refused(g, "tt_round_not_over", "s2", "next_round")
    play_round(g)
    before = json.dumps(g.to_dict())
    with pytest.raises(RuleError) as info:
        g.apply("s1", {"type": "pick", "round": 2, "seat": "s2"}, 0.0)
    assert info.value.code == "stale" and json.dumps(g.to_dict()) == before
    next_round(g)
    with pytest.raises(RuleError) as info:
        g.apply("s2", {"type": "next_round", "round": 1}, 0.0)  # a doubled tap
    assert info.value.code == "stale"
    for bad, code in (({"type": "pick"}, "malformed"), ({"type": "pick", "round": 2, "seat": 5}, "malformed"),
                      ({"type": "nope", "round": 2}, "unknown_action"), ("x", "malformed")):
        with pytest.raises(RuleError) as info:
            g.apply("s2", bad, 0.0)
        assert info.value.code == code
    with pytest.raises(RuleError):
        g.apply("s9", {"type": "undo", "round": 2}, 0.0)


def test_host_draws_the_next_card_for_an_away_captain():
    g = make(4, first_captain="s1")
    with pytest.raises(RuleError) as info:
        g.host_apply({"type": "next_round", "round": 1}, 0.0)
    assert info.value.code == "tt_round_not_over"
    play_round(g)
    g.host_apply({"type": "next_round", "round": 1}, 0.0)
    assert g.round == 2 and g.captain == "s2"


# --- leaving, snapshots, views ------------------------------------------------------------------


def test_leave_mid_round_and_captain_leaving():
    g = make(6, first_captain="s1")
    to_order(g, {"s1": 1, "s2": 2, "s3": 3, "s4": 4, "s5": 5, "s6": 6})
    reveal_in(g, ["s1", "s2", "s3", "s4", "s5"])
    g.leave("s6", 0.0)  # the last unrevealed player leaves: the round ends, no token lost
    assert g.phase == "round_over" and g.unicorns == 6 and g.tokens == 6
    g.leave("s1", 0.0)  # the captain of the finished round leaves: s2 still draws next
    refused(g, "tt_not_next_captain", "s3", "next_round")
    act(g, "s2", "next_round")
    assert g.captain == "s2" and g.players == ["s2", "s3", "s4", "s5"] and g.round == 2
    act(g, "s2", "choose", theme=0)
    with pytest.raises(RuleError) as info:
        g.leave("s3", 0.0)
    assert info.value.code == "cannot_continue"
    assert g.players == ["s2", "s3", "s4", "s5"]


def test_captain_leaving_while_ordering_passes_the_captaincy():
    g = make(6, first_captain="s2")
    to_order(g, {s: i + 1 for i, s in enumerate(SEATS[:6])})
    act(g, "s2", "pick", seat="s1")
    g.leave("s2", 0.0)
    assert g.captain == "s3" and g.pending is None and "s2" not in g.numbers
    reveal_in(g, ["s1", "s3", "s4", "s5", "s6"])
    assert g.phase == "round_over" and g.unicorns == 6


def test_snapshot_round_trip_and_json_views():
    g = make(7, seed=5, first_captain="s7")
    to_order(g)
    act(g, "s7", "pick", seat="s1")
    data = json.loads(json.dumps(g.to_dict()))
    h = TopTen.from_dict(data, random.Random(9))
    assert json.dumps(h.to_dict(), sort_keys=True) == json.dumps(g.to_dict(), sort_keys=True)
    for seat in [None, *g.players]:
        assert json.loads(json.dumps(g.view(seat))) == h.view(seat)
    act(h, "s7", "confirm", seat="s1")
    assert len(h.reveals) == 1 and not g.reveals


def test_every_action_schema_is_valid():
    for schema in [*TopTen.ACTIONS.values(), *TopTen.HOST_ACTIONS.values(), TopTen.OPTIONS]:
        Draft202012Validator.check_schema(schema)


# --- an away captain: the host passes the captaincy on (found at a game night: the host's "next
# round" for an away captain led straight into a round that captain had to choose for) ------------


def test_host_passes_the_captaincy_of_an_away_captain_while_choosing():
    g = make(5, first_captain="s1")
    play_round(g)
    g.host_apply({"type": "next_round", "round": 1}, 0.0)  # s2's phone is away
    assert g.captain == "s2" and g.phase == "choose"
    g.host_apply({"type": "pass_captain", "round": 2}, 0.0)
    assert g.captain == "s3" and g.phase == "choose" and g.last_event["kind"] == "captain_passed"
    assert g.last_event["seat"] == "s2" and g.view("s3")["choices"] and "choices" not in g.view("s2")
    act(g, "s3", "choose", theme=1)
    assert set(g.numbers) == set(SEATS[:5])  # s2 still plays and holds a number
    act(g, "s3", "answer", text="")
    for s in ["s1", "s2", "s4", "s5"]:
        act(g, s, "answer", text="")
    reveal_in(g, sorted(g.answerers, key=g.numbers.get))
    assert g.phase == "round_over" and g.view(None)["next_captain"] == "s4"  # s2 was skipped


def test_host_passes_the_captaincy_while_ordering_and_with_nine():
    g = make(6, first_captain="s2")
    to_order(g, {s: i + 1 for i, s in enumerate(SEATS[:6])})
    act(g, "s2", "pick", seat="s1")
    g.host_apply({"type": "pass_captain", "round": 1}, 0.0)
    assert g.captain == "s3" and g.pending is None and g.numbers["s2"] == 2  # s2 keeps playing
    refused(g, "tt_not_captain", "s2", "pick", seat="s1")
    reveal_in(g, ["s1", "s2", "s3", "s4", "s5", "s6"])
    assert g.phase == "round_over" and g.unicorns == 6
    nine = make(9, first_captain="s9")
    assert "s9" not in nine.answerers
    nine.host_apply({"type": "pass_captain", "round": 1}, 0.0)  # still choosing: s1 takes over
    assert nine.captain == "s1" and nine.answerers == SEATS[1:9] and "s1" not in nine.answerers
    act(nine, "s1", "choose", theme=0)
    assert set(nine.numbers) == set(SEATS[1:9])


def test_nine_dropping_to_eight_mid_round_the_captain_takes_a_number_and_nobody_is_blocked():
    """seed §setup: with 4–8 players the captain holds a number and answers; only 9 play without.
    A game of 9 losing a player while answering follows the rule for 8 at once: the captain takes
    one of the face-down numbers and answers, and the answers already given stand (nobody is told
    "the captain first" again). On main the captain stayed without a number for the round."""
    g = make(9, first_captain="s1")
    act(g, "s1", "choose", theme=0)
    assert "s1" not in g.answerers
    act(g, "s2", "answer", text="a")
    act(g, "s3", "answer", text="")
    undealt = list(g.undealt)
    g.leave("s9", 0.0)
    assert g.captain == "s1" and "s1" in g.answerers and g.numbers["s1"] in undealt
    assert len(set(g.numbers.values())) == len(g.numbers) == 8 and g.tokens == 8
    act(g, "s4", "answer", text="")  # not blocked by the captain's missing answer
    for s in ["s5", "s6", "s7", "s8"]:
        act(g, s, "answer", text="")
    assert g.phase == "answer"  # the captain answers too
    act(g, "s1", "answer", text="c")
    assert g.phase == "order"
    reveal_in(g, sorted(g.answerers, key=g.numbers.get))
    assert g.phase == "round_over" and g.unicorns == 8
    h = make(9, first_captain="s1")  # still choosing: the captain will be dealt a number
    h.leave("s9", 0.0)
    act(h, "s1", "choose", theme=0)
    assert "s1" in h.numbers and len(h.numbers) == 8


def test_a_captain_replaced_after_answering_does_not_block_answers_again():
    """seed §reveal (親から発表): the captain answers first. Once the captain has answered and is
    then replaced (the host passes the captaincy of an away phone), the new captain's missing
    answer must not block the others (on main every answer was refused tt_captain_first)."""
    g = make(6, first_captain="s1")
    act(g, "s1", "choose", theme=0)
    refused(g, "tt_captain_first", "s2", "answer", text="x")
    act(g, "s1", "answer", text="first")
    act(g, "s3", "answer", text="")
    g.host_apply({"type": "pass_captain", "round": 1}, 0.0)
    assert g.captain == "s2" and "s2" not in g.answers
    act(g, "s4", "answer", text="")
    act(g, "s5", "answer", text="")
    act(g, "s6", "answer", text="")
    act(g, "s2", "answer", text="")
    assert g.phase == "order"


def test_passing_the_captaincy_is_refused_between_rounds_and_after_the_game():
    g = make(4, first_captain="s1")
    play_round(g)
    before = json.dumps(g.to_dict(), sort_keys=True)
    with pytest.raises(RuleError) as info:
        g.host_apply({"type": "pass_captain", "round": 1}, 0.0)
    assert info.value.code == "tt_cannot_pass" and json.dumps(g.to_dict(), sort_keys=True) == before
    with pytest.raises(RuleError) as info:
        g.host_apply({"type": "pass_captain", "round": 3}, 0.0)
    assert info.value.code == "stale"
