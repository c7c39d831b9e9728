"""Browser end-to-end for Top Ten: the real server, the laptop's TV page and five phones in Debian's
Chromium (fixtures in tests/conftest.py; helpers shared with tests/test_e2e_mind.py).

One seeded game is played to its end entirely by tapping: the host sets the first captain in the
lobby; each round the captain picks a theme on the phone, answers first, the others type or say
their answers, each phone peeks at its own number, and the captain calls players lowest-first
(round 2 with a deliberate swap: one unicorn turns to poop). The TV shows the theme, the answers,
the reveals after the drum roll, the tokens and finally the rating. Screenshots go to
docs/screenshots/top_ten-*.png with ``PARTYHOST_SHOTS=docs`` (``make screenshots``).
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from .test_e2e_mind import Phone, close_all, open_tv, shot, watch  # noqa: F401  (watch: via Phone)

pytestmark = [pytest.mark.e2e, pytest.mark.server]

NAMES = ["あき", "Ben", "ちか", "Dan", "えま"]
ANSWERS = ["富士山に登る", "a quiet nap", "カレーを作る", "", "宇宙旅行"]


def peek_number(ph: Phone, picture: str = "") -> int:
    """Tap the hidden card, read the number, tap again to hide it."""
    card = ph.page.get_by_test_id("peek")
    expect(card).to_be_visible()
    expect(card.get_by_test_id("my-number")).to_have_count(0)  # hidden until tapped
    card.tap()
    value = int(card.get_by_test_id("my-number").inner_text())
    if picture:
        shot(ph.page, picture)
    assert 1 <= value <= 10
    card.tap()
    expect(ph.page.get_by_test_id("my-number")).to_have_count(0)
    return value


def test_top_ten_full_game_five_phones(server, browser, pw):
    srv = server(mode="eventlet", seed=4242)
    problems: list[str] = []
    tv = open_tv(browser, srv, problems)
    phones = [Phone(browser, pw, srv.lan_url, n, problems) for n in NAMES]
    by_seat = {f"s{i + 1}": ph for i, ph in enumerate(phones)}
    try:
        for ph in phones:
            ph.join()
        expect(tv.get_by_test_id("roster").locator("li .who")).to_have_text(NAMES)
        tv.locator("[data-choose=top_ten]").click()
        opts = tv.get_by_test_id("tt-options")
        expect(opts).to_be_visible()
        tv.get_by_test_id("opt-first-captain").select_option("s2")
        expect(phones[0].page.get_by_test_id("tt-options")).to_contain_text("Ben")
        shot(tv, "top_ten-tv-lobby.png")
        tv.get_by_test_id("start").click()

        seats = list(by_seat)
        expected_poops = 0
        for rnd in range(1, 6):
            captain_seat = seats[(1 + rnd - 1) % 5]  # s2 first, then to the left in seating order
            cap = by_seat[captain_seat]
            expect(tv.get_by_test_id("tt-round")).to_contain_text(f"{rnd} / 5")
            expect(tv.get_by_test_id("tt-captain")).to_contain_text(cap.name)
            expect(tv.get_by_test_id("tt-choosing")).to_be_visible()
            # the captain's phone offers the card's four themes; the others wait
            expect(cap.page.locator("[data-testid^=choice-]")).to_have_count(4)
            for ph in phones:
                if ph is not cap:
                    expect(ph.page.locator("[data-testid^=choice-]")).to_have_count(0)
            cap.page.get_by_test_id(f"choice-{rnd % 4}").tap()
            if rnd == 1:
                shot(cap.page, "top_ten-phone-choose.png")
            title = cap.page.get_by_test_id(f"choice-{rnd % 4}").locator("strong").inner_text()
            cap.page.get_by_test_id("choose").tap()
            expect(tv.get_by_test_id("tt-title")).to_have_text(title)
            expect(tv.get_by_test_id("tt-low")).not_to_be_empty()
            expect(tv.get_by_test_id("tt-high")).not_to_be_empty()

            # answers: the captain first, then the others (one only says it out loud)
            others = [ph for ph in phones if ph is not cap]
            expect(others[0].page.get_by_test_id("answer-send")).to_be_disabled()
            numbers = {}
            order = [cap] + others
            for ph in order:
                i = phones.index(ph)
                seat = seats[i]
                text = ANSWERS[(i + rnd) % 5]
                picture = ""
                if rnd == 1 and ph is order[1]:
                    ph.page.get_by_test_id("answer-input").fill(text)  # typed, not sent yet
                    picture = "top_ten-phone-answer.png"
                numbers[seat] = peek_number(ph, picture)
                if text:
                    ph.page.get_by_test_id("answer-input").fill(text)
                    ph.page.get_by_test_id("answer-send").tap()
                    expect(tv.get_by_test_id(f"tt-answer-{seat}")).to_contain_text(text)
                    expect(ph.page.get_by_test_id("my-answer")).to_contain_text(text)
                else:
                    ph.page.get_by_test_id("out-loud").tap()
                    expect(tv.get_by_test_id(f"tt-player-{seat}")).to_have_class(re.compile(r"\banswered\b"))
                    if rnd == 3:  # said out loud, then written down for the TV (once)
                        # the phone's form turns into "write it down" when its own state arrives;
                        # text typed into the old form before that is lost with it
                        expect(ph.page.locator(".tt-form .tt-mine")).to_contain_text("（口頭で）")
                        ph.page.get_by_test_id("answer-input").fill("あとで書いた")
                        ph.page.get_by_test_id("answer-send").tap()
                        expect(tv.get_by_test_id(f"tt-answer-{seat}")).to_contain_text("あとで書いた")
                        expect(ph.page.get_by_test_id("answer-form")).to_have_count(0)
                if rnd == 1 and ph is order[2]:
                    shot(tv, "top_ten-tv-answers.png")
            assert sorted(numbers.values()) == sorted(set(numbers.values())), numbers

            # the captain calls lowest-first; round 2 swaps the first two (one mistake)
            calls = sorted(numbers, key=numbers.get)
            if rnd == 2:
                calls[0], calls[1] = calls[1], calls[0]
                expected_poops += 1
            expect(cap.page.locator("[data-testid^=pick-]")).to_have_count(5)
            for k, seat in enumerate(calls):
                if k == 1 and rnd == 1:
                    # a slip: call someone, undo, call the right one
                    wrong = calls[-1]
                    cap.page.get_by_test_id(f"pick-{wrong}").tap()
                    expect(cap.page.get_by_test_id("pending")).to_be_visible()
                    expect(tv.get_by_test_id(f"tt-player-{wrong}")).to_have_class(re.compile(r"\bpending\b"))
                    cap.page.get_by_test_id("undo").tap()
                    expect(cap.page.get_by_test_id("pending")).to_have_count(0)
                cap.page.get_by_test_id(f"pick-{seat}").tap()
                expect(cap.page.get_by_test_id("confirm")).to_contain_text(by_seat[seat].name)
                if rnd == 2 and k == 2:
                    shot(cap.page, "top_ten-phone-captain.png")
                cap.page.get_by_test_id("confirm").tap()
                # the moment of suspense, then the number
                if k < 3:
                    expect(tv.get_by_test_id("tt-drum")).to_be_visible()
                    if rnd == 2 and k == 2:
                        shot(tv, "top_ten-tv-reveal.png")
                if rnd == 5 and k == len(calls) - 1:
                    # the last reveal of the game: the TV turns to the rating and every round's row
                    last_row = tv.get_by_test_id("tt-history").locator("li").nth(4).locator(".seq b")
                    expect(last_row).to_have_text([str(numbers[x]) for x in calls])
                    break
                tiles = tv.get_by_test_id("tt-tile")
                expect(tiles).to_have_count(k + 1)
                expect(tiles.nth(k).locator("b")).to_have_text(str(numbers[seat]))
                if rnd == 2 and k == 2:
                    shot(tv, "top_ten-tv-revealed.png")
            uni = 5 - expected_poops
            expect(tv.get_by_test_id("tokens")).to_have_attribute("data-poops", str(expected_poops))
            expect(tv.get_by_test_id("tokens")).to_have_attribute("data-unicorns", str(uni))
            if rnd == 2:
                expect(tv.locator(".tt-reveals .tile.bad")).to_have_count(1)
            if rnd < 5:
                nxt = by_seat[seats[(1 + rnd) % 5]]
                for ph in phones:
                    if ph is not nxt:
                        expect(ph.page.get_by_test_id("next-round")).to_have_count(0)
                nxt.page.get_by_test_id("next-round").tap()

        result = tv.get_by_test_id("tt-result")
        expect(result).to_have_attribute("data-rating", "great")  # 4 unicorns, 1 poop
        expect(tv.get_by_test_id("tt-history").locator("li")).to_have_count(5)
        for ph in phones:
            expect(ph.page.get_by_test_id("tt-phone-result")).to_have_attribute("data-rating", "great")
        shot(tv, "top_ten-tv-result.png")
        shot(phones[0].page, "top_ten-phone-result.png")

        # play again: the host restarts, round 1 with the same first captain
        tv.get_by_test_id("again").click()
        expect(tv.get_by_test_id("tt-round")).to_contain_text("1 / 5")
        expect(tv.get_by_test_id("tokens")).to_have_attribute("data-unicorns", "5")
        expect(by_seat["s2"].page.locator("[data-testid^=choice-]")).to_have_count(4)
        assert not problems, problems
    finally:
        close_all(tv, *(ph.page for ph in phones))


def test_answer_field_ime_enter_does_not_submit(server, browser, pw, sio_peer):
    """A Japanese IME's Enter confirms the conversion; it must not send the answer."""
    srv = server(mode="eventlet", seed=7)
    problems: list[str] = []
    tv = open_tv(browser, srv, problems)
    ph = Phone(browser, pw, srv.lan_url, "あき", problems)
    ph.join()
    peers = []
    for name in ("b", "c", "d"):
        peer = sio_peer(srv.url, {"role": "phone", "token": None, "lang": "ja"}, name)
        assert peer.send("join", {"name": name})["ok"]
        peers.append(peer)
    tv.locator("[data-choose=top_ten]").click()
    tv.get_by_test_id("opt-first-captain").select_option("s1")
    expect(ph.page.get_by_test_id("tt-options")).to_contain_text("あき")
    tv.get_by_test_id("start").click()
    try:
        page = ph.page
        page.get_by_test_id("choice-0").tap()
        page.get_by_test_id("choose").tap()
        field = page.get_by_test_id("answer-input")
        field.fill("ふじさん")
        field.dispatch_event("compositionstart", {"data": ""})
        field.press("Enter")
        page.wait_for_timeout(150)
        expect(field).to_have_value("ふじさん")
        expect(tv.get_by_test_id("tt-answer-s1")).not_to_contain_text("ふじさん")
        # a redraw (another phone drops off: the roster changes) keeps the typed text and the focus
        peers[2].close()
        expect(tv.locator("[data-testid=menu-roster] li.away")).to_have_count(1)
        expect(field).to_have_value("ふじさん")
        assert page.evaluate("document.activeElement && document.activeElement.dataset.testid") == "answer-input"
        field.dispatch_event("compositionend", {"data": "富士山"})
        field.fill("富士山")
        field.press("Enter")
        expect(tv.get_by_test_id("tt-answer-s1")).to_contain_text("富士山")
        assert not problems, problems
    finally:
        close_all(tv, ph.page)


