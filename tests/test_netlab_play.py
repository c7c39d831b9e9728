"""A phone on a bad Wi-Fi keeps its seat, its cards and its votes (issue 26): real Socket.IO
clients through the network lab (tests/netlab.py), the host in its own namespace.

* Through 5 % loss (80 ± 20 ms one-way) every action of the phone lands exactly once: each is
  answered ok, the pile holds each card once, a resend with the same id is refused as a
  duplicate and changes nothing.
* After a 10 s outage the phone is back — connected, its seat and its hand as before — within
  2 s of the link returning, and plays on; a browser phone (Chromium) too.

The link returns without loss for the 2 s bound: when the link returns at 5 % loss, a lost SYN or
SYN-ACK of the new connection costs the TCP's initial retransmission time, 1 s, on top (measured
with the Python phone: 1.06, 1.20, 1.84, 2.58 s in four runs; Chromium 0.83-1.42 s in five).
"""
from __future__ import annotations

import os
import re
import time

import pytest

from tests import netlab

_why = netlab.unavailable()
pytestmark = pytest.mark.skipif(_why is not None, reason=_why or "")

BACK_WITHIN = 2.0  # seconds after the link returns (issue 26)


def in_own_thread(fn, timeout: float = 120.0) -> None:
    """Run ``fn()`` in a new thread and wait for it; its exception is raised here."""
    import threading

    failure: list[BaseException] = []

    def run() -> None:
        try:
            fn()
        except BaseException as exc:  # handed to the test's thread
            failure.append(exc)

    thread = threading.Thread(target=run, name=fn.__name__, daemon=True)
    thread.start()
    thread.join(timeout)
    assert not thread.is_alive(), f"{fn.__name__} still running after {timeout} s"
    if failure:
        raise failure[0]


def host_key(lab: netlab.Lab) -> str:
    found = re.search(r"\?key=([\w-]+)", lab.host_output())
    assert found, lab.host_output()
    return found.group(1)


def join(lab: netlab.Lab, phone: netlab.Phone, url: str, name: str) -> netlab.Peer:
    with phone.inside():
        peer = netlab.Peer(url, {"role": "phone", "token": None, "lang": "en"}, name)
    peer.wait(lambda: peer.welcomes, "welcome")
    assert peer.send("join", {"name": name, "lang": "en"})["ok"]
    welcome = peer.wait(lambda: next((w for w in peer.welcomes if w.get("token")), None), "token")
    peer.seat = welcome["seat"]
    return peer


def game(peer: netlab.Peer) -> dict:
    return peer.state["game"]


def play_level(tv: netlab.Peer, phones: list[netlab.Peer], level: int, dealt: bool = True) -> list[dict]:
    """Both phones ready, then every card in ascending order, each play waited for. Returns
    the results of the phones' actions. ``dealt``: the hands are whole (``level`` cards)."""
    results = []
    for ph in phones:
        ph.wait_state(lambda s: s["game"]["level"] == level and s["game"]["phase"] == "ready"
                      and (not dealt or len(s["game"]["hand"]) == level), f"level {level} ready")
    for ph in phones:
        results.append(ph.act(type="ready", level=level, ready=True))
    return results + play_cards(tv, phones, level)


def play_cards(tv: netlab.Peer, phones: list[netlab.Peer], level: int) -> list[dict]:
    """Every card in the phones' hands in ascending order, each play waited for."""
    results = []
    tv.wait_state(lambda s: s["game"]["phase"] == "playing", "playing")
    cards = sorted((c, ph) for ph in phones for c in game(ph)["hand"])
    for card, ph in cards:
        ph.wait_state(lambda s: s["game"]["phase"] == "playing", "playing")
        results.append(ph.act(type="play", level=level, card=card))
        tv.wait_state(lambda s, card=card: card in [p["card"] for p in s["game"]["pile"]]
                      or s["game"]["level"] > level, f"card {card} on the pile")
    return results


