"""Diabolo on the shared action pipeline (issue 11; ``games/base.py``): direct calls validate
like the engine, the round token is the shared ``stale`` refusal, and snapshots carry a layout
version whose migration restores a saved party from before ballots named their vote."""

from __future__ import annotations

import json
import random

import pytest

from partyhost import i18n
from partyhost.games.base import RuleError, SnapshotError
from partyhost.games.diabolo import PHASES, Diabolo

from .conformance import play

# Snapshots of one moment (3 players, s2 took HANG, s1's ZURK is under vote, s2 voted reject),
# written by Diabolo.to_dict() of earlier code: both are layout 1 (no "v").
# Before 3a3d621 (votes without ids, no vote_serial):
LAYOUT_1_BEFORE_VOTE_IDS = json.loads("""
{"auto_on": false, "claim": {"cards": [{"as": "Z", "face": "Z", "id": 52}, {"as": "U", "face":
"U", "id": 33}, {"as": "R", "face": "R", "id": 16}, {"as": "K", "face": "K", "id": 50}], "ids":
[52, 33, 16, 50], "seat": "s1", "status": "vote", "word": "ZURK"}, "dealer": "s1", "dealers":
["s1", "s2", "s3", "s1", "s2", "s3"], "deck": [56, 12, 53, 28, 40, 46, 29, 0, 24, 1, 31, 20, 11,
57, 64, 44, 45, 21, 43, 30, 18, 58, 17, 47, 59, 9, 8, 51, 39, 38, 25, 62, 55, 14, 7, 36, 54, 49,
35, 63, 15, 60, 26, 27, 5, 2, 13, 32, 61, 37, 23, 6, 34, 4, 3, 65, 19, 41], "end_at": null,
"end_seconds": 20.0, "event_n": 11, "game": "diabolo", "handicap": [], "interval": 4.0, "lang":
"de", "last_event": {"kind": "claim_vote", "n": 11, "seat": "s1", "word": "ZURK"},
"next_turn_at": null, "options": {"end_seconds": 20, "handicap": [], "interval": 4, "lang":
"de", "tile_handicap": 10, "victory_tiles": false}, "passed": [], "phase": "vote", "picking":
null, "piles": {"s1": [], "s2": [48, 22, 10, 42], "s3": []}, "players": ["s1", "s2", "s3"],
"possible": [], "results": [], "round": 1, "table": [52, 33, 16, 50], "tile_handicap": 10,
"tiles": {"s1": 0, "s2": 0, "s3": 0}, "turned": 8, "version": 12, "victory_tiles": false,
"vote": {"ballots": {"s2": "reject"}, "closes": 23.0, "expired": false, "opened": 3.0,
"overruled": null, "subject": {"seat": "s1", "word": "ZURK"}, "voters": ["s2", "s3"]},
"winners": []}
""")

# main before this change (3a3d621 added the vote id and vote_serial, not yet a version):
LAYOUT_1_MAIN = {**LAYOUT_1_BEFORE_VOTE_IDS, "vote": {**LAYOUT_1_BEFORE_VOTE_IDS["vote"], "id": 1},
                 "vote_serial": 1}


def new_game(n=3, seed=1, **options) -> Diabolo:
    g = Diabolo()
    g.setup([f"s{i + 1}" for i in range(n)], options, random.Random(seed), now=0.0)
    return g


def refused(code, fn, *args, now=1.0):
    """``fn(*args, now)`` is refused with ``code``."""
    with pytest.raises(RuleError) as e:
        fn(*args, now)
    assert e.value.code == code, e.value
    return e.value


# --- validation once, in the pipeline ------------------------------------------------------------

def test_a_direct_call_with_a_malformed_action_is_refused_not_a_key_error():
    # Diabolo trusted the engine's schema check: called directly, a claim without its cards
    # raised KeyError. The pipeline answers as the engine does, and nothing changes.
    g = new_game()
    before = g.to_dict()
    e = refused("malformed", g.apply, "s1", {"type": "claim", "round": 1, "word": "HANG"})
    assert "cards" in e.params["detail"]
    refused("malformed", g.apply, "s1", {"type": "turn", "round": "1", "turned": 0})
    refused("malformed", g.apply, "s1", {"type": "vote", "ballot": "accept"})
    refused("malformed", g.apply, "s1", ["claim"])
    refused("unknown_action", g.apply, "s1", {"type": "overrule", "vote": 1, "outcome": "accept"})
    refused("malformed", g.host_apply, {"type": "overrule", "outcome": "accept"})
    refused("unknown_action", g.host_apply, {"type": "claim", "round": 1, "word": "X", "cards": [{"id": 0}]})
    assert g.to_dict() == before


