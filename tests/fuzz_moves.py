"""What the engine fuzz test (``test_engine_fuzz.py``) throws at a game: odd values, near misses
built from a game's own action schemas, plausible moves (the game's own :meth:`Game.suggest`,
so a batch of messages reaches deep states: later levels, votes, tie-breaks, deck-outs) and
mutations of those moves (one part made odd, so the odd value meets the game's own checks with
everything else right).

Everything here draws from a Hypothesis ``data`` object (``st.data()``), so a failing batch
shrinks and replays. A :class:`Msg` is one Socket.IO message as a hostile or careless client
writes it: the payload may hold ``NaN``, ``Infinity``, integers past 2**53, ``2.0`` where an
integer is expected and invisible characters, and its ``tags`` say which odd thing was put
where, so the test knows which answer the engine owes. Nothing here is specific to one game: a
sixth game is fuzzed from its ``ACTIONS``, ``HOST_ACTIONS``, ``OPTIONS`` and ``suggest``.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from partyhost.games.base import Game

NAN = float("nan")
INF = float("inf")

INVISIBLE = (
    [chr(c) for c in range(0x200B, 0x2010)]
    + [chr(c) for c in range(0x202A, 0x202F)]
    + [chr(c) for c in range(0x2060, 0x2065)]
    + ["\ufeff"]
)
"""The characters issue 10 names (U+200B–U+200F, U+202A–U+202E, U+2060–U+2064, U+FEFF): they
must be gone from every text before any check, so no state may ever carry one."""

NON_FINITE = (NAN, INF, -INF)
BIG_INTEGERS = (2**53, -(2**53), 2**53 + 1, 2**63, -(2**64), 10**30)
"""Integers a browser cannot hold exactly: refused at the envelope as ``malformed``."""

ODD_TAGS = frozenset({"int_float", "bool_int"})
"""Tags of a value the schema refuses although a lax reader would take it: ``2.0`` or ``True``
where an integer is expected."""

@dataclass
class Msg:
    """One message to put on the wire.

    Attributes:
        sender: the client's name in the fuzzed table (``"tv"``, ``"p0"`` …, ``"outsider"``,
            ``"late"``).
        event: the Socket.IO event name (``"act"``, ``"host"`` … or nonsense).
        payload: what follows the event name, written with ``json.dumps`` (so NaN and Infinity
            go out raw); ``MISSING`` sends the event with no argument, a tuple sends several.
        tags: odd things put in it on purpose: ``"int_float"``/``"bool_int"`` (where an integer
            was expected), with ``"envelope"`` when that field is the engine's own (``game``,
            ``serial``, ``index``, ``id``) rather than the game's.
    """

    sender: str
    event: str
    payload: Any
    tags: frozenset = field(default_factory=frozenset)


MISSING = object()
"""A :class:`Msg` payload that sends the event with no argument at all."""


@dataclass
class Context:
    """What a near miss may borrow from the running table: seat ids, numbers that count
    something (round, level, field serial, vote id …) and short texts seen in the views."""

    seats: list[str]
    counters: list[int]
    texts: list[str]


COUNTER_KEYS = frozenset({"round", "level", "serial", "turned", "id", "n", "vote", "proposal", "version",
                          "number", "field", "chain", "card", "rounds", "levels"})


def context_of(views: list[dict], seats: list[str]) -> Context:
    """Collect counters (ints under :data:`COUNTER_KEYS`) and short texts from ``views``."""
    counters: set[int] = {0, 1}
    texts: set[str] = set()
    stack: list[Any] = list(views)
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for k, v in item.items():
                if k in COUNTER_KEYS and isinstance(v, int) and not isinstance(v, bool):
                    counters.add(v)
                stack.append(v)
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) and 0 < len(item) <= 20 and len(texts) < 60:
            texts.add(item)
    return Context(seats=list(seats), counters=sorted(counters), texts=sorted(texts))


# ----- odd values ---------------------------------------------------------------------------------

def invisible_laced(data, text: str, keep: bool = False) -> str:
    """``text`` with invisible characters put before, inside and/or after it, or (unless
    ``keep``) instead of it: a text of only invisible characters, empty once cleaned."""
    chars = st.sampled_from(INVISIBLE)
    modes = ["before", "inside", "after", "around"] + ([] if keep else ["only"])
    where = data.draw(st.sampled_from(modes))
    if where == "only" or not text:
        return "".join(data.draw(st.lists(chars, min_size=1, max_size=4)))
    if where == "inside":
        i = data.draw(st.integers(0, len(text)))
        return text[:i] + data.draw(chars) + text[i:]
    before = data.draw(chars) if where in ("before", "around") else ""
    after = data.draw(chars) if where in ("after", "around") else ""
    return before + text + after


def odd_text(data, schema: dict, ctx: Context) -> Any:
    """A text a careless phone sends: invisible characters, empty, too long, or not text."""
    base = data.draw(st.sampled_from(ctx.texts or ["x"]))
    longest = schema.get("maxLength", 200)
    return data.draw(st.sampled_from([
        invisible_laced(data, base),
        invisible_laced(data, base),
        "",
        " \u3000 ",
        "あ" * (longest + 1),
        "w" * 5000,  # past the 4 KB message limit: too_large
        "\x00\x07",
        "\ud800",  # a lone surrogate: valid JSON, not valid text
        "\u202eevil",
        "🎲" * 5,
        123,
        None,
        [base],
        {"t": base},
        True,
    ]))


def odd_integer(data, schema: dict, ctx: Context) -> tuple[Any, set[str]]:
    """An integer field's odd value and its tags: ``2.0``, ``True``, past 2**53, NaN, text…"""
    near = ints_near(data, schema, ctx)
    kind = data.draw(st.sampled_from(["int_float", "int_float", "bool_int", "big", "nonfinite",
                                      "fraction", "text", "none", "out_of_range"]))
    if kind == "int_float":
        return float(near), {"int_float"}
    if kind == "bool_int":
        return data.draw(st.booleans()), {"bool_int"}
    if kind == "big":
        return data.draw(st.sampled_from(BIG_INTEGERS)), set()
    if kind == "nonfinite":
        return data.draw(st.sampled_from(NON_FINITE)), set()
    if kind == "fraction":
        return near + 0.5, set()
    if kind == "text":
        return data.draw(st.sampled_from([str(near), f"{near}\u200b", ""])), set()
    if kind == "none":
        return None, set()
    lo, hi = schema.get("minimum", -(2**31)), schema.get("maximum", 2**31)
    return data.draw(st.sampled_from([lo - 1, hi + 1, -1, 2**53 - 1])), set()


