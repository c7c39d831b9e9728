"""Decrypto's clue timer waits for an away encryptor (issue 16, item 1).

With the 30-second timer on, once one encryptor is done the other is pressed for time. If that
encryptor's phone is away (a locked screen, a lost Wi-Fi: ``Game.presence``), the timer stops
with the seconds it had left and runs on from there when they are back; the TV is told whom it
waits for (``timer_paused`` in the table view). Before this, the timer ran out behind a locked
phone and blanked the clues its owner never saw go. Pure rules, no server: well under a second.
"""

from __future__ import annotations

import random

from partyhost.games.decrypto import TIMER_SECONDS, Decrypto

from .test_decrypto import act, fresh_clues, make


def timed(seed: int = 1) -> tuple[Decrypto, str, str]:
    g = make(4, seed=seed, timer=True)
    return g, g.encryptors["white"], g.encryptors["black"]


def test_the_timer_stops_while_the_pressed_encryptor_is_away_and_runs_on_with_what_was_left():
    g, w, b = timed()
    act(g, w, "clues", 10.0, clues=fresh_clues(), final=True)
    assert g.next_deadline() == 10.0 + TIMER_SECONDS
    g.presence(b, False, 18.0)  # 22 s left
    view = g.view(None)
    assert g.next_deadline() is None and view["deadline"] is None
    assert view["timer_paused"] == {"left": 22.0, "waiting_for": [b]}
    g.tick(500.0)  # long past the old deadline: nothing is blanked
    assert g.phase == "encrypt" and g.clues["black"] is None
    g.presence(b, True, 600.0)
    assert g.next_deadline() == 622.0 and g.view(None)["timer_paused"] is None
    g.tick(621.9)
    assert g.phase == "encrypt"
    g.tick(622.0)
    assert g.phase == "guess" and g.clues["black"] == ["", "", ""]


def test_an_away_player_the_timer_does_not_press_changes_nothing():
    g, w, b = timed()
    act(g, w, "clues", 10.0, clues=fresh_clues(), final=True)
    decoder = next(s for s in g.teams["black"] if s != b)
    version = g.version
    g.presence(w, False, 12.0)  # done already
    g.presence(decoder, False, 12.0)  # not writing
    assert g.next_deadline() == 10.0 + TIMER_SECONDS and g.view(None)["timer_paused"] is None
    assert g.version == version + 2  # who is away is still the game's to know (a snapshot keeps it)


def test_an_encryptor_away_before_the_timer_starts_gets_all_30_seconds_when_back():
    g, w, b = timed()
    g.presence(b, False, 5.0)
    assert g.view(None)["timer_paused"] is None  # no timer runs yet: nothing to stop
    act(g, w, "clues", 10.0, clues=fresh_clues(), final=True)
    assert g.next_deadline() is None
    assert g.view(None)["timer_paused"] == {"left": TIMER_SECONDS, "waiting_for": [b]}
    g.presence(b, True, 40.0)
    assert g.next_deadline() == 40.0 + TIMER_SECONDS


def test_the_host_hands_the_turn_on_and_the_new_encryptor_gets_a_fresh_30_seconds():
    g, w, b = timed()
    act(g, w, "clues", 10.0, clues=fresh_clues(), final=True)
    g.presence(b, False, 35.0)  # 5 s left
    g.host_apply({"type": "pass_encryptor", "round": g.round, "team": "black"}, 50.0)
    assert g.encryptors["black"] != b
    assert g.view(None)["timer_paused"] is None and g.next_deadline() == 50.0 + TIMER_SECONDS


def test_without_the_timer_an_away_encryptor_pauses_nothing():
    g = make(4, seed=1)
    w, b = g.encryptors["white"], g.encryptors["black"]
    act(g, w, "clues", 10.0, clues=fresh_clues(), final=True)
    g.presence(b, False, 11.0)
    assert g.next_deadline() is None and g.view(None)["timer_paused"] is None


def test_a_paused_timer_survives_a_snapshot():
    g, w, b = timed()
    act(g, w, "clues", 10.0, clues=fresh_clues(), final=True)
    g.presence(b, False, 15.0)
    back = Decrypto.from_dict(g.to_dict(), random.Random(2))
    assert back.view(None)["timer_paused"] == {"left": 25.0, "waiting_for": [b]}
    back.presence(b, True, 100.0)
    assert back.next_deadline() == 125.0
