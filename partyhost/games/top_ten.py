"""Top Ten (トップテン): pure rules of the cooperative "say how strong your secret number is" game.

Sources. The rulebook ``shared/seeds/001_f9c04369d21a052b.txt`` is the law; ``shared/RULES.md``
section "Top Ten" settles what it leaves open for phones. Rulebook sections are cited by their
headings in the seed file:

* §intro (数字を言わずに強さを伝えよう): one team; five rounds; a mistake flips a unicorn to
  poop; all flipped loses at once; no individual score. The expert variant (exact numbers,
  上級ルール) is named and explicitly *not* played, so this module has none.
* §setup (準備と人数による違い): tokens = players for 4–8, all unicorn side up; the first captain
  (親) is chosen by the table; the captain moves to the left each round; 9 players: 8 tokens, the
  captain gets no number and gives no answer.
* §theme (お題を決めて…): the captain draws a card, picks one of its themes (two per side) and
  reads both poles; the ten numbers are shuffled face down and one dealt to each answerer; the
  numbers not dealt stay face down, nobody looks (so no view ever holds them).
* §reveal (親から発表し…): the captain answers first (4–8), the others in any order; an answer
  may be repeated but not changed; then the captain alone names players lowest-first, each named
  number is revealed; a number below the one revealed *just before* flips one token (4, 2, 3
  costs one); the round goes on after a mistake unless every token is poop (lost at once).
* §next round / §fifth round: all ten numbers are reshuffled, the tokens stay; after round 5:
  all unicorns perfect, unicorns ≥ poops great, poops > unicorns fair, all poop lost.

How a phone stands in for the table (RULES.md "Top Ten" and our own choices, marked *ours*):

* Each phone may type its answer for the TV; speaking it remains the game, so an empty answer
  means "answered out loud". An empty answer may be filled in once later (the same answer written
  down, not a change); a written answer is final (§reveal: no changing).
* *ours*: the captain may close the answers ("everyone has spoken") once they have answered
  themselves; players who did not tap count as having answered out loud.
* *ours*: the captain's pick is two taps, so a slip can be undone: ``pick`` (shown on the TV as the
  captain pointing), then ``undo`` or ``confirm`` (the reveal).
* *ours*: the captain of the *next* round draws the next card (``next_round``); the host may do it
  for a phone that is away (host action ``next_round``).
* *ours* (variant from the French reviews, research §3): ``rounds: "players"`` plays as many
  rounds as players instead of five.

Seams: the theme decks live in :mod:`.top_ten_themes`, what each seat may see (the views) in
:mod:`.top_ten_views`.

The class never reads a clock, never does I/O in a handler (the decks load in :meth:`prepare`)
and never uses the global ``random``: the engine hands in a ``random.Random``.
"""

from __future__ import annotations

import json
import random
import unicodedata
from typing import Any, ClassVar

from . import top_ten_views
from .base import Game, RuleError
from .top_ten_themes import THEME_LANGS, card_themes, load_deck

# --- rules as data ---------------------------------------------------------------------------

#: The ten number cards (§setup).
NUMBERS: tuple[int, ...] = tuple(range(1, 11))

#: Tokens never exceed the eight in the box (§setup: 9 players use 8).
MAX_TOKENS = 8

#: Rounds of the basic game (§intro, §fifth round).
ROUNDS = 5

#: Above this many players the captain gets no number and gives no answer (§setup).
CAPTAIN_ANSWERS_UP_TO = 8

#: Longest typed answer (characters after clean-up); our own limit so it fits the TV.
ANSWER_MAX = 60

RATINGS: tuple[str, ...] = ("perfect", "great", "fair", "lost")
PHASES: tuple[str, ...] = ("choose", "answer", "order", "round_over", "over")

_ROUND = {"type": "integer", "minimum": 1, "maximum": 99}
_SEAT = {"type": "string", "minLength": 1, "maxLength": 20}


