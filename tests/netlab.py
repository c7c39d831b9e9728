"""A network lab for the tests: a host and phones in their own network namespaces, each phone
behind a link with delay, jitter, loss and outages that can change while the test runs.

ネットワーク実験室: ホストとスマホをそれぞれ別のネットワーク名前空間に置き、遅延・揺らぎ・
損失・断線を持つリンクでつなぐ(テスト中に変更可)。

Shape::

    with Lab() as lab:
        url = lab.start_host(args=["--seed", "3"])       # http://10.77.0.1:8765
        p = lab.phone("p1", delay_ms=80, jitter_ms=20, loss=0.0)
        p.run(["python", "-c", "..."])                     # a process inside the phone's namespace
        with p.inside():                                   # or this thread (and the threads it
            client = socketio.Client(); client.connect(url) #  starts) inside it
        p.set_link(loss=0.05); p.set_link(down=True)       # live

Topology: namespace ``H`` holds the host on ``10.77.0.1`` (on its ``lo``) and one TUN device per
phone; phone ``N``'s namespace holds one TUN device with ``10.77.N.2`` routed to ``10.77.0.0/24``.
No addresses outside these namespaces are touched.

Why not netem: the kernel this runs on has no ``sch_netem`` ("Specified qdisc kind is unknown";
tbf/htb/pfifo exist), and a test must not depend on a kernel module CI may lack. So the link is
emulated in user space at the packet level: a forwarder thread reads each IP packet from one TUN
device and writes it to the other after ``delay ± jitter`` (uniform; in order unless
``keep_order=False``), drops it with probability ``loss``, drops everything while ``down``. These
are real IP packets through the kernel's TCP stack: TCP really retransmits under loss, and a
connection really stalls during an outage.

The namespaces (``netlab<pid>-...``) are removed on exit, also after a failure; namespaces left by a
process that was killed (its pid gone) are removed by the next :class:`Lab`.

Needs root, ``ip netns`` and ``/dev/net/tun``: :func:`unavailable` says why not, for a skip.
"""
from __future__ import annotations

import atexit
import contextlib
import ctypes
import fcntl
import heapq
import itertools
import json
import os
import random
import select
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any, Iterator

REPO = Path(__file__).resolve().parent.parent
HOST_ADDRESS = "10.77.0.1"
CLONE_NEWNET = 0x40000000
TUNSETIFF = 0x400454CA
IFF_TUN, IFF_NO_PI = 0x0001, 0x1000
_PREFIX = "netlab"
_libc = ctypes.CDLL(None, use_errno=True)


def unavailable() -> str | None:
    """None when the lab can run here, else the reason (not root, no ``ip``, no netns, no TUN)."""
    if os.geteuid() != 0:
        return "the network lab needs root (network namespaces and TUN devices)"
    if shutil.which("ip") is None:
        return "the network lab needs iproute2's `ip`"
    if not os.path.exists("/dev/net/tun"):
        return "the network lab needs /dev/net/tun"
    name = f"{_PREFIX}{os.getpid()}-probe"
    made = subprocess.run(["ip", "netns", "add", name], capture_output=True, text=True)
    if made.returncode != 0:
        return f"`ip netns add` fails here: {made.stderr.strip()}"
    try:
        with _in_netns(name):
            os.close(_open_tun("probe0"))
    except OSError as error:
        return f"no TUN device inside a network namespace: {error}"
    finally:
        subprocess.run(["ip", "netns", "del", name], capture_output=True)
    return None


def _setns(fd: int) -> None:
    if _libc.setns(fd, CLONE_NEWNET) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"setns: {os.strerror(err)}")


@contextlib.contextmanager
def _in_netns(name: str) -> Iterator[None]:
    """This thread inside network namespace ``name`` (threads started meanwhile stay in it)."""
    back = os.open("/proc/thread-self/ns/net", os.O_RDONLY)
    target = os.open(f"/run/netns/{name}", os.O_RDONLY)
    try:
        _setns(target)
        try:
            yield
        finally:
            _setns(back)
    finally:
        os.close(target)
        os.close(back)


def _open_tun(ifname: str) -> int:
    """A TUN device ``ifname`` (no packet info header) in this thread's namespace; its fd."""
    fd = os.open("/dev/net/tun", os.O_RDWR)
    try:
        fcntl.ioctl(fd, TUNSETIFF, struct.pack("16sH", ifname.encode(), IFF_TUN | IFF_NO_PI))
    except OSError:
        os.close(fd)
        raise
    return fd


