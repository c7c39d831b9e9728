"""Build the Japanese noun list shipped in ``partyhost/lexicon/data/``.

Word Basket (``seeds/002_…``, 使える言葉): common nouns of three kana or more, plus well-known proper
nouns (アメリカ, 聖徳太子). This script turns two dictionaries published as PyPI packages into two
small gzip files that the game loads in a fraction of a second:

- ``ja_readings.txt.gz``: every known reading, normalised by :func:`partyhost.lexicon.kana.reading`
  (hiragana, ー kept), sorted, one per line.
- ``ja_surfaces.tsv.gz``: ``surface<TAB>reading<TAB>reading…`` for nouns written with kanji (or
  latin letters mixed with kana), the surface normalised by :func:`kana.normalize` (katakana parts
  in hiragana), readings most likely first. Used to accept a word typed in kanji.

Sources (see ``docs/lexicon.md`` for why and for the licences):

- SudachiDict core (``sudachidict-core``, Apache-2.0): all 普通名詞 and 代名詞 entries; of the 固有名詞:
  地名/国 (countries), 人名/一般 written in kanji (full names: 織田信長, 紫式部) or in a synonym
  group (well-known foreign people: エジソン), 固有名詞/一般 written without latin letters and not
  a station (聖徳太子, ドラえもん), 地名/一般 in a synonym group (大阪, 富士山, パリ), the 47
  prefectures and the municipalities (市区町村) found as prefixes of its address entries, with their
  bare names (東京都 → 東京, 箱根町 → 箱根). Surnames and given names alone (人名/姓, 人名/名) and
  street addresses are left out.
- JMnedict (same package): ``person`` entries born up to 1900 by their gloss (夏目漱石, 松尾芭蕉).
- JMdict (``jamdict-data``, EDRDG, CC BY-SA 3.0): every entry with a noun sense (common noun,
  suru-noun, no-adjective, noun prefix/suffix, pronoun) that is not marked archaic, obsolete,
  obscure or rare; readings marked as out-dated kana are left out.

Order of readings for one surface: the reading Sudachi's tokenizer (mode C, lowest-cost path) gives
the surface on its own, then JMdict frequency marks of the reading (nf01 … nf48, then the
news/ichi/spec/gai 1 and 2 lists), then pairs both dictionaries agree on, then JMdict's own order.

Rerun (build-only packages in a throwaway venv, never in the project's dependencies)::

    python3 -m venv /tmp/lexbuild
    /tmp/lexbuild/bin/pip install sudachipy==0.7.0 sudachidict-core==20261015 \\
        jamdict==0.1a11.post2 jamdict-data==1.5 jaconv==0.5.0
    /tmp/lexbuild/bin/python tools/build_ja_lexicon.py            # writes partyhost/lexicon/data/
    /tmp/lexbuild/bin/python tools/build_ja_lexicon.py --out DIR  # elsewhere

The output is deterministic (sorted, gzip without a timestamp). Takes 1–4 min, ~1.5 GB peak RAM.
"""

from __future__ import annotations

import argparse
import collections
import gzip
import importlib.metadata
import re
import sqlite3
import sys
import time
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from partyhost.lexicon import kana as kana_mod  # noqa: E402

_KANJI = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f々〆ヶ]")
_LATIN = re.compile(r"[A-Za-z]")
_KANA = re.compile(r"[\u3041-\u3096\u30a1-\u30fa]")
_PREFECTURE = re.compile(r"^(北海道|東京都|京都府|大阪府|[^都道府県]{2,3}県)")
# prefecture? district (郡)? city (市)? then ward (区), or town/village (町/村) when no city precedes
_MUNICIPALITY = re.compile(
    r"^(?:北海道|東京都|京都府|大阪府|[^都道府県]{2,3}県)?(?:[^市区郡町村都道府県]{1,5}郡)?"
    r"([^市区郡町村都道府県]{1,5}市)?([^市区郡町村都道府県]{1,5}[区町村])?"
)
#: a prefecture prefixes thousands of address entries; the next "…県" (a district) under 30
PREFECTURE_MIN_ADDRESSES = 500
#: a municipality (市区町村) prefixes at least this many address entries (filters out look-alikes)
MUNICIPALITY_MIN_ADDRESSES = 20
#: JMnedict people born up to this year count as historical figures (夏目漱石, 松尾芭蕉)
HISTORICAL_BORN_BY = 1900
#: no frequency mark at all
NO_PRIORITY = 99

