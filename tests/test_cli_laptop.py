"""The host command on any laptop (issue 25): real ``python -m partyhost`` runs.

* eventlet that cannot be imported or cannot patch: the host starts in threading mode and says
  so in one line; asked for by name, it stops with the reason instead.
* A console with a legacy code page (cp1252, cp932) and stdout a pipe: the host starts, prints
  the join URL and raises nothing.
* No ``fcntl`` (as on Windows): the data folder is still locked, a second host on it is refused
  clearly, and a host killed with ``kill -9`` leaves no lock that blocks the restart.
* ``--version``; ``--port 99999`` is a one-line error with exit status 2; an address this laptop
  lacks (``--bind 10.9.9.9``) gets the right hint, a port in use keeps its own.
* Without ``--data`` the party lives in the user's data folder (platformdirs), not in ``./data``.
"""

from __future__ import annotations

import errno
import json
import os
import re
import socket
import subprocess
import sys
import textwrap
import threading
import time
import urllib.error
import urllib.request
from importlib.metadata import version as dist_version
from pathlib import Path

import pytest

from partyhost import cli

from .conftest import STARTUP_TIMEOUT, free_port

ROOT = Path(__file__).resolve().parent.parent
BUSY = "in use by another partyhost"
FALLBACK = "starting in threading mode"


def host_env(**extra: str | None) -> dict:
    """The environment of a host started here: this worktree's code first on ``sys.path``, no
    async mode asked for by name; ``extra`` adds (or, with None, removes) variables."""
    env = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONPATH=str(ROOT))
    for key in ("PARTYHOST_ASYNC_MODE", "GAME_ASYNC_MODE", "PYTHONIOENCODING"):
        env.pop(key, None)
    for key, value in extra.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


class Host:
    """One host process with stdout and stderr read from a pipe (as bytes, by a thread)."""

    def __init__(self, args: list[str], env: dict, cwd: Path = ROOT, prefix: list[str] | None = None):
        self.port = free_port()
        cmd = [sys.executable, *(prefix or ["-m", "partyhost"]), "--port", str(self.port),
               "--no-browser", *args]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, env=env, cwd=str(cwd))
        self.chunks: list[bytes] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.chunks.append(line)

    def output(self, encoding: str = "utf-8") -> str:
        return b"".join(self.chunks).decode(encoding, errors="replace")

    def wait_ready(self) -> dict:
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                self._reader.join(5)
                pytest.fail(f"the host exited with {self.proc.returncode}:\n{self.output()}", pytrace=False)
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=1) as r:
                    return json.loads(r.read().decode())
            except (urllib.error.URLError, OSError, ValueError):
                time.sleep(0.05)
        pytest.fail(f"the host did not answer within {STARTUP_TIMEOUT} s:\n{self.output()}", pytrace=False)

    def wait_output(self, text: str, encoding: str = "utf-8", timeout: float = 5.0) -> str:
        deadline = time.monotonic() + timeout
        while text not in self.output(encoding):
            assert time.monotonic() < deadline, f"{text!r} never printed:\n{self.output(encoding)}"
            time.sleep(0.05)
        return self.output(encoding)

    def stop(self, kill: bool = False) -> None:
        if self.proc.poll() is None:
            self.proc.kill() if kill else self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)
        self._reader.join(5)
        self.proc.stdout.close()


@pytest.fixture
def hosts():
    started: list[Host] = []

    def start(*args, **kwargs) -> Host:
        host = Host(*args, **kwargs)
        started.append(host)
        return host

    yield start
    for host in started:
        host.stop()