def _ip(*args: str) -> None:
    done = subprocess.run(["ip", *args], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"ip {' '.join(args)}: {done.stderr.strip()}")


def _reap_stale() -> None:
    """Remove namespaces of earlier labs whose process is gone (killed before its cleanup)."""
    listed = subprocess.run(["ip", "-j", "netns", "list"], capture_output=True, text=True)
    try:
        names = [n["name"] for n in json.loads(listed.stdout or "[]")]
    except ValueError:
        return
    for name in names:
        pid = name[len(_PREFIX):].split("-", 1)[0]
        if name.startswith(_PREFIX) and pid.isdigit() and not os.path.exists(f"/proc/{pid}"):
            _kill_netns_pids(name)
            subprocess.run(["ip", "netns", "del", name], capture_output=True)


def _kill_netns_pids(name: str) -> None:
    pids = subprocess.run(["ip", "netns", "pids", name], capture_output=True, text=True).stdout.split()
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, ValueError):
            os.kill(int(pid), 9)


class Link:
    """The emulated link between one phone and the host: two TUN fds and a forwarder thread.

    ``trace``: set it to a list to record every packet (see :func:`describe`).

    Settings (:meth:`set`): ``delay_ms`` one-way delay, ``jitter_ms`` (uniform ±, so a packet
    takes ``delay ± jitter`` each way), ``loss`` (0–1, each packet each way), ``down`` (drop
    everything), ``keep_order`` (a packet never overtakes the one before it, as on one Wi-Fi
    station queue). Counters: ``passed``, ``dropped`` (packets).
    """

    def __init__(self, host_fd: int, phone_fd: int, seed: int) -> None:
        self.fds = (host_fd, phone_fd)
        self.delay_ms, self.jitter_ms, self.loss = 0.0, 0.0, 0.0
        self.down, self.keep_order = False, True
        self.passed = self.dropped = 0
        self.trace: list | None = None  # a list: each packet's (monotonic time, to phone?, packet, dropped)
        self._rng = random.Random(seed)
        self._lock = threading.Lock()
        self._queue: list[tuple[float, int, int, bytes]] = []  # (due, seq, out fd, packet)
        self._last_due = {host_fd: 0.0, phone_fd: 0.0}
        self._seq = itertools.count()
        self._stop_r, self._stop_w = os.pipe()
        self._thread = threading.Thread(target=self._run, daemon=True, name="netlab-link")
        self._thread.start()

    def set(self, **settings: Any) -> None:
        unknown = set(settings) - {"delay_ms", "jitter_ms", "loss", "down", "keep_order"}
        if unknown:
            raise TypeError(f"unknown link settings: {sorted(unknown)}")
        if not 0.0 <= float(settings.get("loss", self.loss)) <= 1.0:
            raise ValueError("loss is a probability, 0–1")
        with self._lock:
            for key, value in settings.items():
                setattr(self, key, value)

    def _admit(self, packet: bytes, out_fd: int, now: float) -> None:
        with self._lock:
            drop = self.down or bool(self.loss and self._rng.random() < self.loss)
            if self.trace is not None:
                self.trace.append((now, out_fd == self.fds[1], packet[:64], drop))
            if drop:
                self.dropped += 1
                return
            delay = self.delay_ms + (self._rng.uniform(-self.jitter_ms, self.jitter_ms) if self.jitter_ms else 0.0)
            due = now + max(0.0, delay) / 1000.0
            if self.keep_order:
                due = max(due, self._last_due[out_fd])
            self._last_due[out_fd] = due
            self.passed += 1
            heapq.heappush(self._queue, (due, next(self._seq), out_fd, packet))

    def _run(self) -> None:
        host_fd, phone_fd = self.fds
        other = {host_fd: phone_fd, phone_fd: host_fd}
        watched = [host_fd, phone_fd, self._stop_r]
        while True:
            now = time.monotonic()
            while self._queue and self._queue[0][0] <= now:
                _, _, out_fd, packet = heapq.heappop(self._queue)
                with contextlib.suppress(OSError):
                    os.write(out_fd, packet)
            timeout = max(0.0, self._queue[0][0] - now) if self._queue else 0.5
            try:
                ready, _, _ = select.select(watched, [], [], timeout)
            except (OSError, ValueError):
                return
            if self._stop_r in ready:
                return
            now = time.monotonic()
            for fd in ready:
                try:
                    packet = os.read(fd, 65536)
                except OSError:
                    return
                self._admit(packet, other[fd], now)

    def close(self) -> None:
        os.write(self._stop_w, b"x")
        self._thread.join(timeout=2)
        for fd in (*self.fds, self._stop_r, self._stop_w):
            with contextlib.suppress(OSError):
                os.close(fd)


