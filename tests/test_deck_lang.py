"""The deck's language follows the table (issue 27): English phones were dealt Japanese
keywords (Decrypto) and themes (Top Ten) by default. The option's default is now ``"auto"``: the
UI language most seated phones use, a tie Japanese; the lobby names what "auto" is now, and the
host can still choose a language. Through the real engine (``tests/helpers.Rig``).
"""

from __future__ import annotations

import pytest

from partyhost.games.base import table_lang

from .helpers import Rig

# (game, its deck-language option)
DECKS = [("decrypto", "lang"), ("top_ten", "themes")]


def table(langs: list[str]) -> tuple[Rig, object]:
    rig = Rig()
    tv = rig.tv()
    for i, lang in enumerate(langs):
        rig.phone(f"p{i}", lang=lang)
    return rig, tv


def test_the_table_language_is_the_majority_of_the_phones_and_a_tie_is_japanese():
    assert table_lang(["en", "en", "ja"]) == "en"
    assert table_lang(["ja", "en"]) == "ja"
    assert table_lang(["en"]) == "en"
    assert table_lang([]) == "ja"
    assert table_lang(["en", "fr", "fr"]) == "en"  # only deck languages count


@pytest.mark.parametrize("game,option", DECKS)
@pytest.mark.parametrize("langs,expected", [
    (["en", "en", "en", "ja"], "en"),
    (["en", "en", "ja", "ja"], "ja"),  # a tie: Japanese
    (["ja", "ja", "ja", "en"], "ja"),
    (["en", "en", "en", "en"], "en"),
])
def test_by_default_the_deck_is_in_the_language_most_phones_use(game, option, langs, expected):
    rig, tv = table(langs)
    assert tv.send("host", {"op": "choose", "game": game})["ok"]
    party = tv.state["party"]
    assert party["table_lang"] == expected  # what the lobby's "auto" option names
    facts = [line for line in party["howto"]["lines"] if line["key"].endswith(".lang") or line["key"].endswith(".themes")]
    assert facts and facts[0]["params"]["lang"]["key"].endswith("." + expected)  # the how-to says it too
    assert tv.send("host", {"op": "start"})["ok"]
    assert rig.game.lang == expected
    assert tv.state["game"]["lang"] == expected
    assert rig.engine.party.options.get(game, {}).get(option, "auto") == "auto"  # the lobby keeps "auto"


@pytest.mark.parametrize("game,option", DECKS)
def test_the_host_can_still_choose_the_decks_language(game, option):
    rig, tv = table(["en", "en", "en", "en"])
    assert tv.send("host", {"op": "choose", "game": game, "options": {option: "ja"}})["ok"]
    assert tv.send("host", {"op": "start"})["ok"]
    assert rig.game.lang == "ja"
    assert tv.send("host", {"op": "end"})["ok"]
    assert tv.send("host", {"op": "choose", "game": game, "options": {option: "auto"}})["ok"]
    assert tv.send("host", {"op": "start"})["ok"]
    assert rig.game.lang == "en"
    assert tv.send("host", {"op": "end"})["ok"]
    refused = tv.send("host", {"op": "choose", "game": game, "options": {option: "fr"}})
    assert refused["ok"] is False and refused["code"] == "bad_options"