# --- the TV fits 1280x720 with nine players, long names and long answers -------------------------

_OUTSIDE = """() => [...document.querySelectorAll('.tt.tv > *, .tt-p, .tt-p .who, .tt-p .num, .tt-theme, .tt-poles, .tile, .tt-tokens')].filter((el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && (r.left < -0.5 || r.top < -0.5 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5);
  }).map((el) => el.className.baseVal !== undefined ? "svg" : el.className + ": " + el.textContent.trim().slice(0, 24))"""
_UNDER_CORNER = """() => { const c = document.querySelector(".corner").getBoundingClientRect();
  return [...document.querySelectorAll(".tt-p, .tt-theme, .tt-reveals .tile, .tt-rating, .tt-history li, .tt-head")].filter((el) => {
    const r = el.getBoundingClientRect();
    return r.left < c.right && r.right > c.left && r.top < c.bottom && r.bottom > c.top; }).map((el) => el.className); }"""
_OVERLAPS = """() => { const els = [...document.querySelectorAll(".tt-head, .tt-centre > *, .tt-reveals, .tt-players, .tt-note")];
  const out = []; for (let i = 0; i < els.length; i++) for (let j = i + 1; j < els.length; j++) {
    const a = els[i].getBoundingClientRect(), b = els[j].getBoundingClientRect();
    if (a.height && b.height && a.left < b.right - 1 && a.right > b.left + 1 && a.top < b.bottom - 1 && a.bottom > b.top + 1)
      out.push(els[i].className + " / " + els[j].className); } return out; }"""


