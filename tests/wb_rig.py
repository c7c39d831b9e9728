"""Shared set-up for the Word Basket tests: card ids by face, arranging a position, playing.
The real kana pipeline and Japanese noun list are used throughout."""

from __future__ import annotations

import random

from partyhost.games.word_basket import CARDS, WordBasket

NOW = 100.0


def K(k: str, second: bool = False) -> int:
    """Id of the kana card ``k`` (``second=True``: the second わ)."""
    ids = [c["id"] for c in CARDS if c["kind"] == "kana" and c["kana"] == k]
    return ids[1] if second else ids[0]


def N(n: int, second: bool = False) -> int:
    """Id of a number wild (5, 6, or 7 for 7+)."""
    ids = [c["id"] for c in CARDS if c["kind"] == "number" and c["number"] == n]
    return ids[1] if second else ids[0]


def R(r: str) -> int:
    """Id of the row wild of row ``r``."""
    return next(c["id"] for c in CARDS if c["kind"] == "row" and c["row"] == r)


def new_game(players: int = 2, seed: int = 1, **options) -> WordBasket:
    g = WordBasket()
    g.setup([f"s{i}" for i in range(1, players + 1)], options, random.Random(seed), now=0.0)
    return g


def arrange(g: WordBasket, hands: dict, field: int, deck_top: list[int] | None = None,
            deck: list[int] | None = None) -> WordBasket:
    """Set the hands, lay ``field`` (a card id) alone in the basket and put every other card in
    the deck; ``deck_top`` are drawn first, in that order. ``deck`` (a full list, top last)
    replaces the deck outright; cards left over then go under the field in the basket."""
    used = {c for h in hands.values() for c in h} | {field} | set(deck_top or [])
    assert len(used) == sum(len(h) for h in hands.values()) + 1 + len(deck_top or []), "a card twice"
    g.hands = {s: list(hands.get(s, [])) for s in g.players}
    rest = [c for c in range(60) if c not in used]
    face = CARDS[field]
    entry = {"card": field, "seat": None, "how": "turn", "kana": face.get("kana") if face["kind"] == "kana" else None,
             "row": face.get("row"), "chain": None, "prev_word": None}
    if deck is not None:
        under = [c for c in rest if c not in deck]
        g.deck = list(deck)
        g.basket = [{"card": c, "seat": None, "how": "turn", "kana": None, "row": None, "chain": None,
                     "prev_word": None} for c in under] + [entry]
    else:
        g.deck = rest + list(reversed(deck_top or []))
        g.basket = [entry]
    g.field = {"serial": g.field["serial"] + 1, "kana": entry["kana"], "row": entry["row"]}
    g.reach = {s: False for s in g.players}
    g.last_word = {}
    g.last_play = None
    assert sorted(g.all_cards()) == list(range(60))
    return g


def play(g: WordBasket, seat: str, card: int, word: str, now: float = NOW, field: int | None = None, **extra):
    action = {"type": "play", "field": g.field["serial"] if field is None else field, "card": card, "word": word,
              **extra}
    g.apply(seat, action, now)


FILLER = "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわがぎぱっゃー"


def fitting_word(g: WordBasket, seat: str, card: int, rng: random.Random) -> str:
    """A kana word built to fit ``card`` on the current field for ``seat`` (a made-up word: the
    dictionary will not know it, so in "vote" mode it enters marked "?")."""
    field = g.field
    if field["kana"]:
        start = field["kana"]
    elif field["row"]:
        start = rng.choice(g.view(None)["rows"][field["row"]])
    else:
        start = "あ"
    face = CARDS[card]
    low, low_last = g.minimums(seat)
    need = low_last if len(g.hands[seat]) == 1 else low
    if face["kind"] == "number":
        length = face["number"] if face["number"] != 7 else rng.randint(7, 9)
        end = rng.choice("あいうえおかきくけこ")
    else:
        length = rng.randint(max(need, 2), 6)
        end = face["kana"] if face["kind"] == "kana" else rng.choice(face["kana"])
    return start + "".join(rng.choice(FILLER) for _ in range(max(0, length - 2))) + end


def bot_action(g: WordBasket, rng: random.Random) -> tuple[str, dict, bool]:
    """A random, mostly sensible move by some player: ``(seat, action, is_host_action)``."""
    seat = rng.choice(g.players)
    hand = g.hands[seat]
    roll = rng.random()
    if g.vote is not None and roll < 0.5:
        voter = rng.choice(g.vote.voters) if g.vote.voters else seat
        return voter, {"type": "vote", "vote": g.vote_id, "ballot": rng.choice(["accept", "reject"])}, False
    if g.vote is not None and roll < 0.6:
        return seat, {"type": "overrule", "vote": g.vote_id, "outcome": rng.choice(["accept", "reject"])}, True
    if hand and roll < 0.7:
        card = rng.choice(hand)
        action = {"type": "play", "field": g.field["serial"], "card": card,
                  "word": fitting_word(g, seat, card, rng)}
        if len(hand) == 2 and rng.random() < 0.7:
            action["reach"] = True
        return seat, action, False
    if roll < 0.76:
        tops = [c for c in hand if CARDS[c]["kind"] != "number"]
        action = {"type": "reset", "field": g.field["serial"]}
        if tops:
            action["top"] = rng.choice(tops)
        return seat, action, False
    if roll < 0.84:
        return seat, {"type": "challenge", "field": g.field["serial"]}, False
    if roll < 0.9:
        return seat, {"type": "point_out", "seat": rng.choice(g.players)}, False
    if roll < 0.95:
        return seat, {"type": "reach"}, False
    return seat, {"type": "lookup", "text": rng.choice(["新学期", "猫", "あひる", "明日"])}, False
