"""Browser end-to-end for Word Basket: the real server, the laptop's TV page and three phones.

A seeded game is played to a winner through the pages only: words are typed into the phones'
word field and played by tapping the card the phone lights up. The words are found at test time in
the built-in noun list (``partyhost.lexicon.japanese``) for the hand and field each phone shows, so
nothing depends on a hard-coded deal. On the way: a word typed in kanji (its reading is shown
before the card can be played), an IME's Enter that must not play a card, an unknown word that is
challenged and rejected by a table vote (its card comes back with a penalty card), リーチ declared
with the second-last card, and the win on every screen.

A second test covers the host's options (a handicap), a reset with a chosen top card, pointing out
a missing リーチ (also inside the short window before a win), and the host overruling a vote, with a
phone in English. A third checks that the phone's own copy of the reading and fit rules (used to
light up cards while typing) gives the server's verdicts on edge cases and a dictionary sample.

Screenshots (TV 1280×720, phone 390×844) go to docs/screenshots/word_basket-*.png when the
environment has ``PARTYHOST_SHOTS=docs`` (``make screenshots``), else to a temporary folder.
"""

from __future__ import annotations

import os
import re
import tempfile
from functools import lru_cache
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from partyhost.games import registry
from partyhost.games.word_basket import WordBasket
from partyhost.lexicon import japanese, kana

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.server,
    pytest.mark.skipif("word_basket" not in registry.GAMES, reason="Word Basket is not registered yet"),
]

DOCS_SHOTS = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
TV_VIEWPORT = {"width": 1280, "height": 720}
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
SEED = 2

expect.set_options(timeout=6_000)


# --- finding words for a hand, from the dictionary --------------------------------------------------


@lru_cache(maxsize=1)
def _by_initial() -> dict[str, list[str]]:
    """The known readings by their first character (voiced and plain apart), cheap to build."""
    japanese.load()
    out: dict[str, list[str]] = {}
    for word in japanese._readings:  # the module's set of known readings
        out.setdefault(word[:1], []).append(word)
    for words in out.values():
        words.sort(key=lambda w: (len(w), w))
    return out


@lru_cache(maxsize=None)
def words_from(first: str) -> dict[str, list[kana.Reading]]:
    """Known readings starting with ``first`` (any dakuten form), by last kana, shortest first."""
    out: dict[str, list[kana.Reading]] = {}
    for initial in {c for c in _by_initial() if c and kana.plain(c) == first}:
        for word in _by_initial()[initial]:
            try:
                r = kana.reading(word)
            except kana.ReadingError:
                continue
            if not r.ends_with_n:
                out.setdefault(r.last, []).append(r)
    # everyday nouns first: readings that some two-kanji word has, then the rest, shortest first
    common = {r for _, r in _kanji_lines().get(first, []) if len(_) == 2}
    for words in out.values():
        words.sort(key=lambda r: (r.kana not in common, r.length, r.kana))
    return out


@lru_cache(maxsize=1)
def _kanji_lines() -> dict[str, list[tuple[str, str]]]:
    """(surface, reading) of two- or three-kanji words with one reading, by plain first kana."""
    japanese.load()
    out: dict[str, list[tuple[str, str]]] = {}
    for line in japanese._surfaces.split("\n"):  # "surface\treading\treading…" lines
        if 2 <= line.find("\t") <= 3 and line.count("\t") == 1:
            surface, reading = line.split("\t")
            if reading and all("\u4e00" <= c <= "\u9fff" for c in surface):
                out.setdefault(kana.plain(reading[0]), []).append((surface, reading))
    return out


@lru_cache(maxsize=None)
def kanji_from(first: str) -> dict[str, list[tuple[str, kana.Reading]]]:
    """Written forms of two or three kanji with exactly one known reading, starting with ``first``
    (any dakuten form), by last kana; two-kanji words first."""
    out: dict[str, list[tuple[str, kana.Reading]]] = {}
    for surface, reading in _kanji_lines().get(first, []):
        if not japanese.is_known(reading):
            continue
        try:
            r = kana.reading(reading)
        except kana.ReadingError:
            continue
        if not r.ends_with_n and japanese.readings_of(surface) == [reading]:
            out.setdefault(r.last, []).append((surface, r))
    for words in out.values():
        words.sort(key=lambda x: (len(x[0]), x[1].length, x[0]))
    return out


