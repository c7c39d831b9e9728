"""Browser tests of how to play (partyhost/static/js/howto.js): the TV lobby's 遊び方 panel and the
phones' help sheet, on the real server in Debian's Chromium.

* The lobby, with each game chosen, its options and nine 16-character names, fits a 1280×720 and a
  1920×1080 TV: nothing in the side column (games, Start, options, players) or in the how-to panel
  (every one of its pages) is cut off or off screen, and the panel's text is sofa-sized (≥ 24 px
  at 1280×720, scaled at 1920×1080). Before this panel the Decrypto lobby overflowed at both.
* The panel's "rules in use" follow the lobby's options and the player count: changing an option
  changes the panel (and Diabolo's tile names its word language).
* A phone's 遊び方 opens the rules of the game being played, closes with one tap, and a state update
  that arrives while it is open is drawn (the game under it and the sheet's "what you can do now").

The nine players are python-socketio clients (fast); the phones of the last test are browsers.
Everything waits for state, never for time.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .test_e2e_mind import Phone, close_all, menu_click, shot, watch

pytestmark = [pytest.mark.e2e, pytest.mark.server]

GAMES = ["decrypto", "top_ten", "word_basket", "the_mind", "diabolo"]
LONG_NAMES = ["ながいなまえのひと一号さんです", "Bartholomew Long", "ちかちゃんだよ〜〜〜〜〜〜〜〜〜", "Dorothea-Maximil",
              "えりえりえりえりえりえりえりえり", "Ferdinand Q. Exa", "ごろうまるまるまるまるまるまるま", "Henrietta Wolfga",
              "いっぱいなまえですよいっぱいです"]

# What does not fit: side-column overflow, elements of the side column or of the shown how-to page
# outside the screen or their box, and how-to text smaller than 24 px at 1280 px wide.
_PROBLEMS = """() => {
  const out = [], W = innerWidth, H = innerHeight, scale = W / 1280;
  const side = document.querySelector(".lobby .side");
  if (side.scrollHeight > side.clientHeight + 1) out.push("side column scrolls: " + side.scrollHeight + " > " + side.clientHeight);
  const inside = (r, b) => r.left >= b.left - 1 && r.right <= b.right + 1 && r.top >= b.top - 1 && r.bottom <= b.bottom + 1;
  const screen = { left: 0, top: 0, right: W, bottom: H };
  const sideBox = side.getBoundingClientRect();
  for (const el of side.querySelectorAll("button, select, input, label, h2, li")) {
    const r = el.getBoundingClientRect();
    if (!r.width && !r.height) continue;
    if (!inside(r, screen) || !inside(r, sideBox)) out.push("side: cut off " + (el.textContent || el.tagName).trim().slice(0, 30));
  }
  const area = document.querySelector(".howto.tv .howto-area");
  if (!area) { out.push("no how-to panel"); return out; }
  const box = area.getBoundingClientRect();
  if (!inside(box, screen)) out.push("how-to panel off screen");
  const page = [...area.querySelectorAll(".howto-page")].find((p) => !p.hidden);
  if (page.scrollHeight > area.clientHeight + 1) out.push("how-to page overflows: " + page.scrollHeight + " > " + area.clientHeight);
  for (const el of page.querySelectorAll("p, li, h3, .howto-ex")) {
    const r = el.getBoundingClientRect();
    if (!inside(r, box)) out.push("how-to: cut off " + el.textContent.trim().slice(0, 30));
  }
  for (const p of page.querySelectorAll(".howto-block > p, .howto-block > ul > li")) {
    const px = parseFloat(getComputedStyle(p).fontSize);
    if (px < 24 * scale - 0.5) out.push("how-to text " + px.toFixed(1) + " px: " + p.textContent.trim().slice(0, 20));
  }
  return out;
}"""


def seat_players(srv, sio_peer, names):
    peers = []
    for name in names:
        peer = sio_peer(srv.url, {"role": "phone", "token": None, "lang": "ja"}, name)
        assert peer.send("join", {"name": name})["ok"]
        peers.append(peer)
    return peers


def open_tv_at(browser, srv, problems, width, height, lang="ja"):
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    watch(page, f"tv {width}", problems)
    page.goto(f"{srv.url}/tv?lang={lang}")
    page.wait_for_function("() => !!PH.last")
    return page


def nine_long_names_at_the_tv(server, browser, sio_peer, problems, width=1280, height=720):
    """The real server with :data:`LONG_NAMES` seated (python-socketio phones) and the TV at
    ``width`` x ``height`` listing all nine. Returns the TV page."""
    srv = server(mode="eventlet", seed=3)
    seat_players(srv, sio_peer, LONG_NAMES)
    tv = open_tv_at(browser, srv, problems, width, height)
    expect(tv.get_by_test_id("roster").locator("li")).to_have_count(9)
    return tv


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)], ids=["720p", "1080p"])
def test_each_games_lobby_and_how_to_fit_the_tv_with_nine_long_names(server, browser, sio_peer, size):
    problems: list[str] = []
    tv = nine_long_names_at_the_tv(server, browser, sio_peer, problems, *size)
    try:
        for lang in ("ja", "en"):
            if lang == "en":
                menu_click(tv, "[data-testid=lang]")
            for game in GAMES:
                tv.locator(f"[data-choose={game}]").click()
                tv.wait_for_function(f"() => PH.last.party.game_key === '{game}'")
                panel = tv.locator(f".howto.tv[data-game={game}]")
                expect(panel).to_be_visible()
                pages = tv.locator(".howto.tv .howto-page").count()
                assert pages >= 2, (game, lang, pages)
                for n in range(pages):
                    tv.evaluate("(n) => PH.howto.showPage(n)", n)
                    expect(panel).to_have_attribute("data-page", str(n + 1))
                    found = tv.evaluate(_PROBLEMS)
                    assert found == [], (game, lang, size, f"page {n + 1}/{pages}", found)
                    if size == (1280, 720) and (lang == "ja" or game == "decrypto") and n in (0, pages - 1):
                        shot(tv, f"howto-{game}-tv{'-en' if lang == 'en' else ''}{'-example' if n else ''}.png")
        assert not problems, problems
    finally:
        close_all(tv)


def test_the_panel_follows_the_options_and_the_player_count(server, browser, sio_peer):
    srv = server(mode="eventlet", seed=4)
    problems: list[str] = []
    peers = seat_players(srv, sio_peer, ["あき", "Ben", "ちか"])
    tv = open_tv_at(browser, srv, problems, 1280, 720)
    try:
        variants = tv.locator(".howto.tv [data-testid=howto-variants]")
        # Decrypto with three players: the 2-against-1 variant; a fourth player makes it teams
        tv.locator("[data-choose=decrypto]").click()
        expect(variants.first).to_contain_text("2人チームだけが出題")
        expect(variants.first).to_contain_text("タイマーなし")
        tv.evaluate("() => PH.setOptions({ timer: true, lang: 'en', teams: {} })")
        expect(variants.first).to_contain_text("30秒タイマーあり")
        expect(variants.first).to_contain_text("キーワードは英語")
        seat_players(srv, sio_peer, ["Dora"])
        expect(variants.first).to_contain_text("白チーム2人・黒チーム2人")
        expect(variants.first).not_to_contain_text("2人チームだけが出題")
        # Diabolo: the tile and the panel name the word language; victory tiles and a handicap appear
        tv.locator("[data-choose=diabolo]").click()
        expect(tv.get_by_test_id("tile-lang")).to_have_text("ドイツ語の単語")
        expect(variants.first).to_contain_text("ドイツ語の単語だけが認められます")
        expect(variants.first).to_contain_text("1人1回ずつディーラーをして全4ラウンド")
        seat = peers[1].state["me"]["seat"]
        tv.evaluate("(seat) => PH.setOptions({ lang: 'en', victory_tiles: true, tile_handicap: 7, handicap: [seat] })", seat)
        expect(tv.get_by_test_id("tile-lang")).to_have_text("英語の単語")
        expect(variants.first).to_contain_text("英語の単語だけが認められます")
        expect(variants.first).to_contain_text("7枚少なく数えます")
        expect(variants.first).to_contain_text("Ben：4枚以上")
        expect(variants.first).not_to_contain_text("ディーラーをして")
        # the turned-to page is the one with the rules in use, so the host sees the change
        expect(tv.locator(".howto.tv .howto-page:not([hidden]) [data-testid=howto-variants]")).to_be_visible()
        # Top Ten: tokens by player count; The Mind: lives, shuriken and levels by player count
        tv.locator("[data-choose=top_ten]").click()
        expect(variants.first).to_contain_text("チップ4枚")
        tv.evaluate("() => PH.setOptions({ rounds: 'players' })")
        expect(variants.first).to_contain_text("4ラウンド")
        tv.locator("[data-choose=the_mind]").click()
        expect(variants.first).to_contain_text("4人で遊びます")
        expect(variants.first).to_contain_text("ライフ4・手裏剣1で始めて、全8レベル")
        assert not problems, problems
    finally:
        close_all(tv)


def test_a_phone_reads_the_rules_mid_game_and_misses_nothing(server, browser, pw):
    srv = server(mode="eventlet", seed=5)
    problems: list[str] = []
    tv = open_tv_at(browser, srv, problems, 1280, 720)
    phones = [Phone(browser, pw, srv.lan_url, n, problems) for n in ("あき", "Ben")]
    try:
        for ph in phones:
            ph.join()
        a, b = phones[0].page, phones[1].page
        # in the lobby too: the button is there and shows the chosen game's rules
        expect(a.get_by_test_id("howto-button")).to_be_visible()
        tv.locator("[data-choose=the_mind]").click()
        a.get_by_test_id("howto-button").tap()
        sheet = a.get_by_test_id("howto-sheet")
        expect(sheet).to_be_visible()
        expect(sheet).to_contain_text("ザ・マインドの遊び方")
        expect(sheet).to_contain_text("話すこと、合図")
        expect(sheet.get_by_test_id("howto-now")).to_have_count(0)  # no guide in the view: no section
        a.get_by_test_id("howto-close").tap()
        expect(sheet).to_be_hidden()

        tv.get_by_test_id("start").click()
        expect(a.get_by_test_id("ready")).to_be_visible()
        # the ready screen says the game's defining rule, and the shuriken is explained before use
        expect(a.get_by_test_id("no-talking")).to_contain_text("話さない、合図もしない")
        expect(a.get_by_test_id("shuriken-rule")).to_contain_text("全員が一番小さいカードを1枚ずつ表にして捨てます")
        shot(a, "howto-the_mind-phone-ready.png")
        expect(tv.get_by_test_id("tv-no-talking")).to_contain_text("話さない、合図もしない")
        # tap targets: a finger's size on a 360 px wide phone
        a.set_viewport_size({"width": 360, "height": 800})
        for testid in ("howto-button", "lang"):
            box = a.get_by_test_id(testid).bounding_box()
            assert box["height"] >= 44 and box["width"] >= 44, (testid, box)
        # the top bar's buttons keep their words on one line (「? 遊び / 方」 broke mid-word at 360 px
        # beside a wide room code such as LENW): measured with the widest code, WWWW
        a.evaluate("() => { const r = document.querySelector('.bar .room'); r.textContent = r.textContent.replace(/[A-Z]{4}$/, 'WWWW'); }")
        for testid in ("howto-button", "lang"):
            heights = a.get_by_test_id(testid).evaluate("""(b) => {
              const h = b.getBoundingClientRect().height; b.style.whiteSpace = "nowrap";
              const one = b.getBoundingClientRect().height; b.style.whiteSpace = ""; return [h, one]; }""")
            assert heights[0] <= heights[1] + 0.5, (testid, heights)
        assert a.evaluate("() => document.documentElement.scrollWidth") <= 360
        shot(a, "howto-phone-bar-wide-code.png")
        a.get_by_test_id("howto-button").tap()
        expect(sheet).to_be_visible()
        close_box = a.get_by_test_id("howto-close").bounding_box()
        assert close_box["height"] >= 44 and close_box["width"] >= 44, close_box
        # while the sheet is open, Ben readies: the state is applied under the sheet
        b_seat = b.evaluate("PH.last.me.seat")
        b.locator('[data-testid=ready][data-ready="1"]').tap()
        a.wait_for_function("(seat) => PH.last.game.players.find((p) => p.seat === seat).ready", arg=b_seat)
        expect(a.locator("#game-root")).not_to_contain_text("待っている人：あき、Ben")
        expect(a.locator("#game-root")).to_contain_text("待っている人：あき")
        expect(sheet).to_be_visible()
        # "what you can do now" from the view's guide (the coach computes it): shown when present
        a.evaluate("""() => { PH.last.game.guide = { now: { key: "the_mind.ready_hint", params: {} } }; PH.refresh(); }""")
        expect(sheet.get_by_test_id("howto-now")).to_contain_text("全員が準備OKを押すとスタートします")
        shot(a, "howto-phone-sheet.png")
        a.evaluate("() => { delete PH.last.game.guide; PH.refresh(); }")
        expect(sheet.get_by_test_id("howto-now")).to_have_count(0)
        # one tap outside the sheet closes it, and the game goes on from the state it got meanwhile
        a.mouse.click(180, 20)
        expect(sheet).to_be_hidden()
        a.locator('[data-testid=ready][data-ready="1"]').tap()
        expect(a.get_by_test_id("play")).to_be_visible()
        assert not problems, problems
    finally:
        close_all(tv, *(ph.page for ph in phones))


def test_diabolo_names_its_language_and_explains_the_joker_where_the_table_meets_them(server, browser, pw, sio_peer):
    """The TV names the word language during play and explains a face-up Ψ; the claim field and
    the vote ask for a German word ("…をドイツ語の単語として認めますか？"), not just "unknown"."""
    from partyhost.lexicon import latin

    srv = server(mode="eventlet", seed=7)
    problems: list[str] = []
    dealer = seat_players(srv, sio_peer, ["あき"])[0]
    tv = open_tv_at(browser, srv, problems, 1280, 720)
    phone = Phone(browser, pw, srv.lan_url, "Ben", problems)
    try:
        phone.join()
        tv.locator("[data-choose=diabolo]").click()
        tv.get_by_test_id("start").click()
        expect(tv.get_by_test_id("tv-lang")).to_have_text("ドイツ語の単語で")
        expect(phone.page.get_by_test_id("word")).to_have_attribute("placeholder", "ドイツ語の単語を入力")
        state = dealer.wait_state(lambda s: s["game"] and s["game"]["game"] == "diabolo", "the game")
        # turn cards until a joker lies face up and three single letters make no German word
        trio = None
        while True:
            g = dealer.state["game"]
            singles = [c for c in g["table"] if not c["joker"] and len(c["face"]) == 1]
            trio = next((singles[i:i + 3] for i in range(len(singles) - 2)
                         if not latin.is_known("".join(c["face"] for c in singles[i:i + 3]), "de")), None)
            if trio and any(c["joker"] == 1 for c in g["table"]):
                break
            assert g["deck_left"], "the deck ran out before a joker and a non-word"
            turned = g["turned"]
            assert dealer.act(type="turn", round=1, turned=turned)["ok"]
            dealer.wait_state(lambda s: s["game"]["turned"] == turned + 1, "a card turned")
        expect(tv.get_by_test_id("joker-note-1")).to_have_text("Ψはジョーカー：好きな1文字として使えます")
        shot(tv, "howto-diabolo-tv-joker.png")
        word = "".join(c["face"] for c in trio)
        result = dealer.act(type="claim", round=1, word=word, cards=[{"id": c["id"]} for c in trio])
        assert result["ok"], result
        expect(tv.get_by_test_id("vote-lang")).to_have_text(f"「{word}」をドイツ語の単語として認めますか？")
        expect(phone.page.get_by_test_id("vote-lang")).to_have_text(f"「{word}」をドイツ語の単語として認めますか？")
        shot(phone.page, "howto-diabolo-phone-vote.png")
        assert state["game"]["lang"] == "de"
        assert not problems, problems
    finally:
        close_all(tv, phone.page)


def test_a_late_joiner_reads_the_rules_while_waiting(server, browser, pw, sio_peer):
    """A phone that joins a game under way watches it, with the game's how-to below the table."""
    srv = server(mode="eventlet", seed=8)
    problems: list[str] = []
    seat_players(srv, sio_peer, ["あき", "Ben"])
    tv = open_tv_at(browser, srv, problems, 1280, 720)
    try:
        tv.locator("[data-choose=the_mind]").click()
        tv.get_by_test_id("start").click()
        tv.wait_for_function("() => PH.last.game && PH.last.game.game === 'the_mind'")
        late = Phone(browser, pw, srv.lan_url, "ちか", problems)
        late.page.get_by_test_id("name").fill("ちか")
        late.page.get_by_test_id("join").tap()
        expect(late.page.get_by_test_id("spectator")).to_be_visible()
        inline = late.page.get_by_test_id("howto-inline")
        expect(inline).to_contain_text("ザ・マインドの遊び方")
        expect(inline).to_contain_text("待っている間に、遊び方をどうぞ")
        expect(inline.locator("[data-block=forbidden]")).to_contain_text("話すこと、合図")
        expect(inline.get_by_test_id("howto-variants")).to_contain_text("ライフ2・手裏剣1で始めて、全12レベル")
        shot(late.page, "howto-phone-spectator.png")
        assert not problems, problems
        close_all(late.page)
    finally:
        close_all(tv)


