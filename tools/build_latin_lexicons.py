#!/usr/bin/env python3
"""Build the Diabolo decks and the German/English word lists (build time only, not shipped code).

Outputs (all committed):
  partyhost/games/data/diabolo_decks.json   -- both 66-card decks as data
  partyhost/lexicon/data/de_words.txt.gz     -- folded German word forms, one a line, sorted
  partyhost/lexicon/data/en_words.txt.gz     -- folded English words, one a line, sorted

Sources (see docs/lexicon_latin.md for the reasoning and counts):
  German words:  Debian ``wngerman`` (/usr/share/dict/ngerman, igerman98, GPL-2+)
  name denylist: PyPI ``german-nouns`` (Wiktionary, CC BY-SA 4.0), applied here, nothing shipped
  English words: Debian ``wamerican-large`` (/usr/share/dict/american-english-large, SCOWL 70)
  English deck:  PyPI ``wordfreq`` (en, large) frequencies x the wamerican-large list

Run in a throwaway venv, never the project's:
  apt-get install wngerman wamerican-large
  python3 -m venv /tmp/lexbuild && /tmp/lexbuild/bin/pip install wordfreq german-nouns
  /tmp/lexbuild/bin/python tools/build_latin_lexicons.py [deck|words|all]

The output is deterministic for fixed package versions (sorted lists, gzip mtime 0).
"""

from __future__ import annotations

import argparse
import csv
import gzip
import io
import json
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from partyhost.lexicon.latin import fold  # noqa: E402  (the same folding as at run time)

DECKS = ROOT / "partyhost/games/data/diabolo_decks.json"
DATA = ROOT / "partyhost/lexicon/data"
NGERMAN = Path("/usr/share/dict/ngerman")
AMERICAN = Path("/usr/share/dict/american-english-large")
AZ = re.compile(r"^[A-Z]+$")

# ----- decks ----------------------------------------------------------------------------------

# German: exactly RULES.md (derived in research/rules-and-lexicons.md §1 by the method below,
# from wordfreq de x ngerman). Kept literal so the game's deck cannot drift with a package update.
DE_SINGLES = [("E", 9), ("N", 6), ("R", 5), ("A", 4), ("T", 3), ("S", 3), ("I", 3), ("U", 3),
              ("L", 3), ("D", 2), ("G", 2), ("O", 2), ("M", 2), ("B", 1), ("H", 1), ("F", 1),
              ("K", 1), ("W", 1), ("Z", 1), ("P", 1), ("V", 1)]
DE_PAIRS = [("CH", 2), ("EI", 1), ("IE", 1), ("ST", 1)]

JOKERS = [{"face": "?", "count": 5, "joker": 1}, {"face": "??", "count": 1, "joker": 2}]
SINGLE_CARDS = 55       # as in the German deck: 55 single letters + 5 pair cards + 6 jokers = 66
PAIR_CARDS = 5
PAIR_UNITS = 4          # the German deck uses 4 distinct units (CH, EI, IE, ST)
MIN_QUOTA = 0.3         # a letter whose quota is below this gets no card (jokers cover it)
SAMPLE = 50_000

# Real English spelling units a pair card may carry: consonant digraphs, and the letter pairs of
# the most productive endings (-ER, -ING, -ED, -ES). The method then keeps the most frequent.
EN_PAIR_CANDIDATES = ["TH", "CH", "SH", "PH", "WH", "CK", "NG", "QU", "ER", "IN", "ED", "ES"]


def largest_remainder(quotas: dict[str, float], seats: int) -> dict[str, int]:
    """Hamilton apportionment of ``seats`` over ``quotas`` (any positive weights). Ties by key."""
    total = sum(quotas.values())
    exact = {k: seats * v / total for k, v in quotas.items()}
    out = {k: int(x) for k, x in exact.items()}
    left = seats - sum(out.values())
    for k in sorted(exact, key=lambda k: (-(exact[k] - out[k]), k))[:left]:
        out[k] += 1
    return out


