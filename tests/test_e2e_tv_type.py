"""Browser tests of TV type and layout read from a sofa, in Debian's Chromium on the real server.

The TV's sofa rule is its body type: 1.6vw, 20.5 px at 1280x720 (the lobby's words are held to
19.9 px × width/1280 in tests/test_e2e_night_summary.py); every measure here scales with the width.

* The lobby's game options (Decrypto, Top Ten, Word Basket, Diabolo), nine long names, ja and en,
  at 1280x720 and 1920x1080: the options' own words are at the TV's body size, the players' names
  inside them at the tight players list's (.85 of it), and the side column neither scrolls nor
  cuts anything off, and no two of the options' controls overlap. Before: 13–16 px words.

* Diabolo: the TV's banner while everyone else picks a card (a word voted down, the longest names)
  takes at most two lines at 1280x720 and 1920x1080, ja and en. Before: four lines at 1280x720.

* Top Ten: while numbers are revealed, the theme's words fill their box beside the spotlight
  (badge, title and poles grow together; the title stays under half the revealed number and no
  block of words is taller than it), and with the deck's longest title and poles in both
  languages nothing leaves the box or the middle. Before: the box stood as tall as the spotlight
  and its words took 39 % of it, the title at 1.55em.

* The Mind: on the TV's level chart, the numbers of cards played a moment apart with close values
  (72 to 77 within a second, 8 and 9, 98 and 100) overlap no other number, no dot and no axis
  label, and stay inside the chart. Before: 8 to 14 clashes.

Players are python-socketio clients (fast); everything waits for state, never for time.
"""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from partyhost.games.top_ten import THEME_LANGS, load_deck

from . import reveal_stage as stage
from . import test_diabolo as dia
from .test_e2e_howto import LONG_NAMES, nine_long_names_at_the_tv, open_tv_at
from .test_e2e_mind import close_all, menu_click, shot
from .test_e2e_reveals import scene

pytestmark = [pytest.mark.e2e, pytest.mark.server]

OPTION_GAMES = ["decrypto", "top_ten", "word_basket", "diabolo"]

# The players' names inside the options (and a name's own tag, Decrypto's 自動): the players list's size
_NAME_PARTS = ".dc-move, .dc-move *, .dc-watching .who, .dc-lobby-team .auto, .hc .who, .hc select, .dia-opts fieldset label"

# Font sizes of the options' words and of the names in them, what is cut off or outside the side
# column, overlapping controls, and whether the side column scrolls.
_OPTIONS_FIT = """(names) => {
  const side = document.querySelector(".lobby .side"), root = side.querySelector(".game-options");
  const shown = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0 && el.checkVisibility(); };
  const own = (el) => [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
  const words = [], nameSizes = [], out = [];
  for (const el of root.querySelectorAll("*")) {
    if (!shown(el)) continue;
    const px = parseFloat(getComputedStyle(el).fontSize), text = el.textContent.trim().slice(0, 24);
    const field = el.matches("select, input:not([type=checkbox])");
    if (!own(el) && !field) continue;
    (el.matches(names) ? nameSizes : words).push([px, el.tagName + " " + text]);
  }
  const s = side.getBoundingClientRect();
  const inside = (r) => r.left >= s.left - 1 && r.right <= s.right + 1 && r.top >= s.top - 1 && r.bottom <= s.bottom + 1;
  const controls = [...root.querySelectorAll("label, button, select, input, summary, legend, p, h2, h3, li")].filter(shown);
  for (const el of controls) {
    if (!inside(el.getBoundingClientRect())) out.push("outside: " + el.tagName + " " + el.textContent.trim().slice(0, 24) + " " + JSON.stringify(el.getBoundingClientRect()));
    if (el.scrollWidth > el.clientWidth + 1 && !el.matches(names) && !el.querySelector(names) && getComputedStyle(el).overflow === "hidden")
      out.push("clipped: " + el.textContent.trim().slice(0, 24));
  }
  for (let i = 0; i < controls.length; i++) for (let j = i + 1; j < controls.length; j++) {
    const a = controls[i], b = controls[j];
    if (a.contains(b) || b.contains(a)) continue;
    const p = a.getBoundingClientRect(), q = b.getBoundingClientRect();
    const w = Math.min(p.right, q.right) - Math.max(p.left, q.left), h = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
    if (w > 1 && h > 1) out.push("overlap: " + a.textContent.trim().slice(0, 16) + " / " + b.textContent.trim().slice(0, 16));
  }
  return { words, names: nameSizes, out, scroll: side.scrollHeight - side.clientHeight };
}"""

