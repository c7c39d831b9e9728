"""Top Ten's staged reveal and the first-round coach: during the drum roll the TV's coach strip
said 「順番ちがい：ユニコーンが1枚うんちに…」 / "Out of order: one unicorn has flipped to poop"
while the spotlight still showed "?" and the tokens were held back: the strip told the table the
miss before the screen did. The strip now waits for the drum (``PH.coachHold`` in coach.js, Top
Ten's hold in top_ten.js) and says it with the 「ミス！」.

Real server on a staged round (coach on), the TV page in Debian's Chromium, the captain's phone
over Socket.IO. A MutationObserver notes the strip's step whenever the drum is on screen, so the
check does not depend on catching the 1.1 s drum in time. About 15 s (mostly the host start).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from partyhost.party import Party
from partyhost.store import Store

from . import reveal_stage as stage
from . import test_top_ten as tt
from .test_e2e_howto import open_tv_at
from .test_e2e_mind import close_all

pytestmark = [pytest.mark.e2e, pytest.mark.server]

NUMBERS = {"s1": 3, "s2": 7, "s3": 5, "s4": 9, "s5": 1}

# every change on the page: if the drum is up, note the strip's step then
_WATCH = """() => { window.__drumSteps = [];
  const note = () => { if (document.querySelector("[data-testid=tt-drum]")) {
    const strip = document.getElementById("coach-strip");
    window.__drumSteps.push(strip && !strip.hidden ? strip.dataset.step : "none"); } };
  new MutationObserver(note).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  note(); }"""


def save_round(data) -> tuple[list[str], list[str]]:
    """Five players, round 1 of Top Ten with the coach on: s1 captains and has revealed 1 and 5;
    the next confirmed pick, 3, is a miss. Returns the phones' tokens (tok0 = s1) and the
    answerers from lowest to highest number."""
    g = tt.make(5, first_captain="s1")
    tt.to_order(g, NUMBERS if "s1" in g.answerers else None)
    order = sorted(g.answerers, key=lambda s: g.numbers[s])
    tt.reveal_in(g, [order[0], order[2]])  # lowest, then the third: no miss yet
    assert not g.reveals[-1]["mistake"]
    party = Party(room="HOLD")
    for i, name in enumerate(stage.NAMES[:5]):
        party.join(name, "ja", lambda i=i: f"tok{i}")
    g.coach = True
    party.game_key, party.game, party.phase = g.KEY, g, "game"
    party.players = party.last_players = list(g.players)
    party.game_serial, party.started_at = 1, 0.0
    store = Store(str(data))
    try:
        store.save({"party": party.to_dict(), "game_now": 10.0})
    finally:
        store.close()
    return [f"tok{i}" for i in range(5)], order


def test_the_coach_strip_waits_for_the_drum_before_it_says_out_of_order(server, browser, sio_peer, tmp_path):
    data = tmp_path / "hold"
    data.mkdir()
    tokens, order = save_round(data)
    srv = server(mode="eventlet", seed=5, data=data, fresh=False)
    problems: list[str] = []
    tv = open_tv_at(browser, srv, problems, 1280, 720)
    try:
        captain = sio_peer(srv.url, {"role": "phone", "token": tokens[0], "lang": "ja"}, "cap")
        captain.wait_state(lambda s: (s.get("me") or {}).get("seat") == "s1", "the captain seated")
        strip = tv.get_by_test_id("coach-strip")
        expect(strip).to_have_attribute("data-step", "order")
        tv.evaluate(_WATCH)
        miss = order[1]  # lower than the one revealed last: a miss
        assert captain.act(type="pick", round=1, seat=miss)["ok"]
        assert captain.act(type="confirm", round=1, seat=miss)["ok"]
        expect(tv.get_by_test_id("tt-miss")).to_be_visible()
        expect(strip).to_have_attribute("data-step", "mistake")
        steps = tv.evaluate("() => window.__drumSteps")
        assert steps, "the drum was never seen on screen"
        assert "mistake" not in steps, f"the strip told the miss under the drum: {steps}"
        assert not problems, problems
    finally:
        close_all(tv)