JMDICT_NOUN_POS = {
    "noun (common) (futsuumeishi)",
    "noun or participle which takes the aux. verb suru",
    "nouns which may take the genitive case particle 'no'",
    "noun, used as a suffix",
    "noun, used as a prefix",
    "pronoun",
}
#: the first part of speech of an entry's first sense that makes it "a noun" (少し is listed
#: adverb first, noun second; ゆっくり adverb first, suru-noun later: neither is a noun here)
JMDICT_NOUN_FIRST_POS = {
    "noun (common) (futsuumeishi)",
    "pronoun",
    "noun (temporal) (jisoumeishi)",
    "adverbial noun (fukushitekimeishi)",
    "noun, used as a prefix",
    "noun, used as a suffix",
    "noun or participle which takes the aux. verb suru",
}
JMDICT_SKIP_MISC = {"archaism", "obsolete term", "obscure term", "rare"}
JMDICT_SKIP_KANA_INFO = {"out-dated or obsolete kana usage"}


def read(text: str) -> str | None:
    """The normalised reading of a dictionary reading, or None when it is not a kana word."""
    try:
        return kana_mod.reading(text).kana
    except kana_mod.ReadingError:
        return None


def surface_key(surface: str) -> str | None:
    """The lookup key of a written form, or None when it is not worth a surface entry
    (pure kana is already a reading; pure latin/digits is not Japanese input)."""
    key = kana_mod.normalize(surface)
    if not key or len(key) > 40 or max(key) > "\uffff":
        return None  # (astral kanji would make the whole loaded text 4 bytes a character)
    if any(unicodedata.category(c)[0] in "PS" and c != kana_mod.LONG_VOWEL for c in key):
        return None  # (大成), 〇〇… : not something a player types as a word
    if _KANJI.search(key) or (_LATIN.search(key) and _KANA.search(surface)):
        return key
    return None


def priority(tags: list[str]) -> int:
    """JMdict frequency marks → rank (lower is more common): nfNN → NN; *1 lists → 25; *2 → 50."""
    best = NO_PRIORITY
    for t in tags:
        if t.startswith("nf"):
            best = min(best, int(t[2:]))
        elif t.endswith("1"):
            best = min(best, 25)
        elif t.endswith("2"):
            best = min(best, 50)
    return best


class Collector:
    def __init__(self) -> None:
        self.readings: dict[str, set[str]] = collections.defaultdict(set)  # reading → sources
        # reading → why it is a word a table accepts without argument (see vouch_readings)
        self.vouched: dict[str, set[str]] = collections.defaultdict(set)
        # reading → noun surfaces (kanji/katakana) of entries whose *first* part of speech is a noun
        self.noun_surfaces: dict[str, set[str]] = collections.defaultdict(set)
        self.prio_readings: set[str] = set()      # JMdict noun-first entries, reading with a priority mark
        self.proper: dict[str, set[str]] = collections.defaultdict(set)  # reading → proper-noun surfaces
        self.category_known: set[str] = set()     # countries, prefectures, municipalities, historical people
        self.non_noun_readings: set[str] = set()  # readings of Sudachi verbs, adjectives, adverbs, …
        self.famous: set[str] = set()             # readings of well-known JMnedict names
        self.name_surfaces: set[str] = set()      # Sudachi surnames and given names (人名/姓, 人名/名)
        # (surface key, reading) → [priority, jmdict order, sources]
        self.pairs: dict[tuple[str, str], list] = {}

    def add(self, source: str, raw_reading: str, surface: str | None = None,
            prio: int = NO_PRIORITY, order: int = NO_PRIORITY, noun_first: bool = True) -> None:
        r = read(raw_reading)
        if r is None:
            return
        self.readings[r].add(source)
        if surface is None:
            return
        if noun_first:
            kind = source.split(":")[-1]
            if kind in ("common", "jmdict"):
                self.noun_surfaces[r].add(surface)
            elif kind in ("country", "place", "person", "jmnedict"):
                self.category_known.add(r)
                self.proper[r].add(surface)
            else:
                self.proper[r].add(surface)
        key = surface_key(surface)
        if key is None:
            return
        slot = self.pairs.setdefault((key, r), [NO_PRIORITY, NO_PRIORITY, set()])
        slot[0] = min(slot[0], prio)
        slot[1] = min(slot[1], order)
        slot[2].add(source.split(":")[0])