def apportion_singles(share: dict[str, float], seats: int) -> dict[str, int]:
    """Letters with quota < MIN_QUOTA get 0, every other letter at least 1, the rest by Hamilton."""
    total = sum(share.values())
    quota = {k: seats * v / total for k, v in share.items()}
    kept = {k: v for k, v in share.items() if quota[k] >= MIN_QUOTA}
    counts = largest_remainder(kept, seats)
    # Guarantee the minimum of one card by taking from the letter with the most cards to spare.
    for k in sorted(kept):
        while counts[k] < 1:
            donor = max(counts, key=lambda d: (counts[d] - seats * kept[d] / sum(kept.values()), d))
            counts[donor] -= 1
            counts[k] += 1
    return counts


def derive_deck(lang: str, dict_words: set[str], pair_candidates: list[str]) -> dict:
    """A 66-card deck by the research §1 method, reproducible from package data.

    1. Sample: the SAMPLE most frequent words of wordfreq ``lang`` (large) whose folded form is
       in ``dict_words`` (the folded dictionary list).
    2. Letter and bigram shares, token-weighted (by word frequency) and type-weighted (each word
       once), blended 50/50.
    3. Pair cards: the PAIR_UNITS candidates with the largest blended bigram share; PAIR_CARDS
       cards apportioned among them (largest remainder). Each pair's share is taken away from
       its two letters.
    4. SINGLE_CARDS single letters apportioned by largest remainder; quota < MIN_QUOTA -> none,
       every other letter at least one.
    """
    from wordfreq import top_n_list, word_frequency

    sample = []
    for w in top_n_list(lang, 400_000, wordlist="large"):
        f = fold(w, lang)
        if f in dict_words:
            sample.append((f, word_frequency(w, lang, wordlist="large")))
            if len(sample) == SAMPLE:
                break
    tok_l, typ_l, tok_b, typ_b = Counter(), Counter(), Counter(), Counter()
    for W, f in sample:
        for c in W:
            tok_l[c] += f
            typ_l[c] += 1
        for a, b in zip(W, W[1:]):
            tok_b[a + b] += f
            typ_b[a + b] += 1
    n_tok, n_typ = sum(tok_l.values()), sum(typ_l.values())

    def blend(tok: Counter, typ: Counter, key: str) -> float:
        return 0.5 * tok[key] / n_tok + 0.5 * typ[key] / n_typ

    letters = {c: blend(tok_l, typ_l, c) for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"}
    pair_share = {p: blend(tok_b, typ_b, p) for p in pair_candidates}
    chosen = sorted(pair_share, key=lambda p: (-pair_share[p], p))[:PAIR_UNITS]
    pairs = largest_remainder({p: pair_share[p] for p in chosen}, PAIR_CARDS)
    rest = dict(letters)
    for p in chosen:
        for c in p:
            rest[c] -= pair_share[p]
    singles = apportion_singles(rest, SINGLE_CARDS)
    return {
        "sample_size": len(sample),
        "letter_share_pct": {c: round(100 * v, 2) for c, v in sorted(letters.items(), key=lambda kv: -kv[1])},
        "pair_share_pct": {p: round(100 * v, 2) for p, v in sorted(pair_share.items(), key=lambda kv: -kv[1])},
        "singles": singles,
        "pairs": pairs,
    }


def english_deck_derivation() -> dict:
    """The English deck: wordfreq en x wamerican-large (lower-case, apostrophe-free entries)."""
    return derive_deck("en", build_english(quiet=True), EN_PAIR_CANDIDATES)


def german_deck_check() -> dict:
    """Re-derive the German deck by the same code (wordfreq de x our folded ngerman list) to show
    the method reproduces RULES.md; printed, not used: the shipped German deck is RULES.md's."""
    return derive_deck("de", build_german(quiet=True), ["CH", "EI", "IE", "ST"])


def cards(singles: list[tuple[str, int]], pairs: list[tuple[str, int]]) -> list[dict]:
    out = [{"face": f, "count": n} for f, n in singles if n > 0]
    out += [{"face": f, "count": n} for f, n in pairs if n > 0]
    return out + [dict(j) for j in JOKERS]


def dump_decks(decks: dict) -> str:
    """JSON with one card per line, so a diff of the deck reads as a diff of cards."""
    parts = []
    for lang, deck in decks.items():
        rows = ",\n".join("      " + json.dumps(c, ensure_ascii=False) for c in deck["cards"])
        parts.append(f'  {json.dumps(lang)}: {{\n    "note": {json.dumps(deck["note"], ensure_ascii=False)},\n'
                     f'    "cards": [\n{rows}\n    ]\n  }}')
    return "{\n" + ",\n".join(parts) + "\n}\n"


def build_decks() -> dict:
    d = english_deck_derivation()
    en_singles = sorted(((c, n) for c, n in d["singles"].items() if n), key=lambda cn: (-cn[1], cn[0]))
    en_pairs = sorted(d["pairs"].items(), key=lambda cn: (-cn[1], cn[0]))
    decks = {
        "de": {
            "note": "Our own frequency-derived deck (German letter frequencies, wordfreq x "
                    "ngerman), not the original card list, which is not public. RULES.md, Diabolo.",
            "cards": cards(DE_SINGLES, DE_PAIRS),
        },
        "en": {
            "note": "Our own frequency-derived English deck, same method and card mix as the "
                    "German one (55 letters, 5 two-letter cards, 5 jokers, 1 double joker); "
                    "built by tools/build_latin_lexicons.py from wordfreq en x wamerican-large.",
            "cards": cards(en_singles, en_pairs),
        },
    }
    for lang, deck in decks.items():
        total = sum(c["count"] for c in deck["cards"])
        assert total == 66, (lang, total)
    DECKS.parent.mkdir(parents=True, exist_ok=True)
    DECKS.write_text(dump_decks(decks), encoding="utf-8")
    print(f"wrote {DECKS.relative_to(ROOT)}")
    print("en sample", d["sample_size"], "words")
    print("en letter share %", d["letter_share_pct"])
    print("en pair share %", d["pair_share_pct"])
    print("en deck", " ".join(f"{c['face']}x{c['count']}" for c in decks["en"]["cards"]))
    g = german_deck_check()
    rederived = {**g["singles"], **g["pairs"]}
    shipped = dict(DE_SINGLES + DE_PAIRS)
    diff = {k: (shipped.get(k, 0), rederived.get(k, 0)) for k in set(shipped) | set(rederived)
            if shipped.get(k, 0) != rederived.get(k, 0)}
    print("de re-derived by the same code:", "identical to RULES.md" if not diff
          else f"differs from RULES.md (shipped, re-derived): {diff}")
    print("de letter share %", g["letter_share_pct"])
    print("de pair share %", g["pair_share_pct"])
    return decks


# ----- word lists -----------------------------------------------------------------------------

# Hand-picked German forms the sources lack (ngerman has "Stopp" only; the rest are checks that
# must hold whatever the source does). Only everyday words, chosen by hand.
DE_ALLOW = ["STOP", "STOPS", "HANG", "LAGER", "POST", "GEHST", "HAEUSER", "KINDERN", "HEISST",
            "STRASSE"]
# German-nouns name tags used as the denylist.
NAME_TAGS = {"Vorname", "Nachname", "Toponym", "Eigenname"}


def write_list(path: Path, items: set[str]) -> None:
    body = ("\n".join(sorted(items)) + "\n").encode("ascii")
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, compresslevel=9, mtime=0) as gz:
        gz.write(body)
    path.write_bytes(buf.getvalue())
    print(f"wrote {path.relative_to(ROOT)}: {len(items)} words, {len(body)} B raw, "
          f"{path.stat().st_size} B gzip")


