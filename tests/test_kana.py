"""Reading a word (RULES.md "Word Basket → Reading a word"; rulebook seeds/002_…)."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from partyhost.lexicon.kana import (
    MAX_KANA,
    ROWS,
    Reading,
    ReadingError,
    normalize,
    plain,
    reading,
    row_of,
)


def refused(text: str) -> ReadingError:
    with pytest.raises(ReadingError) as err:
        reading(text)
    return err.value


# --- every example in the rulebook ------------------------------------------------------------

@pytest.mark.parametrize(
    "word, kana, length, first, last",
    [
        ("あひる", "あひる", 3, "あ", "る"),       # first play on あ ending with る
        ("ルビー", "るびー", 3, "る", "い"),       # る・び・ー = 3, the ー joins on い
        ("すきー", "すきー", 3, "す", "い"),       # 3 kana; next field い
        ("らっこ", "らっこ", 3, "ら", "こ"),       # small っ counts one
        ("しゅみ", "しゅみ", 3, "し", "み"),       # small ゅ counts one
        ("はっぱ", "はっぱ", 3, "は", "は"),       # last ぱ → は (は/ば/ぱ may follow)
        ("しんがっき", "しんがっき", 5, "し", "き"),  # the 5 wild: し・ん・が・っ・き
        ("ついか", "ついか", 3, "つ", "か"),       # か-row wild, next field か
        ("つみき", "つみき", 3, "つ", "き"),       # same card, next field き
        ("あいどる", "あいどる", 4, "あ", "る"),     # 4 kana: a legal last card
        ("アメリカ", "あめりか", 4, "あ", "か"),     # proper nouns allowed
        ("しょうとくたいし", "しょうとくたいし", 8, "し", "し"),
    ],
)
def test_rulebook_examples(word, kana, length, first, last):
    r = reading(word)
    assert r == Reading(kana=kana, length=length, first=first, last=last, ends_with_n=False)


def test_same_reading_for_katakana_and_hiragana():
    assert reading("ルビー") == reading("るびー")
    assert reading("アイドル") == reading("あいどる")


# --- 1. NFKC ---------------------------------------------------------------------------------

def test_half_width_katakana_folds_with_its_marks():
    assert reading("ﾙﾋﾞｰ") == reading("ルビー")
    assert reading("ｶﾞｯｺｳ").kana == "がっこう"
    assert reading("ﾊﾟｰﾃｨｰ") == Reading("ぱーてぃー", 5, "は", "い", False)


def test_combining_marks_compose():
    assert reading("か\u3099っこう").kana == "がっこう"
    assert reading("は\u309aんた\u3099").kana == "ぱんだ"
    assert reading("ひ\u309aあの").kana == "ぴあの"
    # a spacing ゛ typed after a kana (NFKC turns it into space + combining mark)
    assert reading("か゛め").kana == "がめ"


def test_full_width_space_and_latin_forms_fold():
    assert reading("ソフト　クリーム").kana == "そふとくりーむ"
    e = refused("ＡＢＣ")
    assert e.code == "word_not_kana" and e.params["char"] == "A"


# --- 2. katakana → hiragana, kana only ----------------------------------------------------------

def test_vu_and_historical_katakana():
    assert reading("ヴァイオリン").kana == "ゔぁいおりん"
    assert reading("ヰヱヲ").kana == "ゐゑを"
    assert reading("ヵヶ").kana == "ゕゖ"
    # ヷ has no hiragana letter: kept as わ + combining dakuten, one kana long
    r = reading("ヷイン")
    assert r.length == 3 and r.first == "わ"


@pytest.mark.parametrize("word, char", [("新学期", "新"), ("abc", "a"), ("りんご!", "!"),
                                        ("あ。", "。"), ("すし🍣", "🍣"), ("一ー", "一")])
def test_non_kana_is_refused(word, char):
    e = refused(word)
    assert e.code == "word_not_kana"
    assert e.params == {"char": char}


def test_mixed_kanji_and_kana_is_refused():
    assert refused("お茶").code == "word_not_kana"


def test_spaces_and_dots_are_dropped_and_not_counted():
    r = reading("レオナルド・ダ・ヴィンチ")
    assert r.kana == "れおなるどだゔぃんち" and r.length == 10
    assert reading(" あ ひ る ").kana == "あひる"
    assert reading("ジャン＝ジャック").kana == "じゃんじゃっく"
    assert reading("ﾏｲ･ﾎｰﾑ").kana == "まいほーむ"  # half-width ･


def test_dash_like_marks_stand_for_the_long_vowel():
    assert reading("すき〜") == reading("すきー")
    assert reading("すき～") == reading("すきー")
    assert reading("ｽｷｰ") == reading("すきー")


def test_iteration_marks_are_spelled_out():
    assert reading("いすゞ").kana == "いすず"
    assert reading("こゝろ").kana == "こころ"
    assert refused("ゝあ").code == "word_not_kana"


def test_empty():
    for text in ("", "   ", "　", "・", "・ ・"):
        assert refused(text).code == "word_empty"


def test_leading_long_vowel_is_refused():
    e = refused("ーあい")
    assert e.code == "word_not_kana" and e.params == {"char": "ー"}


def test_too_long():
    assert reading("あ" * MAX_KANA).length == MAX_KANA
    e = refused("あ" * (MAX_KANA + 1))
    assert e.code == "word_too_long" and e.params == {"max": MAX_KANA, "length": MAX_KANA + 1}
    # spaces do not count towards the limit
    assert reading(" ".join("あ" * MAX_KANA)).length == MAX_KANA
    # absurd input is refused without normalising it
    e = refused("x" * 100_000)
    assert e.code == "word_too_long"


# --- 3. length ----------------------------------------------------------------------------------

@pytest.mark.parametrize("word, n", [("きゃっきゃ", 5), ("ちょー", 3), ("ぱーてぃー", 5),
                                     ("ー".join("あいう"), 5), ("っ", 1)])
def test_length_counts_small_kana_sokuon_and_long_vowel(word, n):
    assert reading(word).length == n


# --- 4. first kana -----------------------------------------------------------------------------

@pytest.mark.parametrize("word, first", [("がっこう", "か"), ("ぱんだ", "は"), ("ばなな", "は"),
                                         ("ゔぁいおりん", "う"), ("じてんしゃ", "し"), ("ぢめん", "ち")])
def test_first_drops_dakuten(word, first):
    assert reading(word).first == first


# --- 5. last kana ------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "word, last",
    [
        ("すきー", "い"), ("るびー", "い"), ("こーひー", "い"), ("ぼーる", "る"),
        ("しょー", "お"),      # ー after a small kana: that kana's own vowel
        ("ちゃー", "あ"), ("きゅー", "う"), ("ぱーてぃー", "い"), ("ふぁー", "あ"),
        ("らっこー", "お"), ("かっ", "つ"), ("かっー", "う"),
        ("すきーー", "い"),    # a run of ー
        ("きしゃ", "や"), ("しゅ", "ゆ"), ("きょ", "よ"),
        ("ふぁ", "あ"), ("てぃ", "い"), ("とぅ", "う"), ("ちぇ", "え"), ("うぉ", "お"),
        ("くゎ", "わ"), ("ゎ", "わ"), ("いっかゖ", "け"), ("ゕ", "か"),
        ("はっぱ", "は"), ("かば", "は"), ("かぎ", "き"), ("ちず", "す"), ("はなぢ", "ち"),
        ("ゔ", "う"), ("ゔー", "う"), ("かげー", "え"), ("ぴー", "い"),
        ("ゐ", "ゐ"), ("を", "を"), ("ゑー", "え"),
    ],
)
def test_last_kana(word, last):
    r = reading(word)
    assert r.last == last
    assert r.ends_with_n is False


@pytest.mark.parametrize("word", ["みかん", "らーめん", "ミカン", "みかんー", "みかんーー", "ん",
                                  "ｶﾞｰﾃﾞﾝ", "ヴァイオリン"])
def test_ends_with_n(word):
    r = reading(word)
    assert r.ends_with_n is True and r.last == "ん"


def test_n_inside_a_word_is_fine():
    r = reading("しんがっき")
    assert r.ends_with_n is False


# --- 6. next field is the plain last kana; rows -----------------------------------------------------

def test_rows_cover_the_45_gojuon_kana_once():
    kanas = "".join(ROWS.values())
    assert len(kanas) == len(set(kanas)) == 45
    assert "ん" not in kanas
    assert ROWS["や"] == "やゆよ" and ROWS["わ"] == "わを"
    assert list(ROWS) == list("あかさたなはまやらわ")
    for row, members in ROWS.items():
        assert members[0] == row
        for k in members:
            assert row_of(k) == row


@pytest.mark.parametrize("kana, row", [("が", "か"), ("ぶ", "は"), ("ぽ", "は"), ("ぢ", "た"),
                                       ("ゔ", "あ"), ("ぁ", "あ"), ("ゃ", "や"), ("っ", "た"),
                                       ("ゎ", "わ"), ("を", "わ"), ("ゐ", "わ"), ("ゑ", "わ"),
                                       ("ゕ", "か"), ("よ", "や")])
def test_row_of(kana, row):
    assert row_of(kana) == row


@pytest.mark.parametrize("kana", ["ん", "ー", "", "a", "新", "ア"])
def test_row_of_none(kana):
    assert row_of(kana) is None


def test_row_wild_examples_from_the_rulebook():
    # か-row wild on field つ: ついか and つみき both end in the か row; next field is the real kana
    for word, nxt in (("ついか", "か"), ("つみき", "き")):
        r = reading(word)
        assert row_of(r.last) == "か" and r.last == nxt


def test_plain():
    assert plain("が") == "か" and plain("ぱ") == "は" and plain("ゔ") == "う"
    assert plain("ゃ") == "ゃ"  # small → large is not plain's job
    assert plain("か") == "か" and plain("ん") == "ん" and plain("ー") == "ー"
    assert plain("がぎぐ") == "かきく"
    assert plain("わ\u3099") == "わ"


# --- the pipeline is one function of the text ----------------------------------------------------

_KANA_TEXT = st.text(
    alphabet=st.sampled_from(
        [chr(c) for c in range(0x3041, 0x3097)] + [chr(c) for c in range(0x30A1, 0x30F7)]
        + list("ー・ 　ｱｶﾞﾊﾟｰ")
    ),
    max_size=40,
)


@given(_KANA_TEXT)
def test_normalize_is_idempotent_and_reading_is_stable(text):
    once = normalize(text)
    assert normalize(once) == once
    try:
        r = reading(text)
    except ReadingError as e:
        assert e.code in {"word_empty", "word_not_kana", "word_too_long"}
        return
    assert reading(r.kana) == r
    assert r.length == len(r.kana) - sum(c in "\u3099\u309a" for c in r.kana)
    assert 1 <= r.length <= MAX_KANA
    assert unicodedata.normalize("NFD", r.first)[0] == r.first[0]
    assert r.ends_with_n == (r.last == "ん")
    assert r.last == "ん" or r.last == plain(r.last)


@given(st.text(max_size=60))
def test_any_text_reads_or_is_refused_with_a_known_code(text):
    try:
        reading(text)
    except ReadingError as e:
        assert e.code in {"word_empty", "word_not_kana", "word_too_long"}