_SETTLED = "() => { const s = document.querySelector('.lobby .side'); return s.scrollHeight <= s.clientHeight + 1; }"


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)], ids=["720p", "1080p"])
def test_the_lobby_options_read_from_the_sofa_and_fit_with_nine_players(server, browser, sio_peer, size):
    problems: list[str] = []
    tv = nine_long_names_at_the_tv(server, browser, sio_peer, problems, *size)
    scale = size[0] / 1280
    try:
        for lang in ("ja", "en"):
            if lang == "en":
                menu_click(tv, "[data-testid=lang]")
                tv.wait_for_function("() => PH.lang === 'en'")
            for game in OPTION_GAMES:
                tv.locator(f"[data-choose={game}]").click()
                tv.wait_for_function(f"() => PH.last.party.game_key === '{game}'")
                expect(tv.get_by_test_id("game-options").locator("label, button").first).to_be_visible()
                try:  # the lobby settles (its players list steps down once the options are drawn)
                    tv.wait_for_function(_SETTLED, timeout=5000)
                except Exception:
                    pass  # measured and reported below
                found = tv.evaluate(_OPTIONS_FIT, _NAME_PARTS)
                where = (size, lang, game)
                shot(tv, f"tv-type-lobby-{game}-{lang}-{size[0]}.png")
                print(where, "words", min(found["words"]), "names", min(found["names"], default=None), "scroll", found["scroll"])
                assert found["words"], where
                small = [w for w in found["words"] if w[0] < 19.9 * scale]
                assert not small, (where, small)
                small = [n for n in found["names"] if n[0] < 17 * scale]
                assert not small, (where, small)
                assert found["out"] == [], (where, found["out"])
                assert found["scroll"] <= 1, (where, found["scroll"])
        assert not problems, problems
    finally:
        close_all(tv)


WORD = "ZURKENSTIG"


def diabolo_picking():
    """Six players: s3's ten-letter ZURKENSTIG was voted down; four have picked, one is picking."""
    g = dia.new_game(6)
    dia.turn_up(g, list(WORD))
    dia.claim(g, "s3", WORD, list(WORD), now=3.0)
    for s in ("s1", "s2", "s4", "s5"):
        g.apply(s, {"type": "vote", "vote": g.vote["id"], "ballot": "reject"}, 4.0)
        if g.phase != "vote":
            break
    assert g.phase == "picking"
    for s in ("s1", "s2", "s4", "s5"):  # four of the five have picked (four lines on main)
        g.apply(s, {"type": "pick", "round": 1, "card": g.table[0]}, 4.5)
    assert g.phase == "picking"
    g.picking["deadline"] = stage.NOW + 600.0  # the pick stays open while the test looks
    return g


# The number of lines the words of the TV's claim banner take (its paragraphs; the cards between
# them are not words), and their smallest font size.
_BANNER_LINES = """() => {
  const ps = [...document.querySelectorAll("[data-testid=tv-claim] > p")];
  let lines = 0;
  for (const p of ps) {
    const range = document.createRange(); range.selectNodeContents(p);
    lines += new Set([...range.getClientRects()].filter((r) => r.width > 1).map((r) => Math.round(r.top))).size;
  }
  return { lines, text: ps.map((p) => p.textContent.trim().replace(/\\s+/g, " ")).join(" | "),
    size: Math.min(...ps.map((p) => parseFloat(getComputedStyle(p).fontSize))) };
}"""


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_diabolos_everyone_picks_banner_is_two_lines_at_most(server, browser, sio_peer, tmp_path, lang):
    srv, _, _ = scene(server, sio_peer, tmp_path, diabolo_picking, names=LONG_NAMES[:6])
    problems: list[str] = []
    tv = open_tv_at(browser, srv, problems, 1280, 720, lang=lang)
    try:
        expect(tv.get_by_test_id("tv-claim")).to_contain_text(WORD)
        for width, height in ((1280, 720), (1920, 1080)):
            tv.set_viewport_size({"width": width, "height": height})
            tv.wait_for_function(f"() => innerWidth === {width}")
            found = tv.evaluate(_BANNER_LINES)
            shot(tv, f"tv-type-diabolo-picking-{lang}-{width}.png")
            print(lang, width, found)
            assert found["lines"] <= 2, (lang, width, found)
            assert found["size"] >= 19.9 * width / 1280, found
        assert not problems, problems
    finally:
        close_all(tv)



