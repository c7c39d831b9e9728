"""Decrypto on the shared pipeline (issue 11): the declared phase table is what the rules
enforce, the stale round is the shared ``stale`` in Decrypto's words, a snapshot saved before the
move restores and plays on, and ``redeal_hidden`` deals anew what a seat may not know (so the
conformance suite's non-interference check is not vacuous for this game)."""

from __future__ import annotations

import json
import random

import pytest

from partyhost import i18n
from partyhost.games.base import SnapshotError
from partyhost.games.decrypto import PHASES, Decrypto
from partyhost.games.decrypto_scoring import TEAMS

from .test_decrypto import act, decoder, make, play_round, play_team, reach_keyword_tie_break, refused, write_all

# --- the phase table ------------------------------------------------------------------------------


def test_every_move_is_open_in_exactly_one_phase():
    declared = [m for phase in PHASES.values() for m in phase.moves]
    assert sorted(declared) == sorted(set(declared))
    assert set(declared) == set(Decrypto.MOVES) | set(Decrypto.HOST_MOVES)
    assert PHASES["over"].moves == ()


def some_action(g: Decrypto, kind: str) -> dict:
    """A well-formed action of ``kind`` for the current round and active team."""
    team = g.active or "white"
    return {
        "clues": {"type": "clues", "round": g.round, "clues": ["a1", "b1", "c1"], "final": True},
        "draft": {"type": "draft", "round": g.round, "team": team, "code": [1, 0, 0]},
        "lock": {"type": "lock", "round": g.round, "team": team, "code": [1, 2, 3]},
        "next": {"type": "next", "round": g.round, "team": team},
        "kw_guess": {"type": "kw_guess", "words": ["a", "b", "c", "d"], "final": False},
        "accept": {"type": "accept", "number": 2, "accept": True},
        "contest": {"type": "contest", "number": 2},
        "judged": {"type": "judged"},
    }[kind]


def check_closed_moves(g: Decrypto) -> set[str]:
    closed = set(Decrypto.MOVES) - set(PHASES[g.phase].moves)
    for kind in closed:
        for seat in g.players:
            refused(g, "dc_not_now", g.apply, seat, some_action(g, kind), 1.0)
    if "next" not in PHASES[g.phase].moves:
        refused(g, "dc_not_now", g.host_apply, some_action(g, "next"), 1.0)
    return closed


def test_a_move_outside_its_phase_is_refused_not_now_in_every_phase():
    g = make(4, seed=1)
    seen = {}
    seen[g.phase] = check_closed_moves(g)  # encrypt
    write_all(g)
    seen[g.phase] = check_closed_moves(g)  # guess
    play_team(g)
    seen[g.phase] = check_closed_moves(g)  # reveal
    g = reach_keyword_tie_break()
    seen[g.phase] = check_closed_moves(g)  # keywords
    for t in TEAMS:
        act(g, g.teams[t][0], "kw_guess", words=["x", "y", "z", "w"], final=True)
    seen[g.phase] = check_closed_moves(g)  # judge
    assert set(seen) == set(PHASES) - {"over"}
    assert all(closed for closed in seen.values())


# --- the shared stale refusal -------------------------------------------------------------------


def test_a_move_for_another_round_is_the_shared_stale_in_decryptos_words():
    g = make(4, seed=1)
    play_round(g)
    write_all(g)
    err = refused(g, "stale", act, g, decoder(g, "white"), "lock", round=1, code=[1, 2, 3])
    assert err.params == {"round": 1, "current": 2} and err.scope == "decrypto"
    assert i18n.refusal("en", err.code, err.scope, **err.params) == "That round is over (it's round 2 now)"
    assert i18n.refusal("ja", err.code, err.scope, **err.params) == "そのラウンドはもう終わっています（いまは第2ラウンド）"
    host = refused(g, "stale", g.host_apply, {"type": "next", "round": 3, "team": "white"}, 1.0)
    assert host.params == {"round": 3, "current": 2}


# --- snapshots --------------------------------------------------------------------------------------

