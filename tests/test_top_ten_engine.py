"""Top Ten through the real engine and Socket.IO transport (tests/helpers.py ``Rig``): lobby
options, a whole game with written answers on the TV, localised refusals, the host drawing the
next card, and "play again"."""

from __future__ import annotations

import pytest

from partyhost.games import top_ten

from .helpers import Rig
from .test_top_ten import FIXTURE_DECK


@pytest.fixture(autouse=True)
def fixture_deck(monkeypatch):
    monkeypatch.setattr(top_ten, "load_deck", lambda lang: FIXTURE_DECK)


def seated(rig: Rig, names: list[str], langs: dict | None = None) -> dict:
    phones = {}
    for name in names:
        phone = rig.phone(name, lang=(langs or {}).get(name, "ja"))
        phones[phone.seat] = phone
    return phones


def round_of(phone) -> int:
    return phone.state["game"]["round"]


def play_round(rig: Rig, phones: dict, tv, texts: dict | None = None, wrong: bool = False) -> None:
    """Choose, answer (captain first), then the captain calls everyone lowest-first; ``wrong``
    swaps the first two calls (one mistake)."""
    game = rig.game
    cap = phones[game.captain]
    r = round_of(cap)
    assert cap.act({"type": "choose", "round": r, "theme": 1})["ok"]
    order = [s for s in [game.captain] if s in game.answerers] + [s for s in game.answerers if s != game.captain]
    for s in order:
        res = phones[s].act({"type": "answer", "round": r, "text": (texts or {}).get(s, "")})
        assert res["ok"], res
    # each phone knows only its own number
    numbers = {s: phones[s].state["game"]["number"] for s in game.answerers}
    assert numbers == game.numbers
    calls = sorted(numbers, key=numbers.get)
    if wrong:
        calls[0], calls[1] = calls[1], calls[0]
    for s in calls:
        assert cap.act({"type": "pick", "round": r, "seat": s})["ok"]
        assert tv.state["game"]["pending"] == s
        assert cap.act({"type": "confirm", "round": r, "seat": s})["ok"]
        assert tv.state["game"]["reveals"][-1]["seat"] == s
        if rig.game.over:
            break


def test_a_whole_game_through_the_engine():
    rig = Rig(seed=11)
    tv = rig.tv()
    phones = seated(rig, ["あき", "Ben", "ちか", "Dan", "えま"], langs={"Ben": "en", "Dan": "en"})
    # the host picks the first captain and English themes in the lobby
    res = tv.send("host", {"op": "choose", "game": "top_ten", "options": {"first_captain": "s3", "themes": "en"}})
    assert res["ok"], res
    assert tv.state["party"]["options"] == {"first_captain": "s3", "themes": "en", "rounds": "five"}
    assert tv.send("host", {"op": "start"})["ok"]
    g = tv.state["game"]
    assert (g["captain"], g["lang"], g["tokens"], g["unicorns"], g["phase"]) == ("s3", "en", 5, 5, "choose")
    assert "choices" in phones["s3"].state["game"] and "choices" not in phones["s1"].state["game"]

    # round 1: a written answer reaches the TV beside its seat; refusals come in the phone's language
    r = 1
    early = phones["s1"].act({"type": "answer", "round": r, "text": "はやすぎ"})
    assert not early["ok"] and early["code"] == "tt_not_answering"
    assert phones["s3"].act({"type": "choose", "round": r, "theme": 2})["ok"]
    ja = phones["s1"].act({"type": "answer", "round": r, "text": "はやすぎ"})
    en = phones["s2"].act({"type": "answer", "round": r, "text": "too soon"})
    assert (ja["code"], en["code"]) == ("tt_captain_first", "tt_captain_first")
    assert ja["message"] == "まず親が答えます" and en["message"] == "The captain answers first"
    assert phones["s3"].act({"type": "answer", "round": r, "text": "月まで跳ぶ"})["ok"]
    players = {p["seat"]: p for p in tv.state["game"]["players"]}
    assert players["s3"]["answer"] == "月まで跳ぶ" and players["s3"]["answered"]
    assert players["s1"]["answer"] is None and not players["s1"]["answered"]
    for s in ("s1", "s2", "s4", "s5"):
        assert phones[s].act({"type": "answer", "round": r, "text": f"{s} answer"})["ok"]
    assert tv.state["game"]["phase"] == "order"
    numbers = {s: phones[s].state["game"]["number"] for s in phones}
    calls = sorted(numbers, key=numbers.get)
    calls[1], calls[2] = calls[2], calls[1]  # one mistake
    for s in calls:
        assert phones["s3"].act({"type": "pick", "round": r, "seat": s})["ok"]
        assert phones["s3"].act({"type": "confirm", "round": r, "seat": s})["ok"]
    g = tv.state["game"]
    assert g["phase"] == "round_over" and (g["unicorns"], g["poops"]) == (4, 1)
    assert [x["number"] for x in g["reveals"]] == [numbers[s] for s in calls]
    doubled = phones["s3"].act({"type": "confirm", "round": r, "seat": calls[-1]})
    assert not doubled["ok"] and doubled["code"] == "tt_not_ordering"

    # the host draws the next card for the next captain (s4), whose phone might be away
    res = tv.send("host", {"op": "game", "action": {"type": "next_round", "round": 1}})
    assert res["ok"], res
    assert tv.state["game"]["round"] == 2 and tv.state["game"]["captain"] == "s4"
    late = phones["s4"].act({"type": "next_round", "round": 1})
    assert not late["ok"] and late["code"] == "stale"

    for rnd in range(2, 6):
        play_round(rig, phones, tv)
        if rnd < 5:
            nxt = tv.state["game"]["next_captain"]
            assert phones[nxt].act({"type": "next_round", "round": rnd})["ok"]
    g = tv.state["game"]
    assert g["phase"] == "over" and g["rating"] == "great" and tv.state["party"]["over"]
    assert [h["captain"] for h in g["history"]] == ["s3", "s4", "s5", "s1", "s2"]

    # play again: a fresh game with the same options
    assert tv.send("host", {"op": "restart"})["ok"]
    g = tv.state["game"]
    assert (g["round"], g["unicorns"], g["poops"], g["captain"], g["history"]) == (1, 5, 0, "s3", [])


