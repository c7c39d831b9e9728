"""Clock sync and the fair first card (issue 26): simulated clocks, asymmetric delays, hostile
stamps, doubled and late pings; and the engine applying a later-arriving earlier tap first."""

from __future__ import annotations

import json
import math
import random

import pytest

from partyhost import clocksync
from partyhost.clocksync import ClockStampError, ClockSync, tap_time

from .helpers import Rig
from .test_word_basket_engine import play_msg, race_position, start
from .wb_rig import K


def exchange(sync: ClockSync, a: float, down: float, up: float, theta: float) -> bool:
    """The host (local) answers at ``a``; the phone (clock = host + theta) gets it ``down``
    later and answers at once; the host gets that ``up`` later."""
    return sync.add(a, a + down + theta, a + down + up)


def test_offset_is_within_its_uncertainty_whatever_the_legs():
    rng = random.Random(4)
    for theta, up_ms, down_ms in [(123.4, 80, 5), (-7.0, 5, 80), (0.5, 30, 30)]:
        sync = ClockSync()
        a = 10.0
        for _ in range(16):
            exchange(sync, a, (down_ms + rng.uniform(-3, 20)) / 1000, (up_ms + rng.uniform(-3, 20)) / 1000, theta)
            a += 1.0
        true = -theta  # host = phone + offset
        assert abs(sync.offset - true) <= sync.uncertainty
        # the estimate is off by about half the legs' difference: asymmetry cannot be seen
        assert sync.offset - true == pytest.approx((up_ms - down_ms) / 2000, abs=0.015)
        assert sync.uncertainty >= sync.min_rtt / 2


def test_min_rtt_samples_win_and_the_window_slides():
    sync = ClockSync(window=6)
    exchange(sync, 0.0, 0.3, 0.1, 5.0)  # slow and lopsided: 100 ms off
    for i in range(4):
        exchange(sync, 1.0 + i, 0.001, 0.001, 5.0)  # fast ones
    exchange(sync, 6.0, 0.2, 0.4, 5.0)
    assert sync.min_rtt == pytest.approx(0.002)
    assert sync.offset == pytest.approx(-5.0, abs=1e-9)  # only the four fastest count
    for i in range(6):  # six slow samples push the fast ones out
        exchange(sync, 7.0 + i, 0.05, 0.05, 5.0)
    assert sync.min_rtt == pytest.approx(0.1)


@pytest.mark.parametrize("sample", [
    (0.0, math.nan, 0.1), (0.0, 1.0, math.inf), (1.0, 1.0, 0.5),  # not finite; negative round trip
    (0.0, 1.0, 5.0), ("0", 1.0, 0.1),  # a stale answer (5 s round trip); not a number
])
def test_bad_samples_are_no_samples(sample):
    sync = ClockSync()
    assert sync.add(*sample) is False
    assert not sync.synced
    assert tap_time(1.0, 2.0, sync) == (2.0, 0.0)  # not synced: arrival time


def synced(up: float, down: float, theta: float, n: int = 8) -> ClockSync:
    sync = ClockSync()
    for i in range(n):
        exchange(sync, float(i), down, up, theta)
    return sync


def test_an_honest_tap_maps_to_its_moment():
    sync = synced(0.080, 0.080, theta=42.0)
    tapped = 100.0
    moment, u = tap_time(tapped + 42.0, tapped + 0.080, sync)
    assert moment == pytest.approx(tapped, abs=1e-9)
    assert u == pytest.approx(0.081)


def test_a_hostile_early_stamp_is_clamped_to_the_measured_delay():
    sync = synced(0.005, 0.005, theta=0.0)
    received = 50.0
    moment, _ = tap_time(received - 1.5, received, sync)  # claims it tapped 1.5 s ago
    assert moment == pytest.approx(received - sync.delay_bound)
    assert sync.delay_bound == pytest.approx(0.011)  # 5 ms measured, never more than the 10 ms round trip + 1
    # a stamp in the future is the arrival
    assert tap_time(received + 0.5, received, sync)[0] == received
    # the bound never exceeds MAX_BOUND, even for a phone that makes itself look slow
    slow = synced(0.9, 0.05, theta=0.0)
    assert tap_time(received - 1.5, received, slow)[0] == pytest.approx(received - clocksync.MAX_BOUND)


@pytest.mark.parametrize("stamp", [math.nan, math.inf, -math.inf, "12", True, 50.0 + 3.0, 50.0 - 1e9])
def test_non_finite_or_absurd_stamps_are_refused(stamp):
    with pytest.raises(ClockStampError):
        tap_time(stamp, 50.0, synced(0.01, 0.01, 0.0))