def describe(packet: bytes) -> str:
    """One line for an IPv4 packet's start: ``TCP 10.77.1.2:41000>10.77.0.1:8765 SA len=60``."""
    if len(packet) < 20 or packet[0] >> 4 != 4:
        return f"non-IPv4 len={len(packet)}"
    ihl = (packet[0] & 0xF) * 4
    src, dst = ".".join(map(str, packet[12:16])), ".".join(map(str, packet[16:20]))
    total = int.from_bytes(packet[2:4], "big")
    if packet[9] == 6 and len(packet) >= ihl + 14:
        sport, dport = int.from_bytes(packet[ihl:ihl + 2], "big"), int.from_bytes(packet[ihl + 2:ihl + 4], "big")
        flags = "".join(f for bit, f in zip((1, 2, 4, 8, 16), "FSRPA") if packet[ihl + 13] & bit)
        return f"TCP {src}:{sport}>{dst}:{dport} {flags} len={total}"
    return f"proto={packet[9]} {src}>{dst} len={total}"


class Phone:
    """A phone's namespace ``netns`` with address ``address``, linked to the host by ``link``."""

    def __init__(self, lab: "Lab", name: str, netns: str, address: str, link: Link) -> None:
        self.lab, self.name, self.netns, self.address, self.link = lab, name, netns, address, link

    def set_link(self, **settings: Any) -> None:
        """Change the link now: ``delay_ms``, ``jitter_ms``, ``loss``, ``down``, ``keep_order``."""
        self.link.set(**settings)

    def command(self, argv: list[str]) -> list[str]:
        """``argv`` wrapped to run inside this phone's namespace."""
        return ["ip", "netns", "exec", self.netns, *argv]

    def popen(self, argv: list[str], **kwargs: Any) -> subprocess.Popen:
        """Start ``argv`` inside this phone's namespace (killed when the lab closes)."""
        proc = subprocess.Popen(self.command(argv), **kwargs)
        self.lab._procs.append(proc)
        return proc

    def run(self, argv: list[str], **kwargs: Any) -> subprocess.CompletedProcess:
        """Run ``argv`` inside this phone's namespace to its end (``subprocess.run`` options)."""
        return subprocess.run(self.command(argv), **kwargs)

    def inside(self) -> contextlib.AbstractContextManager:
        """This thread inside the phone's namespace for the ``with`` block: sockets opened and
        threads started meanwhile belong to it for good (a Socket.IO client connected here
        keeps reconnecting from here)."""
        return _in_netns(self.netns)


