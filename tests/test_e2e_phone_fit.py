"""Phones that fit (issue 16 item 4): every tap target of every game's phone screens is at least
44×44 CSS px on a 360×800 phone, nothing scrolls sideways, a picker never pushes its primary
button below the fold, and in Word Basket the cards that fit the typed word stay visible above
a 300 px on-screen keyboard.

One real server and one party for the module (the laptop's TV page for the host's moves and
four phones at 360×800 in Debian's Chromium, with the first-round coach on so its tips show).
Each game is walked through its phone screens with moves sent through the phones' own
connections (``PH.act``); at each screen every phone is measured (:func:`measure`): buttons,
inputs, selects, links, ``[role=button]``, summaries, and a checkbox or radio by its whole
clickable label. Offenders are printed with their size, then the test fails.

The primary button of a picker (Decrypto's lock, Top Ten's choose and confirm, Diabolo's 宣言!
with the joker letters open) must be on screen; Word Basket's typing strip is checked with a
300 px keyboard (the viewport shrunk to 360×500, which is what ``visualViewport`` reports).
About 50 s on an idle machine (100 s under a load of 19 on 2 cores).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from .conftest import ServerProcess
from partyhost import i18n
from partyhost.lexicon import kana

from .test_e2e_coach import Table as CoachTable, _nonword, running_table
from .test_e2e_word_basket import find_play, fitting_cards

pytestmark = [pytest.mark.e2e, pytest.mark.server]
expect.set_options(timeout=8_000)

TV = {"width": 1280, "height": 720}
WIDTH, HEIGHT = 360, 800
PHONE = {"viewport": {"width": WIDTH, "height": HEIGHT}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
NAMES = ["あおい", "Ben", "ちひろ", "Dan"]
MIN_TAP = 44
KEYBOARD = 300  # the on-screen keyboard's height in the Word Basket test

# Every visible tap target of the page with its size: [what, width, height, right edge]. A
# checkbox or radio counts by the label around it (or pointing at it), as a tap there toggles it;
# a label of any other control is not a target of its own (the control is measured).
MEASURE = """() => {
  const out = [];
  const shown = (el) => el.checkVisibility({ visibilityProperty: true, opacityProperty: false })
    && !el.closest('[hidden], [inert]');
  const what = (el) => {
    const id = el.dataset.testid ? `[data-testid=${el.dataset.testid}]` : '';
    const cls = el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : '';
    const text = (el.innerText || el.value || el.getAttribute('aria-label') || '').trim().replace(/\\s+/g, ' ').slice(0, 24);
    return `${el.tagName.toLowerCase()}${id}${cls} "${text}"`;
  };
  const sel = 'button, input:not([type=hidden]), select, textarea, a[href], [role=button], summary';
  for (const el of document.querySelectorAll(sel)) {
    if (!shown(el)) continue;
    let r = el.getBoundingClientRect();
    if (el.type === 'checkbox' || el.type === 'radio') {
      const label = el.closest('label') || (el.id && document.querySelector(`label[for="${el.id}"]`));
      if (label) {
        const l = label.getBoundingClientRect();
        const left = Math.min(l.left, r.left), right = Math.max(l.right, r.right);
        const top = Math.min(l.top, r.top), bottom = Math.max(l.bottom, r.bottom);
        r = { width: right - left, height: bottom - top, right };
      }
    }
    out.push([what(el), Math.round(r.width * 10) / 10, Math.round(r.height * 10) / 10, Math.round(r.right)]);
  }
  return { targets: out, scroll: document.documentElement.scrollWidth };
}"""


def measure(page: Page, where: str) -> list[str]:
    """What is wrong with the phone ``page`` now: targets under 44×44, targets past the right
    edge, a page wider than the phone."""
    found = page.evaluate(MEASURE)
    bad = []
    for what, w, h, right in found["targets"]:
        if w < MIN_TAP - 0.05 or h < MIN_TAP - 0.05:
            bad.append(f"{where}: {what} is {w}×{h}")
        if right > WIDTH + 0.5:
            bad.append(f"{where}: {what} sticks out (right edge {right} px)")
    if found["scroll"] > WIDTH:
        bad.append(f"{where}: the page scrolls sideways ({found['scroll']} px wide)")
    return bad


def below_the_fold(page: Page, selector: str) -> str | None:
    """Why the visible ``selector`` (a primary button) is not fully on screen, or None."""
    box = page.evaluate("""(sel) => {
      const el = [...document.querySelectorAll(sel)].find((e) => e.checkVisibility());
      if (!el) return null;
      const r = el.getBoundingClientRect();
      const bar = document.querySelector('body.phone .bar').getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, barBottom: bar.bottom, height: innerHeight, text: el.innerText };
    }""", selector)
    assert box, f"no visible {selector}"
    if box["top"] < box["barBottom"] - 0.5 or box["bottom"] > box["height"] + 0.5:
        return f"{selector} {box['text']!r} is off screen: {box}"
    return None


class Table(CoachTable):
    """The coach test's table (server, TV page with host powers, four phones), plus the offenders
    this module collects."""

    def __init__(self, browser, srv: ServerProcess) -> None:
        super().__init__(browser, srv)
        self.offenders: list[str] = []

    def start(self, game: str, options: dict | None = None) -> dict:
        """Start ``game`` with the coach on (its tips are measured too); offenders start empty."""
        self.offenders = []
        return super().start(game, coach=True, options=options)

    def synced(self) -> None:
        """Every phone has drawn the TV's latest game state."""
        version = self.tv.evaluate("() => PH.last.game && PH.last.game.version")
        if version is None:  # the lobby
            key = self.tv.evaluate("() => PH.last.party.game_key")
            for page in self.phones:
                page.wait_for_function("(k) => PH.last.party.game_key === k", arg=key)
            return
        for page in self.phones:
            page.wait_for_function("(v) => PH.last.game && PH.last.game.version >= v", arg=version)

    def check(self, where: str, pages: list[Page] | None = None) -> None:
        """Measure the phones (all by default) on this screen; offenders are kept for the end.
        With ``PARTYHOST_FIT_SHOTS=<folder>`` each measured phone is also photographed there."""
        self.synced()
        for page in pages or self.phones:
            seat = self.seats[self.phones.index(page)]
            self.offenders += measure(page, f"{where} ({seat})")
            if os.environ.get("PARTYHOST_FIT_SHOTS"):
                folder = Path(os.environ["PARTYHOST_FIT_SHOTS"])
                folder.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(folder / f"{re.sub(r'[^a-z0-9]+', '-', where)}-{seat}.png"), animations="disabled")

    def help_sheet(self, page: Page, where: str) -> None:
        """Open the help sheet on ``page``, measure it, close it."""
        page.get_by_test_id("howto-button").tap()
        expect(page.get_by_test_id("howto-sheet-body")).to_be_visible()
        self.offenders += measure(page, f"{where} help sheet")
        page.get_by_test_id("howto-close").tap()
        expect(page.get_by_test_id("howto-sheet-body")).to_be_hidden()

    def verdict(self) -> None:
        found, self.offenders = self.offenders, []
        if found:
            print("\nTap targets under 44×44 CSS px (or out of a 360 px phone):\n  " + "\n  ".join(found))
        assert not found, "\n".join(found)


