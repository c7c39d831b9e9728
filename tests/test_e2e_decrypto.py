"""Browser end-to-end Decrypto: the real server, the laptop's TV page and four phones in Debian's
Chromium (fixtures in tests/conftest.py, helpers shared with tests/test_e2e_mind.py).

One seeded game to its end, driven only through the pages: the host moves players between the
teams in the TV lobby; every round each encryptor reads its code on its phone and types three
clues; the decoders and interceptors tap numbers (the interceptors' draft shows live on both
of their phones) and lock; the reveal plays on the TV and a phone taps "next". Black intercepts
white in rounds 2 and 3 and wins when round 3 ends. The screenshots of the TV clue sheet and of
an encryptor's phone go to docs/screenshots/decrypto-*.png (with ``PARTYHOST_SHOTS=docs``).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .test_e2e_mind import Phone, close_all, menu_click, open_tv, shot

pytestmark = [pytest.mark.e2e, pytest.mark.server]

expect.set_options(timeout=8_000)

NAMES = ["あき", "Ben", "ちか", "Dora"]  # seats s1..s4
#: Clues the encryptors type, in order (any word that is one of the game's keywords is skipped).
CLUE_POOL = ["ボタン", "漁師", "玉手箱", "星空", "階段", "カメ", "レンズ", "サンタ", "夏休み", "砂", "ラクダ",
             "金魚", "月", "ロープ", "エンジン", "海", "昔話", "地図", "窓", "雨", "手紙", "屋根", "花火", "鍵",
             "お祭り", "森", "電車", "氷", "おにぎり", "切手", "雪だるま", "タイヤ", "虹", "にわとり", "鏡", "灯台",
             "ピアノ", "かぼちゃ", "風船", "時計", "ハサミ", "トンネル", "くじら", "布団", "信号", "温泉", "忍者", "茶碗"]


def digits(page) -> list[int]:
    return [int(x) for x in page.get_by_test_id("my-code").first.locator("span").all_text_contents()]


def pick(page, code: list[int]) -> None:
    """Tap the numbers of ``code`` that are not chosen yet (a second tap would clear one), one
    right after the other without waiting for the server: no tap may be lost."""
    buttons = [page.get_by_test_id(f"pick-{i}-{d}") for i, d in enumerate(code)]
    todo = [b for b in buttons if "on" not in (b.get_attribute("class") or "").split()]
    for button in todo:
        button.tap(no_wait_after=True)
    for button in buttons:
        expect(button).to_have_class(re.compile(r"\bon\b"))
    expect(page.get_by_test_id("lock")).to_have_text(re.compile("-".join(map(str, code))))
    page.wait_for_timeout(150)  # the server's echo of the last tap has arrived
    expect(page.get_by_test_id("lock")).to_have_text(re.compile("-".join(map(str, code))))


def check_sheet(page, given: dict) -> None:
    """Every revealed clue sits in the column of the keyword number its code gave it, in round
    order, on this page's clue sheet."""
    for team, rounds in given.items():
        for n in range(1, 5):
            want = [clue for code, clues in rounds for d, clue in zip(code, clues) if d == n]
            cells = page.get_by_test_id(f"sheet-{team}-{n}").locator("li")
            expect(cells).to_have_count(len(want))
            for cell, clue in zip(cells.all(), want):
                expect(cell).to_contain_text(clue)


