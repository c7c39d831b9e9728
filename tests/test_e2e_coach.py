"""Browser tests of the first-round coach (はじめてモード, issue 12 item 2): one real server and one
party for the whole module (a TV at 1280×720 and four phones at 360×800 in Debian's Chromium),
playing the first round of each game with the coach on.

For each game the TV's strip must show each coach step in order, its "now" and "next" lines the
catalogue's words for the step with the players' names, and the right phone must show each role's
tip (and the others not), dismissed with one tap on a ≥44 px button. Each game's first-round test
runs twice, in Japanese and in English (``lang``): the same sequence of steps and tips, every text
derived from that language's catalogue (``i18n.message``), never hard-coded; each run also switches
the language once mid-round and checks the words follow. Beyond the first steps: The Mind's shuriken
declined and then used (it ends level 1), Diabolo's round 1 to the deck-out and the score, and, the
module's last test, Decrypto with three players (the host kicks the fourth phone). The coach off
shows nothing, the host's skip ends it on every screen, and the strip never covers the game
(it takes its room from the page: the game keeps its whole height inside the screen).

Moves are sent through each page's own connection (``PH.act``), as a tap would, so the test does
not depend on each game's buttons; what is checked is what the coach draws.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from partyhost import i18n
from partyhost.lexicon import latin

from .conftest import CHROMIUM, CHROMIUM_ARGS, ServerProcess
from .test_e2e_top_ten_night import LONG_EN, LONG_JA, _tv_issues
from .test_e2e_mind import host_menu, menu_click
from .test_e2e_word_basket import find_play

pytestmark = [pytest.mark.e2e, pytest.mark.server]
expect.set_options(timeout=8_000)

DOCS_SHOTS = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
TV = {"width": 1280, "height": 720}
PHONE = {"viewport": {"width": 360, "height": 800}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
NAMES = ["あおい", "Ben", "ちひろ", "Dan"]
MIN_TAP = 44


@pytest.fixture(params=i18n.LANGS)
def lang(request) -> str:
    """Each first-round test runs once per UI language, Japanese first."""
    return request.param


def other_lang(lang: str) -> str:
    """The other UI language (the mid-round language switch)."""
    return next(code for code in i18n.LANGS if code != lang)


def shot(page: Page, name: str) -> None:
    folder = DOCS_SHOTS if os.environ.get("PARTYHOST_SHOTS") == "docs" else Path(tempfile.gettempdir()) / "partyhost-shots"
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"coach-{name}.png"), animations="disabled")


class Table:
    """The module's server, TV page (the laptop's own: host powers) and four phone pages."""

    def __init__(self, browser, srv: ServerProcess) -> None:
        self.problems: list[str] = []
        self.srv = srv
        self.tv = self._page(browser, {"viewport": TV}, "tv", srv.url + "/tv")
        self.phones: list[Page] = []
        for name in NAMES:
            page = self._page(browser, PHONE, name, srv.lan_url + "/")
            page.get_by_test_id("name").fill(name)
            page.get_by_test_id("join").tap()
            expect(page.get_by_test_id("welcome")).to_contain_text(name)
            self.phones.append(page)
        self.seats = [p.evaluate("() => PH.last.me.seat") for p in self.phones]
        self.names = dict(zip(self.seats, NAMES))

    def _page(self, browser, options: dict, label: str, url: str) -> Page:
        page = browser.new_context(**options).new_page()
        page.on("pageerror", lambda e: self.problems.append(f"{label}: page error: {e}"))
        page.on("console", lambda m: self.problems.append(f"{label}: {m.text}") if m.type == "error" else None)
        page.goto(url)
        return page

    def phone(self, seat: str) -> Page:
        return self.phones[self.seats.index(seat)]

    # --- the party ------------------------------------------------------------------------------
    def lang(self, lang: str) -> None:
        for page in [self.tv, *self.phones]:
            if page.evaluate("() => PH.lang") != lang and page is self.tv:
                menu_click(page, ".lang-switch")  # the TV's language is in its host menu
            elif page.evaluate("() => PH.lang") != lang:
                page.locator(".lang-switch").first.click()
            page.wait_for_function("(l) => PH.lang === l", arg=lang)

    def start(self, game: str, coach: bool = True, options: dict | None = None) -> dict:
        """Choose ``game`` on the TV, set the coach switch, start; returns the TV's game view."""
        tv = self.tv
        if tv.evaluate("() => PH.last.party.phase") == "game":
            assert self.host("end")["ok"]
        tv.locator(f"[data-choose={game}]").click()
        tv.wait_for_function("(g) => PH.last.party.game_key === g", arg=game)
        if options:
            assert tv.evaluate("(o) => PH.setOptions(o)", options)["ok"]
        switch = tv.get_by_test_id("coach-switch")
        if (switch.get_attribute("aria-pressed") == "true") != coach:
            switch.click()
        expect(switch).to_have_attribute("aria-pressed", "true" if coach else "false")
        for page in self.phones:  # every phone sees the switch
            expect(page.locator(".coach-lobby")).to_have_attribute("data-coach", "on" if coach else "off")
        serial = tv.evaluate("() => PH.last.party.serial")
        tv.get_by_test_id("start").click()
        for page in [tv, *self.phones]:
            page.wait_for_function("(n) => PH.last.party.serial === n && PH.last.game", arg=serial + 1)
        return self.view(tv)

    def host(self, op: str, **extra) -> dict:
        return self.tv.evaluate("([op, extra]) => PH.host(op, extra)", [op, extra])

    def host_act(self, action: dict) -> dict:
        return self.tv.evaluate("(a) => PH.hostAct(a.type, a)", action)

    @staticmethod
    def view(page: Page) -> dict:
        return page.evaluate("() => PH.last.game")

    def act(self, seat: str, action: dict) -> dict:
        result = self.phone(seat).evaluate("(a) => PH.act(a)", action)
        assert result["ok"], (seat, action, result)
        return result

    # --- what the coach shows -------------------------------------------------------------------
    def words(self, text: dict, lang: str) -> str:
        """The text ``{key, params}`` reads in ``lang``, from that language's own catalogue (a key
        missing there would silently fall back to English in ``i18n.message``: it fails here)."""
        own = i18n.catalogue(lang)
        assert text["key"] in own, f"{text['key']} is missing from the {lang} catalogue"
        params = {}
        for k, v in text["params"].items():
            if isinstance(v, dict):
                assert v["key"] in own, f"{v['key']} is missing from the {lang} catalogue"
                params[k] = i18n.message(lang, v["key"])
            elif k.endswith("seat"):
                params[k] = self.names[v]
            else:
                params[k] = v
        return i18n.message(lang, text["key"], **params)

    def step(self, step: str, lang: str) -> dict:
        """The TV's strip shows ``step``, in ``lang``, and keeps the game in view."""
        strip = self.tv.get_by_test_id("coach-strip")
        expect(strip).to_have_attribute("data-step", step)
        data = self.tv.evaluate("() => PH.last.game.coach.strip")
        assert data["step"] == step
        expect(strip.get_by_test_id("coach-now")).to_have_text(i18n.message(lang, "coach.now") + self.words(data["now"], lang))
        expect(strip.get_by_test_id("coach-next")).to_have_text(i18n.message(lang, "coach.next") + self.words(data["next"], lang))
        self.fits()
        return data

    def fits(self) -> None:
        """The strip sits above the game, inside the screen; the game keeps the rest (no overflow)."""
        box = self.tv.evaluate("""() => {
          const s = document.getElementById('coach-strip').getBoundingClientRect();
          const m = document.getElementById('app').getBoundingClientRect();
          const g = document.getElementById('game-root');
          return {stripBottom: s.bottom, stripHeight: s.height, mainTop: m.top, mainBottom: m.bottom,
                  over: g.scrollHeight - g.clientHeight, inner: window.innerHeight};
        }""")
        assert box["stripBottom"] <= box["mainTop"] + 0.5, box
        assert box["mainBottom"] <= box["inner"] + 0.5, box
        assert box["over"] <= 1, f"the game overflows its room under the strip: {box}"

    def tip(self, seat: str, name: str, game: str, lang: str, dismiss: bool = False) -> None:
        """Phone ``seat`` shows the tip ``name`` in ``lang`` (and, with ``dismiss``, one tap hides it)."""
        page = self.phone(seat)
        card = page.get_by_test_id("coach-tip")
        expect(card).to_have_attribute("data-tip", f"{game}.tip.{name}")
        data = page.evaluate("() => PH.last.game.coach.tip")
        expect(card.locator("p")).to_have_text(self.words(data, lang))
        ok = card.get_by_test_id("coach-ok")
        size = ok.bounding_box()
        assert size["width"] >= MIN_TAP and size["height"] >= MIN_TAP, size
        scroll = page.evaluate("() => document.documentElement.scrollWidth")
        assert scroll <= 360, f"the phone scrolls sideways: {scroll}"
        if dismiss:
            ok.tap()
            expect(page.locator(f"[data-tip='{game}.tip.{name}']")).to_have_count(0)

    def no_tip(self, seat: str, name: str, game: str) -> None:
        """Phone ``seat`` has the table's latest state and does not show tip ``name``."""
        version = self.tv.evaluate("() => PH.last.game.version")
        page = self.phone(seat)
        page.wait_for_function("(v) => PH.last.game && PH.last.game.version >= v", arg=version)
        expect(page.locator(f"[data-tip='{game}.tip.{name}']")).to_have_count(0)
        assert f"{game}.tip.{name}" not in json.dumps(page.evaluate("() => PH.last.game.coach"))

    def nothing(self) -> None:
        """No coach anywhere: no strip on the TV, no tip or skip on any phone."""
        expect(self.tv.get_by_test_id("coach-strip")).to_be_hidden()
        expect(self.tv.get_by_test_id("coach-skip")).to_have_count(0)
        for page in self.phones:
            page.wait_for_function("() => PH.last.game && PH.last.game.coach === null")
            expect(page.get_by_test_id("coach-tip")).to_have_count(0)
            expect(page.get_by_test_id("coach-skip")).to_have_count(0)
        assert self.tv.evaluate("() => PH.last.game.coach") is None