def collect_sudachi(col: Collector) -> dict[str, int]:
    from sudachipy import Dictionary

    d = Dictionary(dict="core")
    stats: collections.Counter[str] = collections.Counter()
    # pass 1: prefectures and cities from the address entries
    pref: collections.Counter[str] = collections.Counter()
    city: collections.Counter[str] = collections.Counter()
    for m in d.entries():
        if m.part_of_speech()[1:4] == ("固有名詞", "地名", "一般"):
            s = m.surface()
            if a := _PREFECTURE.match(s):
                pref[a.group(1)] += 1
            if b := _MUNICIPALITY.match(s):
                c, w = b.group(1), b.group(2)
                if c:
                    city[c] += 1
                if w and (w.endswith("区") or not c):
                    city[w] += 1
    places = {p for p, n in pref.items() if n >= PREFECTURE_MIN_ADDRESSES}
    stats["prefectures"] = len(places)
    munis = {c for c, n in city.items() if n >= MUNICIPALITY_MIN_ADDRESSES}
    for suffix in "市区町村":
        stats["municipalities-" + suffix] = sum(1 for c in munis if c.endswith(suffix))
    places |= munis
    # bare names: 東京都 → 東京, 箱根町 → 箱根 when the bare name is a place whose reading starts
    # the full reading (one-character bare names such as 北 of 北区 are skipped)
    bare = {p[:-1] for p in places if len(p) > 2}
    place_readings: dict[str, set[str]] = collections.defaultdict(set)

    for m in d.entries():
        pos = m.part_of_speech()
        if pos[0] in NON_NOUN_POS0:
            if (r := read(m.reading_form())) is not None:
                col.non_noun_readings.add(r)  # 歩く → あるく, 寒い → さむい, 少し → すこし
            continue
        if pos[0] not in ("名詞", "代名詞"):
            continue
        surface, raw = m.surface(), m.reading_form()
        if pos[1:3] == ("固有名詞", "人名") and pos[3] in ("姓", "名"):
            col.name_surfaces.add(surface)
        kind = None
        if pos[0] == "代名詞" or pos[1] == "普通名詞":
            kind = "common"
        elif pos[1] == "固有名詞":
            latin = bool(_LATIN.search(surface))
            synonyms = bool(m.synonym_group_ids())
            cat = pos[2:4]
            if cat == ("地名", "国") and not latin:
                kind = "country"
            elif cat == ("人名", "一般") and not latin and (_KANJI.search(surface) or synonyms):
                kind = "person"
            elif cat == ("一般", "*") and not latin and not surface.endswith("駅"):
                kind = "proper"
            elif cat == ("地名", "一般") and not latin:
                if synonyms:
                    kind = "place"
                elif surface in places:
                    kind = "place"
                    place_readings[surface].add(raw)
                elif surface in bare:
                    place_readings["bare:" + surface].add(raw)
        if kind is None:
            continue
        stats[kind] += 1
        col.add("sudachi:" + kind, raw, surface)
    # bare place names whose reading begins the suffixed name's reading
    for p in places:
        for full in place_readings.get(p, ()):
            for raw in place_readings.get("bare:" + p[:-1], ()):
                if full.startswith(raw):
                    stats["place-bare"] += 1
                    col.add("sudachi:place", raw, p[:-1])
    return dict(stats)


def sudachi_preferred(keys: list[str]) -> dict[str, str]:
    """surface → the reading of Sudachi's best analysis of it alone (mode C), for ambiguous ones."""
    from sudachipy import Dictionary, SplitMode

    tok = Dictionary(dict="core").tokenizer(mode=SplitMode.C)
    out = {}
    for key in keys:
        r = read("".join(m.reading_form() for m in tok.tokenize(key)))
        if r is not None:
            out[key] = r
    return out


