"""Issue 10 in a real browser: DNS rebinding is refused, pages cannot be framed, and the pages' own
Content-Security-Policy lets every game's screen run (no violation, no console error).

A second Chromium is started whose resolver maps ``evil.example`` to 127.0.0.1: exactly what a
rebinding attacker's DNS does to the laptop's own browser.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import CHROMIUM, CHROMIUM_ARGS

pytestmark = [pytest.mark.e2e, pytest.mark.server]

expect.set_options(timeout=8_000)


def collect(page, label: str, problems: list[str]) -> None:
    page.on("pageerror", lambda e: problems.append(f"{label}: page error: {e}"))
    page.on("console", lambda m: problems.append(f"{label}: console.{m.type}: {m.text}")
            if m.type in ("error", "warning") else None)


def test_a_rebound_name_gets_nothing_and_cannot_act_as_the_laptop(server, pw):
    srv = server()
    args = [a for a in CHROMIUM_ARGS if not a.startswith("--host-resolver-rules")]
    args.append("--host-resolver-rules=MAP evil.example 127.0.0.1")
    browser = pw.chromium.launch(executable_path=CHROMIUM, args=args, headless=True)
    try:
        page = browser.new_page()
        response = page.goto(f"http://evil.example:{srv.port}/tv")
        assert response.status == 403
        expect(page.locator("body")).to_contain_text("QR")
        # the page has no way in: its own Socket.IO handshake is refused too
        status = page.evaluate(
            "async () => (await fetch('/socket.io/?EIO=4&transport=polling')).status")
        assert status == 403
        # the real TV page of the laptop still has host powers afterwards
        tv = browser.new_page()
        tv.goto(srv.url + "/tv")
        expect(tv.get_by_test_id("room")).not_to_be_empty()
    finally:
        browser.close()
    assert "refused a request for Host 'evil.example" in srv.output()


def test_every_game_screen_runs_under_the_content_security_policy(server, browser, pw):
    """The TV and a phone open each of the five games' screens: nothing is blocked, nothing
    errs, and the pages may not be framed by another site."""
    srv = server()
    problems: list[str] = []
    tv_ctx = browser.new_context(viewport={"width": 1280, "height": 720})
    tv = tv_ctx.new_page()
    collect(tv, "tv", problems)
    response = tv.goto(srv.url + "/tv")
    csp = response.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp
    assert response.headers["x-frame-options"] == "DENY"
    expect(tv.get_by_test_id("room")).not_to_be_empty()
    phones = []
    for name in ("あお", "みどり", "しろ", "くろ"):
        ctx = browser.new_context(**pw.devices["Pixel 7"])
        page = ctx.new_page()
        collect(page, name, problems)
        page.goto(srv.lan_url + "/")
        page.get_by_test_id("name").fill(name)
        page.get_by_test_id("join").tap()
        expect(page.get_by_test_id("welcome")).to_contain_text(name)
        phones.append((ctx, page))
    for key in ("the_mind", "word_basket", "decrypto", "top_ten", "diabolo"):
        assert tv.evaluate("key => PH.host('choose', {game: key})", key)["ok"]
        result = tv.evaluate("() => PH.host('start')")
        assert result["ok"], (key, result)
        tv.wait_for_function("key => PH.last && PH.last.party.phase === 'game' && PH.last.game"
                             " && PH.last.party.game_key === key", arg=key)
        for _, page in phones:
            page.wait_for_function("key => PH.last && PH.last.game && PH.last.party.game_key === key",
                                   arg=key)
        tv.wait_for_timeout(300)  # let every screen draw its first frame
        assert tv.evaluate("() => PH.host('end')")["ok"]
        tv.wait_for_function("() => PH.last && !(PH.last.game && !PH.last.party.over)"
                             " || PH.last.party.phase === 'lobby'")
    # a site that frames the TV page gets nothing shown
    framer = tv_ctx.new_page()
    collect(framer, "framer", [])  # its own console is the blocked frame's report: not ours
    framer.set_content(f"<iframe id=f src='{srv.url}/tv'></iframe>")
    framer.wait_for_timeout(500)
    frame = framer.frame_locator("#f")
    expect(frame.get_by_test_id("room")).to_have_count(0)
    for ctx, _ in phones:
        ctx.close()
    tv_ctx.close()
    assert [p for p in problems if "Content Security Policy" in p or "page error" in p
            or "console.error" in p] == []
