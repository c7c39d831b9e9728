"""Browser regressions found by playing Top Ten like a real game night (a full table of nine with
long names, a language switch, phones dropping and coming back, double taps, kicks mid-round).

Each test here failed before its fix. Phones that only need to act are python-socketio clients;
the pages looked at (the TV at 1280x720, phones at 390x844) are Debian's Chromium.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from partyhost.games.top_ten import THEME_LANGS, load_deck

from .test_e2e_mind import close_all, menu_click, open_tv, shot

pytestmark = [pytest.mark.e2e, pytest.mark.server]

#: Nine names at the join form's limit (16 characters), kana and Latin.
LONG_NAMES = [
    "たかはしゆういちろうたかはしゆう", "Christopher Alexa", "わたなべさくらこわたなべさくらこ", "Maximilian Ottoma",
    "やまもとけんたろうやまもとけんた", "Anastasia Petrova", "ふじわらのみちながふじわらのみち", "Bartholomew Jones",
    "さとう",
]  # fmt: skip


def seat_phones(srv, sio_peer, names: list[str]) -> list:
    peers = []
    for name in names:
        peer = sio_peer(srv.url, {"role": "phone", "token": None, "lang": "ja"}, name)
        assert peer.send("join", {"name": name[:16]})["ok"]
        peers.append(peer)
    return peers


# Every roster line, its name and its host tools must lie inside the screen and inside the lobby's
# side column, the two columns must not overlap, and a name must keep a readable share of its line.
_LOBBY_ISSUES = """() => { const out = [], W = innerWidth, H = innerHeight;
  const side = document.querySelector(".lobby .side").getBoundingClientRect();
  const inside = (r, b) => r.left >= b.left - .5 && r.right <= b.right + .5 && r.top >= b.top - .5 && r.bottom <= b.bottom + .5;
  const lis = [...document.querySelectorAll("[data-testid=roster] li")];
  for (const li of lis) {
    const name = li.querySelector(".who").textContent.trim();
    for (const el of [li, li.querySelector(".who"), ...li.querySelectorAll("button")]) {
      const r = el.getBoundingClientRect();
      if (!inside(r, {left: 0, top: 0, right: W, bottom: H})) out.push("off screen: " + name + " " + (el.className || el.tagName));
      else if (!inside(r, side)) out.push("outside the side column: " + name + " " + (el.className || el.tagName));
    }
    const w = li.querySelector(".who").getBoundingClientRect().width, lw = li.getBoundingClientRect().width;
    if (w < lw * 0.45) out.push("name squeezed to " + Math.round(w) + " of " + Math.round(lw) + " px: " + name);
  }
  for (let i = 0; i < lis.length; i++) for (let j = i + 1; j < lis.length; j++) {
    const a = lis[i].getBoundingClientRect(), b = lis[j].getBoundingClientRect();
    if (a.left < b.right - 1 && a.right > b.left + 1 && a.top < b.bottom - 1 && a.bottom > b.top + 1) out.push("overlap: " + i + "/" + j);
  }
  for (const sel of ["[data-testid=start]", "[data-testid=tt-options]", ".lobby-players h2"]) {
    const el = document.querySelector(sel); if (!el) { out.push("missing " + sel); continue; }
    if (!inside(el.getBoundingClientRect(), {left: 0, top: 0, right: W, bottom: H})) out.push("off screen: " + sel);
  }
  return out; }"""


def test_tv_lobby_fits_nine_long_names_in_both_languages(server, browser, sio_peer, tmp_path):
    """Nine players with 16-character names: the TV lobby (1280x720, nobody scrolls a TV) shows
    every name with its host tools, Start and the options, in Japanese and in English."""
    srv = server(mode="eventlet", seed=3)
    problems: list[str] = []
    tv = open_tv(browser, srv, problems)
    try:
        seat_phones(srv, sio_peer, LONG_NAMES)
        expect(tv.get_by_test_id("roster").locator("li")).to_have_count(9)
        tv.locator("[data-choose=top_ten]").click()
        expect(tv.get_by_test_id("start")).to_be_enabled()
        issues = []
        for lang in ("ja", "en"):
            if lang == "en":
                menu_click(tv, ".lang-switch")
                expect(tv.get_by_test_id("start")).to_have_text("Start")
            shot(tv, f"top_ten-tv-lobby-nine-{lang}.png")
            issues += [f"{lang}: {x}" for x in tv.evaluate(_LOBBY_ISSUES)]
        assert not problems, problems
        assert not issues, "the TV lobby does not fit nine long names:\n" + "\n".join(issues)
    finally:
        close_all(tv)


def test_tv_lobby_after_an_ended_game_shows_every_player(server, browser, sio_peer, tmp_path):
    """The host ends a Top Ten game of four: back in the lobby the "the host ended the game" note,
    the Top Ten tile and its options push the one-column player list down; the last player must
    still be on the 1280x720 screen, in Japanese and in English (whose tile text is longer)."""
    srv = server(mode="eventlet", seed=4)
    problems: list[str] = []
    tv = open_tv(browser, srv, problems)
    try:
        seat_phones(srv, sio_peer, ["あき", "Ben", "ちか", "Dan"])
        tv.locator("[data-choose=top_ten]").click()
        expect(tv.get_by_test_id("start")).to_be_enabled()
        tv.get_by_test_id("start").click()
        expect(tv.get_by_test_id("tt-choosing")).to_be_visible()
        tv.get_by_test_id("end").click()
        tv.get_by_test_id("ask-yes").click()  # "end the game?" (the page's own dialog)
        expect(tv.get_by_test_id("ended")).to_be_visible()
        issues = []
        for lang in ("ja", "en"):
            if lang == "en":
                menu_click(tv, ".lang-switch")
                expect(tv.get_by_test_id("start")).to_have_text("Start")
            shot(tv, f"top_ten-tv-lobby-ended-{lang}.png")
            issues += [f"{lang}: {x}" for x in tv.evaluate(_LOBBY_ISSUES)]
        assert not problems, problems
        assert not issues, "the TV lobby after an ended game hides players:\n" + "\n".join(issues)
    finally:
        close_all(tv)


def test_lobby_options_follow_a_language_switch(server, browser, sio_peer):
    """The host's Top Ten options on the TV switch language with the page (they were drawn once,
    so an English TV kept 最初の親 / 5ラウンド / 日本語), and keep the chosen values."""
    srv = server(mode="eventlet", seed=5)
    problems: list[str] = []
    tv = open_tv(browser, srv, problems)
    try:
        seat_phones(srv, sio_peer, ["あき", "Ben", "ちか", "Dan"])
        tv.locator("[data-choose=top_ten]").click()
        tv.get_by_test_id("opt-first-captain").select_option("s2")
        tv.get_by_test_id("opt-rounds").select_option("players")
        expect(tv.get_by_test_id("opt-rounds")).to_have_value("players")
        expect(tv.get_by_test_id("tt-options")).to_contain_text("最初の親")
        menu_click(tv, ".lang-switch")
        opts = tv.get_by_test_id("tt-options")
        expect(opts).to_contain_text("First captain")
        expect(opts).to_contain_text("Theme language")
        expect(opts).not_to_contain_text("最初の親")
        expect(tv.get_by_test_id("opt-rounds").locator("option")).to_have_text(["5 rounds", "One per player"])
        expect(tv.get_by_test_id("opt-themes").locator("option")).to_have_text(["Auto (Japanese)", "Japanese", "English"])
        expect(tv.get_by_test_id("opt-rounds")).to_have_value("players")
        expect(tv.get_by_test_id("opt-first-captain")).to_have_value("s2")
        # and the options still work after the redraw
        tv.get_by_test_id("opt-themes").select_option("en")
        expect(tv.get_by_test_id("opt-themes")).to_have_value("en")
        menu_click(tv, ".lang-switch")
        expect(opts).to_contain_text("お題の言語")
        expect(tv.get_by_test_id("opt-themes")).to_have_value("en")
        assert not problems, problems
    finally:
        close_all(tv)


# --- the TV shows typed answers whole, and keeps its layout, with long names and long answers --------

_TV_OUTSIDE = """() => [...document.querySelectorAll('.tt.tv > *, .tt-p, .tt-p .who, .tt-p .num, .tt-theme, .tt-poles, .tile, .tt-tokens, .tt-rating, .tt-history li')].filter((el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && (r.left < -0.5 || r.top < -0.5 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5);
  }).map((el) => el.className + ": " + el.textContent.trim().slice(0, 24))"""
_TV_OVERLAPS = """() => { const els = [...document.querySelectorAll(".tt-head, .tt-centre > *, .tt-reveals, .tt-players, .tt-note")];
  const out = []; for (let i = 0; i < els.length; i++) for (let j = i + 1; j < els.length; j++) {
    const a = els[i].getBoundingClientRect(), b = els[j].getBoundingClientRect();
    if (a.height && b.height && a.left < b.right - 1 && a.right > b.left + 1 && a.top < b.bottom - 1 && a.bottom > b.top + 1)
      out.push(els[i].className + " / " + els[j].className); }
  for (const p of document.querySelectorAll(".tt-p")) { const n = p.querySelector(".num"), a = p.querySelector(".ans");
    if (n && a) { const x = n.getBoundingClientRect(), y = a.getBoundingClientRect();
      if (x.left < y.right - 1 && x.right > y.left + 1 && x.top < y.bottom - 1 && x.bottom > y.top + 1) out.push("number badge over the answer of " + p.dataset.seat); } }
  for (const c of document.querySelectorAll(".tt-p .crown")) if (c.getBoundingClientRect().width < 12) out.push("crown squeezed to " + c.getBoundingClientRect().width);
  return out; }"""
_CUT_ANSWERS = """() => [...document.querySelectorAll(".tt-p .ans")].filter((a) => a.scrollHeight > a.clientHeight + 6)
  .map((a) => a.closest(".tt-p").dataset.seat + " (" + a.clientHeight + " of " + a.scrollHeight + " px)")"""

LONG_JA = "とても長い答えをここに書いてテレビの表示が崩れないか確かめるための文章ですまだまだ続きますよ!最後まで読める"[:60]
LONG_EN = "a very long answer in english that goes on and on to test how the TV wraps"[:60]


def _tv_issues(tv, where: str, cut_ok: bool) -> list[str]:
    issues = [f"{where}: off screen: {x}" for x in tv.evaluate(_TV_OUTSIDE)]
    issues += [f"{where}: overlap: {x}" for x in tv.evaluate(_TV_OVERLAPS)]
    if not cut_ok:
        issues += [f"{where}: answer cut short on the TV: {x}" for x in tv.evaluate(_CUT_ANSWERS)]
    return issues


@pytest.mark.parametrize("count", [5, 6, 9])
def test_tv_shows_long_answers_and_keeps_its_layout(server, browser, sio_peer, count):
    """Every answerer types a 60-character answer (the longest allowed) and every name is 16
    characters. With up to five players the TV shows each answer whole (a quarter of it was shown
    while half the screen stood empty); with more, nothing leaves the screen or overlaps, the
    revealed number badge never covers an answer, and the captain's crown keeps its size."""
    srv = server(mode="eventlet", seed=20 + count)
    problems: list[str] = []
    tv = open_tv(browser, srv, problems)
    try:
        peers = seat_phones(srv, sio_peer, LONG_NAMES[:count])
        tv.locator("[data-choose=top_ten]").click()
        tv.get_by_test_id("opt-first-captain").select_option("s1")
        # the game's own layout: without the first-round coach, whose strip takes two lines of
        # the screen in round 1 (test_e2e_coach.py checks the layout with it)
        tv.get_by_test_id("coach-switch").click()
        expect(tv.get_by_test_id("coach-switch")).to_have_attribute("aria-pressed", "false")
        expect(tv.get_by_test_id("start")).to_be_enabled()
        tv.get_by_test_id("start").click()
        cap = peers[0]
        cap.wait_state(lambda s: s["game"] and s["game"]["phase"] == "choose", "choose")
        res = cap.act(type="choose", round=1, theme=0)
        assert res["ok"], res
        answerers = peers if count <= 8 else peers[1:]
        for i, peer in enumerate(answerers):
            # act on this phone's own view of the game: a phone that has not yet had the new
            # game's state would send the lobby's serial (refused stale_game, seen in CI)
            peer.wait_state(lambda s: s["game"] and s["game"]["phase"] == "answer", "answering")
            res = peer.act(type="answer", round=1, text=LONG_JA if i % 2 == 0 else LONG_EN)
            assert res["ok"], res
        expect(tv.locator(".tt-p.answered")).to_have_count(len(answerers))
        cut_ok = count > 5
        issues = _tv_issues(tv, "answers in", cut_ok)
        numbers = {}
        for i, peer in enumerate(peers):
            n = peer.wait_state(lambda s: s["game"]["phase"] == "order", "order")["game"]["number"]
            if n is not None:
                numbers[f"s{i + 1}"] = n
        calls = sorted(numbers, key=numbers.get)
        for k, seat in enumerate(calls[:3]):
            for kind in ("pick", "confirm"):
                res = cap.act(type=kind, round=1, seat=seat)
                assert res["ok"], res
            expect(tv.get_by_test_id("tt-tile")).to_have_count(k + 1, timeout=8_000)
        shot(tv, f"top_ten-tv-long-answers-{count}.png")
        issues += _tv_issues(tv, "three revealed", cut_ok)
        # the longest theme of either deck (two lines at the TV's title size) over the same answers
        for lang in THEME_LANGS:
            longest = max((t for c in load_deck(lang) for side in c["sides"] for t in side), key=lambda t: len(t["title"]))
            tv.evaluate("(t) => { Object.assign(PH.last.game.theme, t); PH.refresh(); }", longest)
            expect(tv.get_by_test_id("tt-title")).to_have_text(longest["title"])
            shot(tv, f"top_ten-tv-long-answers-{count}-{lang}-title.png")
            issues += _tv_issues(tv, f"longest {lang} title", True)
        assert not problems, problems
        assert not issues, "\n".join(issues)
    finally:
        close_all(tv)


