"""Browser tests: a finished game's ranking on the TV and the phones is the one the game computed
(its view's ``places``, from ``Game.outcome``), ties shown as a shared place number, drawn in the
game's order. Word Basket (the winner, then cards left: 1, 2, 3, 3) and Diabolo (equal totals
share first place: 1, 1, 3); eight Word Basket places fit a 720p TV. Staged scenes (tests/reveal_stage.py), so the tests wait for state,
never for time. TV at 1280x720 (and 1920x1080), phones at 360x800; axe on a phone's ranking. A phone marks
its own row in words (あなた) and the TV marks none. About 40 s (three tests, each with its host).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from . import reveal_stage as stage
from .test_e2e_axe import axe
from .test_e2e_howto import open_tv_at
from .test_e2e_mind import PHONE_DEVICE, close_all, shot, watch
from .test_e2e_reveals import scene

pytestmark = [pytest.mark.e2e, pytest.mark.server]

# The seats of a ranking in the order drawn, each with the place number shown.
_ROWS = """(sel) => [...document.querySelectorAll(sel)].map((el) => [el.dataset.seat,
    el.querySelector('.pl').textContent.trim()])"""


def open_phone(browser, pw, srv, token, problems, label):
    """A 360x800 phone of the seat that holds ``token``, at the LAN origin."""
    ctx = browser.new_context(**{**pw.devices[PHONE_DEVICE], "viewport": {"width": 360, "height": 800}})
    ctx.add_init_script(f"localStorage.setItem('ph.token', {token!r})")
    page = ctx.new_page()
    watch(page, label, problems)
    page.goto(srv.lan_url + "/")
    return page


# The painted place badges of the winners' rows (the element that carries the badge's fill,
# the cell itself or a box inside it), top to bottom: [top, bottom] in CSS px.
_BADGES = """() => [...document.querySelectorAll('[data-testid=scores] tr.win td.pl')].map((td) => {
    const el = [td, ...td.querySelectorAll('*')].find((e) => getComputedStyle(e).backgroundColor !== 'rgba(0, 0, 0, 0)');
    const r = el.getBoundingClientRect();
    return [r.top, r.bottom];
})"""


def badges_apart(page, gap=3):
    """Each tied first-place badge reads as its own: at least ``gap`` px between neighbours."""
    boxes = page.evaluate(_BADGES)
    assert len(boxes) >= 2, boxes
    for (_, bottom), (top, _) in zip(boxes, boxes[1:]):
        assert top - bottom >= gap, boxes


def no_sideways_scroll(page):
    width = page.evaluate("() => [innerWidth, document.documentElement.scrollWidth]")
    assert width[1] <= width[0], width


def test_word_basket_ranking_shares_a_place_on_the_tv_and_a_phone(server, browser, pw, sio_peer, tmp_path):
    srv, tokens, _ = scene(server, sio_peer, tmp_path, stage.word_basket_tie, present=False)
    problems: list[str] = []
    tv = open_tv_at(browser, srv, problems, 1280, 720)
    phones = []
    try:
        # s1 won; s3 has 1 card left, s2 and s4 have 2 each: they share third place
        want = [["s1", "1"], ["s3", "2"], ["s2", "3"], ["s4", "3"]]
        items = tv.get_by_test_id("ranking").locator("li")
        expect(items).to_have_count(4)
        assert tv.evaluate(_ROWS, "[data-testid=ranking] li") == want
        expect(items.locator(".val")).to_have_text(["0", "1", "2", "2"])
        expect(tv.get_by_test_id("ranking-you")).to_have_count(0)  # the TV is nobody's
        shot(tv, "final-ranking-word_basket-tv.png")
        tv.set_viewport_size({"width": 1920, "height": 1080})
        expect(tv.get_by_test_id("ranking")).to_be_in_viewport()
        shot(tv, "final-ranking-word_basket-tv-1080.png")
        # a tied player's phone and the winner's phone show the same ranking
        for i, label in ((3, "s4 phone"), (0, "s1 phone")):
            phone = open_phone(browser, pw, srv, tokens[i], problems, label)
            phones.append(phone)
            expect(phone.get_by_test_id("you-result")).to_be_visible()
            expect(phone.get_by_test_id("ranking").locator("li")).to_have_count(4)
            assert phone.evaluate(_ROWS, "[data-testid=ranking] li") == want
            # the phone's own row, and only it, says あなた (and its name is bold)
            seat = label.split()[0]
            expect(phone.get_by_test_id("ranking").locator("li.me")).to_have_attribute("data-seat", seat)
            expect(phone.get_by_test_id("ranking-you")).to_have_text("あなた")
            expect(phone.locator(f"[data-testid=ranking] li[data-seat={seat}] [data-testid=ranking-you]")).to_have_count(1)
            assert int(phone.locator("[data-testid=ranking] li.me .who").evaluate("(el) => getComputedStyle(el).fontWeight")) >= 700
            expect(phone.get_by_test_id("ranking")).to_be_in_viewport()
            no_sideways_scroll(phone)
        shot(phones[0], "final-ranking-word_basket-phone.png")
        assert axe(phones[0], "Word Basket phone, the final ranking") == []
        assert not problems, problems
    finally:
        close_all(tv, *phones)


def test_word_basket_ranking_of_eight_fits_the_720p_tv(server, browser, sio_peer, tmp_path):
    """Eight players with long names: every place is on the screen (two columns), none cut off."""
    srv, _, _ = scene(server, sio_peer, tmp_path, stage.word_basket_eight, names=stage.LONG_NAMES[:8], present=False)
    problems: list[str] = []
    tv = open_tv_at(browser, srv, problems, 1280, 720)
    try:
        expect(tv.get_by_test_id("ranking").locator("li")).to_have_count(8)
        assert [p for _, p in tv.evaluate(_ROWS, "[data-testid=ranking] li")] == ["1", "2", "2", "2", "5", "5", "5", "8"]
        cut = tv.evaluate("""() => { const box = document.querySelector('.wb-right').getBoundingClientRect();
            return [...document.querySelectorAll('[data-testid=ranking] li')].filter((li) => {
              const r = li.getBoundingClientRect();
              return r.bottom > Math.min(box.bottom, innerHeight) + 0.5 || r.right > box.right + 0.5; }).map((li) => li.dataset.seat); }""")
        shot(tv, "final-ranking-word_basket-tv-eight.png")
        assert cut == [], cut  # one column of eight: the last two rows were cut off
        assert not problems, problems
    finally:
        close_all(tv)


def test_diabolo_ranking_shares_first_place_and_follows_the_games_ranking(server, browser, pw, sio_peer, tmp_path):
    srv, tokens, _ = scene(server, sio_peer, tmp_path, stage.diabolo_tie, present=False)
    problems: list[str] = []
    tv = open_tv_at(browser, srv, problems, 1280, 720)
    phone = None
    try:
        # s2 and s3 took 4 cards each: both first; s1 (none) is third
        want = [["s2", "1"], ["s3", "1"], ["s1", "3"]]
        rows = tv.get_by_test_id("scores").locator("tbody tr")
        expect(rows).to_have_count(3)
        assert tv.evaluate(_ROWS, "[data-testid=scores] tbody tr") == want
        badges_apart(tv)
        shot(tv, "final-ranking-diabolo-tv.png")
        phone = open_phone(browser, pw, srv, tokens[0], problems, "s1 phone")
        expect(phone.get_by_test_id("scores").locator("tbody tr")).to_have_count(3)
        assert phone.evaluate(_ROWS, "[data-testid=scores] tbody tr") == want
        # s1's phone: its own row, and only it, says あなた; the TV's rows say it nowhere
        expect(phone.locator("[data-testid=scores] tr.me")).to_have_attribute("data-seat", "s1")
        expect(phone.locator("[data-testid=scores] tr[data-seat=s1] [data-testid=ranking-you]")).to_have_text("あなた")
        expect(phone.get_by_test_id("ranking-you")).to_have_count(1)
        expect(tv.get_by_test_id("ranking-you")).to_have_count(0)
        no_sideways_scroll(phone)
        badges_apart(phone)
        shot(phone, "final-ranking-diabolo-phone.png")
        # the page draws the game's ranking as sent, never one of its own from the totals: a
        # ranking the totals would not give is drawn as it is
        tv.evaluate("() => { PH.last.game.places = [['s1'], ['s2', 's3']]; PH.refresh(); }")
        tv.wait_for_function("() => document.querySelector('[data-testid=scores] tbody tr').dataset.seat === 's1'", timeout=6_000)
        assert tv.evaluate(_ROWS, "[data-testid=scores] tbody tr") == [["s1", "1"], ["s2", "2"], ["s3", "2"]]
        assert not problems, problems
    finally:
        close_all(tv, *([phone] if phone else []))
