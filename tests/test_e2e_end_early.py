"""ゲームを終える through the page's own dialog, and the game ended early in tonight's record
(issue 27: the browser's confirm() box asked, and the game then vanished from the record).

The real server, the TV page (the laptop's: host powers) at 1280x720, two python-socketio
phones playing and one phone page at 360 px. The host taps ゲームを終える: an in-page dialog asks
(role=dialog, labelled by its question, focus on the safe answer, buttons >= 44 px); Escape says
no and the game goes on; asked again, "end" ends it. The TV's record and the phone's line show
the game as ended early, with no points. A page that opened a browser dialog fails the test.
Waits for state, never for time. About 10 s.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .test_e2e_howto import open_tv_at
from .test_e2e_mind import close_all, shot, watch

pytestmark = [pytest.mark.e2e, pytest.mark.server]

PHONE = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}

_DIALOG = """() => {
  const d = document.querySelector("dialog[data-testid=ask]");
  if (!d) return null;
  const label = document.getElementById(d.getAttribute("aria-labelledby"));
  return {
    open: d.open, role: d.getAttribute("role"), modal: d.matches(":modal"),
    label: label ? label.textContent : null,
    focused: document.activeElement && document.activeElement.dataset.testid,
    heights: [...d.querySelectorAll("button")].map((b) => b.getBoundingClientRect().height),
    widths: [...d.querySelectorAll("button")].map((b) => b.getBoundingClientRect().width),
    inside: (() => { const r = d.getBoundingClientRect(); return r.left >= 0 && r.right <= innerWidth && r.top >= 0 && r.bottom <= innerHeight; })(),
  };
}"""


def test_the_host_ends_a_game_in_the_pages_dialog_and_the_record_keeps_it(server, browser, sio_peer):
    srv = server(mode="eventlet", seed=3)
    problems: list[str] = []
    peers = []
    for name in ("あかり", "Ben"):
        peer = sio_peer(srv.url, {"role": "phone", "token": None, "lang": "ja"}, name)
        assert peer.send("join", {"name": name})["ok"]
        peers.append(peer)
    tv = open_tv_at(browser, srv, problems, 1280, 720)
    tv.on("dialog", lambda d: (problems.append(f"tv: a browser dialog: {d.message}"), d.dismiss()))
    phone = None
    try:
        tv.locator(".game-tile[data-choose=the_mind]").click()
        tv.wait_for_function("() => PH.last.party.game_key === 'the_mind'")
        tv.get_by_test_id("start").click()
        for p in peers:
            p.wait_state(lambda s: s["party"]["phase"] == "game" and s["game"], "the game")
        tv.wait_for_function("() => PH.last.party.phase === 'game' && PH.last.game")
        serial = tv.evaluate("() => PH.last.party.serial")

        # asked in the page; Escape says no and the game goes on
        tv.get_by_test_id("end").click()
        dialog = tv.get_by_role("dialog", name="ゲームを終えてロビーに戻りますか？")
        expect(dialog).to_be_visible()
        expect(dialog).to_contain_text("途中で終了")  # what ending it does to the record
        info = tv.evaluate(_DIALOG)
        assert info["open"] and info["modal"] and info["role"] == "dialog", info
        assert info["focused"] == "ask-no", info  # the safe answer first
        assert min(info["heights"]) >= 44 and info["inside"], info
        shot(tv, "end-early-dialog-tv.png")
        tv.keyboard.press("Escape")
        expect(dialog).to_have_count(0)
        expect(tv.get_by_test_id("end")).to_be_enabled()  # released for another try
        assert tv.evaluate("() => PH.last.party.phase") == "game"
        # "Cancel" says no too
        tv.get_by_test_id("end").click()
        tv.get_by_test_id("ask-no").click()
        expect(tv.get_by_test_id("ask")).to_have_count(0)
        assert tv.evaluate("() => PH.last.party.phase") == "game"

        # asked again: "end" ends it
        tv.get_by_test_id("end").click()
        tv.get_by_test_id("ask-yes").click()
        expect(tv.get_by_test_id("ended")).to_be_visible()
        record = tv.get_by_test_id("record")
        expect(record).to_be_visible()
        game = record.get_by_test_id("record-game")
        expect(game).to_have_count(1)
        expect(game).to_have_attribute("data-serial", str(serial))
        expect(game).to_contain_text("ザ・マインド")
        expect(game.get_by_test_id("record-result")).to_have_text("ホストが途中で終了・得点なし")
        expect(tv.get_by_test_id("scoreboard")).to_have_count(0)  # nobody scored
        shot(tv, "end-early-record-tv.png")

        # a phone's record line (360 px), in both languages
        ctx = browser.new_context(**PHONE)
        token = peers[1].welcomes[-1]["token"]
        ctx.add_init_script(f"localStorage.setItem('ph.token', {token!r})")
        phone = ctx.new_page()
        watch(phone, "phone", problems)
        phone.on("dialog", lambda d: (problems.append(f"phone: a browser dialog: {d.message}"), d.dismiss()))
        phone.goto(srv.lan_url + "/")
        expect(phone.get_by_test_id("record-mine")).to_contain_text("あなた：まだ得点なし")
        expect(phone.get_by_test_id("record-mine-last")).to_have_text("ザ・マインド：途中で終了（得点なし）")
        shot(phone, "end-early-record-phone-ja.png")
        phone.get_by_role("button", name="English").click()
        expect(phone.get_by_test_id("record-mine-last")).to_have_text("The Mind: ended early (no points)")
        shot(phone, "end-early-record-phone-en.png")

        # the host's phone asks in the page too (kick in the lobby), at 360 px, in English
        assert tv.evaluate("() => 1") == 1
        seat = phone.evaluate("() => PH.last.me.seat")
        tv_host = tv.evaluate(f"() => PH.host('promote', {{ seat: {seat!r} }})")
        assert tv_host["ok"], tv_host
        phone.wait_for_function("() => PH.last.host")
        phone.locator("[data-kick]").first.click()
        ask = phone.get_by_role("dialog")
        expect(ask).to_be_visible()
        info = phone.evaluate(_DIALOG)
        assert info["modal"] and info["focused"] == "ask-no" and info["inside"], info
        assert min(info["heights"]) >= 44 and min(info["widths"]) >= 44, info
        expect(ask.get_by_test_id("ask-no")).to_have_text("Cancel")
        shot(phone, "end-early-dialog-phone-en.png")
        phone.keyboard.press("Escape")
        expect(ask).to_have_count(0)
        assert len(phone.evaluate("() => PH.last.party.roster")) == 2  # nobody was removed
        assert not problems, problems
    finally:
        close_all(tv, *([phone] if phone else []))
