"""Word Basket in the browser at a real game night: what careless and new players ran into.

A real server, the laptop's TV page, browser phones (390×844) and Socket.IO phones. Each test pins a
problem found by playing: a cancelled reset that left the hand in "pick the top card" mode, a long
word under a table vote that squashed the TV's field card, cards lit up as playable while play
was stopped, and the spectator's word list.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from partyhost.games import registry

from .test_e2e_word_basket import TV_VIEWPORT, Phone, close_all, find_play, watch

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.server,
    pytest.mark.skipif("word_basket" not in registry.GAMES, reason="Word Basket is not registered yet"),
]

expect.set_options(timeout=6_000)

#: the hint that invites a play: tap the lit card, or (one card fits) Enter plays it
PLAY_NOW = re.compile("タップして出す|Enterでも出せます")


def _socket_phone(sio_peer, srv, name: str):
    peer = sio_peer(srv.url, {"role": "phone", "token": None, "lang": "ja"}, name)
    assert peer.send("join", {"name": name})["ok"]
    peer.seat = peer.wait(lambda: next((w["seat"] for w in peer.welcomes if w.get("token")), None), "seat")
    return peer


def _view(peer) -> dict:
    return peer.wait_state(lambda s: s.get("game") and s["game"].get("hand") is not None, "a game view")["game"]


def challenge_a_made_up_word(b, c) -> str:
    """One of two socket phones plays a made-up word that fits its hand, the other challenges it:
    the table votes. Returns the word."""
    made_up = None
    for peer in (b, c):
        g = _view(peer)
        made_up = find_play(g, not_known=True)
        if made_up:
            assert peer.act(type="play", field=g["field"]["serial"], card=made_up[0], word=made_up[1])["ok"]
            break
    assert made_up, "no made-up word fits"
    other = c if peer is b else b
    g = other.wait_state(lambda s: s["game"]["challengeable"], "the word to challenge")["game"]
    assert other.act(type="challenge", field=g["challengeable"]["field"])["ok"]
    return made_up[1]


def _long_unknown_play(g: dict, length: int = 30):
    """(card id, word) of a made-up word of ``length`` kana that fits a kana or row card of this hand."""
    f = g["field"]
    first = f["kana"] or (g["rows"][f["row"]][0] if f["row"] else "あ")
    for c in g["hand"]:
        if c["kind"] == "number":
            continue
        word = first + "ぬぽ" * ((length - 2) // 2) + "ぬ" * (length % 2) + c["kana"][0]
        return c["id"], word
    return None


def _start(tv, phone_pages=(), coach=True):
    tv.locator("[data-choose=word_basket]").click()
    expect(tv.get_by_test_id("mode-vote")).to_have_class(re.compile(r"\bon\b"))
    if not coach:  # the game's own layout, without the first-round coach's strip (test_e2e_coach.py)
        tv.get_by_test_id("coach-switch").click()
        expect(tv.get_by_test_id("coach-switch")).to_have_attribute("aria-pressed", "false")
    tv.get_by_test_id("start").click()
    for page in phone_pages:
        expect(page.get_by_test_id("hand").locator(".wbcard").first).to_be_visible()


def test_a_cancelled_reset_gives_the_hand_back_for_playing(server, browser, sio_peer):
    """Tap リセット, then キャンセル: the hand must be the playing hand again. It stayed in 'pick the top
    card' mode (the prompt and the pick buttons), and the next tap on a card reset the whole hand."""
    srv = server(mode="eventlet", seed=5)
    problems: list[str] = []
    tv = browser.new_context(viewport=TV_VIEWPORT).new_page()
    watch(tv, "tv", problems)
    tv.goto(srv.url + "/tv")
    a = Phone(browser, srv.lan_url, "あき", problems)
    try:
        a.join()
        ben = _socket_phone(sio_peer, srv, "Ben")
        _start(tv, [a.page])
        g = a.game()
        a.page.get_by_test_id("reset").tap()
        expect(a.page.locator("[data-top]").first).to_be_visible()
        expect(a.page.locator(".reset-ask")).to_be_visible()
        a.page.get_by_test_id("reset-cancel").tap()
        expect(a.page.get_by_test_id("reset")).to_be_visible()
        expect(a.page.locator(".reset-ask")).to_have_count(0)
        expect(a.page.locator("[data-top]")).to_have_count(0)
        expect(a.page.locator("[data-card]")).to_have_count(len(g["hand"]))
        # a card tapped now (no word typed) does nothing: no reset, the same five cards
        a.page.locator("[data-card]").first.dispatch_event("click")
        a.page.wait_for_timeout(300)
        after = a.game()
        assert [e["kind"] for e in after["events"]] == ["start"], after["events"]
        assert [c["id"] for c in after["hand"]] == [c["id"] for c in g["hand"]]
        # and a word still lights up and plays its card
        found = find_play(after)
        if found:
            a.type_word(found[1])
            expect(a.card(found[0])).to_have_class(re.compile(r"\bfit\b"))
            a.card(found[0]).tap()
            a.wait_view(lambda v: found[0] not in [c["id"] for c in v["hand"]], "the card played")
        # Reset again; while あき picks the top card, Ben's card comes in: the pick still resets
        # (for the field as it is now, not the one the pick buttons were drawn for).
        g = a.game()
        a.page.get_by_test_id("reset").tap()
        expect(a.page.locator("[data-top]").first).to_be_visible()
        gb = _view(ben)
        other = find_play(gb)
        if other:
            assert ben.act(type="play", field=gb["field"]["serial"], card=other[0], word=other[1])["ok"]
            a.wait_view(lambda v: v["field"]["serial"] > g["field"]["serial"], "Ben's card on the phone")
        top = next(c for c in g["hand"] if c["kind"] != "number")
        a.page.locator(f"[data-top='{top['id']}']").tap()
        after = a.wait_view(lambda v: len(v["hand"]) == len(g["hand"]) + 1, "the reset's draw")
        assert after["events"][-1]["kind"] == "reset" and after["field"]["card"]["id"] == top["id"]
        assert not problems, problems
    finally:
        close_all(tv, a.page)


