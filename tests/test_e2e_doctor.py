"""The join doctor and the Wi-Fi card on the TV (issue 26), in Debian's Chromium at 1920x1080.

Real server started with ``--doctor-after 2`` (the default is 45 s) and a Wi-Fi card from
``--wifi-ssid`` / ``--wifi-password-file``: nobody joins, so after the delay the lobby lists the
causes with what to do and what the laptop checked; nothing overlaps or scrolls, the words are
sofa-sized, and both QR codes *in the screenshot* decode (zxing-cpp) to the WIFI: text and the
join URL. The first phone to join takes the doctor away. The host menu sets a Wi-Fi card too.
Screenshots: tv-doctor.png, tv-wifi-menu.png in the shots folder (``PARTYHOST_SHOTS=docs``: docs/screenshots/).
"""

from __future__ import annotations

import base64
import time

import pytest
import zxingcpp
from playwright.sync_api import Page, expect

from partyhost import wifi

from .test_e2e_axe import axe
from .test_e2e_mind import close_all, shots_dir, watch

pytestmark = [pytest.mark.e2e, pytest.mark.server]

TV_1080 = {"width": 1920, "height": 1080}
SECRET = 'pa:ss"w,o\\rd'

_GREY = """async (b64) => { const img = new Image(); img.src = "data:image/png;base64," + b64; await img.decode();
  const c = document.createElement("canvas"); c.width = img.naturalWidth; c.height = img.naturalHeight;
  const g = c.getContext("2d"); g.drawImage(img, 0, 0); const d = g.getImageData(0, 0, c.width, c.height).data;
  const grey = []; for (let i = 0; i < d.length; i += 4) grey.push(d[i]);
  return { w: c.width, h: c.height, grey }; }"""

# every box that must not overlap another, its smallest text, and whether a panel scrolls
_LAYOUT = """() => { const box = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const els = { doctor: document.querySelector(".doctor-slot"), checks: document.querySelector(".doctor-checks"),
    wifi: document.querySelector("[data-testid=wifi-qr]"), join: document.querySelector("[data-testid=qr]"),
    url: document.querySelector("[data-testid=join-url]"), ssid: document.querySelector("[data-testid=wifi-ssid]"),
    bar: document.querySelector(".tvbar") };
  let min = 1e9; for (const root of [els.doctor, els.checks]) { const w = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    while (w.nextNode()) { const n = w.currentNode; if (!n.textContent.trim()) continue; min = Math.min(min, parseFloat(getComputedStyle(n.parentElement).fontSize)); } }
  const inner = (sel) => { const el = document.querySelector(sel); return el.scrollHeight - el.clientHeight; };
  return { boxes: Object.fromEntries(Object.entries(els).map(([k, el]) => [k, box(el)])), min,
           doctorOver: inner(".doctor-slot .doctor"), checksOver: inner(".doctor-checks .checks"),
           urlOver: els.url.scrollWidth - els.url.clientWidth }; }"""


def overlap(a, b) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


def decode_on_screen(tv: Page, test_id: str) -> list[str]:
    """Screenshot the QR code drawn on the TV and decode the picture's pixels."""
    png = tv.get_by_test_id(test_id).screenshot()
    px = tv.evaluate(_GREY, base64.b64encode(png).decode())
    image = memoryview(bytes(px["grey"])).cast("B", shape=[px["h"], px["w"]])
    return [r.text for r in zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode)]


def open_tv(browser, srv, problems) -> Page:
    tv = browser.new_context(viewport=TV_1080).new_page()
    watch(tv, "tv", problems)
    tv.goto(srv.url + "/tv")
    expect(tv.get_by_test_id("qr").locator("svg")).to_be_visible()
    return tv