_CORNER_ISSUES = """() => { const out = [], main = document.querySelector("main").getBoundingClientRect();
  const corner = document.querySelector(".corner").getBoundingClientRect();
  if (corner.top < main.top - 0.5) out.push("the corner (QR and players) rises " + Math.round(main.top - corner.top) + " px over the top bar");
  for (const b of document.querySelectorAll(".tvbar button")) { const r = b.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!b.contains(hit)) out.push("top-bar button covered: " + b.textContent.trim()); }
  for (const el of document.querySelectorAll(".corner .qr, .corner .url")) { const r = el.getBoundingClientRect();
    if (r.bottom > innerHeight + 0.5 || r.top < main.top - 0.5) out.push("corner QR code off the stage"); }
  return out; }"""


def test_tv_corner_keeps_the_top_bar_free_with_nine_long_names(server, browser, sio_peer):
    """In a game of nine with 16-character names (plus two watching), the TV's corner (QR code and
    the host's player list) grew over the top bar and covered the language switch and End game."""
    srv = server(mode="eventlet", seed=8)
    problems: list[str] = []
    tv = open_tv(browser, srv, problems)
    try:
        seat_phones(srv, sio_peer, LONG_NAMES)
        tv.locator("[data-choose=top_ten]").click()
        expect(tv.get_by_test_id("start")).to_be_enabled()
        tv.get_by_test_id("start").click()
        expect(tv.get_by_test_id("tt-choosing")).to_be_visible()
        issues = [f"nine: {x}" for x in tv.evaluate(_CORNER_ISSUES)]
        shot(tv, "top_ten-tv-corner-nine.png")
        seat_phones(srv, sio_peer, ["みているひとみているひとみている", "Watching Person Two"])  # they watch
        expect(tv.locator("[data-testid=menu-roster] li")).to_have_count(11)
        issues += [f"nine and two watching: {x}" for x in tv.evaluate(_CORNER_ISSUES)]
        shot(tv, "top_ten-tv-corner-eleven.png")
        menu_click(tv, ".lang-switch")
        expect(tv.get_by_test_id("tt-round")).to_contain_text("Round")
        assert not problems, problems
        assert not issues, "\n".join(issues)
    finally:
        close_all(tv)