def german_name_forms() -> tuple[set[str], set[str]]:
    """(name forms, common-noun forms) from german-nouns, both folded.

    A Wiktionary lemma tagged Vorname/Nachname/Toponym/Eigenname contributes its lemma and every
    inflected form to the name set; a lemma tagged only as a common noun to the noun set. A form
    in both (e.g. a surname that is also a noun: "Bauer", "Koch") is kept as a word.
    """
    import german_nouns
    csv_path = Path(german_nouns.__path__[0]) / "nouns.csv"
    names, nouns = set(), set()
    with csv_path.open(encoding="utf-8", newline="") as fh:
        rows = csv.reader(fh)
        header = next(rows)
        i_lemma = header.index("lemma")
        i_pos = header.index("pos")
        form_cols = [i for i, h in enumerate(header) if h not in ("lemma", "pos", "genus")
                     and not h.startswith("genus")]
        for row in rows:
            if len(row) < len(header):
                row = row + [""] * (len(header) - len(row))
            tags = set(t.strip() for t in row[i_pos].split(","))
            forms = {row[i_lemma]} | {row[i] for i in form_cols if row[i]}
            folded = {fold(f, "de") for f in forms if f and " " not in f}
            folded = {f for f in folded if AZ.match(f)}
            (names if tags & NAME_TAGS else nouns).update(folded)
    return names, nouns


