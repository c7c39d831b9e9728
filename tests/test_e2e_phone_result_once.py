"""Each phone says a game's result once (trial, "left alone"): the shared headline from reveal.js
(「あなたの勝ち!」, 「あかりさんの勝ち」, "You won!", "あかり won") is the only line that says who won;
a game's own phone result line (Word Basket's 「★ あかりさんの勝ち!」, Diabolo's 「優勝:あかり」,
The Mind's 「…みんなの勝ち!」) no longer repeats it, and the English headlines share one tense.
The TV keeps the games' own lines.

Each of the five games is staged at its end (tests/reveal_stage.py) and a host started on it; two
phones at 360x800, one Japanese and one English, read their end screens. Waits are on state.
About 30 s (five hosts).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from . import reveal_stage as stage
from .test_e2e_mind import close_all, watch
from .test_e2e_reveals import scene

pytestmark = [pytest.mark.e2e, pytest.mark.server]

# (stage, the Japanese phone's seat index and headline, the English phone's seat index and headline)
CASES = {
    "word_basket": (stage.word_basket_over, (1, "さくらさんの勝ち"), (0, "You won!")),
    "diabolo": (stage.diabolo_over, (0, "あかりさんの勝ち"), (1, "You won!")),
    "the_mind": (stage.the_mind_won, (0, "みんなの勝ち！"), (1, "The team won!")),
    "top_ten": (stage.top_ten_over, (0, "みんなの勝ち！"), (1, "The team won!")),
    "decrypto": (stage.decrypto_over, (0, "あなたのチームの勝ち！"), (1, "White won")),
}

# how many times the page says that someone won or lost
_SAID = {"ja": re.compile(r"勝ち|勝利|負け|優勝"), "en": re.compile(r"\b(won|wins?|winner|lost)\b", re.I)}


@pytest.mark.parametrize("game", list(CASES))
def test_each_phone_says_the_result_once(server, browser, sio_peer, tmp_path, game):
    build, *phones_wanted = CASES[game]
    srv, tokens, _ = scene(server, sio_peer, tmp_path, build, present=False)
    problems: list[str] = []
    pages = []
    try:
        for lang, (index, headline) in zip(("ja", "en"), phones_wanted):
            ctx = browser.new_context(viewport={"width": 360, "height": 800}, device_scale_factor=1)
            ctx.add_init_script(f"localStorage.setItem('ph.token', {tokens[index]!r});"
                                f"localStorage.setItem('ph.lang', {lang!r})")
            page = ctx.new_page()
            pages.append(page)
            watch(page, f"{game} phone {lang}", problems)
            page.goto(srv.lan_url + "/")
            expect(page.get_by_test_id("you-result")).to_have_text(headline)
            text = page.locator("#app").inner_text()
            said = _SAID[lang].findall(text)
            assert len(said) == 1, (game, lang, said, text)
            # and no second result box under the headline
            assert page.locator("#app [data-testid=winner], #app .result.won:not(.detail), #app .wb-won").count() == 0
        assert not problems, problems
    finally:
        close_all(*pages)
