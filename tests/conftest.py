"""Shared fixtures: the real partyhost server in a subprocess, and Debian's Chromium via Playwright.

* ``server`` — a factory: ``srv = server(mode="eventlet", seed=7)`` starts
  ``python -m partyhost`` on a free loopback port and waits for ``GET /healthz``. Every server it
  started is stopped (terminate, then kill) at teardown. When a test fails, each server's output is
  attached to the failure report (section "partyhost server …").
* ``sio_peer`` — a factory of python-socketio clients (:class:`SioPeer`) that record every
  ``welcome``/``state``/``result`` and wait on them; closed at teardown after the servers stop.
* ``pw`` / ``browser`` — one Playwright and one headless Chromium (``/usr/bin/chromium``, never a
  downloaded browser) for the whole session. A missing Chromium skips locally and *fails* in CI
  (env ``CI`` set), so a broken install never passes silently.
"""

from __future__ import annotations

import itertools
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Callable

import pytest

from partyhost.pyclient import closes_dead_sockets, in_order, keep_held

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic",
    # A LAN-like name for the phones: http://game.lan:PORT/ is not a secure context.
    "--host-resolver-rules=MAP game.lan 127.0.0.1",
]
LAN_HOST = "game.lan"
STARTUP_TIMEOUT = 20.0


# --- never the real user data folder ----------------------------------------------------------


@pytest.fixture(scope="session", autouse=True)
def _isolated_user_data(tmp_path_factory):
    """Every host a test starts without ``--data`` (in process or as ``python -m partyhost``,
    which inherits the environment) uses a temporary folder, never this user's real data folder
    (``partyhost.cli.default_data``): ``PARTYHOST_DATA`` and, for code that asks platformdirs,
    ``XDG_DATA_HOME`` point into the session's temporary directory."""
    root = tmp_path_factory.mktemp("user-data")
    saved = {k: os.environ.get(k) for k in ("PARTYHOST_DATA", "XDG_DATA_HOME")}
    os.environ["PARTYHOST_DATA"] = str(root / "partyhost")
    os.environ["XDG_DATA_HOME"] = str(root / "xdg")
    yield
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


# --- no Socket.IO client outlives its test -------------------------------------------------------


def _reconnecting_clients() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.is_alive() and t.name.endswith("(_handle_reconnect)")]


@pytest.fixture(autouse=True)
def _no_client_left_reconnecting():
    """Fail the test that leaves a python-socketio client reconnecting after it ends. Such a
    client retries for the rest of the run and draws each retry's jitter from the global
    ``random``; Hypothesis checks that the global ``random`` is untouched while a test draws
    and fails whichever property test is running then (seen in CI: two property tests failed,
    at 90 % and 98 %, after a network-lab test left its phones reconnecting)."""
    before = set(_reconnecting_clients())
    yield
    deadline = time.monotonic() + 2.0
    while (left := [t for t in _reconnecting_clients() if t not in before]) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not left, f"Socket.IO clients still reconnecting after the test: {[t.name for t in left]} (close them)"


# --- the real server -----------------------------------------------------------------------------


