"""Browser tests of おひらき, the night summary (issue 17): the real server, the TV and a phone.

(1) A saved night of 2 and of 9 players with the summary up: the TV's summary (games, podium,
titles) fits 1280×720 and 1920×1080 without scrolling or anything outside its box.
(2) A saved night of three players: the TV lobby offers もう一度 (which starts the last game) and
the next game with its rule; the host ends the night (confirm); a phone shows its title and saves the summary as an image
(a real download: a PNG, its size read from its header); after a host restart the TV and the
phone show the summary again; the host goes back to the lobby and the night goes on.

Waits for state, never for time. About 40 s.
"""

from __future__ import annotations

import struct

import pytest
from playwright.sync_api import expect

from partyhost.party import Party
from partyhost.store import Store

from .test_e2e_howto import LONG_NAMES, open_tv_at
from .test_e2e_mind import PHONE_DEVICE, close_all, menu_click, shot, shots_dir, watch

pytestmark = [pytest.mark.e2e, pytest.mark.server]

# What does not fit: the page or a part of the summary scrolls, or an element lies outside the
# screen, the summary or its own section.
_FIT = """() => {
  const out = [], W = innerWidth, H = innerHeight;
  const inside = (r, b) => r.left >= b.left - 1 && r.right <= b.right + 1 && r.top >= b.top - 1 && r.bottom <= b.bottom + 1;
  const doc = document.documentElement;
  if (doc.scrollWidth > W + 1 || doc.scrollHeight > H + 1) out.push("page scrolls: " + doc.scrollWidth + "x" + doc.scrollHeight);
  const sum = document.querySelector(".night.tv");
  if (!sum) return ["no summary"];
  const box = sum.getBoundingClientRect();
  if (!inside(box, { left: 0, top: 0, right: W, bottom: H })) out.push("summary off screen");
  for (const el of [sum, ...sum.querySelectorAll(".night-people, .ng-box, .night-games")]) {
    if (el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1)
      out.push((el.className || "?") + " scrolls: " + el.scrollWidth + "x" + el.scrollHeight + " > " + el.clientWidth + "x" + el.clientHeight);
  }
  for (const sec of sum.querySelectorAll(".night-head, .night-people, .night-games")) {
    const b = sec.getBoundingClientRect();
    if (!inside(b, box)) out.push("section outside the summary: " + sec.className);
    for (const el of sec.querySelectorAll("li, p, h1, h2, button, .step, span")) {
      const r = el.getBoundingClientRect();
      if ((r.width || r.height) && !inside(r, b)) out.push("cut off: " + el.textContent.trim().slice(0, 30));
    }
  }
  return out;
}"""


# the lobby's momentum row, its rule and the record's score rule: each one's font size in px, and
# how far the side column overflows
_SOFA = """() => { const out = {};
  for (const id of ["again-game", "next-game", "ohiraki", "next-rule", "score-rule"]) {
    const el = document.querySelector(`[data-testid=${id}]`);
    if (el && el.getClientRects().length) out[id] = parseFloat(getComputedStyle(el).fontSize); }
  const side = document.querySelector(".side");
  out.overflow = side.scrollHeight - side.clientHeight;
  return out; }"""