def test_loss_and_a_ten_second_outage_lose_nothing():
    with netlab.Lab() as lab:
        url = lab.start_host(args=["--fresh", "--seed", "7", "--rate-limit", "0", "--async-mode", "eventlet"])
        with lab.in_host():  # the laptop's second screen, on the host itself
            tv = netlab.Peer(url, {"role": "tv", "lang": "en", "key": host_key(lab)}, "tv")
        tv.wait_state(lambda s: s["host"] is True, "host powers")
        wifi = lab.phone("wifi", delay_ms=80, jitter_ms=20, loss=0.05)
        near = lab.phone("near", delay_ms=5)
        lossy, steady = join(lab, wifi, url, "Aki"), join(lab, near, url, "Bo")
        phones = [lossy, steady]
        try:
            assert tv.send("host", {"op": "start"})["ok"]

            # --- 5 % loss: three levels, and a shuriken vote
            results = []
            for level in (1, 2, 3):
                results += play_level(tv, phones, level)
            assert all(r["ok"] for r in results), [r for r in results if not r["ok"]]
            g = tv.wait_state(lambda s: s["game"]["level"] == 4, "level 4")["game"]
            assert g["lives"] == 2 + 1, g  # no life lost (level 3 gives one)
            shuriken = g["shuriken"]
            proposal = steady.act(type="propose_shuriken", level=4)
            assert proposal["ok"], proposal
            open_vote = lossy.wait_state(lambda s: s["game"].get("proposal"), "the vote")["game"]["proposal"]
            vote = {"type": "vote_shuriken", "proposal": open_vote["id"], "agree": True}
            vote_id = lossy.emit("act", {"game": lossy.state["party"]["serial"], **vote})
            assert lossy.wait(lambda: lossy.results.get(vote_id), "vote result")["ok"]
            tv.wait_state(lambda s: s["game"]["shuriken"] == shuriken - 1, "the shuriken used")
            # the same message again (a resend after a lost answer) is refused, nothing changes
            lossy.results.pop(vote_id)
            lossy.emit("act", {"game": lossy.state["party"]["serial"], **vote}, msg_id=vote_id)
            again = lossy.wait(lambda: lossy.results.get(vote_id), "resend result")
            assert again["ok"] is False and again["code"] == "duplicate", again
            assert tv.state["game"]["shuriken"] == shuriken - 1
            print(f"\n5 % loss at 80±20 ms: {len(results) + 1} actions, all landed once; link "
                  f"passed {wifi.link.passed} packets, dropped {wifi.link.dropped} "
                  f"({100 * wifi.link.dropped / max(1, wifi.link.passed + wifi.link.dropped):.1f} %)")

            # --- a 10 s outage; meanwhile the other phone lays its hand down
            hand = sorted(lossy.wait_state(lambda s: s["game"]["phase"] == "ready", "a hand")["game"]["hand"])
            seat, level = lossy.seat, tv.state["game"]["level"]
            wifi.set_link(down=True)
            time.sleep(1)
            assert steady.act(type="ready", level=level, ready=True)["ok"]
            time.sleep(9)
            connects_before = len(lossy.connects)
            wifi.set_link(down=False, loss=0.0)  # see the module docstring: a lost SYN costs 1 s
            up = time.monotonic()
            # back: connected, the same seat and hand, and the table as the TV shows it now
            # (Bo's hand laid down, or, when the host saw Aki away, everyone to lay it again)
            back = lossy.wait_state(lambda s: lossy.sio.connected and s["me"] and s["me"]["seat"] == seat
                                    and sorted(s["game"]["hand"]) == hand and not s["game"]["away"]
                                    and s["game"]["version"] == tv.state["game"]["version"],
                                    "back with seat, hand and table", timeout=20)
            took = time.monotonic() - up
            answered = lossy.act(type="ready", level=level, ready=True)
            acted = time.monotonic() - up
            reconnected = len(lossy.connects) > connects_before
            print(f"10 s outage: back with seat, hand and the table {took:.2f} s after the link "
                  f"returned ({'a new connection' if reconnected else 'the same connection'}); "
                  f"its next action answered at {acted:.2f} s")
            assert answered["ok"], answered
            assert took <= BACK_WITHIN, took
            assert back["me"]["playing"] is True
            if not any(p["seat"] == steady.seat and p["ready"] for p in tv.state["game"]["players"]):
                assert steady.act(type="ready", level=level, ready=True)["ok"]
            # and in play: the level goes on to its end
            level = back["game"]["level"]
            results = play_cards(tv, phones, level)
            assert all(r["ok"] for r in results), results
            tv.wait_state(lambda s: s["game"]["level"] == level + 1, "the next level")
            roster = tv.state["party"]["roster"]
            assert [r["name"] for r in roster] == ["Aki", "Bo"] and all(r["connected"] for r in roster)
        finally:
            for peer in (*phones, tv):
                peer.close()


