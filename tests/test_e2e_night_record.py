"""Browser tests of tonight's record (issue 17): the real server, the TV page and a phone.

(1) Two scripted players lose a seeded game of The Mind; back in the lobby the TV shows the
record (the game, its result, its highlight, the party score) in the how-to's place, a player's
phone shows their own line, and after a host restart the record is still there.
(2) A night of six games with nine long names, saved before the host starts: the record panel
and the side column fit 1280×720 and 1920×1080 without scrolling or cutting anything off.

Waits for state, never for time. About 15 s.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from partyhost.party import Party
from partyhost.store import Store

from .test_e2e_howto import LONG_NAMES, open_tv_at
from .test_e2e_mind import PHONE_DEVICE, close_all, menu_click, shot, watch

pytestmark = [pytest.mark.e2e, pytest.mark.server]

# What does not fit: the record panel or the side column scrolls, or one of their parts lies
# outside the screen or its box.
_FIT = """() => {
  const out = [], W = innerWidth, H = innerHeight;
  const inside = (r, b) => r.left >= b.left - 1 && r.right <= b.right + 1 && r.top >= b.top - 1 && r.bottom <= b.bottom + 1;
  const screen = { left: 0, top: 0, right: W, bottom: H };
  const side = document.querySelector(".lobby .side");
  if (side.scrollHeight > side.clientHeight + 1) out.push("side column scrolls");
  const rec = document.querySelector(".record.tv");
  if (!rec) return ["no record panel"];
  const body = rec.querySelector(".rec-body");
  if (body.scrollHeight > body.clientHeight + 1) out.push("record scrolls: " + body.scrollHeight + " > " + body.clientHeight);
  const box = rec.getBoundingClientRect();
  if (!inside(box, screen)) out.push("record panel off screen");
  for (const el of rec.querySelectorAll("li, p, h2, h3, button")) {
    const r = el.getBoundingClientRect();
    if ((r.width || r.height) && !inside(r, box)) out.push("record: cut off " + el.textContent.trim().slice(0, 30));
  }
  return out;
}"""


def play_to_the_end(peers):
    """The Mind, played badly on purpose: everyone readies, then the player whose lowest card is
    highest plays it (a mistake whenever someone holds a lower one) until the game is over."""

    def after(p, fn):
        n = p.state["game"]["version"]
        fn()
        for q in peers:  # every phone has seen the change before the next look
            q.wait_state(lambda s: s["game"]["version"] > n or s["party"]["over"], "the change")

    for _ in range(200):
        state = peers[0].state
        if state["party"]["over"]:
            return
        game = state["game"]
        level = game["level"]
        if game["phase"] == "ready":
            ready = {r["seat"]: r["ready"] for r in game["players"]}
            p = next(p for p in peers if not ready[p.state["me"]["seat"]])
            after(p, lambda: p.act(type="ready", level=level, ready=True))
            continue
        holders = [(p.state["game"]["hand"][0], p) for p in peers if p.state["game"]["hand"]]
        card, who = max(holders, key=lambda h: h[0])
        after(who, lambda: who.act(type="play", level=level, card=card))
    raise AssertionError("The Mind did not end")


def test_the_lobby_shows_tonights_record_on_the_tv_and_each_phone_its_line(server, browser, pw, sio_peer, tmp_path):
    data = tmp_path / "night"
    srv = server(mode="eventlet", seed=3, data=data)
    problems: list[str] = []
    peers = []
    for name in ("あかり", "Bartholomew Long"):
        peer = sio_peer(srv.url, {"role": "phone", "token": None, "lang": "ja"}, name)
        assert peer.send("join", {"name": name})["ok"]
        peers.append(peer)
    tv = open_tv_at(browser, srv, problems, 1280, 720)
    phone = None
    try:
        expect(tv.get_by_test_id("howto")).to_be_visible()  # no game yet: the how-to
        expect(tv.get_by_test_id("record")).to_have_count(0)
        tv.locator("[data-choose=the_mind]").click()
        tv.wait_for_function("() => PH.last.party.game_key === 'the_mind'")
        tv.get_by_test_id("start").click()
        for p in peers:
            p.wait_state(lambda s: s["party"]["phase"] == "game" and s["game"], "the game")
        play_to_the_end(peers)
        expect(tv.get_by_test_id("to-lobby")).to_be_visible()
        tv.get_by_test_id("to-lobby").click()
        record = tv.get_by_test_id("record")
        expect(record).to_be_visible()
        expect(tv.get_by_test_id("howto")).to_be_hidden()
        game = record.get_by_test_id("record-game")
        expect(game).to_have_count(1)
        expect(game).to_contain_text("ザ・マインド")
        expect(game.get_by_test_id("record-result")).to_have_text("失敗")
        expect(game.get_by_test_id("record-highlight").first).to_contain_text("レベル")
        board = tv.get_by_test_id("scoreboard")
        expect(board.locator("li")).to_have_count(2)
        expect(board).to_contain_text("Bartholomew Long")
        expect(board).to_contain_text("0点")
        assert tv.evaluate(_FIT) == []
        shot(tv, "record-tv.png")
        # the how-to is one tap away, and the record one tap back
        tv.get_by_test_id("show-howto").click()
        expect(tv.get_by_test_id("howto")).to_be_visible()
        tv.get_by_test_id("show-record").click()
        expect(record).to_be_visible()

        ctx = browser.new_context(**pw.devices[PHONE_DEVICE])
        token = peers[1].welcomes[-1]["token"]
        ctx.add_init_script(f"localStorage.setItem('ph.token', {token!r})")
        phone = ctx.new_page()
        watch(phone, "phone", problems)
        phone.goto(srv.lan_url + "/")
        mine = phone.get_by_test_id("record-mine")
        expect(mine).to_contain_text("0点（1ゲーム中）")
        expect(phone.get_by_test_id("record-mine-last")).to_have_text("ザ・マインド：みんなで失敗")
        shot(phone, "record-phone.png")

        assert not problems, problems
        # a host restart keeps the night (the pages' lost connection is expected)
        phone.context.close()
        phone = None
        srv.stop()
        again = server(mode="eventlet", seed=3, data=data, fresh=False)
        tv.goto(f"{again.url}/tv")
        expect(tv.get_by_test_id("record").get_by_test_id("record-game")).to_have_count(1)
        expect(tv.get_by_test_id("record-result")).to_have_text("失敗")
    finally:
        close_all(tv, *([phone] if phone else []))


def saved_night(data) -> None:
    """Nine long names and six finished games, saved where the next host start finds them."""
    party = Party(room="NITE")
    for i, name in enumerate(LONG_NAMES):
        party.join(name, "ja", lambda i=i: f"token{i}")
    seats = list(party.seats)
    party.game_serial = 6
    party.recorded = 6

    def entry(serial, game, players, result, highlights, duration):
        return {"serial": serial, "game": game, "players": [{"seat": s, "name": party.names[s]} for s in players],
                "result": result, "highlights": highlights, "duration": duration}

    party.record = [
        entry(1, "the_mind", seats[:4], {"coop": True, "won": False, "places": [seats[:4]]},
              [{"key": "the_mind.hl.level_lost", "params": {"level": 5, "levels": 8}},
               {"key": "the_mind.hl.gap", "params": {"ms": 180, "card": 41, "next": 43, "seat": seats[0],
                                                     "next_seat": seats[2], "level": 5}}], 611.0),
        entry(2, "top_ten", seats, {"coop": True, "won": True, "places": [seats]},
              [{"key": "top_ten.hl.miss", "params": {"gap": 7, "theme": "こわいもの", "round": 2, "seat": seats[3],
                                                    "number": 2, "answer": "月曜日の朝いちばんの会議", "before_seat": seats[8],
                                                    "before_number": 9, "before_answer": "ちいさなくも"}}], 1500.0),
        entry(3, "word_basket", seats[:6], {"coop": False, "won": None, "places": [[seats[4]], seats[:4], [seats[5]]]},
              [{"key": "word_basket.hl.race", "params": {"ms": 63, "winner_seat": seats[4], "word": "あひる",
                                                         "loser_seat": seats[1]}},
               {"key": "word_basket.hl.longest", "params": {"word": "るーれっとます", "length": 7, "seat": seats[2]}}], 420.0),
        entry(4, "diabolo", seats[:6], {"coop": False, "won": None, "places": [[seats[1], seats[5]], seats[:1]]},
              [{"key": "diabolo.hl.word", "params": {"seat": seats[1], "word": "SCHLANGE", "count": 8, "round": 2}}], 900.0),
        entry(5, "decrypto", seats[:8], {"coop": False, "won": None, "places": [seats[4:8], seats[:4]],
                                         "detail": {"label": {"key": "decrypto.team.black", "params": {}}}},
              [{"key": "decrypto.hl.intercept", "params": {"team": {"key": "decrypto.team.black"}, "round": 4,
                                                           "clues": "うみ / とけい / ながいながいヒント", "code": "3-1-4"}}], 1800.0),
        entry(6, "the_mind", seats[4:8], {"coop": True, "won": True, "places": [seats[4:8]]},
              [{"key": "the_mind.hl.level_won", "params": {"level": 8, "levels": 8}}], 700.0),
    ]
    store = Store(str(data))
    try:
        store.save({"party": party.to_dict(), "game_now": 10000.0})
    finally:
        store.close()


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)], ids=["720p", "1080p"])
def test_a_long_night_with_nine_long_names_fits_the_tv(server, browser, tmp_path, size):
    data = tmp_path / "long-night"
    data.mkdir()
    saved_night(data)
    srv = server(mode="eventlet", seed=3, data=data, fresh=False)
    problems: list[str] = []
    tv = open_tv_at(browser, srv, problems, *size)
    try:
        expect(tv.get_by_test_id("record")).to_be_visible()
        expect(tv.get_by_test_id("scoreboard").locator("li")).to_have_count(9)
        shot(tv, f"record-tv-long-night-{size[0]}.png")
        assert tv.get_by_test_id("record-game").count() >= 2  # the newest games; the rest counted
        found = tv.evaluate(_FIT)
        assert found == [], (size, found)
        menu_click(tv, "[data-testid=lang]")
        expect(tv.locator(".record.tv h2")).to_have_text("Tonight's record")
        found = tv.evaluate(_FIT)
        assert found == [], (size, "en", found)
        assert not problems, problems
    finally:
        close_all(tv)
