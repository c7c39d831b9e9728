"""The phone in three browser engines, behind one small interface, for the ``engines`` lane.

* :class:`WebKitPhone` — Debian's WebKitGTK (the engine of every iPhone browser) through
  ``/usr/bin/WebKitWebDriver`` and Selenium, with the driver path given explicitly (Selenium
  Manager never downloads anything). It runs on a private Xvfb display; the LAN-like name
  ``game.lan`` resolves to loopback through a private ``/etc/hosts`` bind-mounted in a mount
  namespace of the driver and its browser only (``unshare``).
* :class:`FirefoxPhone` — Debian's Firefox ESR, headless, spoken to over WebDriver BiDi (its own
  Remote Agent) by a small client on ``websocket-client``: no geckodriver. ``game.lan`` is mapped
  to loopback by the ``network.dns.localDomains`` preference.
* :class:`ChromiumPhone` — Debian's Chromium through Playwright (``executable_path``), for the
  tests that must hold in all three engines.

Every phone offers the same calls: ``goto``, ``js`` (an async function body; its JSON-able
return value comes back), ``wait`` (a JS condition, polled: wait for state, never for time),
``click`` (a real pointer click on a CSS selector, re-found and retried when the page redrew it
meanwhile), ``type`` (real key presses), ``viewport``, ``screenshot``, ``errors`` (uncaught
errors, rejections and ``console.error`` lines seen by the page) and ``close``.

:class:`Proxy` is a TCP relay in front of the server: the test cuts the line (``down``: live
connections closed, new ones refused at once), holds it (``hang``: connections accepted but not
answered, so a connection attempt stays under way) or puts it back (``up``), and points it at a
restarted server (``target``), while the browser keeps one address.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import warnings
from pathlib import Path
from typing import Any

LAN_HOST = "game.lan"
WEBKIT_DRIVER = "/usr/bin/WebKitWebDriver"
FIREFOX = "/usr/bin/firefox-esr"
XVFB = "/usr/bin/Xvfb"
LAUNCH_TRIES = 3
CALL_TIMEOUT = 20  # seconds any one WebKit WebDriver call may take

# Installed by every phone after each navigation (Firefox: before the page's own scripts).
ERROR_HOOK = """
if (!window.__phErrors) {
  window.__phErrors = [];
  window.addEventListener("error", (e) => window.__phErrors.push("error: " + (e.message || e.type)));
  window.addEventListener("unhandledrejection", (e) => window.__phErrors.push("rejection: " + String(e.reason)));
  const orig = console.error.bind(console);
  console.error = (...a) => { window.__phErrors.push("console.error: " + a.map(String).join(" ")); orig(...a); };
}
"""


class EngineMissing(RuntimeError):
    """The engine's browser or driver is not installed here."""


