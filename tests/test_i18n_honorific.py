"""The server's texts add no second honorific: a player who typed 「ゆうきさん」 is 「ゆうきさん」 in a
template's ``{name}さん`` (partyhost/i18n.py's ``has_honorific`` and ``message``), never
「ゆうきさんさん」. The page's twin (app.js's ``honored`` in ``t``) is checked in
tests/test_e2e_lobby_fit.py."""

from __future__ import annotations

import pytest

from partyhost.i18n import HONORIFICS, catalogue, has_honorific, message, refusal


@pytest.mark.parametrize("name", ["ゆうきさん", "あきちゃん", "けんくん", "太郎君", "山田様", "はなさま", "佐藤氏", " ゆうきさん "])
def test_a_name_ending_in_an_honorific_is_known(name):
    assert has_honorific(name)


@pytest.mark.parametrize("name", ["ゆうき", "Bartholomew Long", "さんた", "ちゃんこ", "さん太", "", "Mr. San"])
def test_a_name_without_one_is_not(name):
    assert not has_honorific(name)


def test_the_list_names_each_one_asked_for():
    assert set(HONORIFICS) == {"さん", "ちゃん", "くん", "君", "様", "さま", "氏"}


@pytest.mark.parametrize("name", ["ゆうきさん", "あきちゃん", "けんくん", "太郎君", "山田様", "はなさま", "佐藤氏"])
def test_a_refusal_adds_no_second_honorific(name):
    # err.player_away is 「{name}さんが離席中です。…」
    text = refusal("ja", "player_away", name=name)
    assert text.startswith(name + "が離席中"), text
    assert "さんさん" not in text and not text.startswith(name + "さん")


def test_a_plain_name_still_gets_its_san():
    assert refusal("ja", "player_away", name="ゆうき").startswith("ゆうきさんが離席中")
    assert message("ja", "list.person", name="ゆうき") == "ゆうきさん"
    assert message("ja", "list.person", name="ゆうきさん") == "ゆうきさん"


def test_every_name_sans_template_keeps_the_rest_of_its_text():
    # every catalogue template with {x}さん: a name ending in さん loses exactly that one さん
    for key, template in catalogue("ja").items():
        if "}さん" not in template:
            continue
        fields = {f.split("}")[0] for f in template.split("{")[1:]}
        named = {f for f in fields if "{" + f + "}さん" in template}
        plain = message("ja", key, **{f: "ゆうき" if f in named else "X" for f in fields})
        honored = message("ja", key, **{f: "ゆうきさん" if f in named else "X" for f in fields})
        assert "さんさん" not in honored, (key, honored)
        assert honored == plain, (key, plain, honored)


def test_english_is_untouched():
    assert refusal("en", "player_away", name="Sam-san").startswith("Sam-san")
