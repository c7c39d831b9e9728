"""The wheel lane (issue 25): partyhost as a user installs it, without make and without the source.

Builds the wheel from a copy of the source tree (``pip wheel --no-deps``: nothing is written into
the checkout), then for every Python 3.10–3.13 present (one interpreter per version, found as
``python3.X`` on PATH, in pyenv's ``versions/`` and as the running Python; a missing version is
skipped, at least one must be found):

* a clean venv gets the wheel installed NON-editable, offline (``--no-index --find-links``) from a
  wheelhouse of partyhost's dependencies built once per Python version (``pip wheel -w``) and
  kept in pytest's cache folder (``.pytest_cache/d/partyhost-wheelhouse``, keyed by the Python
  version and the wheel's ``Requires-Dist``; ``make clean`` removes it);
* the venv's ``partyhost`` console script starts the host from a folder outside the checkout
  (so the source tree cannot be imported) on a free loopback port, in its default mode;
* the installed package serves the TV page and its static files (package data in the wheel), and
  one phone (python-socketio through ``partyhost.pyclient``) joins and finds its seat in its view.

Network: only the first run on a machine (or after the dependencies change) goes beyond loopback,
to PyPI through pip (pip's cache helps); CI is a fresh Debian machine with registry access. The
host and the phone use 127.0.0.1 only. Run alone: ``pytest -m wheel`` (about 20 s per Python
with a warm wheelhouse here; a cold one adds the downloads). Part of ``make test`` and so of CI.
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.wheel

REPO = Path(__file__).resolve().parent.parent
VERSIONS = ("3.10", "3.11", "3.12", "3.13")
PIP_TIMEOUT = 600  # a cold wheelhouse downloads every dependency
STARTUP_TIMEOUT = 30.0
PIP = [sys.executable, "-m", "pip"]
"""The project venv's pip (recent: ``--python`` needs pip >= 22.3), run for each target Python:
a Debian python3.X without python3-pip still gets its wheelhouse and venv."""
BUILD_REQUIRES = ["setuptools>=77"]  # pyproject.toml's build-system.requires


def _probe(python: str) -> tuple[str, str] | None:
    """``(version "3.X", full version)`` of an interpreter that can make a venv, or None. It needs
    no pip of its own: the project venv's pip installs into it (``pip --python``)."""
    code = ("import sys, venv, platform;"
            "print('%d.%d' % sys.version_info[:2], platform.python_version())")
    try:
        out = subprocess.run([python, "-c", code], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if out.returncode != 0 or not out.stdout.split():
        return None
    short, full = out.stdout.split()
    return short, full


def pythons() -> dict[str, tuple[str, str]]:
    """One interpreter per Python 3.10–3.13 found: ``{"3.X": (path, full version)}``."""
    pyenv = os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv"))
    found: dict[str, tuple[str, str]] = {}
    for version in VERSIONS:
        candidates = [shutil.which(f"python{version}"),
                      *sorted(glob.glob(os.path.join(pyenv, "versions", f"{version}.*", "bin", "python3")))]
        if f"{sys.version_info[0]}.{sys.version_info[1]}" == version:
            candidates.insert(0, sys.executable)
        for path in filter(None, candidates):
            probed = _probe(path)
            if probed and probed[0] == version:
                found[version] = (path, probed[1])
                break
    return found


FOUND = pythons()


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _clean_env(**extra: str) -> dict[str, str]:
    """The environment without anything that points Python at this checkout or this venv."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP")}
    env.update(PYTHONNOUSERSITE="1", PIP_DISABLE_PIP_VERSION_CHECK="1", **extra)
    return env


def _run(cmd: list[str], what: str, timeout: float = PIP_TIMEOUT, **kw) -> str:
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=_clean_env(), **kw)
    assert out.returncode == 0, f"{what} failed ({out.returncode}): {' '.join(cmd)}\n{out.stdout}\n{out.stderr}"
    return out.stdout


def copy_source(dst: Path) -> Path:
    """A copy of the checkout without its venv, caches and outputs (``data/``, ``build/`` …)."""
    anywhere = shutil.ignore_patterns(".git", ".venv", "*.egg-info", "__pycache__", ".pytest_cache",
                                      ".hypothesis", "node_modules")

    def skip(folder: str, names: list[str]) -> set[str]:
        left = set(anywhere(folder, names))
        if Path(folder) == REPO:  # the checkout's own outputs, not partyhost/lexicon/data
            left |= {"data", "build", "dist", "test-artifacts"} & set(names)
        return left

    shutil.copytree(REPO, dst, ignore=skip)
    return dst


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """partyhost's wheel, built from a copy of the source tree with the project venv's pip."""
    root = tmp_path_factory.mktemp("wheel")
    src = copy_source(root / "src")
    started = time.monotonic()
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(root / "dist"), str(src)],
         "building the wheel")
    built = sorted((root / "dist").glob("partyhost-*-py3-none-any.whl"))
    assert len(built) == 1, built
    print(f"\nwheel built in {time.monotonic() - started:.1f} s")
    return built[0]


def requires(wheel: Path) -> list[str]:
    """The wheel's ``Requires-Dist`` lines without extras' requirements, and the build
    backend (pyproject's ``build-system.requires``: ``make``'s editable install builds)."""
    with zipfile.ZipFile(wheel) as zf:
        meta = next(n for n in zf.namelist() if n.endswith(".dist-info/METADATA"))
        lines = zf.read(meta).decode().splitlines()
    return [line.split(":", 1)[1].strip() for line in lines
            if line.startswith("Requires-Dist:") and "extra ==" not in line] + BUILD_REQUIRES


def wheelhouse(request, python: str, full: str, reqs: list[str]) -> Path:
    """The folder of wheels of ``reqs`` for ``python``: built once (``pip wheel -w``, pip's cache
    on), then reused from pytest's cache while the Python version and the requirements stay."""
    key = hashlib.sha256(json.dumps([full, sys.platform, sorted(reqs)]).encode()).hexdigest()[:12]
    try:
        base = Path(request.config.cache.mkdir("partyhost-wheelhouse"))
    except AttributeError:  # -p no:cacheprovider
        base = Path(request.config._tmp_path_factory.mktemp("wheelhouse"))  # noqa: SLF001
    house = base / f"py{full}-{key}"
    if (house / ".complete").exists():
        return house
    shutil.rmtree(house, ignore_errors=True)
    partial = base / f".partial-{full}-{os.getpid()}"
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    (partial / "requirements.txt").write_text("\n".join(reqs) + "\n")
    started = time.monotonic()
    _run([*PIP, "--python", python, "wheel", "-q", "-w", str(partial), "-r", str(partial / "requirements.txt")],
         f"building the wheelhouse for Python {full}")
    print(f"\nwheelhouse for Python {full} built in {time.monotonic() - started:.1f} s")
    (partial / ".complete").write_text(full)
    partial.rename(house)
    return house


def _wait_healthz(proc: subprocess.Popen, url: str, log: Path) -> dict:
    deadline = time.monotonic() + STARTUP_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"the installed partyhost exited with {proc.returncode}:\n{log.read_text(errors='replace')}")
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=1.0) as resp:
                return json.loads(resp.read().decode())
        except (OSError, ValueError):
            time.sleep(0.1)
    pytest.fail(f"the installed partyhost did not answer within {STARTUP_TIMEOUT:.0f} s:\n"
                f"{log.read_text(errors='replace')}")