def test_a_stale_round_is_the_shared_stale_refusal_in_the_games_own_words():
    g = new_game()
    e = refused("stale", g.apply, "s1", {"type": "turn", "round": 2, "turned": 0})
    assert e.params == {"round": 2, "current": 1} and e.scope == "diabolo"
    for lang, text in (("ja", "そのラウンドはもう終わっています"), ("en", "That round is already over")):
        assert i18n.refusal(lang, e.code, e.scope, **e.params) == text
    # the pipeline's order: game over and seat come first, then the round, then the rules
    refused("not_a_player", g.apply, "s99", {"type": "turn", "round": 2, "turned": 0})
    refused("stale", g.apply, "s2", {"type": "turn", "round": 2, "turned": 0})
    refused("not_dealer", g.apply, "s2", {"type": "turn", "round": 1, "turned": 0})


# --- snapshots: layout 2 adds vote_serial ----------------------------------------------------------

def test_a_snapshot_from_before_votes_had_ids_restores_and_its_vote_can_be_decided():
    g = Diabolo.from_dict(json.loads(json.dumps(LAYOUT_1_BEFORE_VOTE_IDS)), random.Random(3))
    assert g.vote_serial == 1 and g.vote["id"] == 1 and g.view("s3")["vote"]["id"] == 1
    assert g.to_dict()["v"] == Diabolo.STATE_VERSION == 3  # layout 3 added the round's claim log
    assert g.log == []
    assert {k: v for k, v in g.to_dict().items() if k not in ("v", "vote", "vote_serial", "log")} == \
        {k: v for k, v in LAYOUT_1_BEFORE_VOTE_IDS.items() if k != "vote"}
    g.apply("s3", {"type": "vote", "vote": 1, "ballot": "reject"}, 5.0)  # the phone names vote 1
    assert g.phase == "picking" and g.claim["status"] == "rejected"
    ids = [c["id"] for c in g.view(None)["table"][:3]]
    g.apply("s2", {"type": "pick", "round": 1, "card": ids[0]}, 6.0)
    g.apply("s3", {"type": "pick", "round": 1, "card": ids[1]}, 6.0)
    assert g.phase == "turning" and g.card_count() == 66
    g.apply("s1", {"type": "turn", "round": 1, "turned": 8}, 7.0)  # play goes on
    assert g.turned == 9 and g.view(None)["table"][-1]["id"] == LAYOUT_1_BEFORE_VOTE_IDS["deck"][0]


def test_a_snapshot_with_no_vote_open_migrates_to_serial_zero():
    old = {k: v for k, v in LAYOUT_1_BEFORE_VOTE_IDS.items()}
    old.update(phase="turning", vote=None, claim=None)
    g = Diabolo.from_dict(old, random.Random(3))
    assert g.vote_serial == 0 and g.vote is None


def test_todays_snapshot_without_a_version_restores_unchanged():
    g = Diabolo.from_dict(json.loads(json.dumps(LAYOUT_1_MAIN)), random.Random(3))
    assert g.to_dict() == {**LAYOUT_1_MAIN, "v": 3, "log": []}
    assert g.view("s2")["vote"]["id"] == 1 and g.vote_serial == 1


def test_a_snapshot_missing_a_field_is_refused_not_defaulted():
    # the stop-gap defaults for fields newer than a snapshot are gone: a field a snapshot of
    # this layout lacks is a broken snapshot (the party goes back to the lobby)
    data = new_game().to_dict()
    del data["vote_serial"]
    with pytest.raises(SnapshotError):
        Diabolo.from_dict(data, random.Random(1))


# --- the phase table tells the truth -------------------------------------------------------------

class Watched(Diabolo):
    """Diabolo that notes the phase each accepted move was made in."""

    accepted: list[tuple[str, str, bool]] = []

    def apply(self, seat, action, now):
        phase = self.phase
        super().apply(seat, action, now)
        Watched.accepted.append((phase, action["type"], False))

    def host_apply(self, action, now):
        phase = self.phase
        super().host_apply(action, now)
        Watched.accepted.append((phase, action["type"], True))


def test_the_phase_table_names_every_phase_and_move():
    assert set(PHASES) == {"turning", "vote", "picking", "scored", "over"}
    assert set().union(*(p.moves for p in PHASES.values())) == set(Diabolo.MOVES)
    assert set().union(*(p.host_moves for p in PHASES.values())) == set(Diabolo.HOST_MOVES)
    assert PHASES["over"].moves == PHASES["over"].host_moves == ()


@pytest.mark.parametrize("players,options", [
    (3, {"victory_tiles": True}),
    (4, {"lang": "en"}),
    (5, {"handicap": ["s1", "s2"], "interval": 1, "end_seconds": 5, "tile_handicap": 0}),
])
def test_whole_games_with_options_keep_every_promise_and_the_phase_table(players, options):
    # the conformance suite (tests/conformance.py) with the lobby options it does not try, and
    # every move the game accepted was one the phase table opens in the phase it was made in
    Diabolo.prepare()
    Watched.accepted = []
    game = play(Watched, seed=players, players=players, options=options)
    assert game.over and game.winners
    for phase, kind, host in Watched.accepted:
        opened = PHASES[phase].host_moves if host else PHASES[phase].moves
        assert kind in opened, (phase, kind, host)
    seen = {phase for phase, _, _ in Watched.accepted}
    assert seen >= {"turning", "scored"}