def jmdict_db() -> Path:
    import jamdict_data

    return Path(jamdict_data.__file__).with_name("jamdict.db")


def collect_jmdict(col: Collector) -> dict[str, int]:
    db = sqlite3.connect(f"file:{jmdict_db()}?mode=ro", uri=True)
    # senses in order, with their pos / misc / stagr; a sense without pos inherits the previous one
    pos: dict[int, list[str]] = collections.defaultdict(list)
    misc: dict[int, set[str]] = collections.defaultdict(set)
    stagr: dict[int, set[str]] = collections.defaultdict(set)
    for sid, text in db.execute("SELECT sid, text FROM pos"):
        pos[sid].append(text)
    for sid, text in db.execute("SELECT sid, text FROM misc"):
        misc[sid].add(text)
    for sid, text in db.execute("SELECT sid, text FROM stagr"):
        stagr[sid].add(text)
    noun_readings: dict[int, set[str] | None] = {}  # idseq → restricted reading texts (None = all)
    last_pos: dict[int, list[str]] = {}
    noun_first: set[int] = set()  # entries whose first sense's first part of speech is a noun
    for sid, idseq in db.execute("SELECT ID, idseq FROM Sense ORDER BY idseq, ID"):
        p = pos.get(sid) or last_pos.get(idseq, [])
        if idseq not in last_pos and p and p[0] in JMDICT_NOUN_FIRST_POS:
            noun_first.add(idseq)
        last_pos[idseq] = p
        if not JMDICT_NOUN_POS.intersection(p) or misc.get(sid, set()) & JMDICT_SKIP_MISC:
            continue
        restr = stagr.get(sid)
        if restr is None:
            noun_readings[idseq] = None
        elif idseq not in noun_readings:
            noun_readings[idseq] = set(restr)
        elif noun_readings[idseq] is not None:
            noun_readings[idseq] |= restr

    kana_info: dict[int, set[str]] = collections.defaultdict(set)
    kana_prio: dict[int, list[str]] = collections.defaultdict(list)
    kana_restr: dict[int, set[str]] = collections.defaultdict(set)
    for kid, text in db.execute("SELECT kid, text FROM KNI"):
        kana_info[kid].add(text)
    for kid, text in db.execute("SELECT kid, text FROM KNP"):
        kana_prio[kid].append(text)
    for kid, text in db.execute("SELECT kid, text FROM KNR"):
        kana_restr[kid].add(text)
    kanji: dict[int, list[str]] = collections.defaultdict(list)
    for idseq, text in db.execute("SELECT idseq, text FROM Kanji ORDER BY idseq, ID"):
        kanji[idseq].append(text)

    stats: collections.Counter[str] = collections.Counter()
    order: dict[int, int] = collections.defaultdict(int)
    for kid, idseq, text, nokanji in db.execute("SELECT ID, idseq, text, nokanji FROM Kana ORDER BY idseq, ID"):
        if idseq not in noun_readings:
            continue
        n = order[idseq]
        order[idseq] += 1
        allowed = noun_readings[idseq]
        if allowed is not None and text not in allowed:
            continue
        if kana_info.get(kid, set()) & JMDICT_SKIP_KANA_INFO:
            continue
        stats["readings"] += 1
        prio = priority(kana_prio.get(kid, []))
        first = idseq in noun_first
        col.add("jmdict", text, text, noun_first=first)  # the kana form itself (ルビー, あひる)
        if first and prio < NO_PRIORITY and (r := read(text)):
            col.prio_readings.add(r)
        stats["noun-first readings" if first else "noun-later readings"] += 1
        if nokanji:
            continue
        restr = kana_restr.get(kid)
        for k in kanji.get(idseq, []):
            if restr and k not in restr:
                continue
            col.add("jmdict", text, k, prio, n, noun_first=first)
    stats["entries"] = len(noun_readings)
    stats["noun-first entries"] = len(noun_first & set(noun_readings))
    return dict(stats)


_BORN = re.compile(r"\((?:c\.\s*|ca\.\s*)?(\d{1,4})(?:\s*(?:BCE|BC|CE))?(?:\.\d{1,2}){0,2}\s*[-–?]")


