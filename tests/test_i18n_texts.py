"""Every catalogue text, scanned (issue 27: "1 cards", stray spaces, ja/en that said different
things): every file of partyhost/i18n/ in both languages, the same keys file by file, the same
placeholders key by key, no stray whitespace, and English plurals that follow their number
through ``{n, plural, …}`` with the same form on the server (Babel's CLDR rules) and on the page
(app.js's ``plurals`` with the browser's ``Intl.PluralRules``, run in Node when it is there).

Pure Python (Node for one test), about a second.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from partyhost import i18n

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "partyhost" / "i18n"
FILES = sorted(FOLDER.glob("*.json"))

#: Texts that are pieces glued between or after others, whose edge space is the point (", ",
#: "{label}: ", the English " row" after a row's kana). Nothing else may start or end in a space.
SEPARATORS = {"decrypto.sep.names", "decrypto.sep.list", "list.label", "howto.sep.facts",
              "the_mind.sep.levels", "word_basket.ui.row_suffix"}

#: Placeholders that carry a number (a count, a limit, a score): an English noun after one of
#: them takes its form from it. Each is used by some template (checked below, so the list stays true).
NUMBERS = {"count", "of", "games", "min", "max", "rounds", "tokens", "win", "lose", "levels", "lives",
           "shuriken", "minus", "seconds", "points", "ms", "margin", "times", "draw", "total", "round",
           "level", "white", "black", "card"}

#: Words ending in s after a literal or numbered 1 that are not plural nouns ("Round 1 is over",
#: "count 1 less", "Level 1 deals", "1 ms").
NOT_NOUNS = {"is", "ms", "means", "less", "deals", "address"}  # "address": a singular ending in s


def stem_lang(path: Path) -> tuple[str, str]:
    parts = path.name.split(".")  # "ja.json" (the shared words) or "<stem>.<lang>.json"
    return (".".join(parts[:-2]), parts[-2]) if len(parts) > 2 else ("", parts[0])


def test_every_file_has_its_twin_with_the_same_keys():
    by = {}
    for path in FILES:
        by.setdefault(stem_lang(path)[0], {})[stem_lang(path)[1]] = set(json.loads(path.read_text("utf-8")))
    for stem, langs in by.items():
        assert set(langs) == set(i18n.LANGS), stem
        assert langs["ja"] == langs["en"], (stem, langs["ja"] ^ langs["en"])


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_no_stray_whitespace(path):
    bad = {}
    for key, text in json.loads(path.read_text("utf-8")).items():
        if key in SEPARATORS:
            continue
        if text != text.strip():
            bad[key] = "leading or trailing space"
        elif re.search(r"\s{2}|\u3000", text):
            bad[key] = "double or ideographic space"
        elif re.search(r" [、。，．！？）」』]|[（「『] ", text):
            bad[key] = "space beside Japanese punctuation"
    assert not bad, bad


def test_the_placeholders_are_the_same_in_both_languages_and_plurals_parse():
    ja, en = i18n.catalogue("ja"), i18n.catalogue("en")
    for key in en:
        for lang, text in (("ja", ja[key]), ("en", en[key])):
            i18n.plurals(lang, text, {})  # raises on a malformed block
        ja_names, en_names = i18n.placeholders(ja[key]), i18n.placeholders(en[key])
        en_names -= i18n.selector_only(en[key]) - ja_names  # "levels" vs "level": no Japanese form
        if key == "err.malformed":  # the validator's English detail only in the English sentence
            en_names -= {"detail"}
        assert ja_names == en_names, key


def test_no_english_noun_ignores_its_number():
    """With every number 1, no English text reads "1 cards" / "1 players" (they did: Diabolo's
    "1 cards" on a pile of one, "1 players" in the how-to)."""
    en = i18n.catalogue("en")
    used = set().union(*(i18n.placeholders(v) for v in en.values()))
    assert NUMBERS <= used, NUMBERS - used
    bad = {}
    for key, text in en.items():
        params = {n: 1 if n in NUMBERS else "X" for n in i18n.placeholders(text)}
        out = i18n.message("en", key, **params)
        found = [m.group(0) for m in re.finditer(r"(?<![–-])\b1 ([a-z]+s)\b", out) if m.group(1) not in NOT_NOUNS]
        if found:
            bad[key] = out
    assert not bad, bad
    # and the plural form really follows the number, both ways
    assert i18n.message("en", "diabolo.cards", count=1) == "1 card"
    assert i18n.message("en", "diabolo.cards", count=2) == "2 cards"
    assert i18n.message("en", "diabolo.cards", count="1") == "1 card"
    assert i18n.message("ja", "diabolo.cards", count=1) == "1枚"
    assert i18n.message("en", "diabolo.howto.c.deals", times=2) == "Everyone deals twice"


def test_no_icon_is_followed_by_a_literal_space_in_the_pages():
    """An icon (an svg, or nothing) then " " then the text: the text read " ことばで" (Top Ten's
    theme mode, issue 27). The gap is the icon's margin instead."""
    bad = []
    for path in sorted((ROOT / "partyhost/static/js").glob("*.js")):
        for n, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            if re.search(r'\|\| ""\} \$\{esc\(t\(', line):
                bad.append(f"{path.name}:{n}")
    assert not bad, bad