class Phone:
    """What the tests use of a phone browser (see the module docstring)."""

    name = "?"
    seen_errors: list[str]

    def goto(self, url: str) -> None:
        raise NotImplementedError

    def _eval(self, body: str) -> Any:
        raise NotImplementedError

    def js(self, body: str) -> Any:
        """Run ``body`` as the body of an async function in the page; return its JSON value."""
        return self._eval(body)

    def wait(self, cond: str, what: str, timeout: float = 15.0) -> Any:
        """Poll the JS expression ``cond`` until it is truthy; return its value."""
        deadline = time.monotonic() + timeout
        last: Any = None
        while True:
            try:
                last = self.js(f"return ({cond});")
            except Exception as e:  # a navigation under way: the page is being replaced
                last = f"(not evaluated: {str(e)[:200]})"
                if time.monotonic() > deadline or is_driver_hang(e):
                    raise
            else:
                if last:
                    return last
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.name}: timed out after {timeout:.0f} s waiting for {what} ({cond}); "
                                     f"last value {last!r}; page: {self.summary()}")
            time.sleep(0.05)

    def summary(self) -> str:
        try:
            return str(self.js("""const a = document.getElementById("app");
              return {screen: a && a.dataset.screen, conn: !!(typeof PH !== "undefined" && PH.connected),
                      text: a ? a.innerText.slice(0, 300) : document.body.innerText.slice(0, 300)};"""))
        except Exception as e:  # pragma: no cover - diagnostics only
            return f"(no summary: {e})"

    def click(self, css: str, tries: int = 8) -> None:
        """A real click on the first element matching ``css`` once it is there and enabled."""
        for attempt in range(tries):
            self.wait(f"(() => {{ const el = document.querySelector({json.dumps(css)}); "
                      "return !!el && !el.disabled && el.getClientRects().length > 0; })()", f"{css} to be clickable")
            try:
                self._click(css)
                return
            except Exception as e:  # redrawn between finding and clicking: find it again
                if attempt == tries - 1 or is_driver_hang(e):
                    raise
                time.sleep(0.1)

    def _click(self, css: str) -> None:
        raise NotImplementedError

    def type(self, css: str, text: str, tries: int = 5) -> None:
        """Focus the field once it is there, clear it, and type ``text`` with real key presses."""
        for attempt in range(tries):
            self.wait(f"(() => {{ const el = document.querySelector({json.dumps(css)}); "
                      "return !!el && !el.disabled && el.getClientRects().length > 0; })()", f"{css} to take text")
            try:
                self._type(css, text)
                return
            except Exception as e:  # redrawn meanwhile: find it again
                if attempt == tries - 1 or is_driver_hang(e):
                    raise
                time.sleep(0.1)

    def _type(self, css: str, text: str) -> None:
        raise NotImplementedError

    def viewport(self, width: int, height: int) -> None:
        raise NotImplementedError

    def screenshot(self, path: Path) -> None:
        raise NotImplementedError

    def errors(self) -> list[str]:
        """Errors the current page saw (kept across navigations in ``seen_errors``)."""
        try:
            found = self.js("return window.__phErrors ? window.__phErrors.splice(0) : [];") or []
        except Exception:
            found = []
        self.seen_errors.extend(found)
        return list(self.seen_errors)

    def close(self) -> None:
        raise NotImplementedError


def _kill_group(proc: subprocess.Popen | None) -> None:
    """End a process we started and its children (its own process group), then reap it."""
    if proc is None or proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=5)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait(timeout=5)


# --- WebKit ---------------------------------------------------------------------------------------


class Xvfb:
    """A private X display for WebKitGTK (started once per test module)."""

    def __init__(self) -> None:
        if not Path(XVFB).exists():
            raise EngineMissing(f"{XVFB} is missing (apt-get install xvfb xauth)")
        r, w = os.pipe()
        self.proc = subprocess.Popen([XVFB, "-displayfd", str(w), "-screen", "0", "1920x1200x24", "-nolisten", "tcp"],
                                     pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     start_new_session=True)
        os.close(w)
        with os.fdopen(r) as f:
            number = f.readline().strip()
        if not number:
            _kill_group(self.proc)
            raise RuntimeError("Xvfb did not start")
        self.display = f":{number}"

    def close(self) -> None:
        _kill_group(self.proc)


