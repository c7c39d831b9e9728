"""The party: seats, names, host powers, the chosen game and its lifecycle.

Pure state like the games (no sockets, no clock, no randomness of its own): the engine passes
``now`` and a token factory in. A seat belongs to its token, never to a name or a socket; the
engine counts a seat's live connections so the TV can show who is away.
"""

from __future__ import annotations

import logging
import random
import unicodedata
from dataclasses import dataclass, field, fields
from typing import Callable

from . import wire
from .games import registry
from .games.base import Game, RuleError, msg, plain, table_lang

NAME_MAX = 16
"""Longest name, in characters after NFKC and trim."""

EARLY_ENDS = ("host", "too_few")
"""Why a game can end before it is over (:meth:`Party.end`): the host ended it (ゲームを終える),
or a kick left too few players. Such a game stays in the night's record as ended early."""

RECORD_MAX = 40
"""Games kept in the night's record (the oldest go first); a night rarely plays half as many."""

HOST_GRACE = 60.0
"""Seconds a promoted host phone may be away before its powers pass on (a locked screen
drops the socket; a minute covers a glance at another app)."""

INVISIBLE = frozenset("\u3164\u2800\u115f\u1160\uffa0\u17b4\u17b5\u180e\u2060\ufeff")
"""Characters that print as nothing although Unicode calls them letters or symbols (Hangul
fillers, the blank braille pattern…): a name made only of them is refused."""

log = logging.getLogger(__name__)


def _readable_entry(entry: object) -> bool:
    """Whether a saved record entry has the shape the pages read (see :meth:`Party.settle`): a
    game key, players with seat and name, a result that is None or has a list of places, and
    highlights that are a list when present. Only looks; changes nothing."""
    if not isinstance(entry, dict) or not isinstance(entry.get("game"), str):
        return False
    players = entry.get("players")
    if not isinstance(players, list) or not all(
            isinstance(p, dict) and isinstance(p.get("seat"), str) and isinstance(p.get("name"), str)
            for p in players):
        return False
    result = entry.get("result")
    if result is not None and not (isinstance(result, dict) and isinstance(result.get("places", []), list)
                                   and all(isinstance(pl, list) for pl in result.get("places", []))):
        return False
    if "ended" in entry and entry["ended"] not in EARLY_ENDS:
        return False
    return isinstance(entry.get("highlights", []), list)


def _completed_entry(entry: dict) -> dict:
    """A readable entry (:func:`_readable_entry`) with the fields an older snapshot lacks filled
    in: no highlights, no duration. Returns a new dict; ``entry`` is left as it was."""
    return {"highlights": [], "duration": None, **entry}


def name_key(name: str) -> str:
    """The identity of a display name for uniqueness: NFKC, trimmed, casefolded."""
    return unicodedata.normalize("NFKC", name).strip().casefold()


def clean_name(name: str) -> str:
    """Validate and tidy a display name.

    Returns:
        The NFKC-normalised, trimmed name.
    Raises:
        RuleError: ``"name_empty"``, ``"name_too_long"`` (``max``), ``"name_invalid"``
        (control or format characters).
    """
    tidy = " ".join(unicodedata.normalize("NFKC", name).split())
    if not tidy:
        raise RuleError("name_empty")
    if len(tidy) > NAME_MAX:
        raise RuleError("name_too_long", max=NAME_MAX)
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co") for ch in tidy):
        raise RuleError("name_invalid")
    if all(ch in INVISIBLE or ch.isspace() for ch in tidy):
        raise RuleError("name_invalid")
    return tidy


@dataclass
class Seat:
    """One person at the party.

    Attributes:
        id: ``"s1"``, ``"s2"`` … in joining order (the seating order).
        name: display name (unique by :func:`name_key`).
        token: the secret the phone keeps in ``localStorage``; never sent to anyone else.
        lang: ``"ja"`` or ``"en"``, the phone's choice.
        connections: live sockets of this seat (0 = away).
        away_since: engine clock seconds when the last socket went, or None.
        spectator: joined during a game; watches and plays from the next game on.
    """

    id: str
    name: str
    token: str
    lang: str = "ja"
    connections: int = 0
    away_since: float | None = None
    spectator: bool = False

    def to_dict(self) -> dict:
        """The seat as a JSON-ready dict, equal to ``dataclasses.asdict(seat)`` (every field is a
        plain value) at a tenth of its cost: the snapshot writes every seat after every action
        (issue 18: ``asdict`` was 86 % of ``Party.to_dict`` with 33 seats)."""
        return {name: getattr(self, name) for name in _SEAT_FIELDS}