# Lower-case ngerman entries that are abbreviations or fragments of Latin/French phrases
# ("ad acta", "in spe", "peu à peu"), not German words. Entries without a vowel are dropped
# anyway (bzw, usw, ggf, km …); these are the ones with a vowel, picked by hand from the
# 2–4-letter lower-case entries.
DE_DENY = {"ALLG", "BES", "BETR", "BEZ", "BZGL", "CA", "CUM", "DE", "DIV", "DTO", "ENGL", "EO",
           "ET", "ETC", "EVTL", "EXT", "GALV", "GEM", "HOC", "INCL", "INKL", "IPSO", "ACTA",
           "LFD", "MED", "MIN", "MSEC", "NSEC", "PEU", "RASA", "RESP", "SEK", "SPE", "VICE",
           "VORL", "ZUS", "USW", "HTTP", "FTP", "DPI", "CF", "INSB", "GGFS", "USF", "ZZT", "BSPW"}
# Capitalised names that slip through every source (seen when reviewing the short survivors).
DE_NAMES = {"ANKE", "ANTJE", "HANNE", "HILDE", "SILKE", "ZUSE", "RUEHE", "KNAUR", "HOARE", "BDE",
            "PERS", "UDE", "ATUE", "MICROSOFT", "KLAUS", "HANS"}
VOWEL = re.compile(r"[AEIOUY]")
# Endings that mark a capitalised entry as a common noun (derivations, nominalised verbs,
# inflection) rather than a name; used only for capitalised entries no other source vouches for.
NOUN_ENDING = re.compile(
    r"(UNG|UNGEN|IN|INNEN|HEIT|HEITEN|KEIT|KEITEN|SCHAFT|SCHAFTEN|ENS|ELNS|ERNS|CHEN|CHENS|"
    r"EREI|EREIEN|ISMUS|TION|TIONEN|TAET|TAETEN|LING|LINGE|LINGS|NIS|NISSE|TUM|TUMS|IST|ISTEN|"
    r"IK|IKEN|ITIS|UR|UREN|MENT|MENTS|ER|ERS|ERN|E|EN|ES)$")


def english_proper_names() -> set[str]:
    """Capitalised wamerican-large entries (names, places, brands), upper-cased."""
    out = set()
    for line in AMERICAN.read_text(encoding="utf-8").split("\n"):
        w = line.strip()
        if w[:1].isupper() and w.isalpha() and w.isascii():
            out.add(w.upper())
    return out