def test_host_hands_the_captaincy_of_an_away_phone_to_the_next_seat(server, browser, pw, sio_peer):
    """The next captain's phone dies between rounds: the host's "next round" made that phone the
    captain, who had to choose the theme, and the TV offered no way on but removing the player.
    Now the TV says the captain is away and hands the captaincy to the next seat, whose phone
    gets the four themes; the away player keeps playing."""
    srv = server(mode="eventlet", seed=12)
    problems: list[str] = []
    tv = open_tv(browser, srv, problems)
    try:
        peers = seat_phones(srv, sio_peer, ["あき", "Ben", "ちか", "Dan"])
        tv.locator("[data-choose=top_ten]").click()
        tv.get_by_test_id("opt-first-captain").select_option("s1")
        expect(tv.get_by_test_id("start")).to_be_enabled()
        tv.get_by_test_id("start").click()
        cap = peers[0]
        cap.wait_state(lambda s: s["game"] and s["game"]["phase"] == "choose", "choose")
        assert cap.act(type="choose", round=1, theme=0)["ok"]
        for peer in peers:
            peer.wait_state(lambda s: s["game"] and s["game"]["phase"] == "answer", "answering")  # its own view of the new game first
            assert peer.act(type="answer", round=1, text="")["ok"]
        nums = {f"s{i + 1}": p.wait_state(lambda s: s["game"]["phase"] == "order", "order")["game"]["number"] for i, p in enumerate(peers)}
        for seat in sorted(nums, key=nums.get):
            assert cap.act(type="pick", round=1, seat=seat)["ok"]
            assert cap.act(type="confirm", round=1, seat=seat)["ok"]
        expect(tv.get_by_test_id("tt-host-next")).to_be_visible()
        peers[1].close()  # Ben, the next captain: the phone dies
        expect(tv.locator("[data-testid=menu-roster] li.away")).to_have_count(1)
        tv.get_by_test_id("tt-host-next").click()
        expect(tv.get_by_test_id("tt-choosing")).to_contain_text("Ben")
        expect(tv.get_by_test_id("tt-note")).to_contain_text("Ben")
        shot(tv, "top_ten-tv-captain-away.png")
        tv.get_by_test_id("tt-pass-captain").click()
        expect(tv.get_by_test_id("tt-captain")).to_contain_text("ちか")
        expect(tv.get_by_test_id("tt-pass-captain")).to_have_count(0)
        s3 = peers[2].wait_state(lambda s: s["game"]["captain"] == "s3", "s3 captain")
        assert len(s3["game"]["choices"]) == 4
        assert peers[2].act(type="choose", round=2, theme=1)["ok"]
        expect(tv.get_by_test_id("tt-answer-s2")).to_contain_text("考え中")  # Ben still plays
        assert not problems, problems
    finally:
        close_all(tv)


