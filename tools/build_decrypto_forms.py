#!/usr/bin/env python3
"""Build the other written forms of each Decrypto keyword (issue 14; build time only).

The rulebook (``seeds/000_…`` §clues) forbids the keyword itself and its translation as a clue.
A table hears 猫, ねこ, neko and cat as the same word, so for every keyword of our two decks this
script writes the forms a clue may not take, one keyword a line, to
``partyhost/games/data/decrypto_forms.<lang>.txt``::

    keyword<TAB>form<TAB>form…      (forms already in decrypto_words.normalize() form;
                                     romaji forms marked "r:", compared with long vowels folded)

Japanese keyword (reading from ``decrypto_readings.ja.txt`` for kanji keywords, else itself):

- **romaji** of the reading by ``pykakasi`` (Hepburn, Kunrei and passport systems), plus the
  usual ways of writing long vowels (とうきょう: toukyou, tokyo, tōkyō, tookyoo) and n/m before
  b/m/p (しんぶん: shinbun, shimbun), with and without the apostrophe (kin'en, kinen);
- **other spellings** JMdict gives for the same entry (卵 → 玉子, ハチミツ → 蜂蜜, はちみつ; its kana
  forms only when they spell the same reading):
  entries that hold the keyword as a kanji form with the reading, or (keyword in kana) entries
  with a priority mark that hold the reading;
- **English translation**: the first gloss of the first sense of those entries (猫 → cat), with
  its inflections by ``lemminflect`` (cats) and plural by ``inflect`` (mouse → mice).

English keyword:

- **inflections**: ``lemminflect`` (all noun and verb forms: fly → flies, flew, flying) and the
  plural by ``inflect``;
- **Japanese translation**: JMdict entries with a priority mark whose first sense's first gloss is
  the keyword (cat → 猫, ねこ, ネコ), with every kanji and kana form and their romaji.

Curated additions (our own keyword lists: where a dictionary misses a pair) are in
``CURATED`` below and go in as they are.

Rerun (build-only packages in a throwaway venv, never in the project's dependencies)::

    python3 -m venv /tmp/lexbuild
    /tmp/lexbuild/bin/pip install jamdict==0.1a11.post2 jamdict-data==1.5 pykakasi==2.3.0 \\
        inflect==7.6.0 lemminflect==0.2.3
    /tmp/lexbuild/bin/python tools/build_decrypto_forms.py

Deterministic (sorted output). Takes a few seconds. JMdict-derived: the files are CC BY-SA 3.0
(EDRDG; see ``partyhost/games/data/README.md``).
"""

from __future__ import annotations

import collections
import importlib.metadata
import re
import sqlite3
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from partyhost.games import decrypto_words as dw  # noqa: E402

OUT = ROOT / "partyhost" / "games" / "data" / "decrypto_forms.{lang}.txt"

#: Pairs a dictionary does not give (keyword → extra forms, in any script). Kept short and checked
#: by eye; the tests hold the issue's examples.
CURATED: dict[str, list[str]] = {
    "卵": ["egg", "eggs", "玉子"],
    "ハチミツ": ["honey", "蜂蜜"],
    "猫": ["cat", "cats", "kitty"],
    "犬": ["dog", "dogs", "puppy"],
}

_PAREN = re.compile(r"\([^()]*\)")
_KANJI = re.compile(r"[\u3400-\u9fff\uf900-\ufaff々]")


def jmdict() -> sqlite3.Connection:
    import jamdict_data

    db = Path(jamdict_data.__file__).with_name("jamdict.db")
    return sqlite3.connect(f"file:{db}?mode=ro", uri=True)


def hira(text: str) -> str:
    return dw.normalize(text)


def romaji(kana: str) -> set[str]:
    """Romaji spellings of a kana reading: Hepburn, Kunrei, passport, long-vowel and n/m variants."""
    import pykakasi

    parts = pykakasi.kakasi().convert(kana)
    base = {"".join(p[system] for p in parts) for system in ("hepburn", "kunrei", "passport")}
    out: set[str] = set()
    for b in base:
        b = b.lower()
        variants = {b, b.replace("'", "")}
        for v in list(variants):
            variants.add(re.sub(r"n(?=[bmp])", "m", v))
            short = v.replace("ou", "o").replace("oo", "o").replace("uu", "u")
            variants.add(short)
            variants.add(v.replace("ou", "ō").replace("oo", "ō").replace("uu", "ū"))
            variants.add(v.replace("ou", "oh").replace("oo", "oh"))
        out |= {v for v in variants if v.isalpha()}
    return out


def english_forms(word: str) -> set[str]:
    """The word, its lemminflect inflections (noun and verb) and its inflect plural, lower case."""
    import inflect
    from lemminflect import getAllInflections

    word = word.lower().strip()
    out = {word}
    if " " in word:
        return out
    for forms in getAllInflections(word).values():
        out |= {f.lower() for f in forms}
    engine = inflect.engine()
    if not engine.singular_noun(word):  # not already a plural (chopsticks, eggs)
        plural = engine.plural_noun(word)
        if plural:
            out.add(plural.lower())
    return out


