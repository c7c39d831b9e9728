"""The words on the screens, checked across every catalogue and page script (issue 16, item 7).

The rules they hold (docs/adding-a-game.md "Words"):

* Japanese text takes full-width ！？（）： — one width per catalogue. The only ASCII mark left is
  Word Basket's "?" badge where the text quotes it as the screen shows it (「?」, （?）).
* A list for display is joined by ``PH.list`` (pages) or ``i18n.join_list`` / a list parameter of
  ``i18n.message`` (server): 、 in Japanese, the browser's list format in English. Never ", ".
* A name inside a Japanese sentence takes さん; a list of people in a sentence is ``{people}``
  (each name with さん, from ``PH.people``); ``{names}`` is a bare list for labels only.
* Word Basket has one word per thing, the phone buttons' words: チャレンジ, 認めない, かご.
* Diabolo counts 秒 and 合計 in Japanese, never "s" or "Σ".
* A value set inside 「」 has its own 「」 turned to 『』.
* 3-player Decrypto (one team) never speaks of "the other team".

Pure file reads and a few game steps: about a second.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from partyhost import i18n
from partyhost.games import decrypto_coach

from .test_decrypto import act, make, play_team, write_all

ROOT = Path(__file__).resolve().parent.parent
I18N = ROOT / "partyhost" / "i18n"
JS = ROOT / "partyhost" / "static" / "js"
JA_FILES = sorted(p for p in I18N.glob("*.json") if p.name == "ja.json" or p.name.endswith(".ja.json"))
QUOTED_MARK = ("「?」", "（?）")  # Word Basket's "?" badge, quoted as the screen draws it


def _ja_values():
    for path in JA_FILES:
        for key, value in json.loads(path.read_text("utf-8")).items():
            yield path.name, key, value


def _code(path: Path) -> str:
    """A script without its comments."""
    text = re.sub(r"/\*.*?\*/", "", path.read_text("utf-8"), flags=re.S)
    return "\n".join(re.sub(r"(^|\s)//.*$", "", line) for line in text.splitlines())


def test_japanese_catalogues_use_full_width_punctuation():
    """「宣言！」 beside 「スタート!」, （2〜6人） beside (2〜4人): one width, full, everywhere."""
    assert JA_FILES and len(JA_FILES) > 20
    bad = {}
    for name, key, value in _ja_values():
        if key == "word_basket.unknown_mark":
            continue  # the badge itself
        text = value
        for mark in QUOTED_MARK:
            text = text.replace(mark, "")
        if re.search(r"[!?():]", text):
            bad[f"{name} {key}"] = value
    assert not bad, bad


def test_japanese_full_width_marks_are_not_followed_by_an_ascii_space():
    bad = {f"{n} {k}": v for n, k, v in _ja_values() if re.search(r"[！？：（] |^ |（ | ）", v)}
    assert not bad, bad


def test_no_japanese_value_starts_with_a_mark_a_line_may_not_start_with():
    """A value drawn in its own element after other text must not begin a line with ー, っ,
    a small kana or a closing mark (kinsoku); the CSS keeps the rest (line-break: strict)."""
    bad = {f"{n} {k}": v for n, k, v in _ja_values() if v and v[0] in "ーっゃゅょぁぃぅぇぉッャュョ、。，．！？）」』：" and ".sep" not in k}
    assert not bad, bad


# --- lists --------------------------------------------------------------------------------------

_LITERAL_JOIN = re.compile(r"""\.join\(\s*(?:"(?:, |、|・)"|'(?:, |、|・)'|t\(\s*"[a-z_]+\.sep\.)""")


@pytest.mark.parametrize("script", sorted(p.name for p in JS.glob("*.js") if p.name != "howto.js"))
def test_pages_join_lists_for_display_through_ph_list(script):
    """The Mind's 「待っている人: あき, Ben」 had a comma; Decrypto and the record each had their own
    separator. Every list goes through ``PH.list`` (or ``PH.people``) now. (howto.js, the
    ``hooks`` helper's, still reads ``decrypto.sep.*``, which say 、 in Japanese.)"""
    hits = [line.strip() for line in _code(JS / script).splitlines() if _LITERAL_JOIN.search(line)]
    hits = [h for h in hits if "Intl.ListFormat" not in h]  # PH.list's own fallback
    assert not hits, hits


def test_ph_list_and_people_are_the_pages_helpers():
    app = (JS / "app.js").read_text("utf-8")
    assert re.search(r"function list\(items\)[\s\S]*Intl\.ListFormat", app)
    assert re.search(r"return \{[^}]*\blist, people\b", app)
    assert i18n.catalogue("ja")["list.sep"] == "、" and i18n.catalogue("en")["list.sep"] == ""
    assert i18n.catalogue("ja")["decrypto.sep.names"] == i18n.catalogue("ja")["decrypto.sep.list"] == "、"


def test_server_lists_follow_the_phones_language():
    """Word Basket's "choose the reading" named its choices with ・ in English too."""
    from partyhost.games.base import RuleError

    assert i18n.join_list("ja", ["はくし", "しらかみ"]) == "はくし、しらかみ"
    assert i18n.join_list("en", ["hakushi", "shirakami"]) == "hakushi, shirakami"
    err = RuleError("wb_reading_needed", word="白紙", readings=["はくし", "しらかみ"])
    assert i18n.refusal("ja", err.code, "word_basket", **err.params).endswith("はくし、しらかみ")
    assert i18n.refusal("en", err.code, "word_basket", **err.params).endswith(": はくし, しらかみ")


# --- names and さん ------------------------------------------------------------------------------


def test_a_list_of_people_in_a_sentence_gives_each_name_its_san():
    """「ゆうき、けんさんを待っています」 gave さん to the last name only: a sentence takes
    ``{people}`` (each name with さん); ``{names}`` is a label's bare list."""
    ja = i18n.catalogue("ja")
    assert not {k: v for k, v in ja.items() if re.search(r"\{people\}さん", v)}
    assert not {k: v for k, v in ja.items() if re.search(r"\{names\}(?:さん|が|の|を|に|は|と|から|へ)", v)}
    assert "{people}" in ja["the_mind.waiting_tv"] and "{people}" in ja["the_mind.event.waiting"]
    assert ja["list.person"] == "{name}さん" and i18n.catalogue("en")["list.person"] == "{name}"


# --- one word per thing -------------------------------------------------------------------------

_WORD_BASKET_WRONG = {"異議": "チャレンジ", "却下": "認めない", "バスケット": "かご"}


def test_word_basket_uses_the_phone_buttons_words_everywhere():
    """Events said 異議あり and 却下 while the buttons say チャレンジ and 認めない; the TV said
    バスケット and かご for the same pile."""
    ja = i18n.catalogue("ja")
    assert "チャレンジ" in ja["word_basket.ui.challenge"] and ja["vote.reject"] == "認めない"
    assert ja["word_basket.ui.basket"].startswith("かご")
    found = {k: (v, w, r) for k, v in ja.items() if k.startswith("word_basket.") and k != "word_basket.name"
             for w, r in _WORD_BASKET_WRONG.items() if w in v}
    assert not found, found


def test_diabolo_counts_in_byo_and_gokei():
    """The dealer's tempo read "4s" and the totals column "Σ" on a Japanese phone."""
    code = _code(JS / "diabolo.js")
    assert '"Σ"' not in code and not re.search(r"\}s<", code)
    ja, en = i18n.catalogue("ja"), i18n.catalogue("en")
    assert i18n.message("ja", "diabolo.interval", seconds=4) == "4秒" and ja["diabolo.total_head"] == "合計"
    assert i18n.message("en", "diabolo.interval", seconds=4) == "4 s" and en["diabolo.total_head"] == "Total"


# --- quotes -------------------------------------------------------------------------------------


def test_a_quote_inside_a_quote_takes_double_brackets():
    """A typed answer 「ねこ」 quoted by the night record read 「「ねこ」」."""
    text = i18n.message("ja", "top_ten.hl.miss", theme="すきな「動物」", before_seat="あき", before_number=3,
                        before_answer="いぬ", seat="Ben", number=2, answer="「ねこ」", gap=1)
    assert "「すきな『動物』」" in text and "「『ねこ』」" in text and "「「" not in text
    # outside 「」 a value stays as it is
    assert i18n.message("ja", "the_mind.waiting_for", names="「x」") == "待っている人：「x」"
    app = (JS / "app.js").read_text("utf-8")
    assert "function nested(template, at, value)" in app  # the pages do the same (tests/test_e2e_copy.py)


def test_no_japanese_catalogue_nests_corner_brackets():
    bad = {}
    for name, key, value in _ja_values():
        depth = 0
        for ch in value:
            depth += (ch == "「") - (ch == "」")
            if depth > 1:
                bad[f"{name} {key}"] = value
    assert not bad, bad


# --- English ------------------------------------------------------------------------------------


def test_english_says_whites_notes_and_names_the_tokens():
    en = i18n.catalogue("en")
    assert i18n.message("en", "decrypto.sheet_of", team="White") == "White's notes"
    assert "token" in en["top_ten.tally"].lower() and "token" in en["top_ten.unicorns_title"].lower()
    assert "{unicorns}" in en["top_ten.tally"] and "{poops}" in en["top_ten.tally"]
    assert en["decrypto.wait.encrypt_title_one"] == "The encryptor is writing clues"


# --- 3-player Decrypto: one team ----------------------------------------------------------------

_OTHER_TEAM = {"ja": "相手チーム", "en": "other team"}


def _strip_texts(g) -> list[tuple[str, str]]:
    s = decrypto_coach.strip(g)
    if not s:
        return []
    out = []
    for part in ("now", "next"):
        key = s[part]["key"]
        for lang in i18n.LANGS:
            out.append((key, i18n.catalogue(lang)[key]))
    return out


def test_three_player_coach_never_speaks_of_the_other_team():
    """From round 2 the TV said the other team listens in: with 3 players there is one team and
    a lone interceptor."""
    g = make(3, seed=1)
    seen: list[tuple[str, str]] = []
    for _ in range(2):
        seen += _strip_texts(g)
        write_all(g)
        seen += _strip_texts(g)
        play_team(g)
        seen += _strip_texts(g)
        act(g, g.players[0], "next")
    keys = {k for k, _ in seen}
    assert "decrypto.coach.next.reveal_end1_three" in keys and "decrypto.coach.next.encrypt2_three" in keys, keys
    bad = [(k, v) for k, v in seen if _OTHER_TEAM["ja"] in v or _OTHER_TEAM["en"] in v.lower()]
    assert not bad, bad


@pytest.mark.parametrize("script", sorted(p.name for p in JS.glob("*.js") if p.name != "howto.js"))
def test_pages_put_no_ascii_colon_or_bracket_after_a_catalogue_text(script):
    """「ゲーム: ザ・マインド」, 「参加者 (3)」: the label's mark is the catalogue's (``list.label``,
    ``list.count``), full-width in Japanese."""
    hits = [line.strip() for line in _code(JS / script).splitlines()
            if re.search(r'esc\(t\("[^"]+"\)\)\}(?::| \()|\(\$\{esc\(t\(', line)]
    assert not hits, hits
