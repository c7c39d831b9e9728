"""The TV how-to panel cuts a rules section between sentences only (issue 27, texts right): the
pages of a section put back together read exactly the catalogue's sentence, with no space put
inside a quotation ("Claim! ". was drawn for "Claim!".) and no page starting with the closing half
of a quotation ("; anyone may tap… after a page ending 'marked "?'); the count-now mark of the
rules by player count follows its row without a half-width space in Japanese.

Nobody seated (the rules before people join) and nine seated, at 1920x1080 and 1280x720, in both
languages, on the real server in Debian's Chromium. About 15 s.
"""

from __future__ import annotations

import pytest

from .test_e2e_howto import GAMES, open_tv_at, seat_players
from .test_e2e_mind import close_all

pytestmark = [pytest.mark.e2e, pytest.mark.server]

# Each text block of the chosen game: its catalogue text and the paragraphs the pages drew for it.
_PARTS = """(key) => {
  const norm = (x) => x.replace(/\\s+/g, " ").trim();
  return PH.howto.blocks(PH.last, key).filter((b) => b.text).map((b) => ({
    id: b.id, text: norm(b.text),
    parts: [...document.querySelectorAll(`.howto.tv .howto-page [data-block="${b.id}"] > p`)].map((p) => norm(p.textContent)),
  }));
}"""
CLOSERS = tuple("\"”’」』）).,;:!?。、")


@pytest.mark.parametrize("seated", [0, 9], ids=["nobody", "nine"])
def test_sections_are_cut_between_sentences_only(server, browser, sio_peer, seated):
    srv = server(mode="eventlet", seed=3)
    if seated:
        seat_players(srv, sio_peer, ["あかり", "Ben", "ちか", "Dora", "えり", "Finn", "ごろう", "Hana", "いち"])
    problems: list[str] = []
    found = []
    for width, height in ((1920, 1080), (1280, 720)):
        for lang in ("ja", "en"):
            tv = open_tv_at(browser, srv, problems, width, height, lang)
            try:
                for game in GAMES:
                    tv.locator(f".game-tile[data-choose={game}]").click()
                    tv.wait_for_function(f"() => PH.last.party.game_key === '{game}' && !!document.querySelector('.howto.tv[data-game={game}] .howto-page')")
                    for b in tv.evaluate(_PARTS, game):
                        where = (width, lang, game, b["id"])
                        joined = ("" if lang == "ja" else " ").join(b["parts"])
                        if joined != b["text"]:
                            found.append((where, "changed", joined))
                        for part in b["parts"][1:]:
                            if part.startswith(CLOSERS):
                                found.append((where, "page starts with a closer", part[:20]))
                    if lang == "ja":
                        for li in tv.locator(".howto.tv .b-counts li.now").all_text_contents():
                            if " （" in li:
                                found.append(((width, game), "space before （", li[-20:]))
            finally:
                close_all(tv)
    assert not found, found
    assert not problems, problems


# Every piece of text in the shown example page and its size; and whether it sticks out of the panel.
_EXAMPLE_TEXT = """() => {
  const area = document.querySelector(".howto.tv .howto-area").getBoundingClientRect();
  return [...document.querySelectorAll(".howto.tv .howto-page:not([hidden]) .howto-ex *")]
    .filter((e) => [...e.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim()))
    .map((e) => { const r = e.getBoundingClientRect();
      return { text: e.textContent.trim().slice(0, 16), px: parseFloat(getComputedStyle(e).fontSize),
               out: r.left < area.left - 1 || r.right > area.right + 1 }; });
}"""


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_worked_examples_are_legible_from_the_sofa(server, browser, lang):
    """The examples' own words (Top Ten's answers, Word Basket's wild-card captions, The Mind's
    names) were 7–13 px on a 1280x720 TV, beside 24 px rules: at least 14 px now, inside the panel."""
    srv = server(mode="eventlet", seed=3)
    problems: list[str] = []
    tv = open_tv_at(browser, srv, problems, 1280, 720, lang)
    found = []
    try:
        for game in GAMES:
            tv.locator(f".game-tile[data-choose={game}]").click()
            tv.wait_for_function(f"() => PH.last.party.game_key === '{game}' && !!document.querySelector('.howto.tv[data-game={game}] .howto-ex')")
            n = tv.locator(".howto.tv .howto-page").count()
            page = tv.evaluate("() => [...document.querySelectorAll('.howto.tv .howto-page')].findIndex((p) => p.querySelector('.howto-ex'))")
            tv.evaluate("(n) => PH.howto.showPage(n)", page)
            for item in tv.evaluate(_EXAMPLE_TEXT):
                if item["px"] < 14 - 0.05 or item["out"]:
                    found.append((game, item))
            assert n >= 2
    finally:
        close_all(tv)
    assert not found, found
    assert not problems, problems


def test_the_examples_fit_a_360_px_phone_sheet(server, browser, sio_peer):
    """The phone's 遊び方 sheet shows the same examples: none may run off a 360 px screen (the
    legible Word Basket captions did, both sides)."""
    srv = server(mode="eventlet", seed=3)
    problems: list[str] = []
    tv = open_tv_at(browser, srv, problems, 1280, 720, "ja")
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    phone = ctx.new_page()
    try:
        for lang in ("en", "ja"):
            phone.goto(f"{srv.lan_url}/?lang={lang}")
            if lang == "en":
                phone.get_by_test_id("name").fill("Ben")
                phone.get_by_test_id("join").tap()
            phone.get_by_test_id("welcome").wait_for()
            for game in GAMES:
                tv.locator(f".game-tile[data-choose={game}]").click()
                phone.wait_for_function(f"() => PH.last.party.game_key === '{game}'")
                phone.get_by_test_id("howto-button").tap()
                ex = phone.locator("[data-testid=howto-sheet] .howto-ex").first
                ex.wait_for()
                wide = ex.evaluate("(e) => e.scrollWidth - e.clientWidth")
                assert wide <= 1, (lang, game, wide)
                phone.get_by_test_id("howto-close").tap()
        assert not problems, problems
    finally:
        close_all(tv, phone)