def ints_near(data, schema: dict, ctx: Context) -> int:
    """An integer a real phone might send: a schema bound, or a counter of the table ± 1
    (so stale rounds, levels, field serials and vote ids come up often)."""
    lo, hi = schema.get("minimum"), schema.get("maximum")
    pool = [c + d for c in ctx.counters for d in (-1, 0, 0, 1)]
    pool += [b for b in (lo, hi) if b is not None]
    if lo is not None and hi is not None and hi - lo < 50:
        pool += list(range(lo, hi + 1))
    return data.draw(st.sampled_from(pool))


def odd_value(data, schema: dict, ctx: Context) -> tuple[Any, set[str]]:
    """A value that is wrong, odd or on the boundary for ``schema``, with its tags."""
    kind = schema.get("type")
    if kind == "integer":
        return odd_integer(data, schema, ctx)
    if kind == "number":
        lo, hi = schema.get("minimum", 0), schema.get("maximum", 100)
        return data.draw(st.sampled_from([NAN, INF, -INF, 1e308, -1e308, 5e-324, -0.0, lo - 1e-9,
                                          hi + 1, 2**53 + 1, "5", True, None])), set()
    if kind == "string" or "enum" in schema or "const" in schema:
        options = list(schema.get("enum", [])) + ([schema["const"]] if "const" in schema else [])
        if options and data.draw(st.booleans()):
            word = data.draw(st.sampled_from(options))
            if isinstance(word, str):
                return data.draw(st.sampled_from([
                    invisible_laced(data, word), word.upper(), word + " ", word[:-1], NAN,
                ])), set()
        return odd_text(data, schema, ctx), set()
    if kind == "boolean":
        return data.draw(st.sampled_from([0, 1, "true", None, NAN, [], "\u200b"])), set()
    if kind == "array":
        items = schema.get("items", {})
        size = data.draw(st.sampled_from([
            0, max(0, schema.get("minItems", 1) - 1), schema.get("maxItems", 3) + 1,
            schema.get("minItems", 1),
        ]))
        out, tags = [], set()
        for _ in range(min(size, 8)):
            value, t = value_for(data, items, ctx, odd_percent=50)
            out.append(value)
            tags |= t
        if data.draw(st.integers(0, 9)) == 0:
            return data.draw(st.sampled_from([{"0": 1}, "1,2,3", None, NAN])), set()
        return out, tags
    if kind == "object":
        return data.draw(st.sampled_from([[], "{}", None, {"\u200b": 1}, {"": NAN}])), set()
    return data.draw(json_values), set()


