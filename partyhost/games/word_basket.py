"""Word Basket (ワードバスケット): pure rules of the real-time shiritori card game.

Sources. The rulebook ``shared/seeds/002_7b5dc1ed359db9dd.txt`` is the law (sections are cited by
their headings: 全員同時のしりとり, カードを配り、最初の文字を作る, 使える言葉と、文字の数え方,
ワイルドは長さ、または行を指定する, 詰まったらリセット、間違いには1枚追加, 同時に入ったとき、残り1枚と上がり,
子どもや経験差があるとき); ``shared/RULES.md`` "Word Basket" settles what it leaves open for phones.
Words are read by :mod:`partyhost.lexicon.kana` (one pipeline for typed words, dictionary and
cards) and judged by :mod:`partyhost.lexicon.japanese` and the table (:mod:`.vote`).

How phones stand in for the table (our own choices, all documented in ``docs/word_basket.md``):

* **The field serial.** Every change of the field (a play, a reset, a reshuffle, a rejected word
  going back) gives the field a new ``serial``. A play, reset or challenge names the serial it was
  made for; the server takes actions in receive order, so the first play for a field wins.
* **Lost races.** A play for an old field is refused (``wb_stale_field``: no penalty, the card stays
  in the hand) — *except* when it names the field the last accepted play was made for and
  arrives within :data:`RACE_WINDOW` (150 ms) of it, by another player, and would have been legal
  there. Then it is *applied* as a bounce: the card stays in the hand and the game records the
  near-race ``{winner, loser, margin_ms, …}`` for the TV and the losing phone. It is an applied
  action (not a :class:`RuleError`) because it changes what the table sees, and a refusal must
  leave the state untouched. The margin is measured on the game clock the engine hands in
  (``now`` of the two ``apply`` calls).
* **Words.** Mode ``"vote"`` (default): a dictionary word stands; an unknown word enters marked
  "?" and any other player may challenge it until the next card enters (or the field changes);
  a challenge opens a :class:`~.vote.TableVote` of every player but the word's, with the
  challenger's ballot cast as "reject"; play stops until it closes; the host can overrule.
  Rejected: the card goes back to its player with one penalty card and the field goes back.
  Mode ``"strict"``: unknown words are refused. Mode ``"free"``: no dictionary, every word enters
  unmarked but any other player may challenge it in the same way.
* **Words typed in kanji.** A play carries ``word`` (what was typed) and, when ``word`` is not
  kana, ``reading``: the kana reading the player confirmed. It counts only when it is one of
  :func:`partyhost.lexicon.japanese.readings_of` ``(word)``. The ``lookup`` action asks the
  server for those readings first (the answer sits in the asking phone's view only).
* **リーチ.** A player left with one card declares it (the ``reach`` action, or ``"reach": true``
  on the play that leaves one card). Any other player may point out a missing リーチ
  (``point_out``): one penalty card. A player who plays their last card without リーチ — or whose
  last word may still be challenged — wins only once ``reach_window`` seconds pass with no
  point-out and no rejected challenge; plays and resets wait meanwhile (``wb_win_pending``). A
  vote on that last word stops the window (no point-out during a vote): when the word stands and
  the リーチ is still missing, the window starts again.
* **Reshuffle.** When a draw finds the deck empty, the whole basket is shuffled into a new deck
  (seed: 箱にあるカードを全て混ぜて), the owed draws are paid, then a new field is turned (number
  wilds are skipped). If no card can be drawn at all, the draw is forgiven.

Action shapes (``ACTIONS`` holds the JSON Schema of each whole dict, ``"type"`` included)::

    {"type": "play", "field": int, "card": int, "word": str, "reading"?: str, "reach"?: bool}
    {"type": "reset", "field": int, "top"?: int}        # top: the card to lay on top
    {"type": "reach"}
    {"type": "point_out", "seat": str}                  # a missing リーチ
    {"type": "challenge", "field": int}                 # the top word of that field
    {"type": "vote", "vote": int, "ballot": "accept" | "reject"}
    {"type": "lookup", "text": str}                     # readings of a word typed in kanji
    host: {"type": "overrule", "vote": int, "outcome": "accept" | "reject"}

View shape: see :meth:`WordBasket.view`. Cards are ``{"id": 0‥59, "kind": "kana", "kana": "る"}``,
``{"id", "kind": "number", "number": 5 | 6 | 7}`` (7 is "7+") or ``{"id", "kind": "row",
"row": "か", "kana": "かきくけこ"}``.

The class never reads a clock, does no I/O and never uses the global ``random``.
"""

from __future__ import annotations

import random
import unicodedata
from typing import Any, ClassVar

from jsonschema import Draft202012Validator

from ..lexicon import japanese, kana
from .base import Game, RuleError
from .vote import TableVote

# --- rules as data ---------------------------------------------------------------------------

#: The 45 kana cards: the 44 gojūon kana without を and ん, and a second わ (seed: カードを配り…;
#: research §2).
KANA_CARDS: str = "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわ" + "わ"
#: The 6 number wilds: exactly 5, exactly 6, 7 or more kana (7 stands for "7+"), two each.
NUMBER_CARDS: tuple[int, ...] = (5, 5, 6, 6, 7, 7)
#: The 9 row wilds (RULES.md: no わ-row card).
ROW_CARDS: str = "あかさたなはまやら"


def _build_cards() -> tuple[dict, ...]:
    cards: list[dict] = []
    for k in KANA_CARDS:
        cards.append({"id": len(cards), "kind": "kana", "kana": k})
    for n in NUMBER_CARDS:
        cards.append({"id": len(cards), "kind": "number", "number": n})
    for r in ROW_CARDS:
        cards.append({"id": len(cards), "kind": "row", "row": r, "kana": kana.ROWS[r]})
    return tuple(cards)


