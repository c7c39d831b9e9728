"""Browser checks from a game night of Diabolo (Japanese players, German cards, some in English):
things that went wrong when people played it, each kept here so it stays fixed.

* A joker's letter picker follows a language switch (it stayed Japanese on an English phone).
* The next dealer's phone is gone at the scores: the TV says who deals next and its host button
  deals the round for them (nobody could go on before).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .test_e2e_mind import Phone, close_all, open_tv, shot

pytestmark = [pytest.mark.e2e, pytest.mark.server]


def test_joker_picker_language_and_the_host_deals_for_a_gone_dealer(server, browser, pw):
    srv = server(mode="eventlet", seed=31)
    problems: list[str] = []
    tv = open_tv(browser, srv, problems)
    phones = [Phone(browser, pw, srv.lan_url, n, problems) for n in ("あき", "ゆうた")]
    try:
        for ph in phones:
            ph.join()
        tv.locator("[data-choose=diabolo]").click()
        expect(tv.get_by_test_id("dia-options")).to_be_visible()
        tv.locator("[data-opt=end_seconds]").fill("5")
        tv.locator("[data-opt=end_seconds]").dispatch_event("change")
        expect(phones[1].page.locator(".dia-opts-ro")).to_be_visible()
        tv.get_by_test_id("start").click()
        a, b = (ph.page for ph in phones)
        expect(a.get_by_test_id("dealer")).to_be_visible()  # あき (s1) deals round 1

        # the dealer turns until a joker lies face up; ゆうた taps it: the picker asks in Japanese
        joker = b.get_by_test_id("row").locator("button.joker").first
        for _ in range(66):
            if joker.count():
                break
            turned = a.evaluate("PH.last.game.turned")
            a.get_by_test_id("turn").tap()
            expect(a.get_by_test_id("row").locator("[data-card]")).to_have_count(turned + 1)
        joker.tap()
        picker = b.get_by_test_id("joker-picker")
        expect(picker).to_contain_text("ジョーカー")
        # ゆうた switches the phone to English while the picker is open: it follows
        b.locator(".lang-switch").first.tap()
        expect(b.get_by_test_id("send")).to_have_text("Claim!")
        expect(picker.locator("p")).to_contain_text(re.compile("joker", re.I))
        expect(picker.get_by_test_id("joker-cancel")).to_have_text(re.compile("Cancel", re.I))
        shot(b, "diabolo-night-joker-en.png")
        picker.get_by_test_id("joker-cancel").tap()

        # the deck runs out, both pass: ゆうた deals next, but the phone is gone
        while a.evaluate("PH.last.game.deck_left"):
            a.evaluate("() => { const g = PH.last.game; return PH.act({type: 'turn', round: g.round, turned: g.turned}); }")
        expect(a.get_by_test_id("pass")).to_be_visible()
        a.get_by_test_id("pass").tap()
        b.get_by_test_id("pass").tap()
        expect(tv.get_by_test_id("round-end")).to_be_visible()
        b.context.close()
        expect(tv.get_by_test_id("tv-next-dealer")).to_contain_text("ゆうた")
        expect(a.get_by_test_id("deal")).to_have_count(0)  # not あき's turn to deal
        shot(tv, "diabolo-night-tv-next-dealer.png")
        tv.get_by_test_id("tv-deal").click()
        expect(tv.get_by_test_id("tv-round")).to_have_text(re.compile(r"2 / 4"))
        expect(tv.get_by_test_id("tv-deck")).to_contain_text("66")
        expect(a.get_by_test_id("round")).to_have_text(re.compile(r"2 / 4"))
        assert not [p for p in problems if "ゆうた" not in p], problems
    finally:
        close_all(tv, a)