_SEAT_FIELDS = tuple(f.name for f in fields(Seat))


@dataclass
class Party:
    """Everything outside one game's rules that the table shares.

    ``phase`` is ``"lobby"`` (choosing and joining) or ``"game"`` (a game is running or has just
    ended; ``game.over`` tells which). ``game_serial`` counts games so actions made for an old
    game are refused as stale.

    ``record`` is the night's record (今夜の記録): one entry per finished game (see
    :meth:`settle`), kept in the snapshot; ``recorded`` is the serial of the last game written
    there and ``started_at`` the game clock when the current game started. ``summary`` is
    True while the おひらき screen (the night summary) is up: see :meth:`show_summary`.
    """

    room: str
    seats: dict[str, Seat] = field(default_factory=dict)
    host_seat: str | None = None
    game_key: str = field(default_factory=lambda: next(iter(registry.GAMES)))  # the lobby's first game
    options: dict[str, dict] = field(default_factory=dict)
    phase: str = "lobby"
    game: Game | None = None
    game_serial: int = 0
    players: list[str] = field(default_factory=list)
    last_players: list[str] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)
    paused: bool = False
    ended: dict | None = None
    address_index: int = 0
    next_seat: int = 1
    played: list[str] = field(default_factory=list)
    coach_choice: dict[str, bool] = field(default_factory=dict)
    record: list[dict] = field(default_factory=list)
    recorded: int = 0
    started_at: float | None = None
    summary: bool = False
    _board: tuple | None = field(default=None, init=False, repr=False, compare=False)
    """:meth:`scoreboard`'s last ``(record entries, seat names, rows)``: built again only when the
    record holds other entries or a name changed (issue 18, sixth pass: it was built per action)."""

    # ----- seats -------------------------------------------------------------------------
    def seat_of_token(self, token: object) -> Seat | None:
        """The seat that owns ``token``, or None (unknown, revoked or not a string)."""
        if not isinstance(token, str) or not token:
            return None
        for seat in self.seats.values():
            if seat.token == token:
                return seat
        return None

    def join(self, name: str, lang: str, new_token: Callable[[], str]) -> Seat:
        """Give a new person a seat.

        Someone joining while a game runs becomes a spectator of that game.
        Raises:
            RuleError: name errors from :func:`clean_name`; ``"name_taken"`` (``name``).
        """
        tidy = clean_name(name)
        key = name_key(tidy)
        if any(name_key(s.name) == key for s in self.seats.values()):
            raise RuleError("name_taken", name=tidy)
        seat = Seat(id=f"s{self.next_seat}", name=tidy, token=new_token(), lang=lang)
        seat.spectator = self.phase == "game" and self.game is not None and not self.game.over
        self.next_seat += 1
        self.seats[seat.id] = seat
        self.names[seat.id] = seat.name
        return seat

    def remove(self, seat_id: str) -> None:
        """Take a seat away (kick). Its token stops working at once."""
        self.seats.pop(seat_id, None)
        if self.host_seat == seat_id:
            self.host_seat = None

    def roster(self) -> list[dict]:
        """Public list of seats in seating order: id, name, connected, spectator, host, playing."""
        return [
            {
                "seat": s.id,
                "name": s.name,
                "connected": s.connections > 0,
                "spectator": s.spectator,
                "host": s.id == self.host_seat,
                "playing": s.id in self.players and self.phase == "game",
            }
            for s in self.seats.values()
        ]

    # ----- host powers -----------------------------------------------------------------------
    def hand_on_host(self, now: float) -> bool:
        """Pass a promoted phone's host powers on once it has been away for :data:`HOST_GRACE`.

        The next connected seat in seating order after the old host gets them; with none
        connected, only the TV keeps them. Returns True when something changed.
        """
        if self.host_seat is None:
            return False
        host = self.seats.get(self.host_seat)
        if host is not None and (host.connections > 0 or host.away_since is None
                                 or now - host.away_since < HOST_GRACE):
            return False
        order = list(self.seats)
        start = order.index(self.host_seat) + 1 if self.host_seat in order else 0
        for seat_id in order[start:] + order[:start]:
            if seat_id != self.host_seat and self.seats[seat_id].connections > 0:
                self.host_seat = seat_id
                return True
        self.host_seat = None
        return True

    def host_deadline(self) -> float | None:
        """Engine-clock time at which :meth:`hand_on_host` may change something, or None."""
        host = self.seats.get(self.host_seat) if self.host_seat else None
        if host is None or host.connections > 0 or host.away_since is None:
            return None
        return host.away_since + HOST_GRACE

    def promote(self, seat_id: str) -> None:
        """Make ``seat_id`` the host phone (again: take it back).

        Raises:
            RuleError: ``"no_such_seat"``.
        """
        if seat_id not in self.seats:
            raise RuleError("no_such_seat")
        self.host_seat = None if self.host_seat == seat_id else seat_id

    # ----- games -----------------------------------------------------------------------------
    def choose(self, game_key: str, options: dict | None = None) -> None:
        """Pick the game (and its options) for the next start.

        Raises:
            RuleError: ``"unknown_game"``; ``"game_running"`` while a game is under way;
            ``"bad_options"`` when options do not match the game's schema.
        """
        cls = registry.get(game_key)
        if cls is None:
            raise RuleError("unknown_game")
        if self.running:
            raise RuleError("game_running")
        if options is not None:
            self.options[game_key] = registry.check_options(cls, options)
        self.game_key = game_key

    def coach_on(self, game_key: str | None = None) -> bool:
        """Whether the coach (はじめてモード) is on for ``game_key`` (default: the chosen game):
        during that game, whether it is running; otherwise the switch as the host (or the last
        start) left it, and for a kind of game this party has not played tonight, on.

        The switch never flips by itself (issue 27): a game that ran with the coach on leaves
        it on for the next one of its kind until the host turns it off."""
        key = game_key or self.game_key
        if self.running and self.game.KEY == key:
            return bool(self.game.coach)
        return self.coach_choice.get(key, key not in self.played)

    def set_coach(self, on: bool) -> None:
        """The host's coach switch: in the lobby it decides the chosen game's next start; during
        a game, off skips the coach at once (on turns it back on), and the choice stays for the
        next game of that kind."""
        if self.running:
            self.game.set_coach(on)
            self.coach_choice[self.game.KEY] = bool(on)
        else:
            self.coach_choice[self.game_key] = bool(on)

    def howto(self) -> dict:
        """The how-to's rules in use (今回のルール) for every screen: ``{"game": key, "lines":
        [msg…], "counts": [{"min", "max", "lines"}…], "count": int, "seats": [seat…]}``: the player count first,
        then the game's own facts (:meth:`Game.howto_facts`); every player count's own rules
        (:meth:`Game.howto_counts`, so a table knows them before anyone joins) and the count
        that would play (or plays) now.

        In the lobby: the chosen game, its options (defaults filled in) and the seats that would
        play (as :meth:`would_play` seats them, or the first seats while phones are away; the
        line says how many sit out, or how many are missing). During and after a game: that game's facts as played
        (:meth:`Game.howto_facts_now`). A game's hook that fails costs only its own lines."""
        game = self.game if self.phase == "game" else None
        cls = type(game) if game is not None else registry.get(self.game_key)
        if cls is None:
            return {"game": self.game_key, "lines": []}
        defaults = {name: prop["default"] for name, prop in cls.OPTIONS.get("properties", {}).items()
                    if "default" in prop}
        options = {**defaults, **self.options.get(cls.KEY, {})}
        seats = list(self.seats)
        if game is not None:
            lines = [msg("howto.players", count=len(self.players))]
        elif len(seats) < cls.MIN_PLAYERS:
            lines = [msg("howto.too_few", min=cls.MIN_PLAYERS, count=len(seats))]
        else:
            lines = [msg("howto.players", count=min(len(seats), cls.MAX_PLAYERS))]
        if game is None and len(seats) > cls.MAX_PLAYERS:
            lines.append(msg("howto.sitout", count=len(seats) - cls.MAX_PLAYERS))
        playing = self.would_play(cls)
        if len(playing) < min(len(seats), cls.MAX_PLAYERS):  # phones still away: the seats in order
            playing = seats[: cls.MAX_PLAYERS]
        try:
            facts = (game.howto_facts_now(options) if game is not None
                     else cls.howto_facts(self.deck_options(cls, options, playing), playing))
            lines += [m for m in facts if isinstance(m, dict) and "key" in m]
        except Exception:  # a game's hook must not cost every screen its view
            log.exception("howto facts of %s failed", cls.KEY)
        try:
            counts = cls.howto_counts(options)
        except Exception:
            log.exception("howto counts of %s failed", cls.KEY)
            counts = []
        count = len(game.players) if game is not None else len(playing)
        # the seats that would play (in the lobby) or play: a lobby that seats them (Decrypto's
        # teams) lists these, not every seat (nine seated listed five on white for 4 against 4)
        seated = list(game.players) if game is not None and hasattr(game, "players") else list(playing)
        return {"game": cls.KEY, "lines": lines, "counts": counts, "count": count, "seats": seated}

    def table_lang(self, seats: list[str]) -> str:
        """The deck language ``"auto"`` stands for with ``seats`` at the table: the UI language
        most of their phones use, a tie Japanese (:func:`partyhost.games.base.table_lang`)."""
        return table_lang([self.seats[s].lang for s in seats if s in self.seats])

    def lobby_table_lang(self) -> str | None:
        """:meth:`table_lang` of the seats the chosen game would seat now (the lobby shows what
        a deck language ``"auto"`` will be), or None when the chosen game has no deck language
        (so a phone's language switch changes nothing the other screens show)."""
        cls = registry.get(self.game_key)
        if cls is None or not cls.DECK_LANG:
            return None
        return self.table_lang(self.would_play(cls))

    def deck_options(self, cls, options: dict, seats: list[str]) -> dict:
        """``options`` (checked, defaults filled) with the game's deck language (``cls.DECK_LANG``)
        ``"auto"`` replaced by :meth:`table_lang` of ``seats``; a copy, the lobby keeps ``"auto"``."""
        name = cls.DECK_LANG
        if name and options.get(name) == "auto":
            return {**options, name: self.table_lang(seats)}
        return options

    @property
    def running(self) -> bool:
        """A game is under way (started and not over)."""
        return self.phase == "game" and self.game is not None and not self.game.over

    def would_play(self, cls) -> list[str]:
        """The seats a start of game class ``cls`` would seat, in seating order: every seat when
        they fit; with more seats than ``cls.MAX_PLAYERS``, present seats only, those who sat out
        the last game first. Used by :meth:`start` and by the lobby's rules in use, so the how-to
        names the players who will really play."""
        order = list(self.seats)
        if len(order) <= cls.MAX_PLAYERS:
            return order
        present = [sid for sid in order if self.seats[sid].connections > 0]
        chosen = sorted(present, key=lambda sid: (sid in self.last_players, order.index(sid)))
        chosen = set(chosen[: cls.MAX_PLAYERS])
        return [sid for sid in order if sid in chosen]

    def start(self, rng: random.Random, now: float) -> None:
        """Start the chosen game; seats play in seating order.

        With more seats than the game takes, the seats that sat out the last game come in
        first, away seats sit out, and the rest watch as spectators (they come in next time).
        Otherwise every seat plays, so nobody is left out because their screen was locked.
        Raises:
            RuleError: ``"game_running"``; ``"player_count"`` (``min``, ``max``, ``count``);
            ``"player_away"`` (``name``) when a seat that would play has no live connection.
        """
        if self.running:
            raise RuleError("game_running")
        cls = registry.get(self.game_key)
        players = self.would_play(cls)
        if not cls.MIN_PLAYERS <= len(players) <= cls.MAX_PLAYERS:
            raise RuleError("player_count", min=cls.MIN_PLAYERS, max=cls.MAX_PLAYERS, count=len(players))
        for sid in players:
            if self.seats[sid].connections == 0:
                raise RuleError("player_away", name=self.seats[sid].name)
        options = self.deck_options(cls, registry.check_options(cls, self.options.get(self.game_key, {})), players)
        game = cls()
        try:
            game.setup(players, options, rng, now)
        except RuleError as error:
            error.scope = error.scope or cls.KEY  # the game's own words for its refusal
            raise
        game.coach = self.coach_on(cls.KEY)
        if cls.KEY not in self.played:
            self.played.append(cls.KEY)
        # the switch stays as it was at this start (the host changes it, nothing else does)
        self.coach_choice[cls.KEY] = game.coach
        self.game = game
        self.players = players
        self.last_players = list(players)
        self.phase = "game"
        self.paused = False
        self.ended = None
        self.game_serial += 1
        self.started_at = now
        self.summary = False  # a new game: the night went on after おひらき
        for seat in self.seats.values():
            seat.spectator = seat.id not in players

    def end(self, reason: str = "finished", now: float | None = None) -> None:
        """Stop the game (finished or not) and go back to the lobby.

        ``reason`` (``"finished"``, ``"host"``: ended mid-game, ``"too_few"``: a kick left too
        few players) is kept in ``ended`` for the lobby to say why. A finished game not yet in
        the record is written there first; a game ended early (``"host"``, ``"too_few"``) is
        written as ended early (:meth:`settle`), with no result and so no points (issue 27: it
        vanished from tonight's record). ``now``: game-clock seconds for the duration, or None.
        """
        if reason in EARLY_ENDS and self.running:
            self.settle(now, early=reason)
        self.settle(now)
        self.ended = {"serial": self.game_serial, "reason": reason} if self.game else None
        self.game = None
        self.players = []
        self.phase = "lobby"
        self.paused = False
        for seat in self.seats.values():
            seat.spectator = False

    # ----- the night's record ----------------------------------------------------------------
    def settle(self, now: float | None, early: str | None = None) -> bool:
        """Write the current game into :attr:`record` once it is over (once per game).

        The entry: ``{"serial", "game", "players": [{"seat", "name"}] (names at the time),
        "result": Game.outcome(), "highlights": Game.highlights(), "duration": seconds on the
        game clock (pauses excluded) or None}``. A game whose hooks fail is recorded without
        result or highlights rather than breaking the party. Returns True when it wrote one.

        ``early`` (one of :data:`EARLY_ENDS`): the game is being ended before it was over; it is
        written as it stands with ``"ended": early``, no result and no highlights, so it gives
        nobody a point (:meth:`scoreboard`) and no title (:mod:`partyhost.night`).
        """
        game = self.game
        if game is None or self.recorded == self.game_serial or not (game.over or early):
            return False
        result, highlights = None, []
        if not early:
            try:
                result = game.outcome()
            except Exception:  # a game's hook must not cost the night its record
                log.exception("outcome of %s failed", game.KEY)
                result = None
            try:
                highlights = [h for h in game.highlights() if isinstance(h, dict) and "key" in h][:2]
            except Exception:
                log.exception("highlights of %s failed", game.KEY)
                highlights = []
        duration = None
        if now is not None and self.started_at is not None and now >= self.started_at:
            duration = round(now - self.started_at, 1)
        # a copy the game shares nothing with: an entry is never changed once written (the
        # engine and the store keep its text until the record holds other entries)
        self.record.append(plain({
            "serial": self.game_serial,
            "game": game.KEY,
            "players": [{"seat": s, "name": self.names.get(s, s)} for s in game.players or self.players],
            "result": result,
            "highlights": highlights,
            "duration": duration,
            **({"ended": early} if early else {}),
        }))
        del self.record[:-RECORD_MAX]
        self.recorded = self.game_serial
        return True

    def show_summary(self, on: bool) -> None:
        """おひらき: the host ends the night (``on``), and every screen shows the summary of the
        record; ``on=False`` goes back to the lobby and the night goes on. Kept in the snapshot.

        Raises:
            RuleError: ``"game_running"`` while a game is under way; ``"night_empty"`` when no
            game has been recorded yet (there is nothing to sum up).
        """
        if on and self.running:
            raise RuleError("game_running")
        if on and not self.record:
            raise RuleError("night_empty")
        if on and self.phase == "game":  # a finished game still on screen: back to the lobby first
            self.end()
        if on:  # why the last game ended is old news once the night is summed up
            self.ended = None
        self.summary = bool(on)

    def again(self, rng: random.Random, now: float) -> None:
        """もう一度: start the night's last recorded game again, with its saved options.

        Raises:
            RuleError: ``"night_empty"`` with nothing recorded; otherwise as :meth:`choose`
            and :meth:`start`.
        """
        if not self.record:
            raise RuleError("night_empty")
        chosen = self.game_key
        self.choose(self.record[-1]["game"])
        try:
            self.start(rng, now)
        except RuleError:
            self.game_key = chosen  # a refused もう一度 leaves the lobby as it was
            raise

    def scoreboard(self) -> list[dict]:
        """The party score across the record, best first: ``[{"seat", "name", "points",
        "games"}]``. The stated scoring: a competitive game gives 1 point to each seat in its
        first place (tied winners each get 1; a draw, one shared place, gives everyone 1); a
        cooperative game gives every player 1 point when the table won, none when it lost; a
        game ended early gives no points and does not count as a game here. Equal points: fewer games played first, then the order seats first appear in the
        record. A seat still at the party shows its current name. The rows are shared by the
        calls until the record or a name changes: read them, never change them."""
        entries = tuple(self.record)  # entries are never changed once written (settle)
        names = tuple((sid, seat.name) for sid, seat in self.seats.items())
        kept = self._board
        if kept is not None and kept[0] == entries and kept[1] == names:  # `is` first: cheap
            return kept[2]
        rows: dict[str, dict] = {}
        for entry in self.record:
            if entry.get("ended"):  # ended early: no points, and not a game played for the score
                continue
            result = entry.get("result") or {}
            places = result.get("places") or []
            if result.get("coop"):
                scoring = {p["seat"] for p in entry["players"]} if result.get("won") else set()
            else:
                scoring = set(places[0]) if places else set()
            for p in entry["players"]:
                row = rows.setdefault(p["seat"], {"seat": p["seat"], "name": p["name"], "points": 0, "games": 0})
                row["name"] = p["name"]
                row["games"] += 1
                row["points"] += 1 if p["seat"] in scoring else 0
        for row in rows.values():
            if row["seat"] in self.seats:
                row["name"] = self.seats[row["seat"]].name
        order = {sid: i for i, sid in enumerate(rows)}
        board = sorted(rows.values(), key=lambda r: (-r["points"], r["games"], order[r["seat"]]))
        self._board = (entries, names, board)
        return board

    def kick(self, seat_id: str, now: float) -> None:
        """Remove a seat. Mid-game the game is asked to continue without it (its cards go
        face up, per the game's ``leave``); a game that cannot continue is ended.

        Raises:
            RuleError: ``"no_such_seat"``.
        """
        if seat_id not in self.seats:
            raise RuleError("no_such_seat")
        if self.running and seat_id in self.players:
            try:
                self.game.leave(seat_id, now)
                self.players.remove(seat_id)
            except RuleError:
                self.end("too_few", now)
        elif seat_id in self.players:
            self.players.remove(seat_id)
        self.remove(seat_id)

    # ----- snapshots -------------------------------------------------------------------------
    def to_dict(self, live: bool = False) -> dict:
        """JSON-ready snapshot (tokens included: for the local store only).

        ``live=True``: the game's part is :meth:`Game.live_dict` (the game's own values, not a
        deep copy) for a caller that encodes the snapshot at once and keeps nothing (the store
        after every action); the text it encodes to is the same.
        """
        game = None
        if self.game:
            game = {"key": self.game.KEY, "state": self.game.live_dict() if live else self.game.to_dict()}
        return {
            "room": self.room,
            "seats": [s.to_dict() for s in self.seats.values()],
            "host_seat": self.host_seat,
            "game_key": self.game_key,
            "options": self.options,
            "phase": self.phase,
            "game": game,
            "game_serial": self.game_serial,
            "players": self.players,
            "last_players": self.last_players,
            "names": self.names,
            "paused": self.paused,
            "ended": self.ended,
            "address_index": self.address_index,
            "next_seat": self.next_seat,
            "played": list(self.played),
            "coach_choice": dict(self.coach_choice),
            "record": self.record,
            "recorded": self.recorded,
            "started_at": self.started_at,
            "summary": self.summary,
        }

    @classmethod
    def from_dict(cls, data: dict, rng: random.Random, problems: list[str] | None = None) -> "Party":
        """Rebuild from :meth:`to_dict`. Every seat starts away (no socket survives a restart).

        The party is kept whenever its own part can be read, even when its game cannot: a game
        whose key is unknown, whose state holds a non-finite number (NaN, ±Infinity) or whose
        ``from_dict`` raises is dropped, the party goes back to the lobby with ``ended`` reason
        ``"restore_failed"`` (the lobby says so), and seats, names, tokens, host and room stay.
        Options that are non-finite or no longer fit their game's schema are reset, and an
        unknown chosen game falls back to the first registered one.

        Args:
            data: a :meth:`to_dict` snapshot.
            rng: the engine's random source, for games that keep one.
            problems: when given, one line is appended per repair made (for the host's terminal).
        Raises:
            KeyError / TypeError / ValueError: the party itself cannot be read (no room, seats
                that are not seats…); the caller starts a new party.
        """
        notes = problems if problems is not None else []
        room = data["room"]
        if not isinstance(room, str):
            raise TypeError("room is not a string")
        party = cls(room=room)
        for raw in data["seats"]:
            seat = Seat(**raw)
            seat.connections = 0
            seat.away_since = None
            party.seats[seat.id] = seat
        party.host_seat = data.get("host_seat")
        party.options = {}
        for key, options in (data.get("options") or {}).items():
            game_cls = registry.get(key)
            try:
                if not wire.finite(options):
                    raise ValueError("a non-finite number")
                party.options[key] = registry.check_options(game_cls, options) if game_cls else options
            except (RuleError, ValueError) as error:
                notes.append(f"options of {key} reset ({getattr(error, 'params', {}).get('detail', error)})")
        party.game_key = data.get("game_key", party.game_key)
        if registry.get(party.game_key) is None:
            notes.append(f"unknown chosen game {party.game_key!r}: {next(iter(registry.GAMES))} chosen")
            party.game_key = next(iter(registry.GAMES))
        party.phase = data.get("phase", "lobby")
        party.game_serial = data.get("game_serial", 0)
        party.players = list(data.get("players", []))
        party.last_players = list(data.get("last_players", []))
        party.names = dict(data.get("names") or {s.id: s.name for s in party.seats.values()})
        party.paused = bool(data.get("paused", False))
        party.ended = data.get("ended")
        party.address_index = data.get("address_index", 0)
        party.next_seat = data.get("next_seat", len(party.seats) + 1)
        played = data.get("played") or []
        party.played = [k for k in played if isinstance(k, str)] if isinstance(played, list) else []
        choice = data.get("coach_choice") or {}
        party.coach_choice = ({k: v for k, v in choice.items() if isinstance(v, bool)}
                              if isinstance(choice, dict) else {})
        record = data.get("record")  # absent in a snapshot from before the record: an empty night
        readable = [e for e in record if _readable_entry(e)] if isinstance(record, list) else []
        party.record = [_completed_entry(e) for e in readable[-RECORD_MAX:]]
        if isinstance(record, list) and len(party.record) < len(record):
            notes.append(f"{len(record) - len(party.record)} unreadable record entries dropped")
        recorded, started = data.get("recorded"), data.get("started_at")
        party.recorded = recorded if type(recorded) is int else 0
        party.started_at = float(started) if type(started) in (int, float) else None
        party.summary = data.get("summary") is True and bool(party.record)
        saved_game = data.get("game")
        if saved_game:
            key = saved_game.get("key") if isinstance(saved_game, dict) else None
            try:
                game_cls = registry.get(key)
                if game_cls is None:
                    raise ValueError(f"unknown game {key!r}")
                if not wire.finite(saved_game.get("state")):
                    raise ValueError("a non-finite number (NaN or Infinity) in the game state")
                party.game = game_cls.from_dict(saved_game["state"], rng)
            except Exception as error:  # a game's own from_dict may raise anything
                notes.append(f"game {key!r} dropped: {type(error).__name__}: {error}")
                party.drop_game()
        elif party.phase == "game":
            party.drop_game()
        return party

    def drop_game(self) -> None:
        """Go back to the lobby because the saved game could not be restored: ``ended`` says
        ``"restore_failed"`` so the lobby tells everyone why their game is gone."""
        self.end()
        self.ended = {"serial": self.game_serial, "reason": "restore_failed"}
