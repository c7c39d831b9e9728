"""Accessibility check (issue 16): axe-core on the TV page and a phone page of every game, in the
lobby and in play, with no "serious" or "critical" violation.

axe-core is not served by partyhost and never reaches a real player: the test reads the copy
that the PyPI package ``axe-playwright-python`` ships (``axe.min.js``, axe-core 4.12.1, MPL-2.0,
installed with ``make install-test``; nothing is fetched from the network) and injects it into
the page through Playwright. The violations found are printed (``-s`` shows them), the serious
and critical ones fail the test.

Real server on loopback, the laptop's TV page (the host: its menu is opened and checked too) and
one phone in Debian's Chromium, three more players over Socket.IO; The Mind is also checked
waiting for a dropped player with a take-over prompt up, and Word Basket, Decrypto, Top Ten and
Diabolo with one player's phone away (an away seat is marked by words, on the TV and on a phone
that lists the players, and its name keeps its contrast: a faded line fell below 4.5:1). Every wait is on state.
"""

from __future__ import annotations

import importlib.resources
import json

import pytest
from playwright.sync_api import Page, expect

from .test_e2e_mind import PHONE_DEVICE, close_all, host_menu, open_tv, watch

pytestmark = [pytest.mark.e2e, pytest.mark.server]

GAMES = ["the_mind", "word_basket", "decrypto", "top_ten", "diabolo"]
# the games whose player list is checked again while Dan's phone is away
AWAY_CHECKED = ("word_basket", "decrypto", "top_ten", "diabolo")
# the games whose playing phone lists the players too (its list marks the away seat the same way)
PHONE_LISTS = ("decrypto", "diabolo")
BLOCKING = {"serious", "critical"}
AXE_JS = (importlib.resources.files("axe_playwright_python") / "axe.min.js").read_text(encoding="utf-8")

# axe's own rule set (WCAG 2.0/2.1/2.2 A and AA and its best practices), on the whole document.
_RUN = """async () => {
  const r = await axe.run(document, { resultTypes: ["violations"] });
  return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 4).map((n) => ({ target: n.target.join(" "), summary: n.failureSummary })) }));
}"""