def gloss_key(text: str) -> str:
    """A gloss without its notes: "cat (esp. the domestic cat)" → "cat"; "to fly" → "fly"."""
    while _PAREN.search(text):  # nested notes: "dog (Canis (lupus) familiaris)"
        text = _PAREN.sub("", text)
    text = " ".join(text.replace("(", " ").replace(")", " ").split()).lower()
    return text[3:] if text.startswith("to ") else text


class Dict:
    """The JMdict tables this script needs, read once."""

    def __init__(self) -> None:
        db = jmdict()
        self.kanji: dict[int, list[str]] = collections.defaultdict(list)
        self.kana: dict[int, list[str]] = collections.defaultdict(list)
        self.by_kanji: dict[str, set[int]] = collections.defaultdict(set)
        self.by_kana: dict[str, set[int]] = collections.defaultdict(set)
        self.common: set[int] = set()
        for idseq, text in db.execute("SELECT idseq, text FROM Kanji ORDER BY idseq, ID"):
            self.kanji[idseq].append(text)
            self.by_kanji[text].add(idseq)
        for idseq, text in db.execute("SELECT idseq, text FROM Kana ORDER BY idseq, ID"):
            self.kana[idseq].append(text)
            self.by_kana[hira(text)].add(idseq)
        for (idseq,) in db.execute("SELECT DISTINCT k.idseq FROM KNP p JOIN Kana k ON k.ID = p.kid"):
            self.common.add(idseq)
        for (idseq,) in db.execute("SELECT DISTINCT k.idseq FROM KJP p JOIN Kanji k ON k.ID = p.kid"):
            self.common.add(idseq)
        self.first_gloss: dict[int, str] = {}
        rows = db.execute(
            "SELECT s.idseq, g.text FROM Sense s JOIN SenseGloss g ON g.sid = s.ID "
            "ORDER BY s.idseq, s.ID, g.rowid")
        for idseq, text in rows:
            if idseq not in self.first_gloss and text:
                self.first_gloss[idseq] = gloss_key(text)
        self.by_gloss: dict[str, set[int]] = collections.defaultdict(set)
        for idseq, g in self.first_gloss.items():
            if idseq in self.common:
                self.by_gloss[g].add(idseq)

    def entries_of(self, keyword: str, reading: str) -> set[int]:
        """JMdict entries that are this keyword: kanji form + reading, or (kana keyword) the reading
        of a common entry."""
        r = hira(reading)
        if _KANJI.search(keyword):
            return {i for i in self.by_kanji.get(keyword, ()) if i in self.by_kana.get(r, ())}
        return {i for i in self.by_kana.get(r, ()) if i in self.common}


def marked_romaji(kana: str) -> set[str]:
    return {ROMAJI_MARK + r for r in romaji(kana)}


ROMAJI_MARK = "r:"


def ja_forms(d: Dict, keyword: str, reading: str) -> set[str]:
    forms = {keyword, reading} | marked_romaji(reading)
    for i in d.entries_of(keyword, reading):
        # every kanji form; kana forms only when they are this reading (端 also reads はな: not はし)
        forms |= set(d.kanji.get(i, ())) | {k for k in d.kana.get(i, ()) if hira(k) == hira(reading)}
        gloss = d.first_gloss.get(i)
        if gloss and len(gloss.split()) <= 3:
            forms |= english_forms(gloss)
    return forms


def en_forms(d: Dict, keyword: str) -> set[str]:
    forms = english_forms(keyword)
    for i in d.by_gloss.get(keyword.lower(), ()):
        for k in d.kanji.get(i, ()):
            forms.add(k)
        for k in d.kana.get(i, ()):
            forms.add(k)
            forms |= marked_romaji(hira(k))
    return forms


def write(lang: str, table: dict[str, set[str]]) -> None:
    path = Path(str(OUT).format(lang=lang))
    lines = [f"# Decrypto ({lang}): other forms of each keyword a clue may not take (issue 14).",
             "# Built by tools/build_decrypto_forms.py from JMdict (EDRDG, CC BY-SA 3.0), pykakasi,",
             "# lemminflect and inflect; do not edit by hand (add to CURATED there). keyword<TAB>forms…"]
    for kw in sorted(table):
        forms = sorted({dw.normalize(f) for f in table[kw]} - {dw.normalize(kw), ""})
        plain = {f for f in forms if not f.startswith(ROMAJI_MARK)}
        forms = [f for f in forms if f[len(ROMAJI_MARK):] not in plain or not f.startswith(ROMAJI_MARK)]
        if forms:
            lines.append(kw + "\t" + "\t".join(forms))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {path.relative_to(ROOT)}: {len(lines) - 3} keywords, "
          f"{sum(len(line.split(chr(9))) - 1 for line in lines[3:])} forms")


def main() -> int:
    d = Dict()
    readings = dw.read_reading_file("ja")
    ja: dict[str, set[str]] = {}
    for kw in dw.read_keyword_file("ja"):
        reading = readings.get(kw, kw)
        ja[kw] = ja_forms(d, kw, reading) | set(CURATED.get(kw, ()))
    en: dict[str, set[str]] = {}
    for kw in dw.read_keyword_file("en"):
        en[kw] = en_forms(d, kw) | set(CURATED.get(kw, ()))
    write("ja", ja)
    write("en", en)
    print({p: importlib.metadata.version(p) for p in
           ("jamdict-data", "pykakasi", "inflect", "lemminflect")})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
