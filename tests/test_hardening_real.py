"""Issue 10 against the real server (loopback only, bounded): the NaN attack on the wire, the
laptop's TV behind ``--bind ::``, a foreign ``Host``, odd Socket.IO events, 500 pages.

Raw Socket.IO frames are written with ``websocket-client`` (python-socketio's own client refuses to
encode NaN, which is exactly what an attacker's client does not do).
"""

from __future__ import annotations

import http.client
import json
import socket
import time

import pytest
import websocket  # websocket-client, installed with python-socketio[client]

from partyhost import wire

pytestmark = pytest.mark.server


class RawSocket:
    """A Socket.IO v5 client over a raw WebSocket that writes frames verbatim and reads everything
    the server sends (answering engine.io pings)."""

    def __init__(self, port: int, auth: dict, host: str | None = None) -> None:
        headers = [f"Host: {host}"] if host else None
        self.ws = websocket.create_connection(
            f"ws://127.0.0.1:{port}/socket.io/?EIO=4&transport=websocket", timeout=5, header=headers)
        opened = self.ws.recv()
        assert opened.startswith("0{"), opened
        self.ws.send("40" + json.dumps(auth))
        self.frames: list[str] = []
        self.read_until(lambda f: f.startswith("40"), "namespace connect")

    def send_raw(self, text: str) -> None:
        self.ws.send(text)

    def read_until(self, done, what: str, timeout: float = 5.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.ws.settimeout(max(0.05, deadline - time.monotonic()))
            try:
                frame = self.ws.recv()
            except websocket.WebSocketTimeoutException:
                break
            if frame == "2":
                self.ws.send("3")
                continue
            self.frames.append(frame)
            if done(frame):
                return frame
        raise AssertionError(f"timed out waiting for {what}; got {self.frames[-5:]}")

    def events(self, name: str) -> list:
        """Every ``42[name, data]`` received so far, decoded with a *standard* JSON parser (like a
        browser's ``JSON.parse``: NaN is a syntax error there)."""
        out = []
        for frame in self.frames:
            if frame.startswith("42"):
                event = json.loads(frame[2:], parse_constant=_browser_refuses)
                if event[0] == name:
                    out.append(event[1])
        return out

    def close(self) -> None:
        self.ws.close()


def _browser_refuses(token: str):
    raise ValueError(f"a browser's JSON.parse rejects {token}")


def test_the_nan_tempo_attack_leaves_every_screen_parsing_every_state(server, sio_peer):
    srv = server(seed=21)
    tv = sio_peer(srv.url, {"role": "tv"}, "tv")
    phones = [sio_peer(srv.url, {"role": "phone"}, f"p{i}") for i in range(3)]
    for i, phone in enumerate(phones):
        assert phone.send("join", {"name": f"player{i}"})["ok"]
    assert tv.send("host", {"op": "choose", "game": "diabolo"})["ok"]
    assert tv.send("host", {"op": "start"})["ok"]
    state = tv.wait_state(lambda s: s["game"] and s["game"].get("dealer"), "a Diabolo deal")
    dealer = state["game"]["dealer"]
    token = next(p for p in phones if p.welcomes[-1]["seat"] == dealer).welcomes[-1]["token"]
    attacker = RawSocket(srv.port, {"role": "phone", "token": token})  # the dealer's own phone
    try:
        serial = state["party"]["serial"]
        for i, bad in enumerate(("NaN", "Infinity", "-Infinity", "1e999")):
            attacker.send_raw(f'42["act",{{"id":"nan{i}","game":{serial},"type":"tempo","seconds":{bad}}}]')
            answer = attacker.read_until(lambda f, i=i: f'"nan{i}"' in f, f"answer {i}")
            result = json.loads(answer[2:])[1]
            assert result["ok"] is False and result["code"] == "malformed", result
        # the loop is idle (not spinning on a NaN deadline) and play goes on
        assert phones[0].send("lang", {"lang": "en"})["ok"]
        time.sleep(0.5)
        for peer in (tv, *phones):
            wire.dumps(peer.state)
        for state in attacker.events("state"):
            wire.dumps(state)
    finally:
        attacker.close()
    # the saved party holds no NaN either: a restart would resume normally
    db = (srv.log.parent / "party.sqlite3")
    import sqlite3
    text = sqlite3.connect(str(db)).execute("SELECT data FROM snapshot").fetchone()[0]
    json.loads(text, parse_constant=_browser_refuses)


def test_with_bind_on_ipv6_any_the_laptops_own_tv_is_host(server, sio_peer):
    if not socket.has_ipv6:
        pytest.skip("no IPv6 on this machine")
    srv = server(bind="::")
    tv = sio_peer(srv.url, {"role": "tv"}, "tv")  # arrives as ::ffff:127.0.0.1
    state = tv.wait_state(lambda s: "host" in s, "a state")
    assert state["host"] is True
    assert tv.send("host", {"op": "choose", "game": "top_ten"})["ok"]


def test_a_foreign_host_header_is_refused_for_pages_and_sockets(server):
    srv = server()
    for path in ("/tv", "/", "/socket.io/?EIO=4&transport=polling"):
        conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=5)
        conn.request("GET", path, headers={"Host": f"evil.example:{srv.port}"})
        response = conn.getresponse()
        assert response.status == 403, path
        assert "QR" in response.read().decode()
        conn.close()
    with pytest.raises(websocket.WebSocketBadStatusException):
        RawSocket(srv.port, {"role": "tv"}, host=f"evil.example:{srv.port}")
    # the laptop's own names still work
    for host in (f"127.0.0.1:{srv.port}", f"localhost:{srv.port}", f"game.lan:{srv.port}",
                 f"{socket.gethostname()}:{srv.port}"):
        conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=5)
        conn.request("GET", "/healthz", headers={"Host": host})
        assert conn.getresponse().status == 200, host
        conn.close()


def test_odd_events_get_one_answer_and_one_log_line(server):
    srv = server()
    raw = RawSocket(srv.port, {"role": "phone"})
    try:
        raw.send_raw('42["lang",{"id":"a1","lang":"en"},{"second":1}]')
        raw.read_until(lambda f: '"malformed"' in f, "a malformed answer")
        raw.send_raw('42["*","disconnect"]')
        raw.read_until(lambda f: '"unknown_message"' in f, "an unknown-message answer")
        raw.send_raw('42["lang",{"id":"a2","lang":"en"}]')
        raw.read_until(lambda f: '"a2"' in f and '"ok":true' in f, "the socket still works")
    finally:
        raw.close()
    out = srv.output()
    assert "Traceback" not in out
    assert out.count("with 2 arguments") == 1


@pytest.mark.parametrize("mode", ["eventlet", "threading"])
def test_a_refused_host_also_loses_its_connection_at_once(server, mode):
    """A 403 for a foreign Host closes the connection instead of leaving it to the idle timeout
    (each one would hold a connection slot for seconds)."""
    srv = server(mode=mode)
    with socket.create_connection(("127.0.0.1", srv.port), timeout=3) as raw:
        raw.sendall(f"GET /tv HTTP/1.1\r\nHost: evil.example:{srv.port}\r\n\r\n".encode())
        started = time.monotonic()
        received = b""
        while True:
            chunk = raw.recv(4096)  # raises socket.timeout if the server keeps it open
            if not chunk:
                break
            received += chunk
        assert received.startswith(b"HTTP/1.1 403")
        assert time.monotonic() - started < 2.0
