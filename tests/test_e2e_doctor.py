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
from .test_e2e_mind import close_all, host_menu, shots_dir, watch

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
        assert layout["min"] >= 30, layout["min"]  # sofa-sized at 1920x1080: the TV's body type, 1.6vw
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
        assert small["doctorOver"] <= 1 and small["checksOver"] <= 1 and small["min"] >= 20, small
        tv.screenshot(path=str(shots_dir() / "tv-doctor-720.png"))
        tv.set_viewport_size(TV_1080)

        # English too, same room
        host_menu(tv).get_by_test_id("lang").click()
        tv.keyboard.press("Escape")
        expect(doctor.locator("h2")).to_have_text("Nobody has joined yet. If phones can't connect:")
        tv.screenshot(path=str(shots_dir() / "tv-doctor-en.png"))
        layout = tv.evaluate(_LAYOUT)
        assert layout["doctorOver"] <= 1 and layout["checksOver"] <= 1 and layout["min"] >= 30, layout

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
        panel = host_menu(tv)
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
        host_menu(tv).get_by_test_id("wifi-clear").click()
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
            bar = document.querySelector(".tvbar").getBoundingClientRect(), w = document.createTreeWalker(d, NodeFilter.SHOW_TEXT);
            let min = 1e9; while (w.nextNode()) if (w.currentNode.textContent.trim()) min = Math.min(min, parseFloat(getComputedStyle(w.currentNode.parentElement).fontSize));
            return { over: d.scrollHeight - d.clientHeight, top: r.top, barBottom: bar.bottom, bottom: r.bottom, min }; }""")
        assert fits["over"] <= 1 and fits["top"] >= fits["barBottom"] and fits["bottom"] <= 1080, fits
        assert fits["min"] >= SOFA_PX[1920], fits  # every word at the TV's body type here too
        tv.screenshot(path=str(shots_dir() / "tv-doctor-offline.png"))
    finally:
        close_all(tv)


# --- every word of the doctor and of the join panel beside it, read from the sofa ----------------

# The TV's body type is 1.6vw (20.48 px at 1280 wide, 30.72 at 1920): no word of the doctor, of the
# laptop's checks or of the join panel below it, whatever its role (a title, a cause's text, the
# close button, the join address, the Wi-Fi's name and its "no password"), is smaller than this.
SOFA_PX = {1280: 20, 1920: 30}
# the QR codes' sizes before the doctor was made sofa-sized (12.5vw beside the Wi-Fi's, 14vw alone):
# the doctor's room never comes out of theirs
QR_PX = {(1280, True): 160, (1280, False): 179.2, (1920, True): 240, (1920, False): 268.8}
LONG_SSID = "aterm-8c2f1e-g"  # a router's own name, as long as they come
LAN_IP = "192.168.100.123"  # the longest join address a home Wi-Fi hands out

# Every text node of the three panels: its element's font size; what is cut off (outside the screen,
# the panel, or a box that clips it); every element whose content is wider or taller than its box;
# a line that starts with a closing mark (。、）」…) or ends with an opening one, a Latin word (an
# address, "Wi-Fi", the SSID) broken inside, and the join URL broken anywhere but after "http://";
# text drawn over a QR code; the panels' boxes and the QR codes' sizes.
_SOFA = """() => {
  const roots = { doctor: document.querySelector(".lobby .doctor-slot"), checks: document.querySelector(".lobby .doctor-checks"),
                  join: document.querySelector(".lobby .join-panel") };
  const view = { left: 0, top: 0, right: innerWidth, bottom: innerHeight };
  const inside = (r, b, d = 1) => r.left >= b.left - d && r.right <= b.right + d && r.top >= b.top - d && r.bottom <= b.bottom + d;
  const cross = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
  const OPEN = "（「『【〔〈《([", CLOSE = "、。，．,.）」』】〕〉》)]！？!?ー…‥ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮ：；:;・";
  const latin = /[A-Za-z0-9\\-.\\/:;_]/, LABELS = ".step-title, .ssid, .ssid *, button, .mark";
  const qrs = [...document.querySelectorAll(".lobby .qr")].map((q) => q.getBoundingClientRect());
  const sizes = [], out = [], breaks = [];
  for (const [name, root] of Object.entries(roots)) {
    if (!root || !root.checkVisibility()) { out.push(name + ": not shown"); continue; }
    const rb = root.getBoundingClientRect();
    if (!inside(rb, view)) out.push(name + ": off screen " + JSON.stringify(rb));
    for (const el of [root, ...root.querySelectorAll("*")]) {
      if (el.closest("svg") || !el.checkVisibility() || ["inline", "contents"].includes(getComputedStyle(el).display)) continue;
      // (a CJK glyph's box is taller than a tight line: up to .15em past a box is its ink, not a cut)
      const slack = Math.max(1, 0.15 * parseFloat(getComputedStyle(el).fontSize));
      if (el.scrollWidth > el.clientWidth + slack || el.scrollHeight > el.clientHeight + slack)
        out.push(`${name}: ${el.tagName} "${el.textContent.trim().slice(0, 30)}" overflows its box: ${el.scrollWidth}x${el.scrollHeight} in ${el.clientWidth}x${el.clientHeight}`);
    }
    const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    while (walk.nextNode()) {
      const node = walk.currentNode, text = node.textContent, el = node.parentElement;
      if (!text.trim() || el.closest("svg") || !el.checkVisibility()) continue;
      const px = parseFloat(getComputedStyle(el).fontSize);
      sizes.push([px, name, el.tagName.toLowerCase() + (el.className ? "." + el.className : ""), text.trim().slice(0, 40)]);
      const clips = [view, rb];
      for (let a = el; a && a !== root; a = a.parentElement) if (getComputedStyle(a).overflow !== "visible") clips.push(a.getBoundingClientRect());
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const r of range.getClientRects()) {
        if (r.width < 1) continue;
        if (!clips.every((c) => inside(r, c, Math.max(1, 0.15 * px)))) out.push(`${name}: "${text.trim().slice(0, 30)}" cut off at ${JSON.stringify(r)}`);
        if (name === "join" && qrs.some((q) => cross(q, r))) out.push(`join: "${text.trim().slice(0, 30)}" over a QR code`);
      }
      // line by line: where each line starts, from the characters' own boxes
      let prev = -1, prevTop = null, gap = false;
      for (let i = 0; i < text.length; i++) {
        if (/\\s/.test(text[i])) { gap = true; continue; }
        range.setStart(node, i); range.setEnd(node, i + 1);
        const r = range.getClientRects()[0];
        if (!r) continue;
        if (prevTop !== null && r.top > prevTop + px * 0.5) {
          const a = text[prev], b = text[i], before = text.slice(0, i).trim(), line = text.slice(Math.max(0, i - 8), i + 8);
          if (CLOSE.includes(b)) breaks.push(`${name}: a line starts with ${b}: …${line}…`);
          if (!gap && OPEN.includes(a)) breaks.push(`${name}: a line ends with ${a}: …${line}…`);
          // the run of letters the line breaks in: an English compound ("self-assigned") may break after its hyphen
          const run = gap ? "" : (text.slice(0, i).match(/\\S*$/)[0] + text.slice(i).match(/^\\S*/)[0]);
          if (el.dataset.testid === "join-url") { if (!/^https?:\\/\\/$/.test(before)) breaks.push(`join: the URL breaks at …${line}…`); }
          else if (el.matches(LABELS)) breaks.push(`${name}: a label breaks: …${line}…`);
          else if (!gap && latin.test(a) && latin.test(b) && !(a === "-" && /^\\(?[a-z]+(-[a-z]+)+[).,;:!?]*$/.test(run)))
            breaks.push(`${name}: a word breaks inside: …${line}…`);
        }
        prev = i; prevTop = r.top; gap = false;
      }
    }
  }
  const boxes = Object.fromEntries([["bar", document.querySelector(".tvbar")], ...Object.entries(roots)]
    .filter(([, el]) => el).map(([k, el]) => [k, el.getBoundingClientRect()]));
  const names = Object.keys(boxes);
  for (let i = 0; i < names.length; i++) for (let j = i + 1; j < names.length; j++)
    if (cross(boxes[names[i]], boxes[names[j]])) out.push(`${names[i]} overlaps ${names[j]}`);
  const qr = (id) => { const el = document.querySelector(`[data-testid=${id}]`); return el ? el.getBoundingClientRect().width : null; };
  sizes.sort((a, b) => a[0] - b[0]);
  return { min: sizes.length ? sizes[0][0] : 0, smallest: sizes.slice(0, 6), out, breaks, qr: qr("qr"), wifiQr: qr("wifi-qr") };
}"""


@pytest.mark.parametrize("wifi_card", [True, False], ids=["wifi", "no-wifi"])
@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)], ids=["720p", "1080p"])
def test_every_word_of_the_doctor_reads_from_the_sofa(server, browser, size, lang, wifi_card):
    """The doctor beside the join panel, on a LAN address (the longest a home Wi-Fi gives) and,
    with the Wi-Fi card, a router's long SSID on an open network (its "no password" label too):
    every word at the TV's body size or more, nothing cut off, overflowing or overlapping, Japanese
    lines broken by its rules, no word or address split, and both QR codes at their size, decoding."""
    width, height = size
    args = ["--doctor-after", "2", "--host-ip", LAN_IP]
    if wifi_card:
        args += ["--wifi-ssid", LONG_SSID]
    srv = server(mode="threading", seed=29, bind="0.0.0.0", extra_args=tuple(args))
    problems: list[str] = []
    tv = browser.new_context(viewport={"width": width, "height": height}).new_page()
    watch(tv, "tv", problems)
    try:
        tv.goto(f"{srv.url}/tv?lang={lang}")
        expect(tv.get_by_test_id("doctor").locator(".doctor li[data-cause]")).to_have_count(5, timeout=10000)
        expect(tv.get_by_test_id("doctor-checks").locator("li[data-check]").first).to_be_visible()
        expect(tv.get_by_test_id("qr").locator("svg")).to_be_visible()
        if wifi_card:
            expect(tv.get_by_test_id("wifi-qr").locator("svg")).to_be_visible()
            expect(tv.get_by_test_id("wifi-ssid")).to_contain_text(LONG_SSID)
        tv.wait_for_timeout(300)  # the fitting redraws have settled
        m = tv.evaluate(_SOFA)
        print(f"{width}x{height} {lang} wifi={wifi_card}: min {m['min']} px, QR {m['qr']} / Wi-Fi QR {m['wifiQr']};"
              f" smallest {m['smallest']}")
        assert not m["out"], m["out"]
        assert not m["breaks"], m["breaks"]
        assert m["min"] >= SOFA_PX[width], m["smallest"]
        assert m["qr"] >= QR_PX[width, wifi_card] - 0.5, m["qr"]
        if wifi_card:
            assert m["wifiQr"] >= QR_PX[width, True] - 0.5, m["wifiQr"]
            assert decode_on_screen(tv, "wifi-qr") == [wifi.payload(LONG_SSID)]
        assert decode_on_screen(tv, "qr") == [f"http://{LAN_IP}:{srv.port}/"]
        assert not problems, problems
    finally:
        close_all(tv)


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)], ids=["720p", "1080p"])
def test_the_lobbys_join_panel_reads_from_the_sofa_without_the_doctor(server, browser, size, lang):
    """The lobby every night starts on (nobody has joined, the doctor not due): its scan line was
    .78 of the TV's body type (16 px at 1280×720) and its join address broke inside the port
    ("http://192.168.100.123:46|669/"). Now the same checks as the doctor's panels: every word at
    the TV's body type or more, the address broken only after "http://", the QR code at its size."""
    width, height = size
    srv = server(mode="threading", seed=29, bind="0.0.0.0", extra_args=("--doctor-after", "0", "--host-ip", LAN_IP))
    problems: list[str] = []
    tv = browser.new_context(viewport={"width": width, "height": height}).new_page()
    watch(tv, "tv", problems)
    try:
        tv.goto(f"{srv.url}/tv?lang={lang}")
        expect(tv.get_by_test_id("qr").locator("svg")).to_be_visible()
        expect(tv.get_by_test_id("join-url")).to_have_text(f"http://{LAN_IP}:{srv.port}/")
        tv.wait_for_timeout(300)  # the fitting redraws have settled
        m = tv.evaluate(_SOFA)
        print(f"lobby {width}x{height} {lang}: min {m['min']} px, QR {m['qr']}; smallest {m['smallest']}")
        assert sorted(o for o in m["out"] if o.endswith(": not shown")) == ["checks: not shown", "doctor: not shown"]
        assert [o for o in m["out"] if not o.endswith(": not shown")] == []
        assert not m["breaks"], m["breaks"]
        assert m["min"] >= SOFA_PX[width], m["smallest"]
        assert m["qr"] >= QR_PX[width, False] - 0.5, m["qr"]
        assert decode_on_screen(tv, "qr") == [f"http://{LAN_IP}:{srv.port}/"]
        assert not problems, problems
    finally:
        close_all(tv)