# --- the engine ------------------------------------------------------------------------------------


class Phone:
    """A rig phone with its own clock (host + theta) and one-way delays, synced by hand."""

    def __init__(self, rig: Rig, client, theta: float, up: float, down: float) -> None:
        self.rig, self.client, self.theta, self.up, self.down = rig, client, theta, up, down
        self.n = 0

    def now(self) -> float:
        return self.rig.clock() + self.theta

    def answers(self) -> list:
        return self.client.received("synced")

    def ping(self, echo=None, c=None) -> dict:
        self.n += 1
        payload = {"n": self.n, "c": self.now() if c is None else c}
        if echo is not None:
            payload["echo"] = echo
        self.client.emit("sync", payload)
        return self.answers()[-1]

    def sync(self, rounds: int = 4) -> None:
        answer = self.ping()
        for _ in range(rounds):
            self.rig.clock.advance(self.down)
            c = self.now()
            self.rig.clock.advance(self.up)
            answer = self.ping(echo=answer["s"], c=c)


def test_pings_are_answered_doubled_and_late_ones_are_harmless():
    rig = Rig(seed=2)
    a = rig.phone("あき")
    p = Phone(rig, a, theta=3.0, up=0.01, down=0.01)
    first = p.ping()
    assert set(first) == {"n", "s", "g"} and first["n"] == 1
    sid = a.client.eio_sid and next(iter(rig.engine.connections))
    assert rig.engine.clock_of(sid) is None  # an answer alone is no sample
    rig.clock.advance(0.02)
    p.ping(echo=first["s"], c=rig.clock() - 0.01 + 3.0)
    sync = rig.engine.clock_of(sid)
    assert len(sync.samples) == 1 and sync.min_rtt == pytest.approx(0.02)
    p.ping(echo=first["s"], c=rig.clock() + 3.0)  # the same answer echoed again: no new sample
    p.ping(echo=123.0, c=rig.clock() + 3.0)  # an answer never sent
    assert len(sync.samples) == 1
    rig.clock.advance(5.0)  # a late echo: a 5 s round trip is no sample
    p.ping(echo=p.answers()[-2]["s"], c=rig.clock() + 3.0)
    assert len(sync.samples) == 1 and sync.offset == pytest.approx(-3.0)


@pytest.mark.parametrize("lang, words", [("ja", "時計合わせ"), ("en", "clock-sync")])
def test_a_malformed_ping_is_answered_in_the_phones_language(lang, words):
    rig = Rig(seed=2)
    a = rig.phone("あき", lang=lang)
    for bad in ({"n": 1}, {"n": 1, "c": "x"}, {"n": -1, "c": 1.0}, [1], {"n": 1, "c": 1.0, "extra": 1}):
        a.client.emit("sync", bad)
        answer = a.received("synced")[-1]
        assert answer["ok"] is False and answer["code"] == "bad_sync" and words in answer["message"]
    a.emit_raw('2["sync",{"n":1,"c":NaN}]', drain=False)
    assert a.received("synced")[-1]["code"] == "bad_sync"


def sids(rig: Rig) -> dict:
    return {c.seat: c.sid for c in rig.engine.connections.values() if c.seat}


def test_a_later_arriving_earlier_tap_wins():
    """s2's phone is 80 ms away and taps 20 ms before s1's (5 ms away): s1's play arrives first,
    is held, and s2's wins. 20 ms is inside s2's uncertainty (~80 ms): a tie, no margin shown."""
    rig = Rig(seed=11)
    tv, a, b = start(rig)
    near = Phone(rig, a, theta=12.5, up=0.005, down=0.005)
    far = Phone(rig, b, theta=-300.0, up=0.080, down=0.080)
    near.sync()
    far.sync()
    assert rig.engine.hold_window() == pytest.approx(0.090)  # the far phone's 80 ms + 10 ms margin
    g, serial = race_position(rig)
    t = rig.clock()
    far_tc = far.now()  # s2 taps at t
    rig.clock.advance(0.020)
    near_tc = near.now()  # s1 taps at t + 20 ms
    rig.clock.advance(0.005)
    a.act({**play_msg("s1", serial), "tc": near_tc}, drain=False)  # arrives at t + 25 ms
    rig.drain()
    assert g.last_play is None  # held: an earlier tap may still come
    rig.clock.advance(0.055)
    b.act({**play_msg("s2", serial), "tc": far_tc}, drain=False)  # arrives at t + 80 ms
    rig.drain()
    rig.clock.advance(0.2)
    rig.drain()
    assert g.last_play["seat"] == "s2"
    assert g.last_play["at"] == pytest.approx(t - rig.engine._paused_total, abs=1e-6)
    assert g.race["winner"] == "s2" and g.race["loser"] == "s1"
    assert g.race["margin_ms"] == 20 and g.race["tie"] is True
    assert len(g.hands["s1"]) == 3 and len(g.hands["s2"]) == 2  # the loser keeps its card


