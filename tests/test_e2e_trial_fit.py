"""Two things a first table tripped on (the 'trial' run, issue 17's features):

(1) The phone's top bar at 360 px: 「ルーム」/"Room" and the room code broke onto two lines of the
    same size beside the ? and language buttons (English always; Japanese a pixel short). The
    label now sits small above the code, which stays on one line.
(2) The night summary's saved picture (drawn on a canvas by ``PH.night.wrap``) broke English
    inside a word ("That's a wrap — tonight's summa" / "ry"): Latin text now breaks between
    words, Japanese still between any two characters, and a word longer than a line still breaks.

Real server, one phone page in Debian's Chromium; waits are on state. About 5 s.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .test_e2e_mind import watch

pytestmark = [pytest.mark.e2e, pytest.mark.server]

PHONE_360 = {"viewport": {"width": 360, "height": 800}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}

# the room code on one line with its label above it, the bar its own height, no sideways scroll
_BAR = """() => { const room = document.querySelector("header.bar .room"), code = room.querySelector("b"),
  label = room.querySelector("small");
  if (!code || !label) return { text: room.textContent, parts: false };
  const c = code.getBoundingClientRect(), l = label.getBoundingClientRect(), cs = getComputedStyle(code);
  const bar = document.querySelector("header.bar").getBoundingClientRect();
  return { text: room.textContent, parts: true, code: code.textContent, codeHeight: c.height,
           line: parseFloat(cs.lineHeight), labelAbove: l.bottom <= c.top + 0.5, bar: bar.height,
           buttons: Math.max(...[...document.querySelectorAll("header.bar button")].map((b) => b.getBoundingClientRect().height)),
           wide: document.documentElement.scrollWidth - innerWidth }; }"""

# wrap() at the picture's own font: every line break of the English heading and of a long
# sentence falls at a space; Japanese fills its lines; an overlong word still fits its width
_WRAP = """() => { const ctx = document.createElement("canvas").getContext("2d");
  ctx.font = '800 58px "Noto Sans CJK JP", sans-serif';
  const en = PH.night.wrap(ctx, "That's a wrap — tonight's summary", 960, 2);
  const src = "Champion of the night — Alone on top: 12 points in 7 games, and a long tail of words";
  ctx.font = '400 28px "Noto Sans CJK JP", sans-serif';
  const long = PH.night.wrap(ctx, src, 300, 9);
  ctx.font = '800 58px "Noto Sans CJK JP", sans-serif';
  const ja = PH.night.wrap(ctx, "おひらき — 今夜のまとめ、あかりさんとゆうとさんの長い長い夜でした", 600, 3);
  const word = PH.night.wrap(ctx, "Donaudampfschifffahrtsgesellschaftskapitän", 400, 5);
  const widths = (ls) => ls.map((l) => ctx.measureText(l).width);
  return { en, long, src, ja, jaWidths: widths(ja), word, wordWidths: widths(word) }; }"""


def test_phone_bar_keeps_the_room_on_one_line_and_the_picture_breaks_english_between_words(server, browser):
    srv = server(mode="eventlet", seed=5)
    problems: list[str] = []
    pages = []
    try:
        for lang in ("ja", "en"):
            page = browser.new_context(**PHONE_360).new_page()
            pages.append(page)
            watch(page, f"phone {lang}", problems)
            page.goto(f"{srv.lan_url}/?lang={lang}")
            page.get_by_test_id("name").fill("あかり" if lang == "ja" else "Ben")
            page.get_by_test_id("join").tap()
            expect(page.get_by_test_id("welcome")).to_be_visible()
            page.wait_for_function("() => /[A-Z]{4}$/.test(document.querySelector('header.bar .room').textContent)")
            bar = page.evaluate(_BAR)
            print(lang, bar)
            assert bar["parts"], f"{lang}: the room is one run of text: {bar}"
            assert bar["codeHeight"] < 1.5 * bar["line"] and bar["labelAbove"], f"{lang}: the room wraps: {bar}"
            assert bar["wide"] <= 0 and bar["bar"] <= bar["buttons"] + 24, bar

        out = pages[1].evaluate(_WRAP)
        print(out)
        assert len(out["en"]) == 2 and out["en"][1] == "summary", out["en"]
        src_words = out["src"].split(" ")
        # breaks only at spaces: the lines, joined by single spaces, give back the sentence
        assert " ".join(out["long"]) == out["src"] and len(out["long"]) > 2, out["long"]
        assert all(w in src_words for line in out["long"] for w in line.split(" ")), out["long"]
        # Japanese still fills its lines (breaks between any two characters)
        assert len(out["ja"]) >= 2 and out["jaWidths"][0] > 600 - 60, out
        assert len(out["word"]) >= 2 and all(w <= 400 + 0.5 for w in out["wordWidths"]), out
        assert not problems, problems
    finally:
        for page in pages:
            page.context.close()