def test_phone_reveal_row_of_eight_fits_a_390_px_phone(server, browser, sio_peer):
    """The captain of nine on a 390x844 phone: the eight reveal slots sit on one line, and an
    empty slot is the size of a revealed one (the empty slots took the shared ``.empty`` class's
    larger type, so six fitted on a line and the row wrapped)."""
    srv = server(mode="eventlet", seed=13)
    problems: list[str] = []
    tv = open_tv(browser, srv, problems)
    ctx = None
    try:
        peers = seat_phones(srv, sio_peer, [f"P{i}" for i in range(1, 10)])
        tv.locator("[data-choose=top_ten]").click()
        tv.get_by_test_id("opt-first-captain").select_option("s1")
        expect(tv.get_by_test_id("start")).to_be_enabled()
        tv.get_by_test_id("start").click()
        cap = peers[0]
        cap.wait_state(lambda s: s["game"] and s["game"]["phase"] == "choose", "choose")
        assert cap.act(type="choose", round=1, theme=0)["ok"]
        for peer in peers[1:]:
            peer.wait_state(lambda s: s["game"] and s["game"]["phase"] == "answer", "answering")  # its own view of the new game first
            assert peer.act(type="answer", round=1, text="")["ok"]
        seat = next(f"s{i + 2}" for i, p in enumerate(peers[1:]) if p.wait_state(lambda s: s["game"]["phase"] == "order", "order"))
        assert cap.act(type="pick", round=1, seat=seat)["ok"] and cap.act(type="confirm", round=1, seat=seat)["ok"]
        token = next(w["token"] for w in cap.welcomes if w.get("token"))
        ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        ctx.add_init_script(f"localStorage.setItem('ph.token', {json.dumps(token)});")
        page = ctx.new_page()
        page.goto(srv.lan_url + "/")
        tiles = page.get_by_test_id("tt-reveals").locator("li")
        expect(tiles).to_have_count(8)
        expect(page.get_by_test_id("tt-tile")).to_have_count(1, timeout=8_000)  # after the drum roll
        boxes = [tiles.nth(i).bounding_box() for i in range(8)]
        shot(page, "top_ten-phone-captain-nine-390.png")
        assert len({round(b["y"]) for b in boxes}) == 1, f"the row wraps: {boxes}"
        assert len({round(b["width"]) for b in boxes}) == 1, f"slots differ in size: {[b['width'] for b in boxes]}"
        assert not problems, problems
    finally:
        if ctx:
            ctx.close()
        close_all(tv)