def judge(game: dict) -> WordBasket:
    """A bare rules object holding this phone's hand, handicap and last word, so the game's own
    ``fit_error`` judges candidate words (the test does not re-implement the rules)."""
    g = WordBasket()
    me = game["me"]
    g.hands = {me: [c["id"] for c in game["hand"]]}
    g.handicaps = {me: next(p["handicap"] for p in game["players"] if p["seat"] == me)}
    g.last_word = {me: game["last_word"]} if game["last_word"] else {}
    return g


def _firsts(game: dict) -> str:
    f = game["field"]
    return f["kana"] if f["kana"] else game["rows"][f["row"]] if f["row"] else "".join(game["rows"].values())


def _lasts(card: dict, game: dict) -> str:
    if card["kind"] == "kana":
        return card["kana"]
    if card["kind"] == "row":
        return card["kana"]
    return "".join(game["rows"].values()) + "わを"


def fitting_cards(game: dict, r: kana.Reading) -> list[int]:
    g = judge(game)
    return [c["id"] for c in game["hand"] if g.fit_error(game["me"], c["id"], r, game["field"]) is None]


def find_play(game: dict, *, only_one: bool = False, kanji: bool = False, not_known: bool = False):
    """(card id, word, reading) for a card of this phone's hand, or None.

    only_one: the word must fit exactly one card of the hand (so Enter plays it).
    kanji: a word written in kanji whose one reading fits.
    not_known: a made-up kana word (not in the dictionary) that fits by shape.
    """
    for card in sorted(game["hand"], key=lambda c: (c["kind"] != "kana", c["id"])):
        for first in _firsts(game):
            for last in _lasts(card, game):
                if not_known:
                    if card["kind"] == "number":
                        continue
                    word = first + "ぬぽ" + "ぬぽ" * (len(game["hand"]) == 1) + last
                    r = kana.reading(word)
                    if japanese.is_known(r.kana):
                        continue
                    cands = [(word, r)]
                elif kanji:
                    cands = kanji_from(first).get(last, [])
                else:
                    cands = [(r.kana, r) for r in words_from(first).get(last, [])]
                for word, r in cands[:400]:
                    fit = fitting_cards(game, r)
                    if card["id"] in fit and (not only_one or len(fit) == 1):
                        return card["id"], word, r.kana
    return None


# --- pages ------------------------------------------------------------------------------------------


def watch(page: Page, label: str, problems: list[str]) -> None:
    page.on("pageerror", lambda e: problems.append(f"{label}: page error: {e}"))
    page.on("console", lambda m: problems.append(f"{label}: console.{m.type}: {m.text}") if m.type == "error" else None)


def shot(page: Page, name: str) -> None:
    folder = DOCS_SHOTS if os.environ.get("PARTYHOST_SHOTS") == "docs" else Path(tempfile.gettempdir()) / "partyhost-shots"
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"word_basket-{name}.png"), animations="disabled")


class Phone:
    """One phone: its own browser context (own token) at the LAN origin, 390×844."""

    def __init__(self, browser: Browser, base_url: str, name: str, problems: list[str], query: str = "") -> None:
        self.name = name
        self.ctx = browser.new_context(**PHONE)
        self.page = self.ctx.new_page()
        watch(self.page, f"phone {name}", problems)
        self.page.goto(base_url + "/" + query)
        self.seat = ""

    def join(self) -> None:
        self.page.get_by_test_id("name").fill(self.name)
        self.page.get_by_test_id("join").tap()
        expect(self.page.get_by_test_id("welcome")).to_contain_text(self.name)
        self.seat = self.page.evaluate("PH.last.me.seat")

    def game(self) -> dict:
        """The game view this phone holds right now (its own hand included)."""
        return self.page.evaluate("PH.last.game")

    def wait_view(self, predicate, what: str) -> dict:
        """Poll this phone's view until ``predicate(view)`` holds."""
        for _ in range(100):
            g = self.game()
            if g and predicate(g):
                return g
            self.page.wait_for_timeout(50)
        raise AssertionError(f"{self.name}: timed out waiting for {what}; view: {self.game()!r}")

    def card(self, card_id: int):
        return self.page.get_by_test_id(f"card-{card_id}")

    def type_word(self, word: str) -> None:
        self.page.get_by_test_id("word").fill(word)

    def hand_ids(self) -> list[int]:
        return [c["id"] for c in self.game()["hand"]]