def collect_jmnedict_people(col: Collector) -> dict[str, int]:
    """JMnedict ``person`` entries whose gloss gives a birth year up to HISTORICAL_BORN_BY."""
    db = sqlite3.connect(f"file:{jmdict_db()}?mode=ro", uri=True)
    glosses: dict[int, list[str]] = collections.defaultdict(list)
    for idseq, gloss in db.execute(
        "SELECT t.idseq, g.text FROM NETranslation t JOIN NETransType y ON y.tid = t.ID "
        "JOIN NETransGloss g ON g.tid = t.ID WHERE y.text = 'person'"
    ):
        glosses[idseq].append(gloss or "")
    people = set()
    for idseq, texts in glosses.items():
        m = _BORN.search(" ".join(texts))
        if m and int(m.group(1)) <= HISTORICAL_BORN_BY:
            people.add(idseq)
    kanji: dict[int, list[str]] = collections.defaultdict(list)
    for idseq, text in db.execute("SELECT idseq, text FROM NEKanji ORDER BY idseq, ID"):
        if idseq in people:
            kanji[idseq].append(text)
    n = 0
    for idseq, text in db.execute("SELECT idseq, text FROM NEKana ORDER BY idseq, ID"):
        if idseq not in people:
            continue
        n += 1
        col.add("jmnedict", text)
        for k in kanji.get(idseq, []):
            col.add("jmnedict", text, k)
    return {"people": len(people), "readings": n}


#: JMnedict kinds of name a table may use in Word Basket (not surnames or given names alone, not
#: companies, products or organisations: brand-neutral)
FAMOUS_KINDS = {"person", "place", "unclass", "work", "character", "fiction", "deity", "mythology",
                "station", "event", "legend", "creature"}
#: each part of a name that is a compound of common words (東京 + タワー) needs this Zipf value
FAMOUS_PART_MIN = 3.0
NAME_ONLY_KINDS = {"surname", "given", "fem", "masc"}
#: a JMnedict gloss that says who or what the name is: a life date or a description in brackets
_DESCRIBED = re.compile(r"\(([^)]*[A-Za-z]{3,}[^)]*|[^)]*\d{3,4}[^)]*)\)|\d{3,4}\s*[-–]|,\s*[A-Za-z]{3,}")


