"""Browser checks of the Decrypto TV layout late in a game (the real server, the TV page and four
phones in Debian's Chromium; the game itself is driven through each phone's ``PH.act`` so the
test gets to round 8 quickly).

The clue sheet is the public record both teams reason from: on a 1280×720 TV every clue in it
must stay on screen, even after eight rounds of long clues, and so must the reveal's answer and
its "next" button.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .test_e2e_mind import Phone, close_all, open_tv

pytestmark = [pytest.mark.e2e, pytest.mark.server]

NAMES = ["あき", "Ben", "ちか", "Dora"]
LONG = ["ロングアイランド・アイスティー", "夏の夜に川辺で見るもの", "The thing you forget at the station",
        "おばあちゃんの家の縁側", "サボテン", "バットマン"]


def game(page) -> dict:
    return page.evaluate("PH.last && PH.last.game")


def seat(page) -> str:
    return page.evaluate("PH.last.me.seat")


def act(page, action: dict) -> None:
    result = page.evaluate("(a) => PH.act(a)", action)
    assert result.get("ok"), (action, result)


def play_round(tv, by_seat: dict, counter: list[int], *, stop_at_last_reveal: bool = False) -> None:
    """Both encryptors send three long clues; decoders decode right, nobody intercepts."""
    # right after スタート the TV may not have the game's first state yet
    tv.wait_for_function("() => PH.last && PH.last.game && PH.last.game.phase === 'encrypt'")
    g = game(tv)
    rnd = g["round"]
    for team in g["encrypting"]:
        clues = []
        for _ in range(3):
            counter[0] += 1
            clues.append(f"{LONG[counter[0] % len(LONG)]}{counter[0]}")
        act(by_seat[g["encryptors"][team]], {"type": "clues", "round": rnd, "clues": clues, "final": True})
    for team in g["encrypting"]:
        expect(tv.get_by_test_id("clues")).to_be_visible()
        tv.wait_for_function(f"() => PH.last.game.phase === 'guess' && PH.last.game.active === '{team}'")
        g = game(tv)
        code = game(by_seat[g["encryptors"][team]])["my_code"]
        for kind, x in g["guessing"].items():
            member = next(s for s in g["teams"][x["team"]] if s != g["encryptors"][team])
            guess = code if kind == "decode" else list(reversed(code))
            act(by_seat[member], {"type": "lock", "round": rnd, "team": team, "code": guess})
        tv.wait_for_function("() => PH.last.game.phase !== 'guess'")
        if stop_at_last_reveal and rnd == 8 and team == "white":
            return
        if game(tv)["phase"] == "reveal":
            act(by_seat[g["teams"]["white"][0]], {"type": "next", "round": rnd, "team": team})
            tv.wait_for_function(f"() => PH.last.game.phase !== 'reveal' || PH.last.game.active !== '{team}'")


def outside(page, box_selector: str, item_selector: str) -> list[str]:
    """Texts of the items under ``box_selector`` that are not fully inside its visible area, nor
    inside the window."""
    return page.evaluate(
        """([box, item]) => {
          const out = [];
          document.querySelectorAll(box).forEach((b) => {
            const r = b.getBoundingClientRect();
            b.querySelectorAll(item).forEach((el) => {
              const e = el.getBoundingClientRect();
              if (e.top < r.top - 1 || e.bottom > r.bottom + 1 || e.bottom > innerHeight + 1 || e.right > innerWidth + 1)
                out.push(el.textContent.trim());
            });
          });
          return out;
        }""",
        [box_selector, item_selector],
    )


def test_tv_keeps_every_clue_and_the_reveal_on_screen_in_round_8(server, browser, pw):
    srv = server(mode="eventlet", seed=11)
    problems: list[str] = []
    tv = open_tv(browser, srv, problems)
    phones = [Phone(browser, pw, srv.lan_url, n, problems) for n in NAMES]
    try:
        for ph in phones:
            ph.join()
        tv.locator("[data-choose=decrypto]").click()
        tv.get_by_test_id("start").click()
        by_seat = {seat(ph.page): ph.page for ph in phones}
        counter = [0]
        for _ in range(7):
            play_round(tv, by_seat, counter)
        play_round(tv, by_seat, counter, stop_at_last_reveal=True)
        expect(tv.get_by_test_id("reveal")).to_be_visible()
        tv.wait_for_timeout(3000)  # the reveal's steps have all appeared
        assert outside(tv, ".dc.tv .dc-sheets", ".dc-sheet li") == []
        assert outside(tv, ".dc.tv .dc-stage", ".step, [data-testid=tv-next]") == []
        assert not problems, problems
    finally:
        close_all(tv, *(ph.page for ph in phones))


def test_waiting_for_a_guess_names_the_players_and_a_dropped_phone(server, browser, pw):
    """A decoder's phone drops mid-guess: the TV and the phones say whom the table waits for,
    by name, and that this one is offline (anyone else of the group may still lock)."""
    srv = server(mode="eventlet", seed=5)
    problems: list[str] = []
    tv = open_tv(browser, srv, problems)
    phones = [Phone(browser, pw, srv.lan_url, n, problems) for n in NAMES + ["えり"]]
    try:
        for ph in phones:
            ph.join()
        tv.locator("[data-choose=decrypto]").click()
        tv.get_by_test_id("start").click()
        tv.wait_for_function("() => PH.last && PH.last.game && PH.last.game.phase === 'encrypt'")
        by_seat = {seat(ph.page): ph for ph in phones}
        g = game(tv)
        for team in g["encrypting"]:
            act(by_seat[g["encryptors"][team]].page, {"type": "clues", "round": 1, "clues": [f"{team}1", f"{team}2", f"{team}3"], "final": True})
        tv.wait_for_function("() => PH.last.game.phase === 'guess'")
        g = game(tv)
        team = g["active"]
        decoders = [by_seat[s] for s in g["teams"][team] if s != g["encryptors"][team]]
        stage = tv.locator(".dc.tv .dc-stage")
        for d in decoders:
            expect(stage).to_contain_text(d.name)
        gone = decoders[0]
        gone.ctx.close()
        phones.remove(gone)
        expect(stage).to_contain_text(f"{gone.name}（接続切れ）")
        other_phone = by_seat[g["teams"][team][0]].page if by_seat[g["teams"][team][0]] is not gone else by_seat[g["teams"][team][1]].page
        expect(other_phone.get_by_test_id("waiting")).to_contain_text(gone.name)
        assert not problems, problems
    finally:
        close_all(tv, *(ph.page for ph in phones))


def test_the_deciding_reveal_stays_on_the_tv_with_the_result(server, browser, pw):
    """3 players: the lone interceptor's second token ends the game at a reveal. The TV shows the
    result and the keywords, and also that reveal (the interception, the decode, the code), so
    the table sees how the game was decided; all of it on screen."""
    srv = server(mode="eventlet", seed=9)
    problems: list[str] = []
    tv = open_tv(browser, srv, problems)
    phones = [Phone(browser, pw, srv.lan_url, n, problems) for n in NAMES[:3]]
    try:
        for ph in phones:
            ph.join()
        tv.locator("[data-choose=decrypto]").click()
        tv.get_by_test_id("start").click()
        tv.wait_for_function("() => PH.last && PH.last.game && PH.last.game.phase === 'encrypt'")
        by_seat = {seat(ph.page): ph.page for ph in phones}
        for rnd in (1, 2):
            g = game(tv)
            team = g["encrypting"][0]
            act(by_seat[g["encryptors"][team]], {"type": "clues", "round": rnd, "clues": [f"r{rnd}a", f"r{rnd}b", f"r{rnd}c"], "final": True})
            tv.wait_for_function("() => PH.last.game.phase === 'guess'")
            g = game(tv)
            code = game(by_seat[g["encryptors"][team]])["my_code"]
            decoder = next(s for s in g["teams"][team] if s != g["encryptors"][team])
            lone = next(s for t in g["teams"] for s in g["teams"][t] if t != team)
            wrong = code[1:] + code[:1]
            act(by_seat[decoder], {"type": "lock", "round": rnd, "team": team, "code": wrong if rnd == 1 else code})
            if rnd == 2:
                # the lone interceptor has no team to share a draft with: the phone does not say so
                expect(by_seat[lone].get_by_test_id("guess-panel")).to_be_visible()
                expect(by_seat[lone].get_by_test_id("draft-by")).not_to_contain_text("チーム")
                act(by_seat[lone], {"type": "lock", "round": rnd, "team": team, "code": code})
            else:
                tv.wait_for_function("() => PH.last.game.phase === 'reveal'")
                act(by_seat[decoder], {"type": "next", "round": rnd, "team": team})
                tv.wait_for_function("() => PH.last.game.round === 2")
        expect(tv.get_by_test_id("dc-result")).to_be_visible()
        reveal = tv.get_by_test_id("reveal")
        expect(reveal).to_be_visible()
        expect(reveal).to_contain_text("盗聴成功")
        expect(tv.get_by_test_id("reveal-code")).to_have_text("-".join(map(str, code)))
        tv.wait_for_timeout(3000)
        assert outside(tv, ".dc.tv .dc-stage", ".banner, .dc-kwlist, .step") == []
        assert not problems, problems
    finally:
        close_all(tv, *(ph.page for ph in phones))
