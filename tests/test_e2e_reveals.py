"""Browser tests of the staged reveals (issue 17): each game's big moment on the TV, the winner's
phone, and the sound module.

Each scene is a game scripted in Python up to its moment and saved as the party's snapshot
(tests/reveal_stage.py), then a host started on it: the TV shows the moment as it stands, so the
tests wait for state, never for time. Scenes: Top Ten's number spotlight and 「ミス!」; The Mind's
level clear and its game win (staged apart); Diabolo's claim log and its final ranking; Word
Basket's final ranking; Decrypto's verdicts in both team colours; 「あなたの勝ち!」 on the
winner's phone. The sound module: with Chromium's autoplay lock the TV shows the
「音を出すにはタップ」 notice and one click resumes its AudioContext; the on/off switch is
remembered across a reload.

``PARTYHOST_SHOTS=docs`` writes the docs screenshots (docs/screenshots/reveal-*.png, shown in
docs/reveals.md). About 95 s (ten tests, each with its own host).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from . import reveal_stage as stage
from .conftest import CHROMIUM, CHROMIUM_ARGS
from .test_e2e_howto import open_tv_at
from .test_e2e_mind import PHONE_DEVICE, close_all, menu_click, shot, watch

pytestmark = [pytest.mark.e2e, pytest.mark.server]

# Every element on the TV that shows text of its own, with its font size and box height.
_TEXTS = """() => [...document.querySelectorAll("#app *")].filter((el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
  }).map((el) => ({ text: el.textContent.trim().slice(0, 20), cls: String(el.className), size: parseFloat(getComputedStyle(el).fontSize),
    height: el.getBoundingClientRect().height, spot: !!el.closest("[data-testid=tt-spot-number]") }))"""

# WCAG contrast ratio of an element's text colour on its own background colour.
_CONTRAST = """(el) => {
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = (c) => { const [r, g, b] = rgb(c).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const s = getComputedStyle(el);
  const a = lum(s.color), b = lum(s.backgroundColor);
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""


def scene(server, sio_peer, tmp_path, build, names=None, present=True):
    """Start a host on a staged party; ``present``: every player's phone is connected (by token)."""
    data = tmp_path / "stage"
    data.mkdir()
    tokens = stage.save(data, build, names)
    srv = server(mode="eventlet", seed=5, data=data, fresh=False)
    peers = []
    if present:
        for i, tok in enumerate(tokens):
            peer = sio_peer(srv.url, {"role": "phone", "token": tok, "lang": "ja"}, f"p{i}")
            peer.wait_state(lambda s: s.get("me") is not None, "seated")
            peers.append(peer)
    return srv, tokens, peers


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)], ids=["720p", "1080p"])
def test_top_ten_revealed_number_is_the_largest_text_and_a_miss_says_so(server, browser, sio_peer, tmp_path, size):
    srv, _, _ = scene(server, sio_peer, tmp_path, stage.top_ten_miss)
    problems: list[str] = []
    tv = open_tv_at(browser, srv, problems, *size)
    try:
        spot = tv.get_by_test_id("tt-spot")
        expect(spot).to_be_visible()
        expect(tv.get_by_test_id("tt-miss")).to_have_text("ミス！")
        expect(tv.locator(".tt.tv.revealing")).to_have_count(1)
        texts = tv.evaluate(_TEXTS)
        number = [x for x in texts if x["spot"]]
        others = [x for x in texts if not x["spot"]]
        assert number, texts
        biggest = max(others, key=lambda x: x["size"])
        assert number[0]["size"] > biggest["size"], (number[0], biggest)
        tallest = max(others, key=lambda x: x["height"])
        assert number[0]["height"] > tallest["height"], (number[0], tallest)
        # the theme's title shrank meanwhile
        title = tv.get_by_test_id("tt-title").evaluate("(el) => parseFloat(getComputedStyle(el).fontSize)")
        assert title < number[0]["size"] / 2
        if size[0] == 1280:
            shot(tv, "reveal-top_ten-tv.png")
        menu_click(tv, "[data-testid=lang]")
        expect(tv.get_by_test_id("tt-miss")).to_have_text("Miss!")
        assert not problems, problems
    finally:
        close_all(tv)