def test_a_hostile_early_stamp_loses_and_a_clear_margin_is_shown():
    rig = Rig(seed=11)
    tv, a, b = start(rig)
    pa = Phone(rig, a, theta=1.0, up=0.001, down=0.001)
    pb = Phone(rig, b, theta=2.0, up=0.001, down=0.001)
    pa.sync()
    pb.sync()
    g, serial = race_position(rig)
    b_tc = pb.now()  # s2 taps at t, its play arrives at t + 1 ms
    rig.clock.advance(0.001)
    b.act({**play_msg("s2", serial), "tc": b_tc}, drain=False)
    rig.clock.advance(0.010)  # s1 sends at t + 11 ms and claims it tapped 1.5 s earlier
    a.act({**play_msg("s1", serial), "tc": pa.now() - 1.5}, drain=False)
    rig.clock.advance(0.1)
    rig.drain()
    # s1's stamp is clamped to its arrival less its measured delay bound (3 ms): t + 8 ms
    assert g.last_play["seat"] == "s2"
    assert g.race["loser"] == "s1" and g.race["margin_ms"] == 8 and g.race["tie"] is False
    # an honest 30 ms gap on tight clocks: the margin is shown
    g, serial = race_position(rig)
    a_tc = pa.now()
    rig.clock.advance(0.001)
    a.act({**play_msg("s1", serial), "tc": a_tc}, drain=False)
    rig.clock.advance(0.029)
    b_tc = pb.now()
    rig.clock.advance(0.001)
    b.act({**play_msg("s2", serial), "tc": b_tc}, drain=False)
    rig.clock.advance(0.1)
    rig.drain()
    assert g.last_play["seat"] == "s1"
    assert g.race["winner"] == "s1" and g.race["margin_ms"] == 30 and g.race["tie"] is False


@pytest.mark.parametrize("lang, words", [("ja", "時計"), ("en", "clock stamp")])
def test_an_absurd_tap_stamp_is_refused_with_a_reason(lang, words):
    rig = Rig(seed=11)
    tv, a, b = start(rig)
    phone = a if lang == "ja" else b
    seat = "s1" if lang == "ja" else "s2"
    Phone(rig, phone, theta=0.0, up=0.002, down=0.002).sync()
    g, serial = race_position(rig)
    result = phone.act({**play_msg(seat, serial), "tc": rig.clock() + 1e6})
    assert result["ok"] is False and result["code"] == "clock_stamp" and words in result["message"]
    assert g.last_play is None and len(g.hands[seat]) == 3


def test_the_mind_two_plays_close_together_go_on_the_pile_in_tap_order():
    """The far phone (80 ms) plays 30 twenty ms before the near one (5 ms) plays 31: 31 arrives
    first, yet 30 goes on the pile first and no life is lost (arrival order would cost one)."""
    rig = Rig(seed=4)
    tv, a, b = rig.playing({"s1": [31, 90], "s2": [30, 95]})
    near = Phone(rig, a, theta=5.0, up=0.005, down=0.005)
    far = Phone(rig, b, theta=-9.0, up=0.080, down=0.080)
    near.sync()
    far.sync()
    lives = rig.game.lives
    far_tc = far.now()
    rig.clock.advance(0.020)
    near_tc = near.now()
    rig.clock.advance(0.005)
    a.act({"type": "play", "level": 1, "card": 31, "tc": near_tc}, drain=False)
    rig.drain()
    rig.clock.advance(0.055)
    b.act({"type": "play", "level": 1, "card": 30, "tc": far_tc}, drain=False)
    rig.drain()
    rig.clock.advance(0.2)
    rig.drain()
    assert [c["card"] for c in rig.game.view(None)["pile"]] == [30, 31]
    assert rig.game.lives == lives