def _action_schema(kind: str, **props: dict) -> dict:
    return {
        "type": "object",
        "properties": {"type": {"const": kind}, **props},
        "required": ["type", *props],
        "additionalProperties": False,
    }


def rating_for(unicorns: int, poops: int) -> str:
    """The end-of-game rating (§fifth round).

    Args:
        unicorns: tokens still unicorn side up (≥ 0).
        poops: tokens flipped to poop (≥ 0).
    Returns:
        ``"lost"`` when no unicorn is left, ``"perfect"`` when no token flipped, ``"great"`` when
        unicorns ≥ poops, else ``"fair"``.

    >>> [rating_for(5, 0), rating_for(3, 2), rating_for(2, 2), rating_for(1, 4), rating_for(0, 5)]
    ['perfect', 'great', 'great', 'fair', 'lost']
    """
    if unicorns <= 0:
        return "lost"
    if poops <= 0:
        return "perfect"
    return "great" if unicorns >= poops else "fair"


def tokens_for(players: int) -> int:
    """Tokens at the start: one per player, at most 8 (§setup)."""
    return min(players, MAX_TOKENS)


def clean_answer(text: str) -> str:
    """Tidy a typed answer: NFC, control/format characters dropped, runs of spaces folded, trimmed.

    Raises:
        RuleError: ``"tt_answer_too_long"`` (``max``) when longer than :data:`ANSWER_MAX`.
    """
    text = unicodedata.normalize("NFC", text)
    text = "".join(" " if ch.isspace() else ch for ch in text
                   if ch.isspace() or unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co"))
    text = " ".join(text.split())
    if len(text) > ANSWER_MAX:
        raise RuleError("tt_answer_too_long", max=ANSWER_MAX)
    return text


class TopTen(Game):
    """Top Ten for 4–9 players (seeds/001_… ; RULES.md "Top Ten").

    Life cycle of a round (``phase``):

    * ``"choose"`` — the captain's phone shows the card's four themes; ``choose`` picks one and
      deals the numbers.
    * ``"answer"`` — answerers (everyone; with 9 players everyone but the captain) answer; the
      captain first when the captain answers. All answered (or ``close_answers``) → ``"order"``.
    * ``"order"`` — the captain ``pick``s a player, then ``undo``es or ``confirm``s; a confirm
      reveals that number. All revealed → ``"round_over"`` (or ``"over"`` after the last round);
      every token poop → ``"over"`` at once, rating ``"lost"``.
    * ``"round_over"`` — the next captain's ``next_round`` draws the next card.

    Actions (``ACTIONS`` holds the JSON Schema of each whole dict; every action names the round it
    was made for, and one for another round is refused as ``"tt_stale_round"``):

    * ``{"type": "choose", "round", "theme": 0..3}`` — captain; 0,1 = side one, 2,3 = side two.
    * ``{"type": "answer", "round", "text": str}`` — an answerer; ``""`` = answered out loud.
    * ``{"type": "close_answers", "round"}`` — captain: everyone has spoken.
    * ``{"type": "pick", "round", "seat"}`` / ``{"type": "undo", "round"}`` /
      ``{"type": "confirm", "round", "seat"}`` — captain's ordering.
    * ``{"type": "next_round", "round"}`` — the next captain draws the next card.

    Options (``OPTIONS``): ``first_captain`` (a seat id or ``"random"``), ``rounds``
    (``"five"`` | ``"players"``), ``themes`` (``"ja"`` | ``"en"``: the deck's language).

    Every refused action raises :class:`RuleError` and changes nothing; every success bumps
    ``version``.
    """

    KEY: ClassVar[str] = "top_ten"
    SCRIPT: ClassVar[str] = "js/top_ten.js"
    STYLE: ClassVar[str] = "css/top_ten.css"
    MIN_PLAYERS: ClassVar[int] = 4
    MAX_PLAYERS: ClassVar[int] = 9
    OPTIONS: ClassVar[dict] = {
        "type": "object",
        "properties": {
            "first_captain": {"type": "string", "minLength": 1, "maxLength": 20, "default": "random"},
            "rounds": {"enum": ["five", "players"], "default": "five"},
            "themes": {"enum": list(THEME_LANGS), "default": "ja"},
        },
        "additionalProperties": False,
    }
    ACTIONS: ClassVar[dict[str, dict]] = {
        "choose": _action_schema("choose", round=_ROUND, theme={"type": "integer", "minimum": 0, "maximum": 3}),
        "answer": _action_schema("answer", round=_ROUND, text={"type": "string", "maxLength": 400}),
        "close_answers": _action_schema("close_answers", round=_ROUND),
        "pick": _action_schema("pick", round=_ROUND, seat=_SEAT),
        "undo": _action_schema("undo", round=_ROUND),
        "confirm": _action_schema("confirm", round=_ROUND, seat=_SEAT),
        "next_round": _action_schema("next_round", round=_ROUND),
    }
    HOST_ACTIONS: ClassVar[dict[str, dict]] = {
        "next_round": _action_schema("next_round", round=_ROUND),
        "pass_captain": _action_schema("pass_captain", round=_ROUND),
    }

    def __init__(self) -> None:
        """An empty game; call :meth:`setup` (or use :meth:`from_dict`) before anything else."""
        self._rng: random.Random | None = None
        self._reset()

    def _reset(self) -> None:
        self.players: list[str] = []
        self.rounds = ROUNDS
        self.round = 0
        self.phase = "choose"
        self.tokens = 0
        self.unicorns = 0
        self.captain: str | None = None
        self.lang = "ja"
        self.cards: list[dict] = []  # the cards drawn for this game, one per round (secret until drawn)
        self.theme: dict | None = None  # the chosen theme of this round
        self.theme_index: int | None = None
        self.numbers: dict[str, int] = {}  # answerer -> number (each secret to its holder until revealed)
        self.undealt: list[int] = []  # numbers nobody got this round (never shown to anyone)
        self.answerers: list[str] = []  # seats with a number this round, seating order
        self.answers: dict[str, str] = {}  # answerer -> typed text ("" = out loud)
        self.answer_order: list[str] = []
        self.pending: str | None = None  # the captain's pick, not yet confirmed
        self.reveals: list[dict] = []  # {"seat", "number", "mistake"} in reveal order
        self.history: list[dict] = []  # finished rounds
        self.rating: str | None = None
        self.last_event: dict | None = None
        self.event_n = 0
        self.version = 0

    # --- set-up ------------------------------------------------------------------------------

    @classmethod
    def prepare(cls) -> None:
        """Load both theme decks once, at server start."""
        for lang in THEME_LANGS:
            load_deck(lang)

    def setup(self, players: list[str], options: dict, rng: random.Random, now: float) -> None:
        """Start a game and draw round 1's card (§setup; RULES.md "Top Ten").

        Args:
            players: 4–9 distinct seat ids in seating order (the captain moves to the next one
                each round, wrapping around).
            options: ``{"first_captain": seat | "random", "rounds": "five" | "players",
                "themes": "ja" | "en"}``, each optional. A ``first_captain`` that is not playing
                falls back to a random captain.
            rng: the engine's ``random.Random``; kept for every shuffle.
            now: game-clock seconds (unused: the game has no clock).

        Raises:
            RuleError: ``"player_count"`` (``count``, ``min``, ``max``); ``"duplicate_seat"``;
                ``"bad_options"``; ``"tt_no_themes"`` (``lang``) when the deck has fewer cards
                than the game has rounds.
        """
        players = list(players)
        if not self.MIN_PLAYERS <= len(players) <= self.MAX_PLAYERS:
            raise RuleError("player_count", count=len(players), min=self.MIN_PLAYERS, max=self.MAX_PLAYERS)
        if len(set(players)) != len(players):
            raise RuleError("duplicate_seat")
        options = dict(options or {})
        props = self.OPTIONS["properties"]
        if set(options) - set(props):
            raise RuleError("bad_options", detail="unknown option")
        first = options.get("first_captain", "random")
        rounds_opt = options.get("rounds", "five")
        lang = options.get("themes", "ja")
        if not isinstance(first, str) or rounds_opt not in props["rounds"]["enum"] or lang not in THEME_LANGS:
            raise RuleError("bad_options", detail="value")
        rounds = ROUNDS if rounds_opt == "five" else len(players)
        deck = list(load_deck(lang))
        if len(deck) < rounds:
            raise RuleError("tt_no_themes", lang=lang)
        self._reset()
        self._rng = rng
        self.players = players
        self.rounds = rounds
        self.lang = lang
        self.tokens = tokens_for(len(players))
        self.unicorns = self.tokens
        rng.shuffle(deck)
        self.cards = [json.loads(json.dumps(c)) for c in deck[:rounds]]
        self.captain = first if first in players else rng.choice(players)
        self._begin_round(1)
        self.version = 1

    # --- the engine interface ----------------------------------------------------------------

    @property
    def over(self) -> bool:
        """True once the game has ended (after the last round, or lost)."""
        return self.phase == "over"

    @property
    def poops(self) -> int:
        """Tokens flipped to the poop side."""
        return self.tokens - self.unicorns

    def apply(self, seat: str, action: dict, now: float) -> None:
        """Apply one action of ``seat`` (already checked against ``ACTIONS`` by the engine; it is
        checked again here so the class is safe on its own).

        Checks, in order: the shape (``"bad_action"``), ``"game_over"``, ``"not_a_player"``,
        ``"tt_stale_round"`` (``round``, ``current``), then the action's own rules (see the
        ``_do_*`` methods). Nothing changes when it raises.
        """
        kind = self._check_shape(action, self.ACTIONS)
        if self.over:
            raise RuleError("game_over")
        if seat not in self.players:
            raise RuleError("not_a_player")
        self._check_round(action)
        getattr(self, "_do_" + kind)(seat, action)
        self.version += 1

    def host_apply(self, action: dict, now: float) -> None:
        """The host's moves for a captain whose phone is away (*ours*): ``next_round`` draws the
        next card; ``pass_captain`` hands this round's captaincy to the next seat (see
        :meth:`_pass_captain`).

        Raises:
            RuleError: ``"bad_action"``, ``"game_over"``, ``"tt_stale_round"``,
                ``"tt_round_not_over"``, ``"tt_cannot_pass"``.
        """
        kind = self._check_shape(action, self.HOST_ACTIONS)
        if self.over:
            raise RuleError("game_over")
        self._check_round(action)
        if kind == "pass_captain":
            self._pass_captain()
        else:
            self._next_round()
        self.version += 1

    def _pass_captain(self) -> None:
        """The captain's phone is away: the next seat takes over this round's captaincy (*ours*;
        without it the table could only go on by removing that player). The old captain keeps
        playing (any number they hold stays theirs), an unconfirmed pick is dropped, and the
        captaincy moves on from the new captain next round. While choosing, the answerers are
        counted again (with 9 players the new captain gets no number).

        Raises ``"tt_cannot_pass"`` between rounds (``next_round`` is the host's move there).
        """
        if self.phase not in ("choose", "answer", "order"):
            raise RuleError("tt_cannot_pass")
        old, self.captain = self.captain, self._after(self.captain)
        self.pending = None
        if self.phase == "choose":
            captain_answers = len(self.players) <= CAPTAIN_ANSWERS_UP_TO
            self.answerers = [s for s in self.players if captain_answers or s != self.captain]
        self._event("captain_passed", seat=old, captain=self.captain)

    def leave(self, seat: str, now: float) -> None:
        """Remove a (kicked) player mid-game; no token changes. Not in the rulebook (RULES.md
        "General"): their number leaves face down, unrevealed; a captain who leaves passes the
        captaincy to the next seat (who keeps any number they hold); the round goes on, and ends
        if everyone left is revealed. A game of 9 continuing with 8 keeps its 8 tokens; from the
        next round the captain answers again.

        Raises:
            RuleError: ``"game_over"``, ``"not_a_player"``, ``"cannot_continue"`` (fewer than 4
                would remain). Nothing changes when it raises.
        """
        if self.over:
            raise RuleError("game_over")
        if seat not in self.players:
            raise RuleError("not_a_player")
        if len(self.players) - 1 < self.MIN_PLAYERS:
            raise RuleError("cannot_continue")
        if self.captain == seat:
            if self.phase == "round_over":
                # the round is done: keep the seat before, so the next captain is still the next
                i = self.players.index(seat)
                self.captain = self.players[i - 1]
            else:
                self.captain = self._after(seat)
            self.pending = None
        was_captain_choosing = self.phase == "choose"
        self.players.remove(seat)
        self.numbers.pop(seat, None)
        if seat in self.answerers:
            self.answerers.remove(seat)
        self.answers.pop(seat, None)
        if seat in self.answer_order:
            self.answer_order.remove(seat)
        if self.pending == seat:
            self.pending = None
        self._event("left", seat=seat, captain=self.captain)
        if not was_captain_choosing:
            if self.phase == "answer" and all(s in self.answers for s in self.answerers):
                self.phase = "order"
            elif self.phase == "order" and self._all_revealed():
                self._finish_round()
        self.version += 1

    # --- actions -----------------------------------------------------------------------------

    @staticmethod
    def _check_shape(action: object, schemas: dict) -> str:
        from .registry import check_action  # late import: the registry imports this module

        if not isinstance(action, dict) or action.get("type") not in schemas:
            raise RuleError("bad_action")
        try:
            check_action(TopTen, action, host=schemas is TopTen.HOST_ACTIONS)
        except RuleError:
            raise RuleError("bad_action", type=str(action.get("type"))) from None
        return action["type"]

    def _check_round(self, action: dict) -> None:
        if action["round"] != self.round:
            raise RuleError("tt_stale_round", round=action["round"], current=self.round)

    def _need_captain(self, seat: str) -> None:
        if seat != self.captain:
            raise RuleError("tt_not_captain")

    def _do_choose(self, seat: str, action: dict) -> None:
        """The captain picks one of the card's four themes; the numbers are dealt (§theme).

        Raises ``"tt_not_captain"``, ``"tt_not_choosing"``.
        """
        self._need_captain(seat)
        if self.phase != "choose":
            raise RuleError("tt_not_choosing")
        index = int(action["theme"])
        self.theme = card_themes(self.cards[self.round - 1])[index]
        self.theme_index = index
        self._deal()
        self.phase = "answer"
        self._event("chosen", theme=dict(self.theme))

    def _do_answer(self, seat: str, action: dict) -> None:
        """An answerer gives their answer (§reveal): text for the TV, ``""`` = said out loud.

        The captain answers first when the captain holds a number. A written answer is final;
        an out-loud one may be written down once afterwards (in any phase of the round).

        Raises ``"tt_no_number"`` (the 9-player captain), ``"tt_not_answering"``,
        ``"tt_captain_first"``, ``"tt_already_answered"``, ``"tt_answer_too_long"`` (``max``).
        """
        if seat not in self.answerers:
            raise RuleError("tt_no_number")
        text = clean_answer(action["text"])
        if seat in self.answers:
            if self.answers[seat] or not text or self.phase not in ("answer", "order", "round_over"):
                raise RuleError("tt_already_answered")
            self.answers[seat] = text
            self._event("answer_written", seat=seat)
            return
        if self.phase != "answer":
            raise RuleError("tt_not_answering")
        if self.captain in self.answerers and seat != self.captain and self.captain not in self.answers:
            raise RuleError("tt_captain_first")
        self.answers[seat] = text
        self.answer_order.append(seat)
        self._event("answered", seat=seat)
        if all(s in self.answers for s in self.answerers):
            self.phase = "order"
            self._event("ordering", captain=self.captain)

    def _do_close_answers(self, seat: str, action: dict) -> None:
        """The captain: everyone has spoken; the rest count as answered out loud (*ours*).

        Raises ``"tt_not_captain"``, ``"tt_not_answering"``, ``"tt_captain_first"`` (a captain
        with a number has not answered yet).
        """
        self._need_captain(seat)
        if self.phase != "answer":
            raise RuleError("tt_not_answering")
        if self.captain in self.answerers and self.captain not in self.answers:
            raise RuleError("tt_captain_first")
        for s in self.answerers:
            if s not in self.answers:
                self.answers[s] = ""
                self.answer_order.append(s)
        self.phase = "order"
        self._event("ordering", captain=self.captain)

    def _check_pickable(self, target: str) -> None:
        if target not in self.answerers:
            raise RuleError("tt_not_answerer")
        if any(r["seat"] == target for r in self.reveals):
            raise RuleError("tt_already_revealed")

    def _do_pick(self, seat: str, action: dict) -> None:
        """The captain points at the player they think holds the lowest number left (§reveal).

        Raises ``"tt_not_captain"``, ``"tt_not_ordering"``, ``"tt_pick_pending"`` (undo or
        confirm the last pick first), ``"tt_not_answerer"``, ``"tt_already_revealed"``.
        """
        self._need_captain(seat)
        if self.phase != "order":
            raise RuleError("tt_not_ordering")
        if self.pending is not None:
            raise RuleError("tt_pick_pending")
        self._check_pickable(action["seat"])
        self.pending = action["seat"]
        self._event("picked", seat=self.pending)

    def _do_undo(self, seat: str, action: dict) -> None:
        """The captain takes back the last pick before it is confirmed.

        Raises ``"tt_not_captain"``, ``"tt_not_ordering"``, ``"tt_no_pick"``.
        """
        self._need_captain(seat)
        if self.phase != "order":
            raise RuleError("tt_not_ordering")
        if self.pending is None:
            raise RuleError("tt_no_pick")
        undone, self.pending = self.pending, None
        self._event("unpicked", seat=undone)

    def _do_confirm(self, seat: str, action: dict) -> None:
        """The captain confirms the pick: that number is revealed (§reveal).

        A number below the one revealed just before flips one unicorn to poop (only the previous
        reveal counts: 4, 2, 3 costs one token). No unicorn left: the game is lost at once.
        Otherwise, all revealed ends the round (the game after the last round).

        Raises ``"tt_not_captain"``, ``"tt_not_ordering"``, ``"tt_no_pick"``,
        ``"tt_pick_changed"`` (``seat`` is not the pending pick: a stale screen).
        """
        self._need_captain(seat)
        if self.phase != "order":
            raise RuleError("tt_not_ordering")
        if self.pending is None:
            raise RuleError("tt_no_pick")
        if action["seat"] != self.pending:
            raise RuleError("tt_pick_changed")
        target, self.pending = self.pending, None
        number = self.numbers[target]
        mistake = bool(self.reveals) and number < self.reveals[-1]["number"]
        self.reveals.append({"seat": target, "number": number, "mistake": mistake})
        if mistake:
            self.unicorns -= 1
        self._event("reveal", seat=target, number=number, mistake=mistake)
        if self.unicorns <= 0:
            self.unicorns = 0
            self._finish_round()
            self.phase = "over"
            self.rating = "lost"
            self._event("lost", seat=target, number=number)
        elif self._all_revealed():
            self._finish_round()

    def _do_next_round(self, seat: str, action: dict) -> None:
        """The next round's captain draws the next card (§next round).

        Raises ``"tt_round_not_over"``, ``"tt_not_next_captain"``.
        """
        if self.phase != "round_over":
            raise RuleError("tt_round_not_over")
        if seat != self._after(self.captain):
            raise RuleError("tt_not_next_captain")
        self._next_round()

    # --- internals ---------------------------------------------------------------------------

    def _after(self, seat: str | None) -> str:
        """The next seat to the left (next in seating order, wrapping)."""
        i = self.players.index(seat) if seat in self.players else -1
        return self.players[(i + 1) % len(self.players)]

    def _all_revealed(self) -> bool:
        shown = {r["seat"] for r in self.reveals}
        return all(s in shown for s in self.answerers)

    def _begin_round(self, number: int) -> None:
        self.round = number
        self.phase = "choose"
        self.theme = None
        self.theme_index = None
        self.numbers = {}
        self.undealt = []
        self.answers = {}
        self.answer_order = []
        self.pending = None
        self.reveals = []
        captain_answers = len(self.players) <= CAPTAIN_ANSWERS_UP_TO
        self.answerers = [s for s in self.players if captain_answers or s != self.captain]
        self._event("round", round=number, captain=self.captain)

    def _deal(self) -> None:
        """Shuffle 1–10 and deal one to each answerer; the rest stay face down (§theme)."""
        deck = list(NUMBERS)
        self._rng.shuffle(deck)
        self.numbers = {s: deck[i] for i, s in enumerate(self.answerers)}
        self.undealt = sorted(deck[len(self.answerers):])

    def _finish_round(self) -> None:
        """Record the round; after the last round the game ends with its rating (§fifth round)."""
        self.history.append({
            "round": self.round,
            "captain": self.captain,
            "theme": dict(self.theme) if self.theme else None,
            "reveals": [dict(r) for r in self.reveals],
            "mistakes": sum(1 for r in self.reveals if r["mistake"]),
        })
        if self.round >= self.rounds:
            self.phase = "over"
            self.rating = rating_for(self.unicorns, self.poops)
            self._event("over", rating=self.rating)
        else:
            self.phase = "round_over"
            self._event("round_over", round=self.round)

    def _next_round(self) -> None:
        if self.phase != "round_over":
            raise RuleError("tt_round_not_over")
        self.captain = self._after(self.captain)
        self._begin_round(self.round + 1)

    def _event(self, kind: str, **fields: Any) -> None:
        self.event_n += 1
        self.last_event = {"n": self.event_n, "kind": kind, **fields}

    # --- views and snapshots -----------------------------------------------------------------

    def view(self, seat: str | None) -> dict:
        """What ``seat`` may know, JSON-ready; ``None`` is the table (TV and spectators).
        Shape and privacy: :func:`partyhost.games.top_ten_views.view`."""
        return top_ten_views.view(self, seat)

    _FIELDS: ClassVar[tuple[str, ...]] = (
        "players", "rounds", "round", "phase", "tokens", "unicorns", "captain", "lang", "cards",
        "theme", "theme_index", "numbers", "undealt", "answerers", "answers", "answer_order",
        "pending", "reveals", "history", "rating", "last_event", "event_n", "version",
    )  # fmt: skip

    def to_dict(self) -> dict:
        """Full JSON-ready snapshot (every number, the undealt ones and the drawn cards included)."""
        return {"game": self.KEY, **json.loads(json.dumps({f: getattr(self, f) for f in self._FIELDS}))}

    @classmethod
    def from_dict(cls, data: dict, rng: random.Random) -> "TopTen":
        """Rebuild a game from :meth:`to_dict` output; ``rng`` is used for later deals."""
        game = cls()
        copy = json.loads(json.dumps(data))
        for f in cls._FIELDS:
            setattr(game, f, copy[f])
        game._rng = rng
        return game