def test_full_game_tv_and_four_phones(server, browser, pw, tmp_path):
    srv = server(mode="eventlet", seed=4242)
    problems: list[str] = []
    tv = open_tv(browser, srv, problems)
    phones = [Phone(browser, pw, srv.lan_url, n, problems) for n in NAMES]
    try:
        for ph in phones:
            ph.join()
        tv.locator("[data-choose=decrypto]").click()
        # Default split (seating order, smaller team first): white s1 s3, black s2 s4.
        expect(tv.get_by_test_id("lobby-white").locator("li")).to_have_count(2)
        tv.get_by_test_id("move-s2").click()  # Ben → white
        expect(tv.get_by_test_id("lobby-white").locator("li")).to_have_count(3)
        tv.get_by_test_id("move-s3").click()  # ちか → black
        expect(tv.get_by_test_id("lobby-black")).to_contain_text("ちか")
        expect(tv.get_by_test_id("lobby-white")).to_contain_text("Ben")
        expect(phones[3].page.get_by_test_id("lobby-black")).to_contain_text("ちか")  # phones see it too
        shot(tv, "decrypto-tv-lobby.png")
        tv.get_by_test_id("start").click()

        white, black = [phones[0], phones[1]], [phones[2], phones[3]]
        teams = {"white": white, "black": black}
        for ph in white:
            expect(ph.page.get_by_test_id("my-team")).to_contain_text("白")
        for ph in black:
            expect(ph.page.get_by_test_id("my-team")).to_contain_text("黒")
        # Each phone shows its own team's four keywords above its own sheet, and not the others'.
        own = {t: ps[0].page.get_by_test_id(f"sheet-{t}").locator("[data-testid^=sheet-kw-]").all_text_contents()
               for t, ps in teams.items()}
        assert len(own["white"]) == 4 and len(own["black"]) == 4 and not set(own["white"]) & set(own["black"])
        for t, ps in teams.items():
            other = "black" if t == "white" else "white"
            for ph in ps:
                expect(ph.page.get_by_test_id(f"sheet-{t}").locator("[data-testid^=sheet-kw-]")).to_have_text(own[t])
                expect(ph.page.get_by_test_id(f"sheet-{other}").locator("[data-testid^=sheet-kw-]")).to_have_count(0)
        expect(tv.locator("[data-testid^=sheet-kw-]")).to_have_count(0)
        tv_text = tv.locator("#game-root").inner_text()
        assert not any(w in tv_text for w in own["white"] + own["black"])

        given: dict[str, list[tuple[list[int], list[str]]]] = {"white": [], "black": []}
        pool = [c for c in CLUE_POOL if c not in own["white"] + own["black"]] + [f"ヒント{i}" for i in range(60)]
        rnd = 0
        while True:
            rnd += 1
            expect(tv.get_by_test_id("dc-round")).to_contain_text(f"{rnd} / 8")
            enc = {t: ps[(rnd - 1) % 2] for t, ps in teams.items()}
            dec = {t: ps[rnd % 2] for t, ps in teams.items()}
            codes = {}
            for t in ("white", "black"):
                page = enc[t].page
                expect(page.get_by_test_id("encryptor")).to_be_visible()
                expect(dec[t].page.get_by_test_id("encryptor")).to_have_count(0)
                codes[t] = digits(page)
                assert sorted(set(codes[t])) == sorted(codes[t]) and len(codes[t]) == 3
                if rnd == 1 and t == "white":
                    # An IME's Enter confirming a conversion stays in the field and sends nothing.
                    field = page.get_by_test_id("clue-0")
                    field.fill("そら")
                    field.dispatch_event("compositionstart", {"data": ""})
                    field.press("Enter")
                    expect(field).to_be_focused()
                    field.dispatch_event("compositionend", {"data": "そら"})
                    # A keyword as a clue is refused with the reason, and nothing is lost.
                    kw = own["white"][codes[t][1] - 1]
                    page.get_by_test_id("clue-1").fill(kw)
                    page.get_by_test_id("clue-2").fill("ほし")
                    page.get_by_test_id("send-clues").tap()
                    expect(page.get_by_test_id("toast")).to_contain_text("キーワードそのもの")
                    expect(page.get_by_test_id("clue-0")).to_have_value("そら")
                    # the other phones say whom they wait for
                    expect(dec["white"].page.get_by_test_id("waiting")).to_contain_text(NAMES[0])
                clues = [pool.pop(0) for _ in range(3)]
                for i, c in enumerate(clues):
                    page.get_by_test_id(f"clue-{i}").fill(c)
                if rnd == 1 and t == "white":
                    page.get_by_test_id("clue-2").focus()
                    page.wait_for_timeout(3700)  # the refusal's message has gone
                    shot(page, "decrypto-phone-encryptor.png")
                page.get_by_test_id("send-clues").tap()
                given[t].append((codes[t], clues))
                expect(page.get_by_test_id("send-clues")).to_have_count(0)  # "clues given"
                if t == "white":
                    # sent: the code hides behind the peek (teammates huddle round this phone)
                    expect(page.get_by_test_id("my-code")).to_have_count(0)
                    page.get_by_test_id("code-peek").tap()
                    expect(page.get_by_test_id("my-code")).to_have_text("".join(map(str, codes[t])))

            for t in ("white", "black"):
                other = "black" if t == "white" else "white"
                expect(tv.get_by_test_id("clues").locator("li")).to_have_count(3)
                expect(tv.get_by_test_id("clues")).to_contain_text(given[t][-1][1][0])
                d = dec[t].page
                expect(d.get_by_test_id("guess-panel")).to_be_visible()
                pick(d, codes[t])
                if rnd >= 2:
                    # the interceptors' shared draft: one taps, the other sees it live
                    a, b = teams[other][0].page, teams[other][1].page
                    guess = codes[t] if (t == "white" and rnd in (2, 3)) else [c for c in reversed(codes[t])]
                    a.get_by_test_id(f"pick-0-{guess[0]}").tap()
                    expect(b.get_by_test_id(f"pick-0-{guess[0]}")).to_have_class(re.compile(r"\bon\b"))
                    # never on the other team's phones
                    expect(d.get_by_test_id("draft-by")).not_to_contain_text(NAMES[phones.index(teams[other][0])])
                    pick(b, guess)
                    if rnd == 3 and t == "white":
                        shot(tv, "decrypto-tv-clues.png")
                        shot(d, "decrypto-phone-decoder.png")
                    b.get_by_test_id("lock").tap()
                    expect(b.get_by_test_id("locked")).to_be_visible()
                else:
                    expect(teams[other][0].page.get_by_test_id("guess-panel")).to_have_count(0)
                d.get_by_test_id("lock").tap()
                if rnd == 3 and t == "black":
                    break  # black's second interception (of white) ends the game after this reveal
                expect(tv.get_by_test_id("reveal")).to_be_visible()
                expect(tv.get_by_test_id("reveal-code")).to_have_text("-".join(map(str, codes[t])))
                if rnd == 2 and t == "white":
                    tv.wait_for_timeout(2600)  # the three reveal steps have appeared
                    shot(tv, "decrypto-tv-reveal.png")
                phones[0].page.get_by_test_id("next").tap()
                expect(tv.get_by_test_id("reveal")).to_have_count(0)
            if rnd == 3:
                break
            if rnd == 2:
                check_sheet(tv, given)
                check_sheet(phones[2].page, given)
                phones[1].page.screenshot(path=str(tmp_path / "phone-sheet.png"), animations="disabled")

        expect(tv.get_by_test_id("dc-result")).to_be_visible()
        expect(tv.get_by_test_id("dc-result")).to_contain_text("黒チーム")
        for w in own["white"] + own["black"]:
            expect(tv.get_by_test_id("final-keywords")).to_contain_text(w)
        for ph in phones:
            expect(ph.page.get_by_test_id("dc-result")).to_be_visible()
        check_sheet(tv, given)
        tv.wait_for_timeout(3000)  # let the last reveal's animation finish for the picture
        tv.screenshot(path=str(tmp_path / "tv-end.png"), animations="disabled")  # for a person, not docs
        phones[2].page.screenshot(path=str(tmp_path / "phone-end.png"), animations="disabled")
        assert not problems, problems
    finally:
        close_all(tv, *(ph.page for ph in phones))