def test_tv_fits_nine_players_with_long_answers(server, browser, pw, sio_peer, tmp_path):
    srv = server(mode="eventlet", seed=9)
    problems: list[str] = []
    tv = open_tv(browser, srv, problems)
    names = [f"{'ながいなまえ' if i % 2 else 'Longname'}{i}さんです" [:16] for i in range(9)]
    peers = []
    try:
        for name in names:
            peer = sio_peer(srv.url, {"role": "phone", "token": None, "lang": "ja"}, name)
            assert peer.send("join", {"name": name})["ok"]
            peers.append(peer)
        tv.locator("[data-choose=top_ten]").click()
        tv.get_by_test_id("opt-first-captain").select_option("s1")
        expect(tv.get_by_test_id("start")).to_be_enabled()
        tv.screenshot(path=str(tmp_path / "tv-lobby-nine.png"), animations="disabled")  # for a person, not docs/
        issues = [f"lobby: {x}" for x in tv.evaluate(_OUTSIDE.replace(".tt.tv > *, .tt-p, .tt-p .who, .tt-p .num, .tt-theme, .tt-poles, .tile, .tt-tokens", ".tt-opts *"))]
        tv.get_by_test_id("start").click()
        cap = peers[0]
        cap.wait_state(lambda s: s["game"] and s["game"]["phase"] == "choose", "choose")
        assert cap.act(type="choose", round=1, theme=0)["ok"]
        long = "とても長い答えをここに書いてテレビの表示が崩れないか確かめるための文章です。まだまだ続きます"
        for i, peer in enumerate(peers[1:], start=1):
            peer.wait_state(lambda s: s["game"] and s["game"]["phase"] == "answer", "answering")  # its own view of the new game first
            assert peer.act(type="answer", round=1, text=(long if i % 3 else "short"))["ok"]
        numbers = {}
        for i, peer in enumerate(peers[1:], start=1):
            numbers[f"s{i + 1}"] = peer.wait_state(lambda s: s["game"]["number"], "number")["game"]["number"]
        calls = sorted(numbers, key=numbers.get)
        for k, seat in enumerate(calls[:5]):
            assert cap.act(type="pick", round=1, seat=seat)["ok"]
            assert cap.act(type="confirm", round=1, seat=seat)["ok"]
            expect(tv.get_by_test_id("tt-tile")).to_have_count(k + 1, timeout=8_000)
        assert cap.act(type="pick", round=1, seat=calls[5])["ok"]
        expect(tv.get_by_test_id(f"tt-player-{calls[5]}")).to_have_class(re.compile(r"\bpending\b"))
        shot(tv, "top_ten-tv-nine.png")
        # the captain of nine, on an English phone: no number, the calling view with the pending call
        token = next(w["token"] for w in cap.welcomes if w.get("token"))
        ctx = browser.new_context(**pw.devices["Pixel 7"])
        ctx.add_init_script(f"localStorage.setItem('ph.token', {json.dumps(token)}); localStorage.setItem('ph.lang', 'en');")
        page = ctx.new_page()
        watch(page, "captain phone", problems)
        page.goto(srv.lan_url + "/")
        expect(page.get_by_test_id("tt-captain")).to_have_text("You are the captain")
        expect(page.get_by_test_id("no-number")).to_be_visible()
        expect(page.get_by_test_id("peek")).to_have_count(0)
        expect(page.get_by_test_id("confirm")).to_contain_text("Reveal")
        expect(page.locator("[data-testid^=pick-]")).to_have_count(3)
        shot(page, "top_ten-phone-captain-nine-en.png")
        page.get_by_test_id("undo").tap()
        expect(tv.get_by_test_id(f"tt-player-{calls[5]}")).not_to_have_class(re.compile(r"\bpending\b"))
        ctx.close()
        # a ninth of the table with a long name and a long answer drops: its card says 離席中 and still fits
        gone = calls[6]
        peers[int(gone[1:]) - 1].close()
        expect(tv.get_by_test_id(f"tt-player-{gone}").locator(".tag.away")).to_have_text("離席中")
        tv.screenshot(path=str(tmp_path / "tv-nine-one-away.png"), animations="disabled")  # for a person, not docs/
        issues += [f"cut off: {x}" for x in tv.evaluate(_OUTSIDE)]
        issues += [f"under the corner: {x}" for x in tv.evaluate(_UNDER_CORNER)]
        issues += [f"overlap: {x}" for x in tv.evaluate(_OVERLAPS)]
        assert not problems, problems
        assert not issues, "\n".join(issues)
    finally:
        close_all(tv)