def running_table(tmp_path_factory, pw, label: str, cls: type | None = None):
    """A module's party (generator, for a module-scoped fixture): one server, one browser and a
    ``cls`` table (default :class:`Table`) for every test; page problems fail it at the end."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing")
    srv = ServerProcess("eventlet", 7, tmp_path_factory.mktemp(label))
    browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
    try:
        srv.wait_ready()
        t = (cls or Table)(browser, srv)
        yield t
        assert not t.problems, t.problems
    finally:
        browser.close()
        srv.stop()


@pytest.fixture(scope="module")
def table(tmp_path_factory, pw):
    yield from running_table(tmp_path_factory, pw, "coach")


# --- The Mind: level 1, all of it, in each language ----------------------------------------------------


def test_the_mind_level_one(table, lang):
    t = table
    t.lang(lang)
    if lang == i18n.LANGS[0]:  # the party's first game of The Mind: the coach is on by default
        t.tv.locator("[data-choose=the_mind]").click()
        expect(t.tv.get_by_test_id("coach-switch")).to_have_attribute("aria-pressed", "true")
        expect(t.phones[1].locator(".coach-lobby")).to_have_attribute("data-coach", "on")
        shot(t.tv, f"lobby-tv-{lang}")  # only here is the TV in the lobby (the en run starts mid-game)
        shot(t.phones[1], f"lobby-phone-{lang}")
    t.start("the_mind")
    s1, s2, s3, s4 = t.seats
    t.step("ready", lang)
    shot(t.tv, f"the_mind-tv-{lang}")
    for seat in t.seats:
        t.tip(seat, "ready", "the_mind", lang)
    shot(t.phone(s1), f"the_mind-phone-{lang}")
    t.tip(s1, "ready", "the_mind", lang, dismiss=True)
    for seat in t.seats:
        t.act(seat, {"type": "ready", "level": 1, "ready": True})
    t.step("play", lang)
    t.tip(s2, "play", "the_mind", lang)
    t.act(s1, {"type": "propose_shuriken", "level": 1})
    t.step("shuriken", lang)
    assert NAMES[0] in t.tv.get_by_test_id("coach-now").inner_text()
    t.tip(s1, "shuriken_proposer", "the_mind", lang)
    t.tip(s2, "shuriken_vote", "the_mind", lang, dismiss=True)
    t.act(s2, {"type": "vote_shuriken", "proposal": 1, "agree": False})
    t.step("play", lang)
    # a mistake: the third-lowest card first, so the highest is still in a hand
    cards = sorted((t.view(t.phone(s))["hand"][0], s) for s in t.seats)
    t.act(cards[2][1], {"type": "play", "level": 1, "card": cards[2][0]})
    t.step("mistake", lang)
    t.tip(cards[3][1], "mistake", "the_mind", lang)
    for seat in t.seats:
        t.act(seat, {"type": "ready", "level": 1, "ready": True})
    # the shuriken, used this time: s3 proposes, everyone agrees, the last card is thrown away face
    # up, and that ends level 1 (one card each: a shuriken always does). A tip shows once per game:
    # s3 and s1 get theirs (new to them), s2 and s4 saw the vote tip at the first proposal
    assert t.view(t.tv)["shuriken"] == 1
    t.act(s3, {"type": "propose_shuriken", "level": 1})
    t.step("shuriken", lang)
    assert NAMES[2] in t.tv.get_by_test_id("coach-now").inner_text()
    t.tip(s3, "shuriken_proposer", "the_mind", lang)
    t.tip(s1, "shuriken_vote", "the_mind", lang)
    expect(t.phone(s2).get_by_test_id("coach-tip")).to_have_count(0)
    proposal = t.view(t.tv)["proposal"]["id"]
    for seat in t.seats:
        if seat != s3:
            t.act(seat, {"type": "vote_shuriken", "proposal": proposal, "agree": True})
    t.step("level_done", lang)
    g = t.view(t.tv)
    assert g["shuriken"] == 0 and g["level"] == 2, g
    for seat in t.seats:
        t.act(seat, {"type": "ready", "level": 2, "ready": True})
    expect(t.tv.get_by_test_id("coach-strip")).not_to_have_attribute("data-step", "level_done")
    # level 2: the strip goes on (issue 27: it stopped after level 1), so do the phones' lines
    expect(t.tv.get_by_test_id("coach-strip")).to_have_attribute("data-step", "play")
    expect(t.tv.get_by_test_id("coach-now")).to_be_visible()
    for page in t.phones:
        expect(page.get_by_test_id("coach-line")).to_be_visible()
    shot(t.phones[0], f"the_mind-level2-phone-{lang}")
    expect(host_menu(t.tv).get_by_test_id("coach-skip")).to_be_visible()  # in the host menu
    t.tv.keyboard.press("Escape")


def test_the_mind_with_the_coach_off_shows_none_of_it_and_skip_ends_it(table):
    t = table
    t.lang("ja")
    t.start("the_mind", coach=False)  # The Mind was played: the switch is off by default now
    t.nothing()
    for seat in t.seats:
        t.act(seat, {"type": "ready", "level": 1, "ready": True})
    t.nothing()
    # on again, then the host's skip: gone on every screen at once
    t.start("the_mind", coach=True)
    t.step("ready", "ja")
    menu_click(t.tv, "[data-testid=coach-skip]")
    t.nothing()
    # the host's phone has the skip button too (a one-tap target at 360 px)
    t.start("the_mind", coach=True)
    host = t.phones[2]
    menu_click(t.tv, f"[data-promote='{t.seats[2]}']")
    skip = host.get_by_test_id("coach-skip")
    expect(skip).to_be_visible()
    expect(t.phones[1].get_by_test_id("coach-skip")).to_have_count(0)
    box = skip.bounding_box()
    assert box["height"] >= MIN_TAP and box["width"] >= MIN_TAP, box
    skip.tap()
    expect(t.tv.get_by_test_id("coach-strip")).to_be_hidden()
    for page in t.phones:
        page.wait_for_function("() => PH.last.game && PH.last.game.coach === null")
        expect(page.get_by_test_id("coach-tip")).to_have_count(0)
    menu_click(t.tv, f"[data-promote='{t.seats[2]}']")  # back to the TV alone
    expect(host.locator(".tag.host")).to_have_count(0)


# --- Decrypto: round 1 and the first interception, in each language --------------------------------


def test_decrypto_round_one_and_the_first_interception(table, lang):
    t = table
    other = other_lang(lang)
    t.lang(lang)
    g = t.start("decrypto")
    enc = g["encryptors"]
    white, black = enc["white"], enc["black"]
    wmate = next(s for s in g["teams"]["white"] if s != white)
    bmate = next(s for s in g["teams"]["black"] if s != black)
    t.step("encrypt", lang)
    shot(t.tv, f"decrypto-tv-{lang}")
    t.tv.set_viewport_size({"width": 1920, "height": 1080})  # the big TV: the same room rules
    t.fits()
    shot(t.tv, f"decrypto-tv-{lang}-1080")
    t.tv.set_viewport_size(TV)
    t.tip(white, "encryptor", "decrypto", lang)
    t.tip(black, "encryptor", "decrypto", lang)
    t.tip(wmate, "wait", "decrypto", lang)
    t.no_tip(wmate, "encryptor", "decrypto")  # the encryptor's tip is the encryptor's alone
    t.no_tip(bmate, "encryptor", "decrypto")
    assert "encryptor" not in json.dumps(t.tv.evaluate("() => PH.last.game.coach"))
    shot(t.phone(white), f"decrypto-phone-{lang}")
    codes = {team: t.view(t.phone(enc[team]))["my_code"] for team in ("white", "black")}
    # the help sheet's "what you can do now" names the code, unbroken (word joiners: a 360 px
    # phone broke "3-" / "1-4" after a hyphen)
    t.phone(white).get_by_test_id("howto-button").tap()
    now = t.phone(white).get_by_test_id("howto-now")
    expect(now).to_be_visible()
    assert "\u2060-\u2060".join(map(str, codes["white"])) in now.evaluate("(e) => e.textContent")
    t.phone(white).get_by_test_id("howto-close").tap()
    for rnd in (1, 2):
        for team in ("white", "black"):
            t.act(enc[team], {"type": "clues", "round": rnd, "clues": [f"zq{team}{rnd}{i}" for i in range(3)],
                              "final": True})
        if rnd == 1:
            t.step("decode", lang)
            t.tip(white, "silent", "decrypto", lang)
            t.tip(wmate, "decoder", "decrypto", lang, dismiss=True)
            t.tip(black, "wait_round1", "decrypto", lang)
            t.act(wmate, {"type": "lock", "round": 1, "team": "white", "code": codes["white"]})
            t.step("reveal", lang)
            t.tip(bmate, "reveal", "decrypto", lang)
            assert t.host_act({"type": "next", "round": 1, "team": "white"})["ok"]
            t.step("decode", lang)
            t.act(bmate, {"type": "lock", "round": 1, "team": "black", "code": codes["black"]})
            strip = t.step("reveal", lang)
            assert strip["next"]["key"] == "decrypto.coach.next.reveal_end1"  # round 2 brings interception
            assert t.host_act({"type": "next", "round": 1, "team": "black"})["ok"]
            t.step("encrypt2", lang)
            codes = {team: t.view(t.phone(enc2))["my_code"]
                     for team, enc2 in t.view(t.tv)["encryptors"].items()}
            enc = t.view(t.tv)["encryptors"]
    t.step("intercept", lang)
    shot(t.tv, f"decrypto-intercept-tv-{lang}")
    interceptor = next(s for s in t.seats if t.view(t.phone(s)).get("role") == "interceptor")
    t.tip(interceptor, "interceptor", "decrypto", lang)
    # the same step in the other language: the words follow the language switch
    t.lang(other)
    t.step("intercept", other)
    t.tip(interceptor, "interceptor", "decrypto", other)
    t.lang(lang)


# --- Top Ten: round 1, in each language (the first step also in the other) ---------------------------


def test_top_ten_round_one(table, lang):
    t = table
    other = other_lang(lang)
    t.lang(other)
    g = t.start("top_ten")
    captain = g["captain"]
    others = [s for s in t.seats if s != captain]
    t.step("choose", other)
    t.tip(captain, "captain_choose", "top_ten", other)
    t.lang(lang)
    t.step("choose", lang)
    shot(t.tv, f"top_ten-tv-{lang}")
    t.tip(captain, "captain_choose", "top_ten", lang, dismiss=True)
    t.no_tip(others[0], "captain_choose", "top_ten")
    t.act(captain, {"type": "choose", "round": 1, "theme": 0})
    t.step("answer", lang)
    t.tip(captain, "captain_answer", "top_ten", lang)
    t.tip(others[0], "answer", "top_ten", lang)
    shot(t.phone(others[0]), f"top_ten-phone-{lang}")
    for i, seat in enumerate([captain, *others]):  # the longest answers a phone may type
        t.act(seat, {"type": "answer", "round": 1, "text": LONG_JA if i % 2 == 0 else LONG_EN})
    t.step("order", lang)
    # the strip takes its room from the game, which keeps everything on screen, unoverlapped
    # (its answers step down to fewer lines while the strip is up, as the game does for long themes)
    assert not _tv_issues(t.tv, "coach on", cut_ok=True)
    t.tip(captain, "captain_order", "top_ten", lang)
    t.tip(others[1], "wait_order", "top_ten", lang)
    numbers = {s: t.view(t.phone(s))["number"] for s in t.seats}
    order = sorted(t.seats, key=lambda s: -numbers[s])  # highest first: out of order
    for i, seat in enumerate(order):
        t.act(captain, {"type": "pick", "round": 1, "seat": seat})
        t.act(captain, {"type": "confirm", "round": 1, "seat": seat})
        if i == 1:
            t.step("mistake", lang)
            t.tip(others[2], "tokens", "top_ten", lang)
    t.step("round_over", lang)
    strip = t.tv.evaluate("() => PH.last.game.coach.strip")
    t.tip(strip["next"]["params"]["next_seat"], "next_captain", "top_ten", lang)


# --- Word Basket: the deal, a word, a challenge, the vote and リーチ, in each language ---------------


def test_word_basket_deal_a_word_and_a_vote(table, lang):
    t = table
    other_l = other_lang(lang)
    t.lang(lang)
    t.start("word_basket")
    s1 = t.seats[0]
    t.step("deal", lang)
    shot(t.tv, f"word_basket-tv-{lang}")
    for seat in t.seats:
        t.tip(seat, "play", "word_basket", lang)
    # a made-up word: it stands with a "?", so the others may challenge it
    player, made_up = None, None
    for seat in t.seats:
        made_up = find_play(t.view(t.phone(seat)), not_known=True)
        if made_up:
            player = seat
            g = t.view(t.phone(seat))
            t.act(seat, {"type": "play", "field": g["field"]["serial"], "card": made_up[0], "word": made_up[1]})
            break
    assert made_up, "no made-up word fits any hand"
    t.step("play", lang)
    other = next(s for s in t.seats if s != player)
    t.tip(other, "challenge", "word_basket", lang, dismiss=True)
    g = t.view(t.phone(other))
    t.act(other, {"type": "challenge", "field": g["challengeable"]["field"]})
    t.step("vote", lang)
    voter = next(s for s in t.seats if s not in (player, other))
    t.tip(voter, "vote", "word_basket", lang)
    shot(t.phone(voter), f"word_basket-phone-{lang}")
    t.lang(other_l)
    t.step("vote", other_l)
    t.tip(voter, "vote", "word_basket", other_l)
    t.lang(lang)
    vote = t.view(t.tv)["vote"]
    for seat in t.seats:
        if seat not in (player, other):
            t.act(seat, {"type": "vote", "vote": vote["id"], "ballot": "accept"})
    t.step("play", lang)
    # one player runs down to a single card with made-up words (nobody challenges): リーチ matters
    runner = min(t.seats, key=lambda s: sum(c["kind"] == "number" for c in t.view(t.phone(s))["hand"]))
    for _ in range(8):
        g = t.view(t.phone(runner))
        if len(g["hand"]) == 1:
            break
        play = find_play(g, not_known=True)
        assert play, "no made-up word fits the runner's hand"
        t.act(runner, {"type": "play", "field": g["field"]["serial"], "card": play[0], "word": play[1]})
        t.phone(runner).wait_for_function("(n) => PH.last.game.field.serial > n", arg=g["field"]["serial"])
    assert len(t.view(t.phone(runner))["hand"]) == 1
    t.tip(runner, "reach", "word_basket", lang, dismiss=True)
    t.act(runner, {"type": "reach"})
    t.step("reach", lang)
    assert NAMES[t.seats.index(runner)] in t.tv.get_by_test_id("coach-now").inner_text()


# --- Diabolo: the dealer, the first claim, the vote and picking, in each language -------------------


def _nonword(table: list[dict]) -> list[dict] | None:
    singles = [c for c in table if not c["joker"] and len(c["face"]) == 1]
    for i in range(len(singles) - 2):
        trio = singles[i:i + 3]
        if not latin.is_known("".join(c["face"] for c in trio), "de"):
            return trio
    return None


def test_diabolo_round_one(table, lang):
    t = table
    other = other_lang(lang)
    t.lang(lang)
    g = t.start("diabolo")
    dealer = g["dealer"]
    others = [s for s in t.seats if s != dealer]
    strip = t.step("turn", lang)
    assert i18n.message(lang, "diabolo.coach.lang.de") in t.tv.get_by_test_id("coach-now").inner_text()
    assert strip["now"]["params"]["language"] == {"key": "diabolo.coach.lang.de"}
    t.tip(dealer, "dealer", "diabolo", lang, dismiss=True)
    shot(t.tv, f"diabolo-tv-{lang}")
    trio = None
    joker_seen = False
    for _ in range(40):
        g = t.view(t.tv)
        trio = _nonword(g["table"])
        if any(c["joker"] for c in g["table"]):
            joker_seen = True
            t.step("joker", lang)
            t.tip(others[0], "joker", "diabolo", lang)
        if trio and len(g["table"]) >= 3:
            break
        t.act(dealer, {"type": "turn", "round": g["round"], "turned": g["turned"]})
        t.tv.wait_for_function("(n) => PH.last.game.turned > n", arg=g["turned"])
    assert trio, "no three letters that are no word"
    if not joker_seen:
        t.tip(others[0], "claim", "diabolo", lang)
        shot(t.phone(others[0]), f"diabolo-phone-{lang}")
    word = "".join(c["face"] for c in trio)
    t.act(others[0], {"type": "claim", "round": g["round"], "word": word, "cards": [{"id": c["id"]} for c in trio]})
    t.step("vote", lang)
    assert word in t.tv.get_by_test_id("coach-now").inner_text()
    t.tip(others[1], "vote", "diabolo", lang)
    t.lang(other)
    t.step("vote", other)
    assert i18n.message(other, "diabolo.coach.lang.de") in t.tv.get_by_test_id("coach-now").inner_text()
    t.tip(others[1], "vote", "diabolo", other)
    t.lang(lang)
    vote = t.view(t.tv)["vote"]
    for seat in others[1:]:
        t.act(seat, {"type": "vote", "vote": vote["id"], "ballot": "reject"})
    t.step("picking", lang)
    t.tip(dealer, "pick", "diabolo", lang)
    # each picker takes a face-up card; then the dealer turns the rest of the deck (no claim: each
    # turn waits for the state it made) until it is out, everyone passes, and round 1 is scored
    g = t.view(t.tv)
    for seat, card in zip(list(g["picking"]["pickers"]), g["table"]):
        t.act(seat, {"type": "pick", "round": g["round"], "card": card["id"]})
    t.tv.wait_for_function("() => PH.last.game.phase === 'turning'")
    turned = t.phone(dealer).evaluate("""async () => {
      const until = (f) => new Promise((done) => { const tick = () => f() ? done() : setTimeout(tick, 5); tick(); });
      let n = 0;
      while (PH.last.game.deck_left > 0) {
        const g = PH.last.game;
        const r = await PH.act({type: "turn", round: g.round, turned: g.turned});
        if (!r.ok) return r;
        await until(() => PH.last.game.turned > g.turned);
        n += 1;
      }
      return n;
    }""")
    assert isinstance(turned, int) and turned > 0, turned
    t.step("deck_out", lang)
    for seat in t.seats:
        t.act(seat, {"type": "pass", "round": 1})
    strip = t.step("scored", lang)
    t.tip(strip["next"]["params"]["next_seat"], "deal", "diabolo", lang)


# --- Decrypto with three players (2 vs 1): round 1's own wording, in each language ---------------------


def test_decrypto_three_players_round_one(table, lang):
    t = table
    if len(t.phones) == len(NAMES):  # the module's last test: the fourth player goes (the host's kick)
        gone = t.seats[-1]
        assert t.host("kick", seat=gone)["ok"]
        t.phones.pop()
        t.seats.pop()
        t.names.pop(gone)
    t.lang(lang)
    g = t.start("decrypto")
    assert g["variant"] == "three", g["variant"]
    (team, enc), = g["encryptors"].items()
    mate = next(s for s in g["teams"][team] if s != enc)
    lone = next(s for s in t.seats if s not in g["teams"][team])
    strip = t.step("encrypt", lang)
    assert strip["next"]["key"] == "decrypto.coach.next.encrypt_three"
    t.tip(enc, "encryptor", "decrypto", lang)
    t.tip(mate, "wait", "decrypto", lang)
    t.tip(lone, "lone", "decrypto", lang)  # no encryptor, no keywords: the lone interceptor's own tip
    t.no_tip(lone, "wait", "decrypto")
    shot(t.phone(lone), f"decrypto-three-lone-phone-{lang}")
    code = t.view(t.phone(enc))["my_code"]
    t.act(enc, {"type": "clues", "round": 1, "clues": ["zqa", "zqb", "zqc"], "final": True})
    strip = t.step("decode", lang)
    assert strip["next"]["key"] == "decrypto.coach.next.decode_three"
    t.tip(enc, "silent", "decrypto", lang)
    t.tip(mate, "decoder", "decrypto", lang)
    t.tip(lone, "wait_round1", "decrypto", lang)
    t.act(mate, {"type": "lock", "round": 1, "team": team, "code": code})
    strip = t.step("reveal", lang)
    assert strip["next"]["key"] == "decrypto.coach.next.reveal_end1_three"  # one team: its reveal ends round 1 (the interceptor, not "the other team", listens in from round 2)
    t.tip(lone, "reveal", "decrypto", lang)
    assert t.host_act({"type": "next", "round": 1, "team": team})["ok"]
    t.step("encrypt2", lang)