def test_taps_closer_than_the_clocks_jitter_are_a_fair_draw():
    """Taps 1 ms apart (inside both clocks' 1 ms jitter): each phone wins some; 25 ms apart
    (outside it): the earlier always wins. Without the draw the earlier estimate would win every
    close race, and a lasting error of one clock's estimate would pick the same phone each time."""
    rig = Rig(seed=11)
    tv, a, b = start(rig)
    pa = Phone(rig, a, theta=1.0, up=0.004, down=0.004)
    pb = Phone(rig, b, theta=2.0, up=0.004, down=0.004)
    pa.sync()
    pb.sync()
    for gap, expect_both in ((0.001, True), (0.025, False)):
        winners = []
        for _ in range(24):
            g, serial = race_position(rig)
            a_tc = pa.now()
            rig.clock.advance(gap)
            b_tc = pb.now()
            b.act({**play_msg("s2", serial), "tc": b_tc}, drain=False)  # the later tap arrives first
            rig.clock.advance(0.002)
            a.act({**play_msg("s1", serial), "tc": a_tc}, drain=False)
            rig.clock.advance(0.2)
            rig.drain()
            winners.append(g.last_play["seat"])
            assert g.race["tie"] is True or gap > 0.02
        assert (set(winners) == {"s1", "s2"}) if expect_both else (set(winners) == {"s1"})


def test_one_slow_forged_sample_does_not_stretch_the_delay_bound():
    """A hostile phone syncs honestly over a 1 ms link, then answers one ping 0.9 s late with a
    ``c`` from when that answer came: the sample is not among the fastest (its offset, jitter and
    uncertainty stay those of a 1 ms link) but its one-way delay reads 0.9 s. Its delay bound must
    not grow to 150 ms with it: it would let its tap, sent 100 ms after the honest one, claim to
    come 50 ms earlier and win with a "clear" margin (seen on a real host)."""
    rig = Rig(seed=11)
    tv, a, b = start(rig)
    honest = Phone(rig, a, theta=1.0, up=0.0005, down=0.0005)
    hostile = Phone(rig, b, theta=2.0, up=0.0005, down=0.0005)
    honest.sync()
    hostile.sync()
    answer = hostile.ping()
    rig.clock.advance(0.0005)
    got = hostile.now()
    rig.clock.advance(0.9)
    hostile.ping(echo=answer["s"], c=got - 0.9)  # the forged slow sample
    hostile.sync()
    sync = rig.engine.clock_of(sids(rig)["s2"])
    assert sync.min_rtt == pytest.approx(0.001) and len(sync.samples) == 9
    assert sync.delay_bound <= 0.012  # the fastest round trip + the margin, not 150 ms
    g, serial = race_position(rig)
    a_tc = honest.now()
    rig.clock.advance(0.0005)
    a.act({**play_msg("s1", serial), "tc": a_tc}, drain=False)
    rig.clock.advance(0.1)  # the hostile phone sends 100 ms later, claiming 200 ms earlier
    b.act({**play_msg("s2", serial), "tc": hostile.now() - 0.2}, drain=False)
    rig.clock.advance(0.3)
    rig.drain()
    assert g.last_play["seat"] == "s1"
    assert g.race["winner"] == "s1" and g.race["tie"] is False


def test_a_reset_tapped_after_a_held_play_does_not_overtake_it():
    """s1 plays first (and it arrives first); s2, 40 ms away, resets 20 ms later. The play is
    held for s2's delay, but the reset (a field change too) must not jump over it: before the
    hold, arrival order applied the play, and the reset was the one refused as stale."""
    rig = Rig(seed=11)
    tv, a, b = start(rig)
    near = Phone(rig, a, theta=1.0, up=0.001, down=0.001)
    far = Phone(rig, b, theta=2.0, up=0.040, down=0.040)
    near.sync()
    far.sync()
    g, serial = race_position(rig)
    a_tc = near.now()
    rig.clock.advance(0.001)
    a.act({**play_msg("s1", serial), "tc": a_tc}, drain=False)
    rig.drain()
    rig.clock.advance(0.020)
    reset = b.act({"type": "reset", "field": serial, "top": K("ほ"), "tc": far.now()}, drain=False)
    rig.clock.advance(0.040)
    rig.drain()
    rig.clock.advance(0.3)
    rig.drain()
    assert g.last_play is not None and g.last_play["seat"] == "s1"
    assert a.received("result")[-1]["ok"] is True
    last = b.received("result")[-1]
    assert last["ok"] is False and last["code"] == "wb_stale_field"
    assert len(g.hands["s2"]) == 3  # s2 kept its hand: nothing was discarded


