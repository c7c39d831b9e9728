"""Word Basket at 360x740: the button that points out a missing リーチ is on screen when it
matters (issue 27, the reach countdown). The coach tells the table "to point out a missing Reach
… do it now" during a few seconds' countdown; the button sat below the hand, off the first
screen of a 360x740 phone, so a newcomer never saw it in time.

One browser phone and two python-socketio phones on the real server: one socket phone plays
down to one card without declaring, then plays its last card. Waits for state. About 10 s.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .test_e2e_word_basket import SEED, Phone, close_all, find_play, watch

pytestmark = [pytest.mark.e2e, pytest.mark.server]

SMALL = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}

_IN_VIEW = """(el) => { const r = el.getBoundingClientRect();
  return r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth; }"""


def test_the_point_out_button_is_on_the_first_screen(server, browser, sio_peer):
    srv = server(mode="eventlet", seed=SEED + 1)
    problems: list[str] = []
    tv = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    watch(tv, "tv", problems)
    tv.goto(srv.url + "/tv")
    p = Phone.__new__(Phone)
    p.name, p.seat = "Pat", ""
    p.ctx = browser.new_context(**SMALL)
    p.page = p.ctx.new_page()
    watch(p.page, "phone Pat", problems)
    p.page.goto(srv.lan_url + "/?lang=en")
    try:
        p.join()
        peers = []
        for name in ("きよ", "Rin"):
            peer = sio_peer(srv.url, {"role": "phone", "token": None, "lang": "ja"}, name)
            assert peer.send("join", {"name": name})["ok"]
            peer.seat = peer.wait(lambda peer=peer: next((w["seat"] for w in peer.welcomes if w.get("token")), None), "seat")
            peers.append(peer)
        q, r = peers
        tv.locator("[data-choose=word_basket]").click()
        tv.wait_for_function("() => PH.last.party.game_key === 'word_basket'")
        tv.evaluate("() => PH.setOptions({ reach_window: 20 })")
        tv.wait_for_function("() => PH.last.party.options.reach_window === 20")
        tv.get_by_test_id("start").click()
        expect(p.page.get_by_test_id("hand").locator(".wbcard")).to_have_count(5)

        def view(peer) -> dict:
            return peer.wait_state(lambda s: s.get("game") and s["game"].get("hand") is not None, "a game view")["game"]

        def peer_play(peer, g, found) -> bool:
            res = peer.act(type="play", field=g["field"]["serial"], card=found[0], word=found[1])
            if not res["ok"]:
                assert res["code"] == "wb_stale_field", res
                return False
            peer.wait_state(lambda s: s["game"]["version"] > g["version"], "the play applied")
            return True

        for _ in range(40):
            g = view(q)
            if len(g["hand"]) == 1:
                break
            found = find_play(g)
            if found:
                peer_play(q, g, found)
                continue
            gr = view(r)
            other = find_play(gr)
            assert other, "neither Q nor R has a word"
            peer_play(r, gr, other)
        assert len(view(q)["hand"]) == 1
        button = p.page.get_by_test_id(f"point-out-{q.seat}")
        expect(button).to_be_visible(timeout=10_000)  # after the grace
        p.page.evaluate("() => window.scrollTo(0, 0)")
        assert button.evaluate(_IN_VIEW), ("one card left", button.bounding_box())
        # Q goes out without リーチ: the countdown, and the same button must be in view
        for _ in range(40):
            g = view(q)
            found = find_play(g)
            if found and peer_play(q, g, found):
                break
            gr = view(r)
            other = find_play(gr)
            if other:
                peer_play(r, gr, other)
        tv.wait_for_function("() => !!PH.last.game.pending_win")
        expect(p.page.get_by_test_id(f"point-out-{q.seat}")).to_be_visible()
        p.page.evaluate("() => window.scrollTo(0, 0)")
        button = p.page.get_by_test_id(f"point-out-{q.seat}")
        assert button.evaluate(_IN_VIEW), ("countdown", button.bounding_box())
        box = button.bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44, box
        assert not problems, problems
    finally:
        close_all(tv, p.page)