def test_the_doctor_shows_when_nobody_joins_with_a_readable_wifi_qr(server, browser, sio_peer, tmp_path):
    password_file = tmp_path / "wifi-password"
    password_file.write_text(SECRET + "\n", encoding="utf-8")
    srv = server(mode="eventlet", seed=26, extra_args=(
        "--doctor-after", "2", "--wifi-ssid", "Party;Net", "--wifi-password-file", str(password_file)))
    assert "接続の確認 / connection checks" in srv.output() and SECRET not in srv.output()
    problems: list[str] = []
    tv = open_tv(browser, srv, problems)
    shown = time.monotonic()
    doctor = tv.get_by_test_id("doctor")
    try:
        assert not tv.locator(".lobby.show-doctor").count()  # not before the delay
        expect(tv.get_by_test_id("wifi-qr").locator("svg")).to_be_visible()
        expect(doctor.locator(".doctor")).to_be_visible(timeout=8000)
        waited = time.monotonic() - shown
        print(f"doctor after {waited:.2f} s (--doctor-after 2)")
        assert waited >= 1.5
        # the five causes, each with what to do; the firewall one names the port
        expect(doctor.locator("li[data-cause]")).to_have_count(5)
        expect(doctor.locator("li[data-cause=same_wifi]")).to_contain_text("Party;Net")
        expect(doctor.locator("li[data-cause=firewall]")).to_contain_text(f"ポート{srv.port}/tcp")
        expect(doctor.locator("li[data-cause=guest]")).to_contain_text("テザリング")
        # what the laptop checked: its own address answers; 127.0.0.1 cannot reach a phone
        checks = tv.get_by_test_id("doctor-checks")
        expect(checks.locator("li[data-check=reach_ok]")).to_contain_text(f"127.0.0.1 のポート{srv.port}")
        expect(checks.locator("li[data-check=address_loopback] .mark")).to_have_text("⚠")
        tv.screenshot(path=str(shots_dir() / "tv-doctor.png"))
        layout = tv.evaluate(_LAYOUT)
        print("layout", layout)
        boxes = layout["boxes"]
        for name, (left, top, right, bottom) in boxes.items():
            assert left >= 0 and top >= 0 and right <= 1920.5 and bottom <= 1080.5, (name, boxes[name])
        names = list(boxes)
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                assert not overlap(boxes[a], boxes[b]), (a, b, boxes[a], boxes[b])
        assert layout["doctorOver"] <= 1 and layout["checksOver"] <= 1 and layout["urlOver"] <= 0
        assert layout["min"] >= 24, layout["min"]  # sofa-sized at 1920x1080
        # both codes as drawn on the screen decode: the Wi-Fi's (escapes and all) and the join URL
        assert decode_on_screen(tv, "wifi-qr") == [wifi.payload("Party;Net", SECRET)]
        assert decode_on_screen(tv, "qr") == [tv.get_by_test_id("join-url").inner_text().strip()]
        # the password is nowhere in the page's text or markup, only in the drawing
        assert SECRET not in tv.content() and wifi.escape(SECRET) not in tv.content()
        assert not axe(tv, "TV: the join doctor and the Wi-Fi card")

        # a 1280x720 TV: the same room, in proportion
        tv.set_viewport_size({"width": 1280, "height": 720})
        tv.wait_for_timeout(300)
        small = tv.evaluate(_LAYOUT)
        print("layout at 1280x720", small)
        names = list(small["boxes"])
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                assert not overlap(small["boxes"][a], small["boxes"][b]), (a, b, small["boxes"])
        assert small["doctorOver"] <= 1 and small["checksOver"] <= 1 and small["min"] >= 16, small
        tv.screenshot(path=str(shots_dir() / "tv-doctor-720.png"))
        tv.set_viewport_size(TV_1080)

        # English too, same room
        tv.get_by_test_id("host-menu").click()
        tv.get_by_test_id("host-menu-panel").get_by_test_id("lang").click()
        tv.keyboard.press("Escape")
        expect(doctor.locator("h2")).to_have_text("Nobody has joined yet. If phones can't connect:")
        tv.screenshot(path=str(shots_dir() / "tv-doctor-en.png"))
        layout = tv.evaluate(_LAYOUT)
        assert layout["doctorOver"] <= 1 and layout["checksOver"] <= 1 and layout["min"] >= 24, layout

        # the first phone to join takes the doctor away; the lobby is back
        phone = sio_peer(srv.url, {"role": "phone"}, "phone")
        assert phone.send("join", {"name": "あき"})["ok"]
        expect(tv.locator(".lobby.show-doctor")).to_have_count(0)
        expect(tv.get_by_test_id("roster").locator("li")).to_have_count(1)
        expect(tv.get_by_test_id("start")).to_be_visible()
        assert SECRET not in str(phone.state)
        assert not problems, problems
    finally:
        close_all(tv)


