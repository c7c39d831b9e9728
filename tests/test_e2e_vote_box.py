"""The one table-vote box (PH.voteBox in app.js), in both games that use it, for the people at the
table: Word Basket's challenge and Diabolo's unknown word, each on a 1280×720 TV, a 390×844 phone
and a 360-px phone that is also the host's.

Checks: the TV shows the whole box inside the screen and clear of the corner QR; on the phones the
box fits the width, every button of it (ballots, the host's overrule) is at least 44 px in both
directions, a ballot says which vote it is for and the chosen one is marked with a check mark and
aria-pressed (not by colour alone); the words follow a language switch. Screenshots go to the
temporary shots folder (``PARTYHOST_SHOTS=docs``: docs/screenshots/) as ``vote-<game>-<page>.png``.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from partyhost.lexicon import latin

from .test_e2e_mind import menu_click, open_tv, shot
from .test_e2e_word_basket import close_all, watch
from .test_e2e_word_basket_night import challenge_a_made_up_word

pytestmark = [pytest.mark.e2e, pytest.mark.server]

expect.set_options(timeout=6_000)

PHONE_390 = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
PHONE_360 = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
MIN_TAP = 44

_UNDER_CORNER = """(el) => { const c = document.querySelector(".corner"); if (!c) return false;
  const k = c.getBoundingClientRect(), r = el.getBoundingClientRect();
  return r.left < k.right && r.right > k.left && r.top < k.bottom && r.bottom > k.top; }"""


def browser_phone(browser: Browser, base_url: str, name: str, device: dict, problems: list[str]) -> Page:
    page = browser.new_context(**device).new_page()
    watch(page, f"phone {name}", problems)
    page.goto(base_url + "/")
    page.get_by_test_id("name").fill(name)
    page.get_by_test_id("join").tap()
    expect(page.get_by_test_id("welcome")).to_contain_text(name)
    return page


def socket_phone(sio_peer, srv, name: str):
    peer = sio_peer(srv.url, {"role": "phone", "token": None, "lang": "ja"}, name)
    assert peer.send("join", {"name": name})["ok"]
    return peer


def game_view(peer) -> dict:
    return peer.wait_state(lambda s: s.get("game") and s["game"].get("phase"), "a game view")["game"]


def check_tv(tv: Page, game: str) -> None:
    box = tv.get_by_test_id("vote")
    expect(box).to_be_visible()
    r = box.bounding_box()
    assert r["x"] >= 0 and r["y"] >= 0 and r["x"] + r["width"] <= 1280 and r["y"] + r["height"] <= 720, r
    assert not box.evaluate(_UNDER_CORNER), f"{game}: the vote box is under the corner QR/roster"
    expect(tv.get_by_test_id("overrule-accept")).to_be_visible()  # the laptop's TV is the host
    expect(tv.get_by_test_id("ballot-accept")).to_have_count(0)  # nobody votes on the TV
    expect(tv.get_by_test_id("vote-countdown")).to_have_text(re.compile(r"\d"))


def check_phone(page: Page, where: str, host: bool) -> None:
    box = page.get_by_test_id("vote")
    expect(box).to_be_visible()
    width = page.evaluate("innerWidth")
    assert page.evaluate("document.scrollingElement.scrollWidth - innerWidth") <= 0, f"{where}: scrolls sideways"
    r = box.bounding_box()
    assert r["x"] >= 0 and r["x"] + r["width"] <= width + 0.5, (where, r)
    vote_id = page.evaluate("() => PH.last.game.vote.id")
    assert box.get_attribute("data-vote-id") == str(vote_id)
    names = ["ballot-accept", "ballot-reject"] + (["overrule-accept", "overrule-reject"] if host else [])
    for name in names:
        b = page.get_by_test_id(name).bounding_box()
        assert b and b["width"] >= MIN_TAP and b["height"] >= MIN_TAP, (where, name, b)
        assert b["x"] >= 0 and b["x"] + b["width"] <= width + 0.5, (where, name, b)
    if not host:
        expect(page.get_by_test_id("overrule-accept")).to_have_count(0)


def cast(page: Page, ballot: str, mark: str) -> None:
    """Tap a ballot: both are off until the answer, then the chosen one is marked in words too."""
    page.get_by_test_id(f"ballot-{ballot}").tap()
    chosen = page.get_by_test_id(f"ballot-{ballot}")
    expect(chosen).to_have_attribute("aria-pressed", "true")
    expect(chosen).to_contain_text(mark)
    other = "reject" if ballot == "accept" else "accept"
    expect(page.get_by_test_id(f"ballot-{other}")).to_have_attribute("aria-pressed", "false")


def look_and_vote(game: str, tv: Page, a: Page, h: Page, ballot: str) -> None:
    """Every page shows the open vote as it should (screenshots of each); the 390-px phone votes."""
    check_tv(tv, game)
    check_phone(a, "390 px", host=False)
    check_phone(h, "360 px host", host=True)
    shot(tv, f"vote-{game}-tv.png")
    shot(a, f"vote-{game}-phone-390.png")
    cast(a, ballot, "✓")
    expect(tv.get_by_test_id(f"tally-{ballot}")).to_have_text("1")
    shot(a, f"vote-{game}-phone-390-voted.png")
    shot(h, f"vote-{game}-phone-360-host.png")


def promote(tv: Page, page: Page) -> None:
    seat = page.evaluate("() => PH.last.me.seat")
    menu_click(tv, f"[data-promote='{seat}']")
    expect(page.locator(".tag.host").first).to_be_visible()


def test_word_basket_challenge_vote_box(server, browser, sio_peer):
    srv = server(mode="eventlet", seed=11)
    problems: list[str] = []
    tv = open_tv(browser, srv, problems)
    a = browser_phone(browser, srv.lan_url, "あき", PHONE_390, problems)
    h = browser_phone(browser, srv.lan_url, "ひな", PHONE_360, problems)
    try:
        b, c = socket_phone(sio_peer, srv, "Ben"), socket_phone(sio_peer, srv, "ちひろ")
        promote(tv, h)
        tv.locator("[data-choose=word_basket]").click()
        tv.get_by_test_id("start").click()
        word = challenge_a_made_up_word(b, c)

        expect(tv.get_by_test_id("vote-word")).to_have_text(word)
        expect(a.get_by_test_id("vote")).to_contain_text("認める？")
        look_and_vote("word_basket", tv, a, h, "accept")
        h.locator(".lang-switch").first.tap()
        expect(h.get_by_test_id("ballot-reject")).to_have_text("Reject")
        expect(h.get_by_test_id("overrule-reject")).to_have_text("Reject")
        check_phone(h, "360 px host, English", host=True)
        shot(h, "vote-word_basket-phone-360-host-en.png")
        h.get_by_test_id("overrule-accept").tap()  # the host decides: the word stands
        expect(tv.get_by_test_id("vote")).to_have_count(0)
        expect(tv.get_by_test_id("tv-event")).to_contain_text("ホストの判断")
        assert not problems, problems
    finally:
        close_all(tv, a, h)


def _nonword(table: list[dict]) -> list[dict] | None:
    singles = [c for c in table if not c["joker"] and len(c["face"]) == 1]
    for i in range(len(singles) - 2):
        trio = singles[i:i + 3]
        if not latin.is_known("".join(c["face"] for c in trio), "de"):
            return trio
    return None


def test_diabolo_unknown_word_vote_box(server, browser, sio_peer):
    srv = server(mode="eventlet", seed=12)
    problems: list[str] = []
    tv = open_tv(browser, srv, problems)
    dealer = socket_phone(sio_peer, srv, "Ben")  # the first seat deals round 1
    a = browser_phone(browser, srv.lan_url, "あき", PHONE_390, problems)
    h = browser_phone(browser, srv.lan_url, "ひな", PHONE_360, problems)
    try:
        promote(tv, h)
        tv.locator("[data-choose=diabolo]").click()
        expect(tv.get_by_test_id("dia-options")).to_be_visible()
        tv.get_by_test_id("start").click()
        trio = None
        for _ in range(40):
            g = game_view(dealer)
            trio = _nonword(g["table"])
            if trio:
                break
            assert dealer.act(type="turn", round=g["round"], turned=g["turned"])["ok"]
            dealer.wait_state(lambda s, n=g["turned"]: s["game"]["turned"] > n, "the next card")
        assert trio, "no three letters that are no word"
        word = "".join(c["face"] for c in trio)
        assert dealer.act(type="claim", round=g["round"], word=word, cards=[{"id": c["id"]} for c in trio])["ok"]

        expect(tv.get_by_test_id("vote")).to_contain_text(word)
        look_and_vote("diabolo", tv, a, h, "reject")
        menu_click(tv, ".lang-switch")
        expect(tv.get_by_test_id("overrule-reject")).to_have_text("Reject")
        shot(tv, "vote-diabolo-tv-en.png")
        h.get_by_test_id("ballot-reject").tap()  # two of two reject: the word is out, picking starts
        expect(tv.get_by_test_id("vote")).to_have_count(0)
        expect(a.get_by_test_id("pick-prompt")).to_be_visible()
        assert not problems, problems
    finally:
        close_all(tv, a, h)