# What must be on a 1280×720 TV without scrolling (body.tv hides overflow: outside means gone),
# and clear of the corner QR/roster.
_OUTSIDE = """(sel) => [...document.querySelectorAll(sel)].filter((el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && (r.left < -0.5 || r.top < -0.5 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5);
  }).map((el) => (el.getAttribute("data-testid") || el.className) + ": " + el.textContent.trim().replace(/\\s+/g, " ").slice(0, 30))"""
_UNDER_CORNER = """(sel) => { const c = document.querySelector(".corner"); if (!c) return [];
  const k = c.getBoundingClientRect();
  return [...document.querySelectorAll(sel)].filter((el) => { const r = el.getBoundingClientRect();
    return r.width > 0 && r.left < k.right && r.right > k.left && r.top < k.bottom && r.bottom > k.top; })
  .map((el) => el.textContent.trim().replace(/\\s+/g, " ").slice(0, 30)); }"""
_TV_PARTS = ("[data-testid=field], [data-testid=chain] li:not([hidden]), .wb-players li, [data-testid=vote], "
             "[data-testid=tv-result], [data-testid=race], [data-testid=tv-event], .wb-status span")


def tv_layout_issues(tv: Page, where: str) -> list[str]:
    issues = [f"{where}: cut off by the screen edge: {x}" for x in tv.evaluate(_OUTSIDE, _TV_PARTS)]
    issues += [f"{where}: under the corner QR/roster: {x}" for x in tv.evaluate(_UNDER_CORNER, _TV_PARTS)]
    return issues


def phone_layout_issues(page: Page, where: str) -> list[str]:
    """A phone page must not scroll sideways, and no card may stick out of the screen."""
    wide = page.evaluate("document.scrollingElement.scrollWidth - innerWidth")
    out = page.evaluate("""() => [...document.querySelectorAll(".wbcard, .wb-actions button, .wb-vote, .wb-word")]
      .filter((el) => { const r = el.getBoundingClientRect(); return r.width > 0 && (r.left < -0.5 || r.right > innerWidth + 0.5); })
      .map((el) => el.textContent.trim().slice(0, 20))""")
    return ([f"{where}: page is {wide}px wider than the screen"] if wide > 0 else []) + [f"{where}: sticks out: {x}" for x in out]


def close_all(*pages: Page) -> None:
    for page in pages:
        page.context.close()


def chain_top(tv: Page):
    return tv.get_by_test_id("chain").locator("li").first


# --- the game -----------------------------------------------------------------------------------