#: Card id → card face. Ids are 0‥59; every game uses all 60.
CARDS: tuple[dict, ...] = _build_cards()
DECK_SIZE = len(CARDS)
assert DECK_SIZE == 60

HAND_SIZE = 5
#: Handicap → (shortest word, shortest word for the last card) (seed: 子どもや経験差があるとき).
HANDICAPS: dict[str, tuple[int, int]] = {"easy": (2, 3), "normal": (3, 4), "hard": (4, 5)}
WORD_MODES = ("vote", "strict", "free")
#: Two plays for the same field this close (game-clock seconds) are a near-race the TV shows.
RACE_WINDOW = 0.150
#: How many recent words the views carry.
CHAIN_SHOWN = 12
#: How many recent events the views carry.
EVENTS_SHOWN = 8
#: Most readings a lookup returns.
LOOKUP_MAX = 8
#: Longest typed text the schemas let through, so that a long word gets the game's own
#: ``wb_word_too_long`` (kana.reading refuses more than 30 kana) rather than "malformed".
MAX_TEXT = 240

_CARD_ID = {"type": "integer", "minimum": 0, "maximum": DECK_SIZE - 1}
_SERIAL = {"type": "integer", "minimum": 0}
_TEXT = {"type": "string", "maxLength": MAX_TEXT}


def _schema(kind: str, required: dict, optional: dict | None = None) -> dict:
    return {
        "type": "object",
        "properties": {"type": {"const": kind}, **required, **(optional or {})},
        "required": ["type", *required],
        "additionalProperties": False,
    }


