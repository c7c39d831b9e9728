"""Browser regressions found by playing Top Ten like a real game night (a full table of nine with
long names, a language switch, phones dropping and coming back, double taps, kicks mid-round).

Each test here failed before its fix. Phones that only need to act are python-socketio clients;
the pages looked at (the TV at 1280x720, phones at 390x844) are Debian's Chromium.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .test_e2e_mind import close_all, open_tv, shot

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
                tv.locator(".lang-switch").first.click()
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
    tv.on("dialog", lambda d: d.accept())  # "end the game?"
    try:
        seat_phones(srv, sio_peer, ["あき", "Ben", "ちか", "Dan"])
        tv.locator("[data-choose=top_ten]").click()
        expect(tv.get_by_test_id("start")).to_be_enabled()
        tv.get_by_test_id("start").click()
        expect(tv.get_by_test_id("tt-choosing")).to_be_visible()
        tv.get_by_test_id("end").click()
        expect(tv.get_by_test_id("ended")).to_be_visible()
        issues = []
        for lang in ("ja", "en"):
            if lang == "en":
                tv.locator(".lang-switch").first.click()
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
        tv.locator(".lang-switch").first.click()
        opts = tv.get_by_test_id("tt-options")
        expect(opts).to_contain_text("First captain")
        expect(opts).to_contain_text("Theme language")
        expect(opts).not_to_contain_text("最初の親")
        expect(tv.get_by_test_id("opt-rounds").locator("option")).to_have_text(["5 rounds", "One per player"])
        expect(tv.get_by_test_id("opt-themes").locator("option")).to_have_text(["Japanese", "English"])
        expect(tv.get_by_test_id("opt-rounds")).to_have_value("players")
        expect(tv.get_by_test_id("opt-first-captain")).to_have_value("s2")
        # and the options still work after the redraw
        tv.get_by_test_id("opt-themes").select_option("en")
        expect(tv.get_by_test_id("opt-themes")).to_have_value("en")
        tv.locator(".lang-switch").first.click()
        expect(opts).to_contain_text("お題の言語")
        expect(tv.get_by_test_id("opt-themes")).to_have_value("en")
        assert not problems, problems
    finally:
        close_all(tv)