def build_german(quiet: bool = False) -> set[str]:
    """ngerman forms, folded, minus abbreviations and (as far as the sources allow) names.

    ngerman capitalises nouns and names alike, so a capitalised entry is dropped as a name when:
      1. german-nouns tags the form as Vorname/Nachname/Toponym/Eigenname, or
      2. wamerican-large lists it capitalised (international names, places, brands), or
      3. nothing vouches for it as a noun: not a german-nouns common-noun form, not a compound
         ending in one (head of at least 3 letters after a modifier of at least 3), and no
         common-noun ending (-ung, -heit, -in, -er, -en, …), or
      4. it is in DE_NAMES (a short hand-made list of survivors; this one wins over a
         german-nouns noun tag, e.g. HANS).
    and (1–3) never when the same folded form is a german-nouns common noun or a lower-case entry
    (BAUER, KOCH, ROSE stay). The s-genitive of a dropped name is dropped too (SALZBURGS).
    """
    raw = NGERMAN.read_text(encoding="utf-8").split("\n")
    stats = Counter()
    lower, capital = set(), set()
    for line in raw:
        w = line.strip()
        if not w:
            continue
        stats["lines"] += 1
        if not w.isalpha():
            stats["non_alpha"] += 1          # hyphens, dots, digits, apostrophes
            continue
        rest = w[1:]
        if rest and not rest.islower():
            stats["mixed_case_or_abbr"] += 1  # ABC, GmbH, LogistikerInnen
            continue
        f = fold(w, "de")
        if not AZ.match(f):
            stats["non_latin"] += 1          # é, ç … in loan words
            continue
        if not VOWEL.search(f) or f in DE_DENY:
            stats["abbreviation"] += 1       # bzw, usw, km, Nr, etc, evtl …
            continue
        (capital if w[0].isupper() else lower).add(f)
    names, nouns = german_name_forms()
    en_names = english_proper_names()
    safe = nouns | lower

    def vouched(f: str) -> bool:
        if NOUN_ENDING.search(f):
            return True
        stems = {f} | ({f[:-1]} if f[-1:] in ("S", "N") else set()) | ({f[:-2]} if f.endswith("ES") else set())
        return any(st[i:] in nouns for st in stems for i in range(3, len(st) - 2))

    candidates = capital - safe
    layer1 = {f for f in candidates if f in names}
    layer2 = {f for f in candidates - layer1 if f in en_names}
    layer3 = {f for f in candidates - layer1 - layer2 if not vouched(f)}
    layer4 = (capital - lower) & DE_NAMES   # by hand: overrides a german-nouns noun tag too
    denied = layer1 | layer2 | layer3 | layer4
    genitive = {f for f in candidates - denied if f.endswith("S") and f[:-1] in denied}
    genitive |= {f for f in capital - lower - denied if f.endswith("S") and f[:-1] in layer4}
    denied |= genitive
    words = (lower | capital) - denied
    words = {w for w in words if len(w) >= 2}
    words |= set(DE_ALLOW)
    if not quiet:
        print("de stats", dict(stats), "capitalised", len(capital), "lower", len(lower),
              "| dropped as names: german-nouns", len(layer1), "wamerican", len(layer2),
              "unvouched", len(layer3), "by hand", len(layer4), "s-genitive", len(genitive))
    return words


def build_english(quiet: bool = False) -> set[str]:
    stats = Counter()
    words = set()
    for line in AMERICAN.read_text(encoding="utf-8").split("\n"):
        w = line.strip()
        if not w:
            continue
        stats["lines"] += 1
        if "'" in w:
            stats["apostrophe"] += 1
            continue
        if not w.islower():
            stats["capitalised"] += 1     # names, acronyms
            continue
        f = fold(w, "en")
        if not AZ.match(f):
            stats["non_latin"] += 1       # café, naïve
            continue
        words.add(f)
    words = {w for w in words if len(w) >= 2}
    if not quiet:
        print("en stats", dict(stats))
    return words


def build_words() -> None:
    DATA.mkdir(parents=True, exist_ok=True)
    write_list(DATA / "de_words.txt.gz", build_german())
    write_list(DATA / "en_words.txt.gz", build_english())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("what", nargs="?", default="all", choices=["deck", "words", "all"])
    a = ap.parse_args()
    if a.what in ("deck", "all"):
        build_decks()
    if a.what in ("words", "all"):
        build_words()


if __name__ == "__main__":
    main()