def _get(url: str) -> tuple[str, bytes]:
    with urllib.request.urlopen(url, timeout=10) as resp:
        return resp.headers.get("Content-Type", ""), resp.read()


def test_a_python_to_install_on_was_found():
    """The lane must not pass by finding nothing to test."""
    assert FOUND, f"no Python {', '.join(VERSIONS)} with the venv module was found"


@pytest.mark.parametrize("version", VERSIONS)
def test_wheel_installs_starts_and_seats_a_phone(request, wheel, tmp_path, sio_peer, version):
    if version not in FOUND:
        pytest.skip(f"Python {version} is not on this machine")
    python, full = FOUND[version]
    timings: dict[str, float] = {}
    started = time.monotonic()
    house = wheelhouse(request, python, full, requires(wheel))
    timings["wheelhouse"] = time.monotonic() - started

    venv = tmp_path / "venv"
    started = time.monotonic()
    _run([python, "-m", "venv", "--without-pip", str(venv)], f"python{version} -m venv")
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    vpython = bin_dir / ("python.exe" if os.name == "nt" else "python")
    _run([*PIP, "--python", str(vpython), "install", "-q", "--no-index", "--find-links", str(house), str(wheel)],
         f"installing the wheel into a Python {full} venv")
    timings["venv+install"] = time.monotonic() - started

    outside = tmp_path / "elsewhere"  # not the checkout: `import partyhost` cannot find the source
    outside.mkdir()
    where = _run([str(vpython), "-c", "import partyhost, sys; print(partyhost.__file__); print(sys.version)"],
                 "importing the installed package", cwd=str(outside)).splitlines()
    assert Path(where[0]).resolve().is_relative_to(venv.resolve()), where
    assert REPO not in Path(where[0]).resolve().parents
    assert where[1].startswith(full), where
    info = Path(where[0]).resolve().parent.parent
    origin = json.loads(next(info.glob("partyhost-*.dist-info")).joinpath("direct_url.json").read_text())
    assert origin["url"].endswith(".whl") and "dir_info" not in origin, origin  # the wheel, not editable
    assert not list(info.glob("__editable__*")), list(info.glob("__editable__*"))

    script = bin_dir / ("partyhost.exe" if os.name == "nt" else "partyhost")
    assert script.exists(), f"no console script {script}"
    port = _free_port()
    log = tmp_path / "host.log"
    started = time.monotonic()
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [str(script), "--no-browser", "--bind", "127.0.0.1", "--port", str(port),
             "--data", str(tmp_path / "data"), "--fresh"],
            stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=str(outside),
            env=_clean_env(PYTHONUNBUFFERED="1"))
    try:
        url = f"http://127.0.0.1:{port}"
        assert _wait_healthz(proc, url, log)["ok"] is True
        timings["start"] = time.monotonic() - started
        # package data made it into the wheel: the pages and their scripts are served
        kind, body = _get(url + "/tv")
        assert kind.startswith("text/html") and b"<html" in body.lower()
        kind, body = _get(url + "/static/vendor/" + next(
            p.name for p in (REPO / "partyhost" / "static" / "vendor").iterdir() if p.suffix == ".js"))
        assert "javascript" in kind and len(body) > 1000

        started = time.monotonic()
        phone = sio_peer(url, {"role": "phone", "token": None, "lang": "ja"}, f"phone-py{version}")
        phone.wait(lambda: phone.welcomes, "welcome")
        assert phone.send("join", {"name": "あき", "lang": "ja"})["ok"]
        welcome = phone.wait(lambda: next((w for w in phone.welcomes if w.get("seat")), None), "a seat")
        state = phone.wait_state(lambda s: s["me"] and s["me"]["seat"] == welcome["seat"], "own seat in view")
        assert state["me"]["name"] == "あき"
        assert [r["name"] for r in state["party"]["roster"]] == ["あき"]
        timings["phone seated"] = time.monotonic() - started
        phone.close()
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
    text = log.read_text(errors="replace")
    assert "Traceback" not in text, text
    print(f"\nPython {full}: " + ", ".join(f"{k} {v:.1f} s" for k, v in timings.items()))


