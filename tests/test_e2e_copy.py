"""Browser checks of the copy (issue 16, item 7) and of Decrypto's paused timer (item 1), on the
real server in Debian's Chromium.

* The page's list and quote helpers: 「あき、Ben、ちか」 in Japanese, "Aki, Ben, and Cy" in English;
  a quote inside 「」 becomes 『』.
* Kinsoku: a big Japanese result line (``.result``) never starts a line with っ or ー at any phone
  width (it did: ``word-break: keep-all`` with ``overflow-wrap: anywhere`` broke anywhere).
* The record's scoreboard marks each seat with its shape, not a colour dot alone.
* 3-player Decrypto on a 360×800 phone: the lone interceptor's badge fits; the TV says "the
  encryptor" (one) in English.
* Decrypto's 30-s timer stops while the black encryptor's phone is away and the TV says whom it
  waits for; it runs again when the phone is back.

Players other than the browser phone are python-socketio clients. Everything waits for state.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .test_e2e_mind import close_all, menu_click, open_tv, shot, shots_dir, watch

pytestmark = [pytest.mark.e2e, pytest.mark.server]

SMALL = {"width": 360, "height": 800}

# Every line start of the element's text: the character whose box begins a new line.
_LINE_STARTS = """(el) => {
  const text = el.firstChild, starts = [];
  let top = null;
  for (let i = 0; i < text.length; i++) {
    const r = document.createRange(); r.setStart(text, i); r.setEnd(text, i + 1);
    const box = r.getClientRects()[0];
    if (!box) continue;
    if (top === null || box.top > top + 2) starts.push(text.data[i]);
    top = box.top;
  }
  return starts;
}"""


def phone_page(browser, srv, problems, lang="ja"):
    page = browser.new_context(viewport=SMALL, has_touch=True, is_mobile=True).new_page()
    watch(page, f"phone {lang}", problems)
    page.goto(f"{srv.url}/?lang={lang}")
    page.wait_for_function("() => typeof PH !== 'undefined' && !!PH.record")
    return page


def test_lists_quotes_kinsoku_and_the_scoreboards_shapes(server, browser):
    srv = server(mode="eventlet", seed=5)
    problems: list[str] = []
    ja = phone_page(browser, srv, problems, "ja")
    en = phone_page(browser, srv, problems, "en")
    try:
        assert ja.evaluate("() => PH.list(['あき', 'Ben', 'ちか'])") == "あき、Ben、ちか"
        assert en.evaluate("() => PH.list(['Aki', 'Ben', 'Cy'])") == "Aki, Ben, and Cy"
        assert en.evaluate("() => PH.list(['Aki', 'Ben'])") == "Aki and Ben"
        # 「{word}」にチャレンジ with a word that holds its own quotes
        assert ja.evaluate("() => PH.t('word_basket.ui.challenge', { word: '「ねこ」' })") == "「『ねこ』」にチャレンジ"
        assert ja.evaluate("() => PH.t('the_mind.waiting_for', { names: '「x」' })") == "待っている人：「x」"  # not quoted: as typed
        # a result line at phone widths: no line begins with っ or ー
        text = "ゆうきさんとけんさんをまっています。コーヒーカップをもっていってください"
        for width in range(120, 341, 4):
            starts = ja.evaluate(f"""() => {{
              const d = document.createElement("div");
              d.className = "result"; d.lang = "ja"; d.style.width = "{width}px"; d.style.boxSizing = "border-box";
              d.textContent = {text!r}; document.body.appendChild(d);
              const s = ({_LINE_STARTS})(d); d.remove(); return s;
            }}""")
            assert not set(starts) & set("っーゃゅょ、。！？"), (width, starts)
        # the scoreboard: each seat's shape, drawn from a made-up record
        marks = ja.evaluate("""() => {
          const s = { party: { roster: [], names: { s1: "あき", s2: "Ben" },
            record: [{ game: "the_mind", serial: 1, duration: 60, highlights: [], result: { coop: true, won: true },
                       players: [{ seat: "s1", name: "あき" }, { seat: "s2", name: "Ben" }] }],
            scoreboard: [{ seat: "s1", name: "あき", points: 2, games: 2 }, { seat: "s2", name: "Ben", points: 1, games: 2 }] } };
          const el = document.createElement("div"); el.id = "copy-score"; el.style.height = "600px"; document.body.appendChild(el);
          PH.record.tv(el, s);
          return [...el.querySelectorAll(".rec-rows li")].map((li) => li.querySelector(".seat-mark") && li.querySelector(".seat-mark").textContent);
        }""")
        assert marks == [ja.evaluate("() => PH.shapeOf('s1')"), ja.evaluate("() => PH.shapeOf('s2')")], marks
        assert marks[0] != marks[1]
        ja.locator("#copy-score").screenshot(path=str(shots_dir() / "copy-record-score.png"))
        assert not problems, problems
    finally:
        close_all(ja, en)


def _join(sio_peer, srv, name):
    peer = sio_peer(srv.url, {"role": "phone", "token": None, "lang": "ja"}, name)
    assert peer.send("join", {"name": name})["ok"]
    return peer


def test_three_player_decrypto_on_a_small_phone(server, browser, sio_peer):
    """The lone interceptor's badge fits 360 px in both languages; one encryptor is singular."""
    srv = server(mode="eventlet", seed=303)
    problems: list[str] = []
    tv = open_tv(browser, srv, problems)
    a = _join(sio_peer, srv, "あき")
    lone = phone_page(browser, srv, problems, "en")
    try:
        lone.get_by_test_id("name").fill("Bartholomew L")
        lone.get_by_test_id("join").tap()
        expect(lone.get_by_test_id("welcome")).to_be_visible()
        _join(sio_peer, srv, "ちか")
        tv.locator("[data-choose=decrypto]").click()
        expect(tv.get_by_test_id("lobby-black")).to_contain_text("Bartholomew")
        tv.get_by_test_id("start").click()
        a.wait_state(lambda s: s.get("game") and s["game"].get("phase") == "encrypt", "encrypt")
        badge = lone.get_by_test_id("my-team")
        for lang in ("en", "ja"):
            if lang == "ja":
                lone.get_by_test_id("lang").tap()
                expect(badge).to_contain_text("盗聴者")
            else:
                expect(badge).to_contain_text("interceptor")
            # the team boxes at the top: the lone team's "Black interceptor" pill stays inside its box
            spill = lone.evaluate("""() => [...document.querySelectorAll(".dc-status .dc-team")].flatMap((team) => {
              const b = team.getBoundingClientRect();
              return [...team.querySelectorAll("*")].filter((el) => {
                const r = el.getBoundingClientRect();
                return r.width && (r.left < b.left - 0.5 || r.right > b.right + 0.5);
              }).map((el) => el.className + ": " + el.textContent.trim());
            })""")
            assert not spill, (lang, spill)
            box = badge.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= 360, (lang, box)
            assert lone.evaluate("() => document.documentElement.scrollWidth") <= 360
            shot(lone, f"copy-decrypto-lone-badge-{lang}.png")
        menu_click(tv, "[data-testid=lang]")
        expect(tv.locator(".dc-stage-encrypt h2")).to_have_text("Round 1: the encryptor is thinking")
        assert not problems, problems
    finally:
        close_all(tv, lone)


