"""Decrypto's words: the keyword decks, their readings, normalisation and the clue checks.

Split from :mod:`.decrypto` (the rules of play) because judging words is a seam of its own: it
needs no game state beyond a team's keywords and the clues it gave, so every function here is pure
and takes what it judges as arguments.

Sources: the rulebook ``shared/seeds/000_869e48370cc59a45.txt`` §clues "ヒントを作るときの約束"
(no keyword itself, no repeated clue, missing clues go blank when the sand timer runs out) and
§end "終了と同時成立の処理" (the tie-break keyword guesses); ``shared/RULES.md`` "Decrypto" says what
"the same word" means here ("after normalisation: script, width, invisible characters, other
written forms …").

The decks are our own lists in ``partyhost/games/data/decrypto_keywords.<lang>.txt`` (one keyword a
line) and the readings of their kanji keywords in ``decrypto_readings.<lang>.txt``; both are read
once, by :func:`deck` and :func:`readings`, and cached for the life of the process.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from importlib import resources

from .base import RuleError

KEYWORD_LANGS: tuple[str, ...] = ("ja", "en")
KEYWORD_FILE = "decrypto_keywords.{lang}.txt"
READING_FILE = "decrypto_readings.{lang}.txt"  # kanji keyword <TAB> its reading in hiragana
FORMS_FILE = "decrypto_forms.{lang}.txt"  # keyword <TAB> other forms (romaji, translation, spellings)
ROMAJI_MARK = "r:"  # a form in FORMS_FILE that is romaji (compared with romaji_key folding)
CLUE_MAX = 40  # characters of one clue (ours: a phone field, not a paragraph)

_DECKS: dict[str, list[str]] = {}
_READINGS: dict[str, dict[str, str]] = {}
_FORMS: dict[str, dict[str, frozenset[str]]] = {}
_FOLDED: dict[tuple[str, str], frozenset[str]] = {}


def normalize(text: str) -> str:
    """The comparison form of a clue or keyword (RULES.md "Decrypto": "after normalisation").

    Unicode NFKC (full/half width), casefold, katakana → hiragana (a code-point shift for
    ァ…ヶ; ヷ-ヺ have no hiragana and stay), and every space and ・ dropped, so ``"サボテン"``,
    ``"さぼてん"`` and ``"ｻﾎﾞﾃﾝ"`` compare equal, as do ``"Ice Cream"`` and ``"icecream"``.
    Never raises (anything is turned into ``str`` first).
    """
    folded = unicodedata.normalize("NFKC", str(text)).casefold()
    out = []
    for ch in folded:
        if ch.isspace() or ch == "・":
            continue
        if "\u30a1" <= ch <= "\u30f6":
            ch = chr(ord(ch) - 0x60)
        out.append(ch)
    return "".join(out)


def tidy(text: str) -> str:
    """A clue as shown: NFKC and inner runs of white space collapsed to one space, trimmed."""
    return " ".join(unicodedata.normalize("NFKC", str(text)).split())


# --- the decks ---------------------------------------------------------------------------------


def read_keyword_file(lang: str) -> list[str]:
    """The keyword deck of ``lang`` from ``partyhost/games/data/decrypto_keywords.<lang>.txt``:
    one keyword a line, blank lines and ``#`` comment lines skipped, NFKC-tidied, duplicates
    (after :func:`normalize`) dropped. Raises FileNotFoundError when the file is missing."""
    path = resources.files("partyhost.games").joinpath("data", KEYWORD_FILE.format(lang=lang))
    words: list[str] = []
    seen: set[str] = set()
    for line in path.read_text("utf-8").splitlines():
        word = tidy(line)
        if not word or word.startswith("#"):
            continue
        key = normalize(word)
        if key and key not in seen:
            seen.add(key)
            words.append(word)
    return words


def _data_lines(name: str) -> list[str]:
    """The tab-separated lines of ``games/data/<name>`` (``#`` comments and lines without a tab
    left out); no lines when the file is missing."""
    path = resources.files("partyhost.games").joinpath("data", name)
    try:
        text = path.read_text("utf-8")
    except (FileNotFoundError, OSError):
        return []
    return [line for line in text.splitlines() if not line.startswith("#") and "\t" in line]


def read_reading_file(lang: str) -> dict[str, str]:
    """Readings of the deck's kanji keywords, ``{keyword: reading}``, from
    ``games/data/decrypto_readings.<lang>.txt`` (``keyword<TAB>reading`` a line, ``#`` comments).
    A missing file is an empty dict: the check then only compares written forms."""
    out: dict[str, str] = {}
    for line in _data_lines(READING_FILE.format(lang=lang)):
        word, reading = line.split("\t", 1)
        if tidy(word) and tidy(reading):
            out[tidy(word)] = tidy(reading)
    return out


def read_forms_file(lang: str) -> dict[str, frozenset[str]]:
    """Other forms of each keyword that a clue may not take (issue 14), ``{keyword: {form, …}}``,
    from ``games/data/decrypto_forms.<lang>.txt`` (``keyword<TAB>form<TAB>…`` a line, forms already
    :func:`normalize`-d; built by ``tools/build_decrypto_forms.py``): romaji of a Japanese keyword
    (neko, toukyou, tokyo; marked ``r:`` in the file), its English translation and that word's inflections (cat, cats), other
    spellings of the same dictionary entry (玉子 for 卵, 蜂蜜 for ハチミツ); for an English keyword its
    inflections (cats, flies, flew) and its Japanese translation (猫, ねこ, neko). A missing file
    is an empty dict."""
    out: dict[str, frozenset[str]] = {}
    for line in _data_lines(FORMS_FILE.format(lang=lang)):
        word, *forms = line.split("\t")
        out[tidy(word)] = frozenset(normalize(f) for f in forms if normalize(f).removeprefix(ROMAJI_MARK))
    return out


def forms(lang: str) -> dict[str, frozenset[str]]:
    """``{keyword: other forms}`` of ``lang`` (read once; may be empty), see :func:`read_forms_file`."""
    if lang not in _FORMS:
        _FORMS[lang] = read_forms_file(lang)
    return _FORMS[lang]


def deck(lang: str) -> list[str]:
    """The keyword deck of ``lang`` (read once, then cached). Raises FileNotFoundError when the
    file is missing."""
    if lang not in _DECKS:
        _DECKS[lang] = read_keyword_file(lang)
    return _DECKS[lang]


def readings(lang: str) -> dict[str, str]:
    """``{keyword: reading}`` for the kanji keywords of ``lang`` (read once; may be empty)."""
    if lang not in _READINGS:
        _READINGS[lang] = read_reading_file(lang)
    return _READINGS[lang]


# --- judging words -----------------------------------------------------------------------------


def keyword_forms(keyword: str, lang: str) -> set[str]:
    """The normalised ways of writing ``keyword``: itself, and its reading when it is a kanji
    keyword of the ``lang`` deck (犬 → ``{"犬", "いぬ"}``: a table reads both as the same word)."""
    reading = readings(lang).get(keyword)
    return {normalize(keyword)} | ({normalize(reading)} if reading else set())


def is_keyword(text: str, keywords: Iterable[str], lang: str) -> bool:
    """Whether ``text`` names one of ``keywords`` (normalised, readings included)."""
    key = normalize(text)
    return any(key in keyword_forms(k, lang) for k in keywords)


def clue_forms(keyword: str, lang: str) -> set[str]:
    """Everything a clue may not be for ``keyword`` (§clues: the keyword and its translation):
    :func:`keyword_forms` plus the built forms of :func:`forms` (romaji, translation into the other
    language with its inflections, other spellings). 猫 → 猫, ねこ, neko, cat, cats, …"""
    return keyword_forms(keyword, lang) | {f.removeprefix(ROMAJI_MARK) for f in forms(lang).get(keyword, ())}


_LATIN_WORD = re.compile(r"^[a-zāīūēōâîûêô'’-]+$")
_LONG_VOWELS = str.maketrans({"ā": "a", "ī": "i", "ū": "u", "ē": "e", "ō": "o", "â": "a", "î": "i",
                              "û": "u", "ê": "e", "ô": "o", "'": None, "’": None, "-": None})
_ROMAJI_FOLDS = ((re.compile(r"(?<=o)[ou]|(?<=u)u"), ""), (re.compile(r"(?<=o)h(?![aeiouy])"), ""),
                 (re.compile(r"m(?=[bmp])"), "n"))


def romaji_key(text: str) -> str:
    """A normalised latin word with the spelling differences of romaji folded away, so that every
    way of writing a long vowel or ん compares equal: kyouryuu = kyōryū = kyoryu = kyouryu,
    shimbun = shinbun, kin'en = kinen, ohsaka = osaka. Non-latin text is returned as it is."""
    if not _LATIN_WORD.match(text):
        return text
    out = text.translate(_LONG_VOWELS)
    for pattern, repl in _ROMAJI_FOLDS:
        out = pattern.sub(repl, out)
    return out


def _folded_forms(keyword: str, lang: str) -> frozenset[str]:
    key = (lang, keyword)
    if key not in _FOLDED:
        _FOLDED[key] = frozenset(romaji_key(f.removeprefix(ROMAJI_MARK))
                                 for f in forms(lang).get(keyword, ()) if f.startswith(ROMAJI_MARK))
    return _FOLDED[key]


def clue_names_keyword(text: str, keywords: list[str], lang: str) -> int | None:
    """The number (1‥4) of the keyword that ``text`` names in any of its :func:`clue_forms`, or None.
    Romaji forms are also compared by :func:`romaji_key` (Tōkyō = toukyou = tokyo; kin'en =
    kinen); English words are not folded (hop is not hoop)."""
    key = normalize(text)
    folded = romaji_key(key)
    for i, k in enumerate(keywords):
        if key in clue_forms(k, lang) or folded in _folded_forms(k, lang):
            return i + 1
    return None


def exact_guesses(guesses: list[str], keywords: list[str], lang: str) -> list[bool]:
    """For the tie-break (§end): which of a team's guesses, by keyword number, name the keyword
    of that number exactly (normalised, readings included; a blank guess never does).
    Returns one bool per number (``len(keywords)``, 4)."""
    return [bool(g) and normalize(g) in keyword_forms(k, lang) for g, k in zip(guesses, keywords)]


def named_keywords(guesses: list[str], keywords: list[str], lang: str) -> list[bool]:
    """For the tie-break (RULES.md "Decrypto"): which keywords the guesses name, in any slot (a
    word named in the wrong slot still counts; normalised, readings included; a blank guess
    names nothing). Returns one bool per keyword (``len(keywords)``, 4)."""
    named = {normalize(g) for g in guesses if g and normalize(g)}
    return [bool(named & keyword_forms(k, lang)) for k in keywords]


def check_clue(clue: str, keywords: list[str], used: set[str], lang: str) -> str:
    """Tidy one clue of a team and check it (§clues). Returns the tidy clue.

    Args:
        clue: as typed.
        keywords: the team's own four keywords (only these: refusing another team's keyword
            would tell the encryptor a secret).
        used: the team's earlier clues, normalised (see :func:`used_clues`).
        lang: the keyword language (for the readings of kanji keywords).

    Raises:
        RuleError: ``"dc_clue_empty"``, ``"dc_clue_too_long"`` (``max``),
            ``"dc_clue_is_keyword"`` (``clue``, ``number``: the keyword's number 1‥4, never the
            keyword; the clue equals one of the keywords after :func:`normalize`, a kanji keyword's
            reading (犬 written いぬ or イヌ), its romaji (inu), its translation (dog, dogs) or another
            spelling (玉子 for 卵): see :func:`clue_forms`), ``"dc_clue_used"`` (``clue``: the team
            gave it before).
    """
    text = tidy(clue)
    if not normalize(text):
        raise RuleError("dc_clue_empty")
    if len(text) > CLUE_MAX:
        raise RuleError("dc_clue_too_long", max=CLUE_MAX)
    number = clue_names_keyword(text, keywords, lang)
    if number is not None:
        raise RuleError("dc_clue_is_keyword", clue=text, number=number)
    if normalize(text) in used:
        raise RuleError("dc_clue_used", clue=text)
    return text


def check_clues(clues: list[str], keywords: list[str], used: set[str], lang: str) -> list[str]:
    """Check a final set of three clues (§clues): each by :func:`check_clue`, in order, then
    ``"dc_clue_repeated"`` when two of them are the same word. Returns the tidy clues."""
    checked = [check_clue(c, keywords, used, lang) for c in clues]
    keys = [normalize(c) for c in checked]
    if len(set(keys)) != len(keys):
        raise RuleError("dc_clue_repeated")
    return checked


def timed_out_clues(drafts: list[str], keywords: list[str], used: set[str], lang: str) -> list[str]:
    """The clues sent when the sand timer runs out (§clues: "3つそろわないまま出題"): the saved
    draft, each clue that :func:`check_clue` would refuse, or that repeats an earlier one of the
    three, sent blank (``""``). Never raises."""
    out: list[str] = []
    seen: set[str] = set()
    for raw in drafts:
        try:
            text = check_clue(raw, keywords, used, lang)
        except RuleError:
            text = ""
        if text and normalize(text) in seen:
            text = ""
        if text:
            seen.add(normalize(text))
        out.append(text)
    return out


def used_clues(history: list[dict], team: str) -> set[str]:
    """Normalised clues ``team`` gave in earlier reveals (``history`` records, see
    :meth:`.decrypto.Decrypto.sheet`), blanks left out (§clues: no repeats)."""
    return {normalize(c) for h in history if h["team"] == team for c in h["clues"] if c}
