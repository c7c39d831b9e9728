"""The one small interface every game implements (see ``../shared/DESIGN.md``).

A game is pure rules: no Flask, no sockets, no clock and no randomness of its own. The engine
owns the clock and the ``random.Random``; it hands ``now`` (seconds on the server's game clock,
a float that only moves forward and stands still while the host has paused) and ``rng`` in.

Seats are opaque strings (``"s1"``, ``"s2"`` …) chosen by the party; a game never sees names,
tokens or sockets.
"""

from __future__ import annotations

import contextlib
import functools
import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, ClassVar, Iterator, TypeVar

from . import schema

T = TypeVar("T")


class RuleError(Exception):
    """An action the rules refuse. State is unchanged when it is raised.

    Args:
        code: a stable machine-readable code such as ``"card_gone"``; the UI catalogues hold
            ``err.<code>`` in Japanese and English, formatted with ``params``.
        **params: values for the message template (numbers, kana, names of cards; never secrets
            of another seat).

    A refused action is never penalised: the rules raise before they change anything.
    """

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params
        self.scope: str | None = None
        """The game (``KEY``) that refused, set by the pipeline: the phone's text is the game's own
        ``<KEY>.err.<code>`` when the game words it, else the shared ``err.<code>``."""

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"RuleError({self.code!r}, {self.params!r})"