def test_decrypto_timer_waits_for_an_away_encryptor_and_the_tv_says_whom(server, browser, sio_peer):
    srv = server(mode="eventlet", seed=77)
    problems: list[str] = []
    tv = open_tv(browser, srv, problems)
    try:
        peers = {name: _join(sio_peer, srv, name) for name in ("あき", "Ben", "ちか", "Dora")}
        tv.locator("[data-choose=decrypto]").click()
        tv.get_by_test_id("dc-timer").check()
        tv.get_by_test_id("start").click()
        first = peers["あき"].wait_state(lambda s: s.get("game") and s["game"].get("phase") == "encrypt", "encrypt")["game"]
        seat_of = {n: p.state["me"]["seat"] for n, p in peers.items()}
        by_seat = {seat: n for n, seat in seat_of.items()}
        white, black = first["encryptors"]["white"], first["encryptors"]["black"]
        assert peers[by_seat[white]].act(type="clues", round=1, clues=["ボタン", "漁師", "星空"], final=True)["ok"]
        expect(tv.get_by_test_id("dc-timer")).to_be_visible()
        token = peers[by_seat[black]].welcomes[-1]["token"]
        peers[by_seat[black]].close()
        paused = tv.get_by_test_id("dc-timer-paused")
        expect(paused).to_contain_text(f"{by_seat[black]}さんを待っています")
        shot(tv, "copy-decrypto-timer-paused-tv.png")
        back = sio_peer(srv.url, {"role": "phone", "token": token, "lang": "ja"}, "back")
        back.wait_state(lambda s: s.get("game") and s["game"].get("deadline") is not None, "timer runs again")
        expect(paused).to_have_count(0)
        expect(tv.get_by_test_id("dc-timer")).to_be_visible()
        assert not problems, problems
    finally:
        close_all(tv)