def save_night(data, names: list[str], summary: bool) -> None:
    """A night of six finished games for ``names`` (tokens ``token0`` …), saved where the next
    host start finds it; ``summary``: おひらき is up."""
    party = Party(room="NITE")
    for i, name in enumerate(names):
        party.join(name, "ja", lambda i=i: f"token{i}")
    s = list(party.seats)
    n = len(s)
    party.game_serial = party.recorded = 6
    party.game_key = "word_basket"

    def entry(serial, game, players, result, highlights, duration):
        return {"serial": serial, "game": game, "players": [{"seat": x, "name": party.names[x]} for x in players],
                "result": result, "highlights": highlights, "duration": duration}

    mind = s[:4]
    party.record = [
        entry(1, "the_mind", mind, {"coop": True, "won": True, "places": [mind]},
              [{"key": "the_mind.hl.level_won", "params": {"level": 8, "levels": 8}},
               {"key": "the_mind.hl.gap", "params": {"ms": 180, "card": 41, "next": 43, "seat": s[0],
                                                     "next_seat": s[-1], "level": 5}}], 611.0),
        entry(2, "word_basket", s, {"coop": False, "won": None, "places": [[s[-1]], s[:-1]]},
              [{"key": "word_basket.hl.race", "params": {"ms": 63, "winner_seat": s[-1], "word": "あひる",
                                                         "loser_seat": s[0]}},
               {"key": "word_basket.hl.longest", "params": {"word": "るーれっとます", "length": 7, "seat": s[0]}}], 420.0),
        entry(3, "diabolo", s[:6], {"coop": False, "won": None, "places": [[s[0]], s[1:6]]},
              [{"key": "diabolo.hl.word", "params": {"seat": s[1 % n], "word": "SCHLANGE", "count": 8, "round": 2}}], 900.0),
        entry(4, "word_basket", s[:8], {"coop": False, "won": None, "places": [[s[1 % n]], s[2:8] + [s[0]]]},
              [{"key": "word_basket.hl.longest", "params": {"word": "ながいながいことば", "length": 9, "seat": s[2 % n]}}], 380.0),
        entry(5, "the_mind", mind, {"coop": True, "won": False, "places": [mind]},
              [{"key": "the_mind.hl.level_lost", "params": {"level": 5, "levels": 8}}], 500.0),
        entry(6, "diabolo", s[:6], {"coop": False, "won": None, "places": [[s[0]], s[1:6]]}, [], 700.0),
    ]
    if n >= 4:
        party.record.insert(2, entry(3, "top_ten", s, {"coop": True, "won": True, "places": [s]},
                                     [{"key": "top_ten.hl.miss", "params": {
                                         "gap": 7, "theme": "こわいもの", "round": 2, "seat": s[3], "number": 2,
                                         "answer": "月曜日の朝いちばんの会議", "before_seat": s[8 % n], "before_number": 9,
                                         "before_answer": "ちいさなくも"}}], 1500.0))
        for i, e in enumerate(party.record):
            e["serial"] = i + 1
        party.game_serial = party.recorded = len(party.record)
    party.summary = summary
    store = Store(str(data))
    try:
        store.save({"party": party.to_dict(), "game_now": 10000.0})
    finally:
        store.close()


@pytest.mark.parametrize("players", [2, 9])
def test_the_summary_fits_the_tv_for_2_and_9_players(server, browser, tmp_path, players):
    data = tmp_path / "night"
    data.mkdir()
    names = ["あかり", "Bartholomew Long"] if players == 2 else LONG_NAMES
    save_night(data, names, summary=True)
    srv = server(mode="eventlet", seed=3, data=data, fresh=False)
    problems: list[str] = []
    tv = open_tv_at(browser, srv, problems, 1280, 720)
    try:
        # drawn at 720p, grown to 1080p, and back (the summary fits itself again on a resize)
        for width, height in ((1280, 720), (1920, 1080), (1280, 720)):
            tv.set_viewport_size({"width": width, "height": height})
            tv.wait_for_function(f"() => (document.getElementById('app').dataset.sig || '').startsWith('ja|{width}|{height}|')")
            summary = tv.get_by_test_id("summary")
            expect(summary).to_be_visible()
            expect(summary.locator(".night-titles li")).to_have_count(players)
            expect(summary.get_by_test_id("summary-game").last).to_be_visible()
            found = tv.evaluate(_FIT)
            assert found == [], (players, width, found)
            shot(tv, f"night-summary-tv-{players}p-{width}.png")
        menu_click(tv, "[data-testid=lang]")
        expect(tv.locator(".night.tv h1")).to_contain_text("tonight's summary")
        assert tv.evaluate(_FIT) == [], (players, "en")
        assert not problems, problems
    finally:
        close_all(tv)


