"""The connection limits in-process: token buckets, the per-address count, the request guard,
and the rate limit in the Socket.IO handlers (fake clocks, no sockets, no timing).

The same limits against the real server, in both async modes: ``test_attacks_real.py``.
"""

from __future__ import annotations

import io

import pytest

from partyhost import limits
from partyhost.limits import (DROP, DROP_AND_NOTIFY, PASS, AddressCap, RateLimiter, TokenBucket,
                              address_key)
from partyhost.serving import CLOSE_KEY, SOCKET_KEY, RequestGuard

from .helpers import FakeClock, Rig


# ----- token bucket and rate limiter ------------------------------------------------------------------


def test_token_bucket_refills_at_its_rate_up_to_its_size():
    b = TokenBucket(rate=2.0, capacity=3, tokens=3, stamp=0.0)
    assert [b.take(0.0) for _ in range(4)] == [True, True, True, False]
    assert b.take(0.5) and not b.take(0.5)  # 0.5 s at 2/s: one token
    assert [b.take(100.0) for _ in range(4)] == [True, True, True, False]  # never above 3
    assert not b.take(50.0)  # a clock that goes back refills nothing


def test_twenty_quick_taps_and_a_finger_all_day_never_meet_the_limit():
    clock = FakeClock(0.0)
    rl = RateLimiter(clock=clock)
    assert [rl.admit("phone") for _ in range(20)] == [PASS] * 20
    # then a fast finger: 7 taps a second for ten minutes
    for _ in range(7 * 600):
        clock.advance(1 / 7)
        assert rl.admit("phone") == PASS
    assert rl.dropped("phone") == 0


def test_a_flood_passes_the_burst_then_the_rate_and_is_told_once_a_second():
    clock = FakeClock(0.0)
    rl = RateLimiter(rate=10, burst=30, notice_interval=1.0, clock=clock)
    verdicts = [rl.admit("flood") for _ in range(1000)]  # 1,000 at once
    assert verdicts[:30] == [PASS] * 30
    assert verdicts[30] == DROP_AND_NOTIFY and set(verdicts[31:]) == {DROP}
    passed = notices = 0
    for _ in range(7500):  # then 5,000 a second for 1.5 s
        clock.advance(1 / 5000)
        v = rl.admit("flood")
        passed += v == PASS
        notices += v == DROP_AND_NOTIFY
    assert 14 <= passed <= 16 and notices == 1  # 10 a second; told at 1 s, not yet at 2 s
    assert rl.dropped("flood") == 8500 - 30 - passed
    # other sockets are not affected, and a socket that comes back starts afresh
    assert rl.admit("other") == PASS
    rl.forget("flood")
    assert rl.admit("flood") == PASS and rl.dropped("flood") == 0


def test_a_rate_of_zero_turns_the_limit_off():
    rl = RateLimiter(rate=0, clock=FakeClock(0.0))
    assert {rl.admit("s") for _ in range(10_000)} == {PASS}


# ----- connections per address ---------------------------------------------------------------------


def test_the_cap_is_per_address_and_released():
    cap = AddressCap(cap=3)
    keys = [cap.acquire(("10.0.0.5", 5000 + i)) for i in range(3)]
    assert keys == ["10.0.0.5"] * 3
    assert cap.acquire(("10.0.0.5", 6000)) is None  # over the cap: not counted
    assert cap.acquire(("10.0.0.6", 6000)) == "10.0.0.6"  # another device
    assert cap.open_count("10.0.0.5") == 3
    for k in keys:
        cap.release(k)
    assert cap.open_count("10.0.0.5") == 0
    assert [cap.acquire(("10.0.0.5", 7000 + i)) for i in range(3)] == ["10.0.0.5"] * 3


def test_one_device_is_one_address_whatever_its_spelling():
    cap = AddressCap(cap=2)
    assert cap.acquire(("::ffff:10.0.0.5", 1, 0, 0)) == "10.0.0.5"
    assert cap.acquire("10.0.0.5") == "10.0.0.5"
    assert cap.acquire(("10.0.0.5", 2)) is None
    assert address_key(("fe80::1%wlan0", 1, 0, 3)) == "fe80::1"
    assert address_key("not an address") == "not an address"


