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
    """Each game's example (drawn with its card faces: in howto.js's table, or registered from the
    game's own script with ``PH.howto.register``) and its rules in use (its own
    ``howto_facts`` on the server, see tests/test_howto_facts.py)."""
    cls = registry.GAMES[game]
    assert "howto_facts" in vars(cls), game
    script = (ROOT / "partyhost/static" / cls.SCRIPT).read_text("utf-8")
    if re.search(rf"PH\.howto\.register\(\s*[\"']{game}[\"']", script):
        assert "example" in script, game
        return
    body = HOWTO_JS.split("const EXAMPLES = {", 1)[1].split("\n  };", 1)[0]
    assert re.search(rf"^    {game}\(", body, re.M), game


def test_the_page_keeps_no_copy_of_a_games_rules_in_use():
    """howto.js only draws the server's lines: no table of rules per game left to drift."""
    assert "VARIANTS" not in HOWTO_JS
    assert "party.howto" in HOWTO_JS


def test_japanese_how_to_reads_as_japanese():
    """Lists take 、 and sentences 。 in the Japanese text; no ASCII commas or periods."""
    bad = {k: v for k, v in i18n.catalogue("ja").items()
           if (".howto." in k or k.startswith("howto.")) and re.search(r"[,]|\.(?!\d)|\.$", v) and not k.endswith(".ex.word")}
    assert not bad, bad


def test_japanese_puts_san_after_a_name_inside_a_sentence():
    """A name inside a Japanese sentence takes さん (「Benの「ATT」は…」 read as rude on the TV);
    a label such as ``{name}: …`` or ``親: {name}`` may stand bare."""
    name = r"\{(?:name|names|by|next|who|winner|[a-z_]*seat)\}"
    bad = {k: v for k, v in i18n.catalogue("ja").items()
           if re.search(name + r"(?:が|の|を|に|は|と|以外|から|へ|より)", v)}
    assert not bad, bad


# The words each game's own screens use (buttons, score rows): how-to, coach and the help sheet's
# "what you can do now" say the same, so a newcomer finds the button the text names.
_SAME_WORDS = {
    ("decrypto", "ja"): {"トークン": "チップ", "暗号": "コード"},
    ("diabolo", "ja"): {"送信": "宣言", "トライデント": "ジョーカー", "却下": "認めない"},
    ("diabolo", "en"): {"send": "claim", "trident": "joker"},
    ("word_basket", "en"): {"リーチ": "Reach"},
    ("word_basket", "ja"): {"却下": "認めない", "異議": "チャレンジ"},
    ("top_ten", "ja"): {"開け": "オープン"},
}


@pytest.mark.parametrize("game,lang", sorted(_SAME_WORDS))
def test_teaching_text_uses_the_games_own_words(game, lang):
    cat = i18n.catalogue(lang)
    teach = {k: v for k, v in cat.items()
             if k.startswith((f"{game}.howto.", f"{game}.coach.", f"{game}.guide."))
             and not k.endswith("blurb")}
    assert teach
    found = {k: (v, wrong, right) for k, v in teach.items() for wrong, right in _SAME_WORDS[(game, lang)].items()
             if re.search(rf"\b{wrong}" if wrong.isascii() else wrong, v, re.I)}
    assert not found, found


def test_a_code_such_as_3_1_4_never_breaks_across_lines():
    """The phone's tip broke 「3-」 / 「1-4)」 at 360 px: a code's hyphens carry word joiners (U+2060)."""
    bad = {(lang, k): v for lang in i18n.LANGS for k, v in i18n.catalogue(lang).items()
           if re.search(r"\d-\d", v)}
    assert not bad, bad


@pytest.mark.parametrize("count", [2, 3, 4])
def test_the_minds_how_to_says_which_levels_reward_a_life_or_a_shuriken(count):
    """A newcomer asked when lives come back ("some levels" told nothing): the rules in use name
    the rewarded levels and the caps, the engine's table, for the table's own count. Issue 27:
    the text named level 9 in a 4-player game of 8 levels (now: levels before the last only)."""
    from partyhost.games.the_mind import MAX_LIVES, MAX_SHURIKEN, PLAYER_COUNT_TABLE, REWARDS, TheMind

    lines = TheMind.howto_facts({}, [f"s{i}" for i in range(count)])
    p = next(m for m in lines if m["key"] == "the_mind.howto.v.rewards")["params"]
    last = PLAYER_COUNT_TABLE[count]["levels"]
    assert p["shuriken"]["join"] == [lv for lv in sorted(REWARDS) if REWARDS[lv] == "shuriken" and lv < last]
    assert p["lives"]["join"] == [lv for lv in sorted(REWARDS) if REWARDS[lv] == "life" and lv < last]
    assert (p["max_lives"], p["max_shuriken"]) == (MAX_LIVES, MAX_SHURIKEN)
    assert all(lv < last for lv in p["shuriken"]["join"] + p["lives"]["join"])
    if count == 4:
        assert 9 not in p["lives"]["join"] and 8 not in p["shuriken"]["join"]
    # and every count's row of the how-to says the same
    row = next(r for r in TheMind.howto_counts({}) if r["min"] <= count <= r["max"])
    short = next(m for m in row["lines"] if m["key"] == "the_mind.howto.c.rewards")["params"]
    assert (short["shuriken"], short["lives"]) == (p["shuriken"], p["lives"])
    # the rules text itself names no level: the levels depend on the count
    for lang in i18n.LANGS:
        text = i18n.catalogue(lang)["the_mind.howto.special"]
        assert not set(re.findall(r"\d+", text)) & {str(lv) for lv in REWARDS}, text