class WebKitPhone(Phone):
    """WebKitGTK's MiniBrowser through WebKitWebDriver and Selenium, on an Xvfb display."""

    name = "webkit"

    def __init__(self, display: str, width: int = 447, height: int = 844) -> None:
        if not Path(WEBKIT_DRIVER).exists():
            raise EngineMissing(f"{WEBKIT_DRIVER} is missing (apt-get install webkit2gtk-driver)")
        from selenium import webdriver
        from selenium.webdriver.webkitgtk.service import Service

        self.seen_errors = []
        self.tmp = Path(tempfile.mkdtemp(prefix="ph-webkit-"))
        hosts = self.tmp / "hosts"
        hosts.write_text(f"127.0.0.1 localhost {LAN_HOST}\n::1 localhost\n")
        # The driver (and the browser it starts) sees its own /etc/hosts; nothing else does.
        wrapper = self.tmp / "webkit-driver"
        unshare = "unshare -m" if os.geteuid() == 0 else "unshare -rm"
        wrapper.write_text("#!/bin/sh\n"
                           f"exec {unshare} sh -c 'mount --bind \"$0\" /etc/hosts && exec {WEBKIT_DRIVER} \"$@\"' "
                           f"'{hosts}' \"$@\"\n")
        wrapper.chmod(0o755)
        env = dict(os.environ, DISPLAY=display, GDK_BACKEND="x11")
        env.pop("WAYLAND_DISPLAY", None)
        last: Exception | None = None
        self.service = None
        for _ in range(LAUNCH_TRIES):
            # its own process group: close() can end the driver and every browser process it started
            service = Service(executable_path=str(wrapper), env=env, start_error_message="WebKitWebDriver failed",
                              popen_kw={"start_new_session": True})
            options = webdriver.WebKitGTKOptions()
            options.add_argument("--automation")
            try:
                with warnings.catch_warnings():  # Selenium's WebKitGTK classes warn about their own internals
                    warnings.simplefilter("ignore", DeprecationWarning)
                    self.driver = webdriver.WebKitGTK(service=service, options=options)
                self.service = service
                break
            except Exception as e:  # a half-started browser: end it and try again
                last = e
                _kill_service(service)
        else:
            raise RuntimeError(f"WebKit did not start in {LAUNCH_TRIES} tries: {last!r}")
        self.driver.set_script_timeout(CALL_TIMEOUT)
        # Every WebDriver call answers or fails within CALL_TIMEOUT s (Selenium's default waits
        # forever: a WebKit automation call that never answered hung a whole run, see the note).
        self.driver.command_executor._client_config.timeout = CALL_TIMEOUT
        self.viewport(width, height)

    def goto(self, url: str) -> None:
        self.errors()  # keep what the old page saw
        self.driver.get(url)
        self.driver.execute_script(ERROR_HOOK)

    def back(self) -> None:
        self.errors()
        self.driver.back()
        self.driver.execute_script(ERROR_HOOK)

    def _eval(self, body: str) -> Any:
        text = self.driver.execute_script(
            f"return (async () => {{ {body} }})().then((v) => JSON.stringify(v === undefined ? null : v));")
        return json.loads(text)

    def _click(self, css: str) -> None:
        from selenium.webdriver.common.by import By

        el = self.driver.find_element(By.CSS_SELECTOR, css)
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", el)
        el.click()

    def _type(self, css: str, text: str) -> None:
        from selenium.webdriver.common.by import By

        el = self.driver.find_element(By.CSS_SELECTOR, css)
        el.clear()
        el.send_keys(text)

    def viewport(self, width: int, height: int) -> None:
        """Size the window so that the page's viewport is ``width`` × ``height`` (MiniBrowser's
        window is never narrower than 447 px). The page's size is read once it has settled (a
        read in the middle of a resize once gave a size that made the next request invalid)."""
        def settled() -> list[int]:
            last = None
            for _ in range(20):
                inner = self.driver.execute_script("return [innerWidth, innerHeight];")
                if inner == last:
                    return inner
                last = inner
                time.sleep(0.05)
            return last

        self.driver.set_window_size(width, height)
        for _ in range(3):
            inner = settled()
            dw, dh = width - inner[0], height - inner[1]
            if not dw and not dh:
                return
            size = self.driver.get_window_size()
            w, h = size["width"] + dw, size["height"] + dh
            if not (100 <= w <= 4000 and 100 <= h <= 4000):
                continue  # a size read mid-resize: look again
            self.driver.set_window_size(w, h)

    def screenshot(self, path: Path) -> None:
        self.driver.save_screenshot(str(path))

    def close(self) -> None:
        """End the session (briefly: a hung session does not answer) and kill the driver's whole
        process group (driver, MiniBrowser, web and network processes), whatever state it is in."""
        try:
            self.driver.command_executor._client_config.timeout = 5
            self.driver.quit()
        except Exception:
            pass
        _kill_service(self.service)
        shutil.rmtree(self.tmp, ignore_errors=True)