# The Top Ten theme box beside the revealed number: its size, the part its words take, whether
# anything leaves it or the middle of the screen, and the title's and the number's font sizes.
_THEME_FILL = """() => {
  const centre = document.querySelector(".tt.tv .tt-centre"), box = centre.querySelector("[data-testid=tt-theme]");
  const b = box.getBoundingClientRect(), c = centre.getBoundingClientRect(), cs = getComputedStyle(box);
  const inner = b.height - parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom) - parseFloat(cs.borderTopWidth) - parseFloat(cs.borderBottomWidth);
  const parts = [...box.querySelectorAll(".tt-mode, .tt-title h2, .tt-poles")].map((el) => el.getBoundingClientRect());
  const top = Math.min(...parts.map((r) => r.top)), bottom = Math.max(...parts.map((r) => r.bottom));
  const out = [];
  for (const el of box.querySelectorAll(".tt-mode, .tt-title h2, .tt-poles span, .tt-poles b")) {
    const r = el.getBoundingClientRect();
    if (r.left < b.left - 1 || r.right > b.right + 1 || r.top < b.top - 1 || r.bottom > b.bottom + 1) out.push("outside the box: " + el.textContent.trim());
  }
  if (box.scrollWidth > box.clientWidth + 1 || box.scrollHeight > box.clientHeight + 1) out.push("the box overflows");
  if (b.top < c.top - 1 || b.bottom > c.bottom + 1) out.push("the box leaves the middle");
  if (centre.scrollHeight > centre.clientHeight + 1) out.push("the middle overflows");
  const px = (sel) => parseFloat(getComputedStyle(document.querySelector(sel)).fontSize);
  const tallest = Math.max(...[...box.querySelectorAll(".tt-title h2, .tt-poles span")].map((el) => el.getBoundingClientRect().height));
  return { fill: (bottom - top) / inner, box: [b.width, b.height], out, tallest,
    numberHeight: document.querySelector("[data-testid=tt-spot-number]").getBoundingClientRect().height,
    title: px("[data-testid=tt-title]"), number: px("[data-testid=tt-spot-number]"), low: px("[data-testid=tt-low]") };
}"""


def _longest_theme(lang: str) -> dict:
    """The longest title and the longest poles of a deck, on one card (the worst case)."""
    themes = [t for c in load_deck(lang) for side in c["sides"] for t in side]
    longest = max(themes, key=lambda t: len(t["title"]))
    return dict(longest, low=max((t["low"] for t in themes), key=len), high=max((t["high"] for t in themes), key=len))


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)], ids=["720p", "1080p"])
def test_top_tens_theme_fills_its_box_beside_the_revealed_number(server, browser, sio_peer, tmp_path, size):
    srv, _, _ = scene(server, sio_peer, tmp_path, stage.top_ten_miss)
    problems: list[str] = []
    tv = open_tv_at(browser, srv, problems, *size)
    try:
        expect(tv.get_by_test_id("tt-spot")).to_be_visible()
        expect(tv.locator(".tt.tv.revealing")).to_have_count(1)
        themes = [("deck", None)] + [(f"longest-{lang}", _longest_theme(lang)) for lang in THEME_LANGS]
        for name, theme in themes:
            if theme:
                tv.evaluate("(t) => { Object.assign(PH.last.game.theme, t); PH.refresh(); }", theme)
                expect(tv.get_by_test_id("tt-title")).to_have_text(theme["title"])
            found = tv.evaluate(_THEME_FILL)
            shot(tv, f"tv-type-top_ten-theme-{name}-{size[0]}.png")
            print(size, name, found)
            assert found["out"] == [], (size, name, found)
            # the words take most of the box (half of it stood empty: 36 % at 1920x1080)
            assert found["fill"] >= 0.75, (size, name, found)
            # the number just revealed stays the largest type, the title under half of it
            assert found["title"] < found["number"] / 2, (size, name, found)
            assert found["tallest"] < found["numberHeight"], (size, name, found)
            if name == "deck":  # a title of ordinary length grows (it was 1.55em of the body)
                assert found["title"] >= 1.3 * 1.55 * 1.6 * size[0] / 100, (size, name, found)
        assert not problems, problems
    finally:
        close_all(tv)