def test_the_laptop_itself_is_not_capped_but_other_loopback_addresses_are():
    cap = AddressCap(cap=1)
    assert all(cap.acquire(("127.0.0.1", p)) for p in range(100))
    assert all(cap.acquire(("::1", p, 0, 0)) for p in range(100))
    assert all(cap.acquire(("::ffff:127.0.0.1", p, 0, 0)) for p in range(100))
    assert cap.acquire(("127.0.0.2", 1)) and cap.acquire(("127.0.0.2", 2)) is None


def test_the_cap_fits_a_phone_with_two_tabs_and_a_tv():
    # 6 HTTP connections per browser (shared by its tabs) + one WebSocket per tab
    assert limits.MAX_CONNECTIONS_PER_ADDRESS >= (6 + 2) + (6 + 1)


# ----- the request guard ------------------------------------------------------------------------------


class FakeSocket:
    def __init__(self) -> None:
        self.timeout = None

    def settimeout(self, value) -> None:
        self.timeout = value


class SlowStream:
    """A request body that never arrives: the read times out."""

    def read(self, n: int = -1) -> bytes:
        raise TimeoutError("timed out")


def call(guard, method="POST", headers=None, body=b"", stream=None):
    """Run one request through ``guard``; returns (status, headers, body, inner app's environ,
    whether the connection was to be closed)."""
    environ = {"REQUEST_METHOD": method, "PATH_INFO": "/socket.io/", "QUERY_STRING": "",
               "wsgi.input": stream or io.BytesIO(body), SOCKET_KEY: FakeSocket()}
    closed = []
    environ[CLOSE_KEY] = lambda: closed.append(True)
    environ.update(headers or {})
    seen = {}
    answer = {}

    def start_response(status, response_headers, exc_info=None):
        answer["status"], answer["headers"] = status, dict(response_headers)

    body_out = b"".join(guard(environ, start_response))
    seen.update(environ)
    return int(answer["status"].split()[0]), answer["headers"], body_out, seen, bool(closed)


def inner_app(record):
    def app(environ, start_response):
        record.append(environ["wsgi.input"].read())
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"ok"]
    return app


@pytest.mark.parametrize("headers,status", [
    ({"CONTENT_LENGTH": str(64 * 1024 + 1)}, 413),
    ({"CONTENT_LENGTH": "100000000000"}, 413),
    ({"CONTENT_LENGTH": "12abc"}, 400),
    ({"CONTENT_LENGTH": "-5"}, 400),
    ({"CONTENT_LENGTH": "１２"}, 400),  # fullwidth digits are not a length
    ({}, 411),
    ({"CONTENT_LENGTH": ""}, 411),
    ({"HTTP_TRANSFER_ENCODING": "chunked"}, 411),
    ({"CONTENT_LENGTH": "10", "HTTP_TRANSFER_ENCODING": "chunked"}, 411),
])
def test_a_bad_body_is_refused_unread_and_its_connection_closed(headers, status):
    record = []
    got, hdrs, body, _, closed = call(RequestGuard(inner_app(record)), headers=headers, body=b"x" * 10)
    assert got == status and closed and record == []
    assert hdrs["Content-Length"] == str(len(body)) and body.endswith(b"\n")


def test_a_body_that_never_arrives_is_answered_408_and_one_cut_short_400():
    record = []
    guard = RequestGuard(inner_app(record))
    assert call(guard, headers={"CONTENT_LENGTH": "100"}, stream=SlowStream())[0::4] == (408, True)
    assert call(guard, headers={"CONTENT_LENGTH": "100"}, body=b"x" * 99)[0::4] == (400, True)
    assert record == []


def test_a_good_body_reaches_the_app_whole_and_a_get_needs_no_length():
    record = []
    guard = RequestGuard(inner_app(record))
    status, _, body, _, closed = call(guard, headers={"CONTENT_LENGTH": "5"}, body=b"40abc")
    assert (status, body, closed, record) == (200, b"ok", False, [b"40abc"])
    assert call(guard, method="GET")[0] == 200
    assert call(guard, headers={"CONTENT_LENGTH": "0"})[0] == 200


