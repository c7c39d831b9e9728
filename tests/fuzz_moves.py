"""What the engine fuzz test (``test_engine_fuzz.py``) throws at a game: odd values, near misses
built from a game's own action schemas, and plausible moves that read the game's state so a
batch of messages reaches deep states (later levels, votes, tie-breaks, deck-outs).

Everything here draws from a Hypothesis ``data`` object (``st.data()``), so a failing batch
shrinks and replays. A :class:`Msg` is one Socket.IO message as a hostile or careless client
writes it: the payload may hold ``NaN``, ``Infinity``, integers past 2**53, ``2.0`` where an
integer is expected and invisible characters, and its ``tags`` say which odd thing was put
where, so the test knows which answer the engine owes.

A game without a plausible-move proposer in :data:`PROPOSERS` (a sixth game) still gets
schema-valid actions from :func:`generic_moves`; writing a proposer only makes its fuzz reach
deeper.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable

from hypothesis import strategies as st

from partyhost.games.base import Game
from partyhost.lexicon import kana

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

MAX_BURST = 20
"""Most messages one plausible move may send in a row (the dealer turning cards by hand)."""


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
                if odd_percent and data.draw(st.integers(0, 4)) == 0:
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


# ----- plausible moves, per game ----------------------------------------------------------------

Move = tuple  # (seat or None for the host, action dict)
Proposer = Callable[[Any, Any], list]


def _pick(data, items: list, label: str = "") -> Any:
    return data.draw(st.sampled_from(items), label=label or None)


def mind_moves(game, data) -> list[Move]:
    """The Mind: ready, play the lowest card (mostly the table's lowest: levels go on), a card
    out of order, stop, shuriken proposals and votes."""
    level = game.level
    moves: list[Move] = []
    if game.phase == "ready":
        moves += [(s, {"type": "ready", "level": level, "ready": True}) for s in game.players
                  if not game.ready.get(s)] * 3
        moves.append((_pick(data, game.players), {"type": "ready", "level": level, "ready": False}))
    holders = [s for s in game.players if game.hands.get(s)]
    if game.phase == "playing" and holders:
        lowest = min(holders, key=lambda s: game.hands[s][0])
        moves += [(lowest, {"type": "play", "level": level, "card": game.hands[lowest][0]})] * 6
        other = _pick(data, holders)
        moves.append((other, {"type": "play", "level": level, "card": game.hands[other][0]}))
        moves.append((other, {"type": "play", "level": level, "card": game.hands[other][-1]}))
        moves.append((other, {"type": "stop", "level": level}))
    if game.proposal is not None:
        pid = game.proposal["id"]
        moves += [(s, {"type": "vote_shuriken", "proposal": pid, "agree": True}) for s in game.players] * 2
        moves.append((_pick(data, game.players), {"type": "vote_shuriken", "proposal": pid, "agree": False}))
    elif game.shuriken > 0 and game.players:
        moves.append((_pick(data, game.players), {"type": "propose_shuriken", "level": level}))
    return moves


SAFE_KANA = "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわ"
"""Kana a made-up Word Basket word is built from (no ん, no small kana: one kana, one count)."""


@lru_cache(maxsize=1)
def known_words() -> tuple[dict, dict]:
    """Dictionary words of plain full-size kana (2–8 long, not ending in ん), indexed by
    ``(first, last)`` and by ``(first, length)`` (first and last without voicing marks)."""
    from partyhost.lexicon import japanese

    japanese.load()
    ok = set(SAFE_KANA) | set("がぎぐげござじずぜぞだぢづでどばびぶべぼぱぴぷぺぽを")
    by_ends: dict[tuple[str, str], list[str]] = {}
    by_length: dict[tuple[str, int], list[str]] = {}
    for word in sorted(japanese._readings):  # sorted: the same index on every run
        if 2 <= len(word) <= 8 and word[-1] != "ん" and all(ch in ok for ch in word):
            first, last = kana.plain(word[0]), kana.plain(word[-1])
            by_ends.setdefault((first, last), []).append(word)
            by_length.setdefault((first, len(word)), []).append(word)
    return by_ends, by_length


def known_word(data, field: dict, card: dict, low: int) -> str | None:
    """A dictionary word that fits ``field`` and ``card`` with at least ``low`` kana, or None."""
    by_ends, by_length = known_words()
    if field.get("kana"):
        firsts = [field["kana"]]
    elif field.get("row"):
        firsts = list(kana.ROWS[field["row"]])
    else:
        firsts = list(SAFE_KANA)
    if card["kind"] == "number":
        lengths = [card["number"]] if card["number"] < 7 else [7, 8]
        pool = [w for f in firsts for n in lengths for w in by_length.get((f, n), ())]
    else:
        lasts = [card["kana"]] if card["kind"] == "kana" else list(kana.ROWS[card["row"]])
        pool = [w for f in firsts for la in lasts for w in by_ends.get((f, la), ()) if len(w) >= low]
    return data.draw(st.sampled_from(pool)) if pool else None


def basket_word(data, field: dict, card: dict, length: int) -> str:
    """A word that fits ``field`` (``{"kana", "row"}``) and ``card`` with ``length`` kana (a
    number card fixes the length): half the time one the dictionary knows (it stands), else a
    made-up one (it enters marked "?", and a strict table refuses it)."""
    if data.draw(st.booleans()):
        word = known_word(data, field, card, length)
        if word:
            return word
    if field.get("kana"):
        first = field["kana"]
    elif field.get("row"):
        first = _pick(data, list(kana.ROWS[field["row"]].replace("を", "")))
    else:
        first = _pick(data, list(SAFE_KANA))
    if card["kind"] == "number":
        length = card["number"] + (data.draw(st.integers(0, 1)) if card["number"] == 7 else 0)
        last = _pick(data, list(SAFE_KANA))
    elif card["kind"] == "row":
        last = _pick(data, list(kana.ROWS[card["row"]].replace("を", "")))
    else:
        last = card["kana"]
    middle = "".join(data.draw(st.lists(st.sampled_from(SAFE_KANA), min_size=max(0, length - 2),
                                        max_size=max(0, length - 2))))
    return first + middle + last


def basket_moves(game, data) -> list[Move]:
    """Word Basket: words that fit the field and a card in hand (and lost races for the field
    just taken), resets, リーチ, point-outs, challenges, ballots, lookups, the host's overrule."""
    from partyhost.games.word_basket import CARDS

    moves: list[Move] = []
    serial = game.field["serial"]
    players = [s for s in game.players if s in game.hands]
    for seat in players:
        hand = game.hands[seat]
        if not hand:
            continue
        card_id = _pick(data, hand)
        low, low_last = game.minimums(seat)
        length = (low_last if len(hand) == 1 else low) + data.draw(st.integers(0, 2))
        word = basket_word(data, game.field, CARDS[card_id], length)
        play = {"type": "play", "field": serial, "card": card_id, "word": word}
        if len(hand) == 2 and data.draw(st.integers(0, 3)):
            play["reach"] = True
        moves += [(seat, play)] * 3
        lp = game.last_play
        if lp is not None and lp["seat"] != seat:
            race = basket_word(data, lp["field"], CARDS[card_id], length)
            moves.append((seat, {"type": "play", "field": lp["from"], "card": card_id, "word": race}))
        tops = [c for c in hand if CARDS[c]["kind"] != "number"]
        reset = {"type": "reset", "field": serial}
        if tops:
            reset["top"] = _pick(data, tops)
        moves.append((seat, reset))
        if len(hand) == 1 and not game.reach.get(seat):
            moves.append((seat, {"type": "reach"}))
    for target in players:
        pending = game.pending_win and game.pending_win["seat"] == target
        if pending or (len(game.hands[target]) == 1 and not game.reach.get(target)):
            for seat in players:
                if seat != target:
                    moves += [(seat, {"type": "point_out", "seat": target})] * 2
    top = game._challengeable()
    if top is not None and game.phase == "play":
        for seat in players:
            if seat != top["seat"]:
                moves += [(seat, {"type": "challenge", "field": serial})] * 2
    if game.vote is not None:
        vid = game.vote_info["id"]
        for seat in players:
            moves.append((seat, {"type": "vote", "vote": vid, "ballot": _pick(data, ["accept", "reject"])}))
        moves.append((None, {"type": "overrule", "vote": vid, "outcome": _pick(data, ["accept", "reject"])}))
    if players:
        moves.append((_pick(data, players), {"type": "lookup", "text": _pick(data, ["寿司", "空\u200b手", "ねこ", "ABC"])}))
    return moves


def decrypto_moves(game, data) -> list[Move]:
    """Decrypto: clues (fresh words, now and then a keyword in disguise), shared drafts, locks
    (the right code about half the time, so both tokens come), next, and the tie-break's keyword
    guesses and judging; the host leaves a reveal."""
    from partyhost.games.decrypto import CODE_DECK, TEAMS, other

    moves: list[Move] = []
    rnd = game.round
    if game.phase == "encrypt":
        for team in game.encrypting:
            if game.clues.get(team) is not None:
                continue
            seat = game.encryptors[team]
            n = data.draw(st.integers(0, 10**6))
            clues = [f"ひんと{n}", f"clue {n + 1}", f"絵{n + 2}"]
            moves += [(seat, {"type": "clues", "round": rnd, "clues": clues, "final": True})] * 3
            moves.append((seat, {"type": "clues", "round": rnd, "clues": clues, "final": False}))
            keyword = game.keywords[team][0]
            disguised = [invisible_laced(data, keyword, keep=True), clues[1], clues[2]]
            moves.append((seat, {"type": "clues", "round": rnd, "clues": disguised, "final": True}))
    if game.phase == "guess" and game.active:
        team = game.active
        for group, guess in game.guesses.items():
            if guess["locked"]:
                continue
            members = [s for s in game.teams[guess["team"]] if group == "intercept" or s != game.encryptors.get(team)]
            if not members:
                continue
            seat = _pick(data, members)
            right = list(game.codes[team])
            code = right if data.draw(st.booleans()) else list(_pick(data, CODE_DECK))
            moves += [(seat, {"type": "lock", "round": rnd, "team": team, "code": code})] * 3
            draft = [data.draw(st.integers(0, 4)) for _ in range(3)]
            moves.append((seat, {"type": "draft", "round": rnd, "team": team, "code": draft,
                                 "index": data.draw(st.integers(0, 2))}))
    if game.phase == "reveal" and game.active:
        nxt = {"type": "next", "round": rnd, "team": game.active}
        moves += [(_pick(data, game.players), nxt)] * 2 + [(None, nxt)]
    if game.phase == "keywords":
        for team in TEAMS:
            if not game.teams[team] or game.kw.get(team, {}).get("words") is not None:
                continue
            seat = _pick(data, game.teams[team])
            right = list(game.keywords[other(team)])
            words = [w if data.draw(st.booleans()) else _pick(data, ["", "ねこ", "\u200b"]) for w in right]
            moves += [(seat, {"type": "kw_guess", "words": words, "final": True})] * 2
            moves.append((seat, {"type": "kw_guess", "words": words, "final": False, "fields": [0, 2]}))
    if game.phase == "judge":
        for team in TEAMS:
            if game.teams[team] and not game.judge.get(team, {}).get("done"):
                seat = _pick(data, game.teams[team])
                moves.append((seat, {"type": "accept", "number": data.draw(st.integers(1, 4)),
                                     "accept": data.draw(st.booleans())}))
                moves += [(seat, {"type": "judged"})] * 2
    return moves


def top_ten_moves(game, data) -> list[Move]:
    """Top Ten: the captain chooses, answers (captain first, some written, some out loud, some
    laced with invisible characters), closes, picks (lowest first most of the time), undoes and
    confirms; the next captain draws; the host passes the captaincy or draws."""
    moves: list[Move] = []
    rnd = game.round
    cap = game.captain
    if game.phase == "choose" and cap in game.players:
        moves += [(cap, {"type": "choose", "round": rnd, "theme": data.draw(st.integers(0, 3))})] * 3
    if game.phase == "answer":
        waiting = [s for s in game.answerers if s not in game.answers]
        if cap in waiting:
            waiting = [cap]
        for seat in waiting:
            text = _pick(data, ["", "ふつう", "すごく高い", invisible_laced(data, "ちょっと"), "", "とても",
                                "a" * 61])
            moves += [(seat, {"type": "answer", "round": rnd, "text": text})] * 2
        moves.append((cap, {"type": "close_answers", "round": rnd}))
    for seat, text in game.answers.items():
        if text == "":
            moves.append((seat, {"type": "answer", "round": rnd, "text": "かいた"}))
    if game.phase == "order":
        if game.pending is None:
            left = [s for s in game.answerers if all(r["seat"] != s for r in game.reveals)]
            if left:
                lowest = min(left, key=lambda s: game.numbers.get(s, 99))
                target = lowest if data.draw(st.integers(0, 2)) else _pick(data, left)
                moves += [(cap, {"type": "pick", "round": rnd, "seat": target})] * 3
        else:
            moves += [(cap, {"type": "confirm", "round": rnd, "seat": game.pending})] * 3
            moves.append((cap, {"type": "undo", "round": rnd}))
    if game.phase == "round_over":
        moves += [(game._after(cap), {"type": "next_round", "round": rnd})] * 3
        moves.append((None, {"type": "next_round", "round": rnd}))
    if game.phase in ("choose", "answer", "order") and data.draw(st.integers(0, 3)) == 0:
        moves.append((None, {"type": "pass_captain", "round": rnd}))
    return moves


def diabolo_claim(game, data, seat: str) -> dict | None:
    """A claim from face-up cards that are free: 3–5 of them spelt as they lie (jokers as
    random letters), so the word is mostly unknown and goes to a table vote; or, now and
    then, a word the list knows (it stands at once)."""
    from partyhost.games.diabolo import best_assignment, possible_words

    reserved = set(game.claim["ids"]) if game.claim and game.claim.get("status") == "vote" else set()
    free = [i for i in game.table if i not in reserved]
    if len(free) < 3:
        return None
    if data.draw(st.integers(0, 4)) == 0:
        cards = [game.cards[i] for i in free]
        words = possible_words(cards, game.lang, limit=1, scan=600)
        plan = best_assignment(words[0], cards) if words else None
        if plan:
            return {"type": "claim", "round": game.round, "word": words[0],
                    "cards": [{"id": c["id"], **({"as": c["as"]} if c["joker"] else {})} for c in plan]}
    ids = data.draw(st.lists(st.sampled_from(free), min_size=3, max_size=min(5, len(free)), unique=True))
    cards, word = [], ""
    for i in ids:
        card = game.cards[i]
        if card["joker"]:
            letters = "".join(data.draw(st.lists(st.sampled_from("AEINRST"), min_size=card["joker"],
                                                 max_size=card["joker"])))
            cards.append({"id": i, "as": letters})
            word += letters
        else:
            cards.append({"id": i})
            word += card["face"]
    return {"type": "claim", "round": game.round, "word": word.lower() if data.draw(st.booleans()) else word,
            "cards": cards}


def diabolo_moves(game, data) -> list[Move]:
    """Diabolo: the dealer turns (by hand, in bursts, or auto with a tempo), claims from free
    face-up cards, ballots, picks after a rejected word, passes once the deck is out, the next
    dealer deals; the host overrules, turns, deals and sets handicaps."""
    moves: list[Move] = []
    rnd = game.round
    dealer = game.dealer
    if game.phase == "turning":
        if game.deck:
            turn = {"type": "turn", "round": rnd, "turned": game.turned}
            moves += [(dealer, turn)] * 3
            moves += [(dealer, {"burst": data.draw(st.integers(2, MAX_BURST))})] * 2
            moves.append((None, {"type": "turn", "turned": game.turned}))
            moves.append((dealer, {"type": "auto", "round": rnd, "on": not game.auto_on}))
            moves.append((dealer, {"type": "tempo", "seconds": data.draw(st.floats(1, 20))}))
        else:
            moves += [(s, {"type": "pass", "round": rnd}) for s in game.players if s not in game.passed] * 2
        for seat in game.players:
            claim = diabolo_claim(game, data, seat)
            if claim:
                moves += [(seat, claim)] * 2
    if game.phase == "vote" and game.vote is not None:
        for seat in game.vote["voters"]:
            moves.append((seat, {"type": "vote", "ballot": _pick(data, ["accept", "reject", "reject"])}))
        moves.append((None, {"type": "overrule", "outcome": _pick(data, ["accept", "reject"])}))
    if game.phase == "picking" and game.picking is not None:
        for seat in game.picking["pickers"]:
            if seat not in game.picking["picked"] and game.table:
                moves += [(seat, {"type": "pick", "round": rnd, "card": _pick(data, game.table)})] * 2
    if game.phase == "scored":
        nxt = game.dealers[game.round] if game.round < len(game.dealers) else _pick(data, game.players)
        moves += [(nxt, {"type": "deal", "round": rnd + 1})] * 3
        moves.append((None, {"type": "deal", "round": rnd + 1}))
    if game.players:
        moves.append((None, {"type": "handicap", "seat": _pick(data, game.players), "on": data.draw(st.booleans())}))
    return moves


def generic_moves(game, data, cls: type[Game], ctx: Context) -> list[Move]:
    """Schema-valid actions for a game without a proposer: real types, valid values drawn near
    the table's counters, from a random player."""
    players = [s for s in getattr(game, "players", []) if isinstance(s, str)] or ctx.seats
    moves: list[Move] = []
    for kind, schema in cls.ACTIONS.items():
        action, _ = object_for(data, schema, ctx, odd_percent=0, skip=frozenset({"type"}))
        moves.append((_pick(data, players), {"type": kind, **action}))
    for kind, schema in cls.HOST_ACTIONS.items():
        action, _ = object_for(data, schema, ctx, odd_percent=0, skip=frozenset({"type"}))
        moves.append((None, {"type": kind, **action}))
    return moves


PROPOSERS: dict[str, Proposer] = {
    "the_mind": mind_moves,
    "word_basket": basket_moves,
    "decrypto": decrypto_moves,
    "top_ten": top_ten_moves,
    "diabolo": diabolo_moves,
}
"""Plausible-move proposers by game key; :func:`generic_moves` stands in for any other game."""


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
