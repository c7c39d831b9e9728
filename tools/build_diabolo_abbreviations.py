#!/usr/bin/env python3
"""Build the Diabolo abbreviation list (build time only; its output is committed).

Output:
  partyhost/games/data/diabolo_abbreviations.json  -- {"de": [...], "en": [...]}, folded A-Z, sorted

Why: the rulebook (seed 004 §5) allows no abbreviations, and RULES.md "Diabolo" says they are
refused outright, not voted, written with or without dots (USW, BZW, GMBH, PKW…). The word lists
cannot tell: a list may hold ETC or ASAP (the English list does), and a made-up abbreviation
would go to a vote. So a claim whose word is on this list is refused before any lookup.

Source: our own list. It was written by hand for partyhost by its developers from everyday
knowledge of German and English writing (letters, forms, signs, news); it is not copied or
derived from any published or licensed abbreviation list or dictionary. Licence: MIT, as the rest
of the project. Each entry is a common abbreviation a table would not take for a word.

Left out on purpose: abbreviations that are also everyday words of the same language once
folded (SOG "Sog", ABT "Abt", LED "led", RIP "rip", VAT "vat", ETA the letter), acronyms spoken
and written as words (LASER, RADAR, NATO, UFO): the table's vote judges those. Entries shorter
than 3 letters are left out too (no claim is shorter). With ``--check`` the script lists the
entries the committed word lists know, so a person can look at each again.

Run:  python3 tools/build_diabolo_abbreviations.py [--check]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from partyhost.lexicon.latin import fold  # noqa: E402  (the same folding as at run time)

OUT = ROOT / "partyhost/games/data/diabolo_abbreviations.json"

#: German abbreviations (as written; folded when built: ä→AE, dots and spaces dropped).
GERMAN = """
usw. bzw. etc. ggf. evtl. inkl. exkl. zzgl. bzgl. vgl. dgl. sog. z.T. u.a. o.ä. u.ä. d.h. m.E.
z.Zt. u.U. i.d.R. u.v.m. a.D. i.A. i.V. i.R. n.Chr. v.Chr. Str. Nr. Tel. Hbf. Abk. Anm. Jh. Jhd.
Mio. Mrd. Tsd. Std. Min. Sek. Mo. Di. Mi. Do. Fr. Sa. So. Jan. Feb. Apr. Aug. Sept. Okt. Nov. Dez.
Dr. Dipl. Hr. Fr. Frl. geb. gest. verh. led. Pkw Lkw Kfz Krad Akw Edv GmbH KG AG e.V. MwSt.
USt. Bhf. Pl. Gl. Abs. Abt. Kap. Bd. Bde. Hrsg. Aufl. ff. Anh. Abb. Tab. Fa. Kto. Blz. Plz. Ust.
ADAC ARD ZDF DDR BRD DFB SPD CDU CSU FDP ICE NRW MfG LG SMS ÖPNV StVO BGB HGB TÜV UKW EDV ABM
Azubi Kita Uni WG
"""

#: English abbreviations.
ENGLISH = """
etc. e.g. i.e. viz. vs. approx. ASAP FAQ DIY ATM CEO DVD CPU TBA TBD RSVP AKA FYI VIP BBC CIA FBI
IOU PTO LOL OMG BTW IMO PhD MBA DNA HIV NYC USB PDF HTML URL GPS LCD MRI ICU IRS UK USA EU St.
Mr. Mrs. Ms. Dr. Jr. Sr. Ltd. Inc. Co. Corp. Dept. Govt. Ave. Blvd. Rd. Apt. No. Tel. Mon. Tue.
Wed. Thu. Fri. Sat. Sun. Jan. Feb. Mar. Apr. Jun. Jul. Aug. Sep. Sept. Oct. Nov. Dec. min. max.
hr. hrs. sec. mph. km. kg. lb. lbs. oz. ft. yd. qt. pt. misc. ref. Ph.D. B.A. M.A. P.S. a.m. p.m.
"""

#: Entries that fold to an everyday word of that language: never listed (see the docstring).
WORDS_TOO = {"de": {"SOG", "ABT", "ABS", "LED", "GEB", "GEST", "MIN", "STD", "AUFL", "PL", "GL",
                     "KAP", "BD", "BDE", "FF", "ANH", "ABB", "TAB", "FA", "MO", "DI", "MI", "DO",
                     "FR", "SA", "SO", "JAN", "FEB", "APR", "AUG", "SEPT", "OKT", "NOV", "DEZ",
                     "HR", "UNI", "AZUBI", "KITA", "WG", "KRAD", "MIO", "MRD", "TSD", "SEK",
                     "ICE", "LG"},
             "en": {"CO", "ST", "NO", "MIN", "MAX", "SEC", "SAT", "SUN", "MAR", "JAN", "MON",
                    "WED", "APT", "REF", "MISC", "PT", "FT", "OZ", "LB", "LBS", "HR", "HRS", "KM",
                    "KG", "YD", "QT", "AVE", "CORP", "DEPT", "INC", "VS", "EG", "IE", "VIZ",
                    "APPROX", "MPH", "MA", "BA", "PS", "AM", "PM", "EU", "UK", "TEL", "DEC",
                    "OCT", "NOV", "SEP", "SEPT", "AUG", "APR", "FEB", "JUN", "JUL", "THU", "TUE",
                    "FRI", "MS", "MRS", "MR", "DR", "JR", "SR", "RD", "LTD", "GOVT", "BLVD"}}


def build(raw: str, lang: str) -> list[str]:
    """Folded (A–Z), deduplicated, sorted; 3+ letters; the words-too set left out."""
    out = set()
    for token in raw.split():
        folded = "".join(ch for ch in fold(token, lang) if "A" <= ch <= "Z")
        if len(folded) >= 3 and folded not in WORDS_TOO[lang]:
            out.add(folded)
    return sorted(out)


def main(argv: list[str]) -> int:
    data = {"de": build(GERMAN, "de"), "en": build(ENGLISH, "en")}
    if "--check" in argv:
        from partyhost.games.diabolo_words import is_known, prepare
        for lang, entries in data.items():
            prepare(lang)
            known = [w for w in entries if is_known(w, lang)]
            print(f"{lang}: {len(entries)} entries; the word list also knows: {' '.join(known) or '-'}")
        return 0
    OUT.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}: de {len(data['de'])}, en {len(data['en'])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
