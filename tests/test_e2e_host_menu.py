"""The TV's host menu (issue 16, item 6, "a quieter TV"): no kick or promote button beside the
names on the shared screen; one button in the top bar opens a panel with each seat's kick (with a
confirm) and promote, the join address, the language and the coach's skip. It is a keyboard and
screen-reader friendly disclosure (aria-expanded, focus moves in, Esc closes and gives focus
back), readable at 1280x720 and 1920x1080, and reachable over the pause screen.

Real server, the laptop's TV page in Debian's Chromium, phones over Socket.IO; waits are on state.
``PARTYHOST_SHOTS=docs`` writes docs/screenshots/tv-host-menu.png.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .test_e2e_howto import seat_players
from .test_e2e_mind import close_all, open_tv, shot

pytestmark = [pytest.mark.e2e, pytest.mark.server]

# every text in the open panel: its smallest font size, and whether the panel fits the screen
_LEGIBLE = """() => { const p = document.getElementById("host-menu"), r = p.getBoundingClientRect();
  let min = 1e9; const walk = document.createTreeWalker(p, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) { const n = walk.currentNode; if (!n.textContent.trim()) continue;
    min = Math.min(min, parseFloat(getComputedStyle(n.parentElement).fontSize)); }
  return { min, fits: r.top >= 0 && r.left >= 0 && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5,
           scrolls: p.scrollHeight > p.clientHeight + 1 }; }"""


def test_host_menu_holds_the_host_tools_and_works_from_the_keyboard(server, browser, sio_peer):
    srv = server(mode="eventlet", seed=16)
    problems: list[str] = []
    tv = open_tv(browser, srv, problems)
    try:
        aki, ben, chloe, dan = seat_players(srv, sio_peer, ["あき", "Ben", "Chloé", "Dan"])
        roster = tv.get_by_test_id("roster")
        expect(roster.locator("li")).to_have_count(4)
        # the shared screen shows names only, and the room code small in the top bar
        assert tv.locator("#app button[data-kick], #app button[data-promote], #app [data-kick-ask]").count() == 0
        expect(tv.locator(".tvbar [data-testid=room-code]")).to_have_text(re.compile(r"^[A-Z]{4}$"))
        assert tv.locator("#app [data-testid=room-code]").count() == 0
        button, panel = tv.get_by_test_id("host-menu"), tv.get_by_test_id("host-menu-panel")
        expect(button).to_have_attribute("aria-expanded", "false")
        expect(panel).to_be_hidden()

        # keyboard: Enter opens it and the focus moves in; Tab walks its buttons; Esc closes it
        button.focus()
        tv.keyboard.press("Enter")
        expect(panel).to_be_visible()
        expect(button).to_have_attribute("aria-expanded", "true")
        expect(panel).to_have_attribute("role", "dialog")
        expect(panel).to_have_accessible_name("ホストメニュー")
        assert tv.evaluate("() => document.getElementById('host-menu').contains(document.activeElement)")
        tv.keyboard.press("Tab")
        assert tv.evaluate("() => document.activeElement.closest('#host-menu') !== null && document.activeElement.tagName") == "BUTTON"
        # each seat's tools say whom they are for
        expect(panel.locator("[data-promote=s2]")).to_have_accessible_name("ホストにする：Ben")
        expect(panel.locator("[data-kick-ask=s3]")).to_have_accessible_name("退出させる：Chloé")
        expect(panel.get_by_test_id("menu-join-url")).to_have_text(tv.get_by_test_id("join-url").inner_text())
        tv.keyboard.press("Escape")
        expect(panel).to_be_hidden()
        expect(button).to_have_attribute("aria-expanded", "false")
        expect(button).to_be_focused()

        # promote: Ben becomes a host (and is told so), from the menu
        button.click()
        panel.locator("[data-promote=s2]").click()
        expect(roster.locator("li[data-seat=s2] .tag.host")).to_be_visible()
        ben.wait_state(lambda s: s["host"], "Ben is host")
        expect(panel.locator("[data-promote=s2]")).to_have_text("ホストをやめる")

        # legible (host tag included) and inside the screen at both TV sizes
        tv.keyboard.press("Escape")
        for size in ({"width": 1280, "height": 720}, {"width": 1920, "height": 1080}):
            tv.set_viewport_size(size)
            button.click()
            found = tv.evaluate(_LEGIBLE)
            print("host menu at", size, found)
            assert found["fits"], (size, found)
            assert found["min"] >= 14 * size["width"] / 1280, (size, found)  # 14 px and up at 1280, scaled at 1920
            if size["width"] == 1280:
                shot(tv, "tv-host-menu.png")
            tv.keyboard.press("Escape")

        button.click()

        # kick: a confirm first; "やめる" keeps the seat, yes removes it
        panel.locator("[data-kick-ask=s3]").click()
        expect(panel.get_by_test_id("kick-yes")).to_be_visible()
        expect(panel).to_contain_text("Chloéさんを退出させますか")
        expect(panel.get_by_test_id("kick-no")).to_be_focused()
        panel.get_by_test_id("kick-no").click()
        expect(panel.get_by_test_id("kick-yes")).to_have_count(0)
        expect(panel.locator("[data-kick-ask=s3]")).to_be_focused()
        expect(roster.locator("li")).to_have_count(4)
        panel.locator("[data-kick-ask=s3]").click()
        panel.get_by_test_id("kick-yes").click()
        expect(roster.locator("li")).to_have_count(3)
        expect(roster.locator("li[data-seat=s3]")).to_have_count(0)
        chloe.wait(lambda: "kicked" in chloe.events, "Chloé told she was removed")

        # the language: the TV in English, from the menu
        panel.get_by_test_id("lang").click()
        expect(panel.locator("#host-menu-title")).to_have_text("Host menu")
        expect(tv.get_by_test_id("start")).to_have_text("Start")
        tv.keyboard.press("Escape")

        # in a game, paused: the menu is still there above the pause screen
        tv.get_by_test_id("start").click()
        tv.get_by_test_id("pause").click()
        expect(tv.get_by_test_id("paused")).to_be_visible()
        expect(tv.get_by_test_id("paused").locator("[data-kick], [data-promote]")).to_have_count(0)
        button.click()  # a real click: nothing covers it
        expect(panel).to_be_visible()
        expect(panel.locator("[data-kick-ask=s4]")).to_be_visible()
        assert not problems, problems
        del aki, dan
    finally:
        close_all(tv)


_BOX = """(el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }"""


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_host_menu_is_a_dialog_that_leaves_start_and_the_tiles_free(server, browser, sio_peer):
    """Trial ("left alone"): a click outside closes the menu, Tab and Shift+Tab stay inside it, a
    kick confirm does not outlive the panel (Esc, 閉じる, a click outside), and at 1280x720 the open
    menu covers neither スタート nor a game tile, so both stay clickable. About 10 s."""
    srv = server(mode="eventlet", seed=16)
    problems: list[str] = []
    tv = open_tv(browser, srv, problems)
    try:
        seat_players(srv, sio_peer, ["あき", "Ben", "Chloé", "Dan"])
        expect(tv.get_by_test_id("roster").locator("li")).to_have_count(4)
        button, panel = tv.get_by_test_id("host-menu"), tv.get_by_test_id("host-menu-panel")
        start = tv.get_by_test_id("start")
        expect(start).to_be_enabled()
        armed = tv.locator("#host-menu [data-testid=kick-yes]")  # hidden or not

        # 1280x720: Start and every tile outside the panel, and Start is what a click there hits
        for size in ({"width": 1280, "height": 720}, {"width": 1920, "height": 1080}):
            tv.set_viewport_size(size)
            button.click()
            expect(panel).to_be_visible()
            menu_box = panel.evaluate(_BOX)
            targets = [start, *tv.locator(".game-tile").all()]
            assert len(targets) == 6
            for target in targets:
                box = target.evaluate(_BOX)
                assert not _overlap(menu_box, box), (size, menu_box, box)
            assert start.evaluate("""(el) => { const r = el.getBoundingClientRect();
                return el.contains(document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2)); }""")
            tv.keyboard.press("Escape")
            expect(panel).to_be_hidden()
        tv.set_viewport_size({"width": 1280, "height": 720})

        # Tab and Shift+Tab walk round the panel's controls, never out into the page
        button.click()
        stops = panel.locator("button:visible, select:visible").count()
        assert stops >= 10
        inside = "() => document.getElementById('host-menu').contains(document.activeElement) && document.activeElement.id !== 'host-menu'"
        for key in ("Tab", "Shift+Tab"):
            for _ in range(stops + 2):
                tv.keyboard.press(key)
                assert tv.evaluate(inside), (key, tv.evaluate("() => document.activeElement.outerHTML.slice(0, 80)"))
        # from the first control Shift+Tab goes to the last, and Tab from there to the first
        panel.get_by_test_id("host-menu-close").focus()
        tv.keyboard.press("Shift+Tab")
        expect(panel.get_by_test_id("lang")).to_be_focused()
        tv.keyboard.press("Tab")
        expect(panel.get_by_test_id("host-menu-close")).to_be_focused()

        # a kick confirm left armed goes with the panel: Esc, 閉じる, a click outside
        for close in ("Escape", "close", "outside"):
            if not panel.is_visible():
                button.click()
            panel.locator("[data-kick-ask=s3]").click()
            expect(panel.get_by_test_id("kick-yes")).to_be_visible()
            if close == "Escape":
                tv.keyboard.press("Escape")
                expect(button).to_be_focused()
            elif close == "close":
                panel.get_by_test_id("host-menu-close").click()
            else:
                tv.get_by_test_id("roster").click()  # the players list at the right: outside the panel
            expect(panel).to_be_hidden()
            expect(button).to_have_attribute("aria-expanded", "false")
            expect(armed).to_have_count(0)
            button.click()
            expect(panel.locator("[data-kick-ask=s3]")).to_be_visible()
            expect(armed).to_have_count(0)
        expect(tv.get_by_test_id("roster").locator("li")).to_have_count(4)  # nobody was removed

        # a click outside closes the menu and still does its own work: a tile chooses its game
        tile = tv.locator(".game-tile[data-choose=word_basket]")
        tile.click()
        expect(panel).to_be_hidden()
        expect(tile).to_have_class(re.compile(r"\bon\b"))
        # the menu button itself still toggles it
        button.click()
        expect(panel).to_be_visible()
        button.click()
        expect(panel).to_be_hidden()
        assert not problems, problems
    finally:
        close_all(tv)
