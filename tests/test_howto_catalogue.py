"""The how-to words (partyhost/i18n/<game>_howto.<lang>.json) and their renderer
(partyhost/static/js/howto.js) cover every registered game, in Japanese and English.

A sixth game that registers without its how-to fails here, not on a game night."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from partyhost import i18n
from partyhost.games import registry

ROOT = Path(__file__).resolve().parent.parent
SECTIONS = ("goal", "have", "turn", "end", "forbidden", "special", "special_label", "example")
HOWTO_JS = (ROOT / "partyhost/static/js/howto.js").read_text("utf-8")


@pytest.mark.parametrize("game", sorted(registry.GAMES))
@pytest.mark.parametrize("lang", i18n.LANGS)
def test_every_game_has_its_how_to_in_every_language(game, lang):
    cat = i18n.catalogue(lang)
    missing = [s for s in SECTIONS if not cat.get(f"{game}.howto.{s}", "").strip()]
    assert not missing, (game, lang, missing)


@pytest.mark.parametrize("game", sorted(registry.GAMES))
def test_every_game_has_a_worked_example_and_its_rules_in_use(game):
    """Each game's example (drawn with its card faces) and its rules in use: in howto.js's tables,
    or registered from the game's own script with ``PH.howto.register``."""
    script = (ROOT / "partyhost/static" / registry.GAMES[game].SCRIPT).read_text("utf-8")
    if re.search(rf"PH\.howto\.register\(\s*[\"']{game}[\"']", script):
        assert "variants" in script and "example" in script, game
        return
    for table in ("VARIANTS", "EXAMPLES"):
        body = HOWTO_JS.split(f"const {table} = {{", 1)[1].split("\n  };", 1)[0]
        assert re.search(rf"^    {game}\(", body, re.M), (table, game)


def test_japanese_how_to_reads_as_japanese():
    """Lists take 、 and sentences 。 in the Japanese text; no ASCII commas or periods."""
    bad = {k: v for k, v in i18n.catalogue("ja").items()
           if (".howto." in k or k.startswith("howto.")) and re.search(r"[,]|\.(?!\d)|\.$", v) and not k.endswith(".ex.word")}
    assert not bad, bad