def plain(value: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists, scalars), for views that hand out parts of
    the state: much cheaper than ``copy.deepcopy``."""
    kind = type(value)
    if kind is dict:
        # a scalar value is kept as it is without a call (what plain(v) would return): most of
        # a view's values are scalars, and the call per value was most of plain's cost (issue 18)
        return {k: v if type(v) in _SCALARS else plain(v) for k, v in value.items()}
    if kind is list or kind is tuple:
        return [v if type(v) in _SCALARS else plain(v) for v in value]
    return value


_SCALARS = frozenset((int, float, str, bool, type(None)))
"""Types :func:`plain` returns unchanged (any other type that is not a dict, list or tuple is
also returned unchanged, by the call)."""


def msg(key: str, **params: Any) -> dict:
    """A text for a page to show: an i18n ``key`` and its ``params`` (for :meth:`Game.guide`,
    :meth:`Game.coach_view`, :meth:`Game.howto_facts`).

    A page resolves each param before it fills the template (``coach.js``'s ``text``): a param
    whose name ends in ``seat`` holds a seat id shown as its name; a value ``{"key", "params"?}``
    is itself a text (a catalogue key such as a team or a word language, or a nested msg); a
    value :func:`seat_name` is a seat shown as its name under any param name; a value
    :func:`joined` is a list of such values joined with a catalogue separator."""
    return {"key": key, "params": params}


def seat_name(seat: str) -> dict:
    """A param value a page shows as the name of ``seat`` (for a template whose placeholder is
    not named ``…seat``, e.g. ``{name}``)."""
    return {"seat": seat}


def joined(items: list, sep: str | None = None) -> dict:
    """A param value a page shows as ``items`` (each a plain value, a :func:`msg` or a
    :func:`seat_name`) joined by the catalogue text ``sep`` (e.g. ``"decrypto.sep.list"``), or
    without ``sep`` as the page's language lists things (``PH.list``: 、 in Japanese)."""
    return {"join": list(items), "sep": sep} if sep else {"join": list(items)}


DECK_LANGS: tuple[str, ...] = ("ja", "en")
"""The languages a deck (keywords, themes) comes in; the first is the fallback."""


def table_lang(langs: list[str]) -> str:
    """The table's language for a deck: the language most of ``langs`` (each seated phone's
    UI language, ``"ja"`` | ``"en"``) use; a tie, or no phone, gives Japanese (issue 27: English
    phones were dealt Japanese keywords and themes by default). Unknown values count for none."""
    counts = {lang: sum(1 for x in langs if x == lang) for lang in DECK_LANGS}
    best = max(counts.values(), default=0)
    return next((lang for lang in DECK_LANGS if counts[lang] == best), DECK_LANGS[0])


def deck_lang(value: object) -> str:
    """A deck-language option's value as a deck language: ``"auto"`` (or anything unknown,
    when no party resolved it) is ``"ja"``."""
    return value if value in DECK_LANGS else DECK_LANGS[0]


def coach_step(prefix: str, step: str, next_step: str | None = None, **params: Any) -> dict:
    """A coach strip line ``{"step", "now", "next"}`` (:meth:`Game.coach_strip`): ``now`` is
    ``<prefix>coach.step.<step>`` and ``next`` is ``<prefix>coach.next.<next_step or step>``,
    both with ``params``. ``prefix`` is the game's key and a dot (``"top_ten."``)."""
    return {"step": step, "now": msg(f"{prefix}coach.step.{step}", **params),
            "next": msg(f"{prefix}coach.next.{next_step or step}", **params)}


def coach_tip_text(prefix: str, name: str, **params: Any) -> dict:
    """A coach tip ``{"id", "key", "params"}`` (:meth:`Game.coach_tip`): id ``<prefix>tip.<name>``
    (a phone shows each id once), text ``<prefix>coach.tip.<name>`` with ``params``."""
    return {"id": f"{prefix}tip.{name}", **msg(f"{prefix}coach.tip.{name}", **params)}


def _teaching(view: Any) -> Any:
    """Wrap a game's ``view`` so every view carries ``guide`` and ``coach`` (the strip only in
    the table's view, a tip and the seat's coach line only in a seat's).

    While the coach is on it is there at every moment, the end included (issue 27): the table's
    strip is the game's step (:meth:`Game.coach_strip`), ``coach.step.over`` once the game is
    over, ``coach.step.going`` at a moment the game's coach has no step for; a seat's ``line``
    is its guide's "what you can do now" (:meth:`Game.guide`)."""

    @functools.wraps(view)
    def wrapped(self: "Game", seat: str | None) -> dict:
        # a copy: guide and coach are the seat's own, never written into a shared table part
        # (Game.table_part) a game might return as its whole view
        out = dict(view(self, seat))
        out["guide"] = self.guide(seat)
        coach = None
        if self.coach:  # through the whole game, its end included (issue 27)
            if self.over:
                coach = {"strip": coach_step("", "over"), "tip": None}
            else:
                coach = self.coach_view(seat)
            if seat is None:
                coach["tip"] = None
                if coach["strip"] is None:  # a moment the game's coach has no step for
                    coach["strip"] = coach_step("", "going")
            else:
                coach["strip"] = None
                coach["line"] = out["guide"]["now"]  # the phone's own "what to do now"
        out["coach"] = coach
        return out

    return wrapped


class SnapshotError(ValueError):
    """A game snapshot that cannot be restored: another game's, a newer version than this code
    knows, or one whose migration failed. The party keeps its seats and returns to the lobby."""


@dataclass(frozen=True)
class Move:
    """One kind of action a game accepts, declared in :attr:`Game.MOVES` or :attr:`Game.HOST_MOVES`.

    Attributes:
        schema: JSON Schema (draft 2020-12, integers are JSON integers) of the whole action dict,
            ``"type"`` included; checked once, by the pipeline, before the handler runs.
        handler: name of the method that applies it: ``handler(seat, action, now)`` for a player's
            move, ``handler(action, now)`` for a host move. It checks only the rules, raises
            :class:`RuleError` before changing anything, and does not bump ``version``.
        stale: the action carries the game's :attr:`Game.STALE_FIELD` (``"level"``, ``"round"``):
            one made against an earlier value is refused ``stale`` before the handler runs.
        players_only: only a seat playing this game may make it (``not_a_player`` otherwise).
    """

    schema: dict
    handler: str
    stale: bool = False
    players_only: bool = True


class Game:
    """Base class of a game's rules: the action pipeline, events and snapshots live here once.

    A game declares its moves and keeps only its rules. Actions are plain dicts with a ``"type"``
    key. :meth:`apply` (a player's move) and :meth:`host_apply` (the host's move) run the same
    pipeline, in this order, so every game refuses the same things the same way:

    1. the action is a dict whose ``type`` is declared (``unknown_action``) and matches its
       schema (``malformed`` with a ``detail``);
    2. the game is not over (``game_over``);
    3. for a player's move declared ``players_only``: the seat plays (``not_a_player``);
    4. for a move declared ``stale``: ``action[STALE_FIELD]`` equals :meth:`stale_value`, else
       ``stale`` with params ``<STALE_FIELD>`` (the value sent) and ``current``;
    5. the handler applies the rules (raising before it changes anything);
    6. ``version`` goes up by one.

    Class attributes:
        KEY: registry key, e.g. ``"the_mind"``.
        MIN_PLAYERS / MAX_PLAYERS: seat count bounds, inclusive.
        OPTIONS: JSON Schema of the lobby options object (with defaults), ``{}`` when none.
        MOVES / HOST_MOVES: ``{type: Move}``. ``ACTIONS`` and ``HOST_ACTIONS`` (``{type: schema}``,
            what the registry and the protocol document) are derived from them.
        STALE_FIELD: the action field that names the state a move was made against.
        RACING: the move types that race (the first tap wins). The engine holds them a moment
            and hands them to ``apply`` in tap order, ``now`` being the tap's moment on the server
            clock (a :class:`~partyhost.clocksync.Moment` carrying its ``uncertainty``); every
            other move gets its arrival time (issue 26, ``docs/fair_first_card.md``).
        RACE_DRAW: whether two racing taps closer than their clocks' jitter are a fair draw
            (a race with one winner: Word Basket), or keep their best-estimate order (moves that
            all count and only their order matters: The Mind's pile, where a drawn order would
            only add mistakes).
        STATE_VERSION: version of this game's snapshot layout; raise it when the layout changes
            and teach :meth:`migrate` the step.
        FIELDS: the attributes that make up the state (JSON-ready values): :meth:`to_dict`
            writes them, :meth:`from_dict` restores them, all of them (a field added later
            means a new :attr:`STATE_VERSION` whose :meth:`migrate` step fills it in).
        SCRIPT: the game's renderer under ``partyhost/static/`` (``js/<game>.js``), loaded by
            every page; it registers ``PH.games[KEY] = {phone(root, s), tv(root, s),
            lobby?(root, s)}``. ``lobby`` (optional) draws the game's options in the lobby.
        STYLE: the game's stylesheet under ``partyhost/static/``, or ``""`` when it has none.

    Instance attributes every game has: ``players`` (seat ids), ``version`` (int, +1 per change),
    ``event_n`` and ``last_event`` (the latest event, ``{"n", "kind", …}``, see :meth:`_event`).
    """

    KEY: ClassVar[str] = ""
    MIN_PLAYERS: ClassVar[int] = 1
    MAX_PLAYERS: ClassVar[int] = 1
    OPTIONS: ClassVar[dict] = {"type": "object", "properties": {}, "additionalProperties": False}
    DECK_LANG: ClassVar[str | None] = None
    """The option naming the deck's language (Decrypto's ``"lang"``, Top Ten's ``"themes"``)
    when it may be ``"auto"``: the party replaces ``"auto"`` with the table's language at the
    start (:func:`table_lang`); a game set up without a party reads ``"auto"`` as ``"ja"``."""
    MOVES: ClassVar[dict[str, Move]] = {}
    HOST_MOVES: ClassVar[dict[str, Move]] = {}
    RACING: ClassVar[frozenset[str]] = frozenset()
    RACE_DRAW: ClassVar[bool] = True
    ACTIONS: ClassVar[dict[str, dict]] = {}
    HOST_ACTIONS: ClassVar[dict[str, dict]] = {}
    STALE_FIELD: ClassVar[str] = "round"
    STATE_VERSION: ClassVar[int] = 1
    FIELDS: ClassVar[tuple[str, ...]] = ()
    SCRIPT: ClassVar[str] = ""
    STYLE: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.KEY and "SCRIPT" not in cls.__dict__:
            cls.SCRIPT = f"js/{cls.KEY}.js"
        if cls.KEY and "STYLE" not in cls.__dict__:
            static = Path(__file__).resolve().parent.parent / "static"
            cls.STYLE = f"css/{cls.KEY}.css" if (static / "css" / f"{cls.KEY}.css").is_file() else ""
        if "view" in cls.__dict__:
            cls.view = _teaching(cls.__dict__["view"])
        if "MOVES" in cls.__dict__:
            cls.ACTIONS = {kind: move.schema for kind, move in cls.MOVES.items()}
        if "HOST_MOVES" in cls.__dict__:
            cls.HOST_ACTIONS = {kind: move.schema for kind, move in cls.HOST_MOVES.items()}
        for moves in (cls.MOVES, cls.HOST_MOVES):
            for kind, move in moves.items():
                schema.validator(move.schema)  # a broken schema fails at import, not in play
                if not callable(getattr(cls, move.handler, None)):
                    raise TypeError(f"{cls.__name__}: move {kind!r} names no method {move.handler!r}")

    def __init__(self) -> None:
        """An empty game; :meth:`setup` (or :meth:`from_dict`) comes before anything else.
        Calls :meth:`_reset`, where a game sets its fields to their empty values."""
        self._rng: random.Random | None = None
        self.players: list[str] = []
        self.version = 0
        self.event_n = 0
        self.last_event: dict | None = None
        self.host_by: str | None = None
        """The seat the host acts from during :meth:`host_apply` (None: the TV, or no host move)."""
        self.coach = False
        """The first-round coach (はじめてモード) is on: the party decides it at the start
        (:meth:`partyhost.party.Party.start`) and the host may switch it off at any time; kept
        in the snapshot."""
        self._table_parts: dict[str, Any] | None = None
        """While :meth:`sharing_views` is open: the parts built by :meth:`table_part`."""
        self.marks: dict[str, dict] = {}
        """Highlight candidates kept while the game is played (see :meth:`_keep`); public facts
        only. Kept in the snapshot under ``"marks"`` when not empty, so snapshots written before
        it existed still load (as a game with no marks)."""
        self._reset()

    def _reset(self) -> None:
        """Set the game's own fields to an empty game's values (also at each :meth:`setup`)."""

    @classmethod
    def prepare(cls) -> None:
        """Load what the rules need from disk (word lists…) once, when the server starts, so no
        handler waits for it. Default: nothing."""

    def setup(self, players: list[str], options: dict, rng: random.Random, now: float) -> None:
        """Start a new game. ``players`` are seat ids in seating order.

        Raises:
            RuleError: ``"player_count"`` when ``len(players)`` is outside the bounds.
        """
        raise NotImplementedError

    # ----- the action pipeline ------------------------------------------------------------------
    def apply(self, seat: str, action: dict, now: float) -> None:
        """Apply one stamped action of ``seat`` (game-clock seconds ``now``) through the pipeline
        (see the class docstring). Raises :class:`RuleError` and changes nothing if refused."""
        try:
            move = self._move(action, self.MOVES, host=False)
            if self.over:
                raise RuleError("game_over")
            if move.players_only and seat not in self.players:
                raise RuleError("not_a_player")
            self._check_stale(move, action)
            # a Moment (a float carrying the tap's uncertainty) goes through as it is
            getattr(self, move.handler)(seat, action, now if isinstance(now, float) else float(now))
        except RuleError as error:
            error.scope = error.scope or self.KEY
            raise
        self.version += 1

    def host_apply(self, action: dict, now: float, by: str | None = None) -> None:
        """Apply one of the host's in-game moves (``HOST_MOVES``); the host may be the TV, which
        has no seat. Same pipeline as :meth:`apply`, without the seat check.

        ``by`` is the seat of the phone the host acts from (None for the laptop's TV): while the
        handler runs it is :attr:`host_by`, so a rule can refuse the host a ruling on their own
        move (a vote on their own word, RULES.md "General": the host overrules only others)."""
        self.host_by = by
        try:
            move = self._move(action, self.HOST_MOVES, host=True)
            if self.over:
                raise RuleError("game_over")
            self._check_stale(move, action)
            getattr(self, move.handler)(action, float(now))
        except RuleError as error:
            error.scope = error.scope or self.KEY
            raise
        finally:
            self.host_by = None
        self.version += 1

    def _move(self, action: object, moves: dict[str, Move], host: bool) -> Move:
        schema.check_action(type(self), action, host=host)
        return moves[action["type"]]  # type: ignore[index]

    def stale_value(self) -> Any:
        """The current value of :attr:`STALE_FIELD` (the level or round now being played).
        Default: the attribute of that name."""
        return getattr(self, self.STALE_FIELD)

    def _check_stale(self, move: Move, action: dict) -> None:
        if move.stale and action[self.STALE_FIELD] != self.stale_value():
            raise RuleError("stale", current=self.stale_value(),
                            **{self.STALE_FIELD: action[self.STALE_FIELD]})

    def _event(self, kind: str, **fields: Any) -> None:
        """Record the latest event (``{"n", "kind", **fields}``; ``n`` counts up, so a screen
        reacts once per event). Fields must be public: every view may show them."""
        self.event_n += 1
        self.last_event = {"n": self.event_n, "kind": kind, **fields}

    def _keep(self, name: str, score: float, **fields: Any) -> None:
        """Keep ``fields`` as the highlight candidate ``name`` when ``score`` beats the one kept
        (higher is better; a tie keeps the first). Fields must be public, JSON-ready facts."""
        kept = self.marks.get(name)
        if kept is None or score > kept["score"]:
            self.marks[name] = {"score": score, **fields}

    # ----- the night's record: a finished game's result and highlights --------------------------
    def outcome(self) -> dict:
        """The result of a finished game, the same shape for every game (read once it is over):
        ``{"coop": bool, "won": bool | None, "places": [[seat, …], …], "detail": {...}}``.

        ``coop``: the players win or lose together (then ``won`` says which and ``places`` is
        one group of every player); else ``won`` is None and ``places`` is the ranking, best
        first, each place a list of seats (ties share a place; the first place are the winners;
        a draw is one place). ``detail`` holds the game's own public numbers (level, rating,
        cards left, totals…) for the record's line, and optionally ``label``: a text
        (:func:`msg`) naming the winners as the game does (a team). Every game implements it."""
        raise NotImplementedError

    def highlights(self) -> list[dict]:
        """One or two moments of this game, computed from what happened: each
        ``{"key", "params"}`` (:func:`msg`; a param ending in ``seat`` is a seat id shown as a
        name). Only what everyone has seen. Default: none."""
        return []

    # ----- how to play: the rules in use ---------------------------------------------------------
    @classmethod
    def howto_facts(cls, options: dict, players: list[str]) -> list[dict]:
        """The rules in use (今回のルール) a game of ``players`` (seat ids in seating order; in the
        lobby possibly fewer or more than the game takes) with lobby ``options`` (checked, defaults
        filled in) would play by: a list of :func:`msg` texts, computed from the same constants
        and functions the rules use, so the how-to panel only draws them. Public facts only.
        Default: none."""
        return []

    @classmethod
    def howto_count_facts(cls, count: int, options: dict) -> list[dict]:
        """What a game of ``count`` players (``MIN_PLAYERS`` ≤ count ≤ ``MAX_PLAYERS``) with lobby
        ``options`` (defaults filled in) plays by that another count does not: :func:`msg` texts
        computed from the constants and functions the rules use (The Mind's lives and levels,
        Decrypto's 3-player game). Public facts only; no count in the text itself, so counts
        with the same facts share a row of :meth:`howto_counts`. Default: none."""
        return []

    @classmethod
    def howto_counts(cls, options: dict) -> list[dict]:
        """The how-to's rules by player count (人数ごとのルール), shown before anyone has joined:
        ``[{"min": int, "max": int, "lines": [msg…]}]`` in rising count, one row per run of
        counts whose :meth:`howto_count_facts` are the same. Empty when the count changes
        nothing (a single row)."""
        rows: list[dict] = []
        for count in range(cls.MIN_PLAYERS, cls.MAX_PLAYERS + 1):
            lines = cls.howto_count_facts(count, options)
            if rows and rows[-1]["lines"] == lines:
                rows[-1]["max"] = count
            else:
                rows.append({"min": count, "max": count, "lines": lines})
        return rows if len(rows) > 1 else []

    def howto_facts_now(self, options: dict) -> list[dict]:
        """The rules in use of this game as it is played (its teams, rounds, interval… may have
        moved since the lobby: a kick, the dealer's tempo). ``options``: those it started with.
        Default: :meth:`howto_facts` of its players and those options."""
        return type(self).howto_facts(options, list(self.players))

    # ----- the clock ----------------------------------------------------------------------------
    def tick(self, now: float) -> None:
        """Fire whatever the clock drives once ``now >= next_deadline()``."""

    def next_deadline(self) -> float | None:
        """The game-clock time at which ``tick`` must run next, or None."""
        return None

    def leave(self, seat: str, now: float) -> None:
        """A player is removed (kicked) mid-game: the same pipeline as a move. Refuses
        ``game_over``, ``not_a_player``, then ``cannot_continue`` unless
        :meth:`can_continue_without` (the engine then ends the game instead); then the game's
        :meth:`_do_leave` applies its rules and ``version`` goes up."""
        try:
            if self.over:
                raise RuleError("game_over")
            if seat not in self.players:
                raise RuleError("not_a_player")
            if not self.can_continue_without(seat):
                raise RuleError("cannot_continue")
            self._do_leave(seat, float(now))
        except RuleError as error:
            error.scope = error.scope or self.KEY
            raise
        self.version += 1

    def can_continue_without(self, seat: str) -> bool:
        """Whether the game can go on once ``seat`` has left. Default: enough players remain."""
        return len(self.players) - 1 >= self.MIN_PLAYERS

    def _do_leave(self, seat: str, now: float) -> None:
        """The game's rules for a player who left (hand discarded, turn passed on…); raises
        before it changes anything. Default: the game cannot lose a player."""
        raise RuleError("cannot_continue")

    def presence(self, seat: str, present: bool, now: float) -> None:
        """A playing seat's phone went away (``present`` False: its last socket closed, a locked
        screen, a lost Wi-Fi) or came back (True), at game-clock seconds ``now``. Games where an
        absent player can be hurt (real-time play) keep it in their state and wait; ``version``
        goes up when the game's state changed (the method returns True). Default: nothing, so a
        turn-based game carries on and the host's own moves cover an absent player."""
        if self._presence(seat, bool(present), float(now)):
            self.version += 1

    def _presence(self, seat: str, present: bool, now: float) -> bool:
        """The game's rule for :meth:`presence`; returns whether the state changed. Default:
        no change."""
        return False

    def interrupted(self, now: float) -> None:
        """The host restarted and this game was restored from a snapshot; players reconnect one
        by one. Games where that matters (real-time play) stop play here. Default: nothing."""

    @property
    def over(self) -> bool:
        """True once the game has ended (won, lost or finished); further actions are refused.
        Default: the game's ``phase`` is ``"over"``."""
        return getattr(self, "phase", None) == "over"

    def view(self, seat: str | None) -> dict:
        """What ``seat`` may know, JSON-ready. ``seat=None`` is the table (TV, spectators).

        A game's own ``view`` is wrapped (see :func:`_teaching`) so every view also holds
        ``"guide"`` (:meth:`guide`) and ``"coach"`` (:meth:`coach_view` while :attr:`coach` is
        on, else None)."""
        raise NotImplementedError

    @contextlib.contextmanager
    def sharing_views(self) -> Iterator[None]:
        """Build a batch of views that share their table parts: while open, :meth:`table_part`
        builds each named part once and hands every view the same object. The engine opens it
        around one flush's views (the game does not change meanwhile), so a part every seat sees
        alike is built once and written once (:func:`partyhost.engine.encode_view`) however
        many seats' views hold it (issue 18, sixth pass). Views are read-only: nothing may
        change a part a view holds. Not reentrant."""
        self._table_parts = {}
        try:
            yield
        finally:
            self._table_parts = None

    def table_part(self, name: str, build: Callable[[], T]) -> T:
        """``build()``, the part ``name`` of the views that is the same for every seat (what the
        table sees). Inside :meth:`sharing_views` it is built once and the same object is
        returned to every view; outside, each call builds a new one. ``build`` must read only
        what every seat may know, and a view must not change what it gets.

        Args:
            name: the part's name within this game (``"table"``: each game has one today).
            build: makes the part (JSON-ready: a dict or list of plain values); takes no seat.
        Returns:
            The part: ``build()``'s result, shared within one :meth:`sharing_views`.
        """
        parts = self._table_parts
        if parts is None:
            return build()
        if name not in parts:
            parts[name] = build()
        return parts[name]

    # ----- teaching: the first-round coach and the phone's "what you can do now" ---------------
    def guide(self, seat: str | None) -> dict:
        """One line for ``seat``'s help sheet: what it can do now, ``{"now": {"key", "params"}}``
        (an i18n key of the game's catalogue and its parameters; a parameter whose name ends in
        ``seat`` holds a seat id the page shows as a name, a ``{"key": …}`` value is itself a
        catalogue key). Shown whether the coach is on or off; computed from what ``seat`` may
        know only. Every game implements it."""
        raise NotImplementedError

    def set_coach(self, on: bool) -> None:
        """Switch the coach on or off during play (the host's skip); every view changes."""
        self.coach = bool(on)
        self.version += 1

    def coach_view(self, seat: str | None) -> dict:
        """The coach while it is on: ``{"strip": None | {"step", "now", "next"}, "tip": None |
        {"id", "key", "params"}}``. ``strip`` is the TV's line (:meth:`coach_strip`; the table's
        view only, a seat's view holds None) naming the step being played now and what comes next,
        during the first round or level; ``tip`` is the tip for ``seat``'s role at this moment
        (:meth:`coach_tip`; a phone shows each ``id`` once), None for the table. Only what
        ``seat`` may know."""
        return {"strip": self.coach_strip() if seat is None else None,
                "tip": self.coach_tip(seat) if seat is not None else None}

    def coach_strip(self) -> dict | None:
        """The TV's coach line now, ``{"step", "now", "next"}`` (texts as in :meth:`guide`), or
        None when the coach has nothing to say. Every game implements it."""
        raise NotImplementedError

    def coach_tip(self, seat: str) -> dict | None:
        """The tip for ``seat``'s role at this moment, ``{"id", "key", "params"}``, or None.
        Every game implements it, from what ``seat`` may know only."""
        raise NotImplementedError

    # ----- for the conformance suite and bots ---------------------------------------------------
    def suggest(self, seat: str | None, rng: random.Random) -> list[dict]:
        """A few actions ``seat`` could sensibly make now (``seat=None``: the host's moves), mostly
        legal, cheap to compute. The conformance suite (``tests/test_conformance.py``) plays
        whole games from them, the engine fuzz test mutates them, a demo bot could play them.
        Every game implements it; a game that can end only by play must be able to end this way.
        Default: none."""
        return []

    def redeal_hidden(self, seat: str | None, rng: random.Random) -> "Game":
        """A copy of this game in which everything ``seat`` may not know is dealt anew (other
        hands, the deck, another team's code…) and everything it may know is kept. The
        conformance suite checks that ``view(seat)`` is the same for both: no view depends on
        a secret it must not show (non-interference). Every game implements it.

        Raises:
            NotImplementedError: the game has not said what its secrets are.
        """
        raise NotImplementedError

    # ----- snapshots ----------------------------------------------------------------------------
    def encode_field(self, name: str, value: Any) -> Any:
        """A field's JSON-ready form for :meth:`to_dict` (default: the value itself). Override for
        a field held as an object (e.g. a :class:`~partyhost.games.vote.TableVote`)."""
        return value

    @classmethod
    def decode_field(cls, name: str, data: Any) -> Any:
        """The inverse of :meth:`encode_field` for :meth:`from_dict`."""
        return data

    def to_dict(self) -> dict:
        """A full JSON-ready snapshot of the state (secrets included: for store and tests):
        ``{"game": KEY, "v": STATE_VERSION, <field>: value …}``, values deep-copied.

        Raises:
            ValueError: a field holds something JSON cannot (a non-finite number, an object).
        """
        return json.loads(self.to_json())

    def to_json(self) -> str:
        """:meth:`to_dict` as JSON text (``json.loads(to_json()) == to_dict()``), without building
        the copy: the engine's rollback copy before each change keeps only this text and parses
        it only when a change fails (issue 18).

        Raises:
            ValueError: a field holds something JSON cannot (a non-finite number, an object).
        """
        return json.dumps(self.live_dict(), allow_nan=False)

    def live_dict(self) -> dict:
        """:meth:`to_dict`'s snapshot without the deep copy: its values are the game's own
        (encoded by :meth:`encode_field`), so it must be serialised at once and never kept or
        changed. For the store's snapshot of every action, which dumps it right away (issue 18:
        the copy was a third encoding per action); ``tests/conformance.py`` checks that it
        serialises to the same text as :meth:`to_dict` in every state it reaches."""
        state = {"game": self.KEY, "v": self.STATE_VERSION}
        for f in self.FIELDS:
            state[f] = self.encode_field(f, getattr(self, f))
        if self.coach:
            state["coach"] = True  # absent while off: a snapshot without it reads as off
        if self.marks:
            state["marks"] = self.marks  # absent while empty: an older snapshot reads as none
        return state

    @classmethod
    def migrate(cls, data: dict, version: int) -> dict:
        """Bring a snapshot written by layout ``version`` (older than :attr:`STATE_VERSION`) up to
        date, one step at a time (e.g. add a new field with the value an old game implies).
        Default: nothing to do.

        Raises:
            SnapshotError: the snapshot cannot be brought up to date.
        """
        return data

    @classmethod
    def from_dict(cls, data: dict, rng: random.Random) -> "Game":
        """Rebuild a game from :meth:`to_dict` output; ``rng`` serves later shuffles.

        A snapshot without ``"v"`` is version 1 (written before snapshots had versions).

        Raises:
            SnapshotError: another game's snapshot, a version newer than this code knows, or one
                that lacks a field after :meth:`migrate`.
        """
        if not isinstance(data, dict) or data.get("game") != cls.KEY:
            raise SnapshotError(f"not a {cls.KEY} snapshot")
        version = data.get("v", 1)
        if not isinstance(version, int) or version < 1 or version > cls.STATE_VERSION:
            raise SnapshotError(f"{cls.KEY} snapshot version {version!r}; this host knows up to "
                                f"{cls.STATE_VERSION}")
        if version < cls.STATE_VERSION:
            data = cls.migrate(json.loads(json.dumps(data)), version)
        missing = [f for f in cls.FIELDS if f not in data]
        if missing:
            raise SnapshotError(f"{cls.KEY} snapshot v{version} lacks {missing[:5]}")
        game = cls()
        fresh = json.loads(json.dumps(data))
        for f in cls.FIELDS:
            setattr(game, f, cls.decode_field(f, fresh[f]))
        game.coach = fresh.get("coach") is True  # a snapshot from before the coach: off
        marks = fresh.get("marks")
        game.marks = marks if isinstance(marks, dict) else {}
        game._restored(rng)
        return game

    def _restored(self, rng: random.Random) -> None:
        """Called by :meth:`from_dict` after the fields are set: keep ``rng``, rebuild caches."""
        self._rng = rng