def run_once(args: list[str], env: dict | None = None, prefix: list[str] | None = None,
             timeout: float = 30) -> subprocess.CompletedProcess:
    """Run a host command that must end by itself (a refusal, ``--version``…)."""
    cmd = [sys.executable, *(prefix or ["-m", "partyhost"]), *args]
    try:
        return subprocess.run(cmd, capture_output=True, text=True, encoding="utf-8", errors="replace",
                              env=env or host_env(), cwd=str(ROOT), timeout=timeout,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as running:
        pytest.fail(f"{cmd} was still running after {timeout} s (it should have refused):\n"
                    f"{running.stdout!r}", pytrace=False)


# --- eventlet that cannot be used --------------------------------------------------------------

BROKEN_EVENTLET = {
    "import": 'raise ImportError("eventlet does not support this Python (simulated)")\n',
    "patch": textwrap.dedent('''\
        def monkey_patch(*args, **kwargs):
            raise RuntimeError("cannot patch this interpreter (simulated)")
        '''),
}


def broken_eventlet(tmp_path: Path, how: str) -> str:
    """A folder holding an ``eventlet`` package that fails ``how`` (``import``/``patch``),
    to put first on ``sys.path``."""
    folder = tmp_path / f"broken-eventlet-{how}"
    (folder / "eventlet").mkdir(parents=True)
    (folder / "eventlet" / "__init__.py").write_text(BROKEN_EVENTLET[how])
    return str(folder)


@pytest.mark.server
@pytest.mark.parametrize("how", ["import", "patch"])
def test_eventlet_that_cannot_be_used_starts_the_host_in_threading_mode(hosts, tmp_path, how):
    env = host_env(PYTHONPATH=broken_eventlet(tmp_path, how) + os.pathsep + str(ROOT))
    host = hosts(["--bind", "127.0.0.1", "--data", str(tmp_path / "data")], env)
    assert host.wait_ready()["ok"] is True
    said = host.wait_output("data:")
    lines = [line for line in said.splitlines() if FALLBACK in line]
    assert len(lines) == 1, said
    assert "threading モードで起動します" in lines[0] and "simulated" in lines[0]
    assert "Traceback" not in said
    # it serves Socket.IO too (the threading server's long-polling handshake)
    with urllib.request.urlopen(f"http://127.0.0.1:{host.port}/socket.io/?EIO=4&transport=polling",
                                timeout=5) as answer:
        body = answer.read()
    assert body.startswith(b"0{") and "sid" in json.loads(body[1:]), body


@pytest.mark.server
def test_eventlet_asked_for_by_name_that_cannot_be_used_stops_with_the_reason(tmp_path):
    env = host_env(PYTHONPATH=broken_eventlet(tmp_path, "import") + os.pathsep + str(ROOT))
    done = run_once(["--port", str(free_port()), "--bind", "127.0.0.1", "--no-browser",
                     "--data", str(tmp_path / "data"), "--async-mode", "eventlet"], env)
    assert done.returncode != 0
    assert "eventlet cannot be used" in done.stderr and "--async-mode threading" in done.stderr
    assert "Traceback" not in done.stderr and not (tmp_path / "data").exists()


def test_help_says_what_happens_when_eventlet_cannot_be_used():
    done = run_once(["--help"])
    assert done.returncode == 0
    text = " ".join(done.stdout.split())
    assert "cannot be imported or patch this Python, the host starts in threading mode" in text


# --- a console with a legacy code page -----------------------------------------------------------


@pytest.mark.server
@pytest.mark.parametrize("encoding", ["cp1252", "cp932"])
def test_a_legacy_console_encoding_starts_the_host_and_prints_the_join_url(hosts, tmp_path, encoding):
    env = host_env(PYTHONIOENCODING=encoding)
    host = hosts(["--bind", "127.0.0.1", "--data", str(tmp_path / "data"), "--async-mode", "threading"], env)
    assert host.wait_ready()["ok"] is True
    said = host.wait_output("data:", encoding)
    assert f"Join:  http://127.0.0.1:{host.port}/" in said, said
    assert f"TV:  http://127.0.0.1:{host.port}/tv" in said
    assert "scan the one on the TV page" in said  # no half blocks this console cannot show
    assert "Traceback" not in said and "UnicodeEncodeError" not in said
    if encoding == "cp932":  # Japanese is shown where the code page has it
        assert "参加 / Join" in said
    assert host.proc.poll() is None


def test_the_qr_drawing_is_kept_where_the_console_can_show_it():
    class Console:
        encoding = "cp437"  # the US OEM code page has the half blocks

    assert cli.can_print(cli.QR_GLYPHS, Console())
    Console.encoding = "cp1252"
    assert not cli.can_print(cli.QR_GLYPHS, Console())
    assert "▀" in cli.banner("http://10.0.0.2:8765/", "http://127.0.0.1:8765/tv", [])
    plain = cli.banner("http://10.0.0.2:8765/", "http://127.0.0.1:8765/tv", [], console_qr=False)
    assert not any(glyph in plain for glyph in cli.QR_GLYPHS) and "http://10.0.0.2:8765/" in plain


# --- no fcntl ------------------------------------------------------------------------------------

NO_FCNTL = textwrap.dedent('''\
    import runpy, sys
    sys.modules["fcntl"] = None  # as on Windows: "import fcntl" fails
    sys.argv[0] = "partyhost"
    runpy.run_module("partyhost", run_name="__main__", alter_sys=True)
    ''')


@pytest.mark.server
def test_without_fcntl_the_data_folder_is_locked_and_a_second_host_is_refused(hosts, tmp_path):
    wrapper = tmp_path / "no_fcntl.py"
    wrapper.write_text(NO_FCNTL)
    data = tmp_path / "data"
    args = ["--bind", "127.0.0.1", "--data", str(data), "--async-mode", "threading"]
    first = hosts(args, host_env(), prefix=[str(wrapper)])
    room = first.wait_ready()["room"]
    second = run_once(["--port", str(free_port()), "--no-browser", *args], prefix=[str(wrapper)])
    assert second.returncode != 0
    said = second.stdout + second.stderr
    assert BUSY in said and "別の partyhost" in said and f"pid {first.proc.pid}" in said, said
    assert "Traceback" not in said
    assert first.wait_ready()["room"] == room  # the first one goes on

    first.stop(kill=True)  # kill -9: the soft lock's marker stays behind, naming a dead process
    again = hosts(args, host_env(), prefix=[str(wrapper)])
    assert again.wait_ready()["ok"] is True  # the dead holder's marker is taken over
    refused = run_once(["--port", str(free_port()), "--no-browser", *args], prefix=[str(wrapper)])
    assert refused.returncode != 0 and BUSY in refused.stderr


# --- --version, --port ---------------------------------------------------------------------------


def test_version_comes_from_the_package_metadata():
    done = run_once(["--version"])
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"partyhost {dist_version('partyhost')}"


@pytest.mark.parametrize("port", ["99999", "0", "-1", "eighty"])
def test_a_port_out_of_range_is_a_one_line_error_with_status_2(port, tmp_path):
    done = run_once([f"--port={port}", "--no-browser", "--data", str(tmp_path / "data")])
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("partyhost: error: argument --port:") and "1–65535" in lines[0]
    assert not (tmp_path / "data").exists()


def test_a_port_out_of_range_from_the_environment_is_refused_the_same_way(tmp_path):
    done = run_once(["--no-browser", "--data", str(tmp_path / "data")], host_env(PARTYHOST_PORT="99999"))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "99999" in done.stderr


# --- binding: an address this laptop lacks, a port in use ---------------------------------------

ABSENT = "10.9.9.9"


def _absent_here() -> bool:
    with socket.socket() as probe:
        try:
            probe.bind((ABSENT, 0))
        except OSError as error:
            return error.errno == errno.EADDRNOTAVAIL
    return False


@pytest.mark.server
@pytest.mark.parametrize("mode", ["eventlet", "threading"])
def test_an_address_this_laptop_lacks_gets_the_right_hint(tmp_path, mode):
    if not _absent_here():
        pytest.skip(f"this machine has {ABSENT}")
    done = run_once(["--port", str(free_port()), "--bind", ABSENT, "--no-browser",
                     "--data", str(tmp_path / "data"), "--async-mode", mode])
    assert done.returncode != 0
    said = done.stderr
    assert f"{ABSENT} is not an address of this laptop" in said and "Leave --bind out" in said, said
    assert "127.0.0.1" in said.split("give one of this laptop's:")[1]
    assert "このパソコンのアドレスではありません" in said
    assert "another partyhost" not in said and "Traceback" not in said
    assert not (tmp_path / "data").exists()


@pytest.mark.server
def test_a_port_in_use_keeps_the_another_partyhost_hint(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        done = run_once(["--port", str(port), "--bind", "127.0.0.1", "--no-browser",
                         "--data", str(tmp_path / "data"), "--async-mode", "threading"])
    assert done.returncode != 0
    assert "the port is in use" in done.stderr and "Is another partyhost running?" in done.stderr
    assert "not an address of this laptop" not in done.stderr


@pytest.mark.parametrize("code, words", [
    (10048, "Is another partyhost running?"),  # WSAEADDRINUSE, as Windows reports it
    (errno.EADDRINUSE, "Is another partyhost running?"),
    (10049, "is not an address of this laptop"),  # WSAEADDRNOTAVAIL
    (errno.EADDRNOTAVAIL, "is not an address of this laptop"),
    (10013, "not allowed"),  # WSAEACCES: a port Windows keeps for itself
    (errno.EACCES, "not allowed"),
])
def test_bind_errors_of_every_system_get_their_own_hint(code, words):
    error = OSError(code, "simulated")
    text = cli.listen_failure(error, "192.0.2.7", 8765, addresses=["127.0.0.1", "192.168.1.20"])
    assert words in text
    others = {"Is another partyhost running?", "is not an address of this laptop", "not allowed"} - {words}
    assert not any(other in text for other in others), text
    if "address" in words:
        assert "127.0.0.1, 192.168.1.20" in text


# --- the data folder -----------------------------------------------------------------------------


@pytest.mark.server
def test_without_data_the_party_lives_in_the_user_data_folder_not_the_current_one(hosts, tmp_path):
    cwd = tmp_path / "somewhere"
    cwd.mkdir()
    xdg = tmp_path / "xdg"
    env = host_env(PARTYHOST_DATA=None, XDG_DATA_HOME=str(xdg), HOME=str(tmp_path / "home"))
    host = hosts(["--bind", "127.0.0.1", "--async-mode", "threading"], env, cwd=cwd)
    host.wait_ready()
    said = host.wait_output("data:")
    key = re.search(r"\?key=([\w-]+)", said).group(1)
    assert f"data: {xdg / 'partyhost'}" in said, said
    assert (xdg / "partyhost" / "party.sqlite3").is_file()
    assert not (cwd / "data").exists()
    host.stop()
    again = hosts(["--bind", "127.0.0.1", "--async-mode", "threading"], env, cwd=tmp_path)
    again.wait_ready()
    # the same folder from another current folder: the TV's host key it keeps is the same
    assert f"?key={key}" in again.wait_output("data:")


def test_data_overrides_and_expands_the_home_folder(monkeypatch, tmp_path):
    from partyhost.__main__ import parse_args

    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("PARTYHOST_DATA", raising=False)
    assert cli.data_folder(parse_args(["--data", "~/party"])) == str(tmp_path / "party")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    if sys.platform.startswith("linux"):
        assert cli.data_folder(parse_args([])) == str(tmp_path / "xdg" / "partyhost")


# --- the firewall prompt -------------------------------------------------------------------------


def test_the_firewall_prompt_is_explained_where_the_system_asks():
    windows = cli.firewall_hint("win32")
    assert '"Private networks"' in windows and '"Allow access"' in windows
    assert "プライベート ネットワーク" in windows and "アクセスを許可する" in windows
    mac = cli.firewall_hint("darwin")
    assert '"Allow"' in mac and "incoming network connections" in mac and "「許可」" in mac
    assert cli.firewall_hint("linux") is None


# --- one port, one host, on Windows too ----------------------------------------------------------


def test_windows_listening_sockets_are_exclusive_instead_of_reusable():
    """On Windows SO_REUSEADDR lets a second program bind a port that is being listened on;
    SO_EXCLUSIVEADDRUSE keeps it off. Linux and macOS keep SO_REUSEADDR (quick restarts)."""
    from partyhost.serving import SO_EXCLUSIVEADDRUSE, address_options

    options = {option for _level, option, _value in address_options("win32")}
    assert options == {SO_EXCLUSIVEADDRUSE} and socket.SO_REUSEADDR not in options
    for platform in ("linux", "darwin"):
        assert {o for _l, o, _v in address_options(platform)} == {socket.SO_REUSEADDR}


def test_a_qr_address_this_laptop_lacks_is_warned_about():
    """``--host 10.9.9.9`` is argparse's abbreviation of ``--host-ip``: the host starts, but the
    QR code would send phones elsewhere, so a banner note says the address is not this laptop's.
    (In process: a real run would listen on every interface.)"""
    from partyhost.__main__ import parse_args
    from partyhost.netaddr import Candidate

    found = [Candidate("192.168.1.20", "wlan0", 4, True, False)]
    given = parse_args(["--host", "10.9.9.9"]).host_ip
    note = cli.foreign_host_ip(given, found)
    assert note and "--host-ip 10.9.9.9 is not an address of this laptop" in note
    assert "192.168.1.20" in note and "このパソコンのアドレスではない" in note
    for fine in ("192.168.1.20", "127.0.0.1", None, "not-an-ip"):
        assert cli.foreign_host_ip(fine, found) is None


@pytest.mark.server
def test_eventlet_that_fails_half_way_through_patching_stops_instead_of_falling_back(tmp_path):
    """Threading mode cannot run on a half-green standard library: the host stops with the
    reason (the real eventlet, its socket patch done, then a failure)."""
    folder = tmp_path / "half-patched"
    folder.mkdir()
    (folder / "sitecustomize.py").write_text(textwrap.dedent('''\
        import eventlet, eventlet.patcher
        real = eventlet.monkey_patch
        def monkey_patch(*args, **kwargs):
            real(socket=True, select=False, thread=False, time=False, os=False, psycopg=False)
            raise RuntimeError("patching stopped half-way (simulated)")
        eventlet.monkey_patch = monkey_patch
        '''))
    env = host_env(PYTHONPATH=str(folder) + os.pathsep + str(ROOT))
    done = run_once(["--port", str(free_port()), "--bind", "127.0.0.1", "--no-browser",
                     "--data", str(tmp_path / "data")], env)
    assert done.returncode != 0
    assert "eventlet cannot be used" in done.stderr and "half-way" in done.stderr, done.stderr
    assert FALLBACK not in done.stdout + done.stderr


# --- errors and help before the host starts (a review of issue 25) --------------------------------


@pytest.mark.parametrize("encoding", ["cp932", "cp1252", "ascii"])
def test_help_and_option_errors_print_on_a_legacy_console(encoding, tmp_path):
    """``partyhost --help > help.txt`` or ``| more`` on a Windows code page: the help has an en
    dash (``1–65535``) that cp932 and ascii lack, and argparse printed it before the host made
    its console tolerant, so ``--help`` ended in ``UnicodeEncodeError``."""
    env = host_env(PYTHONIOENCODING=encoding)
    done = run_once(["--help"], env)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "--port" in done.stdout and "--no-browser" in done.stdout
    refused = run_once(["--port", "0", "--data", str(tmp_path / "data")], env)
    assert refused.returncode == 2 and "Traceback" not in refused.stderr, refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1


def test_a_bad_port_is_refused_in_japanese_and_english(tmp_path):
    done = run_once(["--port", "99999", "--data", str(tmp_path / "data")])
    assert done.returncode == 2
    line = done.stderr.strip()
    assert "ポート" in line and "is not a port number" in line
    assert line.index("ポート") < line.index("is not a port number")  # Japanese first


@pytest.mark.parametrize("variable", ["PARTYHOST_DOCTOR_AFTER", "PARTYHOST_RATE_LIMIT"])
def test_a_bad_number_in_the_environment_is_a_one_line_error_not_a_traceback(variable, tmp_path):
    done = run_once(["--no-browser", "--data", str(tmp_path / "data")], host_env(**{variable: "soon"}))
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "'soon'" in done.stderr
    line = done.stderr.strip()
    assert "数字で指定してください" in line and line.index("数字") < line.index("is not a number")  # Japanese first
    assert not (tmp_path / "data").exists()


def test_a_file_given_as_the_data_folder_is_named_as_a_file(tmp_path):
    """``--data party.sqlite3`` (the file, not its folder) said only "[Errno 17] File exists"."""
    a_file = tmp_path / "party.sqlite3"
    a_file.write_bytes(b"not a folder")
    done = run_once(["--port", str(free_port()), "--bind", "127.0.0.1", "--no-browser",
                     "--async-mode", "threading", "--data", str(a_file)])
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert "フォルダではなくファイル" in done.stderr and "is a file, not a folder" in done.stderr, done.stderr
    assert str(tmp_path) in done.stderr  # its folder is suggested
    assert a_file.read_bytes() == b"not a folder"


@pytest.mark.parametrize("option", ["--host-ip", "--bind"])
def test_an_address_that_is_a_name_is_refused_in_japanese_and_english(option, tmp_path):
    done = run_once([option, "partyhost.local", "--port", str(free_port()), "--no-browser",
                     "--data", str(tmp_path / "data")])
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    line = done.stderr.strip()
    assert len(line.splitlines()) == 1 and f"{option} must be an IP address" in line, line
    assert "IP アドレス" in line and line.index("IP アドレス") < line.index("must be")


@pytest.mark.server
def test_an_ipv6_qr_address_on_an_ipv4_listener_says_to_bind_both(hosts, tmp_path):
    """``--host-ip`` with an IPv6 address while the host listens on 0.0.0.0 (IPv4 only, the
    default) put an address in the QR code that nothing answers on; only the doctor's ✗ hinted
    at it. The banner now says to add ``--bind ::``. (The QR address is ::1 so that the doctor's
    own check stays on loopback.)"""
    host = hosts(["--host-ip", "::1", "--data", str(tmp_path / "data"), "--async-mode", "threading",
                  "--doctor-after", "0"], host_env())
    assert host.wait_ready()["ok"] is True
    said = host.wait_output("data:")
    assert "--bind ::" in said and "IPv4" in said and "IPv6" in said, said
    line = next(l for l in said.splitlines() if "--bind ::" in l)
    assert line.index("IPv6 の") < line.index("listens on IPv4 only"), line  # Japanese first


@pytest.mark.parametrize("text", ["nan", "inf", "-1", "-0.5"])
def test_a_count_of_seconds_or_messages_is_finite_and_not_below_zero(text):
    import argparse

    from partyhost.__main__ import _rate, _seconds

    for parse in (_seconds, _rate):
        with pytest.raises(argparse.ArgumentTypeError, match="0 以上"):
            parse(text)
    assert _seconds("0") == 0 and _rate("2.5") == 2.5
