"""Word Basket (ワードバスケット): pure rules of the real-time shiritori card game.

Sources. The rulebook ``shared/seeds/002_7b5dc1ed359db9dd.txt`` is the law (sections are cited by
their headings: 全員同時のしりとり, カードを配り、最初の文字を作る, 使える言葉と、文字の数え方,
ワイルドは長さ、または行を指定する, 詰まったらリセット、間違いには1枚追加, 同時に入ったとき、残り1枚と上がり,
子どもや経験差があるとき); ``shared/RULES.md`` "Word Basket" settles what it leaves open for phones.

Where things are:

* this module — the table: deal, field, basket, plays, resets, リーチ, challenges, the win, views;
* :mod:`.word_basket_words` — the 60 cards and the judging of one word (its reading, the lexicon
  lookups, whether it fits a card on a field);
* :mod:`.word_basket_solver` — known words that fit and the plays a seat could make with them,
  for :meth:`WordBasket.suggest` only (never for judging);
* :mod:`.vote` — the table vote on a challenged word.

Phases (:data:`PHASES` declares them; :attr:`WordBasket.stage` says where a game is). Everyone
acts at once; there are no turns. A move not open in a stage is refused by its own rule (code in
brackets) and changes nothing::

    stage        open moves                                  what ends it
    play         play, reset, reach, point_out, challenge,   a challenge → vote; a last card with
                 lookup  [vote, overrule: wb_vote_gone]      リーチ declared and a word that stands
                                                             → over; any other last card →
                                                             win_pending
    win_pending  point_out, challenge, reach, lookup         the window passes (tick) → over; the
                 [play, reset: wb_win_pending; a play for    missing リーチ pointed out → play;
                 the last field may still bounce as a race]  a challenge → vote
    vote         vote, reach, lookup; host: overrule         all voted, the deadline (tick), the
                 [play, reset, point_out, challenge:         host's overrule or the judged player
                 wb_vote_open]                               leaving → play / win_pending / over
    over         nothing [game_over]                         —

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
  (``now`` of the two ``apply`` calls). ``wb_stale_field`` is this rule's refusal, not the
  pipeline's ``stale``: no move is declared ``stale`` (the field is checked after the card and
  the word, so the phone hears about its own mistake first).
* **Words.** Mode ``"vote"`` (default): a dictionary word stands; an unknown word enters marked
  "?" and any other player may challenge it until the next card enters (or the field changes);
  a challenge opens a :class:`~.vote.TableVote` of the whole table, the word's player included
  (seed: 全員で常識的に話し合って決めます), with the challenger's ballot cast as "reject". Nobody
  decides alone: the challenger's ballot never rejects by itself, the word's player's own
  "reject" withdraws the word; so with 2 players a disputed word stands unless its player
  withdraws it or the host rules. A challenge never closes its vote at once (the owner has not
  voted), so every phone shows the vote and the host can overrule while it is open.
  Rejected: the card goes back to its player with one penalty card and the field goes back.
  Mode ``"strict"``: unknown words are refused. Mode ``"free"``: no dictionary, every word enters
  unmarked but any other player may challenge it in the same way.
* **Words typed in kanji.** A play carries ``word`` (what was typed) and, when ``word`` is not
  kana, ``reading``: the kana reading the player confirmed. It counts only when it is one of
  :func:`.word_basket_words.readings` ``(word)``. The ``lookup`` action asks the server for those
  readings first (the answer sits in the asking phone's view only).
* **リーチ.** A player left with one card declares it (the ``reach`` action: one tap right after
  the play; or ``"reach": true`` on the play that leaves one card). After :data:`REACH_GRACE`
  from that play, any other player may point out a missing リーチ (``point_out``): one penalty
  card. A player who plays their last card without リーチ — or whose
  last word may still be challenged — wins only once ``reach_window`` seconds pass with no
  point-out and no rejected challenge; plays and resets wait meanwhile (``wb_win_pending``). A
  vote on that last word stops the window (no point-out during a vote): when the word stands and
  the リーチ is still missing, the window starts again.
* **Reshuffle.** When a draw finds the deck empty, the whole basket is shuffled into a new deck
  (seed: 箱にあるカードを全て混ぜて), the owed draws are paid, then a new field is turned (number
  wilds are skipped). If no card can be drawn at all, the draw is forgiven.

Action shapes (:attr:`WordBasket.MOVES` holds the JSON Schema of each whole dict, ``"type"``
included; the shared pipeline in :class:`~.base.Game` checks it once)::

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
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar

from ..clocksync import uncertainty_of
from ..lexicon import japanese, kana
from . import schema, word_basket_coach
from . import word_basket_solver as solver
from . import word_basket_words as words
from .base import Game, Move, RuleError, joined, msg, plain, seat_name
from .vote import BALLOTS, TableVote
from .word_basket_words import (  # noqa: F401 - the cards and limits are part of this module's API
    CARDS, DECK_SIZE, HANDICAPS, KANA_CARDS, LOOKUP_MAX, NUMBER_CARDS, ROW_CARDS, card_label, is_number,
)

# --- rules as data ---------------------------------------------------------------------------

HAND_SIZE = 5
WORD_MODES = ("vote", "strict", "free")
#: Two plays for the same field this close (game-clock seconds) are a near-race the TV shows.
RACE_WINDOW = 0.150
#: After a play leaves a player one card, the others may point out a missing リーチ only once this
#: many game-clock seconds have passed: the time to say it (one tap on the phone; RULES.md "Reach").
REACH_GRACE = 2.0
#: Default of the ``reach_window`` option: how long after a last card played without リーチ (or
#: with a word that may still be challenged) the others may still point it out or challenge.
REACH_WINDOW = 10
#: How many recent words the views carry.
CHAIN_SHOWN = 12
#: How many recent events the views carry.
EVENTS_SHOWN = 8
#: Longest typed text the schemas let through, so that a long word gets the game's own
#: ``wb_word_too_long`` (kana.reading refuses more than 30 kana) rather than "malformed".
MAX_TEXT = 240

_CARD_ID = {"type": "integer", "minimum": 0, "maximum": DECK_SIZE - 1}
_SERIAL = {"type": "integer", "minimum": 0}
_TEXT = {"type": "string", "maxLength": MAX_TEXT}
_VOTE_ID = {"type": "integer", "minimum": 1}


def _schema(kind: str, required: dict, optional: dict | None = None) -> dict:
    return schema.action(kind, optional, **required)

@dataclass(frozen=True)
class Phase:
    """One stage of a Word Basket game (see the module docstring's table).

    Attributes:
        moves: the player moves open in this stage (any other is refused by its own rule).
        host_moves: the host moves open in this stage.
        ends: what ends the stage, and the stage that follows.
    """

    moves: tuple[str, ...]
    host_moves: tuple[str, ...]
    ends: str


#: Stage → what is open and what ends it. :attr:`WordBasket.stage` is one of these keys; the view's
#: ``phase`` is the same but for ``"win_pending"``, which the view shows as ``"play"`` with a
#: ``pending_win``. :meth:`WordBasket.suggest` offers only open moves; a test holds the handlers to it.
@lru_cache(maxsize=None)
def outvoted(players: int) -> bool:
    """Whether the rest of a table of ``players`` can reject a challenged word its player stands
    by: the vote a challenge opens (the whole table, the challenger's "reject" cast, the word's
    player accepting, everyone else rejecting) decided by :class:`~.vote.TableVote`. False for 2
    (nobody decides alone: the word stands unless its player withdraws it or the host rules).
    Cached: every lobby view asks for every table size."""
    owner, *others = [f"s{i}" for i in range(players)]
    vote = TableVote({}, [owner, *others], 0.0, 1.0, vote_id=1, judged=owner, opener=others[0])
    for seat, ballot in [(others[0], "reject"), (owner, "accept")] + [(s, "reject") for s in others[1:]]:
        if vote.decided is not None:
            break
        vote.cast(seat, ballot, 1)
    return vote.decided == "reject"


PHASES: dict[str, Phase] = {
    "play": Phase(("play", "reset", "reach", "point_out", "challenge", "lookup"), (),
                  "a challenge → vote; a last card with リーチ and a word that stands → over; "
                  "another last card → win_pending"),
    "win_pending": Phase(("point_out", "challenge", "reach", "lookup"), (),
                         "the window passes (tick) → over; the missing リーチ pointed out → play; "
                         "a challenge → vote"),
    "vote": Phase(("vote", "reach", "lookup"), ("overrule",),
                  "every voter voted, the deadline (tick), the host's overrule, or the judged "
                  "player leaving → play, win_pending or over"),
    "over": Phase((), (), "nothing: a player emptied their hand correctly"),
}

#: Texts :meth:`WordBasket.suggest` looks up (kanji with known readings, kana, junk).
_LOOKUPS = ("新学期", "猫", "あひる", "明日", "お寿司", "xyz")


class WordBasket(Game):
    """Word Basket for 2–8 players (seeds/002_… ; RULES.md "Word Basket").

    Life cycle: ``setup`` deals 5 cards each and turns the field; then the stages of
    :data:`PHASES` (everyone may act at once) until a player has emptied their hand correctly
    (``winner``). Moves run through the shared pipeline (:meth:`~.base.Game.apply`): schema
    (``unknown_action`` / ``malformed``), ``game_over``, ``not_a_player``, then the handler.

    Every refused action raises :class:`RuleError` and leaves the state untouched; every applied
    action bumps ``version`` (a ``lookup`` too, though it only changes the asking seat's view).
    Example::

        >>> g = WordBasket(); g.setup(["s1", "s2"], {}, random.Random(1), now=0.0)
        >>> g.view("s1")["phase"], len(g.view("s1")["hand"])
        ('play', 5)
    """

    KEY: ClassVar[str] = "word_basket"
    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int] = 8
    OPTIONS: ClassVar[dict] = schema.options(
        word_mode={"enum": list(WORD_MODES), "default": "vote"},
        handicaps={
            "type": "object",
            "propertyNames": schema.SEAT_KEY,
            "additionalProperties": {"enum": list(HANDICAPS)},
            "maxProperties": 64,
            "default": {},
        },
        reach_window={"type": "number", "minimum": 1, "maximum": 30, "default": REACH_WINDOW},
        vote_seconds={"type": "number", "minimum": 5, "maximum": 120, "default": 20},
    )
    MOVES: ClassVar[dict[str, Move]] = {
        "play": Move(_schema("play", {"field": _SERIAL, "card": _CARD_ID, "word": _TEXT},
                             {"reading": _TEXT, "reach": {"type": "boolean"}}), "_do_play"),
        "reset": Move(_schema("reset", {"field": _SERIAL}, {"top": _CARD_ID}), "_do_reset"),
        "reach": Move(_schema("reach", {}), "_do_reach"),
        "point_out": Move(_schema("point_out", {"seat": {"type": "string", "maxLength": 20}}), "_do_point_out"),
        "challenge": Move(_schema("challenge", {"field": _SERIAL}), "_do_challenge"),
        "vote": Move(_schema("vote", {"vote": _VOTE_ID, "ballot": {"enum": list(BALLOTS)}}), "_do_vote"),
        "lookup": Move(_schema("lookup", {"text": _TEXT}), "_do_lookup"),
    }
    # first card in the basket counts: a reset lays one on the field too, so it races with the
    # plays (tap order), or a reset tapped after a held play would be applied before it
    RACING: ClassVar[frozenset[str]] = frozenset({"play", "reset"})
    HOST_MOVES: ClassVar[dict[str, Move]] = {
        "overrule": Move(_schema("overrule", {"vote": _VOTE_ID, "outcome": {"enum": list(BALLOTS)}}),
                         "_do_overrule"),
    }
    STATE_VERSION: ClassVar[int] = 2
    FIELDS: ClassVar[tuple[str, ...]] = (
        "players", "mode", "reach_window", "vote_seconds", "handicaps", "hands", "deck", "basket",
        "field", "chain", "last_word", "reach", "one_card_at", "vote", "vote_id", "vote_info", "pending_win",
        "last_play", "race", "race_n", "events", "event_n", "lookups", "lookup_n", "reshuffles",
        "phase", "winner", "version",
    )  # fmt: skip

    @classmethod
    def prepare(cls) -> None:
        """Load the Japanese noun list once at server start (see :func:`japanese.load`)."""
        japanese.load()

    def __init__(self) -> None:
        """An empty game; call :meth:`setup` (or use :meth:`from_dict`) before anything else."""
        super().__init__()
        self._rng: random.Random | None = None
        self.mode = "vote"
        self.reach_window = float(REACH_WINDOW)
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
        # seat → game-clock time the play that left them one card was made (the リーチ grace)
        self.one_card_at: dict[str, float] = {}
        self.vote: TableVote | None = None
        self.vote_id = 0
        self.vote_info: dict | None = None  # {"id", "chain": n, "seat", "by"}
        self.pending_win: dict | None = None  # {"seat", "until", "needs": ["reach"?, "word"?]}
        # {"from", "seat", "at", "word", "field": {"kana","row"}, "u": the tap's uncertainty s}
        self.last_play: dict | None = None
        self.race: dict | None = None
        self.race_n = 0
        self.events: list[dict] = []  # the last EVENTS_SHOWN events, oldest first (see _event)
        self.lookups: dict[str, dict] = {}
        self.lookup_n = 0
        self.reshuffles = 0
        self.phase = "play"
        self.winner: str | None = None
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
        if not schema.validator(self.OPTIONS).is_valid(options):
            raise RuleError("bad_options")
        self.__init__()
        self._rng = rng
        self.players = players
        self.mode = options.get("word_mode", "vote")
        self.reach_window = float(options.get("reach_window", REACH_WINDOW))
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
    def stage(self) -> str:
        """Where the game is, a key of :data:`PHASES`: ``"play"``, ``"win_pending"``, ``"vote"``
        or ``"over"``."""
        if self.phase == "play" and self.pending_win is not None:
            return "win_pending"
        return self.phase

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

    def _do_leave(self, seat: str, now: float) -> None:
        """Remove a (kicked) player mid-game (RULES.md "General"; not in the rulebook).

        Their cards are shuffled back into the deck (they were secret and stay so). A vote about
        their word ends (the word stands); as a voter their ballot is dropped; their pending win
        lapses.

        Raises:
            RuleError: ``"game_over"``, ``"not_a_player"``, ``"cannot_continue"`` (fewer than 2
                would remain). Nothing changes when it is raised.
        """
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

    def _presence(self, seat: str, present: bool, now: float) -> bool:
        """An away voter does not hold the table up (issue 16; ours): while their phone is gone
        their missing ballot stops counting in the open vote (a ballot already cast stays), so
        the vote closes as soon as the present voters decide it instead of at its deadline. They
        vote again from the next vote on. Nothing else waits: an away player only falls behind in
        the race, and their pending win still lapses or stands by its own timer."""
        vote = self.vote
        if present or vote is None or seat not in vote.voters or seat in vote.ballots:
            return False
        vote.drop_voter(seat)
        self._settle_vote(now)
        return True

    # --- judging a seat's word (the rules of one word are in word_basket_words) ---------------

    #: Known readings of a typed word (kept here for callers of the class).
    _readings = staticmethod(words.readings)

    def minimums(self, seat: str) -> tuple[int, int]:
        """(shortest word, shortest word for the last card) of ``seat``, in kana (its handicap,
        :data:`HANDICAPS`; seed: 子どもや経験差があるとき)."""
        return HANDICAPS[self.handicaps.get(seat, "normal")]

    def shortest(self, seat: str) -> tuple[int, bool]:
        """(the fewest kana ``seat``'s next word needs, whether it would carry its last card): the
        handicap's second number for the last card (seed: 最後の1枚は4文字以上)."""
        low, low_last = self.minimums(seat)
        last = len(self.hands[seat]) == 1
        return (low_last if last else low), last

    def previous_surface(self, seat: str) -> str | None:
        """How ``seat``'s previous word was written: the latest word of theirs in the chain that
        was not rejected (the one ``last_word`` holds the reading of), or None."""
        for record in reversed(self.chain):
            if record["seat"] == seat and record["status"] != "rejected":
                return record["word"] if record["reading"] == self.last_word.get(seat) else None
        return None

    def fit_error(self, seat: str, card_id: int, r: kana.Reading, field: dict,
                  surface: str | None = None) -> RuleError | None:
        """Why playing ``card_id`` with reading ``r`` on ``field`` is illegal for ``seat`` now (its
        handicap, whether it is its last card, its previous word), or None when it fits. Rules and
        codes: :func:`.word_basket_words.fit_error`."""
        shortest, last = self.shortest(seat)
        return words.fit_error(card_id, r, field, shortest, last, self.last_word.get(seat),
                               self.previous_surface(seat), surface)

    # --- moves (handlers of MOVES / HOST_MOVES: the pipeline has checked shape, game over, seat) --

    def _check_playing(self) -> None:
        if self.phase == "vote":
            raise RuleError("wb_vote_open")
        if self.pending_win is not None:
            raise RuleError("wb_win_pending", seat=self.pending_win["seat"])

    def _do_play(self, seat: str, action: dict, now: float) -> None:
        """Put a card into the basket with a word (seed: 全員同時のしりとり; RULES.md "Plays",
        "Simultaneous plays").

        Checks, in this order: ``wb_card_not_in_hand`` (also a doubled tap); ``wb_vote_open``; the
        word itself (:func:`.word_basket_words.read_word`); the field (``wb_stale_field``, params
        ``field``, ``current``, unless it is a near-race bounce, see the module docstring);
        ``wb_win_pending``; the fit (:meth:`fit_error`); ``wb_word_unknown`` in strict mode.
        """
        card = action["card"]
        hand = self.hands[seat]
        if card not in hand:
            raise RuleError("wb_card_not_in_hand", card=card_label(card))
        if self.phase == "vote":
            raise RuleError("wb_vote_open")
        surface, r = words.read_word(action["word"], action.get("reading"))
        if action["field"] != self.field["serial"]:
            if not self._bounce(seat, card, surface, r, action["field"], now):
                raise RuleError("wb_stale_field", field=action["field"], current=self.field["serial"])
            return
        self._check_playing()
        problem = self.fit_error(seat, card, r, self.field, surface)
        if problem is not None:
            raise problem
        known = self.mode == "free" or words.is_known(r.kana)
        if self.mode == "strict" and not known:
            raise RuleError("wb_word_unknown", word=surface[:20])
        # --- accepted
        old = {"kana": self.field["kana"], "row": self.field["row"]}
        self.last_play = {"from": self.field["serial"], "seat": seat, "at": float(now), "word": surface,
                          "field": old, "u": uncertainty_of(now)}
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
            self.one_card_at[seat] = now
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
        if self.fit_error(seat, card, r, lp["field"], surface) is not None:
            return False
        if self.mode == "strict" and not words.is_known(r.kana):
            return False
        self.race_n += 1
        margin = now - lp["at"]
        # taps closer than both clocks' uncertainty: who was first cannot be told; the best
        # estimate still wins (seed: only the first card in the basket counts), but no margin
        tie = margin <= uncertainty_of(now) + lp.get("u", 0.0) and (uncertainty_of(now) + lp.get("u", 0.0)) > 0
        self.race = {
            "n": self.race_n, "field": named, "winner": lp["seat"], "winner_word": lp["word"],
            "loser": seat, "loser_word": surface, "margin_ms": max(0, round(margin * 1000)),
            "tie": tie,
        }
        self._event("race", **{k: v for k, v in self.race.items() if k != "n"})
        if not tie:
            self._keep("race", -self.race["margin_ms"], ms=self.race["margin_ms"], winner_seat=lp["seat"],
                       word=lp["word"], loser_seat=seat, loser_word=surface)
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
        numbers_only = all(is_number(c) for c in hand)
        top = None if numbers_only else action.get("top")
        if not numbers_only:
            if top is None:
                raise RuleError("wb_reset_top_needed")
            if top not in hand:
                raise RuleError("wb_card_not_in_hand", card=card_label(top))
            if is_number(top):
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

    def reach_grace_until(self, seat: str) -> float | None:
        """Game-clock time from which a missing リーチ of ``seat`` may be pointed out while they
        hold one undeclared card (:data:`REACH_GRACE` after the play that left it), else None. A
        last card already played has no grace: the window to point it out is running."""
        if len(self.hands.get(seat, ())) != 1 or self.reach.get(seat) or seat not in self.one_card_at:
            return None
        return self.one_card_at[seat] + REACH_GRACE

    def _reach_missing(self, target: str) -> bool:
        """Whether ``target``'s リーチ may be pointed out now (one card undeclared, or a pending
        win that still needs it)."""
        pending = self.pending_win
        if pending is not None and pending["seat"] == target and "reach" in pending["needs"]:
            return True
        return len(self.hands.get(target, ())) == 1 and not self.reach.get(target)

    def _do_point_out(self, seat: str, action: dict, now: float) -> None:
        """Point out another player's missing リーチ: they draw one penalty card (seed:
        忘れたことをほかの人に指摘されたら…罰の1枚). Also after their last card, while their win is
        pending: the win lapses and they keep the penalty card (their リーチ is then settled).

        Raises ``wb_point_out_self``, ``not_a_player`` (target), ``wb_vote_open``,
        ``wb_reach_not_missing``, ``wb_reach_grace`` (``seconds``: the target's play left them one
        card less than :data:`REACH_GRACE` ago: the time to declare it has not passed).
        """
        target = action["seat"]
        if target == seat:
            raise RuleError("wb_point_out_self")
        if target not in self.players:
            raise RuleError("not_a_player")
        if self.phase == "vote":
            raise RuleError("wb_vote_open")
        if not self._reach_missing(target):
            raise RuleError("wb_reach_not_missing")
        grace = self.reach_grace_until(target)
        if grace is not None and now < grace:
            raise RuleError("wb_reach_grace", seconds=round(grace - now, 1))
        pending = self.pending_win
        if pending is not None and pending["seat"] == target and "reach" in pending["needs"]:
            self.pending_win = None
            self.reach[target] = True  # the last card's リーチ is settled by the penalty
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
        voters = list(self.players)  # the whole table, the word's player included
        subject = {"word": top["word"], "reading": top["reading"], "seat": top["seat"], "by": seat,
                   "n": top["n"]}
        self.vote = TableVote(subject, voters, now, self.vote_seconds, vote_id=self.vote_id,
                              judged=top["seat"], opener=seat)
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

        The answer ``{"n", "text", "readings": [...]}`` is in ``view(seat)["lookup"]``. Never
        refused (an unknown word gets an empty list).
        """
        text, readings = words.lookup(action["text"])
        self.lookup_n += 1
        self.lookups[seat] = {"n": self.lookup_n, "text": text, "readings": readings}

    def _do_overrule(self, action: dict, now: float) -> None:
        """The host decides the open table vote (``{"type": "overrule", "vote", "outcome"}``;
        RULES.md "Words": the host can overrule while the vote is open).

        Raises ``wb_vote_gone`` (no open vote with that id), ``overrule_own_word`` (the host's
        phone is the word's player: nobody decides alone on their own word).
        """
        self._check_vote_id(action["vote"])
        if self.host_by is not None and self.host_by == self.vote_info["seat"]:
            raise RuleError("overrule_own_word")
        self.vote.overrule(action["outcome"], action["vote"])
        self._settle_vote(now)

    # --- internals ---------------------------------------------------------------------------

    def _check_vote_id(self, vote_id: int) -> None:
        if self.vote is None or self.vote_info["id"] != vote_id:
            raise RuleError("wb_vote_gone")

    def challengeable(self) -> dict | None:
        """The top word's chain record (``{"n", "seat", "word", …}``, public) while it may still be
        challenged, else None. Changes nothing; for views and the coach."""
        return self._challengeable()

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
                if reshuffled or not any(not is_number(e["card"]) for e in self.basket):
                    self._set_field(None, None)
                    return
                self._reshuffle()
                self._reshuffled = False
                reshuffled = True
            card = self.deck.pop()
            if is_number(card):
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
        """The base's event (``last_event``, ``event_n``), also kept in ``events``: the views carry
        the last :data:`EVENTS_SHOWN`, so a screen that missed a state still shows each once."""
        super()._event(kind, **fields)
        self.events.append(self.last_event)
        del self.events[:-EVENTS_SHOWN]

    # --- the night's record ----------------------------------------------------------------

    def outcome(self) -> dict:
        """The player who emptied their hand first, then the others by cards left (fewer is
        better, equal counts share a place); ``detail.cards`` holds each count."""
        left = {s: len(self.hands.get(s, [])) for s in self.players}
        others = sorted({n for s, n in left.items() if s != self.winner})
        places = [[self.winner]] if self.winner in left else []
        places += [[s for s in self.players if s != self.winner and left[s] == n] for n in others]
        return {"coop": False, "won": None, "places": places, "detail": {"cards": left}}

    def highlights(self) -> list[dict]:
        """The closest race (two players' words for one field, in milliseconds) and the
        longest word that stood (most kana; the first played wins a tie)."""
        out = []
        race = self.marks.get("race")
        if race is not None:
            out.append(msg("word_basket.hl.race", ms=race["ms"], winner_seat=race["winner_seat"],
                           word=race["word"], loser_seat=race["loser_seat"]))
        stood = [r for r in self.chain if r["status"] != "rejected"]
        if stood:
            best = max(stood, key=lambda r: len(r["reading"]))
            out.append(msg("word_basket.hl.longest", word=best["word"], length=len(best["reading"]),
                           seat=best["seat"]))
        return out

    # --- views and snapshots -----------------------------------------------------------------

    # --- how to play: the rules in use ------------------------------------------------------------

    @classmethod
    def howto_facts(cls, options: dict, players: list[str]) -> list[dict]:
        """The rules in use for ``players`` with ``options`` (see :meth:`Game.howto_facts`; a
        missing option takes its ``OPTIONS`` default): how words are judged, the handicaps
        other than normal, the reach window, the vote time (not in strict mode)."""
        props = cls.OPTIONS["properties"]
        given = {**{k: p["default"] for k, p in props.items()}, **options}
        handicaps = {s: (given["handicaps"] or {}).get(s, "normal") for s in players}
        return cls._facts(players, given["word_mode"], handicaps, given["reach_window"], given["vote_seconds"])

    def howto_facts_now(self, options: dict) -> list[dict]:
        """The rules in use of this game, from its own state."""
        return self._facts(self.players, self.mode, self.handicaps, self.reach_window, self.vote_seconds)

    @classmethod
    def howto_count_facts(cls, count: int, options: dict) -> list[dict]:
        """What a challenged word comes to at this table size (none in strict mode, where nobody
        challenges): :func:`outvoted` decides it with the game's own :class:`~.vote.TableVote`.
        See :meth:`Game.howto_count_facts`."""
        if options.get("word_mode", cls.OPTIONS["properties"]["word_mode"]["default"]) == "strict":
            return []
        return [msg("word_basket.howto.c.vote_many" if outvoted(count) else "word_basket.howto.c.vote_two")]

    @staticmethod
    def _facts(players: list[str], mode: str, handicaps: dict, reach: float, vote: float) -> list[dict]:
        out = [msg("word_basket.howto.v.mode", mode={"key": f"word_basket.word_mode.{mode}"})]
        odd = [msg("word_basket.howto.v.handicap_item", name=seat_name(s),
                   level={"key": f"word_basket.handicap.{handicaps[s]}"})
               for s in players if handicaps.get(s, "normal") != "normal"]
        if odd:
            out.append(msg("word_basket.howto.v.handicap", list=joined(odd)))
        out.append(msg("word_basket.howto.v.reach", seconds=reach))
        if mode != "strict":
            out.append(msg("word_basket.howto.v.vote", seconds=vote))
        return out

    def guide(self, seat: str | None) -> dict:
        """What ``seat`` can do now (see :mod:`partyhost.games.word_basket_coach`)."""
        return word_basket_coach.guide(self, seat)

    def coach_strip(self) -> dict | None:
        """The first-game coach (see :mod:`partyhost.games.word_basket_coach`)."""
        return word_basket_coach.strip(self)

    def coach_tip(self, seat: str) -> dict | None:
        """The first-game coach (see :mod:`partyhost.games.word_basket_coach`)."""
        return word_basket_coach.tip(self, seat)

    def view(self, seat: str | None) -> dict:
        """What ``seat`` may know, JSON-ready; ``None`` is the table (TV and spectators).

        Shape::

            {"game": "word_basket", "phase": "play"|"vote"|"over", "version": int,
             "options": {"word_mode", "reach_window", "vote_seconds"},
             "field": {"serial", "kana": str|None, "row": str|None, "card": card|None,
                       "by": seat|None, "how": "turn"|"play"|"reset"|None},
             "rows": {row: kana of the row}, "deck": int, "basket": int, "reshuffles": int,
             "players": [{"seat", "cards": int, "reach": bool, "point_out_from": float|None,
                          "handicap", "min", "min_last"}],  # point_out_from: the リーチ grace
             "chain": [{"n", "seat", "word", "reading", "card": card, "label", "unknown",
                        "challengeable", "status": None|"accepted"|"rejected", "field"}]  # last 12
             "challengeable": None | {"n", "field", "seat", "word", "reading"},
             "vote": None | {"id", "by", "seat", "chain", ...TableVote.view()},
             "pending_win": None | {"seat", "until", "needs": ["reach"?, "word"?]},
             "race": None | {"n", "field", "winner", "winner_word", "loser", "loser_word",
                             "margin_ms", "tie"},  # tie: closer than the clocks can tell
             "events": [{"n", "kind", ...}],  # last 8: start, play, reach, race, reset,
                        # reshuffle, penalty, challenge, vote_result, win_pending, won, left
             "winner": seat|None,
             "places": None | [[seat, …], …]}  # once over: outcome()["places"]

        ``places`` is the game's own final ranking (:meth:`outcome`), best first, a list of
        seats per place (equal cards left share a place); None until the game is over. Pages
        draw it as it is and never rank the players themselves.

        A seat also gets ``"me"``, ``"hand"`` (its cards, sorted by id; ``[]`` for a
        spectator), ``"last_word"`` (its previous word's reading, for the repeat rule),
        ``"last_surface"`` (that word as written, when it has kanji: 白紙 then 博士 is no repeat) and
        ``"lookup"`` (its last lookup, or None). No view holds another seat's hand or the deck
        order: a penalty or a draw shows only counts.

        Everything but the seat's own keys is the table's (:meth:`_table_view`,
        :meth:`~.base.Game.table_part`): one object whose members every view of one flush shares.
        """
        out = dict(self.table_part("table", self._table_view))
        if seat is not None:
            out["me"] = seat
            out["hand"] = [CARDS[c] for c in sorted(self.hands.get(seat, []))]
            out["last_word"] = self.last_word.get(seat)
            prev = self.previous_surface(seat)
            out["last_surface"] = prev if prev is not None and words.has_kanji(prev) else None
            out["lookup"] = plain(self.lookups.get(seat))
        return out

    def _table_view(self) -> dict:
        """The part of :meth:`view` every seat sees alike (the TV's whole game view): hands only
        as counts. It takes no seat, so no hand or lookup can be put into it."""
        vote = None
        if self.vote is not None:
            vote = {"id": self.vote_info["id"], "by": self.vote_info["by"], "seat": self.vote_info["seat"],
                    "chain": self.vote_info["chain"], **self.vote.view()}
        top = self._challengeable() if self.phase == "play" else None
        return {
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
                 "point_out_from": self.reach_grace_until(s),
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
            "pending_win": plain(self.pending_win),
            "race": plain(self.race),
            "events": plain(self.events),
            "winner": self.winner,
            "places": self.outcome()["places"] if self.phase == "over" else None,
        }

    def encode_field(self, name: str, value: Any) -> Any:
        """The table vote is held as a :class:`TableVote`; its snapshot is :meth:`TableVote.to_dict`."""
        if name == "vote":
            return value.to_dict() if value is not None else None
        return value

    @classmethod
    def decode_field(cls, name: str, data: Any) -> Any:
        """The inverse of :meth:`encode_field`."""
        if name == "vote":
            return TableVote.from_dict(data) if data else None
        return data

    @classmethod
    def migrate(cls, data: dict, version: int) -> dict:
        """Layout 1 → 2: ``one_card_at`` (the リーチ grace) is new; a game saved before it has no
        grace running (a missing リーチ may be pointed out at once, as it could then)."""
        if version < 2:
            data.setdefault("one_card_at", {})
        return data

    def _restored(self, rng: random.Random) -> None:
        """After :meth:`from_dict`: keep ``rng``, point ``last_event`` at the newest event, and give
        a vote from a snapshot written before votes carried their id the id it was opened with."""
        super()._restored(rng)
        self.last_event = self.events[-1] if self.events else None
        if self.vote is not None and not self.vote.id and self.vote_info:
            self.vote.id = self.vote_info["id"]

    def all_cards(self) -> list[int]:
        """Every card id in the deck, the basket and the hands (for the 60-card invariant)."""
        return list(self.deck) + [e["card"] for e in self.basket] + [c for h in self.hands.values() for c in h]

    # --- for the conformance suite and bots -------------------------------------------------

    def suggest(self, seat: str | None, rng: random.Random) -> list[dict]:
        """A few moves ``seat`` could make now, only those open in this :attr:`stage`
        (:data:`PHASES`); ``seat=None``: the host's overrule of an open vote.

        A player with cards plays known words from the noun list that fit
        (:func:`.word_basket_solver.plays`, declaring リーチ with the play that leaves one
        card), now and then a made-up word for the table to judge or a late play for the last
        field (a near-race); resets when nothing fits. Others challenge, vote, point out a
        missing リーチ or look a word up. Mostly legal; a game played from these ends within a few
        hundred moves.
        """
        if self.over:
            return []
        stage = PHASES[self.stage]
        if seat is None:
            if "overrule" not in stage.host_moves:
                return []
            return [{"type": "overrule", "vote": self.vote_info["id"], "outcome": rng.choice(BALLOTS)}]
        if seat not in self.players:
            return []
        hand = self.hands[seat]
        out: list[dict] = []
        if "vote" in stage.moves and seat in self.vote.voters:
            ballot = "accept" if rng.random() < 0.6 else "reject"
            out += [{"type": "vote", "vote": self.vote_info["id"], "ballot": ballot}] * 3
        if "reach" in stage.moves and len(hand) == 1 and not self.reach.get(seat):
            out += [{"type": "reach"}] * 3
        if "point_out" in stage.moves:
            out += [{"type": "point_out", "seat": other} for other in self.players
                    if other != seat and self._reach_missing(other) and rng.random() < 0.4]
        top = self._challengeable()
        if "challenge" in stage.moves and top is not None and top["seat"] != seat:
            out.append({"type": "challenge", "field": self.field["serial"]})
        if "play" in stage.moves and hand:
            plays = solver.plays(self, seat, rng)
            out += plays
            if not plays or rng.random() < 0.08:
                tops = [c for c in hand if not is_number(c)]
                out.append({"type": "reset", "field": self.field["serial"],
                            **({"top": rng.choice(tops)} if tops else {})})
        if self.last_play is not None and self.last_play["seat"] != seat and hand and rng.random() < 0.1:
            out.append(solver.race_play(self, seat, rng))
        if "lookup" in stage.moves and rng.random() < 0.05:
            out.append({"type": "lookup", "text": rng.choice(_LOOKUPS)})
        return out

    def redeal_hidden(self, seat: str | None, rng: random.Random) -> "WordBasket":
        """A copy in which everything ``seat`` may not know is dealt anew: the other players'
        hands (each keeps its size) and the deck (its size kept) are a fresh shuffle of the same
        cards, and the other seats' lookups hold other words. ``seat``'s own hand and lookup and
        everything on the table (the basket, the chain, the vote, counts) stay."""
        twin = type(self).from_dict(self.to_dict(), rng)
        others = [s for s in twin.players if s != seat]
        pool = [c for s in others for c in twin.hands[s]] + twin.deck
        rng.shuffle(pool)
        for s in others:
            size = len(twin.hands[s])
            twin.hands[s], pool = pool[:size], pool[size:]
            if s in twin.lookups:
                text = rng.choice(_LOOKUPS)
                twin.lookups[s] = {"n": twin.lookups[s]["n"], "text": text, "readings": words.lookup(text)[1]}
        twin.deck = pool
        return twin