def test_huge_phone_clock_readings_are_no_samples_and_no_infinity_reaches_the_game():
    """c = ±1e308 (finite, so the schema takes it): two such samples among the fastest made the
    spread of offsets infinite, so the phone's uncertainty and jitter were ``inf`` while its
    offset (their mean) stayed usable; its next play stored ``u: inf`` in Word Basket's state,
    which no snapshot can hold (JSON has no Infinity)."""
    rig = Rig(seed=11)
    tv, a, b = start(rig)
    pb = Phone(rig, b, theta=2.0, up=0.001, down=0.001)
    answer = pb.ping()
    for c in (-1e308, 1e308, -1e12, 1e12, None, None):
        rig.clock.advance(0.001)
        answer = pb.ping(echo=answer["s"], c=pb.now() - 0.0005 if c is None else c)
    sync = rig.engine.clock_of(sids(rig)["s2"])
    assert len(sync.samples) == 2  # only the two honest ones
    assert math.isfinite(sync.uncertainty) and math.isfinite(sync.jitter)
    assert sync.offset == pytest.approx(-2.0)
    g, serial = race_position(rig)
    b.act({**play_msg("s2", serial), "tc": pb.now()}, drain=False)
    rig.clock.advance(0.3)
    rig.drain()
    assert g.last_play["seat"] == "s2"
    json.dumps(g.to_dict(), allow_nan=False)  # the snapshot holds only finite numbers


def test_a_move_sent_after_a_held_play_does_not_overtake_it():
    """The Mind: s1 plays 30 (arrives first, held for s2's 40 ms link); s2 taps ストップ 20 ms
    later. The stop (not a racing move) used to be applied at once, so the earlier play found
    play stopped and was refused; arrival order (before the hold) put 30 on the pile first."""
    rig = Rig(seed=4)
    tv, a, b = rig.playing({"s1": [30, 90], "s2": [40, 95]})
    near = Phone(rig, a, theta=5.0, up=0.001, down=0.001)
    far = Phone(rig, b, theta=-9.0, up=0.040, down=0.040)
    near.sync()
    far.sync()
    a_tc = near.now()
    rig.clock.advance(0.001)
    a.act({"type": "play", "level": 1, "card": 30, "tc": a_tc}, drain=False)
    rig.drain()
    rig.clock.advance(0.020)
    b.act({"type": "stop", "level": 1, "tc": far.now()}, drain=False)
    rig.clock.advance(0.040)
    rig.drain()
    rig.clock.advance(0.3)
    rig.drain()
    assert a.received("result")[-1]["ok"] is True
    assert [c["card"] for c in rig.game.view(None)["pile"]] == [30]
    assert b.received("result")[-1]["ok"] is True  # the stop came after: play is stopped now
    assert rig.game.phase != "playing"


def test_a_held_play_stands_when_its_phone_drops_right_after():
    """The tap reached the host; the phone's page is closed (or its socket drops) 5 ms later,
    inside the hold window. The held play was dropped with its socket (no seat to play for);
    played on arrival, as before the hold, it stood."""
    rig = Rig(seed=11)
    tv, a, b = start(rig)
    near = Phone(rig, a, theta=1.0, up=0.001, down=0.001)
    far = Phone(rig, b, theta=2.0, up=0.040, down=0.040)
    near.sync()
    far.sync()
    g, serial = race_position(rig)
    a_tc = near.now()
    rig.clock.advance(0.001)
    a.act({**play_msg("s1", serial), "tc": a_tc}, drain=False)
    rig.drain()
    rig.clock.advance(0.005)
    a.client.disconnect()
    rig.drain()
    rig.clock.advance(0.3)
    rig.drain()
    assert g.last_play is not None and g.last_play["seat"] == "s1"
    assert len(g.hands["s1"]) == 2


def test_the_mind_never_draws_the_pile_order():
    """The fair draw is for a race with a winner (Word Basket: only the first card counts). In
    The Mind both plays go on the pile and nobody wins a race: swapping two plays 1 ms apart,
    tapped and arrived in the right order, at random cost the table a life half the time."""
    rig = Rig(seed=4)
    tv, a, b = rig.playing({"s1": [30, 32, 34, 36, 38, 40, 42, 44, 90], "s2": [31, 33, 35, 37, 39, 41, 43, 45, 95]})
    pa = Phone(rig, a, theta=5.0, up=0.004, down=0.004)
    pb = Phone(rig, b, theta=-9.0, up=0.004, down=0.004)
    pa.sync()
    pb.sync()
    lives = rig.game.lives
    for i in range(8):
        a_tc = pa.now()
        rig.clock.advance(0.001)
        b_tc = pb.now()
        b.act({"type": "play", "level": 1, "card": 31 + 2 * i, "tc": b_tc}, drain=False)
        rig.clock.advance(0.002)
        a.act({"type": "play", "level": 1, "card": 30 + 2 * i, "tc": a_tc}, drain=False)
        rig.clock.advance(0.2)
        rig.drain()
        assert rig.game.lives == lives, i