def value_for(data, schema: dict, ctx: Context, odd_percent: int = 30) -> tuple[Any, set[str]]:
    """A value for ``schema``: mostly one a real phone sends, ``odd_percent`` % of the time an
    odd one (:func:`odd_value`). Returns ``(value, tags)``."""
    if data.draw(st.integers(0, 99)) < odd_percent:
        return odd_value(data, schema, ctx)
    if "const" in schema:
        return schema["const"], set()
    if "enum" in schema:
        return data.draw(st.sampled_from(schema["enum"])), set()
    kind = schema.get("type")
    if kind == "integer":
        lo, hi = schema.get("minimum", -5), schema.get("maximum", 2**20)
        value = ints_near(data, schema, ctx)
        return (value if lo <= value <= hi else data.draw(st.integers(lo, min(hi, lo + 200)))), set()
    if kind == "number":
        lo, hi = schema.get("minimum", -100.0), schema.get("maximum", 100.0)
        return data.draw(st.floats(lo, hi, allow_nan=False, allow_infinity=False)), set()
    if kind == "string":
        pool = ctx.seats + ctx.texts + ["", "あいう", "word"]
        return data.draw(st.sampled_from(pool))[: schema.get("maxLength", 200)], set()
    if kind == "boolean":
        return data.draw(st.booleans()), set()
    if kind == "array":
        lo = schema.get("minItems", 0)
        hi = schema.get("maxItems", lo + 3)
        out, tags = [], set()
        for _ in range(data.draw(st.integers(lo, min(hi, lo + 5)))):
            value, t = value_for(data, schema.get("items", {}), ctx, odd_percent // 3)
            out.append(value)
            tags |= t
        return out, tags
    if kind == "object":
        if "properties" in schema:
            return object_for(data, schema, ctx, odd_percent // 3)
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict):
            out, tags = {}, set()
            for seat in data.draw(st.lists(st.sampled_from(ctx.seats or ["s1"]), max_size=4, unique=True)):
                if odd_percent and data.draw(st.booleans()):
                    seat = invisible_laced(data, seat, keep=True)  # a key is text a phone typed too
                out[seat], t = value_for(data, extra, ctx, odd_percent // 3)
                tags |= t
            return out, tags
        return {}, set()
    return data.draw(json_values), set()


def object_for(data, schema: dict, ctx: Context, odd_percent: int = 30,
               skip: frozenset = frozenset()) -> tuple[dict, set[str]]:
    """An object for an object ``schema``: its required properties (one sometimes missing),
    some optional ones, sometimes an extra one; each value from :func:`value_for`."""
    props = schema.get("properties", {})
    required = [p for p in schema.get("required", []) if p not in skip]
    out: dict = {}
    tags: set[str] = set()
    drop = data.draw(st.sampled_from(required)) if required and data.draw(st.integers(0, 9)) == 0 else None
    for name, sub in props.items():
        if name in skip or name == drop:
            continue
        if name not in required and not data.draw(st.booleans()):
            continue
        out[name], t = value_for(data, sub, ctx, odd_percent)
        tags |= t
    if data.draw(st.integers(0, 9)) == 0:
        extra = data.draw(st.sampled_from(["extra", "seat", "type2", "\u200bround", "__proto__"]))
        if extra not in out:
            out[extra] = data.draw(st.sampled_from([1, "x", None, NAN, 2.0]))
            tags.add("extra")
    return out, tags


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**60, 2**60) | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=10,
)
"""Any JSON (and then some: NaN, ±Infinity, integers past 2**53)."""