class Lab:
    """Network namespaces for one test: the host's and one per phone (see the module docstring).

    Raises:
        RuntimeError: an ``ip`` command failed, or the host did not come up.
    """

    def __init__(self, seed: int = 1) -> None:
        self.seed = seed
        self.tag = f"{_PREFIX}{os.getpid()}-{os.urandom(3).hex()}"
        self.host_ns = f"{self.tag}-h"
        self.phones: dict[str, Phone] = {}
        self._procs: list[subprocess.Popen] = []
        self._namespaces: list[str] = []
        self._tmp = tempfile.TemporaryDirectory(prefix="netlab-")
        self.host: subprocess.Popen | None = None
        self.host_log = Path(self._tmp.name) / "host.log"
        self.url: str | None = None

    def __enter__(self) -> "Lab":
        _reap_stale()
        atexit.register(self.close)  # a test run stopped mid-test (SIGTERM, Ctrl+C) still cleans up
        try:
            self._add_netns(self.host_ns)
            _ip("-n", self.host_ns, "addr", "add", f"{HOST_ADDRESS}/32", "dev", "lo")
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _add_netns(self, name: str) -> None:
        _ip("netns", "add", name)
        self._namespaces.append(name)
        _ip("-n", name, "link", "set", "lo", "up")

    def in_host(self) -> contextlib.AbstractContextManager:
        """This thread inside the host's namespace (the laptop itself: its TV page)."""
        return _in_netns(self.host_ns)

    def host_command(self, argv: list[str]) -> list[str]:
        return ["ip", "netns", "exec", self.host_ns, *argv]

    def phone(self, name: str, delay_ms: float = 0.0, jitter_ms: float = 0.0, loss: float = 0.0,
              down: bool = False, keep_order: bool = True) -> Phone:
        """A new phone namespace linked to the host with these link settings (see :class:`Link`)."""
        n = len(self.phones) + 1
        if n > 250:
            raise ValueError("at most 250 phones")
        netns = f"{self.tag}-{n}"
        address = f"10.77.{n}.2"
        self._add_netns(netns)
        host_if = f"ph{n}"
        with _in_netns(self.host_ns):
            host_fd = _open_tun(host_if)
        with _in_netns(netns):
            phone_fd = _open_tun("wlan0")
        link = Link(host_fd, phone_fd, seed=self.seed * 1000 + n)
        link.set(delay_ms=delay_ms, jitter_ms=jitter_ms, loss=loss, down=down, keep_order=keep_order)
        _ip("-n", self.host_ns, "link", "set", host_if, "up")
        _ip("-n", self.host_ns, "route", "add", f"{address}/32", "dev", host_if, "src", HOST_ADDRESS)
        _ip("-n", netns, "addr", "add", f"{address}/32", "dev", "wlan0")
        _ip("-n", netns, "link", "set", "wlan0", "up")
        _ip("-n", netns, "route", "add", "10.77.0.0/24", "dev", "wlan0", "src", address)
        phone = Phone(self, name, netns, address, link)
        self.phones[name] = phone
        return phone

    def start_host(self, args: list[str] = (), port: int = 8765, timeout: float = 30.0) -> str:
        """Run ``python -m partyhost --no-browser --bind 10.77.0.1 --data <tmp>`` (plus ``args``)
        inside the host's namespace and wait for ``/healthz``. Returns the phones' URL."""
        data = Path(self._tmp.name) / "data"
        data.mkdir(exist_ok=True)
        argv = [sys.executable, "-m", "partyhost", "--no-browser", "--bind", HOST_ADDRESS,
                "--port", str(port), "--data", str(data), *args]
        env = dict(os.environ, PYTHONUNBUFFERED="1",
                   PYTHONPATH=os.pathsep.join([str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])]))
        log = open(self.host_log, "wb")  # noqa: SIM115 - the child holds it; closed with the lab
        self._host_log_file = log
        self.host = subprocess.Popen(self.host_command(argv), cwd=str(REPO), env=env, stdout=log,
                                     stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        self._procs.append(self.host)
        self.url = f"http://{HOST_ADDRESS}:{port}"
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.host.poll() is not None:
                raise RuntimeError(f"the host exited with {self.host.returncode}:\n{self.host_output()}")
            try:
                with self.in_host(), urllib.request.urlopen(self.url + "/healthz", timeout=1) as resp:
                    json.loads(resp.read())
                    return self.url
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"the host did not answer /healthz in {timeout:.0f} s:\n{self.host_output()}")

    def host_output(self) -> str:
        try:
            return self.host_log.read_text(errors="replace")
        except OSError:
            return ""

    def close(self) -> None:
        """Close every peer still open (a test that failed half-way would leave a phone
        reconnecting for the rest of the run: python-socketio draws each retry's jitter from the
        global ``random``, which Hypothesis's tests check is untouched while they draw), stop
        every process, the links, and remove the namespaces (safe to call twice)."""
        for peer in list(_OPEN_PEERS):
            peer.close()
        for proc in self._procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in self._procs:
            try:
                proc.wait(timeout=3)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=3)
        self._procs.clear()
        for phone in self.phones.values():
            phone.link.close()
        self.phones.clear()
        for name in reversed(self._namespaces):
            _kill_netns_pids(name)
            subprocess.run(["ip", "netns", "del", name], capture_output=True)
        self._namespaces.clear()
        if getattr(self, "_host_log_file", None):
            self._host_log_file.close()
        self._tmp.cleanup()
        atexit.unregister(self.close)