def _kill_service(service: Any) -> None:
    """Kill a Selenium service's process group (started with ``start_new_session``)."""
    proc = getattr(service, "process", None)
    if proc is not None:
        _kill_group(proc)
        try:  # the leader may be gone while its browser processes are not
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    try:
        service.stop()
    except Exception:
        pass


class WebKitRestarted(UserWarning):
    """A WebKit WebDriver call hung; the session (and its Xvfb) was restarted and the test ran
    again once. Shown in pytest's warnings summary so a retried run is never silent."""


def is_driver_hang(exc: BaseException) -> bool:
    """True when ``exc`` (or what caused it) is a WebDriver call that did not answer in time —
    the WebKitGTK automation hang of issue 15 — rather than a failed check on the page."""
    seen = 0
    while exc is not None and seen < 10:
        name = type(exc).__name__
        text = str(exc)
        if name in ("ReadTimeoutError", "TimeoutError", "MaxRetryError", "ProtocolError", "ScriptTimeoutException") \
                or "Read timed out" in text or "timed out receiving message" in text:
            return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False


# --- Firefox over WebDriver BiDi --------------------------------------------------------------------


FIREFOX_PREFS = {
    "network.dns.localDomains": LAN_HOST,
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage_override.mstone": "ignore",
    "browser.startup.page": 0,
    "datareporting.policy.dataSubmissionEnabled": False,
    "datareporting.healthreport.uploadEnabled": False,
    "toolkit.telemetry.enabled": False,
    "app.update.enabled": False,
    "app.update.disabledForTesting": True,
    "browser.safebrowsing.malware.enabled": False,
    "browser.safebrowsing.phishing.enabled": False,
    "browser.safebrowsing.downloads.enabled": False,
    "extensions.update.enabled": False,
    "extensions.getAddons.cache.enabled": False,
    "network.captive-portal-service.enabled": False,
    "network.connectivity-service.enabled": False,
    "browser.newtabpage.enabled": False,
    "browser.aboutwelcome.enabled": False,
    "media.autoplay.default": 0,
    "network.proxy.type": 0,
    "remote.prefs.recommended": True,
}


class BidiError(RuntimeError):
    """An error answer from Firefox's Remote Agent."""


