"""The connection limits in-process: the per-address count and the request guard (no sockets,
no timing).

The same limits against the real server, in both async modes: ``test_attacks_real.py``.
"""

from __future__ import annotations

import io

import pytest

from partyhost import limits
from partyhost.limits import AddressCap, address_key
from partyhost.serving import CLOSE_KEY, SOCKET_KEY, RequestGuard



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
