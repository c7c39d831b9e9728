"""Decrypto through the real engine and Socket.IO test clients (tests/helpers.py ``Rig``):
lobby options, the 30-s timer on the engine's clock, the TV's host move, refusals in the
phone's language, and team drafts reaching only the team's sockets."""

from __future__ import annotations

from .helpers import Rig


def table(seed: int = 3, n: int = 4, **options):
    rig = Rig(seed=seed)
    tv = rig.tv()
    phones = {}
    for i in range(n):
        p = rig.phone(f"p{i}", lang="en" if i == 1 else "ja")
        phones[p.seat] = p
    assert tv.send("host", {"op": "choose", "game": "decrypto", "options": options})["ok"]
    assert tv.send("host", {"op": "start"})["ok"], tv.result
    return rig, tv, phones


def test_host_teams_option_decides_the_teams_and_each_phone_sees_its_own_words():
    rig, tv, phones = table(teams={"s1": "white", "s2": "white", "s3": "black", "s4": "black"})
    g = rig.game
    assert g.teams == {"white": ["s1", "s2"], "black": ["s3", "s4"]}
    assert tv.state["party"]["options"]["teams"]["s2"] == "white"
    for seat, phone in phones.items():
        view = phone.state["game"]
        assert view["team"] == g.team_of(seat)
        assert view["my_keywords"] == g.keywords[view["team"]]
    assert tv.state["game"]["keywords"] is None and "my_keywords" not in tv.state["game"]
    assert phones["s1"].state["game"]["my_code"] == g.codes["white"]
    assert phones["s2"].state["game"]["my_code"] is None


def test_bad_team_split_is_refused_at_start_with_a_reason():
    rig = Rig(seed=1)
    tv = rig.tv()
    for i in range(4):
        rig.phone(f"p{i}")
    teams = {"s1": "white", "s2": "white", "s3": "white"}
    assert tv.send("host", {"op": "choose", "game": "decrypto", "options": {"teams": teams}})["ok"]
    result = tv.send("host", {"op": "start"})
    assert not result["ok"] and result["code"] == "dc_team_size"
    assert "白3人" in result["message"] and "黒1人" in result["message"]
    assert rig.game is None


def test_timer_blanks_missing_clues_on_the_engine_clock_and_refusals_speak_the_phone_language():
    rig, tv, phones = table(timer=True)
    g = rig.game
    white, black = phones[g.encryptors["white"]], phones[g.encryptors["black"]]
    assert g.encryptors["black"] == "s2"  # the English phone
    bad = black.act({"type": "clues", "round": 1, "clues": [g.keywords["black"][0], "b", "c"], "final": True})
    assert not bad["ok"] and bad["code"] == "dc_clue_is_keyword" and "one of your keywords" in bad["message"]
    assert black.act({"type": "clues", "round": 1, "clues": ["moon", "", ""], "final": False})["ok"]
    assert white.act({"type": "clues", "round": 1, "clues": ["海", "山", "川"], "final": True})["ok"]
    deadline = tv.state["game"]["deadline"]
    assert deadline is not None and abs(deadline - tv.state["now"] - 30.0) < 0.01
    rig.clock.advance(29.0)
    rig.drain()
    assert rig.game.phase == "encrypt"
    rig.clock.advance(1.5)
    rig.drain()
    assert rig.game.phase == "guess" and rig.game.clues["black"] == ["moon", "", ""]
    assert tv.state["game"]["clues"] == ["海", "山", "川"]


def test_drafts_reach_only_the_team_and_the_tv_moves_on_after_the_reveal():
    rig, tv, phones = table(n=6)
    g = rig.game
    for team in ("white", "black"):
        assert phones[g.encryptors[team]].act(
            {"type": "clues", "round": 1, "clues": [f"{team}1", f"{team}2", f"{team}3"], "final": True})["ok"]
    decoders = [s for s in g.teams["white"] if s != g.encryptors["white"]]
    assert phones[decoders[0]].act({"type": "draft", "round": 1, "team": "white", "code": [3, 1, 0]})["ok"]
    assert phones[decoders[1]].state["game"]["my_guess"]["code"] == [3, 1, 0]
    for s in g.teams["black"]:
        view = phones[s].state["game"]
        assert view["my_guess"] is None and view["role"] == "waiting"
    assert "my_guess" not in tv.state["game"] and tv.state["game"]["guessing"]["decode"] == {"team": "white", "locked": False}
    stale = phones[decoders[1]].act({"type": "lock", "round": 2, "team": "white", "code": [1, 2, 3]})
    assert not stale["ok"] and stale["code"] == "stale"
    assert phones[decoders[1]].act({"type": "lock", "round": 1, "team": "white", "code": g.codes["white"]})["ok"]
    assert rig.game.phase == "reveal" and tv.state["game"]["reveal"]["code"] == g.codes["white"]
    moved = tv.send("host", {"op": "game", "action": {"type": "next", "round": 1, "team": "white"}})
    assert moved["ok"], moved
    assert rig.game.phase == "guess" and tv.state["game"]["active"] == "black"
    again = tv.send("host", {"op": "game", "action": {"type": "next", "round": 1, "team": "white"}})
    assert not again["ok"] and again["code"] in ("dc_not_now", "dc_stale_team")


def test_snapshot_restore_keeps_the_game_and_its_secrets():
    rig, tv, phones = table(seed=5)
    g = rig.game
    snap = rig.engine.party.to_dict()
    from partyhost.party import Party
    import random

    party = Party.from_dict(snap, random.Random(1))
    assert party.game.to_dict() == g.to_dict()
    assert party.game.view("s1") == g.view("s1")