# (seconds into the level, card, seat): 72 to 77 a moment apart, 8 and 9 at the start, 98
# and 100 at the end; every card played in order, so the level is cleared
CLOSE_PLAYS = [(1.0, 8, "s1"), (1.3, 9, "s2"), (6.0, 31, "s3"), (11.0, 72, "s1"), (11.2, 73, "s3"), (11.4, 74, "s2"),
               (11.7, 75, "s3"), (11.9, 76, "s2"), (12.0, 77, "s1"), (16.0, 98, "s2"), (16.2, 100, "s3")]


def the_mind_close_cards():
    """Three players, level 1 with three or four cards each, cleared; several cards played close in time and value."""
    from partyhost.games.the_mind import TheMind

    from . import test_the_mind as tm
    g = TheMind()
    g.setup(["s1", "s2", "s3"], {}, random.Random(1), 0.0)
    g.levels = 4
    g.hands = {s: sorted(c for _, c, who in CLOSE_PLAYS if who == s) for s in ("s1", "s2", "s3")}
    tm.ready_all(g, 0.0)
    for t, card, seat in CLOSE_PLAYS:
        tm.play(g, seat, card, t)
    assert g.phase == "ready" and g.chart and len(g.chart["cards"]) == len(CLOSE_PLAYS), g.phase
    return g


# The chart's card labels: each one's box, and the pairs that overlap one another or another card's dot.
_LABEL_CLASHES = """() => {
  const svg = document.querySelector("[data-testid=chart]");
  const labels = [...svg.querySelectorAll(".lbl")].map((el) => ({ text: el.textContent, r: el.getBoundingClientRect() }));
  const dots = [...svg.querySelectorAll("circle")].map((el) => el.getBoundingClientRect());
  const cut = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
  const out = [];
  labels.forEach((a, i) => {
    labels.slice(i + 1).forEach((b) => { if (cut(a.r, b.r)) out.push(a.text + " / " + b.text); });
    dots.forEach((d, j) => { if (cut(a.r, d)) out.push(a.text + " on dot " + j); });
  });
  const box = svg.getBoundingClientRect();
  for (const a of labels) if (a.r.left < box.left || a.r.right > box.right || a.r.top < box.top || a.r.bottom > box.bottom) out.push(a.text + " outside");
  return { count: labels.length, out, size: labels.length ? labels[0].r.height : 0 };
}"""


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)], ids=["720p", "1080p"])
def test_the_minds_level_chart_keeps_close_cards_labels_apart(server, browser, sio_peer, tmp_path, size):
    srv, _, _ = scene(server, sio_peer, tmp_path, the_mind_close_cards)
    problems: list[str] = []
    tv = open_tv_at(browser, srv, problems, *size)
    try:
        expect(tv.get_by_test_id("chart").locator(".lbl")).to_have_count(len(CLOSE_PLAYS))
        found = tv.evaluate(_LABEL_CLASHES)
        shot(tv, f"tv-type-the_mind-chart-{size[0]}.png")
        print(size, found)
        assert found["out"] == [], (size, found)
        assert not problems, problems
    finally:
        close_all(tv)