def free_port() -> int:
    """A TCP port that was free on 127.0.0.1 a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServerProcess:
    """One ``python -m partyhost`` subprocess on 127.0.0.1.

    Attributes: ``port``, ``mode``, ``seed``, ``url`` (``http://127.0.0.1:PORT``, the laptop's own
    origin: its ``/tv`` page has host powers), ``lan_url`` (``http://game.lan:PORT``, the phones'
    LAN-like origin in the browser tests), ``log`` (the file holding stdout and stderr; by default
    ``<data_dir>/server.log``), ``data_dir``.
    ``fresh=False`` resumes what ``data_dir`` holds (a restart).
    """

    def __init__(self, mode: str, seed: int, data_dir: Path, bind: str = "127.0.0.1",
                 extra_args: tuple[str, ...] = (), *, fresh: bool = True, log: Path | None = None,
                 rate_limited: bool = False) -> None:
        self.mode = mode
        self.seed = seed
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.lan_url = f"http://{LAN_HOST}:{self.port}"
        data_dir.mkdir(parents=True, exist_ok=True)
        self.data_dir = data_dir
        self.log = log or data_dir / "server.log"
        self._log_file = open(self.log, "wb")  # noqa: SIM115 - closed in stop()
        cmd = [
            sys.executable, "-m", "partyhost",
            "--port", str(self.port), "--bind", bind, "--no-browser", *(["--fresh"] if fresh else []),
            "--data", str(data_dir), "--seed", str(seed), "--async-mode", mode,
            "--allow-host", LAN_HOST, *extra_args,
        ]  # fmt: skip
        if "--doctor-after" not in extra_args:
            # The join doctor covers the lobby when nobody has joined for a while: off for tests
            # that do not ask for it (a TV waiting in an empty lobby is what many of them shoot).
            cmd += ["--doctor-after", "0"]
        if not rate_limited:
            # Scripted clients play at machine speed, far above a finger (a dealer turning a
            # whole deck in a loop): the per-socket rate limit would drop their actions. It is
            # on (the user's default) where a test asks for it: test_attacks_real.py.
            cmd += ["--rate-limit", "0"]
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen(
            cmd, stdout=self._log_file, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env,
            cwd=str(Path(__file__).resolve().parent.parent),
        )

    def output(self) -> str:
        try:
            return self.log.read_text(encoding="utf-8", errors="replace")
        except OSError as e:  # pragma: no cover
            return f"(no output: {e})"

    def wait_ready(self, timeout: float = STARTUP_TIMEOUT) -> dict:
        """Poll ``/healthz`` until it answers; returns its JSON. Raises with the output on failure."""
        import json

        deadline = time.monotonic() + timeout
        last_error: Exception | None = None
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(
                    f"partyhost ({self.mode}) exited with {self.proc.returncode} before it was up:\n"
                    + self.output()
                )
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=1.0) as resp:
                    return json.loads(resp.read().decode())
            except (urllib.error.URLError, OSError, ValueError) as e:
                last_error = e
                time.sleep(0.05)
        raise RuntimeError(
            f"partyhost ({self.mode}) did not answer /healthz within {timeout:.0f} s "
            f"(last error: {last_error!r}):\n" + self.output()
        )

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)
        self._log_file.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Attach the output of every server a failed test started to its report."""
    outcome = yield
    report = outcome.get_result()
    if report.failed:
        for srv in getattr(item, "_partyhost_servers", []):
            report.sections.append(
                (f"partyhost server ({srv.mode}, port {srv.port}, seed {srv.seed})", srv.output() or "(empty)")
            )


@pytest.fixture
def server(request, tmp_path):
    """Factory: ``server(mode="eventlet"|"threading", seed=1, bind="127.0.0.1", extra_args=())
    -> ServerProcess`` (already up).

    ``data=<folder>`` runs it on that data folder (shared by several servers of a test, its log then
    goes beside it), ``fresh=False`` resumes the party saved there. ``rate_limited=True`` keeps the
    per-socket rate limit on (off by default: scripted play is faster than a finger).
    """
    started: list[ServerProcess] = []
    request.node._partyhost_servers = started

    def start(mode: str = "eventlet", seed: int = 1, bind: str = "127.0.0.1",
              extra_args: tuple[str, ...] = (), data: Path | None = None, fresh: bool = True,
              rate_limited: bool = False) -> ServerProcess:
        name = f"server-{len(started)}-{mode}"
        if data is None:
            srv = ServerProcess(mode, seed, tmp_path / name, bind, extra_args, fresh=fresh,
                                rate_limited=rate_limited)
        else:
            srv = ServerProcess(mode, seed, data, bind, extra_args, fresh=fresh, log=tmp_path / f"{name}.log",
                                rate_limited=rate_limited)
        started.append(srv)
        try:
            srv.wait_ready()
        except RuntimeError as e:
            pytest.fail(str(e), pytrace=False)
        return srv

    yield start
    for srv in started:
        srv.stop()


# --- python-socketio clients (phones and TV pages without a browser) ----------------------------

SIO_TIMEOUT = 10.0
_ids = itertools.count(1)