# --- a long game: eight rounds played fast through sockets, then the tie-break on the pages ------


def test_eight_rounds_then_keyword_tie_break_on_the_phones(server, browser, pw, sio_peer, tmp_path):
    """Four browser phones join; a socket client per seat (same token, so the same seat) plays
    rounds 1–8 quickly with every decode right and every interception wrong (score 0 to 0), so the
    TV clue sheet fills up; then the tie-break runs on the pages: each team types its guesses of
    the other team's keywords, black accepts white's near match, and white wins on keywords."""
    srv = server(mode="eventlet", seed=77)
    problems: list[str] = []
    tv = open_tv(browser, srv, problems)
    phones = [Phone(browser, pw, srv.lan_url, n, problems) for n in NAMES]
    try:
        for ph in phones:
            ph.join()
        tv.locator("[data-choose=decrypto]").click()
        expect(tv.get_by_test_id("lobby-white")).to_contain_text("ちか")  # default: s1 s3 white
        tv.get_by_test_id("start").click()
        peers = {}
        for i, ph in enumerate(phones):
            peer = sio_peer(srv.url, {"role": "phone", "token": ph.token(), "lang": "ja"}, f"s{i + 1}")
            peer.wait_state(lambda s: s.get("game") and s["game"].get("team"), "seat view")
            peers[f"s{i + 1}"] = peer
        view = lambda seat: peers[seat].state["game"]  # noqa: E731
        teams = view("s1")["teams"]
        keywords = {t: view(teams[t][0])["my_keywords"] for t in teams}
        pool = [c for c in CLUE_POOL if c not in keywords["white"] + keywords["black"]] + [f"ヒント{i}" for i in range(60)]
        for rnd in range(1, 9):
            for seat, peer in peers.items():
                peer.wait_state(lambda s, r=rnd: s["game"]["round"] == r and s["game"]["phase"] == "encrypt", f"round {rnd}")
            codes, clue_of = {}, {}
            for t in ("white", "black"):
                enc = view(teams[t][0])["encryptors"][t]
                codes[t] = view(enc)["my_code"]
                clues = [pool.pop(0) for _ in range(3)]
                assert peers[enc].act(type="clues", round=rnd, clues=clues, final=True)["ok"]
                clue_of[t] = clues
            for t in ("white", "black"):
                other = "black" if t == "white" else "white"
                enc = view(teams[t][0])["encryptors"][t]
                decoder = next(s for s in teams[t] if s != enc)
                peers[decoder].wait_state(lambda s, t=t: s["game"]["phase"] == "guess" and s["game"]["active"] == t, "guess")
                if rnd == 8 and t == "white":
                    expect(tv.get_by_test_id("clues")).to_contain_text(clue_of["white"][0])
                    shot(tv, "decrypto-tv-round8.png")
                if rnd >= 2:
                    r = peers[teams[other][0]].act(type="lock", round=rnd, team=t, code=list(reversed(codes[t])))
                    assert r["ok"], r
                assert peers[decoder].act(type="lock", round=rnd, team=t, code=codes[t])["ok"]
                peers[decoder].wait_state(lambda s, t=t: s["game"]["phase"] == "reveal" and s["game"]["active"] == t,
                                          "reveal")
                if rnd == 8 and t == "black":
                    # the last reveal shows before the tie-break (issue 13 point 7): the TV plays
                    # out interception, decode and code; no keyword form yet
                    expect(tv.get_by_test_id("reveal")).to_be_visible()
                    expect(tv.get_by_test_id("reveal-code")).to_have_text("-".join(map(str, codes[t])))
                    expect(phones[0].page.get_by_test_id("kw-form")).to_have_count(0)
                assert peers[decoder].act(type="next", round=rnd, team=t)["ok"]
        # the tie-break, on the pages
        expect(tv.get_by_test_id("dc-round")).to_contain_text("8 / 8")
        w, b = phones[0].page, phones[1].page  # s1 white, s2 black
        expect(w.get_by_test_id("kw-form")).to_be_visible()
        guesses = {"white": [keywords["black"][0], keywords["black"][1] + "!", "x", "y"],
                   "black": [keywords["white"][0], "p", "q", "r"]}
        for page, t in ((w, "white"), (b, "black")):
            for i, word in enumerate(guesses[t]):
                page.get_by_test_id(f"kw-{i}").fill(word)
        # a teammate sees the typed guesses (the shared draft)
        expect(phones[2].page.get_by_test_id("kw-1")).to_have_value(guesses["white"][1])
        shot(w, "decrypto-phone-keywords.png")
        w.get_by_test_id("kw-lock").tap()
        expect(tv.locator(".dc-stage-tie")).to_contain_text("黒チーム")  # whom the TV waits for
        tv.screenshot(path=str(tmp_path / "tv-tie.png"), animations="disabled")
        b.get_by_test_id("kw-lock").tap()
        expect(b.get_by_test_id("judge")).to_be_visible()
        b.get_by_test_id("accept-2").tap()  # black accepts white's near match for keyword 2
        expect(b.get_by_test_id("accept-2")).to_have_class(re.compile(r"\bon\b"))
        shot(b, "decrypto-phone-judge.png")
        expect(tv.locator(".dc-stage-tie")).to_contain_text(guesses["white"][1])  # answers are public now
        tv.screenshot(path=str(tmp_path / "tv-judge.png"), animations="disabled")
        # black contests its near miss "p" for white's keyword 2 (white did not accept it): the
        # host rules on the TV (never the owning team alone, RULES.md "Decrypto")
        b.get_by_test_id("contest-2").tap()
        expect(tv.get_by_test_id("rule-white-2-out")).to_be_visible()
        expect(tv.get_by_test_id("dc-tie-timer")).to_be_visible()
        shot(tv, "decrypto-tv-contest.png")
        b.get_by_test_id("judged").tap()
        w.get_by_test_id("judged").tap()
        expect(tv.get_by_test_id("dc-result")).to_have_count(0)  # the contest waits for the host
        tv.get_by_test_id("rule-white-2-out").click()
        expect(tv.get_by_test_id("dc-result")).to_contain_text("白チーム")
        expect(tv.get_by_test_id("dc-result")).to_contain_text("2")
        shot(tv, "decrypto-tv-final.png")
        assert not problems, problems
    finally:
        close_all(tv, *(ph.page for ph in phones))


