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
  for a phone that is away (host move ``next_round``), or hand an away captain's round on to the
  next seat (host move ``pass_captain``).
* *ours* (variant from the French reviews, research §3): ``rounds: "players"`` plays as many
  rounds as players instead of five.

The state machine of a round (declared in :data:`PHASES`, checked by ``tests/test_top_ten_pipeline.py``)::

    phase        open to players                       open to the host   ends when … → next phase
    ---------    ----------------------------------    ----------------   ------------------------------------
    choose       choose (captain)                      pass_captain       the captain chooses a theme, the
                                                                          numbers are dealt → answer
    answer       answer (answerers, captain first),    pass_captain       every answerer has answered, or the
                 close_answers (captain)                                  captain closes the answers → order
    order        pick, undo, confirm (captain);        pass_captain       all revealed → round_over (over after
                 answer (writing down an out-loud one)                    the last round); the last unicorn
                                                                          flips → over (lost, at once)
    round_over   next_round (the next captain);        next_round         the next card is drawn → choose
                 answer (writing down an out-loud one)
    over         —                                     —                  (the game has ended)

Every move names the round it was made for (``round``); the shared pipeline
(:class:`~partyhost.games.base.Game`) refuses a move for another round as ``stale`` before the
rules see it. Seams: the theme decks live in :mod:`.top_ten_themes`, what each seat may see (the
views and their test double :meth:`TopTen.redeal_hidden`) in :mod:`.top_ten_views`.