def test_nine_players_through_the_engine_and_lobby_limits():
    rig = Rig(seed=5)
    tv = rig.tv()
    phones = seated(rig, [f"p{i}" for i in range(3)])
    assert tv.send("host", {"op": "choose", "game": "top_ten"})["ok"]
    res = tv.send("host", {"op": "start"})
    assert not res["ok"] and res["code"] == "player_count"
    bad = tv.send("host", {"op": "choose", "game": "top_ten", "options": {"rounds": "seven"}})
    assert not bad["ok"] and bad["code"] == "bad_options"
    phones.update(seated(rig, [f"p{i}" for i in range(3, 9)]))
    assert tv.send("host", {"op": "choose", "game": "top_ten", "options": {"first_captain": "s9"}})["ok"]
    assert tv.send("host", {"op": "start"})["ok"]
    g = tv.state["game"]
    assert (g["tokens"], g["captain"]) == (8, "s9")
    assert [p["seat"] for p in g["players"] if not p["answerer"]] == ["s9"]
    play_round(rig, phones, tv, wrong=True)
    g = tv.state["game"]
    assert (g["unicorns"], g["poops"], len(g["reveals"])) == (7, 1, 8)
    assert phones["s9"].state["game"]["number"] is None
    assert phones["s1"].act({"type": "next_round", "round": 1})["ok"]  # s1 is next after s9
    assert tv.state["game"]["captain"] == "s1"


def test_kick_mid_game_continues_or_ends():
    rig = Rig(seed=2)
    tv = rig.tv()
    phones = seated(rig, ["a", "b", "c", "d", "e"])
    assert tv.send("host", {"op": "choose", "game": "top_ten", "options": {"first_captain": "s1"}})["ok"]
    assert tv.send("host", {"op": "start"})["ok"]
    assert phones["s1"].act({"type": "choose", "round": 1, "theme": 0})["ok"]
    assert tv.send("host", {"op": "kick", "seat": "s1"})["ok"]  # the captain leaves
    g = tv.state["game"]
    assert g["captain"] == "s2" and len(g["players"]) == 4 and not tv.state["party"]["over"]
    assert tv.send("host", {"op": "kick", "seat": "s2"})["ok"]  # too few: the game ends
    assert tv.state["party"]["phase"] == "lobby" and tv.state["party"]["ended"]["reason"] == "too_few"