def collect_jmnedict_famous(col: Collector) -> dict[str, int]:
    """Well-known names from JMnedict (issue 14: 東京タワー, 金閣寺, ドラえもん, 羽生結弦), with a
    popularity cut. An entry of a kind in FAMOUS_KINDS is taken when

    - its written form is common: wordfreq Zipf ≥ ZIPF_MIN (金閣寺 2.8, ゴジラ 4.2, イチロー 3.6); or
    - (not for people) it is a compound of common parts whose readings spell its reading: each part
      of Sudachi's shortest split a Zipf ≥ ZIPF_PART_MIN noun/suffix, or の (東京 + タワー,
      名古屋 + 城, 自由 + の + 女神); or
    - its gloss records who or what it is: life dates or a description (宮崎駿 "anime creator",
      羽生結弦 "1994.12.7-, figure skater", アンパンマン "Japanese anime character", 伊丹 "city").
      EDRDG adds those for names worth a note; a name alone is not enough.

    Entries that are also a surname or a given name (田中, 太郎) are left out unless a person.

    Taken entries add their readings (and written forms to the surfaces file) and are marked in
    ``col.famous``.
    """
    from sudachipy import Dictionary, SplitMode
    from wordfreq import get_frequency_dict

    freq = get_frequency_dict("ja", "large")
    zmin, zpart = 10 ** (ZIPF_MIN - 9), 10 ** (FAMOUS_PART_MIN - 9)
    tok_a = Dictionary(dict="core").tokenizer(mode=SplitMode.A)
    db = sqlite3.connect(f"file:{jmdict_db()}?mode=ro", uri=True)
    kinds: dict[int, set[str]] = collections.defaultdict(set)
    glosses: dict[int, list[str]] = collections.defaultdict(list)
    for idseq, kind, gloss in db.execute(
        "SELECT t.idseq, y.text, g.text FROM NETranslation t JOIN NETransType y ON y.tid = t.ID "
        "JOIN NETransGloss g ON g.tid = t.ID"
    ):
        kinds[idseq].add(kind)
        glosses[idseq].append(gloss or "")
    kanji: dict[int, list[str]] = collections.defaultdict(list)
    for idseq, text in db.execute("SELECT idseq, text FROM NEKanji ORDER BY idseq, ID"):
        kanji[idseq].append(text)
    kana: dict[int, list[str]] = collections.defaultdict(list)
    for idseq, text in db.execute("SELECT idseq, text FROM NEKana ORDER BY idseq, ID"):
        kana[idseq].append(text)

    def compound(surface: str, r: str) -> bool:
        ms = tok_a.tokenize(surface)
        if len(ms) < 2 or read("".join(m.reading_form() for m in ms)) != r:
            return False
        return all(m.surface() == "の" or (freq.get(m.surface(), 0) >= zpart and
                   m.part_of_speech()[0] in NOUN_POS0 + ("接尾辞",)) for m in ms)

    stats: collections.Counter[str] = collections.Counter()
    for idseq, ks in kinds.items():
        if ks & NAME_ONLY_KINDS and "person" not in ks and any(
                f in col.name_surfaces for f in kanji.get(idseq, []) + kana.get(idseq, [])):
            continue  # 田中 (a surname and a place), 太郎: a name alone stays out, 秋葉原 does not
        ks = ks & FAMOUS_KINDS
        if not ks:
            continue
        forms = kanji.get(idseq) or kana.get(idseq, [])
        readings = [r for r in (read(t) for t in kana.get(idseq, [])) if r]
        if not forms or not readings:
            continue
        why = None
        if any(freq.get(f, 0) >= zmin for f in forms):
            why = "frequent"
        elif ks != {"person"} and any(compound(f, r) for f in forms for r in readings[:1]):
            why = "compound"
        elif _DESCRIBED.search(" ".join(glosses[idseq])):
            why = "described"
        if why is None:
            continue
        stats[why] += 1
        for t in kana.get(idseq, [])[:1]:  # the first (main) reading only
            r = read(t)
            col.famous.add(r)
            col.add("jmnedict:famous", t, t, noun_first=False)
            for k in kanji.get(idseq, []):
                col.add("jmnedict:famous", t, k, noun_first=False)
    stats["readings"] = len(col.famous)
    return dict(stats)


#: the popularity cut: wordfreq ``ja`` (large) Zipf value a written form needs (3 = once per
#: million words; 積み木 2.6, アヒル 3.6, 冷蔵庫 4.2)
ZIPF_MIN = 2.5
#: each part of a compound without its own frequency (新学期 = 新 + 学期) needs this Zipf value
ZIPF_PART_MIN = 3.5
_HIRA_ONLY = re.compile(r"^[\u3041-\u309fー]+$")
_KANA_ONLY = re.compile(r"^[\u3041-\u309f\u30a0-\u30ffー]+$")
NOUN_POS0 = ("名詞", "代名詞")
#: Sudachi parts of speech that are not nouns: a reading of one of these (歩く → あるく) is known only
#: through a common noun (蛙 → かえる), never through a proper noun (アルク, 浅井) or its kana form
NON_NOUN_POS0 = ("動詞", "形容詞", "副詞", "接続詞", "感動詞", "形状詞", "連体詞", "助動詞", "助詞")