def test_a_phone_closes_the_socket_of_a_connection_it_gave_up():
    """python-engineio's client ends a connection on a ping timeout without closing its socket;
    the socket then stays open until the garbage collector finds it (in CI: a ResourceWarning
    raised in the middle of a later step). The Python phone (pyclient) closes it at once."""
    with netlab.Lab() as lab:
        url = lab.start_host(args=["--fresh", "--seed", "7", "--rate-limit", "0", "--async-mode", "eventlet"])
        wifi = lab.phone("wifi", delay_ms=5)
        phone = join(lab, wifi, url, "Aki")
        sock = phone.sio.eio.ws.sock
        assert sock.fileno() != -1
        wifi.set_link(down=True)
        phone.wait(lambda: phone.disconnects, "the phone gives the connection up", timeout=15)
        deadline = time.monotonic() + 3
        while sock.fileno() != -1 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert sock.fileno() == -1, f"the dead connection's socket is still open: {sock!r}"
        wifi.set_link(down=False)
        phone.wait(lambda: len(phone.connects) >= 2 and phone.sio.connected, "back on a new connection")
        assert phone.sio.eio.ws.sock.fileno() != -1
        phone.close()


def test_a_browser_phone_is_back_within_two_seconds_of_an_outage():
    """Debian's Chromium as the phone, inside the phone's namespace (its Playwright driver is
    started from there, so the browser it launches is too), through a 10 s outage."""
    from pathlib import Path

    chromium = "/usr/bin/chromium"
    if not Path(chromium).exists():
        if os.environ.get("CI"):
            pytest.fail(f"{chromium} is missing (CI is set: a missing browser must not pass silently)")
        pytest.skip(f"{chromium} is missing: `make chromium` installs Debian's package")
    from playwright.sync_api import expect, sync_playwright

    with netlab.Lab() as lab:
        url = lab.start_host(args=["--fresh", "--seed", "7", "--rate-limit", "0", "--async-mode", "eventlet"])
        with lab.in_host():
            tv = netlab.Peer(url, {"role": "tv", "lang": "en", "key": host_key(lab)}, "tv")
        wifi = lab.phone("wifi", delay_ms=80, jitter_ms=20, loss=0.05)
        near = lab.phone("near", delay_ms=5)
        steady = join(lab, near, url, "Bo")

        def browser_phone() -> None:
            # Playwright's sync API in a thread of its own: the session's Playwright (conftest)
            # keeps an asyncio loop running on the main thread, and a second one there fails
            with wifi.inside():
                pw = sync_playwright().start()
            try:
                browser = pw.chromium.launch(executable_path=chromium, headless=True,
                                             args=["--no-sandbox", "--disable-gpu"])
                page = browser.new_context(**pw.devices["Pixel 7"]).new_page()
                page.goto(url + "/?lang=en")
                page.get_by_test_id("name").fill("Aki")
                page.get_by_test_id("join").tap()
                tv.wait_state(lambda s: [r["name"] for r in s["party"]["roster"]] == ["Bo", "Aki"], "Aki joined")
                assert tv.send("host", {"op": "start"})["ok"]
                hand = page.get_by_test_id("hand")
                expect(hand).to_have_text(re.compile(r"\d"), timeout=15000)
                cards = hand.inner_text()
                badge = page.get_by_test_id("conn")
                expect(badge).to_have_class(re.compile(r"\bok\b"))

                wifi.link.trace = trace = []
                wifi.set_link(down=True)
                down = time.monotonic()
                expect(badge).to_have_class(re.compile(r"\bbad\b"), timeout=9000)  # the page knows
                time.sleep(max(0.0, 10 - (time.monotonic() - down)))
                wifi.set_link(down=False, loss=0.0)  # see the module docstring: a lost SYN costs 1 s
                up = time.monotonic()
                page.wait_for_function("() => document.querySelector('[data-testid=conn]').classList.contains('ok')",
                                       timeout=15000, polling=20)
                online = time.monotonic() - up
                tv.wait_state(lambda s: all(r["connected"] for r in s["party"]["roster"]), "Aki back on the TV",
                              timeout=15)
                seated = time.monotonic() - up
                expect(hand).to_have_text(cards)
                print(f"\nbrowser phone at 80±20 ms, 5 % loss, then a 10 s outage: online again {online:.2f} s, "
                      f"seat connected on the host {seated:.2f} s after the link returned; hand {cards!r}")
                syns = [f"{at - up:+.3f} {'<' if to_phone else '>'} {netlab.describe(packet)}{' DROP' if dropped else ''}"
                        for at, to_phone, packet, dropped in trace
                        if at > up - 4 and re.search(r" S\w* len=", netlab.describe(packet))]
                assert online <= BACK_WITHIN and seated <= BACK_WITHIN, (online, seated, syns)
                # in play: its tap lands, once
                seat = next(r["seat"] for r in tv.state["party"]["roster"] if r["name"] == "Aki")
                page.get_by_test_id("ready").tap()
                tv.wait_state(lambda s: any(p["seat"] == seat and p["ready"] for p in s["game"]["players"]),
                              "Aki's hand laid down after the outage")
                browser.close()
            finally:
                pw.stop()

        try:
            in_own_thread(browser_phone)
        finally:
            steady.close()
            tv.close()