@pytest.fixture(scope="module")
def table(tmp_path_factory, pw):
    """The module's party: one server, one browser, the TV and four phones, for every test."""
    yield from running_table(tmp_path_factory, pw, "fit", Table)


# --- the lobby, a player's and a host phone's, with each game's options -----------------------------


def test_lobby(table):
    t = table
    t.check("lobby")
    t.help_sheet(t.phones[1], "lobby")
    host = t.phones[0]
    assert t.host("promote", seat=t.seats[0])["ok"]
    expect(host.locator(".tag.host")).to_have_count(1)
    for game in ("the_mind", "decrypto", "top_ten", "word_basket", "diabolo"):
        host.locator(f"[data-choose={game}]").tap()
        host.wait_for_function("(g) => PH.last.party.game_key === g", arg=game)
        host.wait_for_function("(g) => document.querySelector('.game-options').dataset.game === g", arg=game)
        t.check(f"host lobby {game}", [host])
    t.verdict()


# --- the five games --------------------------------------------------------------------------------


def test_the_mind(table):
    t = table
    t.start("the_mind")
    t.check("the mind ready")
    t.help_sheet(t.phones[1], "the mind")
    for seat in t.seats:
        t.act(seat, {"type": "ready", "level": 1, "ready": True})
    t.check("the mind playing")
    t.act(t.seats[1], {"type": "propose_shuriken", "level": 1})
    t.check("the mind shuriken vote")
    t.act(t.seats[2], {"type": "vote_shuriken", "proposal": t.view(t.tv)["proposal"]["id"], "agree": False})
    t.verdict()


