"""UI text: one catalogue per language, Japanese first.

A language's catalogue is ``partyhost/i18n/<lang>.json`` (the host, lobby and shared refusals)
merged with every ``partyhost/i18n/<game>[_<part>].<lang>.json`` (one or more files per game, so
each game keeps its own words). Every key of a game's file is in the game's namespace, its
``KEY`` (``the_mind.name``, ``decrypto.err.dc_clue_is_keyword``): a sixth game's words can never
collide with another game's. A key outside its namespace, or defined twice, raises at load.

The same catalogue serves the pages (embedded as JSON) and the server's refusals
(``err.<code>``), so a phone reads every word in the language it chose.

A number that decides a word's form is written as a small subset of ICU MessageFormat's
plural: ``{count, plural, one {# card} other {# cards}}`` (``=N`` for an exact number, then the
CLDR category of the language, then ``other``; ``#`` is the number). The category comes from
Babel's CLDR data here and from the browser's ``Intl.PluralRules`` in the page's ``t()``
(static/js/app.js), so both sides agree; Japanese has only ``other``.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources
from string import Formatter

from babel import Locale

LANGS: tuple[str, ...] = ("ja", "en")
"""Supported UI languages, the first is the default."""


def normalize_lang(value: object, default: str = "ja") -> str:
    """Return a supported language code for ``value`` (``"en-US"`` → ``"en"``), else ``default``."""
    if isinstance(value, str):
        short = value.strip().lower().split("-")[0].split("_")[0]
        if short in LANGS:
            return short
    return default if default in LANGS else LANGS[0]


@lru_cache(maxsize=None)
def catalogue(lang: str) -> dict[str, str]:
    """The flat ``{key: template}`` catalogue of ``lang``.

    Raises:
        KeyError: ``lang`` is not in :data:`LANGS`.
        ValueError: two files of ``lang`` define the same key.
    """
    if lang not in LANGS:
        raise KeyError(lang)
    folder = resources.files("partyhost").joinpath("i18n")
    merged: dict[str, str] = json.loads(folder.joinpath(f"{lang}.json").read_text("utf-8"))
    extra = sorted(p for p in folder.iterdir() if p.name.endswith(f".{lang}.json"))
    for part in extra:
        stem = part.name[: -len(f".{lang}.json")]
        for key, value in json.loads(part.read_text("utf-8")).items():
            owner = key.split(".")[0]
            if not (stem == owner or stem.startswith(owner + "_")):
                raise ValueError(f"i18n key {key!r} in {part.name} is outside that file's namespace "
                                 "(a game's keys start with its KEY and a dot)")
            if key in merged:
                raise ValueError(f"i18n key {key!r} defined twice ({part.name})")
            merged[key] = value
    return merged


HONORIFICS: tuple[str, ...] = ("さん", "ちゃん", "くん", "君", "様", "さま", "氏")
"""Japanese honorifics a typed name may already end with (the same list as app.js's)."""


def has_honorific(name: object) -> bool:
    """Whether ``name`` already ends in a Japanese honorific (「ゆうきさん」, 「あきちゃん」, 「山田様」):
    a template's ``{name}さん`` then adds no second one (「ゆうきさんさん」)."""
    return str(name).strip().endswith(HONORIFICS)


_PLURAL_START = re.compile(r"\{(\w+), *plural, *")
_BRANCH = re.compile(r"\s*(=\d+|zero|one|two|few|many|other)\s*\{")


def plural_branches(block: str) -> dict[str, str]:
    """The branches of one plural block's body (``one {# card} other {# cards}``) as
    ``{"one": "# card", "other": "# cards"}``.

    Raises:
        ValueError: the body is not selectors each followed by a braced text, or has no
            ``other``."""
    out: dict[str, str] = {}
    i = 0
    while i < len(block):
        if not block[i:].strip():
            break
        m = _BRANCH.match(block, i)
        if not m:
            raise ValueError(f"bad plural block {block!r}")
        depth, j = 1, m.end()
        while depth:
            if j >= len(block):
                raise ValueError(f"unbalanced plural block {block!r}")
            depth += {"{": 1, "}": -1}.get(block[j], 0)
            j += 1
        out[m.group(1)] = block[m.end(): j - 1]
        i = j
    if "other" not in out:
        raise ValueError(f"plural block without 'other': {block!r}")
    return out


@lru_cache(maxsize=None)
def _plural_rule(lang: str):
    return Locale.parse(lang).plural_form


def plurals(lang: str, template: str, params: dict) -> str:
    """``template`` with every ``{name, plural, …}`` block replaced by the branch for
    ``params[name]`` in ``lang`` (``=N``, then the CLDR category, then ``other``), its ``#``
    the number. A block whose number is missing keeps its ``other`` branch with ``{name}``
    for ``#``.

    Raises:
        ValueError: a malformed block (see :func:`plural_branches`)."""
    out, i = [], 0
    while True:
        m = _PLURAL_START.search(template, i)
        if not m:
            out.append(template[i:])
            return "".join(out)
        depth, j = 1, m.end()
        while depth:
            if j >= len(template):
                raise ValueError(f"unbalanced plural in {template!r}")
            depth += {"{": 1, "}": -1}.get(template[j], 0)
            j += 1
        branches = plural_branches(template[m.end(): j - 1])
        name, value = m.group(1), params.get(m.group(1))
        if isinstance(value, str) and re.fullmatch(r"\d+(\.\d+)?", value):
            value = float(value) if "." in value else int(value)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            text = branches.get(f"={value:g}") or branches.get(_plural_rule(lang)(value)) or branches["other"]
            number = format(value, "g")
        else:
            text, number = branches["other"], "{" + name + "}"
        out += [template[i: m.start()], text.replace("#", number)]
        i = j


def placeholders(template: str) -> set[str]:
    """The parameter names ``template`` reads: every ``{name}`` and every plural block's number
    (``{count, plural, …}``), placeholders inside its branches included."""
    names = set(_PLURAL_START.findall(template))
    flat = plurals("en", template, {})  # each block → its "other" branch, "#" → {name}
    for name in names:  # and every other branch's placeholders
        for m in re.finditer(r"\{" + name + r", *plural, *", template):
            depth, j = 1, m.end()
            while depth and j < len(template):
                depth += {"{": 1, "}": -1}.get(template[j], 0)
                j += 1
            flat += "".join(plural_branches(template[m.end(): j - 1]).values())
    return names | set(re.findall(r"\{(\w+)\}", flat))


def selector_only(template: str) -> set[str]:
    """The names ``template`` reads only to choose a plural form (a block with no ``#`` and no
    ``{name}`` elsewhere): the Japanese text of the same key, which has one form, may leave
    them out."""
    shown = set(re.findall(r"\{(\w+)\}", plurals("en", template, {})))
    out = set()
    for name in set(_PLURAL_START.findall(template)):
        if name not in shown:
            out.add(name)
    return out


def message(lang: str, key: str, /, **params: object) -> str:
    """Format ``key`` of ``lang``'s catalogue with ``params``.

    A missing key falls back to English, then to the key itself, so a refusal always reaches
    the phone with some text; a missing parameter is left as ``{name}`` rather than raising.
    A placeholder the template follows with さん (``{name}さん``) takes none after a value that
    already ends in an honorific (:func:`has_honorific`). A plural block takes its form from its
    number (:func:`plurals`).
    """
    lang = normalize_lang(lang)
    template = catalogue(lang).get(key) or catalogue("en").get(key) or key
    template = plurals(lang if key in catalogue(lang) else "en", template, params)
    out: list[str] = []
    depth = 0  # how many 「 are open at this point of the template
    honored = False  # the value just filled ends in an honorific: the literal's leading さん goes
    for literal, name, spec, _conv in Formatter().parse(template):
        if honored and literal.startswith("さん"):
            literal = literal[len("さん"):]
        honored = False
        out.append(literal)
        depth += literal.count("「") - literal.count("」")
        if name is None:
            continue
        if name not in params:
            out.append("{" + name + "}")
            continue
        value = params[name]
        value = join_list(lang, value) if isinstance(value, (list, tuple)) else format(value, spec or "")
        honored = has_honorific(value)
        out.append(value.replace("「", "『").replace("」", "』") if depth > 0 else value)
    return "".join(out)


def join_list(lang: str, items: "list[object] | tuple[object, ...]") -> str:
    """``items`` as one list in ``lang``: 「a、b、c」 in Japanese (the catalogue's ``list.sep``),
    "a, b, c" in English. A list parameter of :func:`message` is joined this way, so a refusal
    names its choices in the phone's language (``readings=["はくし", "しらかみ"]``)."""
    sep = catalogue(normalize_lang(lang)).get("list.sep") or ", "
    return sep.join(str(x) for x in items)


def refusal(lang: str, code: str, scope: str | None = None, **params: object) -> str:
    """The text of refusal ``code`` for a phone in ``lang``: the game's own wording
    (``<scope>.err.<code>``, e.g. ``the_mind.err.stale`` says "level") when its catalogue has one,
    else the shared ``err.<code>``; formatted like :func:`message`."""
    if scope:
        key = f"{scope}.err.{code}"
        if key in catalogue(normalize_lang(lang)) or key in catalogue("en"):
            return message(lang, key, **params)
    return message(lang, f"err.{code}", **params)