def test_word_basket_three_phones_to_a_winner(server, browser):
    srv = server(mode="eventlet", seed=SEED)
    problems: list[str] = []
    tv_ctx = browser.new_context(viewport=TV_VIEWPORT)
    tv = tv_ctx.new_page()
    watch(tv, "tv", problems)
    tv.goto(srv.url + "/tv")
    names = ["あき", "Ben", "ちひろ"]
    phones = [Phone(browser, srv.lan_url, n, problems) for n in names]
    a, b, c = phones
    try:
        for ph in phones:
            ph.join()
        # The host (the laptop's TV page) chooses Word Basket: its options appear in the lobby.
        tv.locator("[data-choose=word_basket]").click()
        expect(tv.get_by_test_id("mode-vote")).to_have_class(re.compile(r"\bon\b"))
        expect(a.page.get_by_test_id("opt-mode")).to_be_visible()  # players see the mode, no controls
        expect(a.page.get_by_test_id("mode-vote")).to_have_count(0)
        shot(tv, "tv-lobby")
        tv.get_by_test_id("start").click()
        for ph in phones:
            expect(ph.page.get_by_test_id("hand").locator(".wbcard")).to_have_count(5)
        expect(tv.get_by_test_id("field")).to_be_visible()

        def play(ph: Phone, found, *, via_enter: bool = False, reach: bool = False) -> None:
            """Type the word on the phone, check the card lights up, tap it (or press Enter)."""
            card_id, word, reading = found
            before = len(ph.hand_ids())
            ph.type_word(word)
            if word != reading:  # kanji: the reading comes back from the server first
                expect(ph.page.get_by_test_id("reading")).to_contain_text(reading)
            expect(ph.card(card_id)).to_have_class(re.compile(r"\bfit\b"))
            expect(ph.page.get_by_test_id("why")).to_have_count(0)
            if via_enter:
                ph.page.get_by_test_id("word").press("Enter")
            else:
                ph.card(card_id).tap()
            expect(chain_top(tv).locator(".w")).to_have_text(word)
            if word != reading:
                expect(chain_top(tv).locator(".rd")).to_have_text(reading)
            expect(chain_top(tv).locator(".who")).to_have_text(ph.name)
            expect(ph.page.get_by_test_id("word")).to_have_value("")
            ph.wait_view(lambda g: len(g["hand"]) == before - 1, "the card to leave the hand")
            if reach:  # one tap right when the play leaves one card (RULES.md "Reach")
                ph.page.get_by_test_id("reach").tap()

        def someone_plays(exclude: Phone) -> None:
            for ph in phones:
                if ph is exclude:
                    continue
                found = find_play(ph.game())
                if found:
                    play(ph, found)
                    return
            raise AssertionError("nobody has a word for this field")

        # 1. A wrong word: the phone says why before anything is sent.
        g = a.game()
        field_kana = g["field"]["kana"] or (g["rows"][g["field"]["row"]][0] if g["field"]["row"] else "あ")
        a.type_word(field_kana + "ん")
        expect(a.page.get_by_test_id("why")).to_be_visible()
        expect(a.page.locator(".wbcard.fit")).to_have_count(0)
        shot(a.page, "phone-reason")
        a.type_word("")

        # 2. A word typed in kanji (by whoever holds a card it fits): reading shown first.
        kanji_done = False
        for ph in phones:
            found = find_play(ph.game(), kanji=True)
            if found:
                play(ph, found)
                kanji_done = True
                break
        assert kanji_done, "no kanji word fits any hand: pick another seed"
        layout = tv_layout_issues(tv, "play")
        shot(tv, "tv-play")

        # 2b. Two phones play for the same field a moment apart: the first in wins, the other card
        # goes back with no penalty, and the TV shows both words and by how much.
        racers = []
        for ph in phones:
            found = find_play(ph.game())
            if found:
                racers.append((ph, found))
        if len(racers) >= 2:
            (x, fx), (y, fy) = racers[:2]
            hands = {x: len(x.hand_ids()), y: len(y.hand_ids())}
            for ph, (card_id, word, _) in ((x, fx), (y, fy)):
                ph.type_word(word)
                expect(ph.card(card_id)).to_have_class(re.compile(r"\bfit\b"))
            # both phones tap at the same wall-clock moment (timers set in each page: Playwright's
            # own round trips would add tens of ms between two taps); either may arrive first
            at = x.page.evaluate("Date.now()") + 400
            for ph, card_id in ((x, fx[0]), (y, fy[0])):
                ph.page.evaluate(
                    "([sel, at]) => setTimeout(() => document.querySelector(sel).click(), at - Date.now())",
                    [f"[data-testid=card-{card_id}]", at],
                )
            expect(chain_top(tv).locator(".w")).to_have_text(re.compile(f"^({re.escape(fx[1])}|{re.escape(fy[1])})$"))
            won_x = chain_top(tv).locator(".w").inner_text() == fx[1]
            (win, fw), (lose, fl) = ((x, fx), (y, fy)) if won_x else ((y, fy), (x, fx))
            race = tv.get_by_test_id("race")
            expect(race).to_contain_text(win.name)
            expect(race).to_contain_text(lose.name)
            # by how much, or "dead heat" when the taps were closer than the phones' clocks can
            # tell (clock sync, docs/fair_first_card.md): taps a timer-tick apart often are
            expect(race).to_contain_text(re.compile(r"\d ?(ミリ秒|ms)|ほぼ同時|Dead heat"))
            expect(race).to_contain_text(fl[1])
            expect(lose.page.get_by_test_id("toast")).to_contain_text(win.name)
            lose.wait_view(lambda g: g["race"] is not None, "the race in the loser's view")
            assert len(lose.hand_ids()) == hands[lose] and fl[0] in lose.hand_ids(), "the loser keeps its card"
            win.wait_view(lambda g: len(g["hand"]) == hands[win] - 1, "the winner's card to leave the hand")
            layout += tv_layout_issues(tv, "race")
            shot(tv, "tv-race")
            lose.type_word("")

        # 3. An IME's Enter (confirming a conversion) must not play; a plain Enter does.
        found = find_play(a.game(), only_one=True)
        while not found:
            someone_plays(a)
            found = find_play(a.game(), only_one=True)
        a.page.evaluate(
            """() => { window.__acts = []; const s = PH.socket, emit = s.emit.bind(s);
                       s.emit = (ev, msg, ...rest) => { if (ev === "act") window.__acts.push(msg.type); return emit(ev, msg, ...rest); }; }"""
        )
        word_el = a.page.get_by_test_id("word")
        a.type_word(found[1])
        expect(a.card(found[0])).to_have_class(re.compile(r"\bfit\b"))
        layout += phone_layout_issues(a.page, "phone play")
        shot(a.page, "phone-play")
        word_el.dispatch_event("compositionstart", {"data": ""})
        word_el.press("Enter")
        a.page.wait_for_timeout(150)
        assert "play" not in a.page.evaluate("window.__acts"), "an IME Enter played a card"
        expect(word_el).to_have_value(found[1])
        assert found[0] in a.hand_ids()
        word_el.dispatch_event("compositionend", {"data": found[1]})
        play(a, found, via_enter=True)
        assert a.page.evaluate("window.__acts").count("play") == 1

        # 4. An unknown word enters marked "?", another phone challenges it, the table rejects it.
        bad_by = None
        for ph in (b, c):
            made_up = find_play(ph.game(), not_known=True)
            if made_up:
                bad_by = ph
                break
        assert bad_by, "no made-up word fits"
        before_cards = len(bad_by.hand_ids())
        card_id, word, _ = made_up
        bad_by.type_word(word)
        expect(bad_by.card(card_id)).to_have_class(re.compile(r"\bfit\b"))
        bad_by.card(card_id).tap()
        expect(chain_top(tv).locator(".w")).to_have_text(word)
        expect(chain_top(tv).locator(".q")).to_be_visible()
        expect(tv.get_by_test_id("challengeable")).to_be_visible()
        challenger = c if bad_by is b else b
        shot(challenger.page, "phone-challenge")
        expect(bad_by.page.get_by_test_id("challenge")).to_have_count(0)  # not one's own word
        challenger.page.get_by_test_id("challenge").tap()
        expect(tv.get_by_test_id("vote")).to_be_visible()
        expect(tv.get_by_test_id("vote-word")).to_have_text(word)
        expect(tv.get_by_test_id("tally-reject")).to_have_text("1")  # the challenger's ballot
        expect(tv.get_by_test_id("overrule-reject")).to_be_visible()  # the host may overrule
        expect(a.page.get_by_test_id("ballot-reject")).to_be_visible()
        # the word's player takes part in the vote too (RULES.md "Words": the whole table decides)
        expect(bad_by.page.get_by_test_id("ballot-accept")).to_be_visible()
        expect(tv.get_by_test_id("vote-countdown")).to_have_text(re.compile(r"\d"))
        layout += tv_layout_issues(tv, "vote") + phone_layout_issues(a.page, "phone vote")
        shot(tv, "tv-vote")
        shot(a.page, "phone-vote")
        a.page.get_by_test_id("ballot-reject").tap()
        expect(tv.get_by_test_id("vote")).to_have_count(0)
        expect(chain_top(tv)).to_have_class(re.compile(r"\brejected\b"))
        expect(tv.get_by_test_id(f"count-{bad_by.seat}").locator("b")).to_have_text(str(before_cards + 1))
        bad_by.wait_view(lambda g: card_id in [x["id"] for x in g["hand"]] and len(g["hand"]) == before_cards + 1,
                         "the rejected card back with one penalty card")

        # 5. Phone A plays out its hand: リーチ with the second-last card, then the last (4+ kana).
        for _ in range(40):
            g = a.game()
            if g["phase"] == "over":
                break
            n = len(g["hand"])
            found = find_play(g)
            if not found:
                someone_plays(a)
                continue
            play(a, found, reach=(n == 2))
            if n == 2:
                expect(tv.locator(f'.wb-players li[data-seat="{a.seat}"] .reach-tag')).to_be_visible()
                expect(a.page.get_by_test_id("reach")).to_have_count(0)  # already declared
                shot(a.page, "phone-reach")
            if n == 1:
                break
        else:
            raise AssertionError("phone A did not empty its hand")

        expect(tv.get_by_test_id("tv-result")).to_contain_text(a.name)
        for ph in phones:  # the shared headline says who won, once (the game's own line is the TV's)
            expect(ph.page.get_by_test_id("you-result")).to_have_text("あなたの勝ち！" if ph is a else f"{a.name}さんの勝ち")
            expect(ph.page.get_by_test_id("result")).to_have_count(0)
            expect(ph.page.get_by_test_id("word")).to_be_hidden()
        layout += tv_layout_issues(tv, "won") + phone_layout_issues(a.page, "phone won")
        shot(tv, "tv-won")
        shot(a.page, "phone-won")
        assert not problems, problems
        assert not layout, "\n".join(layout)
    finally:
        close_all(tv, *(ph.page for ph in phones))