def _copy(value: Any) -> Any:
    """Deep copy of JSON-like data."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def card_label(card_id: int) -> str:
    """A short public label of a card: ``"る"``, ``"5"``, ``"7+"``, ``"か行"``."""
    c = CARDS[card_id]
    if c["kind"] == "kana":
        return c["kana"]
    if c["kind"] == "number":
        return "7+" if c["number"] == 7 else str(c["number"])
    return c["row"] + "行"


def _has_kanji(text: str) -> bool:
    """True when ``text`` holds a kanji (CJK ideograph or 々), i.e. it may have a dictionary reading."""
    return any(ch == "々" or unicodedata.name(ch, "").startswith("CJK") for ch in text)


#: Honorific prefixes (美化語) said before everyday nouns: お寿司, ご近所 (see ``WordBasket._readings``).
HONORIFICS = ("お", "ご")


def _is_rendaku_of(reading: str, readings: list[str]) -> bool:
    """True when ``reading`` is the voiced (rendaku) form of another reading in ``readings``
    (ずし of すし, ばな of はな): the form a noun takes inside a compound, not after お."""
    unvoiced = kana.plain(reading[:1]) + reading[1:]
    return unvoiced != reading and unvoiced in readings


def _is_number(card_id: int) -> bool:
    return CARDS[card_id]["kind"] == "number"


class WordBasket(Game):
    """Word Basket for 2–8 players (seeds/002_… ; RULES.md "Word Basket").

    Life cycle: ``setup`` deals 5 cards each and turns the field; the game is in phase
    ``"play"`` (everyone may act at once), ``"vote"`` while the table votes on a challenged word,
    and ``"over"`` once a player has emptied their hand correctly (``winner``).

    Every refused action raises :class:`RuleError` and leaves the state untouched; every applied
    action bumps ``version`` (a ``lookup`` only changes the asking seat's view). Example::

        >>> g = WordBasket(); g.setup(["s1", "s2"], {}, random.Random(1), now=0.0)
        >>> g.view("s1")["phase"], len(g.view("s1")["hand"])
        ('play', 5)
    """

    KEY: ClassVar[str] = "word_basket"
    SCRIPT: ClassVar[str] = "js/word_basket.js"
    STYLE: ClassVar[str] = "css/word_basket.css"
    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int] = 8
    OPTIONS: ClassVar[dict] = {
        "type": "object",
        "properties": {
            "word_mode": {"enum": list(WORD_MODES), "default": "vote"},
            "handicaps": {
                "type": "object",
                "propertyNames": {"type": "string", "maxLength": 20},
                "additionalProperties": {"enum": list(HANDICAPS)},
                "maxProperties": 64,
                "default": {},
            },
            "reach_window": {"type": "number", "minimum": 1, "maximum": 30, "default": 5},
            "vote_seconds": {"type": "number", "minimum": 5, "maximum": 120, "default": 20},
        },
        "additionalProperties": False,
    }
    ACTIONS: ClassVar[dict[str, dict]] = {
        "play": _schema("play", {"field": _SERIAL, "card": _CARD_ID, "word": _TEXT},
                        {"reading": _TEXT, "reach": {"type": "boolean"}}),
        "reset": _schema("reset", {"field": _SERIAL}, {"top": _CARD_ID}),
        "reach": _schema("reach", {}),
        "point_out": _schema("point_out", {"seat": {"type": "string", "maxLength": 20}}),
        "challenge": _schema("challenge", {"field": _SERIAL}),
        "vote": _schema("vote", {"vote": {"type": "integer", "minimum": 1}, "ballot": {"enum": ["accept", "reject"]}}),
        "lookup": _schema("lookup", {"text": _TEXT}),
    }
    HOST_ACTIONS: ClassVar[dict[str, dict]] = {
        "overrule": _schema("overrule", {"vote": {"type": "integer", "minimum": 1},
                                         "outcome": {"enum": ["accept", "reject"]}}),
    }
    _VALIDATORS: ClassVar[dict[str, Draft202012Validator]] = {k: Draft202012Validator(s) for k, s in ACTIONS.items()}
    _HOST_VALIDATORS: ClassVar[dict[str, Draft202012Validator]] = {
        k: Draft202012Validator(s) for k, s in HOST_ACTIONS.items()
    }
    _OPTIONS_VALIDATOR: ClassVar[Draft202012Validator] = Draft202012Validator(OPTIONS)

    @classmethod
    def prepare(cls) -> None:
        """Load the Japanese noun list once at server start (see :func:`japanese.load`)."""
        japanese.load()

    def __init__(self) -> None:
        """An empty game; call :meth:`setup` (or use :meth:`from_dict`) before anything else."""
        self._rng: random.Random | None = None
        self.players: list[str] = []
        self.mode = "vote"
        self.reach_window = 5.0
        self.vote_seconds = 20.0
        self.handicaps: dict[str, str] = {}
        self.hands: dict[str, list[int]] = {}
        self.deck: list[int] = []  # the top of the deck is the end of the list
        # The cards in the basket, bottom → top: {"card", "seat", "how": "turn"|"play"|"reset"|"left",
        # "kana", "row" (the field this card makes when on top, both None if none), "chain": n|None,
        # "prev_word": the player's previous word before this play}
        self.basket: list[dict] = []
        self.field: dict = {"serial": 0, "kana": None, "row": None}
        # Every word played: {"n", "seat", "word", "reading", "card", "label", "unknown",
        # "challengeable", "status": None|"accepted"|"rejected", "field": serial it made}
        self.chain: list[dict] = []
        self.last_word: dict[str, str] = {}
        self.reach: dict[str, bool] = {}
        self.vote: TableVote | None = None
        self.vote_id = 0
        self.vote_info: dict | None = None  # {"id", "chain": n, "seat", "by"}
        self.pending_win: dict | None = None  # {"seat", "until", "needs": ["reach"?, "word"?]}
        self.last_play: dict | None = None  # {"from", "seat", "at", "word", "field": {"kana","row"}}
        self.race: dict | None = None
        self.race_n = 0
        self.events: list[dict] = []
        self.event_n = 0
        self.lookups: dict[str, dict] = {}
        self.lookup_n = 0
        self.reshuffles = 0
        self.phase = "play"
        self.winner: str | None = None
        self.version = 0
        self._reshuffled = False

    # --- set-up ------------------------------------------------------------------------------

    def setup(self, players: list[str], options: dict, rng: random.Random, now: float) -> None:
        """Shuffle the 60 cards, deal 5 to each player and turn the first field (seed:
        カードを配り、最初の文字を作る: a number wild is skipped, a row wild may be the field).

        Args:
            players: 2–8 distinct seat ids in seating order.
            options: lobby options (``OPTIONS``; missing keys take their defaults).
                ``handicaps`` maps seat ids to ``"easy"``/``"normal"``/``"hard"``; seats not
                listed (or not playing) are ``"normal"``.
            rng: the engine's ``random.Random``; kept for every later shuffle.
            now: game-clock seconds (unused at set-up).

        Raises:
            RuleError: ``"player_count"`` (``count``, ``min``, ``max``), ``"duplicate_seat"``,
                ``"bad_options"``.
        """
        players = list(players)
        if not self.MIN_PLAYERS <= len(players) <= self.MAX_PLAYERS:
            raise RuleError("player_count", count=len(players), min=self.MIN_PLAYERS, max=self.MAX_PLAYERS)
        if len(set(players)) != len(players):
            raise RuleError("duplicate_seat")
        options = dict(options or {})
        if not self._OPTIONS_VALIDATOR.is_valid(options):
            raise RuleError("bad_options")
        self.__init__()
        self._rng = rng
        self.players = players
        self.mode = options.get("word_mode", "vote")
        self.reach_window = float(options.get("reach_window", 5))
        self.vote_seconds = float(options.get("vote_seconds", 20))
        given = options.get("handicaps", {}) or {}
        self.handicaps = {s: given.get(s, "normal") for s in players}
        deck = list(range(DECK_SIZE))
        rng.shuffle(deck)
        self.hands = {s: [deck.pop() for _ in range(HAND_SIZE)] for s in players}
        self.deck = deck
        self.reach = {s: False for s in players}
        self._turn_field()
        self._event("start", field=self._field_public())
        self.version = 1

    # --- the engine interface ----------------------------------------------------------------

    @property
    def over(self) -> bool:
        """True once a player has won."""
        return self.phase == "over"

    def apply(self, seat: str, action: dict, now: float) -> None:
        """Apply one action of ``seat`` at game-clock ``now`` (seconds).

        Checks run in this order: the dict against ``ACTIONS`` (``"bad_action"``), the game not
        over (``"game_over"``), the seat being a player (``"not_a_player"``), then the action's
        own rules (the ``_do_*`` methods list their codes). Nothing changes when it raises.
        """
        kind = action.get("type") if isinstance(action, dict) else None
        if not isinstance(kind, str) or kind not in self._VALIDATORS or not self._VALIDATORS[kind].is_valid(action):
            raise RuleError("bad_action")
        if self.over:
            raise RuleError("game_over")
        if seat not in self.players:
            raise RuleError("not_a_player")
        self._reshuffled = False
        getattr(self, "_do_" + kind)(seat, action, float(now))
        if kind != "lookup":
            self.version += 1

    def host_apply(self, action: dict, now: float) -> None:
        """The host overrules the open table vote (``{"type": "overrule", "vote", "outcome"}``).

        Raises:
            RuleError: ``"unknown_action"``, ``"bad_action"``, ``"game_over"``, ``"vote_gone"``
                (no open vote with that id).
        """
        kind = action.get("type") if isinstance(action, dict) else None
        if kind not in self._HOST_VALIDATORS:
            raise RuleError("unknown_action", type=str(kind)[:40])
        if not self._HOST_VALIDATORS[kind].is_valid(action):
            raise RuleError("bad_action")
        if self.over:
            raise RuleError("game_over")
        self._check_vote_id(action["vote"])
        self._reshuffled = False
        self.vote.overrule(action["outcome"], action["vote"])
        self._settle_vote(float(now))
        self.version += 1

    def next_deadline(self) -> float | None:
        """Game-clock seconds when the open vote closes by itself, or (no vote) when a pending
        win becomes final; None when nothing waits."""
        if self.over:
            return None
        if self.vote is not None:
            return self.vote.deadline()
        if self.pending_win is not None:
            return self.pending_win["until"]
        return None

    def tick(self, now: float) -> None:
        """Close a vote whose time is up, or make a pending win final (nothing else is timed)."""
        if self.over:
            return
        self._reshuffled = False
        if self.vote is not None:
            self.vote.expire(now)
            if self.vote.decided is not None:
                self._settle_vote(now)
                self.version += 1
        elif self.pending_win is not None and now >= self.pending_win["until"]:
            self._win(self.pending_win["seat"])
            self.version += 1

    def interrupted(self, now: float) -> None:
        """After a host restart (restored from a snapshot) the phones reconnect one by one: a
        pending win and an open vote get their full time again from ``now``, so the players who
        are back last can still point out a missing リーチ or vote. Plays in flight before the
        restart are gone with their sockets; the field stays as it was."""
        if self.over:
            return
        changed = False
        if self.pending_win is not None:
            self.pending_win["until"] = max(self.pending_win["until"], now + self.reach_window)
            changed = True
        if self.vote is not None:
            self.vote.closes = max(self.vote.closes, now + self.vote_seconds)
            changed = True
        if changed:
            self.version += 1

    def leave(self, seat: str, now: float) -> None:
        """Remove a (kicked) player mid-game (RULES.md "General"; not in the rulebook).

        Their cards are shuffled back into the deck (they were secret and stay so). A vote about
        their word ends (the word stands); as a voter their ballot is dropped; their pending win
        lapses.

        Raises:
            RuleError: ``"game_over"``, ``"not_a_player"``, ``"cannot_continue"`` (fewer than 2
                would remain). Nothing changes when it is raised.
        """
        if self.over:
            raise RuleError("game_over")
        if seat not in self.players:
            raise RuleError("not_a_player")
        if len(self.players) - 1 < self.MIN_PLAYERS:
            raise RuleError("cannot_continue")
        self._reshuffled = False
        cards = self.hands.pop(seat)
        self.deck.extend(cards)
        self._rng.shuffle(self.deck)
        self.players.remove(seat)
        self.reach.pop(seat, None)
        self.lookups.pop(seat, None)
        if self.pending_win is not None and self.pending_win["seat"] == seat:
            self.pending_win = None
        self._event("left", seat=seat)
        if self.vote is not None:
            if self.vote_info["seat"] == seat:
                self.vote.overrule("accept", self.vote.id)
            else:
                self.vote.drop_voter(seat)
            self._settle_vote(float(now))
        self.version += 1

    # --- reading and judging words -----------------------------------------------------------

    def _read(self, action: dict) -> tuple[str, kana.Reading]:
        """The shown word and its reading for a play (see module docstring, "kanji").

        Raises ``wb_word_empty``, ``wb_word_not_kana``, ``wb_word_too_long`` (from :mod:`kana`),
        ``wb_reading_unknown`` (kanji with no known reading), ``wb_reading_needed`` (kanji with no
        confirmed reading; ``readings``: the candidates joined by "・"), ``wb_reading_mismatch``.
        """
        surface = unicodedata.normalize("NFKC", action["word"]).strip()
        chosen = action.get("reading")
        try:
            r = kana.reading(action["word"])
        except kana.ReadingError as error:
            if error.code != "word_not_kana":
                raise RuleError("wb_" + error.code, **error.params) from None
            not_kana = error
        else:
            if chosen is not None and kana.normalize(chosen) != r.kana:
                raise RuleError("wb_reading_mismatch", word=surface[:20], readings=r.kana)
            return surface, r
        candidates = self._readings(surface)
        if not candidates:
            if not _has_kanji(surface):  # latin letters, symbols…: "type the reading in kana"
                raise RuleError("wb_word_not_kana", **not_kana.params)
            raise RuleError("wb_reading_unknown", word=surface[:20])
        if chosen is None:
            raise RuleError("wb_reading_needed", word=surface[:20], readings="・".join(candidates))
        try:
            r = kana.reading(chosen)
        except kana.ReadingError as error:
            raise RuleError("wb_" + error.code, **error.params) from None
        if r.kana not in candidates:
            raise RuleError("wb_reading_mismatch", word=surface[:20], readings="・".join(candidates))
        return surface, r

    @staticmethod
    def _readings(surface: str) -> list[str]:
        """Known kana readings of a word typed in kanji (normalised, deduplicated, at most
        :data:`LOOKUP_MAX`).

        A written form the list does not hold but that is the honorific お/ご before a word it
        does hold (お寿司, お花, ご近所: how a Japanese table says many everyday nouns) reads as the
        prefix and the readings of the rest, without their rendaku forms (お寿司 is おすし, never
        おずし). Such a reading is not made a known word by this: the table still judges it."""
        candidates = japanese.readings_of(surface)
        key = kana.normalize(surface)
        if not candidates and key[:1] in HONORIFICS and _has_kanji(key[1:]):
            rest = japanese.readings_of(key[1:])
            candidates = [key[0] + r for r in rest if not _is_rendaku_of(r, rest)]
        out: list[str] = []
        for candidate in candidates:
            try:
                k = kana.reading(candidate).kana
            except kana.ReadingError:
                continue
            if k not in out:
                out.append(k)
            if len(out) >= LOOKUP_MAX:
                break
        return out

    def minimums(self, seat: str) -> tuple[int, int]:
        """(shortest word, shortest word for the last card) of ``seat`` (handicap)."""
        return HANDICAPS[self.handicaps.get(seat, "normal")]

    def fit_error(self, seat: str, card_id: int, r: kana.Reading, field: dict) -> RuleError | None:
        """Why playing ``card_id`` with reading ``r`` on ``field`` is illegal for ``seat``, or
        None when it fits (seed: 使える言葉と、文字の数え方; ワイルドは長さ、または行を指定する;
        最後の1枚は4文字以上; 同じ人が…同じ単語を繰り返すのは禁止).

        Codes: ``wb_word_ends_n``; ``wb_word_too_short`` / ``wb_last_word_too_short`` (``min``,
        ``length``); ``wb_wrong_start`` (``field``, ``first``); ``wb_wrong_start_row`` (``row``,
        ``first``); ``wb_wrong_end`` (``card``, ``last``); ``wb_wrong_end_row`` (``row``, ``last``);
        ``wb_wrong_length`` (``card``, ``length``); ``wb_word_repeated`` (``word``).
        """
        if r.ends_with_n:
            return RuleError("wb_word_ends_n", word=r.kana)
        low, low_last = self.minimums(seat)
        if len(self.hands[seat]) == 1:
            if r.length < low_last:
                return RuleError("wb_last_word_too_short", min=low_last, length=r.length)
        elif r.length < low:
            return RuleError("wb_word_too_short", min=low, length=r.length)
        first = kana.plain(r.first)
        if field.get("kana") is not None:
            if first != kana.plain(field["kana"]):
                return RuleError("wb_wrong_start", field=field["kana"], first=r.first)
        elif field.get("row") is not None:
            if first not in kana.ROWS[field["row"]]:
                return RuleError("wb_wrong_start_row", row=field["row"], first=r.first)
        card = CARDS[card_id]
        last = kana.plain(r.last)
        if card["kind"] == "kana" and last != card["kana"]:
            return RuleError("wb_wrong_end", card=card["kana"], last=last)
        if card["kind"] == "row" and last not in kana.ROWS[card["row"]]:
            return RuleError("wb_wrong_end_row", row=card["row"], last=last)
        if card["kind"] == "number":
            n = card["number"]
            if (n == 7 and r.length < 7) or (n != 7 and r.length != n):
                return RuleError("wb_wrong_length", card=card_label(card_id), length=r.length)
        if self.last_word.get(seat) == r.kana:
            return RuleError("wb_word_repeated", word=r.kana)
        return None

    def _known(self, reading: str) -> bool:
        return japanese.is_known(reading)

    # --- actions -----------------------------------------------------------------------------

    def _check_playing(self) -> None:
        if self.phase == "vote":
            raise RuleError("wb_vote_open")
        if self.pending_win is not None:
            raise RuleError("wb_win_pending", seat=self.pending_win["seat"])

    def _do_play(self, seat: str, action: dict, now: float) -> None:
        """Put a card into the basket with a word (seed: 全員同時のしりとり; RULES.md "Plays",
        "Simultaneous plays").

        Checks, in this order: ``wb_card_not_in_hand`` (also a doubled tap); ``wb_vote_open``; the
        word itself (:meth:`_read`); the field (``wb_stale_field``, params ``field``, ``current``,
        unless it is a near-race bounce, see the module docstring); ``wb_win_pending``; the fit
        (:meth:`fit_error`); ``wb_word_unknown`` in strict mode.
        """
        card = action["card"]
        hand = self.hands[seat]
        if card not in hand:
            raise RuleError("wb_card_not_in_hand", card=card_label(card))
        if self.phase == "vote":
            raise RuleError("wb_vote_open")
        surface, r = self._read(action)
        if action["field"] != self.field["serial"]:
            if not self._bounce(seat, card, surface, r, action["field"], now):
                raise RuleError("wb_stale_field", field=action["field"], current=self.field["serial"])
            return
        self._check_playing()
        problem = self.fit_error(seat, card, r, self.field)
        if problem is not None:
            raise problem
        known = self.mode == "free" or self._known(r.kana)
        if self.mode == "strict" and not known:
            raise RuleError("wb_word_unknown", word=surface[:20])
        # --- accepted
        old = {"kana": self.field["kana"], "row": self.field["row"]}
        self.last_play = {"from": self.field["serial"], "seat": seat, "at": now, "word": surface, "field": old}
        hand.remove(card)
        n = len(self.chain) + 1
        unknown = self.mode == "vote" and not known
        challengeable = unknown or self.mode == "free"
        self.chain.append({
            "n": n, "seat": seat, "word": surface, "reading": r.kana, "card": card,
            "label": card_label(card), "unknown": unknown, "challengeable": challengeable,
            "status": None, "field": 0,
        })
        nxt = kana.plain(r.last)
        self.basket.append({"card": card, "seat": seat, "how": "play", "kana": nxt, "row": None,
                            "chain": n, "prev_word": self.last_word.get(seat)})
        self.last_word[seat] = r.kana
        self._set_field(nxt, None)
        self.chain[-1]["field"] = self.field["serial"]
        if len(hand) == 1:
            self.reach[seat] = bool(action.get("reach", False))
        elif len(hand) > 1:
            self.reach[seat] = False
        self._event("play", seat=seat, word=surface, reading=r.kana, card=CARDS[card], unknown=unknown)
        if len(hand) == 1 and self.reach[seat]:
            self._event("reach", seat=seat)
        if not hand:
            needs = ([] if self.reach.get(seat) else ["reach"]) + (["word"] if challengeable else [])
            if needs:
                self.pending_win = {"seat": seat, "until": now + self.reach_window, "needs": needs}
                self._event("win_pending", seat=seat, needs=list(needs), until=self.pending_win["until"])
            else:
                self._win(seat)

    def _bounce(self, seat: str, card: int, surface: str, r: kana.Reading, named: int, now: float) -> bool:
        """A play for the field the last accepted play was made for, within :data:`RACE_WINDOW`
        of it, by another player, legal there: record the near-race and keep the card in the
        hand (seed: 同時に入ったとき — 罰の追加はありません). Returns False when it is not one."""
        lp = self.last_play
        if lp is None or named != lp["from"] or seat == lp["seat"] or now - lp["at"] > RACE_WINDOW:
            return False
        if self.fit_error(seat, card, r, lp["field"]) is not None:
            return False
        if self.mode == "strict" and not self._known(r.kana):
            return False
        self.race_n += 1
        self.race = {
            "n": self.race_n, "field": named, "winner": lp["seat"], "winner_word": lp["word"],
            "loser": seat, "loser_word": surface, "margin_ms": max(0, round((now - lp["at"]) * 1000)),
        }
        self._event("race", **{k: v for k, v in self.race.items() if k != "n"})
        return True

    def _do_reset(self, seat: str, action: dict, now: float) -> None:
        """Discard the whole hand face up and draw one more (seed: 詰まったらリセット).

        ``top`` is the card laid on top, which becomes the field (never a number wild). With a
        hand of only number wilds, ``top`` is ignored and the deck's next non-number card becomes
        the field. Raises ``wb_vote_open``, ``wb_win_pending``, ``wb_stale_field`` (a doubled tap, or the
        field changed), ``wb_reset_top_needed``, ``wb_card_not_in_hand``, ``wb_reset_top_number``.
        """
        self._check_playing()
        if action["field"] != self.field["serial"]:
            raise RuleError("wb_stale_field", field=action["field"], current=self.field["serial"])
        hand = self.hands[seat]
        numbers_only = all(_is_number(c) for c in hand)
        top = None if numbers_only else action.get("top")
        if not numbers_only:
            if top is None:
                raise RuleError("wb_reset_top_needed")
            if top not in hand:
                raise RuleError("wb_card_not_in_hand", card=card_label(top))
            if _is_number(top):
                raise RuleError("wb_reset_top_number")
        count = len(hand)
        for c in hand:
            if c != top:
                self.basket.append({"card": c, "seat": seat, "how": "reset", "kana": None, "row": None,
                                    "chain": None, "prev_word": None})
        discarded = [CARDS[c] for c in hand if c != top] + ([CARDS[top]] if top is not None else [])
        self.hands[seat] = []
        self.reach[seat] = False
        if top is not None:
            self._lay_field(top, seat, "reset")
        else:
            self._turn_field()
        self._event("reset", seat=seat, count=count, draw=count + 1, discarded=discarded,
                    field=self._field_public())
        self._draw(seat, count + 1)
        self._after_draws()

    def _do_reach(self, seat: str, action: dict, now: float) -> None:
        """Declare リーチ with one card left (seed: 手札が残り1枚になったら『リーチ』).

        Raises ``wb_reach_not_now`` (``cards``: not exactly one card), ``wb_reach_already``.
        """
        if len(self.hands[seat]) != 1:
            raise RuleError("wb_reach_not_now", cards=len(self.hands[seat]))
        if self.reach.get(seat):
            raise RuleError("wb_reach_already")
        self.reach[seat] = True
        self._event("reach", seat=seat)

    def _do_point_out(self, seat: str, action: dict, now: float) -> None:
        """Point out another player's missing リーチ: they draw one penalty card (seed:
        忘れたことをほかの人に指摘されたら…罰の1枚). Also after their last card, while their win is
        pending: the win lapses and they keep the penalty card (their リーチ is then settled).

        Raises ``wb_point_out_self``, ``not_a_player`` (target), ``wb_vote_open``,
        ``wb_reach_not_missing``.
        """
        target = action["seat"]
        if target == seat:
            raise RuleError("wb_point_out_self")
        if target not in self.players:
            raise RuleError("not_a_player")
        if self.phase == "vote":
            raise RuleError("wb_vote_open")
        pending = self.pending_win
        if pending is not None and pending["seat"] == target and "reach" in pending["needs"]:
            self.pending_win = None
            self.reach[target] = True
        elif len(self.hands[target]) == 1 and not self.reach.get(target):
            self.reach[target] = False
        else:
            raise RuleError("wb_reach_not_missing")
        self._event("penalty", seat=target, by=seat, reason="reach")
        self._draw(target, 1)
        if len(self.hands[target]) > 1:
            self.reach[target] = False
        self._after_draws()

    def _do_challenge(self, seat: str, action: dict, now: float) -> None:
        """Challenge the top word: play stops for a table vote (RULES.md "Words").

        Raises ``wb_vote_open``, ``wb_challenge_gone`` (the word is no longer on top, or cannot be
        challenged), ``wb_challenge_own``.
        """
        if self.phase == "vote":
            raise RuleError("wb_vote_open")
        top = self._challengeable()
        if top is None or action["field"] != self.field["serial"]:
            raise RuleError("wb_challenge_gone")
        if top["seat"] == seat:
            raise RuleError("wb_challenge_own")
        self.vote_id += 1
        voters = [p for p in self.players if p != top["seat"]]
        subject = {"word": top["word"], "reading": top["reading"], "seat": top["seat"], "by": seat,
                   "n": top["n"]}
        self.vote = TableVote(subject, voters, now, self.vote_seconds, vote_id=self.vote_id)
        self.vote.cast(seat, "reject", self.vote_id)
        self.vote_info = {"id": self.vote_id, "chain": top["n"], "seat": top["seat"], "by": seat}
        self.phase = "vote"
        self._event("challenge", by=seat, seat=top["seat"], word=top["word"], vote=self.vote_id)
        self._settle_vote(now)

    def _do_vote(self, seat: str, action: dict, now: float) -> None:
        """Cast (or change) a ballot in the open table vote.

        Raises ``wb_vote_gone`` and the codes of :meth:`TableVote.cast` (``not_a_voter``, …).
        """
        self._check_vote_id(action["vote"])
        self.vote.cast(seat, action["ballot"], action["vote"])
        self._settle_vote(now)

    def _do_lookup(self, seat: str, action: dict, now: float) -> None:
        """Find the known readings of a word typed in kanji (or kana) for this phone only.

        The answer ``{"n", "text", "readings": [...]}`` is in ``view(seat)["lookup"]``; it does
        not bump ``version``. Never refused (an unknown word gets an empty list).
        """
        text = unicodedata.normalize("NFKC", action["text"]).strip()
        try:
            readings = [kana.reading(text).kana]
        except kana.ReadingError as error:
            readings = self._readings(text) if error.code == "word_not_kana" else []
        self.lookup_n += 1
        self.lookups[seat] = {"n": self.lookup_n, "text": text, "readings": readings}

    # --- internals ---------------------------------------------------------------------------

    def _check_vote_id(self, vote_id: int) -> None:
        if self.vote is None or self.vote_info["id"] != vote_id:
            raise RuleError("wb_vote_gone")

    def _challengeable(self) -> dict | None:
        """The chain record of the top word if it may be challenged now, else None."""
        if not self.basket or self.basket[-1]["how"] != "play":
            return None
        record = self.chain[self.basket[-1]["chain"] - 1]
        if not record["challengeable"] or record["status"] is not None:
            return None
        return record

    def _settle_vote(self, now: float) -> None:
        """Carry out a decided vote (nothing when it is still open)."""
        vote = self.vote
        outcome = vote.decided
        if outcome is None:
            return
        info = self.vote_info
        record = self.chain[info["chain"] - 1]
        record["status"] = "accepted" if outcome == "accept" else "rejected"
        self.vote = None
        self.vote_info = None
        self.phase = "play"
        self._event("vote_result", outcome=outcome, word=record["word"], seat=record["seat"],
                    overruled=vote.overruled is not None, count=vote.count())
        owner = record["seat"]
        pending = self.pending_win
        if outcome == "accept":
            if pending is not None and pending["seat"] == owner and "word" in pending["needs"]:
                pending["needs"].remove("word")
                if not pending["needs"]:
                    self._win(owner)
                else:
                    # Nobody could point out the missing リーチ while the vote was open
                    # (wb_vote_open): the window starts again now rather than having run out.
                    pending["until"] = max(pending["until"], now + self.reach_window)
                    self._event("win_pending", seat=owner, needs=list(pending["needs"]), until=pending["until"])
            return
        # rejected: the card back, one penalty card, the field back (RULES.md "Words")
        entry = self.basket.pop()
        if owner in self.hands:
            self.hands[owner].append(entry["card"])
            if entry["prev_word"] is None:
                self.last_word.pop(owner, None)
            else:
                self.last_word[owner] = entry["prev_word"]
            if pending is not None and pending["seat"] == owner:
                self.pending_win = None
        else:  # the player left meanwhile: the card goes back into the deck
            self.deck.insert(0, entry["card"])
        self.last_play = None
        self._set_field_from_top()
        if owner in self.hands:
            self._event("penalty", seat=owner, by=None, reason="rejected")
            self._draw(owner, 1)
            self.reach[owner] = False
        self._after_draws()

    def _win(self, seat: str) -> None:
        self.pending_win = None
        self.winner = seat
        self.phase = "over"
        self._event("won", seat=seat)

    def _draw(self, seat: str, count: int) -> None:
        """Draw ``count`` cards; an empty deck is refilled from the basket (seed:
        山がなくなったり…); with no card anywhere the rest is forgiven."""
        hand = self.hands[seat]
        for _ in range(count):
            if not self.deck:
                if not self.basket:
                    break
                self._reshuffle()
            hand.append(self.deck.pop())

    def _reshuffle(self) -> None:
        """The whole basket becomes the new deck, shuffled; a new field is turned after the owed
        draws (:meth:`_after_draws`)."""
        cards = [e["card"] for e in self.basket]
        self.basket = []
        self._rng.shuffle(cards)
        self.deck = cards + self.deck
        self.reshuffles += 1
        self._reshuffled = True
        self.last_play = None
        self._field_public_none()

    def _field_public_none(self) -> None:
        self.field = {"serial": self.field["serial"] + 1, "kana": None, "row": None}

    def _after_draws(self) -> None:
        if self._reshuffled:
            self._reshuffled = False
            self._turn_field()
            self._event("reshuffle", deck=len(self.deck), field=self._field_public())

    def _turn_field(self) -> None:
        """Turn cards from the deck into the basket until one can be the field (a number wild
        is skipped and stays in the basket). If the deck runs out, reshuffle once; if still no
        card can be the field, any word may start (our own rule for an edge no table meets)."""
        reshuffled = False
        while True:
            if not self.deck:
                if reshuffled or not any(not _is_number(e["card"]) for e in self.basket):
                    self._set_field(None, None)
                    return
                self._reshuffle()
                self._reshuffled = False
                reshuffled = True
            card = self.deck.pop()
            if _is_number(card):
                self.basket.append({"card": card, "seat": None, "how": "turn", "kana": None, "row": None,
                                    "chain": None, "prev_word": None})
                continue
            self._lay_field(card, None, "turn")
            if reshuffled:
                self._event("reshuffle", deck=len(self.deck), field=self._field_public())
            return

    def _lay_field(self, card: int, seat: str | None, how: str) -> None:
        face = CARDS[card]
        k, row = (face["kana"], None) if face["kind"] == "kana" else (None, face["row"])
        self.basket.append({"card": card, "seat": seat, "how": how, "kana": k, "row": row,
                            "chain": None, "prev_word": None})
        self._set_field(k, row)

    def _set_field(self, k: str | None, row: str | None) -> None:
        self.field = {"serial": self.field["serial"] + 1, "kana": k, "row": row}

    def _set_field_from_top(self) -> None:
        for entry in reversed(self.basket):
            if entry["kana"] is not None or entry["row"] is not None:
                self._set_field(entry["kana"], entry["row"])
                return
        self._set_field(None, None)

    def _field_public(self) -> dict:
        top = self.basket[-1] if self.basket else None
        return {
            "serial": self.field["serial"],
            "kana": self.field["kana"],
            "row": self.field["row"],
            "card": CARDS[top["card"]] if top is not None else None,
            "by": top["seat"] if top is not None else None,
            "how": top["how"] if top is not None else None,
        }

    def _event(self, kind: str, **fields: Any) -> None:
        self.event_n += 1
        self.events.append({"n": self.event_n, "kind": kind, **fields})
        del self.events[:-EVENTS_SHOWN]

    # --- views and snapshots -----------------------------------------------------------------

    def view(self, seat: str | None) -> dict:
        """What ``seat`` may know, JSON-ready; ``None`` is the table (TV and spectators).

        Shape::

            {"game": "word_basket", "phase": "play"|"vote"|"over", "version": int,
             "options": {"word_mode", "reach_window", "vote_seconds"},
             "field": {"serial", "kana": str|None, "row": str|None, "card": card|None,
                       "by": seat|None, "how": "turn"|"play"|"reset"|None},
             "rows": {row: kana of the row}, "deck": int, "basket": int, "reshuffles": int,
             "players": [{"seat", "cards": int, "reach": bool, "handicap", "min", "min_last"}],
             "chain": [{"n", "seat", "word", "reading", "card": card, "label", "unknown",
                        "challengeable", "status": None|"accepted"|"rejected", "field"}]  # last 12
             "challengeable": None | {"n", "field", "seat", "word", "reading"},
             "vote": None | {"id", "by", "seat", "chain", ...TableVote.view()},
             "pending_win": None | {"seat", "until", "needs": ["reach"?, "word"?]},
             "race": None | {"n", "field", "winner", "winner_word", "loser", "loser_word",
                             "margin_ms"},
             "events": [{"n", "kind", ...}],  # last 8: start, play, reach, race, reset,
                        # reshuffle, penalty, challenge, vote_result, win_pending, won, left
             "winner": seat|None}

        A seat also gets ``"me"``, ``"hand"`` (its cards, sorted by id; ``[]`` for a
        spectator), ``"last_word"`` (its previous word's reading, for the repeat rule) and
        ``"lookup"`` (its last lookup, or None). No view holds another seat's hand or the deck
        order: a penalty or a draw shows only counts.
        """
        vote = None
        if self.vote is not None:
            vote = {"id": self.vote_info["id"], "by": self.vote_info["by"], "seat": self.vote_info["seat"],
                    "chain": self.vote_info["chain"], **self.vote.view()}
        top = self._challengeable() if self.phase == "play" else None
        out = {
            "game": self.KEY,
            "phase": self.phase,
            "version": self.version,
            "options": {"word_mode": self.mode, "reach_window": self.reach_window,
                        "vote_seconds": self.vote_seconds},
            "field": self._field_public(),
            "rows": {r: kana.ROWS[r] for r in ROW_CARDS},
            "deck": len(self.deck),
            "basket": len(self.basket),
            "reshuffles": self.reshuffles,
            "players": [
                {"seat": s, "cards": len(self.hands[s]), "reach": bool(self.reach.get(s)),
                 "handicap": self.handicaps.get(s, "normal"), "min": self.minimums(s)[0],
                 "min_last": self.minimums(s)[1]}
                for s in self.players
            ],
            "chain": [
                {**{k: v for k, v in rec.items() if k != "card"}, "card": CARDS[rec["card"]]}
                for rec in self.chain[-CHAIN_SHOWN:]
            ],
            "challengeable": None if top is None else {
                "n": top["n"], "field": self.field["serial"], "seat": top["seat"], "word": top["word"],
                "reading": top["reading"],
            },
            "vote": vote,
            "pending_win": _copy(self.pending_win),
            "race": _copy(self.race),
            "events": _copy(self.events),
            "winner": self.winner,
        }
        if seat is not None:
            out["me"] = seat
            out["hand"] = [CARDS[c] for c in sorted(self.hands.get(seat, []))]
            out["last_word"] = self.last_word.get(seat)
            out["lookup"] = _copy(self.lookups.get(seat))
        return out

    _FIELDS: ClassVar[tuple[str, ...]] = (
        "players", "mode", "reach_window", "vote_seconds", "handicaps", "hands", "deck", "basket",
        "field", "chain", "last_word", "reach", "vote_id", "vote_info", "pending_win", "last_play",
        "race", "race_n", "events", "event_n", "lookups", "lookup_n", "reshuffles", "phase",
        "winner", "version",
    )  # fmt: skip

    def to_dict(self) -> dict:
        """Full JSON-serialisable snapshot (hands and deck order included)."""
        data = {"game": self.KEY, **{f: _copy(getattr(self, f)) for f in self._FIELDS}}
        data["vote"] = self.vote.to_dict() if self.vote is not None else None
        return data

    @classmethod
    def from_dict(cls, data: dict, rng: random.Random) -> "WordBasket":
        """Rebuild a game from :meth:`to_dict` output; ``rng`` is used for later shuffles."""
        game = cls()
        for f in cls._FIELDS:
            setattr(game, f, _copy(data[f]))
        game.vote = TableVote.from_dict(data["vote"]) if data.get("vote") else None
        if game.vote is not None and not game.vote.id and game.vote_info:
            game.vote.id = game.vote_info["id"]  # a snapshot from before votes carried their id
        game._rng = rng
        return game

    def all_cards(self) -> list[int]:
        """Every card id in the deck, the basket and the hands (for the 60-card invariant)."""
        return list(self.deck) + [e["card"] for e in self.basket] + [c for h in self.hands.values() for c in h]