class FirefoxPhone(Phone):
    """Headless Firefox ESR driven over WebDriver BiDi (no geckodriver)."""

    name = "firefox"

    def __init__(self, width: int = 390, height: int = 844) -> None:
        if not Path(FIREFOX).exists():
            raise EngineMissing(f"{FIREFOX} is missing (apt-get install firefox-esr)")
        import websocket  # websocket-client, already a dependency of python-socketio's client

        self.seen_errors = []
        self._ids = 0
        self._lock = threading.Lock()
        self.proc: subprocess.Popen | None = None
        last: Exception | None = None
        for _ in range(LAUNCH_TRIES):
            self.tmp = Path(tempfile.mkdtemp(prefix="ph-firefox-"))
            (self.tmp / "user.js").write_text("".join(
                f"user_pref({json.dumps(k)}, {json.dumps(v)});\n" for k, v in FIREFOX_PREFS.items()))
            env = dict(os.environ, MOZ_HEADLESS="1", MOZ_CRASHREPORTER_DISABLE="1")
            self.log = self.tmp / "firefox.log"
            with open(self.log, "wb") as log:
                self.proc = subprocess.Popen(
                    [FIREFOX, "--headless", "--no-remote", "--remote-debugging-port", "0", "--profile", str(self.tmp),
                     "about:blank"], stdout=log, stderr=log, stdin=subprocess.DEVNULL, env=env, start_new_session=True)
            try:
                url = self._listening_url(timeout=40)
                self.ws = websocket.create_connection(url + "/session", suppress_origin=True, timeout=60)
                self._cmd("session.new", {"capabilities": {"alwaysMatch": {"acceptInsecureCerts": True}}})
                break
            except Exception as e:  # a half-started browser: end it and try again
                last = e
                _kill_group(self.proc)
                shutil.rmtree(self.tmp, ignore_errors=True)
        else:
            raise RuntimeError(f"Firefox did not start in {LAUNCH_TRIES} tries: {last!r}")
        tree = self._cmd("browsingContext.getTree", {})
        self.context = tree["contexts"][0]["context"]
        self._cmd("script.addPreloadScript", {"functionDeclaration": f"() => {{ {ERROR_HOOK} }}"})
        self.viewport(width, height)

    def _listening_url(self, timeout: float) -> str:
        """Read Firefox's log until it says where its BiDi server listens."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in self.log.read_text(errors="replace").splitlines():
                if "WebDriver BiDi listening on " in line:
                    return line.split("listening on ", 1)[1].strip()
            if self.proc is not None and self.proc.poll() is not None:
                break
            time.sleep(0.1)
        raise RuntimeError("Firefox did not open its WebDriver BiDi port: " + self.log.read_text(errors="replace")[-2000:])

    def _cmd(self, method: str, params: dict, timeout: float = 60.0) -> dict:
        with self._lock:
            self._ids += 1
            my = self._ids
            self.ws.settimeout(timeout)
            self.ws.send(json.dumps({"id": my, "method": method, "params": params}))
            while True:
                msg = json.loads(self.ws.recv())
                if msg.get("id") != my:
                    continue  # an event (none subscribed) or a stale answer
                if msg.get("type") == "error":
                    raise BidiError(f"{method}: {msg.get('error')}: {msg.get('message')}")
                return msg["result"]

    def goto(self, url: str) -> None:
        self.errors()
        self._cmd("browsingContext.navigate", {"context": self.context, "url": url, "wait": "complete"})

    def back(self) -> None:
        self.errors()
        self._cmd("browsingContext.traverseHistory", {"context": self.context, "delta": -1})

    def _eval(self, body: str) -> Any:
        r = self._cmd("script.evaluate", {
            "expression": f"(async () => {{ {body} }})().then((v) => JSON.stringify(v === undefined ? null : v))",
            "target": {"context": self.context}, "awaitPromise": True, "resultOwnership": "none"})
        if r.get("type") == "exception":
            raise BidiError(f"script error: {r['exceptionDetails'].get('text')}")
        return json.loads(r["result"]["value"])

    def _element(self, css: str) -> dict:
        r = self._cmd("script.evaluate", {
            "expression": f"(() => {{ const el = document.querySelector({json.dumps(css)}); "
                          "if (el) el.scrollIntoView({block: 'center'}); return el; })()",
            "target": {"context": self.context}, "awaitPromise": False, "resultOwnership": "root"})
        node = r.get("result") or {}
        if node.get("type") != "node":
            raise BidiError(f"no element {css}")
        return {"sharedId": node["sharedId"]}

    def _click(self, css: str) -> None:
        el = self._element(css)
        self._cmd("input.performActions", {"context": self.context, "actions": [{
            "type": "pointer", "id": "finger", "parameters": {"pointerType": "mouse"},
            "actions": [{"type": "pointerMove", "x": 0, "y": 0, "origin": {"type": "element", "element": el}},
                        {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0}]}]})

    def _type(self, css: str, text: str) -> None:
        self.js(f"const el = document.querySelector({json.dumps(css)}); el.focus(); el.select(); return true;")
        keys: list[dict] = [{"type": "keyDown", "value": "\ue003"}, {"type": "keyUp", "value": "\ue003"}]  # Backspace
        for ch in text:
            keys += [{"type": "keyDown", "value": ch}, {"type": "keyUp", "value": ch}]
        self._cmd("input.performActions", {"context": self.context,
                                           "actions": [{"type": "key", "id": "keyboard", "actions": keys}]})

    def viewport(self, width: int, height: int) -> None:
        self._cmd("browsingContext.setViewport", {"context": self.context,
                                                  "viewport": {"width": width, "height": height}})

    def screenshot(self, path: Path) -> None:
        import base64

        r = self._cmd("browsingContext.captureScreenshot", {"context": self.context})
        Path(path).write_bytes(base64.b64decode(r["data"]))

    def close(self) -> None:
        try:
            self._cmd("session.end", {}, timeout=5)
        except Exception:
            pass
        try:
            self.ws.close()
        except Exception:
            pass
        _kill_group(self.proc)
        shutil.rmtree(self.tmp, ignore_errors=True)


# --- Chromium through Playwright ------------------------------------------------------------------


class ChromiumPhone(Phone):
    """Debian's Chromium through Playwright (a context of the session's browser)."""

    name = "chromium"

    def __init__(self, browser: Any, width: int = 390, height: int = 844) -> None:
        self.seen_errors = []
        self.ctx = browser.new_context(viewport={"width": width, "height": height}, is_mobile=True, has_touch=True)
        self.page = self.ctx.new_page()
        self.page.on("pageerror", lambda e: self.seen_errors.append(f"page error: {e}"))
        self.page.add_init_script(ERROR_HOOK)

    def goto(self, url: str) -> None:
        self.errors()
        self.page.goto(url)

    def back(self) -> None:
        self.errors()
        self.page.go_back()

    def _eval(self, body: str) -> Any:
        return json.loads(self.page.evaluate(
            f"async () => {{ const v = await (async () => {{ {body} }})(); return JSON.stringify(v === undefined ? null : v); }}"))

    def _click(self, css: str) -> None:
        self.page.locator(css).first.click(timeout=5000)

    def _type(self, css: str, text: str) -> None:
        self.page.locator(css).first.fill("")
        self.page.locator(css).first.press_sequentially(text)

    def viewport(self, width: int, height: int) -> None:
        self.page.set_viewport_size({"width": width, "height": height})

    def screenshot(self, path: Path) -> None:
        self.page.screenshot(path=str(path))

    def close(self) -> None:
        self.ctx.close()


# --- a relay the test can cut -----------------------------------------------------------------------


class Proxy:
    """A TCP relay on 127.0.0.1 to the server's port; ``mode`` is "up", "down" or "hang"."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.mode = "up"
        self.accepted = 0
        self.cond = threading.Condition()
        self.live: set[socket.socket] = set()
        self.lsock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.lsock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.lsock.bind(("127.0.0.1", 0))
        self.lsock.listen(64)
        self.port = self.lsock.getsockname()[1]
        self.closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def target(self, port: int) -> None:
        """Relay new connections to ``port`` (a restarted server)."""
        self.target_port = port

    def set(self, mode: str) -> None:
        """"up": relay; "down": close every live connection and refuse new ones at once;
        "hang": accept new connections and leave them unanswered until the mode changes."""
        assert mode in ("up", "down", "hang")
        with self.cond:
            self.mode = mode
            self.cond.notify_all()
            if mode == "down":
                for s in list(self.live):
                    self._shut(s)
                self.live.clear()

    @staticmethod
    def _shut(s: socket.socket) -> None:
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        try:
            s.close()
        except OSError:
            pass

    def _accept(self) -> None:
        while not self.closed:
            try:
                client, _ = self.lsock.accept()
            except OSError:
                return
            with self.cond:
                self.accepted += 1
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _serve(self, client: socket.socket) -> None:
        with self.cond:
            while self.mode == "hang" and not self.closed:
                self.cond.wait(0.5)
            if self.mode == "down" or self.closed:
                self._shut(client)
                return
            self.live.add(client)
        try:
            upstream = socket.create_connection(("127.0.0.1", self.target_port), timeout=5)
        except OSError:
            self._shut(client)
            return
        upstream.settimeout(None)
        with self.cond:
            if self.mode == "down":
                self._shut(client)
                self._shut(upstream)
                return
            self.live.add(upstream)

        def pump(src: socket.socket, dst: socket.socket) -> None:
            try:
                while True:
                    data = src.recv(65536)
                    if not data:
                        break
                    dst.sendall(data)
            except OSError:
                pass
            self._shut(src)
            self._shut(dst)
            with self.cond:
                self.live.discard(src)
                self.live.discard(dst)

        threading.Thread(target=pump, args=(upstream, client), daemon=True).start()
        pump(client, upstream)

    def close(self) -> None:
        self.closed = True
        self._shut(self.lsock)
        self.set("down")