def test_the_host_menu_puts_a_wifi_qr_on_the_tv(server, browser):
    srv = server(mode="threading", seed=27)
    problems: list[str] = []
    tv = open_tv(browser, srv, problems)
    try:
        assert tv.get_by_test_id("wifi-qr").count() == 0
        tv.get_by_test_id("host-menu").click()
        panel = tv.get_by_test_id("host-menu-panel")
        panel.get_by_test_id("wifi-ssid-input").fill("旅ルーター")
        panel.get_by_test_id("wifi-password-input").fill("short")
        panel.get_by_test_id("wifi-save").click()
        expect(tv.get_by_test_id("toast")).to_contain_text("8〜63文字")  # refused, and why
        assert tv.get_by_test_id("wifi-qr").count() == 0
        panel.get_by_test_id("wifi-password-input").fill("yoru;no:party")
        panel.get_by_test_id("wifi-save").click()
        expect(tv.get_by_test_id("wifi-qr").locator("svg")).to_be_visible()
        expect(panel).to_contain_text("表示中：旅ルーター")
        expect(panel.get_by_test_id("wifi-password-input")).to_have_value("")  # not kept in the form
        tv.screenshot(path=str(shots_dir() / "tv-wifi-menu.png"))
        assert not axe(tv, "TV: the host menu's Wi-Fi card")
        tv.keyboard.press("Escape")
        assert decode_on_screen(tv, "wifi-qr") == [wifi.payload("旅ルーター", "yoru;no:party")]
        expect(tv.get_by_test_id("wifi-ssid")).to_have_text("旅ルーター")
        # removed again: the lobby has its one QR code back
        tv.get_by_test_id("host-menu").click()
        panel.get_by_test_id("wifi-clear").click()
        expect(tv.get_by_test_id("wifi-qr")).to_have_count(0)
        expect(tv.get_by_test_id("qr").locator("svg")).to_be_visible()
        assert not problems, problems
    finally:
        close_all(tv)


def test_a_tv_page_that_gets_no_state_shows_the_causes_by_itself(server, browser):
    """A TV page whose Socket.IO never connects (here: its requests are cut by the browser) has
    no state to wait for: after OFFLINE_AFTER (8 s) it lists the causes on its own."""
    srv = server(mode="threading", seed=28)
    tv = browser.new_context(viewport=TV_1080).new_page()
    try:
        tv.route("**/socket.io/**", lambda route: route.abort())
        started = time.monotonic()
        tv.goto(srv.url + "/tv")
        doctor = tv.get_by_test_id("doctor")
        expect(doctor).to_have_class("doctor tv offline", timeout=15000)
        assert time.monotonic() - started >= 7
        expect(doctor.locator("h2")).to_have_text("このテレビ画面もホストにつながっていません")
        expect(doctor.locator("li[data-cause]")).to_have_count(5)
        expect(doctor.locator("li[data-cause=firewall]")).to_contain_text(f"ポート{srv.port}/tcp")
        fits = tv.evaluate("""() => { const d = document.querySelector(".doctor.offline"), r = d.getBoundingClientRect(),
            bar = document.querySelector(".tvbar").getBoundingClientRect();
            return { over: d.scrollHeight - d.clientHeight, top: r.top, barBottom: bar.bottom, bottom: r.bottom }; }""")
        assert fits["over"] <= 1 and fits["top"] >= fits["barBottom"] and fits["bottom"] <= 1080, fits
        tv.screenshot(path=str(shots_dir() / "tv-doctor-offline.png"))
    finally:
        close_all(tv)