def test_decrypto(table):
    t = table
    g = t.start("decrypto")
    enc = g["encryptors"]
    t.check("decrypto encrypt")
    t.help_sheet(t.phone(enc["white"]), "decrypto")
    codes = {team: t.view(t.phone(enc[team]))["my_code"] for team in ("white", "black")}
    for team in ("white", "black"):
        t.act(enc[team], {"type": "clues", "round": 1, "clues": [f"zq{team}{i}" for i in range(3)], "final": True})
    t.tv.wait_for_function("() => PH.last.game.phase === 'guess'")
    team = t.view(t.tv)["active"]
    mate = next(s for s in g["teams"][team] if s != enc[team])
    page = t.phone(mate)
    page.get_by_test_id("pick-0-1").tap()  # a digit picked: the picker is in use
    t.check("decrypto guess")
    t.offenders += [f"decrypto guess: {x}" for x in [below_the_fold(page, "[data-testid=lock]")] if x]
    t.act(mate, {"type": "lock", "round": 1, "team": team, "code": codes[team]})
    t.tv.wait_for_function("() => PH.last.game.phase === 'reveal'")
    t.check("decrypto reveal")
    t.verdict()


def test_top_ten(table):
    t = table
    g = t.start("top_ten")
    captain = g["captain"]
    cap = t.phone(captain)
    cap.get_by_test_id("choice-0").tap()
    t.check("top ten choose")
    t.offenders += [f"top ten choose: {x}" for x in [below_the_fold(cap, "[data-testid=choose]")] if x]
    t.help_sheet(cap, "top ten")
    t.act(captain, {"type": "choose", "round": 1, "theme": 0})
    t.check("top ten answer")
    for seat in [captain, *(s for s in t.seats if s != captain)]:  # the captain answers first
        t.act(seat, {"type": "answer", "round": 1, "text": f"こたえ{seat}"})
    t.tv.wait_for_function("() => PH.last.game.phase === 'order'")
    t.check("top ten order")
    first = next(s for s in t.seats if s != captain)
    cap.get_by_test_id(f"pick-{first}").tap()
    expect(cap.get_by_test_id("confirm")).to_be_visible()
    t.check("top ten order, picked", [cap])
    t.offenders += [f"top ten pick: {x}" for x in [below_the_fold(cap, "[data-testid=confirm]")] if x]
    t.verdict()


def test_word_basket(table):
    t = table
    t.start("word_basket")
    t.check("word basket deal")
    page = t.phones[0]
    t.help_sheet(page, "word basket")
    # a word typed: the cards that fit glow
    g = t.view(page)
    play = find_play(g)
    assert play
    page.get_by_test_id("word").fill(play[1])
    t.check("word basket typed", [page])
    page.get_by_test_id("word").fill("")
    # the reset picker
    page.get_by_test_id("reset").tap()
    expect(page.get_by_test_id("reset-cancel")).to_be_visible()
    t.check("word basket reset picker", [page])
    page.get_by_test_id("reset-cancel").tap()
    # a made-up word, challenged and voted on
    player = t.seats[1]
    g = t.view(t.phone(player))
    made_up = find_play(g, not_known=True)
    assert made_up
    t.act(player, {"type": "play", "field": g["field"]["serial"], "card": made_up[0], "word": made_up[1]})
    t.check("word basket challengeable")
    other = t.seats[2]
    t.act(other, {"type": "challenge", "field": t.view(t.phone(other))["challengeable"]["field"]})
    t.tv.wait_for_function("() => PH.last.game.phase === 'vote'")
    t.check("word basket vote")
    vote = t.view(t.tv)["vote"]
    for seat in (t.seats[0], t.seats[3]):
        t.act(seat, {"type": "vote", "vote": vote["id"], "ballot": "accept"})
    t.tv.wait_for_function("() => PH.last.game.phase === 'play'")
    # one player down to one card with made-up words: the リーチ button and the others' point-out
    runner = min(t.seats, key=lambda s: len(t.view(t.phone(s))["hand"]))
    for _ in range(8):
        g = t.view(t.phone(runner))
        if len(g["hand"]) == 1:
            break
        made_up = find_play(g, not_known=True)
        assert made_up, "no made-up word fits the runner's hand"
        t.act(runner, {"type": "play", "field": g["field"]["serial"], "card": made_up[0], "word": made_up[1]})
        t.phone(runner).wait_for_function("(n) => PH.last.game.field.serial > n", arg=g["field"]["serial"])
    expect(t.phone(runner).get_by_test_id("reach")).to_be_visible()
    t.check("word basket one card left")
    t.verdict()