# --- point out a missing リーチ, and the host overrules a vote (phone in English) ----------------


def test_point_out_reach_and_host_overrule(server, browser, sio_peer):
    """One browser phone (English) and two socket phones: a socket phone drops to one card without
    リーチ, the browser phone's button points it out (one penalty card); then an unknown word is
    challenged from the browser phone and the host's TV overrules the vote: the word stands."""
    srv = server(mode="eventlet", seed=SEED + 1)
    problems: list[str] = []
    tv = browser.new_context(viewport=TV_VIEWPORT).new_page()
    watch(tv, "tv", problems)
    tv.goto(srv.url + "/tv")
    p = Phone(browser, srv.lan_url, "Pat", problems, query="?lang=en")
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
        expect(tv.get_by_test_id("mode-vote")).to_have_class(re.compile(r"\bon\b"))
        # The host gives Pat the easy handicap (2+ kana, 3+ for the last card); Pat's phone shows it.
        # (on the TV each player's handicap is in that player's row of the players list)
        tv.get_by_test_id("roster").locator(f"li[data-seat='{p.seat}']").get_by_test_id(f"hc-{p.seat}").select_option("easy")
        expect(p.page.get_by_test_id("game-options")).to_contain_text("Easy")
        tv.get_by_test_id("opt-vote-seconds").select_option("30")
        expect(tv.get_by_test_id("opt-vote-seconds")).to_have_value("30")
        expect(tv.get_by_test_id(f"hc-{p.seat}")).to_have_value("easy")  # both options kept
        shot(tv, "tv-lobby-options")
        tv.get_by_test_id("start").click()
        expect(p.page.get_by_test_id("hand").locator(".wbcard")).to_have_count(5)
        mine = p.wait_view(lambda g: g["phase"] == "play", "the game")
        me = next(x for x in mine["players"] if x["seat"] == p.seat)
        assert (me["handicap"], me["min"], me["min_last"]) == ("easy", 2, 3)
        assert mine["options"]["vote_seconds"] == 30

        # Pat resets: picks the card to lay on top (number wilds cannot be picked), draws one more.
        p.page.get_by_test_id("reset").tap()
        hand = mine["hand"]
        for c in hand:
            if c["kind"] == "number":
                expect(p.card(c["id"])).to_be_disabled()
        top = next(c for c in hand if c["kind"] != "number")
        p.card(top["id"]).tap()
        expect(p.page.get_by_test_id("hand").locator(".wbcard")).to_have_count(6)
        expect(tv.get_by_test_id("field")).to_contain_text(top.get("kana", "")[:1] if top["kind"] == "kana" else top["row"])
        expect(tv.get_by_test_id("tv-event")).to_contain_text("Pat")

        def view(peer) -> dict:
            return peer.wait_state(lambda s: s.get("game") and s["game"].get("hand") is not None, "a game view")["game"]

        def peer_play(peer, g, found) -> None:
            """Play ``found`` for the field of view ``g``; a field that moved on meanwhile (the
            state had not reached this peer yet) is refused as stale, and the loop tries again."""
            res = peer.act(type="play", field=g["field"]["serial"], card=found[0], word=found[1])
            if not res["ok"]:
                assert res["code"] == "wb_stale_field", res
                return
            peer.wait_state(lambda s: s["game"]["version"] > g["version"], "the play applied")

        # Q plays down to one card, never declaring リーチ (others play when Q has no word).
        for _ in range(30):
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
        assert len(view(q)["hand"]) == 1 and not next(x for x in view(q)["players"] if x["seat"] == q.seat)["reach"]
        button = p.page.get_by_test_id(f"point-out-{q.seat}")
        expect(button).to_contain_text("forgot to call reach")
        expect(tv.get_by_test_id(f"count-{q.seat}").locator("b")).to_have_text("1")
        button.tap()
        expect(tv.get_by_test_id(f"count-{q.seat}").locator("b")).to_have_text("2")
        expect(tv.get_by_test_id("tv-event")).to_contain_text("リーチ")
        expect(button).to_have_count(0)

        # An unknown word from R; the browser phone challenges it; the host overrules: it stands.
        gr = view(r)
        made_up = find_play(gr, not_known=True)
        assert made_up, "no made-up word fits R's hand"
        peer_play(r, gr, made_up)
        expect(chain_top(tv).locator(".q")).to_be_visible()
        p.page.get_by_test_id("challenge").tap()
        expect(tv.get_by_test_id("vote")).to_be_visible()
        expect(p.page.get_by_test_id("vote")).to_contain_text("Accept it?")
        expect(p.page.get_by_test_id("tally-reject")).to_have_text("1")
        shot(p.page, "phone-vote-en")
        tv.get_by_test_id("overrule-accept").click()
        expect(tv.get_by_test_id("vote")).to_have_count(0)
        expect(chain_top(tv)).to_have_class(re.compile(r"\baccepted\b"))
        expect(chain_top(tv).locator(".st.ok")).to_be_visible()
        expect(tv.get_by_test_id("tv-event")).to_contain_text(made_up[1])
        expect(p.page.get_by_test_id("event")).to_contain_text("host's call")

        # Q plays its last card without リーチ: the win waits; Pat points it out in the window.
        for _ in range(30):
            g = view(q)
            if not g["hand"]:
                break
            found = find_play(g)
            if found:
                peer_play(q, g, found)
                continue
            gr = view(r)
            other = find_play(gr)
            assert other, "neither Q nor R has a word"
            peer_play(r, gr, other)
        assert view(q)["pending_win"] and view(q)["pending_win"]["seat"] == q.seat
        expect(tv.get_by_test_id("pending-win")).to_contain_text("きよ")
        expect(tv.get_by_test_id("pending-win").locator(".cd")).to_have_text(re.compile(r"\d"))
        shot(tv, "tv-pending")
        p.page.get_by_test_id(f"point-out-{q.seat}").tap()
        expect(tv.get_by_test_id("pending-win")).to_have_count(0)
        expect(tv.get_by_test_id(f"count-{q.seat}").locator("b")).to_have_text("1")
        expect(tv.get_by_test_id("tv-result")).to_have_count(0)
        assert not problems, problems
    finally:
        close_all(tv, p.page)