def png_size(path) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk (after checking the signature)."""
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", head[:8]
    assert head[12:16] == b"IHDR"
    return struct.unpack(">II", head[16:24])


def test_the_host_ends_the_night_a_phone_saves_it_and_it_survives_a_restart(server, browser, pw, sio_peer, tmp_path):
    data = tmp_path / "night"
    data.mkdir()
    save_night(data, ["あかり", "Bartholomew Long", "ちか"], summary=False)
    srv = server(mode="eventlet", seed=3, data=data, fresh=False)
    problems: list[str] = []
    tv = open_tv_at(browser, srv, problems, 1280, 720)
    ctx = browser.new_context(accept_downloads=True, **pw.devices[PHONE_DEVICE])
    ctx.add_init_script("localStorage.setItem('ph.token', 'token2')")
    phone = ctx.new_page()
    watch(phone, "phone", problems)
    try:
        phone.goto(srv.lan_url + "/")
        expect(phone.get_by_test_id("welcome")).to_contain_text("ちか")
        momentum = tv.get_by_test_id("momentum")
        expect(momentum.get_by_test_id("again-game")).to_have_text("もう一度：ディアボロ")
        # one phone present: no game takes one player, so nothing is suggested
        tv.wait_for_function("() => PH.last.party.momentum.present === 1")
        expect(tv.get_by_test_id("next-game")).to_have_count(0)
        # three present: Decrypto (3–8 players) is the one not played tonight
        for token in ("token0", "token1"):
            sio_peer(srv.url, {"role": "phone", "token": token, "lang": "ja"}, token)
        tv.wait_for_function("() => PH.last.party.momentum.present === 3")
        expect(momentum.get_by_test_id("next-game")).to_have_text("次のおすすめ：デクリプト")
        expect(tv.get_by_test_id("next-rule")).to_have_text("今いる3人で遊べて、今夜まだ遊んでいないゲーム")
        shot(tv, "night-momentum-tv.png")
        # read from the sofa (trial): the row, its rule and the party score's rule at ~20 px at
        # 1280x720 and scaled at 1920x1080, and the side column still fits
        for width, height in ((1280, 720), (1920, 1080)):
            tv.set_viewport_size({"width": width, "height": height})
            tv.wait_for_function(f"() => innerWidth === {width}")
            sizes = tv.evaluate(_SOFA)
            print("lobby type at", width, sizes)
            assert set(sizes) >= {"again-game", "next-game", "ohiraki", "next-rule", "score-rule"}, sizes
            for name, size in sizes.items():
                if name != "overflow":
                    assert size >= 19.9 * width / 1280, (width, name, size)
            assert sizes["overflow"] <= 1, sizes
        tv.set_viewport_size({"width": 1280, "height": 720})
        # もう一度 starts the last game (Diabolo) at once; the host ends it midway (recorded as
        # ended early, no points): each question is the page's own dialog
        momentum.get_by_test_id("again-game").click()
        tv.wait_for_function("() => PH.last.party.phase === 'game' && PH.last.game && PH.last.game.game === 'diabolo'")
        tv.get_by_test_id("end").click()
        expect(tv.get_by_test_id("ask")).to_contain_text("ゲームを終えて")
        tv.get_by_test_id("ask-yes").click()
        expect(tv.get_by_test_id("ohiraki")).to_be_visible()
        tv.get_by_test_id("ohiraki").click()
        expect(tv.get_by_test_id("ask")).to_contain_text("おひらき")
        tv.get_by_test_id("ask-yes").click()
        expect(tv.get_by_test_id("summary")).to_be_visible()
        expect(tv.locator(".night-titles li")).to_have_count(3)
        # the phone: its own title, and the summary saved as a picture
        mine = phone.get_by_test_id("my-title")
        expect(mine).to_be_visible()
        shot(phone, "night-summary-phone.png")
        with phone.expect_download() as info:
            phone.get_by_test_id("save-image").click()
        download = info.value
        path = tmp_path / "summary.png"
        download.save_as(path)
        width, height = png_size(path)
        assert width == 1080 and 900 < height < 6000, (width, height)
        assert path.stat().st_size > 20_000, path.stat().st_size
        assert download.suggested_filename.endswith(".png")
        shots_dir().mkdir(parents=True, exist_ok=True)
        (shots_dir() / "night-summary-image.png").write_bytes(path.read_bytes())
        expect(phone.locator(".night-preview img")).to_be_visible()
        assert not problems, problems
        # a host restart: the summary is still up on the TV and the phone
        srv.stop()
        again = server(mode="eventlet", seed=3, data=data, fresh=False)
        tv.goto(f"{again.url}/tv")
        expect(tv.get_by_test_id("summary")).to_be_visible()
        phone.goto(again.lan_url + "/")
        expect(phone.get_by_test_id("my-title")).to_be_visible()
        problems.clear()  # the old pages' lost connection during the restart is expected
        # the host goes back to the lobby: the night goes on, the record is kept
        tv.get_by_test_id("summary-back").click()
        expect(tv.get_by_test_id("summary")).to_have_count(0)
        expect(tv.get_by_test_id("record")).to_be_visible()
        expect(phone.get_by_test_id("welcome")).to_be_visible()
        # a host phone gets the same lobby buttons
        menu_click(tv, "[data-promote=s3]")
        expect(phone.get_by_test_id("momentum").get_by_test_id("again-game")).to_be_visible()
        expect(phone.get_by_test_id("ohiraki")).to_be_visible()
        shot(phone, "night-momentum-phone.png")
        assert not problems, problems
    finally:
        close_all(tv, phone)