_OPEN_PEERS: set["Peer"] = set()  # closed by Lab.close


class Peer:
    """A Socket.IO client (a phone or a TV page without a browser) that records what it gets and
    reconnects as the page does (:data:`partyhost.pyclient.RECONNECT`). Create it inside a
    namespace (``with phone.inside(): Peer(...)``): its connection and every reconnection then
    go over that phone's link.

    ``welcomes``/``states`` (held parts filled in, :func:`partyhost.pyclient.keep_held`)/
    ``results`` (by id)/``connects`` and ``disconnects`` (monotonic times) are appended in
    arrival order under ``cond``. ``transports``: WebSocket only by default, as the tests'
    other Python peers (``tests/conftest.py``); ``None`` starts with long-polling and upgrades
    as a browser does (0.3–0.5 s more per connection at 80 ms one-way: the upgrade's round
    trips).
    """

    def __init__(self, url: str, auth: dict, label: str, *, reconnection: bool = True,
                 transports: list[str] | None = ("websocket",), timeout: float = 15.0) -> None:
        import socketio

        from partyhost.pyclient import closes_dead_sockets, in_order, keep_held, phone_client

        self.label, self.auth, self.timeout = label, dict(auth), timeout
        self.cond = threading.Condition()
        self.welcomes: list[dict] = []
        self.states: list[dict] = []
        self.results: dict[Any, dict] = {}
        self.connects: list[float] = []
        self.disconnects: list[float] = []
        self._ids = itertools.count(1)
        self.sio = phone_client() if reconnection else closes_dead_sockets(in_order(socketio.Client(reconnection=False)))
        _OPEN_PEERS.add(self)

        def record(name: str):
            def handler(data: Any = None) -> None:
                with self.cond:
                    if name == "welcome":
                        self.welcomes.append(data)
                        if data.get("token"):
                            self.auth["token"] = data["token"]  # as the page stores it
                    elif name == "state":
                        self.states.append(keep_held(data, self.states[-1] if self.states else None))
                    elif name == "result":
                        self.results[data.get("id")] = data
                    self.cond.notify_all()
            return handler

        for name in ("welcome", "state", "result"):
            self.sio.on(name, record(name))

        def connected() -> None:
            with self.cond:
                self.connects.append(time.monotonic())
                self.cond.notify_all()

        def disconnected(*_: Any) -> None:
            with self.cond:
                self.disconnects.append(time.monotonic())
                self.cond.notify_all()

        self.sio.on("connect", connected)
        self.sio.on("disconnect", disconnected)
        # the auth callable is read at every (re)connect: the stored token, as app.js does
        self.sio.connect(url, auth=lambda: dict(self.auth), transports=list(transports) if transports else None,
                         wait_timeout=timeout)

    @property
    def state(self) -> dict:
        with self.cond:
            return self.states[-1]

    def wait(self, predicate: Any, what: str, timeout: float | None = None) -> Any:
        """Wait until ``predicate()`` is truthy (called under the lock); return its value."""
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
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
                    raise AssertionError(f"{self.label}: timed out waiting for {what}; "
                                         f"last state: {self.states[-1] if self.states else None!r}")
                self.cond.wait(left)

    def wait_state(self, predicate: Any, what: str, timeout: float | None = None) -> dict:
        return self.wait(lambda: self.states and predicate(self.states[-1]) and self.states[-1], what, timeout)

    def emit(self, event: str, payload: dict, msg_id: str | None = None) -> str:
        """Send ``event`` with id ``msg_id`` (a fresh one by default); returns the id."""
        msg_id = msg_id or f"{self.label}-{next(self._ids)}"
        self.sio.emit(event, {"id": msg_id, **payload})
        return msg_id

    def send(self, event: str, payload: dict, timeout: float | None = None) -> dict:
        """Emit ``event`` and wait for its ``result``."""
        msg_id = self.emit(event, payload)
        return self.wait(lambda: self.results.get(msg_id), f"result of {event} {payload}", timeout)

    def act(self, **action: Any) -> dict:
        return self.send("act", {"game": self.state["party"]["serial"], **action})

    def close(self) -> None:
        """Disconnect and stop reconnecting (safe to call twice; the lab calls it for every peer
        still open when it closes)."""
        _OPEN_PEERS.discard(self)
        with contextlib.suppress(Exception):
            self.sio.disconnect()
