"""Issue 16 item 5 (part): the toast live region holds only the newest message and is emptied
when it hides; lives and shuriken are one labelled image each for screen readers; with
``prefers-reduced-motion`` no animation loops. Real server, Debian's Chromium; ~10 s."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .test_e2e_mind import PHONE_DEVICE, Phone, close_all, open_tv

pytestmark = [pytest.mark.e2e, pytest.mark.server]


def test_labels_toast_and_reduced_motion(server, browser, pw):
    srv = server(seed=3)
    problems: list[str] = []
    tv = open_tv(browser, srv, problems)
    a = Phone(browser, pw, srv.lan_url, "あき", problems)
    b = Phone(browser, pw, srv.lan_url, "Ben", problems)
    try:
        a.join()
        b.join()
        # the toast: a refusal is announced, then the region empties (no stale text)
        other = browser.new_context(**pw.devices[PHONE_DEVICE], reduced_motion="reduce")
        page = other.new_page()
        page.goto(srv.lan_url + "/")
        page.get_by_test_id("name").fill("Ben")
        page.get_by_test_id("join").tap()
        toast = page.get_by_test_id("toast")
        expect(toast).to_contain_text("Ben")
        expect(toast).to_have_text("", timeout=8000)
        # emptied, it is not drawn: the hidden box sat just below the edge and its shadow showed as
        # a dark smudge at the bottom of every phone
        page.wait_for_function("""() => { const t = document.getElementById('toast');
            return !t.classList.contains('show') && getComputedStyle(t).visibility === 'hidden'; }""")
        tv.get_by_test_id("start").click()
        lives = a.page.get_by_test_id("lives")
        expect(lives).to_have_attribute("role", "img")
        expect(lives).to_have_attribute("aria-label", "ライフ 2")
        expect(a.page.get_by_test_id("shuriken")).to_have_attribute("aria-label", "手裏剣 1")
        # reduced motion: no infinite animation anywhere on a page that asks for it
        # Top Ten's drum roll loops forever; drawn on a page that asks for calm it does not
        drum = """() => { const ol = document.createElement('ol'); ol.className = 'tt-reveals';
            ol.innerHTML = '<li class="tile drum">?</li>'; document.body.appendChild(ol);
            const st = getComputedStyle(ol.firstChild); const r = [st.animationName, st.animationIterationCount];
            ol.remove(); return r; }"""
        name, count = page.evaluate(drum)  # one near-instant run, or none at all
        assert name == "none" or count == "1", (name, count)
        assert a.page.evaluate(drum) == ["tt-drum", "infinite"]  # the same rule, motion allowed
        assert page.evaluate("() => matchMedia('(prefers-reduced-motion: reduce)').matches")
        other.close()
        assert not problems, problems
    finally:
        close_all(tv, a.page, b.page)
