"""Browser tests of the TV lobby's fit with nine long names, in Debian's Chromium on the real server.

* Word Basket with a handicap set (and Diabolo with one): each player's handicap is chosen in
  that player's own row of the players list, so the names are not listed a second time under the
  options; at 1280x720 and 1920x1080, ja and en, the side column does not scroll and nothing in it
  is cut off. Before: the names were listed again under the option and the column scrolled
  ~100 px (ja) / ~40 px (en) at 1280x720.

Players are python-socketio clients (fast); everything waits for state, never for time.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .test_e2e_howto import LONG_NAMES, nine_long_names_at_the_tv, open_tv_at, seat_players
from .test_e2e_mind import close_all, menu_click, shot

pytestmark = [pytest.mark.e2e, pytest.mark.server]

SIZES = [(1280, 720), (1920, 1080)]

# How far the side column scrolls, and what in it is outside it or the screen.
_FIT = """() => {
  const side = document.querySelector(".lobby .side"), s = side.getBoundingClientRect(), out = [];
  const shown = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0 && el.checkVisibility(); };
  const inside = (r) => r.left >= s.left - 1 && r.right <= s.right + 1 && r.top >= s.top - 1 && r.bottom <= s.bottom + 1 && r.bottom <= innerHeight + 1;
  for (const el of side.querySelectorAll("button, select, input, label, h2, li, summary, p")) {
    if (shown(el) && !inside(el.getBoundingClientRect())) out.push("cut off: " + (el.textContent || el.tagName).trim().slice(0, 30));
  }
  return { scroll: side.scrollHeight - side.clientHeight, out };
}"""

_SETTLED = "() => { const s = document.querySelector('.lobby .side'); return s.scrollHeight <= s.clientHeight + 1; }"


def _measure(tv, where):
    try:  # the lobby settles (its players list steps down once the options are drawn)
        tv.wait_for_function(_SETTLED, timeout=5000)
    except Exception:
        pass  # measured and reported below
    found = tv.evaluate(_FIT)
    print(where, found)
    return found


def _sizes_and_langs(tv, check):
    """Run ``check(where)`` at both TV sizes in ja, then in en."""
    for lang in ("ja", "en"):
        if lang == "en":
            menu_click(tv, "[data-testid=lang]")
            tv.wait_for_function("() => PH.lang === 'en'")
        for width, height in SIZES:
            tv.set_viewport_size({"width": width, "height": height})
            tv.wait_for_function(f"() => innerWidth === {width}")
            check((lang, width))


def _lobby_of(server, browser, sio_peer, game: str, problems: list[str]):
    """The real server with nine long-named players and the TV (1280x720) showing ``game`` in the
    lobby. Returns ``(tv, seats)``: the page and the seats in seating order."""
    tv = nine_long_names_at_the_tv(server, browser, sio_peer, problems)
    tv.locator(f"[data-choose={game}]").click()
    tv.wait_for_function(f"() => PH.last.party.game_key === '{game}'")
    return tv, tv.evaluate("() => PH.last.party.roster.map((r) => r.seat)")


def test_word_baskets_handicaps_sit_in_the_players_rows_and_the_lobby_fits(server, browser, sio_peer):
    problems: list[str] = []
    tv, seats = _lobby_of(server, browser, sio_peer, "word_basket", problems)
    try:
        # one player plays on easy, another on hard: chosen in their rows of the players list
        tv.get_by_test_id(f"hc-{seats[0]}").select_option("easy")
        tv.wait_for_function(f"() => (PH.last.party.options.handicaps || {{}})['{seats[0]}'] === 'easy'")
        tv.get_by_test_id(f"hc-{seats[4]}").select_option("hard")
        tv.wait_for_function(f"() => (PH.last.party.options.handicaps || {{}})['{seats[4]}'] === 'hard'")
        for i, seat in enumerate(seats):  # each select is in its player's own row
            row = tv.get_by_test_id("roster").locator(f"li[data-seat='{seat}']")
            expect(row.get_by_test_id(f"hc-{seat}")).to_have_count(1)
            expect(row.get_by_test_id(f"hc-{seat}")).to_have_value({0: "easy", 4: "hard"}.get(i, "normal"))
        # the names are not listed a second time under the options
        for name in LONG_NAMES:
            expect(tv.get_by_test_id("game-options").get_by_text(name)).to_have_count(0)

        def check(where):
            found = _measure(tv, where)
            shot(tv, f"lobby-fit-word_basket-{where[0]}-{where[1]}.png")
            assert found["scroll"] <= 1, (where, found)
            assert found["out"] == [], (where, found)
        _sizes_and_langs(tv, check)
        # a choice made in a row still reaches the party (in English, at 1920)
        tv.get_by_test_id(f"hc-{seats[4]}").select_option("normal")
        tv.wait_for_function(f"() => !(PH.last.party.options.handicaps || {{}})['{seats[4]}']")
        assert not problems, problems
    finally:
        close_all(tv)


def test_diabolos_handicap_set_fits_the_lobby(server, browser, sio_peer):
    problems: list[str] = []
    tv, seats = _lobby_of(server, browser, sio_peer, "diabolo", problems)
    try:
        tv.locator(f"[data-handicap='{seats[2]}']").check()
        tv.wait_for_function(f"() => (PH.last.party.options.handicap || []).includes('{seats[2]}')")

        def check(where):
            found = _measure(tv, where)
            shot(tv, f"lobby-fit-diabolo-{where[0]}-{where[1]}.png")
            assert found["scroll"] <= 1, (where, found)
            assert found["out"] == [], (where, found)
        _sizes_and_langs(tv, check)
        assert not problems, problems
    finally:
        close_all(tv)


def test_decryptos_seven_against_two_fits_the_lobby(server, browser, sio_peer):
    problems: list[str] = []
    tv, seats = _lobby_of(server, browser, sio_peer, "decrypto", problems)
    try:
        # seven against two: "allow uneven teams" appears under the teams
        tv.evaluate("""() => { const teams = {};
          PH.last.party.roster.forEach((r, i) => { teams[r.seat] = i < 7 ? "white" : "black"; });
          PH.setOptions(Object.assign({}, PH.last.party.options, { teams })); }""")
        expect(tv.get_by_test_id("lobby-white").locator("li")).to_have_count(7)
        expect(tv.get_by_test_id("dc-uneven")).to_be_visible()

        def check(where):
            found = _measure(tv, where)
            shot(tv, f"lobby-fit-decrypto-7v2-{where[0]}-{where[1]}.png")
            assert found["scroll"] <= 1, (where, found)
            assert found["out"] == [], (where, found)
            expect(tv.get_by_test_id("dc-uneven")).to_be_visible()
            # 「シャッフル」 on one line (it split 「シャッ／フル」 at 1280)
            lines = tv.get_by_test_id("shuffle-teams").evaluate(
                "(b) => { const r = document.createRange(); r.selectNodeContents(b); "
                "return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size; }")
            assert lines == 1, (where, lines)
        _sizes_and_langs(tv, check)
        # the host allows it: the box stays, checked, and the lobby still fits
        tv.get_by_test_id("dc-uneven").check()
        tv.wait_for_function("() => PH.last.party.options.uneven === true")
        check(("en-uneven", 1920))
        assert not problems, problems
    finally:
        close_all(tv)


HONORED = ["ゆうきさん", "あきちゃん", "けんくん", "太郎君", "山田様", "はなさま", "佐藤氏"]


def test_a_name_ending_in_an_honorific_gets_no_second_san(server, browser, sio_peer):
    srv = server(mode="eventlet", seed=3)
    problems: list[str] = []
    seat_players(srv, sio_peer, ["ゆうきさん", "けん", "あきちゃん"])
    tv = open_tv_at(browser, srv, problems, 1280, 720)
    try:
        expect(tv.get_by_test_id("roster").locator("li")).to_have_count(3)
        # the page's templates: {name}さん, PH.people (list.person)
        found = tv.evaluate("""(names) => names.map((name) => [PH.t("list.person", { name }),
            PH.t("lobby.welcome", { name }), PH.honored(name)])""", HONORED + ["ゆうき", "さんた"])
        for name, (person, welcome, honored) in zip(HONORED, found):
            assert (person, welcome, honored) == (name, f"ようこそ、{name}", True), found
        assert found[-2] == ["ゆうきさん", "ようこそ、ゆうきさん", False], found
        assert found[-1] == ["さんたさん", "ようこそ、さんたさん", False], found
        seats = tv.evaluate("() => PH.last.party.roster.map((r) => r.seat)")
        assert tv.evaluate("(seats) => PH.people(PH.last, seats)", seats) == "ゆうきさん、けんさん、あきちゃん"
        # the how-to's rules in use (a server msg drawn by the page): Word Basket with ゆうきさん on easy
        tv.locator("[data-choose=word_basket]").click()
        tv.wait_for_function("() => PH.last.party.game_key === 'word_basket'")
        tv.get_by_test_id(f"hc-{seats[0]}").select_option("easy")
        tv.wait_for_function(f"() => (PH.last.party.options.handicaps || {{}})['{seats[0]}'] === 'easy'")
        panel = tv.locator(".howto.tv")
        expect(panel).to_contain_text("ゆうきさん やさしい")
        shot(tv, "lobby-fit-honorific-ja-1280.png")
        assert "さんさん" not in tv.locator("body").inner_text()
        assert not problems, problems
    finally:
        close_all(tv)


# The how-to panel's heading: its whole title shown (not cut, no "…"), inside the panel, above its pages.
_HEADING = """() => {
  const h = document.querySelector(".howto.tv .howto-head h2"), panel = document.querySelector(".howto.tv");
  const r = h.getBoundingClientRect(), p = panel.getBoundingClientRect(), area = panel.querySelector(".howto-area").getBoundingClientRect();
  const range = document.createRange(); range.selectNodeContents(h);
  const text = range.getBoundingClientRect();
  return { title: h.textContent, cut: h.scrollWidth > h.clientWidth + 1, over: [h.scrollHeight, h.clientHeight],
    inside: r.left >= p.left - 1 && r.right <= p.right + 1 && text.right <= r.right + 1 && r.bottom <= area.top + 1,
    size: parseFloat(getComputedStyle(h).fontSize), lines: Math.round(text.height / parseFloat(getComputedStyle(h).lineHeight)) };
}"""


def test_the_how_to_panels_heading_is_never_cut(server, browser, sio_peer):
    problems: list[str] = []
    tv = nine_long_names_at_the_tv(server, browser, sio_peer, problems)
    try:
        for lang in ("ja", "en"):
            if lang == "en":
                menu_click(tv, "[data-testid=lang]")
                tv.wait_for_function("() => PH.lang === 'en'")
            for game in ("decrypto", "top_ten", "word_basket", "the_mind", "diabolo"):
                tv.locator(f"[data-choose={game}]").click()
                tv.wait_for_function(f"() => PH.last.party.game_key === '{game}'")
                expect(tv.locator(f".howto.tv[data-game={game}]")).to_be_visible()
                for width, height in SIZES:
                    tv.set_viewport_size({"width": width, "height": height})
                    tv.wait_for_function(f"() => innerWidth === {width}")
                    found = tv.evaluate(_HEADING)
                    where = (lang, game, width)
                    print(where, found)
                    if game == "word_basket":
                        shot(tv, f"lobby-fit-howto-head-{lang}-{width}.png")
                    assert not found["cut"] and found["inside"], (where, found)
                    assert found["size"] >= 20.4 * width / 1280, (where, found)  # the TV's body size at least
                    assert found["lines"] == 1, (where, found)  # it fits on one line beside the dots
                tv.set_viewport_size({"width": 1280, "height": 720})
                tv.wait_for_function("() => innerWidth === 1280")
        assert not problems, problems
    finally:
        close_all(tv)
