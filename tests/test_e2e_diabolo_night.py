"""Browser checks from a game night of Diabolo (Japanese players, German cards, some in English):
things that went wrong when people played it, each kept here so it stays fixed.

* A joker's letter picker follows a language switch (it stayed Japanese on an English phone).
* The next dealer's phone is gone at the scores: the TV says who deals next and its host button
  deals the round for them (nobody could go on before).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .test_e2e_mind import Phone, close_all, open_tv, shot

pytestmark = [pytest.mark.e2e, pytest.mark.server]


def test_joker_picker_language_and_the_host_deals_for_a_gone_dealer(server, browser, pw):
    srv = server(mode="eventlet", seed=31)
    problems: list[str] = []
    tv = open_tv(browser, srv, problems)
    phones = [Phone(browser, pw, srv.lan_url, n, problems) for n in ("あき", "ゆうた")]
    try:
        for ph in phones:
            ph.join()
        tv.locator("[data-choose=diabolo]").click()
        expect(tv.get_by_test_id("dia-options")).to_be_visible()
        tv.locator("[data-opt=end_seconds]").fill("5")
        tv.locator("[data-opt=end_seconds]").dispatch_event("change")
        expect(phones[1].page.locator(".dia-opts-ro")).to_be_visible()
        tv.get_by_test_id("start").click()
        a, b = (ph.page for ph in phones)
        expect(a.get_by_test_id("dealer")).to_be_visible()  # あき (s1) deals round 1

        # the dealer turns until a joker lies face up; ゆうた taps it: the picker asks in Japanese
        joker = b.get_by_test_id("row").locator("button.joker").first
        for _ in range(66):
            if joker.count():
                break
            turned = a.evaluate("PH.last.game.turned")
            a.wait_for_timeout(320)  # a finger's pace: taps within 300 ms count as one double tap
            a.get_by_test_id("turn").tap()
            expect(a.get_by_test_id("row").locator("[data-card]")).to_have_count(turned + 1)
        joker.tap()
        picker = b.get_by_test_id("joker-picker")
        expect(picker).to_contain_text("ジョーカー")
        # ゆうた switches the phone to English while the picker is open: it follows
        b.locator(".lang-switch").first.tap()
        expect(b.get_by_test_id("send")).to_have_text("Claim!")
        expect(picker.locator("p")).to_contain_text(re.compile("joker", re.I))
        expect(picker.get_by_test_id("joker-cancel")).to_have_text(re.compile("Cancel", re.I))
        shot(b, "diabolo-night-joker-en.png")
        picker.get_by_test_id("joker-cancel").tap()

        # the deck runs out, both pass: ゆうた deals next, but the phone is gone
        while a.evaluate("PH.last.game.deck_left"):
            a.evaluate("() => { const g = PH.last.game; return PH.act({type: 'turn', round: g.round, turned: g.turned}); }")
        expect(a.get_by_test_id("pass")).to_be_visible()
        a.get_by_test_id("pass").tap()
        b.get_by_test_id("pass").tap()
        expect(tv.get_by_test_id("round-end")).to_be_visible()
        b.context.close()
        expect(tv.get_by_test_id("tv-next-dealer")).to_contain_text("ゆうた")
        expect(a.get_by_test_id("deal")).to_have_count(0)  # not あき's turn to deal
        shot(tv, "diabolo-night-tv-next-dealer.png")
        tv.get_by_test_id("tv-deal").click()
        expect(tv.get_by_test_id("tv-round")).to_have_text(re.compile(r"2 / 4"))
        expect(tv.get_by_test_id("tv-deck")).to_contain_text("66")
        expect(a.get_by_test_id("round")).to_have_text(re.compile(r"2 / 4"))
        assert not [p for p in problems if "ゆうた" not in p], problems
    finally:
        close_all(tv, a)


def _two_claims(cards: list[dict]) -> tuple[list, list] | None:
    """Two known words on disjoint cards that take the same number of cards, as claim cards."""
    from partyhost.games.diabolo import best_assignment, possible_words

    for first in possible_words(cards, "de", limit=40, scan=200_000):
        plan1 = best_assignment(first, cards)
        rest = [c for c in cards if c["id"] not in {x["id"] for x in plan1}]
        for second in possible_words(rest, "de", limit=40, scan=200_000):
            plan2 = best_assignment(second, rest)
            if len(plan2) == len(plan1):
                as_cards = lambda plan: [{"id": c["id"], **({"as": c["as"]} if c["joker"] else {})} for c in plan]  # noqa: E731
                return (first, as_cards(plan1)), (second, as_cards(plan2))
    return None


def test_the_final_table_of_six_players_fits_the_tv(server, browser, sio_peer):
    """Six players with long names play for victory tiles; two tie for the win. The TV's final
    panel (winners, tile line, score table, still-possible words) stays inside 1280x720, clear of
    the status line and the QR corner (it was cut off at the top and bottom)."""
    from partyhost.games.diabolo import deck_table

    deck = deck_table("de")
    srv = server(mode="eventlet", seed=12)
    problems: list[str] = []
    tv = open_tv(browser, srv, problems)
    names = ["たかはしまさひろ", "Benjamin-Alexand", "さくらこ", "Maximilian Klein", "りん", "ゆうたろう"]
    phones = []
    for i, name in enumerate(names):
        ph = sio_peer(srv.url, {"role": "phone", "token": None, "lang": "ja"}, f"p{i}")
        assert ph.send("join", {"name": name})["ok"]
        phones.append(ph)
    host = sio_peer(srv.url, {"role": "tv", "lang": "ja"}, "host")
    try:
        assert host.send("host", {"op": "choose", "game": "diabolo",
                                  "options": {"victory_tiles": True, "tile_handicap": 0, "end_seconds": 120}})["ok"]
        assert host.send("host", {"op": "start"})["ok"]
        for rnd in (1, 2):
            dealer = phones[rnd - 1]
            game = dealer.wait_state(lambda s: s["game"] and s["game"]["round"] == rnd
                                     and s["game"]["phase"] == "turning", f"round {rnd}")["game"]
            while game["deck_left"]:
                turned = game["turned"]
                assert dealer.act(type="turn", round=rnd, turned=turned)["ok"]
                game = dealer.wait_state(lambda s: s["game"]["turned"] == turned + 1, "a card turned")["game"]
            pair = _two_claims([deck[c["id"]] for c in game["table"]])
            assert pair, "no two words on a full table"
            for ph, (word, cards) in zip(phones[:2], pair):
                result = ph.act(type="claim", round=rnd, word=word, cards=cards)
                assert result["ok"], result
            for ph in phones:
                ph.act(type="pass", round=rnd)
            state = host.wait_state(lambda s: s["game"]["phase"] in ("scored", "over"), "the round's end")
            assert state["game"]["results"][-1]["tiles"] == ["s1", "s2"], state["game"]["results"]
            if rnd == 1:
                assert phones[1].act(type="deal", round=2)["ok"]
        assert host.state["game"]["phase"] == "over" and host.state["game"]["winners"] == ["s1", "s2"]
        expect(tv.get_by_test_id("winner")).to_contain_text("Benjamin")
        expect(tv.get_by_test_id("possible").locator("b")).not_to_have_count(0)
        shot(tv, "diabolo-night-tv-final-six.png")
        status = tv.locator(".dia-status.tv").evaluate("e => e.getBoundingClientRect().bottom")
        corner = tv.locator(".corner").evaluate("e => e.getBoundingClientRect().left")
        for part in ("winner", "scores", "possible"):
            box = tv.get_by_test_id(part).evaluate(
                "e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }")
            left, top, right, bottom = box
            assert top >= status and bottom <= 720 and left >= 0 and right <= corner, (part, box, status, corner)
        assert not problems, problems
    finally:
        close_all(tv)


def test_a_double_tap_on_turn_a_card_turns_one(server, browser, pw):
    """A dealer's finger double-taps 1枚めくる (two taps ~80 ms apart, each sent after the state of
    the first came back): one card turns, not two (§2: one card at a time)."""
    srv = server(mode="eventlet", seed=4)
    problems: list[str] = []
    tv = open_tv(browser, srv, problems)
    phones = [Phone(browser, pw, srv.lan_url, n, problems) for n in ("あき", "ゆうた")]
    try:
        for ph in phones:
            ph.join()
        tv.locator("[data-choose=diabolo]").click()
        tv.get_by_test_id("start").click()
        a = phones[0].page
        turn = a.get_by_test_id("turn")
        expect(turn).to_be_visible()
        for taps in range(1, 4):
            # the second tap comes as soon as the first card's state is back (so the turned-count
            # guard alone would let it through), within a double tap's 300 ms
            a.evaluate("""async () => {
                const t0 = PH.last.game.turned, start = Date.now();
                document.querySelector("[data-testid=turn]").click();
                while (PH.last.game.turned === t0 && Date.now() - start < 250) await new Promise((r) => setTimeout(r, 5));
                document.querySelector("[data-testid=turn]").click();
            }""")
            expect(tv.get_by_test_id("tv-row").locator(".dcard")).to_have_count(taps)
            a.wait_for_timeout(600)
            expect(tv.get_by_test_id("tv-row").locator(".dcard")).to_have_count(taps)
            a.wait_for_timeout(400)  # a deliberate next tap, later, turns the next card
        assert not problems, problems
    finally:
        close_all(tv, *(ph.page for ph in phones))
