"""Browser end-to-end for Diabolo: the real server, the laptop's TV page and three phones in
Debian's Chromium play one seeded round to its score.

The dealer's phone starts and pauses the turning and turns cards by hand; one phone types a word
(and the page shows which cards it will take before sending), one spells a word by tapping cards
(jokers ask for their letter), one claims a word the list does not know, the others vote it down
and each picks a card; then the deck runs out, everyone passes and every page shows the scores.
Screenshots go to docs/screenshots/diabolo-*.png with ``PARTYHOST_SHOTS=docs``.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page, expect

from partyhost.games.diabolo import best_assignment, deck_table, possible_words
from partyhost.lexicon import latin

from .test_e2e_mind import Phone, close_all, menu_click, open_tv, shot

pytestmark = [pytest.mark.e2e, pytest.mark.server]

DECK = deck_table("de")


def row_ids(page: Page, testid: str) -> list[int]:
    return [int(x) for x in page.get_by_test_id(testid).locator("[data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)")]


def tv_count(tv: Page, seat: str) -> int:
    return int(tv.get_by_test_id(f"count-{seat}").inner_text())


class Round:
    """Drives the round through the pages and keeps the score the test expects."""

    def __init__(self, tv: Page, phones: list[Phone]) -> None:
        self.tv = tv
        self.phones = phones
        self.dealer = phones[0]
        self.score = {f"s{i + 1}": 0 for i in range(len(phones))}
        self.last_tap = 0.0

    def table(self) -> list[dict]:
        return [DECK[i] for i in row_ids(self.tv, "tv-row")]

    def deck_left(self) -> int:
        text = self.tv.get_by_test_id("tv-deck").inner_text()
        m = re.search(r"\d+", text)
        return int(m.group()) if m else 0

    def turn(self, count: int) -> None:
        page = self.dealer.page
        for _ in range(count):
            before = self.deck_left()
            if before == 0:
                return
            # the phone counts taps closer than 300 ms as one double tap (one card): tap at a
            # finger's pace
            wait = self.last_tap + 0.32 - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            page.get_by_test_id("turn").tap()
            self.last_tap = time.monotonic()
            expect(self.tv.get_by_test_id("tv-deck")).not_to_contain_text(f" {before}")
            expect(page.get_by_test_id("row").locator("[data-card]")).to_have_count(len(self.table()))

    def find_word(self, want_joker: bool | None = None) -> tuple[str, list[dict]] | None:
        cards = self.table()
        for word in possible_words(cards, "de", limit=40, scan=200_000):
            plan = best_assignment(word, cards)
            if plan and len(plan) >= 3 and (want_joker is None or any(c["joker"] for c in plan) == want_joker):
                return word, plan
        return None

    def turn_until_word(self, want_joker: bool | None = None) -> tuple[str, list[dict]]:
        found = self.find_word(want_joker)
        while found is None and self.deck_left():
            self.turn(1)
            found = self.find_word(want_joker)
        assert found, "no word on a full table"
        return found

    def expect_counts(self) -> None:
        for seat, n in self.score.items():
            expect(self.tv.get_by_test_id(f"count-{seat}")).to_have_text(str(n))


def test_a_seeded_round_with_a_tv_and_three_phones(server, browser, pw):
    srv = server(mode="eventlet", seed=404)
    problems: list[str] = []
    tv = open_tv(browser, srv, problems)
    names = ["あき", "Ben", "Chloé"]
    phones = [Phone(browser, pw, srv.lan_url, n, problems) for n in names]
    try:
        for ph in phones:
            ph.join()
        tv.locator("[data-choose=diabolo]").click()
        expect(tv.get_by_test_id("dia-options")).to_be_visible()
        # the lobby options: a 2-second tempo, saved from the TV and shown on the phones
        tv.get_by_test_id("opt-interval").fill("2")
        tv.get_by_test_id("opt-interval").dispatch_event("change")
        expect(phones[1].page.locator(".dia-opts-ro")).to_contain_text("2")
        shot(tv, "diabolo-tv-lobby.png")
        tv.get_by_test_id("start").click()

        game = Round(tv, phones)
        a, b, c = (ph.page for ph in phones)
        expect(tv.get_by_test_id("tv-round")).to_have_text(re.compile(r"1 / 6"))
        expect(a.get_by_test_id("dealer")).to_be_visible()
        expect(b.get_by_test_id("dealer")).to_have_count(0)  # only the dealer sets the tempo

        # the dealer's tempo: start the turning, let two cards come, pause, then turn by hand
        a.get_by_test_id("auto").tap()
        expect(tv.get_by_test_id("tv-row").locator(".dcard")).to_have_count(2, timeout=8_000)
        a.get_by_test_id("auto").tap()
        expect(tv.get_by_test_id("tv-tempo")).to_have_text(re.compile("停止|paused"))
        game.turn(8)
        # the host (the TV) can stand in for the dealer's phone
        before = game.deck_left()
        tv.get_by_test_id("tv-turn").click()
        expect(tv.get_by_test_id("tv-deck")).to_contain_text(str(before - 1))
        shot(a, "diabolo-phone-dealer.png")

        # Ben types a word: the phone shows the cards it will take before sending
        word, plan = game.turn_until_word()
        b.get_by_test_id("word").fill(word.lower())
        expect(b.get_by_test_id("preview")).to_contain_text(str(len(plan)))
        expect(b.get_by_test_id("row").locator(".dcard.sel")).to_have_count(len(plan))
        assert sorted(row_ids(b, "row")) == sorted(row_ids(tv, "tv-row"))
        shot(b, "diabolo-phone-typed.png")
        b.get_by_test_id("send").tap()
        game.score["s2"] += len(plan)
        expect(tv.get_by_test_id("tv-claim")).to_contain_text(word)
        game.expect_counts()
        expect(b.get_by_test_id("word")).to_have_value("")
        shot(tv, "diabolo-tv-claim.png")
        # a claim for the same cards that arrives later is refused, and the phone says why
        late = {"type": "claim", "round": 1, "word": word,
                "cards": [{"id": x["id"], **({"as": x["as"]} if x["joker"] else {})} for x in plan]}
        result = c.evaluate("a => PH.act(a)", late)
        assert result["ok"] is False and result["code"] == "card_taken", result
        expect(c.locator("#toast")).to_contain_text("取られて")
        game.expect_counts()

        # Chloé spells by tapping, a joker asking for its letter when the row has one
        game.turn(4)
        word, plan = game.turn_until_word(want_joker=True if game.find_word(True) else None)
        for card in plan:
            c.locator(f".dia-row [data-card='{card['id']}']").tap()
            if card["joker"]:
                expect(c.get_by_test_id("joker-picker")).to_be_visible()
                shot(c, "diabolo-phone-joker.png")
                for letter in card["as"]:
                    c.get_by_test_id("joker-picker").locator(f"[data-letter={letter}]").tap()
        expect(c.get_by_test_id("preview")).to_contain_text(word)
        c.get_by_test_id("send").tap()
        game.score["s3"] += len(plan)
        expect(tv.get_by_test_id("tv-claim")).to_contain_text(word)
        game.expect_counts()

        # あき (the dealer plays too) claims letters that are no word: the table votes it down
        game.turn(6)
        singles = [card for card in game.table() if not card["joker"] and len(card["face"]) == 1]
        nonword = None
        for i in range(len(singles)):
            trio = singles[i:i + 3]
            if len(trio) == 3 and not latin.is_known("".join(x["face"] for x in trio), "de"):
                nonword = trio
                break
        assert nonword, singles
        for card in nonword:
            a.locator(f".dia-row [data-card='{card['id']}']").tap()
        a.get_by_test_id("send").tap()
        expect(tv.get_by_test_id("vote")).to_be_visible()
        expect(tv.get_by_test_id("tv-row").locator(".dcard.lifted")).to_have_count(3)
        expect(a.get_by_test_id("ballot-accept")).to_have_count(0)  # no vote on one's own word
        expect(tv.get_by_test_id("overrule-reject")).to_be_visible()  # the TV is the host
        shot(tv, "diabolo-tv-vote.png")
        shot(b, "diabolo-phone-vote.png")
        # a ballot names the vote it was drawn for, and both buttons are off until the answer:
        # b's answer is held back here, so a second tap cannot send again
        vote_id = b.evaluate("() => PH.last.game.vote.id")
        b.evaluate("""() => { window.__sent = []; window.__act = PH.act;
            PH.act = (a) => { window.__sent.push(a); return new Promise(() => {}); }; }""")
        b.get_by_test_id("ballot-reject").tap()
        expect(b.get_by_test_id("ballot-reject")).to_be_disabled()
        expect(b.get_by_test_id("ballot-accept")).to_be_disabled()
        b.get_by_test_id("ballot-accept").tap(force=True)
        assert b.evaluate("() => window.__sent") == [{"type": "vote", "vote": vote_id, "ballot": "reject"}]
        b.evaluate("() => { PH.act = window.__act; return PH.act(window.__sent[0]); }")
        c.get_by_test_id("ballot-reject").tap()
        expect(b.get_by_test_id("pick-prompt")).to_be_visible()
        expect(a.get_by_test_id("pick-prompt")).to_have_count(0)
        shot(b, "diabolo-phone-pick.png")
        for page, seat in ((b, "s2"), (c, "s3")):
            first = row_ids(page, "row")[0]
            page.locator(f".dia-row [data-card='{first}']").tap()
            expect(page.get_by_test_id("pick-prompt")).to_have_count(0)
            game.score[seat] += 1
        game.expect_counts()

        # the deck runs out; everyone passes; every page shows the round's score
        while game.deck_left():
            game.turn(1)
        expect(tv.get_by_test_id("ends-in")).to_be_visible()
        shot(tv, "diabolo-tv-deck-out.png")
        # the whole row fits the 1280x720 TV, clear of the QR corner, with readable letters
        boxes = tv.get_by_test_id("tv-row").locator(".dcard").evaluate_all(
            "els => els.map(e => { const r = e.getBoundingClientRect();"
            " return [r.left, r.top, r.right, r.bottom, parseFloat(getComputedStyle(e).fontSize)]; })")
        corner = tv.locator(".corner").evaluate("e => e.getBoundingClientRect().left")
        assert len(boxes) == len(game.table()) > 20
        for left, top, right, bottom, size in boxes:
            assert 0 <= left and right <= corner and 0 <= top and bottom <= 720, (left, top, right, bottom)
            assert size >= 24, size
        shot(a, "diabolo-phone-deck-out.png")
        for page in (a, b, c):
            page.get_by_test_id("pass").tap()
        expect(tv.get_by_test_id("round-end")).to_be_visible()
        for seat, n in game.score.items():
            expect(tv.get_by_test_id(f"total-{seat}")).to_have_text(str(n))
            for page in (a, b, c):
                expect(page.get_by_test_id(f"total-{seat}")).to_have_text(str(n))
        expect(tv.get_by_test_id("possible")).to_be_visible()
        expect(b.get_by_test_id("deal")).to_be_visible()  # Ben deals round 2
        expect(a.get_by_test_id("deal")).to_have_count(0)
        shot(tv, "diabolo-tv-round-end.png")
        shot(b, "diabolo-phone-round-end.png")
        b.get_by_test_id("deal").tap()
        expect(tv.get_by_test_id("tv-round")).to_have_text(re.compile(r"2 / 6"))
        expect(b.get_by_test_id("dealer")).to_be_visible()
        # English pages: Ben deals round 2, the TV and his phone switch language
        game.dealer = phones[1]
        game.turn(3)  # three taps at a finger's pace (a double tap would turn one)
        expect(tv.get_by_test_id("tv-row").locator(".dcard")).to_have_count(3)
        menu_click(tv, ".lang-switch")
        b.locator(".lang-switch").first.tap()
        expect(tv.get_by_test_id("tv-round")).to_have_text("Round 2 / 6")
        expect(b.get_by_test_id("round")).to_have_text("Round 2 / 6")
        shot(tv, "diabolo-tv-en.png")
        shot(b, "diabolo-phone-en.png")
        assert not problems, problems
    finally:
        close_all(tv, *(ph.page for ph in phones))


def test_the_phone_spells_and_folds_as_the_server_does(server, browser):
    """The phone's search for a typed word (diabolo.js) picks the same cards as the server's
    ``best_assignment``, and folds spelling the same way, on many random rows and words."""
    import random

    srv = server(mode="threading", seed=9)
    page = browser.new_context().new_page()
    try:
        page.goto(srv.url + "/tv")
        page.wait_for_function("() => typeof PH !== 'undefined' && !!PH.games.diabolo")
        rng = random.Random(5)
        words = sorted(latin.words("de"))
        cases = []
        for _ in range(300):
            cards = rng.sample(list(DECK), rng.randint(3, 24))
            word = rng.choice(words) if rng.random() < 0.7 else "".join(
                rng.choice(c["face"] if not c["joker"] else "XY"[: c["joker"]]) for c in rng.sample(cards, 3))
            cases.append({"word": word, "cards": cards})
        got = page.evaluate("cases => cases.map(c => PH.games.diabolo.bestAssignment(c.word, c.cards))", cases)
        for case, js in zip(cases, got):
            assert js == best_assignment(case["word"], case["cards"]), case
        assert sum(1 for g in got if g) > 50  # the cases do exercise real spellings
        samples = ["Häuser", "straße", "STRAẞE", "Ölfässer", "Ü", "a\u0308rger", "  hang  ", "z.B.",
                   "ｈａｎｇ", "ＨÄＵＳＥＲ", "ｓｔｒａßｅ", "ｈａ\u3000ｎｇ"]
        js_folds = page.evaluate("ws => ws.map(w => PH.games.diabolo.fold(w, 'de'))", samples)
        assert js_folds == [latin.fold(w, "de") for w in samples]
        js_en = page.evaluate("ws => ws.map(w => PH.games.diabolo.fold(w, 'en'))", samples)
        assert js_en == [latin.fold(w, "en") for w in samples]
    finally:
        page.context.close()