# names as long as a phone lets one type (16 characters)
LONG_NAMES = ["たかはしけんたろう", "Alexandria Montg", "さいとうあすか", "ジョナサン・リヴィングストン"[:16], "ひろし",
              "Mississippi-Burn", "わたなべみなみ", "やまもとさくら"]


def test_a_long_word_under_a_vote_leaves_the_tv_field_card_readable(server, browser, sio_peer):
    """Eight players with long names; someone plays a made-up word of 30 kana (the longest allowed)
    and another challenges it. The vote box grew to three lines of huge kana and squashed the field
    card to a pill a few letters high: the table could no longer see the field."""
    srv = server(mode="eventlet", seed=3)
    problems: list[str] = []
    tv = browser.new_context(viewport=TV_VIEWPORT).new_page()
    watch(tv, "tv", problems)
    tv.goto(srv.url + "/tv")
    try:
        peers = [_socket_phone(sio_peer, srv, name) for name in LONG_NAMES]
        _start(tv, coach=False)
        normal = tv.get_by_test_id("field").bounding_box()
        assert normal and normal["height"] > 300, normal
        for peer in peers:
            g = _view(peer)
            long_play = _long_unknown_play(g)
            if long_play:
                assert peer.act(type="play", field=g["field"]["serial"], card=long_play[0], word=long_play[1])["ok"]
                break
        challenger = next(p for p in peers if p is not peer)
        g = challenger.wait_state(lambda s: s["game"]["challengeable"], "the word to challenge")["game"]
        assert challenger.act(type="challenge", field=g["challengeable"]["field"])["ok"]
        expect(tv.get_by_test_id("vote-word")).to_have_text(long_play[1])
        box = tv.get_by_test_id("field").bounding_box()
        assert box["height"] >= 0.6 * normal["height"], (box, normal)
        letter = tv.get_by_test_id("field").locator(".k").bounding_box()
        assert letter["height"] >= 80, letter  # it was a pill ~35 px high
        lines = tv.get_by_test_id("vote-word").evaluate(
            "(el) => Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight || 1))")
        assert lines <= 2, lines
        assert not problems, problems
    finally:
        close_all(tv)