@pytest.mark.skipif(shutil.which("node") is None, reason="no node")
def test_the_page_picks_the_same_plural_form_as_the_server():
    src = (ROOT / "partyhost/static/js/app.js").read_text("utf-8")
    start, end = src.index("  const pluralRules = {};"), src.index("  /* Japanese honorifics")
    cases = []
    for lang in i18n.LANGS:
        for key, text in i18n.catalogue(lang).items():
            if ", plural," in text:
                for n in (0, 1, 2, 5):
                    params = {name: n for name in i18n.placeholders(text)}
                    cases.append([lang, text, params, i18n.plurals(lang, text, params)])
    assert len(cases) > 40
    script = src[start:end] + "\nconst cases = JSON.parse(require('fs').readFileSync(0, 'utf8'));\n" \
        "console.log(JSON.stringify(cases.map(([l, s, p]) => plurals(l, s, p))));"
    got = json.loads(subprocess.run(["node", "-e", script], input=json.dumps(cases), capture_output=True,
                                    text=True, check=True, timeout=30).stdout)
    assert got == [c[3] for c in cases]


def test_diabolos_card_rule_says_the_same_in_both_languages():
    """RULES.md "Diabolo": "each card once" in a claim. The ja how-to said 「同じカードは1回しか」
    (once at all?) and the en one "once per word": both now say a word may not use a card twice,
    as the refusal does."""
    ja, en = i18n.catalogue("ja"), i18n.catalogue("en")
    for key in ("diabolo.howto.forbidden", "diabolo.err.card_twice"):
        assert "1つの単語に、同じカード" in ja[key], ja[key]
        assert "A word may not use the same card twice" in en[key], en[key]


def test_the_doctors_mobile_data_advice_says_the_same_in_both_languages():
    """The join doctor's mobile-data cause: the English said to choose "Stay connected" when the
    phone asks; the Japanese quoted a whole dialog line (「インターネット未接続でも接続を維持」) no
    phone was said to ask, a different instruction. Both now: mobile data off, or, when the phone
    asks, the choice that stays connected."""
    ja, en = i18n.catalogue("ja"), i18n.catalogue("en")
    key = "doctor.cause.mobile_data.do"
    assert "モバイルデータをオフ" in ja[key] and "聞かれたら「接続を維持」" in ja[key], ja[key]
    assert "Turn mobile data off" in en[key] and '"Stay connected" when the phone asks' in en[key], en[key]


def test_no_option_help_repeats_its_label():
    """The lobby draws each option's help after its name ("{label}: help"): Decrypto's read
    "キーワードの言語：キーワードの言語。…" / "Keyword language: Keyword language; …"."""
    calls = []
    for js in (ROOT / "partyhost" / "static" / "js").glob("*.js"):
        text = js.read_text(encoding="utf-8")
        game = js.stem
        calls += [(f"{game}.opt_help.{m[1]}", m[2]) for m in re.finditer(r'\bhelp\("(\w+)", *"([\w.]+)"\)', text)]
        calls += [(f"{m[1]}.opt_help.{m[2]}", m[3]) for m in re.finditer(r'optHelp\("(\w+)", *"(\w+)", *null, *"([\w.]+)"\)', text)]
    assert len(calls) >= 12, calls
    bad = {}
    for lang in ("ja", "en"):
        cat = i18n.catalogue(lang)
        for help_key, label_key in calls:
            assert help_key in cat and label_key in cat, (help_key, label_key)
            label = re.sub(r"[（(].*", "", cat[label_key]).strip().casefold()
            if cat[help_key].casefold().startswith(label):
                bad[(lang, help_key)] = cat[help_key]
    assert not bad, bad


def test_diabolo_says_how_often_everyone_deals_in_words():
    """"Everyone deals 1×: 6 rounds" on the English how-to; the Japanese says 1人1回ずつ."""
    assert i18n.message("en", "diabolo.howto.v.deals", times=1, rounds=6) == "Everyone deals once: 6 rounds"
    assert i18n.message("en", "diabolo.howto.v.deals", times=2, rounds=4) == "Everyone deals twice: 4 rounds"


def test_word_basket_coach_says_the_words_last_kana_makes_the_next_field():
    """RULES.md "Word Basket": the next field is the word's last kana (a row or number wild has
    no one kana of its own). The coach said "the card you play sets the next field letter" /
    「出したカードの文字が、次の場の文字」, against the how-to; and its English said "letter"
    where the how-to and the lobby say "kana"."""
    ja, en = i18n.catalogue("ja"), i18n.catalogue("en")
    assert "出した言葉の最後の文字" in ja["word_basket.coach.next.deal"], ja["word_basket.coach.next.deal"]
    assert "last kana of the word" in en["word_basket.coach.next.deal"], en["word_basket.coach.next.deal"]
    said_letter = {k: v for k, v in en.items() if k.startswith("word_basket.") and re.search(r"\bletters?\b", v)}
    assert not said_letter, said_letter


def test_diabolos_victory_tile_rule_says_the_same_in_both_languages():
    """RULES.md "Diabolo", victory tiles: the highest *result* of a round takes a tile (after the
    tile holder's handicap), ties each. The Japanese said 一番多く取った人 (the most cards taken,
    which the handicap does not change) where the English said "top result"; neither said ties."""
    ja, en = i18n.catalogue("ja"), i18n.catalogue("en")
    for key in ("diabolo.howto.v.tiles", "diabolo.opt_help.victory_tiles"):
        assert "結果が一番よい人" in ja[key] and "同点なら全員" in ja[key], ja[key]
        assert "top result" in en[key] and "ties: each" in en[key], en[key]
