"""Browser tests of issue 13 ("rules exactly as the books") through the real server: what a phone
shows at the moments the rulebooks care about.

* Decrypto (seed 000): the encryptor's phone keeps the team's code behind a tap-to-peek once the
  clues are sent, so a teammate leaning over it while the team intercepts (or decodes) never sees
  the answer before its reveal.

The other seats are socket clients (``sio_peer``) so each test needs one browser page per phone it
looks at. Every wait is for a state, never for time.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

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