The class never reads a clock, never does I/O in a handler (the decks load in :meth:`prepare`)
and never uses the global ``random``: the engine hands in a ``random.Random``. It never imports
the registry (the registry imports it).
"""

from __future__ import annotations

import json
import random
import unicodedata
from dataclasses import dataclass
from typing import ClassVar

from . import schema, top_ten_coach, top_ten_views
from .base import Game, Move, RuleError, deck_lang, msg, seat_name
from .top_ten_themes import THEME_LANGS, THEMES_PER_CARD, card_themes, load_deck

__all__ = [
    "ANSWER_MAX", "CAPTAIN_ANSWERS_UP_TO", "MAX_TOKENS", "NUMBERS", "PHASES", "RATINGS", "ROUNDS",
    "THEME_LANGS", "Phase", "TopTen", "clean_answer", "load_deck", "rating_for", "tokens_for",
]  # fmt: skip

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

#: End-of-game ratings, best first (§fifth round).
RATINGS: tuple[str, ...] = ("perfect", "great", "fair", "lost")


@dataclass(frozen=True)
class Phase:
    """One phase of :data:`PHASES`: which moves are open in it and what ends it.

    Attributes:
        moves: the players' move types open in this phase (who may make each is the rules'
            business: the captain, an answerer…).
        host_moves: the host's move types open in this phase.
        ends: what ends the phase, in words.
        then: the phases that can follow it.
    """

    moves: tuple[str, ...]
    host_moves: tuple[str, ...]
    ends: str
    then: tuple[str, ...]


#: The phases of a round in play order (§theme, §reveal, §next round, §fifth round); see the
#: table in the module docstring. A move outside its phases is refused with :data:`NOT_NOW`.
PHASES: dict[str, Phase] = {
    "choose": Phase(("choose",), ("pass_captain",),
                    "the captain chooses a theme and the numbers are dealt", ("answer",)),
    "answer": Phase(("answer", "close_answers"), ("pass_captain",),
                    "every answerer has answered, or the captain closes the answers", ("order",)),
    "order": Phase(("pick", "undo", "confirm", "answer"), ("pass_captain",),
                   "every answerer is revealed (the last round: the game), or the last unicorn flips",
                   ("round_over", "over")),
    "round_over": Phase(("next_round", "answer"), ("next_round",),
                        "the next captain (or the host) draws the next card", ("choose",)),
    "over": Phase((), (), "the game has ended", ()),
}

#: The refusal of each move made outside the phases that open it.
NOT_NOW: dict[str, str] = {
    "choose": "tt_not_choosing",
    "answer": "tt_not_answering",
    "close_answers": "tt_not_answering",
    "pick": "tt_not_ordering",
    "undo": "tt_not_ordering",
    "confirm": "tt_not_ordering",
    "next_round": "tt_round_not_over",
    "pass_captain": "tt_cannot_pass",
}

_ROUND = {"type": "integer", "minimum": 1, "maximum": 99}
_SEAT = {"type": "string", "minLength": 1, "maxLength": 20}


def _move(kind: str, handler: str, **fields: dict) -> Move:
    """A Top Ten move: ``{"type": kind, "round", **fields}``, every field required, nothing else;
    made for another round it is ``stale``."""
    schema_ = {
        "type": "object",
        "properties": {"type": {"const": kind}, "round": _ROUND, **fields},
        "required": ["type", "round", *fields],
        "additionalProperties": False,
    }
    return Move(schema_, handler, stale=True)


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
    """Tokens at the start: one per player, at most :data:`MAX_TOKENS` (§setup)."""
    return min(players, MAX_TOKENS)


def rounds_for(option: str, players: int) -> int:
    """Rounds of a game by the ``rounds`` option: :data:`ROUNDS` (``"five"``) or one per player
    (``"players"``, so everyone is captain once)."""
    return ROUNDS if option == "five" else max(players, 1)


def clean_answer(text: str) -> str:
    """Tidy a typed answer: NFC, control/format characters dropped, runs of spaces folded, trimmed.

    Args:
        text: what the phone sent (at most 400 characters, the schema's limit).
    Returns:
        The answer as the TV shows it; ``""`` means "answered out loud".
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


#: A bot's answers (:meth:`TopTen.suggest`), whatever the theme: how loud is it, from 1 to 10.
#: A bot answerer says the one of its own number; a bot captain calls the quietest first.
_BOT_SCALE: tuple[str, ...] = (
    "ささやき", "ねこのあくび", "そよ風", "雨音", "拍手", "掃除機", "電車", "雷", "ジェット機", "火山の噴火",
)


class TopTen(Game):
    """Top Ten for 4–9 players (seeds/001_… ; RULES.md "Top Ten").

    A round goes through the phases of :data:`PHASES`: ``"choose"`` (the captain picks one of the
    card's four themes; the numbers are dealt), ``"answer"`` (the captain first when holding a
    number, then the others in any order), ``"order"`` (the captain picks, undoes or confirms;
    each confirm reveals a number), ``"round_over"`` (the next captain draws the next card), and
    at the end ``"over"`` with a :data:`RATINGS` rating.

    Moves (``MOVES``; ``ACTIONS`` holds the JSON Schema of each whole dict; every one carries
    ``round``, and one made for another round is refused ``stale`` with params ``round`` (sent)
    and ``current``):

    * ``{"type": "choose", "round", "theme": 0..3}`` — captain; 0,1 = side one, 2,3 = side two.
    * ``{"type": "answer", "round", "text": str}`` — an answerer; ``""`` = answered out loud.
    * ``{"type": "close_answers", "round"}`` — captain: everyone has spoken.
    * ``{"type": "pick", "round", "seat"}`` / ``{"type": "undo", "round"}`` /
      ``{"type": "confirm", "round", "seat"}`` — captain's ordering.
    * ``{"type": "next_round", "round"}`` — the next captain draws the next card.

    Host moves (``HOST_MOVES``, for a captain whose phone is away): ``next_round`` (the same
    move) and ``{"type": "pass_captain", "round"}``.

    Options (``OPTIONS``): ``first_captain`` (a seat id or ``"random"``), ``rounds``
    (``"five"`` | ``"players"``), ``themes`` (``"auto"`` | ``"ja"`` | ``"en"``: the deck's language; ``"auto"``, the default,
    is the table's language, :func:`~partyhost.games.base.table_lang`).

    Every refused action raises :class:`RuleError` and changes nothing; every success bumps
    ``version`` (the pipeline of :class:`~partyhost.games.base.Game`). Example::

        >>> g = TopTen(); g.setup(["s1", "s2", "s3", "s4"], {"first_captain": "s1"}, random.Random(1), 0.0)
        >>> g.apply("s1", {"type": "choose", "round": 1, "theme": 0}, 0.0)
        >>> g.phase, g.view("s2")["number"] in NUMBERS
        ('answer', True)
    """

    KEY: ClassVar[str] = "top_ten"
    MIN_PLAYERS: ClassVar[int] = 4
    MAX_PLAYERS: ClassVar[int] = 9
    OPTIONS: ClassVar[dict] = schema.options(
        first_captain={"type": "string", "minLength": 1, "maxLength": 20, "default": "random"},
        rounds={"enum": ["five", "players"], "default": "five"},
        themes={"enum": ["auto", *THEME_LANGS], "default": "auto"},
    )
    DECK_LANG: ClassVar[str | None] = "themes"
    STALE_FIELD: ClassVar[str] = "round"
    MOVES: ClassVar[dict[str, Move]] = {
        "choose": _move("choose", "_do_choose",
                        theme={"type": "integer", "minimum": 0, "maximum": THEMES_PER_CARD - 1}),
        "answer": _move("answer", "_do_answer", text={"type": "string", "maxLength": 400}),
        "close_answers": _move("close_answers", "_do_close_answers"),
        "pick": _move("pick", "_do_pick", seat=_SEAT),
        "undo": _move("undo", "_do_undo"),
        "confirm": _move("confirm", "_do_confirm", seat=_SEAT),
        "next_round": _move("next_round", "_do_next_round"),
    }
    HOST_MOVES: ClassVar[dict[str, Move]] = {
        "next_round": _move("next_round", "_host_next_round"),
        "pass_captain": _move("pass_captain", "_host_pass_captain"),
    }
    STATE_VERSION: ClassVar[int] = 1  # the layout saved before snapshots had versions
    FIELDS: ClassVar[tuple[str, ...]] = (
        "players", "rounds", "round", "phase", "tokens", "unicorns", "captain", "lang", "cards",
        "theme", "theme_index", "numbers", "undealt", "answerers", "answers", "answer_order",
        "pending", "reveals", "history", "rating", "last_event", "event_n", "version",
    )  # fmt: skip

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
                "themes": "auto" | "ja" | "en"}``, each optional (checked against ``OPTIONS``). A
                ``first_captain`` that is not playing falls back to a random captain.
            rng: the engine's ``random.Random``; kept for every shuffle.
            now: game-clock seconds (unused: the game has no clock).

        Raises:
            RuleError: ``"player_count"`` (``count``, ``min``, ``max``); ``"duplicate_seat"``;
                ``"bad_options"`` (``detail``); ``"tt_no_themes"`` (``lang``) when the deck has
                fewer cards than the game has rounds.
        """
        players = list(players)
        if not self.MIN_PLAYERS <= len(players) <= self.MAX_PLAYERS:
            raise RuleError("player_count", count=len(players), min=self.MIN_PLAYERS, max=self.MAX_PLAYERS)
        if len(set(players)) != len(players):
            raise RuleError("duplicate_seat")
        options = schema.check_options(type(self), options or {})
        rounds = rounds_for(options["rounds"], len(players))
        lang = deck_lang(options["themes"])  # "auto": the party gives the table's language
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
        first = options["first_captain"]
        self.captain = first if first in players else rng.choice(players)
        self._begin_round(1)
        self.version = 1

    # --- the engine interface ----------------------------------------------------------------


    @property
    def poops(self) -> int:
        """Tokens flipped to the poop side."""
        return self.tokens - self.unicorns

    def _do_leave(self, seat: str, now: float) -> None:
        """Remove a (kicked) player mid-game; no token changes. Not in the rulebook (RULES.md
        "General"): their number leaves face down, unrevealed; a captain who leaves passes the
        captaincy to the next seat (who keeps any number they hold); the round goes on, and ends
        if everyone left is revealed. A game of 9 continuing with 8 keeps its 8 tokens and follows
        the book's rule for 8 (§setup: the captain holds a number): still choosing, the captain
        will be dealt one; while answering, the captain takes one of the face-down numbers now
        and answers (the others' answers stand, nobody is blocked); while ordering, from the next
        round.

        Raises:
            RuleError: ``"game_over"``, ``"not_a_player"``, ``"cannot_continue"`` (fewer than 4
                would remain). Nothing changes when it raises.
        """
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
        if len(self.players) <= CAPTAIN_ANSWERS_UP_TO and self.captain not in self.answerers:
            # 9 → 8 players: the captain plays a number again, as the book gives for 4–8 (§setup)
            if self.phase == "choose":
                self.answerers = self._answerers()
            elif self.phase == "answer" and self.undealt:
                number = self._rng.choice(self.undealt)
                self.undealt.remove(number)
                self.numbers[self.captain] = number
                self.answerers = [s for s in self.players if s in self.answerers or s == self.captain]
        self._event("left", seat=seat, captain=self.captain)
        if not was_captain_choosing:
            if self.phase == "answer" and all(s in self.answers for s in self.answerers):
                self.phase = "order"
            elif self.phase == "order" and self._all_revealed():
                self._finish_round()

    # --- the players' moves (the pipeline has checked shape, game over, seat and round) ---------

    def _open(self, kind: str, host: bool = False) -> None:
        """Refuse ``kind`` (:data:`NOT_NOW`) unless the current phase opens it (:data:`PHASES`)."""
        phase = PHASES[self.phase]
        if kind not in (phase.host_moves if host else phase.moves):
            raise RuleError(NOT_NOW[kind])

    def _need_captain(self, seat: str) -> None:
        if seat != self.captain:
            raise RuleError("tt_not_captain")

    def _do_choose(self, seat: str, action: dict, now: float) -> None:
        """The captain picks one of the card's four themes; the numbers are dealt (§theme).

        Raises ``"tt_not_captain"``, ``"tt_not_choosing"``.
        """
        self._need_captain(seat)
        self._open("choose")
        index = action["theme"]
        self.theme = card_themes(self.cards[self.round - 1])[index]
        self.theme_index = index
        self._deal()
        self.phase = "answer"
        self._event("chosen", theme=dict(self.theme))

    def _do_answer(self, seat: str, action: dict, now: float) -> None:
        """An answerer gives their answer (§reveal): text for the TV, ``""`` = said out loud.

        The captain answers first when the captain holds a number. A written answer is final;
        an out-loud one may be written down once afterwards (phases ``"answer"``, ``"order"``,
        ``"round_over"``); a first answer only while answering.

        Raises ``"tt_no_number"`` (the 9-player captain), ``"tt_answer_too_long"`` (``max``),
        ``"tt_not_answering"``, ``"tt_already_answered"``, ``"tt_captain_first"`` (a captain with
        a number has not answered and nobody has yet).
        """
        if seat not in self.answerers:
            raise RuleError("tt_no_number")
        text = clean_answer(action["text"])
        self._open("answer")
        if seat in self.answers:
            if self.answers[seat] or not text:
                raise RuleError("tt_already_answered")
            self.answers[seat] = text
            self._event("answer_written", seat=seat)
            return
        if self.phase != "answer":
            raise RuleError("tt_not_answering")
        if (self.captain in self.answerers and seat != self.captain and self.captain not in self.answers
                and not self.answer_order):
            # §reveal: 親から発表 — the captain's answer opens the round; once answers are given (a
            # captain replaced after answering, or one dealt a number mid-round) the rest go on
            raise RuleError("tt_captain_first")
        self.answers[seat] = text
        self.answer_order.append(seat)
        self._event("answered", seat=seat)
        if all(s in self.answers for s in self.answerers):
            self.phase = "order"
            self._event("ordering", captain=self.captain)

    def _do_close_answers(self, seat: str, action: dict, now: float) -> None:
        """The captain: everyone has spoken; the rest count as answered out loud (*ours*).

        Raises ``"tt_not_captain"``, ``"tt_not_answering"``, ``"tt_captain_first"`` (a captain
        with a number has not answered yet).
        """
        self._need_captain(seat)
        self._open("close_answers")
        if self.captain in self.answerers and self.captain not in self.answers:
            raise RuleError("tt_captain_first")
        for s in self.answerers:
            if s not in self.answers:
                self.answers[s] = ""
                self.answer_order.append(s)
        self.phase = "order"
        self._event("ordering", captain=self.captain)

    def _do_pick(self, seat: str, action: dict, now: float) -> None:
        """The captain points at the player they think holds the lowest number left (§reveal).

        Raises ``"tt_not_captain"``, ``"tt_not_ordering"``, ``"tt_pick_pending"`` (undo or
        confirm the last pick first), ``"tt_not_answerer"``, ``"tt_already_revealed"``.
        """
        self._need_captain(seat)
        self._open("pick")
        if self.pending is not None:
            raise RuleError("tt_pick_pending")
        target = action["seat"]
        if target not in self.answerers:
            raise RuleError("tt_not_answerer")
        if any(r["seat"] == target for r in self.reveals):
            raise RuleError("tt_already_revealed")
        self.pending = target
        self._event("picked", seat=target)

    def _do_undo(self, seat: str, action: dict, now: float) -> None:
        """The captain takes back the last pick before it is confirmed.

        Raises ``"tt_not_captain"``, ``"tt_not_ordering"``, ``"tt_no_pick"``.
        """
        self._need_captain(seat)
        self._open("undo")
        if self.pending is None:
            raise RuleError("tt_no_pick")
        undone, self.pending = self.pending, None
        self._event("unpicked", seat=undone)

    def _do_confirm(self, seat: str, action: dict, now: float) -> None:
        """The captain confirms the pick: that number is revealed (§reveal).

        A number below the one revealed just before flips one unicorn to poop (only the previous
        reveal counts: 4, 2, 3 costs one token). No unicorn left: the game is lost at once.
        Otherwise, all revealed ends the round (the game after the last round).

        Raises ``"tt_not_captain"``, ``"tt_not_ordering"``, ``"tt_no_pick"``,
        ``"tt_pick_changed"`` (``seat`` is not the pending pick: a stale screen).
        """
        self._need_captain(seat)
        self._open("confirm")
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
            before = self.reveals[-2]
            self._keep("miss", before["number"] - number, round=self.round,
                       theme=(self.theme or {}).get("title", ""), seat=target, number=number,
                       answer=self.answers.get(target, ""), before_seat=before["seat"],
                       before_number=before["number"], before_answer=self.answers.get(before["seat"], ""))
        self._event("reveal", seat=target, number=number, mistake=mistake)
        if self.unicorns <= 0:
            self.unicorns = 0
            self._finish_round()
            self.phase = "over"
            self.rating = "lost"
            self._event("lost", seat=target, number=number)
        elif self._all_revealed():
            self._finish_round()

    def outcome(self) -> dict:
        """Cooperative: the table wins unless the unicorns ran out (rating ``"lost"``);
        ``detail`` has the rating, rounds played and unicorns left."""
        return {"coop": True, "won": self.rating != "lost", "places": [list(self.players)],
                "detail": {"rating": self.rating, "rounds": len(self.history), "unicorns": self.unicorns}}

    def highlights(self) -> list[dict]:
        """A perfect round (every number revealed in order; the first such round), and the
        widest miss: the biggest drop between two numbers revealed one after the other, with
        both players' answers (revealed on the TV with their numbers)."""
        out = []
        perfect = [h for h in self.history if h["mistakes"] == 0 and h["reveals"]]
        if perfect:
            h = perfect[0]
            out.append(msg("top_ten.hl.perfect", round=h["round"], count=len(h["reveals"]),
                           theme=(h["theme"] or {}).get("title", "")))
        miss = self.marks.get("miss")
        if miss is not None:
            out.append(msg("top_ten.hl.miss", gap=miss["score"], theme=miss["theme"], round=miss["round"],
                           seat=miss["seat"], number=miss["number"], answer=miss["answer"] or "—",
                           before_seat=miss["before_seat"], before_number=miss["before_number"],
                           before_answer=miss["before_answer"] or "—"))
        return out

    def _do_next_round(self, seat: str, action: dict, now: float) -> None:
        """The next round's captain draws the next card (§next round).

        Raises ``"tt_round_not_over"``, ``"tt_not_next_captain"``.
        """
        self._open("next_round")
        if seat != self._after(self.captain):
            raise RuleError("tt_not_next_captain")
        self._next_round()

    # --- the host's moves (for a captain whose phone is away; *ours*) -------------------------

    def _host_next_round(self, action: dict, now: float) -> None:
        """The host draws the next card for the next captain (§next round).

        Raises ``"tt_round_not_over"``.
        """
        self._open("next_round", host=True)
        self._next_round()

    def _host_pass_captain(self, action: dict, now: float) -> None:
        """The captain's phone is away: the next seat takes over this round's captaincy (without
        it the table could only go on by removing that player). The old captain keeps playing
        (any number they hold stays theirs), an unconfirmed pick is dropped, and the captaincy
        moves on from the new captain next round. While choosing, the answerers are counted
        again (with 9 players the new captain gets no number).

        Raises ``"tt_cannot_pass"`` between rounds (``next_round`` is the host's move there).
        """
        self._open("pass_captain", host=True)
        old, self.captain = self.captain, self._after(self.captain)
        self.pending = None
        if self.phase == "choose":
            self.answerers = self._answerers()
        self._event("captain_passed", seat=old, captain=self.captain)

    # --- internals ---------------------------------------------------------------------------

    def next_captain(self) -> str:
        """Who is captain after the current one: the next seat to the left (seating order,
        wrapping), who also draws the next round's card (§round). Changes nothing; for views
        and the coach."""
        return self._after(self.captain)

    def _after(self, seat: str | None) -> str:
        """The next seat to the left (next in seating order, wrapping)."""
        i = self.players.index(seat) if seat in self.players else -1
        return self.players[(i + 1) % len(self.players)]

    def _answerers(self) -> list[str]:
        """Who gets a number this round: everyone, but not the captain of 9 (§setup)."""
        captain_answers = len(self.players) <= CAPTAIN_ANSWERS_UP_TO
        return [s for s in self.players if captain_answers or s != self.captain]

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
        self.answerers = self._answerers()
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
        self.captain = self._after(self.captain)
        self._begin_round(self.round + 1)

    # --- views (what each seat may know: see top_ten_views) ------------------------------------

    # --- how to play: the rules in use ------------------------------------------------------------

    @classmethod
    def howto_facts(cls, options: dict, players: list[str]) -> list[dict]:
        """The rules in use for ``players`` with ``options`` (see :meth:`Game.howto_facts`): the
        tokens (:func:`tokens_for`; with 9 the captain holds no number), the rounds
        (:func:`rounds_for`), the first captain, the themes' language."""
        first = options.get("first_captain", "random")
        return cls._facts(len(players), rounds_for(options.get("rounds", "five"), len(players)),
                          first if first in players else None, deck_lang(options.get("themes")))

    def howto_facts_now(self, options: dict) -> list[dict]:
        """The rules in use of this game (its rounds; the first captain is no news any more)."""
        return self._facts(len(self.players), self.rounds, False, self.lang)

    @classmethod
    def howto_count_facts(cls, count: int, options: dict) -> list[dict]:
        """4–8 players: a token each (:func:`tokens_for`) and the captain answers too; 9: the
        captain holds no number (:data:`CAPTAIN_ANSWERS_UP_TO`) and :data:`MAX_TOKENS` tokens.
        See :meth:`Game.howto_count_facts`."""
        if count > CAPTAIN_ANSWERS_UP_TO:
            return [msg("top_ten.howto.v.nine", tokens=tokens_for(count))]
        if tokens_for(count) == count:
            return [msg("top_ten.howto.c.tokens_each")]
        return [msg("top_ten.howto.v.tokens", count=tokens_for(count))]

    @classmethod
    def _facts(cls, count: int, rounds: int, first: str | None | bool, lang: str) -> list[dict]:
        out = []
        if count > CAPTAIN_ANSWERS_UP_TO:
            out.append(msg("top_ten.howto.v.nine", tokens=tokens_for(count)))
        elif count >= cls.MIN_PLAYERS:
            out.append(msg("top_ten.howto.v.tokens", count=tokens_for(count)))
        out.append(msg("top_ten.howto.v.rounds", rounds=rounds))
        if first:
            out.append(msg("top_ten.howto.v.first", name=seat_name(first)))
        elif first is None:
            out.append(msg("top_ten.howto.v.first_random"))
        out.append(msg("top_ten.howto.v.themes", lang={"key": f"top_ten.opt.lang.{lang}"}))
        return out

    def guide(self, seat: str | None) -> dict:
        """What ``seat`` can do now (see :mod:`partyhost.games.top_ten_coach`)."""
        return top_ten_coach.guide(self, seat)

    def coach_strip(self) -> dict | None:
        """The first-round coach (see :mod:`partyhost.games.top_ten_coach`)."""
        return top_ten_coach.strip(self)

    def coach_tip(self, seat: str) -> dict | None:
        """The first-round coach (see :mod:`partyhost.games.top_ten_coach`)."""
        return top_ten_coach.tip(self, seat)

    def view(self, seat: str | None) -> dict:
        """What ``seat`` may know, JSON-ready; ``None`` is the table (TV and spectators).
        Shape and privacy: :func:`partyhost.games.top_ten_views.view`."""
        return top_ten_views.view(self, seat)

    # --- for the conformance suite and bots -------------------------------------------------

    def suggest(self, seat: str | None, rng: random.Random) -> list[dict]:
        """A few moves ``seat`` could sensibly make now, mostly legal (``seat=None``: the host's).

        Bots play the game as people do, from what the seat may know: an answerer says how loud
        its own number is (:data:`_BOT_SCALE`; sometimes out loud, that is ``""``, and writes it
        down later); the captain chooses a random theme, answers first, sometimes closes the
        answers, calls the quietest answer left (an out-loud one at a guess, now and then anyone)
        and confirms (sometimes undoes) the call; the next captain or the host draws the next
        card. Now and then the host passes the captaincy on, a player answers before the captain
        (refused ``tt_captain_first``) or tries any move out of turn (mostly refused).
        """
        if self.over:
            return []
        r = self.round
        if seat is None:
            if self.phase == "round_over":
                return [{"type": "next_round", "round": r}]
            return [{"type": "pass_captain", "round": r}] if rng.random() < 0.05 else []
        if seat not in self.players:
            return []
        out: list[dict] = []
        captain = seat == self.captain
        said = _BOT_SCALE[self.numbers[seat] - 1] if seat in self.numbers else ""
        if self.phase == "choose" and captain:
            out.append({"type": "choose", "round": r, "theme": rng.randrange(THEMES_PER_CARD)})
        elif self.phase == "answer":
            waiting = self.captain in self.answerers and self.captain not in self.answers
            if seat in self.answerers and seat not in self.answers and (
                    captain or not waiting or rng.random() < 0.1):
                out.append({"type": "answer", "round": r, "text": said if rng.random() < 0.8 else ""})
            if captain and not waiting and rng.random() < 0.3:
                out.append({"type": "close_answers", "round": r})
        elif self.phase == "order" and captain:
            if self.pending is not None:
                out += [{"type": "confirm", "round": r, "seat": self.pending}] * 4
                out.append({"type": "undo", "round": r})
            else:
                shown = {x["seat"] for x in self.reveals}
                left = [s for s in self.answerers if s not in shown]
                loudness = {s: _BOT_SCALE.index(a) if a in _BOT_SCALE else rng.uniform(0, 9)
                            for s, a in self.answers.items()}
                quietest = min(left, key=lambda s: loudness.get(s, 5))
                guess = quietest if rng.random() < 0.9 else rng.choice(left)
                out.append({"type": "pick", "round": r, "seat": guess})
        elif self.phase == "round_over" and seat == self._after(self.captain):
            out.append({"type": "next_round", "round": r})
        if self.answers.get(seat) == "" and said and rng.random() < 0.2:
            out.append({"type": "answer", "round": r, "text": said})
        if rng.random() < 0.05:  # out of turn: any move, which the rules mostly refuse
            kind = rng.choice(sorted(self.MOVES))
            fields = {"theme": rng.randrange(THEMES_PER_CARD), "text": rng.choice(_BOT_SCALE),
                      "seat": rng.choice(self.players)}
            out.append({"type": kind, "round": r,
                        **{k: v for k, v in fields.items() if k in self.MOVES[kind].schema["required"]}})
        return out

    def redeal_hidden(self, seat: str | None, rng: random.Random) -> "TopTen":
        """A copy in which everything ``seat`` may not know is dealt anew: the unrevealed
        numbers of the other players (the captain's too, for anyone else) and the undealt ones,
        the cards of later rounds (drawn again from the rest of the deck) and, while the captain
        is choosing, this round's card for anyone but the captain. Everything revealed stays.
        Details: :func:`partyhost.games.top_ten_views.redeal_hidden`."""
        return top_ten_views.redeal_hidden(self, seat, rng, load_deck(self.lang))