def axe(page: Page, where: str) -> list[str]:
    """Run axe on ``page``; print every violation, return the serious and critical ones."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE_JS)
    found = page.evaluate(_RUN)
    for v in found:
        print(f"[axe] {where}: {v['impact']} {v['id']}: {v['help']}")
        for n in v["nodes"]:
            print(f"        {n['target']}: {(n['summary'] or '').splitlines()[-1].strip()}")
    return [f"{where}: {v['impact']} {v['id']} ({v['help']}) at {json.dumps([n['target'] for n in v['nodes']], ensure_ascii=False)}"
            for v in found if v["impact"] in BLOCKING]


def waiting_and_taking_over(tv: Page, phone: Page, peers: list, srv, sio_peer) -> list[str]:
    """The Mind in play: Dan's phone drops (the TV waits for him), Dan asks from another device
    (the TV's take-over prompt), with the host menu open; checked, then the host allows it."""
    phone.evaluate("() => PH.act({ type: 'ready', level: 1, ready: true })")
    for peer in peers:
        assert peer.act(type="ready", level=1, ready=True)["ok"]
    tv.wait_for_function("() => PH.last.game.phase === 'playing'")
    peers[2].close()
    expect(tv.get_by_test_id("away-wait")).to_contain_text("Dan")
    expect(phone.get_by_test_id("away-wait")).to_contain_text("Dan")
    found = axe(phone, "phone: The Mind waiting for a player")
    again = sio_peer(srv.url, {"role": "phone", "token": None, "lang": "ja"}, "Dan again")
    assert again.send("join", {"name": "Dan", "claim": True})["ok"]
    expect(tv.get_by_test_id("claim-prompt")).to_contain_text("Dan")
    host_menu(tv)
    found += axe(tv, "TV: The Mind waiting, a take-over prompt, the host menu open")
    tv.keyboard.press("Escape")
    tv.get_by_test_id("claim-allow").click()
    expect(tv.get_by_test_id("claim-prompt")).to_have_count(0)
    peers[2] = again
    return found


def token_of(peer) -> str | None:
    """The token a peer's seat was given (only the ``welcome`` that gave the seat carries it)."""
    return next((w["token"] for w in reversed(peer.welcomes) if w.get("token")), None)


def one_phone_away(tv: Page, phone: Page, peers: list, game: str, token: str, new_phone, srv, sio_peer,
                   problems: list[str]) -> list[str]:
    """Dan's phone closes mid-game (Top Ten: once the theme is chosen, so every card shows its
    answer line): the TV's player list marks his seat with the words 離席中 (not only a fade);
    the TV and a player's phone are checked, and in Word Basket a phone that joins to watch (it
    lists the players); then Dan's phone comes back with its token and the mark goes. In Decrypto
    the phone that goes is an encryptor's (Ben's), so the TV's encryptor pill (離席中) and the
    「ヒントを書いている人」 line on the TV and a phone (（接続切れ）) are checked as well."""
    if game == "top_ten":
        g = tv.evaluate("() => PH.last.game")
        by_seat = {p.state["me"]["seat"]: p for p in peers}
        if g["captain"] in by_seat:
            assert by_seat[g["captain"]].act(type="choose", round=g["round"], theme=0)["ok"]
        else:
            phone.evaluate("(r) => PH.act({ type: 'choose', round: r, theme: 0 })", g["round"])
        tv.wait_for_function("() => PH.last.game.phase === 'answer'")
    who = 2  # Dan
    if game == "decrypto":
        # here the phone that goes away is one that writes its team's clues (Ben, with this seed),
        # so the encryptor's pill on the TV and the waiting line are checked too
        g = tv.evaluate("() => PH.last.game")
        assert g["phase"] == "encrypt", g["phase"]
        who = next(k for k, p in enumerate(peers) if p.state["me"]["seat"] in g["encryptors"].values())
        token = token_of(peers[who])
    seat = peers[who].state["me"]["seat"]
    who_name = ("Ben", "ちひろ", "Dan")[who]
    peers[who].close()
    # a player list's item (Decrypto's encryptor pills, .dc-writers, are checked on their own)
    item = f"#game-root :not(.dc-writers) > li.away:is([data-seat='{seat}'], [data-testid='player-{seat}'])"
    expect(tv.locator(item)).to_have_count(1)
    if game in PHONE_LISTS:
        expect(phone.locator(f"{item} .tag.away")).to_have_text("離席中")
    pill = tv.locator(f".dc-writers li.away[data-seat='{seat}']")
    waiting = [tv.locator(".dc-stage-encrypt > p.note"), phone.locator("#game-root :is([data-testid=waiting], .dc-enc-status p.small)")]
    if game == "decrypto":
        # the TV's encryptor pill and the 「ヒントを書いている人」 line say so in words too
        expect(pill.locator(".tag.away")).to_have_text("離席中")
        for line in waiting:
            expect(line).to_contain_text(f"{who_name}（接続切れ）")
    found = axe(tv, f"TV in play ({game}), Dan's phone away")
    found += axe(phone, f"phone in play ({game}), Dan's phone away")
    if game == "word_basket":
        watcher = new_phone()
        watch(watcher, "phone Eve (watching)", problems)
        watcher.goto(srv.lan_url + "/")
        watcher.get_by_test_id("name").fill("Eve")
        watcher.get_by_test_id("join").tap()
        expect(watcher.locator(item)).to_have_count(1)
        found += axe(watcher, f"watching phone ({game}), Dan's phone away")
        expect(watcher.locator(f"{item} .tag.away")).to_have_text("離席中")
        eve = watcher.evaluate("() => PH.last.me.seat")
        watcher.context.close()
        assert tv.evaluate("(s) => PH.host('kick', { seat: s })", eve)["ok"]
        tv.wait_for_function("() => PH.last.party.roster.length === 4")
    expect(tv.locator(f"{item} .tag.away")).to_have_text("離席中")
    peers[who] = sio_peer(srv.url, {"role": "phone", "token": token, "lang": "ja"}, f"{who_name} back")
    expect(tv.locator(item)).to_have_count(0)
    if game in PHONE_LISTS:
        expect(phone.locator(item)).to_have_count(0)
    if game == "decrypto":
        expect(pill).to_have_count(0)
        for line in waiting:
            expect(line).not_to_contain_text("接続切れ")
    return found


def test_tv_and_phone_pages_pass_axe_in_every_game(server, browser, pw, sio_peer):
    srv = server(mode="eventlet", seed=16)
    problems: list[str] = []
    tv = open_tv(browser, srv, problems)

    def new_phone() -> Page:
        return browser.new_context(**pw.devices[PHONE_DEVICE]).new_page()

    phone = new_phone()
    watch(phone, "phone あき", problems)
    found: list[str] = []
    try:
        phone.goto(srv.lan_url + "/")
        found += axe(phone, "phone join form")
        phone.get_by_test_id("name").fill("あき")
        phone.get_by_test_id("join").tap()
        expect(phone.get_by_test_id("welcome")).to_be_visible()
        peers = []
        dan_token = None
        for name in ("Ben", "ちひろ", "Dan"):
            peer = sio_peer(srv.url, {"role": "phone", "token": None, "lang": "ja"}, name)
            assert peer.send("join", {"name": name})["ok"]
            peers.append(peer)
        expect(tv.get_by_test_id("roster").locator("li")).to_have_count(4)
        host_menu(tv)
        found += axe(tv, "TV lobby, host menu open")
        tv.keyboard.press("Escape")
        for game in GAMES:
            tv.locator(f"[data-choose={game}]").click()
            tv.wait_for_function("(g) => PH.last.party.game_key === g", arg=game)
            phone.wait_for_function("(g) => PH.last && PH.last.party.game_key === g", arg=game)
            found += axe(tv, f"TV lobby ({game})")
            found += axe(phone, f"phone lobby ({game})")
            tv.get_by_test_id("start").click()
            tv.wait_for_function("(g) => PH.last.game && PH.last.game.game === g", arg=game)
            phone.wait_for_function("(g) => PH.last.game && PH.last.game.game === g", arg=game)
            expect(tv.locator("#game-root > *").first).to_be_visible()
            expect(phone.locator("#game-root > *").first).to_be_visible()
            found += axe(tv, f"TV in play ({game})")
            found += axe(phone, f"phone in play ({game})")
            if game == "the_mind":
                found += waiting_and_taking_over(tv, phone, peers, srv, sio_peer)
            if game in AWAY_CHECKED:
                dan_token = token_of(peers[2]) or dan_token
                found += one_phone_away(tv, phone, peers, game, dan_token, new_phone, srv, sio_peer, problems)
            serial = tv.evaluate("() => PH.last.party.serial")
            assert tv.evaluate("() => PH.host('end')")["ok"]
            tv.wait_for_function("(n) => PH.last.party.phase === 'lobby' && PH.last.party.serial >= n", arg=serial)
        assert not problems, problems
        assert not found, "axe found serious or critical violations:\n" + "\n".join(found)
    finally:
        close_all(tv, phone)