def near_miss_action(data, cls: type[Game], ctx: Context, host: bool = False) -> tuple[dict, set[str]]:
    """An action built from the game's own schema (``cls.ACTIONS``, or ``cls.HOST_ACTIONS`` when
    ``host``): a real type and real field names, values wrong, odd or on the boundary. Now and
    then an action type that does not exist, or one from the other table.

    Returns ``(action, tags)``; tags name odd values put in the game's own fields (see
    :class:`Msg`)."""
    table = cls.HOST_ACTIONS if host else cls.ACTIONS
    other = cls.ACTIONS if host else cls.HOST_ACTIONS
    roll = data.draw(st.integers(0, 19))
    if roll == 0 or not table:
        bogus = data.draw(st.sampled_from(["", "PLAY", "nope", "\u200b", "x" * 41] + list(other)))
        action, _ = object_for(data, next(iter(table.values()), {"properties": {}}), ctx, skip=frozenset({"type"}))
        return {"type": bogus, **action}, set()  # tags do not matter: the type is refused first
    kind = data.draw(st.sampled_from(sorted(table)))
    action, tags = object_for(data, table[kind], ctx, odd_percent=35, skip=frozenset({"type"}))
    action = {"type": kind, **action}
    if data.draw(st.integers(0, 14)) == 0:
        action["type"] = invisible_laced(data, kind, keep=True)  # cleaned at the envelope: that type
    return action, tags


# ----- plausible moves and their mutations -------------------------------------------------------

def suggestions(game: Game, seats: list[str], rng: random.Random) -> dict[str | None, list[dict]]:
    """The moves the game itself suggests now (:meth:`Game.suggest`) for each of ``seats`` and
    for the host (``None``) that has any; a suggestion repeated is a weight."""
    out: dict[str | None, list[dict]] = {}
    for seat in [*seats, None]:
        moves = game.suggest(seat, rng)
        if moves:
            out[seat] = moves
    return out


def leaf_paths(value: Any, schema: dict, path: tuple = ()) -> list[tuple[tuple, dict]]:
    """``(path, schema)`` of every part of ``value`` the schema describes (objects by their
    ``properties``, arrays by their ``items``), the parts themselves included, ``type`` left out."""
    out: list[tuple[tuple, dict]] = [(path, schema)] if path else []
    if isinstance(value, dict):
        for key, sub in schema.get("properties", {}).items():
            if key in value and not (not path and key == "type"):
                out += leaf_paths(value[key], sub, path + (key,))
    elif isinstance(value, list) and isinstance(schema.get("items"), dict):
        for i, item in enumerate(value):
            out += leaf_paths(item, schema["items"], path + (i,))
    return out


def _replaced(value: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _replaced(value[head], rest, new)}
    out = list(value)
    out[head] = _replaced(out[head], rest, new)
    return out


def mutate(data, action: dict, schema: dict, ctx: Context) -> tuple[dict, set[str]]:
    """A near miss of a plausible ``action``: one part of it (a field, an item of a list, a field
    of an item) replaced by an odd value for that part's schema (:func:`odd_value`), a required
    field dropped, an extra one added, or a text laced with invisible characters (which the
    engine removes: the move must then count as the plain one). Returns ``(action, tags)``."""
    how = data.draw(st.sampled_from(["odd", "odd", "odd", "odd", "drop", "extra", "laced"]), label="mutation")
    if how == "drop":
        required = [k for k in schema.get("required", []) if k != "type" and k in action]
        if required:
            key = data.draw(st.sampled_from(required))
            return {k: v for k, v in action.items() if k != key}, set()
        how = "odd"
    if how == "extra":
        extra = data.draw(st.sampled_from(["extra", "seat2", "\u200bround", "__proto__", "id"]))
        return {**action, extra: data.draw(st.sampled_from([1, "x", None, NAN, 2.0, [], {}]))}, {"extra"}
    paths = leaf_paths(action, schema)
    if how == "laced":
        texts = [(p, sub) for p, sub in paths if isinstance(_get(action, p), str)]
        if texts:
            path, _ = data.draw(st.sampled_from(texts))
            return _replaced(action, path, invisible_laced(data, _get(action, path), keep=True)), set()
    if not paths:
        return action, set()
    path, sub = data.draw(st.sampled_from(paths), label="path")
    value, tags = odd_value(data, sub, ctx)
    return _replaced(action, path, value), tags


def _get(value: Any, path: tuple) -> Any:
    for step in path:
        value = value[step]
    return value


def walk_numbers(value: Any):
    """Every number in a JSON-like value (dict values, list items), depth first."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
        elif isinstance(item, (int, float)) and not isinstance(item, bool):
            yield item


def unholdable(value: Any) -> bool:
    """True when ``value`` holds a number no browser holds: NaN, ±Infinity or an integer past
    2**53 − 1. The engine owes such a message a ``malformed`` answer, whatever else it holds."""
    for n in walk_numbers(value):
        if isinstance(n, float) and not math.isfinite(n):
            return True
        if isinstance(n, int) and abs(n) > 2**53 - 1:
            return True
    return False