def test_the_mind_win_is_staged_apart_from_a_level_clear(server, browser, sio_peer, tmp_path):
    srv, _, peers = scene(server, sio_peer, tmp_path, stage.the_mind_two_levels)
    problems: list[str] = []
    tv = open_tv_at(browser, srv, problems, 1280, 720)

    def play_level(level):
        for p in peers:
            p.wait_state(lambda s: s["game"]["level"] == level and not s["game"]["waiting"], "everyone back")
            assert p.act(type="ready", level=level, ready=True)["ok"]
        hands = {p: p.wait_state(lambda s: s["game"]["phase"] == "playing", "playing")["game"]["hand"] for p in peers}
        for card, p in sorted((c, p) for p, h in hands.items() for c in h):
            assert p.act(type="play", level=level, card=card)["ok"]

    try:
        play_level(1)
        clear = tv.get_by_test_id("tv-level-clear")
        expect(clear).to_contain_text("レベル1クリア")
        expect(tv.locator(".stage-win")).to_have_count(0)
        play_level(2)  # the last level: the game is won
        win = tv.locator(".result.won.stage-win")
        expect(win).to_be_visible()
        expect(tv.get_by_test_id("tv-win")).to_have_text("全レベル突破！みんなの勝ち！")
        expect(win.locator(".win-levels li")).to_have_count(2)
        expect(tv.get_by_test_id("tv-level-clear")).to_have_count(0)
        shot(tv, "reveal-the_mind-tv.png")
        # a TV that asks for less motion shows the win still
        tv.emulate_media(reduced_motion="reduce")
        names = tv.evaluate("() => [...document.querySelectorAll('.stage-win, .win-levels li')].map((e) => getComputedStyle(e).animationName)")
        assert set(names) == {"none"}, names
        assert not problems, problems
    finally:
        close_all(tv)


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)], ids=["720p", "1080p"])
def test_diabolo_claim_log_lists_the_rounds_claims_and_fits(server, browser, sio_peer, tmp_path, size):
    srv, _, _ = scene(server, sio_peer, tmp_path, stage.diabolo_round, names=stage.LONG_NAMES[:6])
    problems: list[str] = []
    tv = open_tv_at(browser, srv, problems, *size)
    try:
        log = tv.get_by_test_id("claim-log")
        expect(log.get_by_test_id("log-claim")).to_have_count(3)
        items = log.get_by_test_id("log-claim")
        expect(items.nth(0)).to_contain_text("ZURK")  # newest first; a rejected word, struck
        expect(items.nth(0)).to_have_class(stage.re_word("rejected"))
        expect(items.nth(1)).to_contain_text("LAGER")
        expect(items.nth(1)).to_contain_text("+5")
        expect(items.nth(1)).to_have_class(stage.re_word("best"))
        expect(items.nth(2)).to_contain_text("HANG")
        expect(items.nth(2)).to_contain_text(stage.LONG_NAMES[1])
        # the log, the row, the status line and the players stay on the screen, apart
        found = tv.evaluate("""() => { const out = [], W = innerWidth, H = innerHeight;
          const els = [".dia-status.tv", ".dia-log", ".dia-row.tv", ".dia-players-tv"].map((q) => document.querySelector(q));
          for (const el of els) { const r = el.getBoundingClientRect();
            if (r.left < -0.5 || r.top < -0.5 || r.right > W + 0.5 || r.bottom > H + 0.5) out.push("off screen: " + el.className); }
          for (let i = 0; i < els.length; i++) for (let j = i + 1; j < els.length; j++) {
            const a = els[i].getBoundingClientRect(), b = els[j].getBoundingClientRect();
            if (a.left < b.right - 1 && a.right > b.left + 1 && a.top < b.bottom - 1 && a.bottom > b.top + 1) out.push(els[i].className + " / " + els[j].className); }
          const log = document.querySelector(".dia-log");
          if (log.scrollHeight > log.clientHeight + 1) out.push("log cut");
          return out; }""")
        if size[0] == 1280:
            shot(tv, "reveal-diabolo-tv.png")
        assert found == [], found
        assert not problems, problems
    finally:
        close_all(tv)


