"""Browser end-to-end for issue 16 (a table that waits for its players): a locked phone in The Mind
stops play until it is back, and nobody loses a life for it; a seat is taken back from a second
browser context with the TV's permission, keeps its hand, and the old page is told it moved.

Real server, the laptop's TV page and phones in Debian's Chromium; every wait is on state
(Playwright's ``expect``), never on time. Screenshots of the paused Mind and of the take-over
prompt go to docs/screenshots/ with ``PARTYHOST_SHOTS=docs``.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .test_e2e_mind import PHONE_DEVICE, Phone, close_all, open_tv, shot, watch

pytestmark = [pytest.mark.e2e, pytest.mark.server]

expect.set_options(timeout=8_000)


def start_mind(tv, phones):
    for ph in phones:
        ph.join()
    expect(tv.get_by_test_id("roster").locator("li .who")).to_have_text([ph.name for ph in phones])
    tv.get_by_test_id("start").click()
    expect(tv.locator(".mind.tv")).to_be_visible()
    for ph in phones:
        expect(ph.page.get_by_test_id("hand").locator(".chip")).to_have_count(1)
        ph.hand = ph.chips()


def ready(ph):
    ph.page.locator('[data-testid=ready][data-ready="1"]').tap()
    expect(ph.page.locator('[data-testid=ready][data-ready="0"]')).to_be_visible()


def test_a_locked_phone_pauses_the_mind_and_nobody_loses_a_life(server, browser, pw):
    srv = server(seed=16)
    problems: list[str] = []
    tv = open_tv(browser, srv, problems)
    yuki = Phone(browser, pw, srv.lan_url, "ゆうき", problems)
    ben = Phone(browser, pw, srv.lan_url, "Ben", problems)
    try:
        start_mind(tv, [yuki, ben])
        mind = tv.locator(".mind.tv")
        lives = mind.locator(".lives b")
        expect(lives).to_have_text("2")
        ready(yuki)
        ben.page.locator('[data-testid=ready][data-ready="1"]').tap()
        expect(mind).to_have_class(re.compile(r"\bphase-playing\b"))
        # ゆうき's screen locks: the page (and its socket) goes
        yuki.page.close()
        wait = tv.get_by_test_id("away-wait")
        expect(wait).to_contain_text("ゆうき")
        expect(mind).to_have_class(re.compile(r"\bphase-ready\b"))
        expect(tv.get_by_test_id("continue-without")).to_be_visible()  # the laptop's TV is the host
        expect(ben.page.get_by_test_id("away-wait")).to_contain_text("ゆうき")
        # Ben cannot play over the absent card: play is stopped until ゆうき is back
        ready(ben)
        expect(mind).to_have_class(re.compile(r"\bphase-ready\b"))
        expect(ben.page.get_by_test_id("play")).to_have_count(0)
        shot(tv, "tv-mind-waiting.png")
        # the phone unlocks: same context, same token, same seat and hand
        yuki.page = yuki.ctx.new_page()
        watch(yuki.page, "phone ゆうき again", problems)
        yuki.page.goto(srv.lan_url + "/")
        expect(yuki.page.get_by_test_id("hand").locator(".chip")).to_have_text([str(c) for c in yuki.hand])
        expect(wait).to_have_count(0)
        expect(tv.get_by_test_id("tv-event")).to_contain_text("ゆうき")
        # everyone readies again, as after a stop, and the level is played out in order
        ready(yuki)
        ben.page.locator('[data-testid=ready][data-ready="1"]').tap()
        expect(mind).to_have_class(re.compile(r"\bphase-playing\b"))
        for played, ph in enumerate(sorted([yuki, ben], key=lambda p: p.hand[0]), 1):
            ph.page.locator(f'[data-testid=play][data-card="{ph.hand[0]}"]').tap()
            ph.hand = []
            # as a table would: the next card goes down once this one is on the pile (two phones'
            # taps a few ms apart may reach the server in either order under load)
            tv.wait_for_function("(n) => PH.last.game.pile.length >= n || PH.last.game.level > 1", arg=played)
        expect(tv.get_by_test_id("level")).to_contain_text("2 /")
        expect(lives).to_have_text("2")
        assert not problems, problems
    finally:
        close_all(tv, ben.page, yuki.page)


def test_a_seat_is_taken_back_from_another_browser_with_the_tvs_permission(server, browser, pw):
    srv = server(seed=7)
    problems: list[str] = []
    tv = open_tv(browser, srv, problems)
    yuki = Phone(browser, pw, srv.lan_url, "ゆうき", problems)
    ben = Phone(browser, pw, srv.lan_url, "Ben", problems)
    safari = browser.new_context(**pw.devices[PHONE_DEVICE])  # the same person, another browser
    page = safari.new_page()
    watch(page, "phone ゆうき (other browser)", problems)
    try:
        start_mind(tv, [yuki, ben])
        hand = yuki.hand
        # LINE's in-app browser loses its connection (and never comes back by itself)
        yuki.page.evaluate("() => PH.socket.disconnect()")
        expect(tv.locator('.mind.tv li[data-seat="s1"].away')).to_be_visible()
        page.goto(srv.lan_url + "/")
        page.get_by_test_id("name").fill("ゆうき")
        page.get_by_test_id("join").tap()
        page.get_by_test_id("claim-ask").tap()
        expect(page.get_by_test_id("claim-pending")).to_be_visible()
        prompt = tv.get_by_test_id("claim-prompt")
        expect(prompt).to_contain_text("ゆうきさんが別の端末から戻ろうとしています")
        expect(ben.page.get_by_test_id("claim-prompt")).to_have_count(0)  # players are not asked
        shot(tv, "tv-claim-prompt.png")
        shot(page, "phone-claim-pending.png")
        tv.get_by_test_id("claim-allow").click()
        expect(prompt).to_have_count(0)
        expect(page.get_by_test_id("hand").locator(".chip")).to_have_text([str(c) for c in hand])
        assert page.evaluate("() => localStorage.getItem('ph.token')") not in (None, yuki.token())
        # the old page wakes up: it is told its seat moved, and holds no token any more
        yuki.page.evaluate("() => PH.socket.connect()")
        expect(yuki.page.get_by_test_id("claim-moved")).to_be_visible()
        assert yuki.token() is None
        # a connected seat can never be asked for
        other = browser.new_context(**pw.devices[PHONE_DEVICE])
        op = other.new_page()
        op.goto(srv.lan_url + "/")
        op.get_by_test_id("name").fill("Ben")
        op.get_by_test_id("join").tap()
        expect(op.get_by_test_id("toast")).to_contain_text("Ben")
        expect(op.get_by_test_id("claim-ask")).to_have_count(0)
        other.close()
        assert not problems, problems
    finally:
        close_all(tv, ben.page, yuki.page, page)