# Where each card of the typing strip lies, against the visual viewport and the word field.
STRIP = """() => {
  const vv = visualViewport, input = document.querySelector('[data-testid=word]').getBoundingClientRect();
  const bar = document.querySelector('body.phone .bar').getBoundingClientRect();
  const cards = [...document.querySelectorAll('[data-testid=fit-strip] [data-card]')].map((b) => {
    const r = b.getBoundingClientRect();
    return { id: Number(b.dataset.card), top: r.top, bottom: r.bottom, left: r.left, right: r.right };
  });
  return { cards, inputTop: input.top, vvTop: vv.offsetTop, vvBottom: vv.offsetTop + vv.height, vvHeight: vv.height,
           barBottom: bar.bottom, width: vv.width, focused: document.activeElement && document.activeElement.dataset.testid };
}"""


def strip_issues(page: Page, fits: list[int]) -> list[str]:
    """Why the strip does not show the cards ``fits`` inside the visual viewport above the field."""
    box = page.evaluate(STRIP)
    bad = []
    if sorted(c["id"] for c in box["cards"]) != sorted(fits):
        bad.append(f"the strip shows {[c['id'] for c in box['cards']]}, the cards that fit are {fits}")
    for c in box["cards"]:
        if c["top"] < max(box["vvTop"], box["barBottom"]) - 0.5 or c["bottom"] > box["vvBottom"] + 0.5:
            bad.append(f"card {c['id']} is outside the visual viewport: {c} {box}")
        if c["bottom"] > box["inputTop"] + 0.5:
            bad.append(f"card {c['id']} is not above the word field: {c} {box}")
        if c["left"] < -0.5 or c["right"] > box["width"] + 0.5:
            bad.append(f"card {c['id']} is cut at the side: {c}")
    return bad


def test_word_basket_cards_that_fit_stay_above_the_keyboard(table):
    """On 360×800 a 300 px on-screen keyboard leaves a 500 px visual viewport: while the word is
    typed, every card it fits is shown (and playable) inside it, above the field; with one card
    fitting, the hint says Enter plays it, in Japanese and in English."""
    t = table
    t.start("word_basket")
    page = t.phones[1]  # its coach tip is up too: the game starts lower on the page
    g = t.view(page)
    play = find_play(g)
    assert play, "no word fits the hand"
    fits = fitting_cards(g, kana.reading(play[2]))
    word = page.get_by_test_id("word")
    try:
        word.tap()
        page.set_viewport_size({"width": WIDTH, "height": HEIGHT - KEYBOARD})  # the keyboard opens
        page.wait_for_function("(h) => visualViewport.height === h", arg=HEIGHT - KEYBOARD)
        word.fill(play[1])
        expect(page.get_by_test_id("fit-strip").locator("[data-card]")).to_have_count(len(fits))
        try:
            page.wait_for_function("""() => { const i = document.querySelector('[data-testid=word]').getBoundingClientRect();
              return [...document.querySelectorAll('[data-testid=fit-strip] [data-card]')].every((b) => {
                const r = b.getBoundingClientRect();
                return r.top >= visualViewport.offsetTop && r.bottom <= visualViewport.offsetTop + visualViewport.height && r.bottom <= i.top; }); }""",
                                   timeout=3_000)
        except Exception:  # noqa: BLE001 - the assertion below says what is wrong
            pass
        assert not strip_issues(page, fits), strip_issues(page, fits)
        if os.environ.get("PARTYHOST_FIT_SHOTS"):
            page.screenshot(path=str(Path(os.environ["PARTYHOST_FIT_SHOTS"]) / "word-basket-keyboard.png"))
        assert page.evaluate("() => document.activeElement.dataset.testid") == "word"
        # one card fits: Enter plays it, says the hint (each language's own words)
        one = find_play(g, only_one=True)
        assert one, "no word fits exactly one card"
        word.fill(one[1])
        expect(page.get_by_test_id("enter-plays")).to_have_text(i18n.message("ja", "word_basket.ui.enter_plays"))
        assert not strip_issues(page, [one[0]]), strip_issues(page, [one[0]])
        page.evaluate("() => document.querySelector('.lang-switch').click()")  # from script: the field keeps the focus
        page.wait_for_function("() => PH.lang === 'en'")
        expect(page.get_by_test_id("enter-plays")).to_have_text(i18n.message("en", "word_basket.ui.enter_plays"))
        expect(page.get_by_test_id("fit-strip").locator("[data-card]")).to_have_count(1)
        # the strip's card plays the word
        page.get_by_test_id(f"strip-card-{one[0]}").tap()
        page.wait_for_function("(id) => !PH.last.game.hand.some((c) => c.id === id)", arg=one[0])
    finally:
        page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
        if page.evaluate("() => PH.lang") != "ja":
            page.locator(".lang-switch").first.click()
            page.wait_for_function("() => PH.lang === 'ja'")
    assert not t.problems, t.problems