def _here_python() -> tuple[str, str]:
    """The Python running the tests (the one ``make`` made .venv with, so it has ensurepip)."""
    probed = _probe(sys.executable)
    assert probed, f"{sys.executable} cannot make a venv"
    return sys.executable, probed[1]


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_run_into_a_pipe_that_closes_starts_the_host(request, wheel, tmp_path):
    """``make run | head`` on a fresh checkout (issue 27): pip's output on a pipe whose reader
    left made pip stop with "ERROR: Pipe to stdout was broken" (or make itself died of SIGPIPE
    echoing a command) before the host started. Now the installs log to ``$(VENV)/pip.log``,
    make's own lines go to stderr and the host starts and keeps serving (the host's own writes
    into a closed pipe: tests/test_pipe_closed.py). The venv is new (``VENV=``, outside the
    checkout), the install offline from the wheelhouse (``PIP_NO_INDEX``, ``PIP_FIND_LINKS``)."""
    python, full = _here_python()
    house = wheelhouse(request, python, full, requires(wheel))
    src = copy_source(tmp_path / "checkout")
    port = _free_port()
    err = tmp_path / "stderr.txt"
    args = f"--no-browser --bind 127.0.0.1 --port {port} --data {tmp_path / 'data'} --fresh"
    with open(err, "wb") as stderr:
        make = subprocess.Popen(
            ["make", "run", f"PY={python}", f"VENV={tmp_path / 'venv'}", f"ARGS={args}"],
            stdout=subprocess.PIPE, stderr=stderr, stdin=subprocess.DEVNULL, cwd=str(src),
            env=_clean_env(PIP_NO_INDEX="1", PIP_FIND_LINKS=str(house), PYTHONUNBUFFERED="1"),
            start_new_session=True)
        try:
            first = make.stdout.readline()  # `| head -1`: one line read, then the reader leaves
            make.stdout.close()
            url = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + PIP_TIMEOUT
            while True:
                assert make.poll() is None, (f"make ended ({make.returncode}) before the host answered;"
                                             f" first line {first!r}:\n{err.read_text(errors='replace')}")
                try:
                    with urllib.request.urlopen(url + "/healthz", timeout=1.0) as resp:
                        assert json.loads(resp.read().decode())["ok"] is True
                    break
                except (OSError, ValueError):
                    assert time.monotonic() < deadline, err.read_text(errors="replace")
                    time.sleep(0.2)
            time.sleep(1.0)  # past the banner
            assert make.poll() is None, err.read_text(errors="replace")
        finally:
            if make.poll() is None:
                os.killpg(make.pid, signal.SIGINT)  # Ctrl+C at the terminal: make and the host
            try:
                make.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(make.pid, signal.SIGKILL)
                make.wait(timeout=10)
    text = err.read_text(errors="replace")
    for line in ("Pipe to stdout was broken", "BrokenPipeError", "Traceback", "Exception ignored"):
        assert line not in text, text