def test_diabolo_win_ranks_the_totals_and_the_winners_phone_says_you_win(server, browser, pw, sio_peer, tmp_path):
    srv, tokens, _ = scene(server, sio_peer, tmp_path, stage.diabolo_over, present=False)
    problems: list[str] = []
    tv = open_tv_at(browser, srv, problems, 1280, 720)
    phones = []
    try:
        # the scores are the ranking: s2 (9 cards), s1 (4), s3 (0), each with its place
        rows = tv.get_by_test_id("scores").locator("tbody tr")
        expect(rows).to_have_count(3)
        assert [rows.nth(i).get_attribute("data-seat") for i in range(3)] == ["s2", "s1", "s3"]
        expect(tv.get_by_test_id("place-s2")).to_have_text("1")
        expect(tv.get_by_test_id("place-s3")).to_have_text("3")
        expect(tv.get_by_test_id("total-s2")).to_have_text("9")
        expect(rows.first).to_contain_text("あかり")
        shot(tv, "reveal-diabolo-tv-over.png")
        for i, want in ((1, "あなたの勝ち！"), (0, "あかりさんの勝ち")):
            ctx = browser.new_context(**pw.devices[PHONE_DEVICE])
            ctx.add_init_script(f"localStorage.setItem('ph.token', {tokens[i]!r})")
            phone = ctx.new_page()
            phones.append(phone)
            watch(phone, f"phone {i}", problems)
            phone.goto(srv.lan_url + "/")
            expect(phone.get_by_test_id("you-result")).to_have_text(want)
        winner, other = phones  # s2's phone, then s1's
        expect(winner.get_by_test_id("you-result")).to_have_attribute("data-result", "win")
        expect(other.get_by_test_id("you-result")).to_have_attribute("data-result", "other")
        shot(winner, "reveal-phone-you-win.png")
        winner.get_by_test_id("lang").click()
        expect(winner.get_by_test_id("you-result")).to_have_text("You won!")
        # six rounds on a 360 px phone in English: the total column stayed off the right edge
        winner.set_viewport_size({"width": 360, "height": 800})
        edges = winner.evaluate("""() => { const t = document.querySelector('[data-testid=scores]');
            const cells = [...t.querySelectorAll('[data-testid^=total-]')];
            return {w: innerWidth, page: document.documentElement.scrollWidth,
                    right: Math.max(...cells.map((c) => c.getBoundingClientRect().right))}; }""")
        # (a mobile page widens its layout to the content: 440 px before the fix)
        assert edges["w"] == 360 and edges["right"] <= 360.5 and edges["page"] <= 360, edges
        assert not problems, problems
    finally:
        close_all(tv, *phones)


def test_word_basket_win_ranks_cards_left(server, browser, sio_peer, tmp_path):
    srv, _, _ = scene(server, sio_peer, tmp_path, stage.word_basket_over)
    problems: list[str] = []
    tv = open_tv_at(browser, srv, problems, 1280, 720)
    try:
        ranking = tv.get_by_test_id("ranking")
        expect(ranking.locator("li")).to_have_count(3)
        vals = ranking.locator("li .val")
        expect(vals).to_have_text(["0", "1", "3"])
        expect(ranking.locator("li").first).to_contain_text(stage.NAMES[0])
        shot(tv, "reveal-word_basket-tv.png")
        assert not problems, problems
    finally:
        close_all(tv)


