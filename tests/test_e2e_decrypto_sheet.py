"""The Decrypto clue sheet's own words on a 360 px phone (issue 27): the note under the team's
heading pointed at "the four words above" that sit below it, and once the encryptor sent the
round's clues its keyword slots showed empty (the keywords hide with the code) with that note
still saying they were shown. Now a hidden slot says so, the note says when the keywords
show, and a sheet with no revealed code yet says what will appear in it.

The real server, the TV and four phones in Debian's Chromium (about 10 s).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .test_e2e_mind import Phone, close_all, open_tv, shot

pytestmark = [pytest.mark.e2e, pytest.mark.server]


def test_the_encryptors_sheet_says_its_keywords_are_hidden_not_empty(server, browser, pw):
    srv = server(mode="eventlet", seed=4242)
    problems: list[str] = []
    tv = open_tv(browser, srv, problems)
    phones = [Phone(browser, pw, srv.lan_url, n, problems) for n in ["あき", "Ben", "ちか", "Dora"]]
    try:
        for ph in phones:
            ph.join()
        tv.locator("[data-choose=decrypto]").click()
        tv.get_by_test_id("start").click()
        for ph in phones:
            ph.page.set_viewport_size({"width": 360, "height": 800})
        enc = next(ph.page for ph in phones if ph.page.get_by_test_id("encryptor").count())
        team = enc.evaluate("PH.last.game.team")
        sheet = enc.get_by_test_id(f"sheet-{team}")
        # before sending: the keywords are there, and the note says who sees them, no direction
        expect(sheet.locator("[data-testid^=sheet-kw-]")).to_have_count(4)
        note = sheet.get_by_test_id("sheet-note")
        expect(note).to_have_text("（番号の横のキーワードは、あなたのチームだけに見えています）")
        expect(sheet.get_by_test_id("sheet-empty")).to_be_visible()  # no code revealed yet
        for i, c in enumerate(["ボタン", "漁師", "玉手箱"]):
            enc.get_by_test_id(f"clue-{i}").fill(c)
        enc.get_by_test_id("send-clues").tap()
        expect(enc.get_by_test_id("send-clues")).to_have_count(0)
        # sent: each slot says its keyword is hidden, and the note says when it shows
        expect(sheet.get_by_test_id("sheet-hidden-kw")).to_have_count(4)
        expect(sheet.get_by_test_id("sheet-hidden-kw").first).to_have_text("かくし中")
        expect(note).to_have_text("（キーワードは、コードを見ている間だけ表示します）")
        sheet.scroll_into_view_if_needed()
        shot(enc, "decrypto-sheet-hidden-phone-360.png")
        # a peek shows code and keywords together
        enc.get_by_test_id("code-peek").tap()
        expect(sheet.locator("[data-testid^=sheet-kw-]")).to_have_count(4)
        expect(note).to_contain_text("あなたのチームだけに見えています")
        # and in English
        enc.get_by_test_id("lang").tap()
        # the peek closes by itself (5 s): hidden again, said in English
        expect(sheet.get_by_test_id("sheet-hidden-kw")).to_have_count(4, timeout=10_000)
        expect(note).to_have_text("(your keywords show only while you peek at the code)")
        expect(sheet.get_by_test_id("sheet-hidden-kw").first).to_have_text("hidden")
        assert enc.evaluate("() => document.documentElement.scrollWidth") <= 360
        assert not problems, problems
    finally:
        close_all(tv, *(ph.page for ph in phones))
