"""UI text: one catalogue per language, Japanese first.

A language's catalogue is ``partyhost/i18n/<lang>.json`` (the host, lobby and shared refusals)
merged with every ``partyhost/i18n/<game>[_<part>].<lang>.json`` (one or more files per game, so
each game keeps its own words). Every key of a game's file is in the game's namespace, its
``KEY`` (``the_mind.name``, ``decrypto.err.dc_clue_is_keyword``): a sixth game's words can never
collide with another game's. A key outside its namespace, or defined twice, raises at load.

The same catalogue serves the pages (embedded as JSON) and the server's refusals
(``err.<code>``), so a phone reads every word in the language it chose.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from string import Formatter

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


def message(lang: str, key: str, **params: object) -> str:
    """Format ``key`` of ``lang``'s catalogue with ``params``.

    A missing key falls back to English, then to the key itself, so a refusal always reaches
    the phone with some text; a missing parameter is left as ``{name}`` rather than raising.
    A placeholder the template follows with さん (``{name}さん``) takes none after a value that
    already ends in an honorific (:func:`has_honorific`).
    """
    lang = normalize_lang(lang)
    template = catalogue(lang).get(key) or catalogue("en").get(key) or key
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