#: ``to_dict()`` of a 5-player game (seed 7, timer on) in round 2, white's clues up and one digit
#: of its decode drafted, written by the code on main before Decrypto moved onto the pipeline
#: (commit 8f9986b): the layout every saved party has today (no ``"v"``).
SAVED_BEFORE_THE_PIPELINE = {
    "active": "white",
    "clue_drafts": {"black": ["clue10", "clue11", "clue12"], "white": ["clue7", "clue8", "clue9"]},
    "clues": {"black": ["clue10", "clue11", "clue12"], "white": ["clue7", "clue8", "clue9"]},
    "codes": {"black": [4, 3, 1], "white": [4, 3, 2]},
    "deadline": None,
    "encrypting": ["white", "black"],
    "encryptors": {"black": "s4", "white": "s3"},
    "event": {"kind": "clues_up", "n": 13, "team": "white"},
    "game": "decrypto",
    "guesses": {
        "decode": {"by": "s1", "code": [2, 0, 0], "locked": False, "team": "white"},
        "intercept": {"by": None, "code": [0, 0, 0], "locked": False, "team": "black"},
    },
    "history": [
        {"clues": ["clue1", "clue2", "clue3"], "code": [2, 1, 4], "decode": [2, 1, 4], "encryptor": "s1",
         "intercept": None, "intercepted": None, "miscommunicated": False, "round": 1, "team": "white"},
        {"clues": ["clue4", "clue5", "clue6"], "code": [3, 2, 1], "decode": [1, 2, 3], "encryptor": "s2",
         "intercept": None, "intercepted": None, "miscommunicated": True, "round": 1, "team": "black"},
    ],
    "judge": {},
    "keywords": {"black": ["サメ", "ボウリング", "トラ", "鏡"], "white": ["ドラゴン", "すいか", "旗", "リス"]},
    "kw": {},
    "lang": "ja",
    "lineup": {"black": ["s2", "s4"], "white": ["s1", "s3", "s5"]},
    "max_rounds": 8,
    "phase": "guess",
    "players": ["s1", "s2", "s3", "s4", "s5"],
    "result": None,
    "reveal_deadline": None,
    "round": 2,
    "teams": {"black": ["s2", "s4"], "white": ["s1", "s3", "s5"]},
    "timer": True,
    "tokens": {"black": {"interceptions": 0, "miscommunications": 1},
               "white": {"interceptions": 0, "miscommunications": 0}},
    "variant": "teams",
    "version": 10,
}


def restore(data: dict) -> Decrypto:
    return Decrypto.from_dict(json.loads(json.dumps(data)), random.Random(3))


def test_a_snapshot_saved_before_the_pipeline_restores_and_plays_on():
    g = restore(SAVED_BEFORE_THE_PIPELINE)
    assert Decrypto.STATE_VERSION == 2  # 2 added who is away and the paused clue timer (issue 16)
    assert g.to_dict() == {**SAVED_BEFORE_THE_PIPELINE, "v": 2, "away": [], "timer_paused": None}
    assert g.view("s3")["my_code"] == [4, 3, 2] and g.view("s1")["my_code"] is None
    assert g.view("s5")["my_guess"]["code"] == [2, 0, 0] and g.view("s2")["my_guess"]["code"] == [0, 0, 0]
    assert g.view(None)["event"] == {"n": 13, "kind": "clues_up", "team": "white"}
    act(g, "s5", "lock", 1.0, code=[4, 3, 2])
    assert g.view(None)["event"]["n"] == 14  # the screens' event counter goes on from the snapshot
    act(g, "s2", "lock", 1.0, code=[4, 3, 2])
    assert g.phase == "reveal" and g.tokens["black"]["interceptions"] == 1
    assert g.view(None)["event"] == {"n": 16, "kind": "reveal", "team": "white", "round": 2}
    assert g.version == 12


def test_a_snapshot_from_before_the_lineup_was_kept_still_restores():
    old = {k: v for k, v in SAVED_BEFORE_THE_PIPELINE.items() if k != "lineup"}
    g = restore(old)
    assert g.lineup == old["teams"]
    with pytest.raises(SnapshotError, match="lacks"):  # a versioned snapshot must be whole
        restore({**old, "v": 1})


# --- redeal_hidden -------------------------------------------------------------------------------


def test_redeal_hidden_deals_anew_what_a_seat_may_not_know_and_keeps_what_it_may():
    g = make(6, seed=4)  # white s1 s3 s5 (s1 encrypts), black s2 s4 s6 (s2 encrypts)
    act(g, "s2", "clues", clues=["b-draft", "", ""], final=False)
    act(g, "s1", "clues", clues=["w1x", "w2x", "w3x"], final=True)
    table = g.redeal_hidden(None, random.Random(1))
    assert table.keywords["white"] != g.keywords["white"] and table.keywords["black"] != g.keywords["black"]
    assert table.clues["white"] != g.clues["white"] and table.clue_drafts["black"] != g.clue_drafts["black"]
    assert table.view(None) == g.view(None)
    white_enc = g.redeal_hidden("s1", random.Random(1))
    assert white_enc.keywords["white"] == g.keywords["white"] and white_enc.codes["white"] == g.codes["white"]
    assert white_enc.clues["white"] == g.clues["white"]
    assert white_enc.keywords["black"] != g.keywords["black"]
    assert white_enc.view("s1") == g.view("s1")
    white_decoder = g.redeal_hidden("s3", random.Random(1))
    assert white_decoder.keywords["white"] == g.keywords["white"]
    assert white_decoder.view("s3") == g.view("s3")
    over = reach_keyword_tie_break()
    over._finish(None, "shared")
    assert over.redeal_hidden(None, random.Random(1)).keywords == over.keywords  # all shown at the end
