"""The host survives a terminal pipe whose reader went away (issue 27: "Pipe to stdout was
broken" at start; ``partyhost | head``, a closed log viewer). Before ``partyhost.pipesafe`` the
first banner line ended the host with ``BrokenPipeError``.

The real ``python -m partyhost`` in a subprocess, on 127.0.0.1 only. ``make run`` into a pipe
that closes is in tests/test_wheel_install.py (it installs from a wheelhouse).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from partyhost.pipesafe import PipeSafeStream

pytestmark = pytest.mark.server

REPO = Path(__file__).resolve().parent.parent


def _free_port() -> int:
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _up(proc: subprocess.Popen, port: int, timeout: float = 20.0) -> dict:
    """``/healthz`` of the host, or None when the process ended first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return None
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1.0) as resp:
                return json.loads(resp.read().decode())
        except (OSError, ValueError):
            time.sleep(0.1)
    raise AssertionError("the host neither answered nor ended")


def _host(tmp_path: Path, mode: str, stderr) -> tuple[subprocess.Popen, int]:
    """``python -m partyhost`` with stdout a pipe whose read end is closed before the host
    writes its banner (``partyhost | true``)."""
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "partyhost", "--no-browser", "--bind", "127.0.0.1", "--port", str(port),
         "--data", str(tmp_path / "data"), "--fresh", "--async-mode", mode, "--rate-limit", "0"],
        stdout=subprocess.PIPE, stderr=stderr, stdin=subprocess.DEVNULL, cwd=str(REPO),
        env=dict(os.environ, PYTHONUNBUFFERED="1"))
    proc.stdout.close()  # the reader goes away at once
    return proc, port


def _stop(proc: subprocess.Popen) -> int:
    """Ctrl+C, as at the laptop; returns the exit status."""
    proc.send_signal(signal.SIGINT)
    try:
        return proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=5)
        raise AssertionError("the host did not stop on Ctrl+C") from None


@pytest.mark.parametrize("mode", ["eventlet", "threading"])
def test_host_keeps_serving_when_stdout_reader_is_gone(tmp_path, mode):
    err = tmp_path / "stderr.txt"
    with open(err, "wb") as stderr:
        proc, port = _host(tmp_path, mode, stderr)
        try:
            health = _up(proc, port)
            assert health is not None, f"the host ended ({proc.returncode}):\n{err.read_text(errors='replace')}"
            assert health["ok"] is True
            time.sleep(1.0)  # past the banner and the first log lines
            assert proc.poll() is None, err.read_text(errors="replace")
        finally:
            status = _stop(proc) if proc.poll() is None else proc.returncode
    text = err.read_text(errors="replace")
    assert status == 0, text
    for line in ("BrokenPipeError", "Broken pipe", "Traceback", "Exception ignored"):
        assert line not in text, text


def test_host_keeps_serving_when_stdout_and_stderr_readers_are_gone(tmp_path):
    """``partyhost 2>&1 | head``: both streams broken; the host serves and stops cleanly."""
    proc, port = _host(tmp_path, "eventlet", subprocess.STDOUT)
    try:
        health = _up(proc, port)
        assert health is not None, f"the host ended with {proc.returncode}"
        time.sleep(1.0)
        assert proc.poll() is None
    finally:
        status = _stop(proc) if proc.poll() is None else proc.returncode
    assert status == 0


def test_pipe_safe_stream_drops_writes_after_the_reader_left_and_keeps_other_errors(tmp_path):
    read_end, write_end = os.pipe()
    stream = os.fdopen(write_end, "w", encoding="utf-8")
    safe = PipeSafeStream(stream)
    assert safe.write("あ\n") == 2 and safe.flush() is None
    assert os.read(read_end, 100) == "あ\n".encode()
    os.close(read_end)
    assert safe.write("x" * 100_000) == 100_000  # larger than the buffer: reaches the pipe
    safe.flush()
    assert safe.gone
    assert safe.write("later\n") == 6
    assert safe.encoding == "utf-8"  # the wrapped stream's attributes
    safe.flush()
    stream.close()  # Python's buffer went into the null device: closing does not raise

    closed = PipeSafeStream(open(tmp_path / "f.txt", "w", encoding="utf-8"))
    closed.stream.close()
    with pytest.raises(ValueError):  # a programming error is not hidden
        closed.write("x")
