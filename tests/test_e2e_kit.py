"""Browser tests of the kit in partyhost/static/js/app.js that every game draws with, where the
games' own tests do not reach: the double-send guard (a double tap sends one request; a refusal
enables the buttons again; a success keeps them off until the next state; a group redrawn while
its request is on its way stays off; an answer lost with the connection lets go), a reaction once
per game event (not again on a redraw, a language switch or a reconnect; not on a page opened onto
a game under way), and mount/patch keeping what was typed and the focus across a language switch.

The kit is exercised on the real TV page of a real server (the laptop's own page, so it may send
host operations), in a sandbox element the test adds; The Mind's events come from two phones
played over Socket.IO.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .test_e2e_mind import close_all, menu_click, open_tv

pytestmark = [pytest.mark.e2e, pytest.mark.server]

# A sandbox on top of the TV page, and a request the test answers by hand: send() pushes to
# window.__sent and returns a promise whose resolver waits in window.__answer.
SANDBOX = """() => {
  const box = document.createElement("div");
  box.id = "kit"; box.style.cssText = "position:fixed;left:0;top:0;z-index:99;background:#000;padding:8px";
  document.body.appendChild(box);
  window.__sent = [];
  window.__send = (b) => { window.__sent.push(b.dataset.n); return new Promise((res) => { window.__answer = res; }); };
  window.__draw = (html, key) => PH.patch(box, html, (el) =>
    PH.guard(el.querySelectorAll("button"), (b) => window.__send(b), key ? { key } : undefined));
}"""


def sent(page: Page) -> list[str]:
    return page.evaluate("() => window.__sent")


class Table:
    """The server, its TV page (the laptop's own, with host powers) and the page errors seen."""

    def __init__(self, srv, tv: Page, problems: list[str]) -> None:
        self.srv, self.tv, self.problems = srv, tv, problems


@pytest.fixture
def table(server, browser):
    srv = server(mode="threading", seed=1)
    problems: list[str] = []
    tv = open_tv(browser, srv, problems)
    yield Table(srv, tv, problems)
    close_all(tv)


def test_a_guarded_button_sends_once_per_tap_and_lets_go_by_the_answer(table):
    tv, problems = table.tv, table.problems
    tv.evaluate(SANDBOX)
    tv.evaluate("""() => window.__draw('<button data-n="1">one</button><button data-n="2">two</button>')""")
    one, two = tv.locator("#kit button").nth(0), tv.locator("#kit button").nth(1)

    # a double tap sends once, and the whole group is off until the answer
    one.dblclick()
    assert sent(tv) == ["1"]
    expect(one).to_be_disabled()
    expect(two).to_be_disabled()
    two.click(force=True)
    assert sent(tv) == ["1"]

    # a refusal: the group is on again, as it was drawn
    tv.evaluate("() => window.__answer({ ok: false, code: 'nope' })")
    expect(one).to_be_enabled()
    expect(two).to_be_enabled()

    # a success: still off until the next state from the server has been drawn
    two.click()
    assert sent(tv) == ["1", "2"]
    still_off = tv.evaluate("""async () => { window.__answer({ ok: true });
        await new Promise((r) => setTimeout(r, 50));
        return [...document.querySelectorAll('#kit button')].map((b) => b.disabled); }""")
    assert still_off == [True, True]
    assert tv.evaluate("() => PH.host('choose', { game: 'top_ten' })")["ok"]  # a new state comes
    expect(one).to_be_enabled()
    expect(two).to_be_enabled()

    # a group drawn again under the same key while its request is on its way stays off
    tv.evaluate("""() => window.__draw('<button data-n="3">three</button>', 'same')""")
    tv.locator("#kit button").click()
    assert sent(tv) == ["1", "2", "3"]
    tv.evaluate("""() => window.__draw('<button data-n="4">four</button><button data-n="5">five</button>', 'same')""")
    expect(tv.locator("#kit button")).to_have_count(2)
    expect(tv.locator("#kit button").nth(0)).to_be_disabled()
    tv.locator("#kit button").nth(1).click(force=True)
    assert sent(tv) == ["1", "2", "3"]
    tv.evaluate("() => window.__answer({ ok: false })")
    expect(tv.locator("#kit button").nth(0)).to_be_enabled()
    assert not problems, problems


def test_a_double_click_on_a_host_button_sends_one_message(table, browser):
    """The lobby's Start button (wired by PH.wireHost through the guard): two clicks, one "host"."""
    srv, tv, problems = table.srv, table.tv, table.problems
    phones: list[Page] = []
    try:
        for name in ("A", "B"):  # The Mind needs two seats
            page = browser.new_context().new_page()
            phones.append(page)
            page.goto(srv.lan_url + "/")
            page.get_by_test_id("name").fill(name)
            page.get_by_test_id("join").click()
            expect(page.get_by_test_id("welcome")).to_contain_text(name)
        tv.locator("[data-choose=the_mind]").click()
        expect(tv.get_by_test_id("start")).to_be_enabled()
        tv.evaluate("""() => { window.__emitted = []; const emit = PH.socket.emit.bind(PH.socket);
            PH.socket.emit = (kind, msg) => { if (kind === 'host') window.__emitted.push(msg.op); return emit(kind, msg); }; }""")
        tv.get_by_test_id("start").dblclick()
        expect(tv.locator(".mind.tv")).to_be_visible()
        assert tv.evaluate("() => window.__emitted") == ["start"]
        assert not problems, problems
    finally:
        close_all(*phones)


def test_an_answer_lost_with_the_connection_lets_the_buttons_go(table):
    tv, problems = table.tv, table.problems
    tv.evaluate(SANDBOX)
    # a request the server never sees: its answer can only be lost with the connection
    tv.evaluate("""() => { const emit = PH.socket.emit.bind(PH.socket);
        PH.socket.emit = (kind, msg) => (kind === 'host' ? undefined : emit(kind, msg));
        PH.patch(document.getElementById('kit'), '<button data-n="1">go</button>', (el) =>
          PH.guard(el.querySelector('button'), () => PH.host('choose', { game: 'diabolo' }).then((r) => { window.__result = r; return r; }))); }""")
    button = tv.locator("#kit button")
    button.click()
    expect(button).to_be_disabled()
    tv.evaluate("() => { PH.socket.disconnect(); }")
    expect(button).to_be_enabled()
    result = tv.evaluate("() => window.__result")
    assert (result["ok"], result["code"]) == (False, "offline"), result
    tv.evaluate("() => { PH.socket.connect(); }")
    expect(tv.locator(".conn.ok")).to_have_count(1)
    assert not problems, problems


def test_an_event_is_reacted_to_once_across_redraws_a_language_switch_and_a_reconnect(table, browser, sio_peer):
    srv, tv, problems = table.srv, table.tv, table.problems
    watching = """() => { window.__fired = [];
        PH.on('state', (s) => { if (s.game) PH.react('kit-test', s, s.game.last_event, (e) => window.__fired.push(e.kind)); }); }"""
    fired = lambda page: page.evaluate("() => window.__fired")  # noqa: E731
    late = None
    try:
        tv.evaluate(watching)
        peers = []
        for name in ("a", "b"):
            peer = sio_peer(srv.url, {"role": "phone", "token": None, "lang": "ja"}, name)
            assert peer.send("join", {"name": name})["ok"]
            peers.append(peer)
        a, b = peers
        assert tv.evaluate("() => PH.host('start')")["ok"]
        for p in peers:
            p.wait_state(lambda s: s.get("game") and s["game"].get("hand"), "a hand")
            assert p.act(type="ready", level=1, ready=True)["ok"]
        # the TV watched the game begin: the level's start counts
        tv.wait_for_function("() => window.__fired.length === 1")
        assert fired(tv) == ["start"]
        # redraws and a language switch draw the same event again: no second reaction
        tv.evaluate("() => { PH.refresh(); PH.refresh(); }")
        menu_click(tv, ".lang-switch")  # the TV's language is in its host menu
        expect(tv.locator(".lang-switch")).to_have_text("日本語")
        menu_click(tv, ".lang-switch")
        assert fired(tv) == ["start"]

        # a new event: once
        card = min(a.state["game"]["hand"] + b.state["game"]["hand"])
        player = a if card in a.state["game"]["hand"] else b
        assert player.act(type="play", level=1, card=card)["ok"]
        tv.wait_for_function("() => window.__fired.length === 2")
        tv.evaluate("() => PH.refresh()")
        assert fired(tv) == ["start", "play"]

        # offline, the old state drawn again (a redraw, the offline badge): nothing to react to
        # (it once replayed every event of that state: a sound or a vibration again on a phone
        # whose Wi-Fi blinked)
        tv.evaluate("() => { window.__got = 0; PH.socket.on('state', () => { window.__got += 1; }); }")
        tv.evaluate("() => { PH.socket.disconnect(); PH.refresh(); }")
        assert fired(tv) == ["start", "play"]
        # a reconnect brings the full state again: nothing new to react to
        tv.evaluate("() => { PH.socket.connect(); }")
        expect(tv.locator(".conn.ok")).to_have_count(1)
        tv.wait_for_function("() => window.__got > 0 && PH.last && PH.last.game")
        tv.evaluate("() => PH.refresh()")
        assert fired(tv) == ["start", "play"]

        # a page opened onto the game under way reacts only to what happens from then on
        late = browser.new_context().new_page()
        late.goto(srv.url + "/tv")
        late.wait_for_function("() => typeof PH !== 'undefined'")
        late.evaluate(watching)
        late.wait_for_function("() => PH.last && PH.last.game")
        late.evaluate("() => PH.refresh()")
        assert fired(late) == []
        assert not problems, problems
    finally:
        close_all(*([late] if late else []))


def test_mount_and_patch_keep_typed_text_and_focus_across_a_language_switch(table):
    tv, problems = table.tv, table.problems
    tv.evaluate(SANDBOX)
    draw = """(key) => {
        const screen = PH.mount(document.getElementById('kit'), key,
          `<div><input name="word" placeholder="${PH.t('lobby.players')}"><div data-part="more"></div></div>`);
        screen.draw('more', `<input name="note" placeholder="${PH.t('lobby.game')}">`);
        return screen.fresh; }"""
    assert tv.evaluate(draw, "round-1") is True
    word, note = tv.locator("#kit input[name=word]"), tv.locator("#kit input[name=note]")
    note.fill("memo")
    word.fill("ぱんだ")
    word.press("End")
    assert tv.evaluate(draw, "round-1") is False  # the same key: nothing rebuilt
    expect(word).to_be_focused()

    # the page switches to English (clicked from script, so the field keeps the focus)
    tv.evaluate("() => document.querySelector('.lang-switch').click()")
    assert tv.evaluate(draw, "round-1") is True  # rebuilt in English…
    expect(word).to_have_attribute("placeholder", "Players")
    expect(word).to_have_value("ぱんだ")  # …keeping what was typed
    expect(word).to_be_focused()
    expect(note).to_have_value("memo")  # a redrawn part keeps it too

    assert tv.evaluate(draw, "round-2") is True  # a new key starts empty
    expect(word).to_have_value("")
    assert not problems, problems


def test_a_message_the_server_never_answers_still_settles(table):
    """A message dropped unanswered (over the per-phone rate limit, which answers at most once a
    second) must not hold its request, and the buttons guarding it, for ever."""
    tv, problems = table.tv, table.problems
    # the socket swallows one message: exactly what a dropped one looks like from the page
    tv.evaluate("""() => { const real = PH.socket.emit.bind(PH.socket); let swallow = 1;
        PH.socket.emit = (...a) => (a[0] === "lang" && swallow-- > 0) ? PH.socket : real(...a);
        window.__settled = null;
        PH.send("lang", { lang: "ja" }).then((r) => { window.__settled = r; }); }""")
    tv.wait_for_function("() => window.__settled !== null", timeout=12_000)
    result = tv.evaluate("() => window.__settled")
    assert result["ok"] is False and result["code"] == "no_answer"
    assert tv.evaluate("() => PH.send('lang', { lang: 'ja' }).then((r) => r.ok)")  # the next one is answered
    assert problems == []
