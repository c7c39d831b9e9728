"""Every lobby option of every game has a one-line explanation in both languages (issue 27:
victory tiles, Diabolo's quick players, Word Basket's handicaps and Decrypto's timer were never
explained). The explanation is ``<game>.opt_help.<option>`` unless the game already explains
that option in its own words (listed in :data:`OWN_WORDS`); tests/test_e2e_lobby_help.py checks
each is drawn under its control on the TV and the host's phone.

Pure Python, well under a second.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from partyhost import i18n
from partyhost.games import registry

ROOT = Path(__file__).resolve().parent.parent

#: Options a game's lobby already explained before the help lines: the words it uses.
OWN_WORDS = {("decrypto", "teams"): "decrypto.lobby.hint_host",
             ("word_basket", "word_mode"): "word_basket.ui.mode_help_vote"}


def options() -> list[tuple[str, str]]:
    return [(key, name) for key, cls in sorted(registry.GAMES.items())
            for name in cls.OPTIONS.get("properties", {})]


def test_the_games_have_options_to_explain():
    assert {("diabolo", "victory_tiles"), ("diabolo", "handicap"), ("word_basket", "handicaps"),
            ("decrypto", "timer")} <= set(options())


@pytest.mark.parametrize("lang", i18n.LANGS)
@pytest.mark.parametrize("game,name", options())
def test_every_option_has_its_explanation(game, name, lang):
    key = OWN_WORDS.get((game, name), f"{game}.opt_help.{name}")
    text = i18n.catalogue(lang).get(key, "")
    assert text.strip(), (lang, key)
    # one line's worth: a sentence or two, not a paragraph
    assert len(text) <= (60 if lang == "ja" else 120), (lang, key, len(text))


@pytest.mark.parametrize("game,name", [o for o in options() if o not in OWN_WORDS])
def test_every_explanation_is_drawn_by_its_games_lobby(game, name):
    script = (ROOT / "partyhost/static" / registry.GAMES[game].SCRIPT).read_text("utf-8")
    assert "PH.optHelp(" in script and re.search(rf"""["']{name}["']""", script), (game, name)
