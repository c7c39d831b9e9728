"""The built-in Japanese noun list (partyhost.lexicon.japanese) and its shipped data files."""

from __future__ import annotations

import gzip
from importlib import resources

import pytest

from partyhost.lexicon import japanese
from partyhost.lexicon.kana import ReadingError, reading


@pytest.fixture(scope="module", autouse=True)
def loaded():
    japanese.load()
    assert japanese.loaded()


# every word the rulebook (seeds/002_…) and the research notes use, typed as a player would
RULEBOOK_WORDS = ["あひる", "ルビー", "しんがっき", "ついか", "あいどる", "すきー", "らっこ", "しゅみ",
                  "はっぱ", "つみき"]
PROPER = ["アメリカ", "しょうとくたいし"]  # named by the rulebook as allowed proper nouns
EVERYDAY = ["ねこ", "いぬ", "さくら", "りんご", "ごりら", "らっぱ", "こーひー", "パーティー",
            "ばなな", "てれび", "しんかんせん", "えんぴつ", "かばん", "ちきゅう", "おとな"]
PLACES_AND_PEOPLE = ["にほん", "ふらんす", "とうきょう", "とうきょうと", "おおさか", "ほっかいどう",
                     "あおもりけん", "なごや", "ふじさん", "ぱり", "おだのぶなが", "むらさきしきぶ",
                     "えじそん", "ぴかそ", "なつめそうせき", "まつおばしょう", "しんじゅく",
                     "はこね", "しぶや"]


@pytest.mark.parametrize("word", RULEBOOK_WORDS + PROPER + EVERYDAY + PLACES_AND_PEOPLE)
def test_known_words(word):
    assert japanese.is_known(reading(word).kana)


@pytest.mark.parametrize("word", ["あいうえ", "ぬぬぬ", "けけけけ", "もぷりぽ", "らりるれろ",
                                  "ぱぴぷぺ", "んあい", "ああああ", "ひるあ", "ーー"])
def test_non_words_are_unknown(word):
    try:
        kana = reading(word).kana
    except ReadingError:
        kana = word
    assert not japanese.is_known(kana)


def test_is_known_takes_normalised_kana_only():
    # the list holds hiragana readings: katakana or unnormalised text is the caller's job
    assert japanese.is_known("るびー")
    assert not japanese.is_known("ルビー")
    assert not japanese.is_known("")


def test_readings_of_kanji():
    assert "しんがっき" in japanese.readings_of("新学期")
    assert japanese.readings_of("聖徳太子") == ["しょうとくたいし"]
    assert japanese.readings_of("夏目漱石") == ["なつめそうせき"]
    assert japanese.readings_of("追加")[0] == "ついか"
    assert japanese.readings_of("積み木")[0] == "つみき"
    assert japanese.readings_of("趣味")[0] == "しゅみ"
    assert japanese.readings_of("葉っぱ")[0] == "はっぱ"
    assert japanese.readings_of("今日")[0] == "きょう"
    assert japanese.readings_of("大人")[0] == "おとな"
    assert set(japanese.readings_of("日本")[:2]) == {"にほん", "にっぽん"}
    assert "いちば" in japanese.readings_of("市場") and "しじょう" in japanese.readings_of("市場")


def test_the_first_reading_of_a_common_surface_is_a_known_word():
    # issue 14: only the likely reading of a common written form is known; a rare one
    # (今日 → こんち) is still offered as a reading but goes to the table with "?"
    for surface in ("新学期", "今日", "日本", "東京都", "織田信長", "歯ブラシ"):
        rs = japanese.readings_of(surface)
        assert rs, surface
        assert len(rs) == len(set(rs))
        assert japanese.is_known(rs[0]), surface
        for r in rs:
            assert reading(r).kana == r
    assert "こんち" in japanese.readings_of("今日") and not japanese.is_known("こんち")
    # 上手 (じょうず) is an adjectival noun (な-adjective) in both dictionaries: the table judges it
    assert japanese.readings_of("上手")[0] == "じょうず" and not japanese.is_known("じょうず")


def test_readings_of_normalises_the_surface():
    assert japanese.readings_of("歯ブラシ") == japanese.readings_of("歯ぶらし") == ["はぶらし"]
    assert japanese.readings_of(" 新 学期 ") == japanese.readings_of("新学期")
    assert japanese.readings_of("\t新学期\n") == ["しんがっき"]  # whitespace is dropped
    assert japanese.readings_of("Ｔシャツ") == japanese.readings_of("Tシャツ")
    assert "てぃーしゃつ" in japanese.readings_of("Tシャツ")


@pytest.mark.parametrize("surface", ["", "  ", "ねこ", "ネコ", "漢字漢字漢字", "abc", "新学期x",
                                     "新学期\x00", "新\u3099学期", "(大成)"])
def test_readings_of_unknown(surface):
    assert japanese.readings_of(surface) == []


def test_first_and_last_surface_lines_are_found():
    text = gzip.decompress(
        resources.files("partyhost.lexicon").joinpath("data", japanese.SURFACES_FILE).read_bytes()
    ).decode()
    lines = text.strip("\n").split("\n")
    for line in (lines[0], lines[1], lines[len(lines) // 2], lines[-1]):
        surface, *rs = line.split("\t")
        assert japanese.readings_of(surface) == rs


def test_data_ships_as_package_data_with_its_licences():
    data = resources.files("partyhost.lexicon").joinpath("data")
    names = {p.name for p in data.iterdir()}
    assert {japanese.READINGS_FILE, japanese.SURFACES_FILE, "README.md", "EDRDG-LICENCE.md",
            "LICENSE-Apache-2.0.txt", "NOTICE-SudachiDict.txt"} <= names
    readme = data.joinpath("README.md").read_text(encoding="utf-8")
    assert "Attribution-ShareAlike 3.0" in readme and "Electronic Dictionary Research" in readme


def test_readings_file_is_normalised_sorted_and_large():
    text = gzip.decompress(
        resources.files("partyhost.lexicon").joinpath("data", japanese.READINGS_FILE).read_bytes()
    ).decode()
    rows = text.rstrip("\n").split("\n")
    assert rows == sorted(set(rows))
    assert 60_000 < len(rows) < 150_000  # issue 14: popular nouns only (was 250k candidates)
    for r in rows[:: len(rows) // 2000]:
        assert reading(r).kana == r


def test_load_is_idempotent():
    before = japanese._readings
    japanese.load()
    assert japanese._readings is before