class SioPeer:
    """One Socket.IO client (a TV page or a phone) recording what the server sends it."""

    def __init__(self, url: str, auth: dict, label: str, source: str | None = None) -> None:
        self.label = label
        self.cond = threading.Condition()
        self.welcomes: list[dict] = []
        self.states: list[dict] = []
        self.results: dict[Any, dict] = {}
        self.events: list[str] = []
        import socketio  # python-socketio[client]: imported here so conftest loads without it

        options: dict[str, Any] = {}
        if source is not None:
            # Another device: the client's TCP connection comes from this loopback address
            # (127.0.0.2, 127.0.0.3 …), which the server counts apart from 127.0.0.1.
            host, port = url.split("//", 1)[1].rsplit(":", 1)
            sock = socket.create_connection((host, int(port)), timeout=SIO_TIMEOUT,
                                            source_address=(source, 0))
            options["websocket_extra_options"] = {"socket": sock}
        self._sock = sock if source is not None else None
        # in arrival order, as a browser handles them (python-socketio starts a thread per message)
        self.sio = closes_dead_sockets(in_order(socketio.Client(reconnection=False, **options)))
        for name in ("welcome", "state", "result", "kicked"):
            self.sio.on(name, self._recorder(name))
        self.sio.connect(url, auth=auth, transports=["websocket"], wait_timeout=SIO_TIMEOUT)

    def _recorder(self, name: str) -> Callable[[Any], None]:
        def record(data: Any = None) -> None:
            with self.cond:
                self.events.append(name)
                if name == "welcome":
                    self.welcomes.append(data)
                elif name == "state":  # the roster and catalogue kept, as the page keeps them
                    self.states.append(keep_held(data, self.states[-1] if self.states else None))
                elif name == "result":
                    self.results[data.get("id")] = data
                self.cond.notify_all()

        return record

    @property
    def state(self) -> dict:
        with self.cond:
            assert self.states, f"{self.label}: no state yet"
            return self.states[-1]

    def wait(self, predicate: Callable[[], Any], what: str, timeout: float = SIO_TIMEOUT) -> Any:
        """Wait until ``predicate()`` is truthy (called under the lock); return its value."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                try:
                    value = predicate()
                except (IndexError, KeyError, TypeError):
                    value = None
                if value:
                    return value
                left = deadline - time.monotonic()
                if left <= 0:
                    last = self.states[-1] if self.states else None
                    raise AssertionError(f"{self.label}: timed out waiting for {what}; last state: {last!r}")
                self.cond.wait(left)

    def wait_state(self, predicate: Callable[[dict], Any], what: str) -> dict:
        """Wait for a ``state`` for which ``predicate(state)`` holds; return that state."""
        return self.wait(lambda: self.states and predicate(self.states[-1]) and self.states[-1], what)

    def send(self, event: str, payload: dict) -> dict:
        """Emit ``event`` with a fresh id and return the server's ``result`` for it."""
        msg_id = f"{self.label}-{next(_ids)}"
        self.sio.emit(event, {"id": msg_id, **payload})
        return self.wait(lambda: self.results.get(msg_id), f"result of {event} {payload}")

    def act(self, **action: Any) -> dict:
        return self.send("act", {"game": self.state["party"]["serial"], **action})

    def close(self) -> None:
        if self.sio.connected:
            self.sio.disconnect()
        if self._sock is not None:
            self._sock.close()  # websocket-client may have closed it already: harmless


@pytest.fixture
def sio_peer(request, server):
    """Factory: ``sio_peer(url, auth, label, source=None) -> SioPeer`` (connected over WebSocket;
    ``source`` is the loopback address the client connects from, e.g. ``"127.0.0.2"``).

    At teardown the test's servers are stopped *before* the clients close: a client of a stopped
    server closes at once, while a clean disconnect from a threading-mode server takes ~3 s.
    """
    peers: list[SioPeer] = []

    def make(url: str, auth: dict, label: str, source: str | None = None) -> SioPeer:
        peer = SioPeer(url, auth, label, source)
        peers.append(peer)
        return peer

    yield make
    for srv in getattr(request.node, "_partyhost_servers", []):
        srv.stop()
    for peer in peers:
        peer.close()


# --- the browser ---------------------------------------------------------------------------------


def _missing(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI is set: a missing browser must not pass silently)", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def pw():
    """The session's Playwright (sync API); ``pw.devices`` holds the phone presets."""
    if not Path(CHROMIUM).exists():
        _missing(f"{CHROMIUM} is missing: `make chromium` installs Debian's package")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("the playwright Python package is missing: `make install-test`")
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(pw):
    """Debian's headless Chromium, launched once per session."""
    b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
    yield b
    b.close()
