"""The lobby's deck-language option names what "auto" is now (issue 27: English phones got
Japanese keywords and themes by default). Three English phones and one Japanese: the TV's
Decrypto and Top Ten options offer "Auto (English)" selected by default, the host
can pick Japanese, and a started Decrypto deals English keywords. Real server, the TV page.
About 6 s.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .test_e2e_howto import open_tv_at
from .test_e2e_mind import close_all, shot, watch

pytestmark = [pytest.mark.e2e, pytest.mark.server]

PHONE = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}

# the option's select shows its whole text and stays on screen
_WHOLE = """(sel) => { const r = sel.getBoundingClientRect();
  return { inside: r.left >= 0 && r.right <= innerWidth + 0.5, cut: sel.scrollWidth > sel.clientWidth + 1 || r.width < 90 }; }"""


def test_the_lobby_offers_the_players_language_by_default_and_the_host_can_choose(server, browser, sio_peer):
    srv = server(mode="eventlet", seed=3)
    problems: list[str] = []
    peers = []
    for name, lang in (("Amy", "en"), ("Ben", "en"), ("Cal", "en"), ("あき", "ja")):
        peer = sio_peer(srv.url, {"role": "phone", "token": None, "lang": lang}, name)
        assert peer.send("join", {"name": name})["ok"]
        peers.append(peer)
    tv = open_tv_at(browser, srv, problems, 1280, 720, lang="en")
    phone = None
    try:
        tv.locator(".game-tile[data-choose=top_ten]").click()
        themes = tv.get_by_test_id("opt-themes")
        expect(themes).to_have_value("auto")
        expect(themes.locator("option:checked")).to_have_text("Auto (English)")
        assert themes.evaluate(_WHOLE) == {"inside": True, "cut": False}
        shot(tv, "deck-lang-top_ten-tv-en.png")
        # the host's phone (360 px, English) shows the same option whole
        ctx = browser.new_context(**PHONE)
        token = peers[0].welcomes[-1]["token"]
        ctx.add_init_script(f"localStorage.setItem('ph.token', {token!r})")
        phone = ctx.new_page()
        watch(phone, "phone", problems)
        phone.goto(srv.lan_url + "/?lang=en")
        assert tv.evaluate("() => PH.host('promote', { seat: 's1' })")["ok"]
        mine = phone.get_by_test_id("opt-themes")
        expect(mine.locator("option:checked")).to_have_text("Auto (English)")
        assert mine.evaluate(_WHOLE) == {"inside": True, "cut": False}
        shot(phone, "deck-lang-top_ten-phone-en.png")
        tv.locator(".game-tile[data-choose=decrypto]").click()
        select = tv.get_by_test_id("dc-lang")
        expect(select).to_have_value("auto")
        expect(select.locator("option:checked")).to_have_text("Auto (English)")
        shot(tv, "deck-lang-decrypto-tv-en.png")
        select.select_option("ja")
        tv.wait_for_function("() => PH.last.party.options.lang === 'ja'")
        select = tv.get_by_test_id("dc-lang")
        select.select_option("auto")
        tv.wait_for_function("() => PH.last.party.options.lang === 'auto'")
        tv.get_by_test_id("start").click()
        state = peers[0].wait_state(lambda s: s["party"]["phase"] == "game" and s["game"], "the game")
        assert state["game"]["lang"] == "en"
        assert not problems, problems
    finally:
        close_all(tv, *([phone] if phone else []))