UPDATE = re.compile(r"`py -m pip install --force-reinstall (\S+\.whl)`")


def test_the_readmes_wheel_update_command_installs_the_new_wheel(request, wheel, tmp_path):
    """README: "after an update of the wheel". The version stays 0.1.0 between updates, and
    ``pip install <wheel>`` of a version already installed says "already installed with the same
    version" and keeps the old code; the README's command must really put the new wheel's files
    in place (run here with the venv's python for ``py``, offline from the wheelhouse)."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    found = UPDATE.search(readme)
    assert found, "README gives no `py -m pip install --force-reinstall <wheel>` for a wheel update"
    python, full = _here_python()
    house = wheelhouse(request, python, full, requires(wheel))
    venv = tmp_path / "venv"
    _run([python, "-m", "venv", str(venv)], "creating the venv")
    py = str(venv / "bin" / "python")
    offline = ["--no-index", "--find-links", str(house)]
    _run([py, "-m", "pip", "install", "-q", *offline, str(wheel)], "installing the first wheel")

    src = copy_source(tmp_path / "src")  # the update: the same version with a changed file
    (src / "partyhost" / "static" / "update-marker.txt").write_text("new\n")
    dist = tmp_path / "dist"
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(src)], "building the update")
    (new,) = dist.glob("partyhost-*.whl")
    assert new.name == Path(found.group(1).replace("\\", "/")).name  # the README names the real file
    _run([py, "-m", "pip", "install", "--force-reinstall", *offline, str(new)], "the README's update command")
    check = "import importlib.resources as r; print(r.files('partyhost').joinpath('static/update-marker.txt').read_text())"
    assert _run([py, "-c", check], "reading the updated package", cwd=str(tmp_path)).strip() == "new"