# --- three players: two encrypt, one intercepts -------------------------------------------------


def test_three_players_lone_interceptor_wins_in_round_two(server, browser, pw, tmp_path):
    """あき and ちか (white) encrypt and decode; Ben intercepts alone. Round 1: white decodes
    wrong, a token for Ben; round 2: Ben intercepts, his second token: he wins."""
    srv = server(mode="eventlet", seed=303)
    problems: list[str] = []
    tv = open_tv(browser, srv, problems)
    phones = [Phone(browser, pw, srv.lan_url, n, problems) for n in NAMES[:3]]
    try:
        for ph in phones:
            ph.join()
        tv.locator("[data-choose=decrypto]").click()
        expect(tv.get_by_test_id("lobby-black")).to_contain_text("Ben")
        expect(phones[1].page.get_by_test_id("lobby-black")).to_contain_text("Ben")  # read-only on phones
        expect(phones[1].page.get_by_test_id("move-s2")).to_have_count(0)
        phones[1].page.screenshot(path=str(tmp_path / "phone-lobby.png"))
        tv.get_by_test_id("dc-timer").check()  # the timer option reaches every screen
        expect(phones[1].page.get_by_test_id("dc-timer")).to_be_checked()
        tv.get_by_test_id("start").click()
        team, lone = [phones[0], phones[2]], phones[1]
        expect(lone.page.get_by_test_id("sheet-black")).to_have_count(0)  # the lone player has no words
        expect(lone.page.get_by_test_id("sheet-white").locator("[data-testid^=sheet-kw-]")).to_have_count(0)
        for rnd in (1, 2):
            enc, dec = team[(rnd - 1) % 2], team[rnd % 2]
            expect(enc.page.get_by_test_id("encryptor")).to_be_visible()
            code = digits(enc.page)
            for i, clue in enumerate(CLUE_POOL[3 * rnd : 3 * rnd + 3]):
                enc.page.get_by_test_id(f"clue-{i}").fill(clue)
            enc.page.get_by_test_id("send-clues").tap()
            expect(dec.page.get_by_test_id("guess-panel")).to_be_visible()
            if rnd == 1:
                expect(lone.page.get_by_test_id("guess-panel")).to_have_count(0)
                pick(dec.page, list(reversed(code)))  # a miscommunication
                dec.page.get_by_test_id("lock").tap()
                expect(tv.get_by_test_id("tokens-black").locator("b")).to_have_text("1")
                lone.page.get_by_test_id("next").tap()
            else:
                pick(lone.page, code)
                shot(lone.page, "decrypto-phone-interceptor.png")
                shot(tv, "decrypto-tv-three.png")
                pick(dec.page, code)
                dec.page.get_by_test_id("lock").tap()
                lone.page.get_by_test_id("lock").tap()
        expect(tv.get_by_test_id("dc-result")).to_contain_text("Ben")
        expect(tv.get_by_test_id("tokens-black").locator("b")).to_have_text("2")
        menu_click(tv, "[data-testid=lang]")  # the TV in English
        expect(tv.get_by_test_id("dc-result")).to_contain_text("the interceptor, wins")
        tv.screenshot(path=str(tmp_path / "tv-three-en.png"), animations="disabled")
        assert not problems, problems
    finally:
        close_all(tv, *(ph.page for ph in phones))