# --- the phone's own reading and fit agree with the server's -----------------------------------

_EDGE_WORDS = [
    "あひる", "ルビー", "すきー", "らっこ", "しゅみ", "はっぱ", "しんがっき", "ついか", "つみき", "あいどる",
    "しょー", "ｶﾞｯｺｳ", "ヴァイオリン", "パンダ", "いすゞ", "ばゞ", "コーヒー", "ケーキ", "きって", "ぢゃ",
    "ぱんー", "アメリカ", "しょうとくたいし", "ミ・ラ", "ら　っ　こ", "すき～", "ちぇ", "ゎに", "ヵ所", "ー",
    "", "abc", "新学期", "お茶", "ボール-", "きゃー", "ぴゅー", "ゔぁ", "かゝし", "ヽヾ",
]


def test_phone_reading_and_fit_match_the_server(server, browser):
    """The phone lights up cards from its own copy of the reading rules: for the seed's examples,
    edge cases and a sample of the dictionary, its reading and its verdict for every card equal
    ``lexicon.kana.reading`` and ``WordBasket.fit_error``."""
    import random

    srv = server(mode="eventlet", seed=SEED)
    problems: list[str] = []
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    watch(page, "phone", problems)
    page.goto(srv.lan_url + "/")
    page.wait_for_function("() => PH.games.word_basket && PH.games.word_basket.reading")
    try:
        rng = random.Random(7)
        japanese.load()
        sample = rng.sample(sorted(japanese._readings), 1500)
        words = _EDGE_WORDS + sample
        js = page.evaluate("(ws) => ws.map((w) => PH.games.word_basket.reading(w))", words)
        for word, got in zip(words, js):
            try:
                r = kana.reading(word)
            except kana.ReadingError as error:
                assert got.get("error") == error.code, (word, got, error.code)
                continue
            assert not got.get("error"), (word, got)
            assert (got["kana"], got["length"], got["first"], got["last"], got["endsN"]) == tuple(r), (word, got, r)

        # Fit: random fields, hands, handicaps and previous words, against the game's own check.
        rows = {k: v for k, v in kana.ROWS.items() if k != "わ"}
        cases = []
        for word in sample[:600]:
            r = kana.reading(word)
            hand = rng.sample(range(60), rng.choice([1, 2, 5]))
            kind = rng.random()
            start = kana.plain(r.first) if rng.random() < 0.6 else rng.choice("あかさたなはまやら")
            field = ({"kana": start, "row": None} if kind < 0.7 else
                     {"kana": None, "row": kana.row_of(start) or "あ"} if kind < 0.9 else {"kana": None, "row": None})
            if field["row"] not in (None, *rows):
                field["row"] = "あ"
            handicap = rng.choice(["easy", "normal", "hard"])
            last_word = r.kana if rng.random() < 0.1 else None
            g = WordBasket()
            g.hands, g.handicaps = {"me": hand}, {"me": handicap}
            g.last_word = {"me": last_word} if last_word else {}
            lo, lo_last = g.minimums("me")
            expected = []
            for cid in hand:
                err = g.fit_error("me", cid, r, field)
                expected.append(None if err is None else err.code)
            cases.append({"word": word, "hand": [_card(cid) for cid in hand], "field": field, "rows": rows,
                          "last_word": last_word, "me": {"min": lo, "min_last": lo_last}, "expected": expected})
        got = page.evaluate(
            """(cases) => cases.map((c) => { const wb = PH.games.word_basket, r = wb.reading(c.word);
                 const g = {rows: c.rows, last_word: c.last_word};
                 return c.hand.map((card) => { const e = wb.fitError(g, c.me, c.hand, card, r, c.field); return e ? "wb_" + e.code : null; }); })""",
            cases,
        )
        for case, verdicts in zip(cases, got):
            assert verdicts == case["expected"], (case["word"], case["field"], case["hand"], verdicts, case["expected"])
        seen = {v for case in cases for v in case["expected"]}
        assert None in seen and len(seen) >= 8, seen  # the sample exercises fits and most refusals
        assert not problems, problems
    finally:
        ctx.close()


def _card(card_id: int) -> dict:
    from partyhost.games.word_basket import CARDS

    return dict(CARDS[card_id])