def test_every_player_counts_rules_show_before_anyone_joins(server, browser, pw):
    """Issue 27: the how-to showed only the current count's rules. With nobody seated the TV's
    panel lists every count (The Mind's lives, levels and rewards for 2, 3 and 4; Decrypto's
    3-player game beside the team game; Top Ten's 9-player game); once phones join, their
    count's row says so in words. Looked at on the 1920×1080 TV and a 360 px phone, ja and en."""
    srv = server(mode="eventlet", seed=9)
    problems: list[str] = []
    tv = open_tv_at(browser, srv, problems, 1920, 1080)
    phones = []
    try:
        counts = tv.locator(".howto.tv [data-testid=howto-counts]")
        tv.locator("[data-choose=the_mind]").click()
        rows = counts.locator("li")
        expect(rows).to_have_count(3)
        expect(rows.nth(0)).to_contain_text("2人：ライフ2・手裏剣1・全12レベル。クリアでごほうび：手裏剣はレベル2・5・8、ライフはレベル3・6・9")
        expect(rows.nth(2)).to_contain_text("4人：ライフ4・手裏剣1・全8レベル。クリアでごほうび：手裏剣はレベル2・5、ライフはレベル3・6")
        expect(rows.nth(2)).not_to_contain_text("9")
        expect(counts.locator("li.now")).to_have_count(0)  # nobody seated: no count is the table's
        tv.evaluate("() => PH.howto.showPage([...document.querySelectorAll('.howto.tv .howto-page')].findIndex((p) => p.querySelector('[data-testid=howto-counts]')))")
        expect(counts).to_be_visible()
        shot(tv, "howto-counts-the_mind-tv-1080.png")
        assert tv.evaluate(_PROBLEMS) == []
        tv.locator("[data-choose=decrypto]").click()
        expect(counts.locator("li").nth(0)).to_contain_text("3人：2人チームだけが出題")
        expect(counts.locator("li").nth(1)).to_contain_text("4〜8人：白と黒の2チームで対戦")
        tv.locator("[data-choose=top_ten]").click()
        expect(counts.locator("li").nth(1)).to_contain_text("9人：チップは8枚。親は数字を持たず")
        menu_click(tv, "[data-testid=lang]")
        expect(counts.locator("li").nth(1)).to_contain_text("9 players: 8 tokens; the captain has no number")
        tv.locator("[data-choose=the_mind]").click()
        expect(counts.locator("li").nth(2)).to_contain_text(
            "4 players: 4 lives, 1 shuriken, 8 levels. Rewards: a shuriken after levels 2, 5; a life after levels 3, 6")
        tv.evaluate("() => PH.howto.showPage([...document.querySelectorAll('.howto.tv .howto-page')].findIndex((p) => p.querySelector('[data-testid=howto-counts]')))")
        assert tv.evaluate(_PROBLEMS) == []
        shot(tv, "howto-counts-the_mind-tv-1080-en.png")
        # two phones join: the 2-player row is theirs, in words (not by colour alone)
        phones = [Phone(browser, pw, srv.lan_url, n, problems) for n in ("あき", "Ben")]
        for ph in phones:
            ph.join()
        expect(counts.locator("li.now")).to_contain_text("2 players")
        expect(counts.locator("li.now")).to_contain_text("(your table now)")
        a = phones[0].page
        a.set_viewport_size({"width": 360, "height": 800})
        a.get_by_test_id("howto-button").tap()
        sheet_counts = a.get_by_test_id("howto-sheet").get_by_test_id("howto-counts")
        expect(sheet_counts.locator("li.now")).to_contain_text("2人：ライフ2")
        expect(sheet_counts.locator("li.now")).to_contain_text("（今の人数）")
        sheet_counts.scroll_into_view_if_needed()
        assert a.evaluate("() => document.documentElement.scrollWidth") <= 360
        shot(a, "howto-counts-the_mind-phone-360.png")
        a.get_by_test_id("howto-close").tap()
        a.get_by_test_id("lang").tap()
        a.get_by_test_id("howto-button").tap()
        expect(sheet_counts.locator("li.now")).to_contain_text("2 players: 2 lives, 1 shuriken, 12 levels")
        sheet_counts.scroll_into_view_if_needed()
        shot(a, "howto-counts-the_mind-phone-360-en.png")
        assert not problems, problems
    finally:
        close_all(tv, *(ph.page for ph in phones))
