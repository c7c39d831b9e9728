"""Decrypto's lobby with nine seated (issue 27, every table size): eight play, one watches. The
TV's team lists showed all nine (白チーム 5 / 黒チーム 4) beside the rules in use saying
白チーム4人・黒チーム4人, and the one who would watch stood on a team. Now the lists hold the
eight who will play, as the game then seats them, and the watcher is named. Real server,
python-socketio phones, Debian's Chromium. About 6 s.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .test_e2e_howto import open_tv_at, seat_players
from .test_e2e_mind import close_all

pytestmark = [pytest.mark.e2e, pytest.mark.server]

NAMES = ["あかり", "Ben", "ちか", "Dora", "えり", "Finn", "ごろう", "Hana", "いち"]


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_nine_seated_the_teams_list_the_eight_who_play(server, browser, sio_peer, lang):
    srv = server(mode="eventlet", seed=3)
    peers = seat_players(srv, sio_peer, NAMES)
    problems: list[str] = []
    tv = open_tv_at(browser, srv, problems, 1280, 720, lang)
    try:
        tv.locator(".game-tile[data-choose=decrypto]").click()
        tv.wait_for_function("() => PH.last.party.game_key === 'decrypto'")
        white = tv.get_by_test_id("lobby-white").locator("li")
        black = tv.get_by_test_id("lobby-black").locator("li")
        expect(white).to_have_count(4)
        expect(black).to_have_count(4)
        listed = {"white": [x.strip() for x in white.all_inner_texts()], "black": [x.strip() for x in black.all_inner_texts()]}
        watcher = tv.get_by_test_id("lobby-watching")
        expect(watcher).to_contain_text("いち")
        expect(watcher).to_contain_text("観戦" if lang == "ja" else "Watching")
        # the label stays whole beside a long name and reads as one line with the name
        assert watcher.text_content() == ("観戦：いち" if lang == "ja" else "Watching: いち"), watcher.text_content()
        assert watcher.locator(".who").evaluate("(el) => el.scrollWidth <= el.clientWidth"), "the watcher's name is cut off"
        tv.get_by_test_id("start").click()
        tv.wait_for_function("() => PH.last.party.phase === 'game'")
        teams = tv.evaluate("() => PH.last.game.teams")
        names = {p.welcomes[-1]["seat"]: n for p, n in zip(peers, NAMES) if p.welcomes and p.welcomes[-1].get("seat")}
        for team in ("white", "black"):
            got = [names.get(seat, seat) for seat in teams[team]]
            assert all(any(g in row for row in listed[team]) for g in got), (team, got, listed[team])
        assert not problems, problems
    finally:
        close_all(tv)