def vouch_readings(col: Collector, first_reading: dict[str, str]) -> dict[str, int]:
    """Which candidate readings a table would accept without argument (``col.vouched``).

    A reading is vouched for when a noun entry that carries it is also common:

    - ``priority``: a JMdict entry whose first part of speech is a noun marks this reading with a
      frequency/priority list (news1, ichi1, spec, gai, nfXX);
    - ``frequent``: a written form of a noun-first entry with kanji, whose most likely reading this
      is, or a katakana form, has wordfreq Zipf ≥ ZIPF_MIN (ja, large list);
    - ``frequent-kana``: the hiragana form itself is that frequent *and* Sudachi reads it alone as
      one noun, not an adverb-like noun (副詞可能), and no Sudachi verb, adjective, adverb… has this
      reading (so すこし, いつも, ふるい, whose frequency is an adverb's or an adjective's, do not count);
    - ``compound``: a kanji form with no frequency of its own that Sudachi's shortest split (mode A)
      reads as ≥ 2 parts, each a Zipf ≥ ZIPF_PART_MIN noun, prefix or suffix (or an inner の),
      whose readings spell this one (新学期 = 新 + 学期, 自由の女神);
    - ``category`` (never for a reading that is also a verb, adjective, adverb…): a country,
      prefecture or municipality, a full person name of Sudachi's 人名/一般 or a historical JMnedict person (chosen by kind, see collect_sudachi);
    - ``proper`` (same exception: アルク, マルイ, モット are not known): another proper noun
      (固有名詞/一般, a place in a synonym group) whose form is that frequent (same test as
      ``frequent``), or ``proper-compound``: one whose form is a compound of common parts (Zipf ≥
      FAMOUS_PART_MIN; 東京 + スカイツリー, and a katakana name wordfreq knows only in two common
      pieces: スカイ + ツリー);
    - ``famous``: a well-known JMnedict name (see collect_jmnedict_famous).
    """
    from sudachipy import Dictionary, SplitMode
    from wordfreq import get_frequency_dict

    freq = get_frequency_dict("ja", "large")
    zmin = 10 ** (ZIPF_MIN - 9)
    zpart = 10 ** (ZIPF_PART_MIN - 9)
    d = Dictionary(dict="core")
    tok_a = d.tokenizer(mode=SplitMode.A)
    tok_c = d.tokenizer(mode=SplitMode.C)
    stats: collections.Counter[str] = collections.Counter()

    def frequent_form(r: str, surface: str) -> bool:
        if freq.get(surface, 0) < zmin or _HIRA_ONLY.match(surface):
            return False
        if _KANA_ONLY.match(surface):  # katakana, or katakana mixed with hiragana (ドラえもん)
            return read(surface) == r
        key = surface_key(surface)
        return key is not None and first_reading.get(key) == r

    def alone_is_noun(r: str) -> bool:
        if r in col.non_noun_readings:
            return False
        ms = tok_c.tokenize(r)
        return len(ms) == 1 and ms[0].part_of_speech()[0] in NOUN_POS0 and ms[0].part_of_speech()[2] != "副詞可能"

    zfamous = 10 ** (FAMOUS_PART_MIN - 9)

    def compound(r: str, surface: str, part_min: float = zpart, name: bool = False) -> bool:
        if len(surface) < 2 or _HIRA_ONLY.match(surface):
            return False
        if _KANJI.search(surface):
            key = surface_key(surface)
            if key is None or first_reading.get(key) != r:
                return False
        elif not name:
            return False
        ms = tok_a.tokenize(surface)
        if read("".join(m.reading_form() for m in ms)) != r:
            return False
        if len(ms) < 2:
            return name and kata_split(surface, part_min)
        inner = {i for i, m in enumerate(ms) if m.surface() == "の" and 0 < i < len(ms) - 1}
        return all(i in inner or (m.part_of_speech()[0] in NOUN_POS0 + ("接頭辞", "接尾辞") and (
            freq.get(m.surface(), 0) >= part_min or (name and kata_split(m.surface(), part_min))))
            for i, m in enumerate(ms))

    def kata_split(surface: str, part_min: float) -> bool:
        """A katakana name that wordfreq only knows in two common pieces (スカイ + ツリー)."""
        if not _KANA_ONLY.match(surface) or _HIRA_ONLY.match(surface):
            return False
        return any(freq.get(surface[:i], 0) >= part_min and freq.get(surface[i:], 0) >= part_min
                   for i in range(2, len(surface) - 1))

    for r in col.readings:
        why = col.vouched[r]
        if r in col.prio_readings:
            why.add("priority")
        nouns = col.noun_surfaces.get(r, ())
        if any(frequent_form(r, s) for s in nouns):
            why.add("frequent")
        if r in nouns and freq.get(r, 0) >= zmin and alone_is_noun(r):
            why.add("frequent-kana")
        not_a_verb = r not in col.non_noun_readings
        if r in col.category_known and not_a_verb:
            why.add("category")
        if not_a_verb and any(frequent_form(r, s) for s in col.proper.get(r, ())):
            why.add("proper")
        if not_a_verb and r in col.famous:
            why.add("famous")
        if not why and not_a_verb and any(compound(r, s, zfamous, name=True) for s in col.proper.get(r, ())):
            why.add("proper-compound")  # スカイツリー = スカイ + ツリー
        if not why and any(compound(r, s) for s in nouns):
            why.add("compound")
        for w in why:
            stats[w] += 1
        stats["known" if why else "unvouched"] += 1
    return dict(stats)


