"""Issue 14: a Decrypto clue may not be a keyword in another form — its romaji, its translation into
the other deck language (and that word's plural/inflections), or another spelling the dictionary
knows. The refusal names the keyword's number, never the keyword. Forms are built by
``tools/build_decrypto_forms.py`` into ``games/data/decrypto_forms.<lang>.txt``."""

from __future__ import annotations

import pytest

from partyhost.games import decrypto_words as words
from partyhost.games.base import RuleError

JA = ["猫", "卵", "ハチミツ", "恐竜"]


def refused_number(clue: str, keywords: list[str], lang: str) -> int:
    with pytest.raises(RuleError) as info:
        words.check_clue(clue, keywords, set(), lang)
    assert info.value.code == "dc_clue_is_keyword"
    assert set(info.value.params) == {"clue", "number"}  # never the keyword itself
    return info.value.params["number"]


@pytest.mark.parametrize("clue, number", [
    ("neko", 1), ("Neko", 1), ("ＮＥＫＯ", 1), ("cat", 1), ("Cats", 1), ("ねこ", 1), ("ネコ", 1),
    ("玉子", 2), ("egg", 2), ("eggs", 2), ("tamago", 2), ("たまご", 2),
    ("蜂蜜", 3), ("はちみつ", 3), ("honey", 3), ("hachimitsu", 3), ("hatimitu", 3),
    ("kyouryuu", 4), ("kyoryu", 4), ("Kyōryū", 4), ("kyouryu", 4), ("きょうりゅう", 4),
    ("dinosaur", 4), ("dinosaurs", 4),
])
def test_issue_examples_are_refused_by_number(clue, number):
    assert all(k in words.deck("ja") for k in JA)
    assert refused_number(clue, JA, "ja") == number


@pytest.mark.parametrize("clue", ["dog", "kitten house", "ねこじゃらし", "たまごやき", "honeybee", "tokyo", "mimi"])
def test_related_words_are_still_fine(clue):
    assert words.check_clue(clue, JA, set(), "ja") == words.tidy(clue)


def test_english_keyword_refuses_inflections_and_japanese_translation():
    kws = ["cat", "mouse", "fly", "spring"]
    assert all(k in words.deck("en") for k in kws)
    for clue, n in [("cats", 1), ("猫", 1), ("ねこ", 1), ("neko", 1), ("mice", 2), ("ねずみ", 2),
                    ("flies", 3), ("flew", 3), ("flying", 3), ("springs", 4), ("春", 4)]:
        assert refused_number(clue, kws, "en") == n, clue
    assert words.check_clue("kitten", kws, set(), "en") == "kitten"


def test_another_teams_keyword_forms_are_not_checked():
    # refusing them would tell the encryptor a secret
    assert words.check_clue("neko", ["犬", "月", "はし", "ロケット"], set(), "ja") == "neko"


def test_every_keyword_has_forms_and_every_form_is_normalised():
    for lang in ("ja", "en"):
        table = words.forms(lang)
        deck = words.deck(lang)
        assert len(table) >= 0.95 * len(deck), lang
        for kw, fs in table.items():
            assert kw in deck
            assert all(f == words.normalize(f) and f for f in fs)
    # a Japanese keyword always has its romaji
    assert {"hashi", "hasi"} <= words.clue_forms("はし", "ja")
    assert "rocket" in words.clue_forms("ロケット", "ja")


def test_forms_are_not_the_other_keywords_of_the_same_deck_by_accident():
    # a form that is itself another keyword would make that keyword unusable as a clue word
    # for a team holding both; count them so the build does not drift silently
    for lang in ("ja", "en"):
        deck = {words.normalize(k) for k in words.deck(lang)}
        clashes = [(k, f) for k, fs in words.forms(lang).items() for f in fs if f in deck]
        assert len(clashes) < 0.05 * len(deck), clashes[:20]


def test_romaji_folding_applies_to_romaji_only():
    assert words.romaji_key("kyōryū") == words.romaji_key("kyouryuu") == words.romaji_key("kyoryu")
    assert words.romaji_key("shimbun") == words.romaji_key("shinbun")
    # an English keyword's own forms are not folded: "hop" is not "hoop", "mon" is not "moon"
    kws = ["moon", "cat", "mouse", "fly"]
    assert all(k in words.deck("en") for k in kws)
    assert words.check_clue("mon", kws, set(), "en") == "mon"


def test_the_refusal_message_names_the_number_not_the_keyword():
    from partyhost import i18n

    with pytest.raises(RuleError) as info:
        words.check_clue("cats", JA, set(), "ja")
    for lang in ("ja", "en"):
        text = i18n.refusal(lang, info.value.code, "decrypto", **info.value.params)
        assert "1" in text and "cats" in text and "猫" not in text, text
