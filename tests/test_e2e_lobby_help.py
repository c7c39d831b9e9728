"""Each lobby option's one-line explanation, seen where the host sets it (issue 27): on the TV
(1920×1080) and on the host's phone (360 px), in Japanese and English, for every game with
options: every option of the game's schema has its explanation on screen, under its control,
inside the screen; on the TV, beside nine names, they take turns in one line under the options
(an option just changed is explained at once). Screenshots of both go to the shots folder.

The real server in Debian's Chromium; the players are python-socketio clients (about 20 s).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .test_e2e_howto import open_tv_at, seat_players
from .test_e2e_mind import Phone, close_all, menu_click, shot
from .test_lobby_help import OWN_WORDS

pytestmark = [pytest.mark.e2e, pytest.mark.server]

GAMES = ["decrypto", "top_ten", "word_basket", "diabolo"]

# The options of the chosen game (its schema, from the view) that have no explanation on screen
# under their control, or whose explanation is outside the screen.
_MISSING = """(own) => {
  const s = PH.last, key = s.party.game_key;
  const info = s.party.games.find((g) => g.key === key);
  const out = [];
  for (const name of Object.keys((info.options && info.options.properties) || {})) {
    if (own.includes(key + "." + name)) continue;
    const el = document.querySelector(`.game-options [data-testid="opt-help-${name}"]`);
    if (!el) { out.push(name + ": none"); continue; }
    const box = el.closest(".opt, fieldset, .wb-lobby");
    if (el.closest("[hidden]")) continue;  /* the tile handicap shows with victory tiles only */
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || !el.checkVisibility()) out.push(name + ": not shown");
    else if (r.right > innerWidth + 1 || r.left < -1) out.push(name + ": off screen");
    else if (!box) out.push(name + ": not with its control");
    else if (el.textContent.trim().length < 6) out.push(name + ": empty");
  }
  return out;
}"""


_NAMES = """(own) => {
  const s = PH.last, key = s.party.game_key, info = s.party.games.find((g) => g.key === key);
  /* an option whose control is not drawn now (Decrypto's "uneven", the tiles' handicap) has no line */
  const hidden = (n) => { const el = document.querySelector(`.game-options [data-option="${n}"]`); return !el || el.closest("[hidden]"); };
  return Object.keys((info.options && info.options.properties) || {}).filter((n) => !own.includes(key + "." + n) && !hidden(n));
}"""


def test_every_lobby_option_is_explained_on_the_tv_and_the_host_phone(server, browser, pw, sio_peer):
    srv = server(mode="eventlet", seed=11)
    problems: list[str] = []
    seat_players(srv, sio_peer, ["あき", "Ben", "ちか"])
    tv = open_tv_at(browser, srv, problems, 1920, 1080)
    host = Phone(browser, pw, srv.lan_url, "Dora", problems)
    try:
        host.join()
        seat = host.page.evaluate("PH.last.me.seat")
        menu_click(tv, f"[data-promote='{seat}']")
        phone = host.page
        phone.wait_for_function("() => PH.last.host")
        phone.set_viewport_size({"width": 360, "height": 800})
        # Decrypto's "uneven teams" shows only when the teams are two or more apart: checked below
        own = [f"{g}.{n}" for g, n in OWN_WORDS] + ["decrypto.uneven"]
        for lang in ("ja", "en"):
            if lang == "en":
                menu_click(tv, "[data-testid=lang]")
                phone.get_by_test_id("lang").tap()
            for game in GAMES:
                tv.locator(f"[data-choose={game}]").click()
                phone.wait_for_function(f"() => PH.last.party.game_key === '{game}'")
                phone.wait_for_function("() => !!document.querySelector('.game-options .opt-help')")
                missing = phone.evaluate(_MISSING, own)
                assert missing == [], (game, lang, "phone", missing)
                # the TV: every option's explanation takes its turn in the line under the options
                tv.wait_for_function(f"() => PH.last.party.game_key === '{game}'")
                line = tv.get_by_test_id("opt-help-tv")
                for name in tv.evaluate(_NAMES, own):
                    tv.evaluate("(n) => PH.showHelp(n)", name)
                    expect(line).to_have_attribute("data-option", name)
                    expect(line).to_be_visible()
                    assert len(line.inner_text()) > 10, (game, name)
                    box, side = line.bounding_box(), tv.locator(".lobby .side").bounding_box()
                    assert box["y"] + box["height"] <= side["y"] + side["height"] + 1 and box["y"] + box["height"] <= 1080, (game, name)
                key = {"decrypto": "timer", "top_ten": "rounds", "word_basket": "handicaps", "diabolo": "victory_tiles"}[game]
                tv.evaluate("(n) => PH.showHelp(n)", key)
                expect(line).to_contain_text(
                    {("decrypto", "ja"): "持ち時間", ("decrypto", "en"): "has 30 s",
                     ("top_ten", "ja"): "全員が1回ずつ親", ("top_ten", "en"): "everyone is captain once",
                     ("word_basket", "ja"): "文字数の条件", ("word_basket", "en"): "Word lengths per player",
                     ("diabolo", "ja"): "2枚で勝ち", ("diabolo", "en"): "two tiles win"}[(game, lang)])
                if game == "decrypto":
                    seats = tv.evaluate("PH.last.party.roster.map((r) => r.seat)")
                    tv.evaluate("(seats) => PH.setOptions({ teams: Object.fromEntries(seats.map((x) => [x, 'white'])) })", seats)
                    expect(phone.get_by_test_id("opt-help-uneven")).to_be_visible()
                    tv.evaluate("() => PH.showHelp('uneven')")
                    expect(line).to_have_attribute("data-option", "uneven")
                    tv.evaluate("() => PH.setOptions({ teams: {} })")
                if game == "diabolo":
                    expect(phone.get_by_test_id("opt-help-handicap")).to_contain_text("4")
                    tv.evaluate("() => PH.setOptions(Object.assign({}, PH.last.party.options, { victory_tiles: true }))")
                    expect(phone.get_by_test_id("opt-help-tile_handicap")).to_be_visible()
                    expect(line).to_have_attribute("data-option", "victory_tiles")  # the change, explained at once
                    assert phone.evaluate(_MISSING, own) == []
                    tv.evaluate("() => PH.setOptions(Object.assign({}, PH.last.party.options, { victory_tiles: false }))")
                if lang == "ja" or game == "diabolo":
                    shot(tv, f"lobby-help-{game}-tv-1080{'-en' if lang == 'en' else ''}.png")
                    phone.locator(".game-options").first.scroll_into_view_if_needed()
                    shot(phone, f"lobby-help-{game}-phone-360{'-en' if lang == 'en' else ''}.png")
                assert phone.evaluate("() => document.documentElement.scrollWidth") <= 360, (game, lang)
        assert not problems, problems
    finally:
        close_all(tv, phone)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_each_explanation_fits_the_720p_tv_beside_nine_long_names(server, browser, sio_peer, lang):
    """The TV's line of explanations, whichever option it explains, leaves the side column
    unscrolled and nothing cut off at 1280×720 with nine 16-character names (the players list
    steps down to make room, as it does for the options themselves)."""
    from .test_e2e_howto import nine_long_names_at_the_tv
    from .test_e2e_lobby_fit import _FIT, _SETTLED

    problems: list[str] = []
    tv = nine_long_names_at_the_tv(server, browser, sio_peer, problems)
    try:
        if lang == "en":
            menu_click(tv, "[data-testid=lang]")
        own = [f"{g}.{n}" for g, n in OWN_WORDS]
        for game in GAMES:
            tv.locator(f"[data-choose={game}]").click()
            tv.wait_for_function(f"() => PH.last.party.game_key === '{game}'")
            for name in tv.evaluate(_NAMES, own):
                tv.evaluate("(n) => PH.showHelp(n)", name)
                expect(tv.get_by_test_id("opt-help-tv")).to_have_attribute("data-option", name)
                tv.evaluate("() => PH.refresh()")
                try:
                    tv.wait_for_function(_SETTLED, timeout=3000)
                except Exception:
                    pass
                fit = tv.evaluate(_FIT)
                assert fit["scroll"] <= 1 and not fit["out"], (game, name, lang, fit)
            shot(tv, f"lobby-help-{game}-tv-720-nine{'-en' if lang == 'en' else ''}.png")
        assert not problems, problems
    finally:
        close_all(tv)