def test_answers_are_quoted_in_the_page_language(server, browser, sio_peer):
    """An English TV quoted typed answers with Japanese corner brackets (「The cat's old sock」)."""
    srv = server(mode="eventlet", seed=14)
    problems: list[str] = []
    tv = open_tv(browser, srv, problems)
    try:
        peers = seat_phones(srv, sio_peer, ["Amy", "Bob", "Cat", "Dee"])
        tv.locator("[data-choose=top_ten]").click()
        tv.get_by_test_id("opt-first-captain").select_option("s1")
        expect(tv.get_by_test_id("start")).to_be_enabled()
        tv.get_by_test_id("start").click()
        cap = peers[0]
        cap.wait_state(lambda s: s["game"] and s["game"]["phase"] == "choose", "choose")
        assert cap.act(type="choose", round=1, theme=0)["ok"]
        assert cap.act(type="answer", round=1, text="an old sock")["ok"]
        quote = tv.get_by_test_id("tt-answer-s1").locator("q")
        expect(quote).to_have_text("an old sock")
        marks = "(el) => getComputedStyle(el).quotes"
        assert "「" in quote.evaluate(marks)
        menu_click(tv, ".lang-switch")
        expect(tv.get_by_test_id("tt-round")).to_contain_text("Round")
        assert "“" in quote.evaluate(marks) and "「" not in quote.evaluate(marks)
        # a phone that reloads with English chosen earlier quotes its own answer the same way
        token = next(w["token"] for w in cap.welcomes if w.get("token"))
        ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        ctx.add_init_script(f"localStorage.setItem('ph.token', {json.dumps(token)}); localStorage.setItem('ph.lang', 'en');")
        page = ctx.new_page()
        page.goto(srv.lan_url + "/")
        mine = page.get_by_test_id("my-answer").locator("q")
        expect(mine).to_have_text("an old sock")
        assert "“" in mine.evaluate(marks), mine.evaluate(marks)
        ctx.close()
        assert not problems, problems
    finally:
        close_all(tv)