def write_gz(path: Path, text: str) -> None:
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=9, mtime=0,
                                                filename="") as gz:
        gz.write(text.encode("utf-8"))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "partyhost" / "lexicon" / "data")
    ap.add_argument("--unvouched", type=Path, help="also write the readings left out to this file")
    ap.add_argument("--explain", help="comma-separated readings: print why each is (not) known")
    args = ap.parse_args(argv)
    t0 = time.time()
    col = Collector()
    s_stats = collect_sudachi(col)
    j_stats = collect_jmdict(col)
    n_stats = collect_jmnedict_people(col)
    f_stats = collect_jmnedict_famous(col)

    candidates: dict[str, list[tuple[int, int, int, str]]] = collections.defaultdict(list)
    for (key, r), (prio, n, sources) in col.pairs.items():
        candidates[key].append((prio, 0 if len(sources) > 1 else 1, n, r))
    preferred = sudachi_preferred([k for k, v in candidates.items() if len(v) > 1])
    surfaces: dict[str, list[tuple[tuple, str]]] = collections.defaultdict(list)
    for key, cands in candidates.items():
        best = preferred.get(key)
        for prio, both, n, r in cands:
            surfaces[key].append(((r != best, prio, both, n, r), r))
    lines = []
    first_reading: dict[str, str] = {}
    for key in sorted(surfaces):
        ranked = [r for _, r in sorted(surfaces[key])]
        first_reading[key] = ranked[0]
        lines.append(key + "\t" + "\t".join(ranked))
    v_stats = vouch_readings(col, first_reading)
    readings = sorted(r for r in col.readings if col.vouched[r])
    for w in args.explain.split(",") if args.explain else ():
        r = read(w) or w
        print(f"explain {r}: {sorted(col.vouched.get(r, ()))} sources={sorted(col.readings.get(r, ()))} "
              f"nouns={sorted(col.noun_surfaces.get(r, ()))[:8]} proper={sorted(col.proper.get(r, ()))[:8]}")
    if args.unvouched:
        args.unvouched.write_text("".join(r + "\n" for r in sorted(col.readings) if not col.vouched[r]),
                                  encoding="utf-8")

    args.out.mkdir(parents=True, exist_ok=True)
    write_gz(args.out / "ja_readings.txt.gz", "\n".join(readings) + "\n")
    write_gz(args.out / "ja_surfaces.tsv.gz", "\n".join(lines) + "\n")

    by_source = collections.Counter()
    for r in readings:
        srcs = col.readings[r]
        families = {s.split(":")[0].replace("jmnedict", "jmdict") for s in srcs}
        by_source["both" if len(families) > 1 else next(iter(families))] += 1
    versions = {p: importlib.metadata.version(p)
                for p in ("sudachipy", "sudachidict-core", "jamdict", "jamdict-data", "jaconv",
                          "wordfreq")}
    print(f"versions: {versions}")
    print(f"sudachi entries taken: {s_stats}")
    print(f"jmdict: {j_stats}")
    print(f"jmnedict historical people: {n_stats}")
    print(f"jmnedict well-known names: {f_stats}")
    print(f"popularity and part of speech: {v_stats}")
    print(f"readings: {len(readings)} of {len(col.readings)} candidates ({dict(by_source)}); surfaces: {len(lines)}; "
          f"pairs: {len(col.pairs)}; {time.time() - t0:.1f} s")
    for name in ("ja_readings.txt.gz", "ja_surfaces.tsv.gz"):
        print(f"{name}: {(args.out / name).stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