def test_decrypto_verdicts_read_in_both_team_colours(server, browser, sio_peer, tmp_path):
    srv, _, _ = scene(server, sio_peer, tmp_path, stage.decrypto_reveal)
    problems: list[str] = []
    tv = open_tv_at(browser, srv, problems, 1280, 720)
    try:
        reveal = tv.get_by_test_id("reveal")
        expect(reveal.get_by_test_id("verdict")).to_have_count(2)
        shot(tv, "reveal-decrypto-tv.png")
        for team in ("white", "black"):
            # the same reveal drawn for each team: its title pill and both verdicts stay readable
            tv.evaluate("(team) => { PH.last.game.reveal.team = team; PH.refresh(); }", team)
            expect(tv.locator(f".dc-reveal.team-{team}")).to_have_count(1)
            for el in [reveal.get_by_test_id("reveal-team"), *reveal.get_by_test_id("verdict").all()]:
                ratio = el.evaluate(_CONTRAST)
                assert ratio >= 7, (team, el.text_content(), ratio)
        # the win banner of either team (the result screen's own element) reads too
        for team in ("white", "black"):
            ratio = tv.evaluate("""([team, code]) => { const p = document.createElement("p");
              p.className = "banner team-" + team; p.textContent = "x";
              const box = document.createElement("div"); box.className = "dc-result"; box.appendChild(p);
              document.querySelector(".dc").appendChild(box); const r = (eval(code))(p); box.remove(); return r; }""",
                                [team, _CONTRAST])
            assert ratio >= 7, (team, ratio)
        assert not problems, problems
    finally:
        close_all(tv)


# --- the sound module ----------------------------------------------------------------------------

@pytest.fixture
def locked_browser(pw):
    """A Chromium whose pages may not start audio before a user gesture (a TV opened from afar)."""
    b = pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                           args=[*CHROMIUM_ARGS, "--autoplay-policy=document-user-activation-required"])
    yield b
    b.close()


def test_a_locked_tv_asks_for_one_tap_and_the_switch_is_remembered(server, locked_browser):
    srv = server(mode="eventlet", seed=5)
    problems: list[str] = []
    tv = open_tv_at(locked_browser, srv, problems, 1280, 720)
    try:
        notice = tv.get_by_test_id("sound-unlock")
        expect(notice).to_be_visible()
        expect(notice).to_contain_text("音を出すにはタップ")
        assert tv.evaluate("() => PH.sound.state") == "suspended"
        shot(tv, "reveal-sound-locked-tv.png")
        notice.click()
        tv.wait_for_function("() => PH.sound.state === 'running'")
        expect(notice).to_have_count(0)
        tv.evaluate("() => PH.sound.cue('win')")  # plays without an error
        # the switch: off, and still off after a reload (no notice while off)
        switch = tv.get_by_test_id("sound-switch")
        expect(switch).to_have_attribute("aria-pressed", "true")
        switch.click()
        expect(switch).to_have_attribute("aria-pressed", "false")
        tv.reload()
        tv.wait_for_function("() => !!PH.last")
        expect(tv.get_by_test_id("sound-switch")).to_have_attribute("aria-pressed", "false")
        assert tv.evaluate("() => localStorage.getItem('ph.sound')") == "off"
        expect(tv.get_by_test_id("sound-unlock")).to_have_count(0)
        assert not problems, problems
    finally:
        close_all(tv)


def test_a_phone_without_vibration_plays_a_quiet_cue_only_when_allowed(server, browser, pw):
    srv = server(mode="eventlet", seed=5)
    problems: list[str] = []
    ctx = browser.new_context(**pw.devices[PHONE_DEVICE])
    # iOS Safari: no navigator.vibrate
    ctx.add_init_script("delete Navigator.prototype.vibrate; window.__notes = 0;"
                        "const o = OscillatorNode.prototype.start; OscillatorNode.prototype.start = function (...a) { window.__notes++; return o.apply(this, a); };")
    phone = ctx.new_page()
    watch(phone, "phone", problems)
    try:
        phone.goto(srv.lan_url + "/")
        switch = phone.get_by_test_id("sound-switch")
        expect(switch).to_have_attribute("aria-pressed", "false")  # a phone is silent until allowed
        phone.evaluate("() => PH.buzz([60, 40, 60])")
        assert phone.evaluate("() => window.__notes") == 0
        switch.click()
        expect(switch).to_have_attribute("aria-pressed", "true")
        phone.wait_for_function("() => PH.sound.state === 'running'")
        phone.evaluate("() => PH.buzz([60, 40, 60])")
        assert phone.evaluate("() => window.__notes") == 2  # the two quiet "turn" blips
        assert not problems, problems
    finally:
        close_all(phone)