def test_while_play_is_stopped_the_phone_does_not_say_tap_the_card(server, browser, sio_peer):
    """During a table vote a player types their next word. The phone lit the card up and said
    'tap the glowing card to play', but the card was disabled: a tap did nothing and nothing said
    why. It must say that cards wait for the vote, then let the card be played once it is over."""
    srv = server(mode="eventlet", seed=11)
    problems: list[str] = []
    tv = browser.new_context(viewport=TV_VIEWPORT).new_page()
    watch(tv, "tv", problems)
    tv.goto(srv.url + "/tv")
    a = Phone(browser, srv.lan_url, "あき", problems)
    try:
        a.join()
        b, c = _socket_phone(sio_peer, srv, "Ben"), _socket_phone(sio_peer, srv, "ちひろ")
        _start(tv, [a.page])
        challenge_a_made_up_word(b, c)
        expect(a.page.get_by_test_id("vote")).to_be_visible()
        found = find_play(a.game())
        assert found, "no word for あき's hand"
        a.type_word(found[1])
        hint = a.page.get_by_test_id("fit-hint")
        expect(hint).to_contain_text("投票が終わるまで")
        expect(hint).not_to_contain_text(PLAY_NOW)
        expect(a.card(found[0])).to_be_disabled()
        a.page.get_by_test_id("ballot-accept").tap()
        # the word's player votes too (RULES.md "Words"): 2 accept, 1 reject, play goes on
        vote = _view(b)["vote"]
        owner = b if b.state["me"]["seat"] == vote["seat"] else c
        assert owner.act(type="vote", vote=vote["id"], ballot="accept")["ok"]
        expect(a.page.get_by_test_id("vote")).to_have_count(0)
        expect(hint).to_contain_text(PLAY_NOW)  # "tap to play", or with one card fitting "Enter plays it"
        expect(a.card(found[0])).to_be_enabled()
        assert not problems, problems
    finally:
        close_all(tv, a.page)


def test_a_late_arrival_watching_on_the_phone_sees_a_readable_word_list(server, browser, sio_peer):
    """Someone who arrives mid-game watches on the phone. The word list used the TV's markup with
    no phone styling: 'ねいし し Ben' ran together on one line, the card's kana looking like part of
    the word. Each word must be its own row, with the card apart from the word."""
    srv = server(mode="eventlet", seed=21)
    problems: list[str] = []
    tv = browser.new_context(viewport=TV_VIEWPORT).new_page()
    watch(tv, "tv", problems)
    tv.goto(srv.url + "/tv")
    try:
        b, c = _socket_phone(sio_peer, srv, "Ben"), _socket_phone(sio_peer, srv, "ちひろ")
        _start(tv)
        played = 0
        for peer in (b, c, b, c):
            g = _view(peer)
            found = find_play(g)
            if found and peer.act(type="play", field=g["field"]["serial"], card=found[0], word=found[1])["ok"]:
                played += 1
                peer.wait_state(lambda s, v=g["version"]: s["game"]["version"] > v, "the play applied")
        late = Phone(browser, srv.lan_url, "おそい", problems)
        late.page.get_by_test_id("name").fill("おそい")
        late.page.get_by_test_id("join").tap()
        expect(late.page.locator(".wb.spectating")).to_be_visible()
        # the words as this phone knows them (a play a moment late for a field is bounced, not chained)
        played = min(6, late.page.evaluate("PH.last.game.chain.length"))
        assert played >= 2
        rows = late.page.locator(".wb.spectating .wb-chain li")
        expect(rows).to_have_count(played)
        boxes = [rows.nth(i).bounding_box() for i in range(played)]
        assert all(boxes[i]["y"] + boxes[i]["height"] <= boxes[i + 1]["y"] + 1 for i in range(played - 1)), boxes
        for i in range(played):
            word, label = rows.nth(i).locator(".w").bounding_box(), rows.nth(i).locator(".lbl").bounding_box()
            assert label["x"] >= word["x"] + word["width"] + 8, (word, label)  # apart, not run together
        assert late.page.evaluate("document.scrollingElement.scrollWidth - innerWidth") <= 0
        assert not problems, problems
    finally:
        close_all(tv)