def test_a_host_phone_can_go_on_for_an_away_captain(server, browser, pw, sio_peer):
    """The host plays with a phone, far from the TV: when the captain's phone dies, the host's
    phone offers the hand-over too (only the TV had it)."""
    srv = server(mode="eventlet", seed=15)
    problems: list[str] = []
    tv = open_tv(browser, srv, problems)
    ctx = None
    try:
        peers = seat_phones(srv, sio_peer, ["Amy", "Bob", "Cat"])
        ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        page = ctx.new_page()
        page.goto(srv.lan_url + "/")
        page.get_by_test_id("name").fill("ホスト")
        page.get_by_test_id("join").tap()
        expect(page.get_by_test_id("welcome")).to_be_visible()
        menu_click(tv, "[data-promote=s4]")
        expect(page.locator("[data-choose=top_ten]")).to_be_visible()
        page.locator("[data-choose=top_ten]").tap()
        page.get_by_test_id("opt-first-captain").select_option("s2")
        page.get_by_test_id("start").tap()
        expect(page.get_by_test_id("tt-wait")).to_contain_text("Bob")
        expect(page.get_by_test_id("tt-pass-captain")).to_have_count(0)  # Bob's phone is here
        peers[1].close()
        expect(page.get_by_test_id("tt-pass-captain")).to_contain_text("Cat")
        shot(page, "top_ten-phone-host-captain-away.png")
        page.get_by_test_id("tt-pass-captain").tap()
        expect(tv.get_by_test_id("tt-captain")).to_contain_text("Cat")
        expect(page.get_by_test_id("tt-host-move")).to_have_count(0)
        shot(page, "top_ten-phone-host-pass.png")
        assert not problems, problems
    finally:
        if ctx:
            ctx.close()
        close_all(tv)
