"""Temporary: screenshots for the copy helper's own eyes (not committed)."""
import pytest
from playwright.sync_api import expect
from .test_e2e_mind import close_all, open_tv, watch
from .test_e2e_copy import _join

pytestmark = [pytest.mark.e2e, pytest.mark.server]
OUT = "/tmp/copy/shots/"


def test_shots(server, browser, sio_peer):
    srv = server(mode="eventlet", seed=11)
    problems = []
    tv = open_tv(browser, srv, problems)
    peers = [_join(sio_peer, srv, n) for n in ("ゆうき", "Ben")]
    ph = browser.new_context(viewport={"width": 360, "height": 800}, has_touch=True, is_mobile=True).new_page()
    ph.goto(srv.url + "/")
    ph.get_by_test_id("name").fill("あき")
    ph.get_by_test_id("join").tap()
    expect(ph.get_by_test_id("welcome")).to_be_visible()
    ph.screenshot(path=OUT + "phone-lobby.png")
    tv.locator("[data-choose=the_mind]").click()
    tv.get_by_test_id("start").click()
    peers[0].wait_state(lambda s: s.get("game") and s["game"].get("phase") == "ready", "ready")
    for p in peers:
        p.close()
    expect(tv.get_by_test_id("away-wait")).to_contain_text("Benさん", timeout=15000)
    tv.screenshot(path=OUT + "mind-tv-waiting.png")
    ph.screenshot(path=OUT + "mind-phone-waiting.png")
    tv.get_by_test_id("lang").click()
    tv.screenshot(path=OUT + "mind-tv-waiting-en.png")
    close_all(tv, ph)


def test_diabolo_dealer(server, browser, sio_peer):
    srv = server(mode="eventlet", seed=12)
    problems = []
    tv = open_tv(browser, srv, problems)
    ph = browser.new_context(viewport={"width": 360, "height": 800}, has_touch=True, is_mobile=True).new_page()
    ph.goto(srv.url + "/")
    ph.get_by_test_id("name").fill("あき")
    ph.get_by_test_id("join").tap()
    expect(ph.get_by_test_id("welcome")).to_be_visible()
    peers = [_join(sio_peer, srv, n) for n in ("ゆうき", "Ben")]
    tv.locator("[data-choose=diabolo]").click()
    ph.screenshot(path=OUT + "diabolo-phone-lobby.png")
    tv.get_by_test_id("start").click()
    expect(ph.get_by_test_id("dealer")).to_be_visible(timeout=15000)
    ph.screenshot(path=OUT + "diabolo-phone-dealer.png")
    close_all(tv, ph)