def test_a_websocket_gets_the_websocket_timeout():
    guard = RequestGuard(inner_app([]))
    *_, environ, _ = call(guard, method="GET", headers={"HTTP_UPGRADE": "websocket"})
    assert environ[SOCKET_KEY].timeout == limits.WEBSOCKET_TIMEOUT


def test_an_error_is_a_plain_500_without_traceback_and_a_connection_error_goes_to_the_server():
    def broken(environ, start_response):
        raise KeyError("/home/someone/partyhost/secret.py")

    status, _, body, _, closed = call(RequestGuard(broken), method="GET")
    assert status == 500 and closed
    assert b"Traceback" not in body and b".py" not in body and b"/home" not in body

    def dropped(environ, start_response):
        raise ConnectionError("the client went away")

    with pytest.raises(ConnectionError):
        call(RequestGuard(dropped), method="GET")


# ----- the rate limit where Engine.IO hands messages to Socket.IO --------------------------------------


def emit_raw(rig, client, event: str, payload) -> None:
    """Send one Socket.IO event the way a real connection does: through Engine.IO's message
    handler (the Flask-SocketIO test client skips Engine.IO, and with it the rate limit)."""
    from socketio import packet

    encoded = packet.Packet(packet.EVENT, data=[event, payload]).encode()
    rig.sio.server.eio.handlers["message"](client.client.eio_sid, encoded)


def test_a_flood_is_dropped_before_the_engine_and_answered_rate_limited_in_its_language():
    rig = Rig()
    clock = FakeClock(0.0)
    rig.app.extensions["partyhost_limiter"].clock = clock
    tv = rig.tv()
    ja = rig.phone("あき", lang="ja")
    en = rig.phone("Bo", lang="en")
    submitted = []
    real_submit = rig.engine.submit
    rig.engine.submit = lambda sid, kind, *a: (submitted.append(kind), real_submit(sid, kind, *a))[1]
    serial = ja.state["party"]["serial"]
    for phone in (ja, en):
        clock.advance(10.0)  # a full bucket
        submitted.clear()
        before = len(phone.received("result"))
        for i in range(100):
            emit_raw(rig, phone, "act", {"id": f"{phone.seat}-{i}", "game": serial, "type": "nothing"})
        rig.drain()
        results = phone.received("result")[before:]
        assert submitted == ["act"] * 30  # the burst; the other 70 never reached the engine queue
        limited = [r for r in results if r.get("code") == "rate_limited"]
        assert [r["id"] for r in results if r not in limited] == [f"{phone.seat}-{i}" for i in range(30)]
        assert len(limited) == 1 and limited[0]["id"] == f"{phone.seat}-30" and limited[0]["ok"] is False
        phone.limited = limited[0]
    assert "ゆっくり" in ja.limited["message"]
    assert "slow down" in en.limited["message"]
    # a second after its flood the bucket holds 10 again, and a drop is told again, once
    clock.advance(1.0)
    before = len(en.received("result"))
    for i in range(20):
        emit_raw(rig, en, "lang", {"id": 10_000 + i, "lang": "en"})
    rig.drain()
    fresh = en.received("result")[before:]
    assert sorted(r["id"] for r in fresh if r.get("ok")) == list(range(10_000, 10_010))
    assert [r["id"] for r in fresh if not r.get("ok")] == [10_010]
    assert tv.send("host", {"op": "choose", "game": "word_basket"})["ok"]  # the TV is untouched


@pytest.mark.parametrize("msg_id,echoed", [
    ("x" * 64, "x" * 64), ("x" * 65, None), (7, 7), (True, None), (1.5, None), ({"a": 1}, None),
])
def test_a_rate_limited_answer_echoes_only_a_plain_id(msg_id, echoed):
    rig = Rig(RATE_BURST=1)
    rig.app.extensions["partyhost_limiter"].clock = FakeClock(0.0)
    phone = rig.phone("Cy", lang="en")
    emit_raw(rig, phone, "lang", {"id": 1, "lang": "en"})  # the one token
    emit_raw(rig, phone, "lang", {"id": msg_id, "lang": "en"})
    rig.drain()
    assert [r for r in phone.received("result") if not r["ok"]] == [{
        "id": echoed, "ok": False, "code": "rate_limited",
        "message": "Too many actions at once; some were ignored. Please slow down a little"}]