def test_diabolo(table):
    t = table
    g = t.start("diabolo", {"interval": 4})
    dealer = g["dealer"]
    others = [s for s in t.seats if s != dealer]
    t.check("diabolo dealer")
    t.help_sheet(t.phone(dealer), "diabolo")
    # turn until a joker lies face up (and a few cards besides)
    for _ in range(60):
        g = t.view(t.tv)
        if any(c["joker"] for c in g["table"]) and len(g["table"]) >= 6:
            break
        t.act(dealer, {"type": "turn", "round": g["round"], "turned": g["turned"]})
        t.tv.wait_for_function("(n) => PH.last.game.turned > n", arg=g["turned"])
    t.check("diabolo row")
    joker = next(c for c in t.view(t.tv)["table"] if c["joker"])
    page = t.phone(others[0])
    page.locator(f"[data-testid=row] [data-card='{joker['id']}']").tap()
    expect(page.get_by_test_id("joker-picker")).to_be_visible()
    t.check("diabolo joker picker", [page])
    t.offenders += [f"diabolo joker picker: {x}" for x in [below_the_fold(page, "[data-testid=send]")] if x]
    # opened, the letters come on screen with it, none under 宣言! or the top bar
    hidden = page.evaluate("""() => {
      const bar = document.querySelector('body.phone .bar').getBoundingClientRect().bottom;
      const send = document.querySelector('.send-row').getBoundingClientRect().top;
      return [...document.querySelectorAll('[data-letter]')].filter((b) => {
        const r = b.getBoundingClientRect(); return r.top < bar - 0.5 || r.bottom > send + 0.5; }).map((b) => b.dataset.letter); }""")
    t.offenders += [f"diabolo joker picker: letter {x} is hidden" for x in hidden]
    page.get_by_test_id("joker-cancel").tap()
    # a word nobody knows: the vote box, then the pick after its refusal
    trio = _nonword(t.view(t.tv)["table"])
    assert trio, "no three letters that are no word"
    t.act(others[0], {"type": "claim", "round": 1, "word": "".join(c["face"] for c in trio),
                      "cards": [{"id": c["id"]} for c in trio]})
    t.tv.wait_for_function("() => ['vote', 'turning'].includes(PH.last.game.phase)")
    if t.view(t.tv)["phase"] == "vote":
        t.check("diabolo vote")
        vote = t.view(t.tv)["vote"]
        for seat in others[1:]:
            t.act(seat, {"type": "vote", "vote": vote["id"], "ballot": "reject"})
        t.tv.wait_for_function("() => PH.last.game.phase === 'picking'")
        t.check("diabolo picking")
        g = t.view(t.tv)
        for seat, card in zip(list(g["picking"]["pickers"]), g["table"]):
            t.act(seat, {"type": "pick", "round": g["round"], "card": card["id"]})
    t.tv.wait_for_function("() => PH.last.game.phase === 'turning'")
    turned = t.phone(dealer).evaluate("""async () => {
      const until = (f) => new Promise((done) => { const tick = () => f() ? done() : setTimeout(tick, 5); tick(); });
      while (PH.last.game.deck_left > 0) {
        const g = PH.last.game;
        const r = await PH.act({type: "turn", round: g.round, turned: g.turned});
        if (!r.ok) return r;
        await until(() => PH.last.game.turned > g.turned);
      }
      return true;
    }""")
    assert turned is True, turned
    t.check("diabolo deck out")
    for seat in t.seats:
        t.act(seat, {"type": "pass", "round": 1})
    t.tv.wait_for_function("() => PH.last.game.phase === 'scored'")
    t.check("diabolo scored")
    t.verdict()
