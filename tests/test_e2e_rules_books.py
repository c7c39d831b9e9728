"""Browser tests of issue 13 ("rules exactly as the books") through the real server: what a phone
shows at the moments the rulebooks care about.

* Decrypto (seed 000): the encryptor's phone keeps the team's code behind a tap-to-peek once the
  clues are sent, so a teammate leaning over it while the team intercepts (or decodes) never sees
  the answer before its reveal.
* Word Basket (seed 002, 同時に入ったとき): the phone whose play lost a near-race is told it lost: its
  word stays typed and it gets the "lost" buzz and toast, never the success buzz and a cleared word.

The other seats are socket clients (``sio_peer``) so each test needs one browser page per phone it
looks at. Every wait is for a state, never for time.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from . import test_e2e_word_basket as wbe
from .test_e2e_mind import Phone, close_all, open_tv, shot
from .test_e2e_vote_box import socket_phone

pytestmark = [pytest.mark.e2e, pytest.mark.server]

expect.set_options(timeout=8_000)


def _text(page, testid: str) -> str:
    loc = page.get_by_test_id(testid)
    return " ".join(loc.all_inner_texts()) if loc.count() else ""


def test_decrypto_encryptor_phone_hides_the_code_while_the_team_intercepts(server, browser, pw, sio_peer):
    """Seats: s1 s2 s3 on sockets, s4 the browser phone; teams white s1 s3, black s2 s4. Round 2:
    s4 is black's encryptor; while white's clues are up black intercepts, and s4's phone must show
    neither black's code nor the clue-to-digit list nor black's keywords until its holder taps to
    peek (issue 13 point 6; on main the list and the keywords were in plain view)."""
    srv = server(mode="eventlet", seed=4243)
    problems: list[str] = []
    tv = open_tv(browser, srv, problems)
    peers = [socket_phone(sio_peer, srv, n) for n in ("あき", "Ben", "ちか")]
    dora = Phone(browser, pw, srv.lan_url, "Dora", problems)
    try:
        dora.join()
        me = sio_peer(srv.url, {"role": "phone", "token": dora.token(), "lang": "ja"}, "Dora-socket")
        peers.append(me)
        tv.locator("[data-choose=decrypto]").click()
        tv.get_by_test_id("start").click()
        views = [p.wait_state(lambda s: s.get("game") and s["game"].get("team"), "seat view") for p in peers]
        seats = [v["game"]["me"] for v in views]
        assert seats == ["s1", "s2", "s3", "s4"], seats
        teams = views[0]["game"]["teams"]
        assert teams == {"white": ["s1", "s3"], "black": ["s2", "s4"]}, teams
        peer = dict(zip(seats, peers))
        view = lambda seat: peer[seat].state["game"]  # noqa: E731
        clues = iter(f"ヒント{i}" for i in range(100))
        for rnd in (1, 2):
            for p in peers:
                p.wait_state(lambda s, r=rnd: s["game"]["round"] == r and s["game"]["phase"] == "encrypt", f"round {rnd}")
            codes = {}
            for t in ("white", "black"):
                enc = view("s1")["encryptors"][t]
                codes[t] = view(enc)["my_code"]
                if rnd == 2 and t == "black":
                    assert enc == "s4"
                    page = dora.page
                    for i in range(3):
                        page.get_by_test_id(f"clue-{i}").fill(next(clues))
                    page.get_by_test_id("send-clues").tap()
                    expect(page.get_by_test_id("send-clues")).to_have_count(0)
                    continue
                assert peer[enc].act(type="clues", round=rnd, clues=[next(clues) for _ in range(3)], final=True)["ok"]
            if rnd == 1:
                for t in ("white", "black"):
                    enc = view("s1")["encryptors"][t]
                    dec = next(s for s in teams[t] if s != enc)
                    peer[dec].wait_state(lambda s, t=t: s["game"]["phase"] == "guess" and s["game"]["active"] == t, "guess")
                    assert peer[dec].act(type="lock", round=1, team=t, code=codes[t])["ok"]
                    peer[dec].wait_state(lambda s, t=t: s["game"]["phase"] == "reveal" and s["game"]["active"] == t,
                                         "reveal")
                    assert peer[dec].act(type="next", round=1, team=t)["ok"]
        # round 2, white's clues are up: black (s2 and s4) intercepts; s4 holds black's secret code
        me.wait_state(lambda s: s["game"]["phase"] == "guess" and s["game"]["active"] == "white", "white's clues up")
        page = dora.page
        code = codes["black"]
        keywords = view("s4")["my_keywords"]
        expect(page.get_by_test_id("code-peek")).to_be_visible()
        expect(page.get_by_test_id("my-later-clues")).to_have_count(0)
        expect(page.get_by_test_id("sheet-black").locator("[data-testid^=sheet-kw-]")).to_have_count(0)
        shown = page.locator("#game-root").inner_text()
        assert not any(w in shown for w in keywords), "black's keywords in view on the encryptor's phone"
        shot(page, "decrypto-phone-peek-closed.png")
        # its holder peeks: the list, with the digits, and the keywords
        page.get_by_test_id("code-peek").tap()
        later = page.get_by_test_id("my-later-clues")
        expect(later).to_be_visible()
        expect(later.locator(".n")).to_have_text([str(d) for d in code])
        expect(page.get_by_test_id("sheet-black").locator("[data-testid^=sheet-kw-]")).to_have_text(keywords)
        shot(page, "decrypto-phone-peek-open.png")
        page.get_by_test_id("code-peek").tap()  # hide again
        expect(page.get_by_test_id("my-later-clues")).to_have_count(0)
        # black's own clues come up: the encryptor's code stays behind the peek while s2 decodes
        enc_w = view("s1")["encryptors"]["white"]
        dec_w = next(s for s in teams["white"] if s != enc_w)
        assert peer["s2"].act(type="lock", round=2, team="white", code=list(reversed(codes["white"])))["ok"]
        assert peer[dec_w].act(type="lock", round=2, team="white", code=codes["white"])["ok"]
        peer[dec_w].wait_state(lambda s: s["game"]["phase"] == "reveal" and s["game"]["active"] == "white", "reveal")
        assert peer[dec_w].act(type="next", round=2, team="white")["ok"]
        me.wait_state(lambda s: s["game"]["phase"] == "guess" and s["game"]["active"] == "black", "black's clues up")
        expect(page.get_by_test_id("code-peek")).to_be_visible()
        expect(page.get_by_test_id("my-code")).to_have_count(0)
        page.get_by_test_id("code-peek").tap()
        expect(page.get_by_test_id("my-code")).to_have_text("".join(map(str, code)))
        assert not problems, problems
    finally:
        close_all(tv, dora.page)


_SPY_VIBRATE = "() => { window.__buzz = []; navigator.vibrate = (p) => { window.__buzz.push(p); return true; }; }"


def test_word_basket_the_phone_that_loses_a_near_race_is_told_it_lost(server, browser):
    """Two phones tap a card for the same field at the same moment (timers set in each page). The
    server takes the first and bounces the other back to its hand (a near-race, no penalty). The
    losing phone must keep its word and get the "lost" toast and buzz, not the success buzz and a
    cleared word (on main the ok answer of the bounced play cleared the word and buzzed 40 ms).
    A try in which the second tap came too late for a near-race (a plain refusal) is tried again."""
    srv = server(mode="eventlet", seed=11)
    problems: list[str] = []
    tv = open_tv(browser, srv, problems)
    x, y = wbe.Phone(browser, srv.lan_url, "あき", problems), wbe.Phone(browser, srv.lan_url, "Ben", problems)
    try:
        x.join()
        y.join()
        tv.locator("[data-choose=word_basket]").click()
        tv.get_by_test_id("start").click()
        for ph in (x, y):
            ph.wait_view(lambda g: g.get("hand"), "the deal")
            ph.page.evaluate(_SPY_VIBRATE)
        raced = None
        for attempt in range(8):
            serial = x.game()["field"]["serial"]
            y.wait_view(lambda g, s=serial: g["field"]["serial"] == s, "the same field on both phones")
            fx, fy = wbe.find_play(x.game()), wbe.find_play(y.game())
            if not (fx and fy):  # someone has no word for this field: reset from the page, try again
                stuck = x if not fx else y
                stuck.page.get_by_test_id("reset").tap()
                hand = stuck.game()["hand"]
                top = next((c for c in hand if c["kind"] != "number"), None)
                if top is not None:
                    stuck.card(top["id"]).tap()
                x.wait_view(lambda g, s=serial: g["field"]["serial"] != s, "a new field")
                continue
            for ph, (card_id, word, _) in ((x, fx), (y, fy)):
                ph.type_word(word)
                expect(ph.card(card_id)).to_have_class(re.compile(r"\bfit\b"))
                ph.page.evaluate("() => { window.__buzz = []; }")
            at = x.page.evaluate("Date.now()") + 400
            for ph, card_id in ((x, fx[0]), (y, fy[0])):
                ph.page.evaluate("([sel, at]) => setTimeout(() => document.querySelector(sel).click(), at - Date.now())",
                                 [f"[data-testid=card-{card_id}]", at])
            x.wait_view(lambda g, s=serial: g["field"]["serial"] != s, "the field taken")
            winner_word = wbe.chain_top(tv).locator(".w")
            expect(winner_word).to_have_text(re.compile(f"^({re.escape(fx[1])}|{re.escape(fy[1])})$"))
            (win, fw), (lose, fl) = ((x, fx), (y, fy)) if winner_word.inner_text() == fx[1] else ((y, fy), (x, fx))
            g = lose.wait_view(lambda g: True, "a view")
            for _ in range(40):
                g = lose.game()
                if (g["race"] and g["race"]["field"] == serial) or fl[0] in [c["id"] for c in g["hand"]]:
                    break
                lose.page.wait_for_timeout(50)
            if not (g["race"] and g["race"]["field"] == serial and g["race"]["loser"] == lose.seat):
                for ph in (x, y):
                    ph.type_word("")
                continue  # the second tap missed the near-race window (refused as stale): again
            raced = (win, fw, lose, fl)
            break
        assert raced, "no near-race in 8 tries"
        win, fw, lose, fl = raced
        expect(lose.page.get_by_test_id("toast")).to_contain_text(win.name)
        expect(lose.page.get_by_test_id("word")).to_have_value(fl[1])  # the word stays typed
        assert fl[0] in lose.hand_ids()
        expect(win.page.get_by_test_id("word")).to_have_value("")
        buzz_lose = lose.page.evaluate("window.__buzz")
        buzz_win = win.page.evaluate("window.__buzz")
        assert [60, 40, 60] in buzz_lose and 40 not in buzz_lose, buzz_lose
        assert 40 in buzz_win, buzz_win
        shot(lose.page, "word_basket-phone-race-lost.png")
        assert not problems, problems
    finally:
        close_all(tv, x.page, y.page)


def test_word_basket_reach_is_one_tap_after_the_play_and_others_wait_a_short_grace(server, browser, sio_peer):
    """RULES.md "Reach": リーチ is one tap right when the play leaves one card (a big button that
    shows at once; no box to tick before playing), and the other phones get their "forgot to call
    reach" button only after a short grace. Plays down to two cards go through sockets (same
    tokens as the pages); the last of them is played on the page."""
    srv = server(mode="eventlet", seed=12)
    problems: list[str] = []
    tv = open_tv(browser, srv, problems)
    x, y = wbe.Phone(browser, srv.lan_url, "あき", problems), wbe.Phone(browser, srv.lan_url, "Ben", problems)
    try:
        x.join()
        y.join()
        tv.locator("[data-choose=word_basket]").click()
        tv.get_by_test_id("start").click()
        px = sio_peer(srv.url, {"role": "phone", "token": x.page.evaluate("localStorage.getItem('ph.token')"), "lang": "ja"}, "x")
        py = sio_peer(srv.url, {"role": "phone", "token": y.page.evaluate("localStorage.getItem('ph.token')"), "lang": "ja"}, "y")
        view = lambda p: p.wait_state(lambda s: s.get("game") and s["game"].get("hand") is not None, "view")["game"]  # noqa: E731

        def peer_play(peer, g, found) -> None:
            res = peer.act(type="play", field=g["field"]["serial"], card=found[0], word=found[1])
            if res["ok"]:
                peer.wait_state(lambda s: s["game"]["version"] > g["version"], "the play applied")
            else:
                assert res["code"] == "wb_stale_field", res

        assert not x.page.get_by_test_id("reach-with").count()  # no box to tick before playing
        for _ in range(60):
            g = view(px)
            found = wbe.find_play(g)
            if len(g["hand"]) == 2 and found:
                break
            if found and len(g["hand"]) > 2:
                peer_play(px, g, found)
                continue
            gy = view(py)
            other = wbe.find_play(gy)
            if other:
                peer_play(py, gy, other)
            else:  # nobody has a word: x resets
                top = next((c["id"] for c in g["hand"] if c["kind"] != "number"), None)
                px.act(type="reset", field=g["field"]["serial"], **({"top": top} if top is not None else {}))
                px.wait_state(lambda s: s["game"]["version"] > g["version"], "the reset")
        else:
            raise AssertionError("x never had two cards and a word")
        x.wait_view(lambda gv: len(gv["hand"]) == 2 and gv["field"]["serial"] == g["field"]["serial"], "x's page in step")
        card_id, word, _ = found
        x.type_word(word)
        expect(x.card(card_id)).to_have_class(re.compile(r"\bfit\b"))
        x.card(card_id).tap()
        reach = x.page.get_by_test_id("reach")
        expect(reach).to_be_visible()  # at once, the first button of the row
        assert reach.evaluate("(b) => b.parentElement.firstElementChild === b")
        shot(x.page, "word_basket-phone-reach-now.png")
        y.wait_view(lambda gv: any(p["seat"] == x.seat and p["cards"] == 1 for p in gv["players"]), "x at one card")
        point = y.page.get_by_test_id(f"point-out-{x.seat}")
        grace_from = next(p["point_out_from"] for p in y.game()["players"] if p["seat"] == x.seat)
        shown_at = y.page.evaluate("PH.serverNow()")
        if shown_at < grace_from - 0.3:  # still in the grace: no button for the others yet
            expect(point).to_have_count(0)
        expect(point).to_be_visible()  # after the grace
        assert y.page.evaluate("PH.serverNow()") >= grace_from - 0.05
        reach.tap()  # x says it now: nothing to point out any more
        expect(point).to_have_count(0)
        expect(tv.locator(f'.wb-players li[data-seat="{x.seat}"] .reach-tag')).to_be_visible()
        assert not problems, problems
    finally:
        close_all(tv, x.page, y.page)
