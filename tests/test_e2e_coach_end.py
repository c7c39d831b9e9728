"""The coach (はじめてモード) on the pages past the first round and at the end (issue 27: the strip
stopped after The Mind's level 1 and was gone at the end). Two scripted phones play The Mind to
its end with the coach on (tests/test_e2e_night_record.play_to_the_end); a third seat's phone
page (360 px) plays along by its state only. At the end the TV's strip shows the end's step
above the result and inside the 1280x720 screen, the phone its own "now" line; the switch still
says on back in the lobby. Waits for state, never for time. About 10 s.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from partyhost import i18n

from .test_e2e_howto import open_tv_at
from .test_e2e_mind import close_all, shot, watch
from .test_e2e_night_record import play_to_the_end

pytestmark = [pytest.mark.e2e, pytest.mark.server]

PHONE = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}

# Every box of the TV's game screen stays on screen and nothing of the game sits under the strip.
_TV_FIT = """() => {
  const out = [];
  const strip = document.getElementById("coach-strip");
  if (!strip || strip.hidden) return ["no strip"];
  const s = strip.getBoundingClientRect();
  if (s.bottom > innerHeight || s.right > innerWidth + 0.5) out.push("strip off screen");
  const app = document.getElementById("app").getBoundingClientRect();
  if (app.top < s.bottom - 1) out.push("the game starts under the strip");
  for (const el of document.querySelectorAll("#app *")) {
    const r = el.getBoundingClientRect();
    if (r.width && r.height && (r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5)) out.push("off screen: " + (el.className || el.tagName));
  }
  return out.slice(0, 5);
}"""


def test_the_coach_stays_through_the_game_and_its_end(server, browser, sio_peer):
    srv = server(mode="eventlet", seed=3)
    problems: list[str] = []
    peers = []
    for name in ("あかり", "Ben"):
        peer = sio_peer(srv.url, {"role": "phone", "token": None, "lang": "ja"}, name)
        assert peer.send("join", {"name": name})["ok"]
        peers.append(peer)
    tv = open_tv_at(browser, srv, problems, 1280, 720)
    ctx = browser.new_context(**PHONE)
    token = peers[1].welcomes[-1]["token"]
    ctx.add_init_script(f"localStorage.setItem('ph.token', {token!r})")
    phone = ctx.new_page()
    watch(phone, "phone", problems)
    try:
        phone.goto(srv.lan_url + "/")
        expect(phone.get_by_test_id("welcome")).to_contain_text("Ben")
        tv.locator(".game-tile[data-choose=the_mind]").click()
        tv.wait_for_function("() => PH.last.party.game_key === 'the_mind'")
        expect(tv.get_by_test_id("coach-switch")).to_have_attribute("aria-pressed", "true")
        tv.get_by_test_id("start").click()
        for p in peers:
            p.wait_state(lambda s: s["party"]["phase"] == "game" and s["game"], "the game")
        play_to_the_end(peers)
        # the end: the TV's strip says so, the phone has its line
        strip = tv.get_by_test_id("coach-strip")
        expect(strip).to_have_attribute("data-step", "over")
        expect(strip.get_by_test_id("coach-now")).to_have_text(
            i18n.message("ja", "coach.now") + i18n.message("ja", "coach.step.over"))
        assert tv.evaluate(_TV_FIT) == []
        shot(tv, "coach-end-tv-ja.png")
        line = phone.get_by_test_id("coach-line")
        expect(line).to_be_visible()
        expect(line).to_contain_text(i18n.message("ja", "the_mind.guide.over"))
        box = line.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 360.5, box
        expect(phone.get_by_test_id("coach-skip")).to_have_count(0)  # nothing to skip at the end
        shot(phone, "coach-end-phone-ja.png")
        # back in the lobby the switch is as the host left it: on
        tv.get_by_test_id("to-lobby").click()
        expect(tv.get_by_test_id("coach-switch")).to_have_attribute("aria-pressed", "true")
        expect(phone.get_by_test_id("coach-switch")).to_have_text(i18n.message("ja", "coach.on"))
        assert not problems, problems
    finally:
        close_all(tv, phone)