def _play_to_a_win(winner, helper) -> None:
    """Socket phone ``winner`` plays its hand out (リーチ with its second-last card); ``helper``
    plays when ``winner`` has no word. Dictionary words only, so the win is at once."""
    for _ in range(60):
        g = _view(winner)
        if g["phase"] == "over":
            return
        for peer in (winner, helper):
            g = _view(peer)
            found = find_play(g)
            if not found:
                continue
            extra = {"reach": True} if peer is winner and len(g["hand"]) == 2 else {}
            res = peer.act(type="play", field=g["field"]["serial"], card=found[0], word=found[1], **extra)
            if res["ok"]:
                peer.wait_state(lambda s, v=g["version"]: s["game"]["version"] > v, "the play applied")
            break
        else:
            g = _view(helper)
            top = next(c["id"] for c in g["hand"] if c["kind"] != "number")
            assert helper.act(type="reset", field=g["field"]["serial"], top=top)["ok"]
    raise AssertionError("no winner")


def test_play_again_starts_the_phone_with_an_empty_word_box(server, browser, sio_peer):
    """A player is still typing when someone wins; the host taps もう一度遊ぶ. The new game opened
    with last game's half-typed word in the box, judged against the new field."""
    srv = server(mode="eventlet", seed=4)
    problems: list[str] = []
    tv = browser.new_context(viewport=TV_VIEWPORT).new_page()
    watch(tv, "tv", problems)
    tv.goto(srv.url + "/tv")
    a = Phone(browser, srv.lan_url, "あき", problems)
    try:
        a.join()
        b, c = _socket_phone(sio_peer, srv, "Ben"), _socket_phone(sio_peer, srv, "ちひろ")
        _start(tv, [a.page])
        a.type_word("あいうえ")
        _play_to_a_win(b, c)
        expect(tv.get_by_test_id("tv-result")).to_be_visible()
        tv.get_by_test_id("again").click()
        a.wait_view(lambda g: g["phase"] == "play" and not g["chain"], "the new game")
        expect(a.page.get_by_test_id("hand").locator(".wbcard")).to_have_count(5)
        expect(a.page.get_by_test_id("word")).to_have_value("")
        expect(a.page.get_by_test_id("why")).to_have_count(0)
        assert not problems, problems
    finally:
        close_all(tv, a.page)


def test_eight_players_with_long_names_fit_the_tv_lobby(server, browser, sio_peer):
    """Eight people join for Word Basket. The TV lobby's player list (two columns from five
    players on) was wider than its panel and centred, so both columns stuck out: names cut on the
    left, the kick buttons cut off at the right edge of the TV."""
    srv = server(mode="eventlet", seed=3)
    problems: list[str] = []
    tv = browser.new_context(viewport=TV_VIEWPORT).new_page()
    watch(tv, "tv", problems)
    tv.goto(srv.url + "/tv")
    try:
        for name in LONG_NAMES:
            _socket_phone(sio_peer, srv, name)
        tv.locator("[data-choose=word_basket]").click()
        expect(tv.get_by_test_id("mode-vote")).to_have_class(re.compile(r"\bon\b"))
        expect(tv.locator(".side .lobby-players li")).to_have_count(8)
        outside = """() => { const p = document.querySelector(".side").getBoundingClientRect();
          return [...document.querySelectorAll(".side .lobby-players li, .side .lobby-players [data-kick]")].filter((el) => {
            const r = el.getBoundingClientRect(); return r.left < p.left - 0.5 || r.right > p.right + 0.5; })
            .map((el) => el.textContent.trim()); }"""
        try:  # the page redraws as each phone's state arrives: judge the settled layout
            tv.wait_for_function(f"() => ({outside})().length === 0", timeout=6_000)
        except Exception:
            raise AssertionError(f"sticking out of the lobby panel: {tv.evaluate(outside)}") from None
        assert not problems, problems
    finally:
        close_all(tv)
