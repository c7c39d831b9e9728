"""The single engine loop: every action in server-receive order, timers, and per-seat views.

The transport calls :meth:`Engine.submit` from its handlers; that stamps the message with the
server's monotonic clock and queues it *under one lock*, so queue order is stamp order in both
async modes (measured in ``../shared/research/stack.md`` §3). One loop (:meth:`run_forever`, or
:meth:`drain` in tests) pops messages in that order, hands game actions to the party's game,
fires deadlines, then sends each socket the view of the seat its token owns: only the changed
ones, and everything again after a (re)connect.

Nothing here talks to Flask: the engine is given an ``emit(event, data, sid)`` callable.
"""

from __future__ import annotations

import contextlib
import heapq
import itertools
import json
import logging
import math
import queue as queue_module
import random
import secrets
import string
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable

from . import clocksync, i18n, night, wire
from .games import registry
from .games.base import RuleError
from .netaddr import Candidate, join_url
from .party import Party, clean_name, name_key
from .store import failure_reason

log = logging.getLogger("partyhost.engine")

MAX_MESSAGE_BYTES = 4096
"""Largest accepted message, as compact JSON. Anything bigger is refused as malformed."""

RECENT_IDS = 64
"""How many recent message ids per seat are remembered to refuse doubled messages."""

LATE_AFTER = 2.0
"""Seconds after which a game action is refused as late. A phone sends ``at``, its estimate of
the server's game clock when the player tapped; an action that arrives more than this after it
(a Wi-Fi stall) is refused without penalty rather than played at a moment nobody chose."""

_ID = {"type": ["string", "integer", "null"], "maxLength": 64}
ENVELOPES: dict[str, dict] = {
    "join": {
        "type": "object",
        "properties": {"id": _ID, "name": {"type": "string", "maxLength": 256},
                       "lang": {"type": "string", "maxLength": 10}, "claim": {"type": "boolean"}},
        "required": ["name"],
        "additionalProperties": False,
    },
    "lang": {
        "type": "object",
        "properties": {"id": _ID, "lang": {"type": "string", "maxLength": 10}},
        "required": ["lang"],
        "additionalProperties": False,
    },
    "act": {
        "type": "object",
        "properties": {"id": _ID, "game": {"type": "integer"}, "type": {"type": "string", "maxLength": 40},
                       "at": {"type": "number"}, "tc": {"type": "number"}},
        "required": ["game", "type"],
    },
    "host": {
        "type": "object",
        "properties": {
            "id": _ID,
            "op": {"enum": ["choose", "start", "restart", "pause", "resume", "end", "kick",
                            "promote", "address", "game", "coach", "claim", "again", "ohiraki",
                            "wifi"]},
            "ssid": {"type": "string", "maxLength": 64},
            "password": {"type": "string", "maxLength": 64},
            "claim": {"type": "string", "maxLength": 40},
            "allow": {"type": "boolean"},
            "action": {"type": "object"},
            "game": {"type": "string", "maxLength": 40},
            "options": {"type": "object"},
            "seat": {"type": "string", "maxLength": 20},
            "index": {"type": "integer", "minimum": 0},
            "serial": {"type": "integer"},
            "on": {"type": "boolean"},
        },
        "required": ["op"],
        "additionalProperties": False,
    },
}
_ENVELOPE_VALIDATORS = {kind: wire.Validator(schema) for kind, schema in ENVELOPES.items()}

MAX_CLAIMS = 8
"""Most take-over requests waiting for the host at once (one per phone); more are refused."""

SYNC_ISSUED = 4
"""Answers to ``sync`` pings remembered per socket, so a later ping's ``echo`` can be checked."""

SYNC_SCHEMA = {
    "type": "object",
    "properties": {"n": {"type": "integer", "minimum": 0, "maximum": 2 ** 31},
                   "c": {"type": "number"}, "echo": {"type": "number"}},
    "required": ["n", "c"],
    "additionalProperties": False,
}
_SYNC_VALIDATOR = wire.Validator(SYNC_SCHEMA)

SAVE_RETRY = 5.0
"""Seconds between attempts to save again while saving fails and nothing else changes, so the
TV's warning goes away soon after the disk has room again."""


class RestoreError(ValueError):
    """A snapshot whose party cannot be resumed (a non-finite number outside any game, a party
    view that cannot be built). The caller starts a new party and keeps the file aside."""


@dataclass(order=True)
class Message:
    """One stamped message from a socket. Ordered by ``(stamp, seq)``: the receive order."""

    stamp: float
    seq: int
    sid: str = field(compare=False)
    kind: str = field(compare=False)
    payload: Any = field(compare=False, default=None)
    meta: dict = field(compare=False, default_factory=dict)


@dataclass
class Connection:
    """One live socket: a phone (maybe bound to a seat) or a TV page.

    ``host_screen`` is decided by the transport (the laptop's own TV page or one holding the
    host key); ``lang`` is this device's UI language.
    """

    sid: str
    role: str
    lang: str = "ja"
    seat: str | None = None
    host_screen: bool = False


def room_code(rng: random.Random) -> str:
    """A short room code for the TV: 4 letters without look-alikes (no I, O)."""
    letters = "".join(c for c in string.ascii_uppercase if c not in "IO")
    return "".join(rng.choice(letters) for _ in range(4))


def reply_id(payload: Any) -> str | int | None:
    """The ``id`` to echo in the ``result`` for ``payload``: a string of at most 64 characters or
    an integer a browser holds exactly; anything else (NaN, a float, a huge text) echoes None, so
    the answer to a malformed message can always be written."""
    msg_id = payload.get("id") if isinstance(payload, dict) else None
    if isinstance(msg_id, str) and len(msg_id) <= 64:
        return msg_id
    if isinstance(msg_id, int) and not isinstance(msg_id, bool) and abs(msg_id) <= wire.MAX_SAFE_INTEGER:
        return msg_id
    return None


HELD_PARTS = wire.HELD_PARTS


def encode_view(view: dict, memo: dict[int, tuple[Any, str]]) -> str:
    """``view`` as compact strict JSON with sorted keys, exactly as :func:`wire.compact` writes it,
    but each dict or list of the view, and of its game view, is written once per ``memo``: views
    that share the same object reuse its text. The party view and the join box are one object in every
    view (:meth:`Engine.view_for`); inside each seat's game view, the parts that are the same for
    every seat are one object too when the game builds them with :meth:`Game.table_part`, so a
    flush writes the table once however many seats' views hold it (issue 18, sixth pass).

    Args:
        view: a view (a dict with string keys).
        memo: ``id(part) -> (part, text)`` kept for one flush (the part is held so its id
            cannot be reused meanwhile).
    Raises:
        ValueError: a non-finite number anywhere in the view.
    """
    return _encode_dict(view, memo, True)


def _encode_dict(obj: dict, memo: dict[int, tuple[Any, str]], outer: bool) -> str:
    """:func:`encode_view`'s work for one dict: its members written one by one, the dicts and
    lists among them through ``memo``; with ``outer`` (the view itself) the game view is written
    member by member too (one level deeper: its table parts are shared), anything else whole
    by :func:`wire.compact`. A dict with a key that is not a string is written whole by
    :func:`wire.compact` (json's own rules for such keys).

    Raises:
        ValueError: a non-finite number. TypeError: a value JSON cannot hold.
    """
    parts = []
    for key in sorted(obj):
        head = _KEY_TEXTS.get(key)
        if head is None:
            if type(key) is not str:  # json writes other keys differently: leave it to json
                return wire.compact(obj)
            head = wire.compact(key) + ":"
            if len(_KEY_TEXTS) < _KEY_TEXTS_MAX:
                _KEY_TEXTS[key] = head
        value = obj[key]
        kind = type(value)
        if kind is dict or kind is list:
            done = memo.get(id(value))
            if done is None:
                if outer and kind is dict and key == "game":
                    text = _encode_dict(value, memo, False)
                else:
                    text = wire.compact(value)
                done = memo[id(value)] = (value, text)
            text = done[1]
        elif kind is str:
            text = _encode_str(value)
        elif kind is bool or value is None:
            text = _LITERALS[value]
        elif kind is int:
            text = int.__repr__(value)
        else:
            text = wire.compact(value)
        parts.append(head + text)
    return "{" + ",".join(parts) + "}"


_encode_str = json.encoder.encode_basestring
"""How :func:`wire.compact` (``ensure_ascii=False``) writes a string: the C function json uses."""

_LITERALS = {True: "true", False: "false", None: "null"}
"""What :func:`wire.compact` writes for ``True``, ``False`` and ``None`` (looked up, not encoded:
issue 18, fifth pass)."""

_KEY_TEXTS: dict[str, str] = {}
"""``'"key":'`` for each view and game-view key seen (a few dozen fixed names per game), written
once per process instead of once per view; at most :data:`_KEY_TEXTS_MAX` are kept (a game
keyed by seat ids adds a few per player)."""

_KEY_TEXTS_MAX = 4096


class Engine:
    """The party's one engine loop.

    Args:
        emit: ``emit(event, data, sid)`` sends one Socket.IO event to one socket.
        seed: seeds the engine's ``random.Random`` (deals, room code); None = from the OS.
        clock: monotonic seconds (``time.monotonic``); tests pass a fake.
        make_queue / empty_exception: the queue the loop blocks on (eventlet's or the stdlib's).
        addresses: ranked join-address candidates (:mod:`partyhost.netaddr`); the first is used
            for the QR until the host picks another.
        port: the HTTP port, for the join URL.
        store: optional object with ``save(dict)``, called after each batch that changed state
            with ``{"party": Party.to_dict(), "game_now": float}``.
        snapshot: a saved ``{"party", "game_now"}`` to resume instead of a new party; the game
            clock continues from ``game_now``. A game that cannot be restored (unknown, raising,
            holding NaN/±Infinity, or whose views cannot be built) is dropped and the party goes
            back to the lobby (see :meth:`Party.from_dict`); :attr:`restore_problems` lists what
            was repaired.
    Raises:
        RestoreError, KeyError, TypeError, ValueError: ``snapshot``'s party cannot be resumed.
    """

    def __init__(
        self,
        emit: Callable[[str, Any, str], None],
        *,
        seed: int | None = None,
        clock: Callable[[], float] = time.monotonic,
        make_queue: Callable[[], Any] = queue_module.Queue,
        empty_exception: type[BaseException] = queue_module.Empty,
        addresses: list[Candidate] | None = None,
        port: int = 8765,
        store: Any = None,
        snapshot: dict | None = None,
    ) -> None:
        self._emit = emit
        self.clock = clock
        self.rng = random.Random(seed if seed is not None else secrets.randbits(64))
        self._queue = make_queue()
        self._empty = empty_exception
        self._lock = threading.Lock()
        self._seq = itertools.count()
        self.addresses = list(addresses or [])
        # What the join doctor found at start, one :meth:`partyhost.doctor.Report.view` per join
        # address (the chosen one goes in the TV and host screens' join box); empty = no doctor.
        # Set by the entry point before the loop runs.
        self.doctor: list[dict] = []
        # The TV's Wi-Fi card (:class:`partyhost.wifi.WifiCard`), set by the transport; the
        # password never enters a view: views carry only the SSID and a version number.
        self.wifi: Any = None
        self.port = port
        self.store = store
        self.party = Party(room=room_code(self.rng))
        self.connections: dict[str, Connection] = {}
        self._sent: dict[str, str] = {}
        # sid -> {part: the JSON of that part the socket holds} (see HELD_PARTS)
        self._held: dict[str, dict[str, str]] = {}
        # the games catalogue (the same list every flush, registry.describe) and its JSON
        self._catalogue: tuple[Any, str] = (None, "")
        # the party score's rows (the same list until the score changes, Party.scoreboard) and JSON
        self._board_text: tuple[Any, str] = (None, "")
        self._record_text = wire.EntriesText(wire._COMPACT)  # the night's record as compact JSON
        self._recent_by_seat: dict[str, deque] = {}
        self._paused_total = 0.0
        self._game_floor = float("-inf")  # the latest game time handed out (see received_game_time)
        self._paused_at: float | None = None
        self._dirty = True
        self._stopped = False
        self.restore_problems: list[str] = []
        self._alerts: dict[str, dict] = {}
        # take-over requests: a phone asks for an away seat by its name; the host decides
        self._claims: dict[str, dict] = {}  # claim id -> {"id", "seat", "sid"}
        self._claim_answer: dict[str, str] = {}  # sid -> "refused" | "gone": told on its page
        self._moved: dict[str, str] = {}  # a taken-over seat's old token -> seat id
        self._save_failure: dict | None = None  # {"reason", "count", "retry_at"} while saving fails
        # what the messages of this batch answered (results, welcomes, kicks): held until the
        # batch's snapshot is written, so nothing is acknowledged before it is durable (_flush)
        self._answers: list[tuple[str, Any, str]] = []
        # (game, version, snapshot text) as the store last wrote it, while only actions have run
        # since: the next change's rollback copy is then that text, not a new encoding (_guarded)
        self._saved_game: tuple[Any, int, str] | None = None
        # clock sync (issue 26): sid -> ClockSync, sid -> {host time answered: ping n}; written
        # by the transport's thread (clock_ping) and read by the loop, under _sync_lock
        self._sync_lock = threading.Lock()
        self._clocks: dict[str, clocksync.ClockSync] = {}
        self._issued: dict[str, dict[float, int]] = {}
        # racing actions held until no earlier tap can still arrive: (tap, seq, message)
        self._held_acts: list[tuple[float, int, Message]] = []
        if snapshot:
            self._restore(snapshot)

    def _restore(self, snapshot: dict) -> None:
        problems = self.restore_problems
        self.party = Party.from_dict(snapshot["party"], self.rng, problems=problems)
        game_now = snapshot.get("game_now") or 0.0
        if not isinstance(game_now, (int, float)) or not math.isfinite(game_now):
            # the game's own times are on that clock: without it they mean nothing
            problems.append(f"game clock {game_now!r} reset to 0"
                            + (f", game {self.party.game.KEY!r} dropped" if self.party.game else ""))
            game_now = 0.0
            if self.party.game is not None:
                self.party.drop_game()
        self._paused_total = self.clock() - float(game_now)
        game = self.party.game
        if game is not None:
            try:
                if self.party.running:
                    game.interrupted(self.game_now())
                    # every seat starts away after a restart: the game waits for whoever does
                    # not come back (Game.presence), as for a phone that dropped
                    for seat_id in self.party.players:
                        game.presence(seat_id, False, self.game_now())
                # a state that loads but cannot be shown or timed would blank every screen
                for seat in [None, *self.party.players]:
                    wire.dumps(game.view(seat))
                deadline = game.next_deadline()
                if deadline is not None and not math.isfinite(deadline):
                    raise ValueError(f"deadline {deadline!r}")
                wire.dumps(game.to_dict())
            except Exception as error:
                problems.append(f"game {game.KEY!r} dropped: {type(error).__name__}: {error}")
                self.party.drop_game()
        try:
            if not wire.finite(self.party.to_dict()):
                raise ValueError("a non-finite number (NaN or Infinity) outside the game")
            wire.dumps(self.party_view())
            self.join_url()
        except Exception as error:
            raise RestoreError(f"the saved party cannot be resumed: {type(error).__name__}: {error}") from None
        if self.party.paused:
            self._paused_at = self.clock()

    # ----- transport side (any thread) -------------------------------------------------------
    def submit(self, sid: str, kind: str, payload: Any = None, meta: dict | None = None) -> float:
        """Stamp a message with the server clock and queue it. Returns the stamp (seconds).

        Stamp and enqueue happen under one lock, so the queue order is the stamp order.
        """
        with self._lock:
            stamp = self.clock()
            self._queue.put(Message(stamp, next(self._seq), sid, kind, payload, meta or {}))
        return stamp

    def language(self, sid: str) -> str:
        """The UI language of socket ``sid`` (``"ja"`` for a socket the engine does not know).

        For the transport's own answers (``rate_limited``); safe to call from any thread: it
        reads one attribute of one connection.
        """
        conn = self.connections.get(sid)
        return conn.lang if conn is not None else i18n.LANGS[0]

    def clock_ping(self, sid: str, payload: Any) -> dict:
        """Answer one clock-sync ping of socket ``sid`` at once (transport thread; reads no game
        state). Payload ``{"n": int, "c": phone clock s, "echo"?: host time s of the answer the
        phone got just before}``. A valid echo of an answer sent to this socket makes a sample
        on the host's clock (:mod:`partyhost.clocksync`); a doubled, late or forged echo is no
        sample. Returns the answer: ``{"n", "s": host clock s, "g": host clock − game clock s}``,
        or ``{"ok": False, "code": "bad_sync", "message"}`` for a malformed ping.
        """
        received = self.clock()
        try:
            payload = wire.clean(payload)
        except (TypeError, ValueError):
            payload = None
        if payload is None or next(iter(_SYNC_VALIDATOR.iter_errors(payload)), None) is not None:
            return {"ok": False, "code": "bad_sync",
                    "message": i18n.message(self.language(sid), "err.bad_sync")}
        with self._sync_lock:
            issued = self._issued.setdefault(sid, {})
            echo = payload.get("echo")
            if echo is not None and issued.pop(echo, None) is not None:
                self._clocks.setdefault(sid, clocksync.ClockSync()).add(echo, payload["c"], received)
            now = self.clock()
            issued[now] = payload["n"]
            while len(issued) > SYNC_ISSUED:
                issued.pop(next(iter(issued)))
        return {"n": payload["n"], "s": now, "g": now - self.game_now()}

    def clock_of(self, sid: str) -> clocksync.ClockSync | None:
        """Socket ``sid``'s clock-sync estimate (a copy-free reference), or None."""
        with self._sync_lock:
            return self._clocks.get(sid)

    def hold_window(self) -> float:
        """Seconds a racing action waits for an earlier tap: the largest delay bound among the
        seated players' synced phones (:attr:`ClockSync.delay_bound`, at most
        :data:`clocksync.MAX_BOUND`); 0.0 when none is synced."""
        players = set(self.party.players)
        with self._sync_lock:
            bounds = [self._clocks[c.sid].delay_bound for c in self.connections.values()
                      if c.seat in players and c.sid in self._clocks]
        return min(max(bounds, default=0.0), clocksync.MAX_BOUND)

    def draw_zone(self) -> float:
        """Seconds: two held taps from different phones closer than the sum of their clocks'
        :attr:`~clocksync.ClockSync.jitter` are a fair draw; this is the widest such zone among the
        seated players' synced phones (twice the largest jitter, at most
        :data:`clocksync.DRAW_MAX`), the extra time a racing action waits. 0.0 when none is synced."""
        players = set(self.party.players)
        with self._sync_lock:
            jitters = [self._clocks[c.sid].jitter for c in self.connections.values()
                       if c.seat in players and c.sid in self._clocks]
        return min(2 * max(jitters, default=0.0), clocksync.DRAW_MAX)

    def _racing(self, message: Message) -> bool:
        game = self.party.game
        payload = message.payload
        return (message.kind == "act" and game is not None and isinstance(payload, dict)
                and payload.get("type") in getattr(game, "RACING", ()))

    def _tap(self, message: Message) -> tuple[float, float]:
        """``(tap moment on the server clock, uncertainty)``, seconds (:func:`clocksync.tap_time`).

        Raises:
            RuleError: ``"clock_stamp"`` for a stamp that is not finite or is absurd.
        """
        payload = message.payload
        stamp = payload.get("tc") if isinstance(payload, dict) else None
        try:
            return clocksync.tap_time(stamp, message.stamp, self.clock_of(message.sid))
        except clocksync.ClockStampError:
            raise RuleError("clock_stamp") from None

    def _release_held(self) -> None:
        """Apply the held racing actions whose wait is over, in tap order.

        Two taps from different phones closer than their clocks' jitter added (each phone's
        :attr:`~clocksync.ClockSync.jitter`, at most :data:`clocksync.DRAW_MAX`) cannot be told
        apart even in the usual case: which goes first is drawn, 50/50, with the engine's ``rng``
        (the first then gets the earlier moment). Otherwise a lasting error of one phone's clock
        estimate would decide every such race the same way. Farther apart: tap order.
        """
        if not self._held_acts:
            return
        wait = self.hold_window() + self.draw_zone()
        now = self.clock()
        held = self._held_acts
        draws = getattr(self.party.game, "RACE_DRAW", True)
        while held and held[0][0] + wait <= now:
            tap, seq, message = heapq.heappop(held)
            if held:
                tap2, seq2, other = held[0]
                zone = min(message.meta.get("jitter", 0.0) + other.meta.get("jitter", 0.0), clocksync.DRAW_MAX)
                if (draws and other.sid != message.sid and tap2 - tap <= zone
                        and not message.meta.get("behind") and not other.meta.get("behind")
                        and self.rng.random() < 0.5):
                    heapq.heapreplace(held, (tap2, seq, message))
                    message.meta["tap"] = (tap2, message.meta["tap"][1])
                    other.meta["tap"] = (tap, other.meta["tap"][1])
                    message = other
            self._process(message)

    # ----- the loop ------------------------------------------------------------------------------
    def game_now(self) -> float:
        """Seconds on the game clock: the server clock less the time the host has paused."""
        now = self.clock()
        paused = now - self._paused_at if self._paused_at is not None else 0.0
        return now - self._paused_total - paused

    def _rules_now(self) -> float:
        """``game_now()`` for a time handed to the rules (timers, host moves): raises the floor
        that :meth:`received_game_time` keeps, so the game's clock never runs backwards."""
        now = self.game_now()
        if now > self._game_floor:
            self._game_floor = now
        return now

    def next_wakeup(self) -> float | None:
        """Server-clock time of the next deadline (host hand-over or a game timer), or None."""
        times = [t for t in (self.party.host_deadline(),) if t is not None]
        if self._save_failure is not None:
            times.append(self._save_failure["retry_at"])
        if self._held_acts:
            times.append(self._held_acts[0][0] + self.hold_window() + self.draw_zone())
        game = self.party.game
        if game is not None and not game.over and not self.party.paused:
            deadline = game.next_deadline()
            if deadline is not None:
                times.append(deadline + self._paused_total)
        return min(times) if times else None

    def drain(self) -> int:
        """Process every queued message in stamp order, fire due timers, send changed views.

        Returns the number of messages processed. Tests call this instead of running the loop.
        """
        count = 0
        while True:
            try:
                message = self._queue.get_nowait()
            except self._empty:
                break
            self._process(message)
            count += 1
        try:
            self._release_held()
            self._fire_timers()
            if self.party.settle(self.game_now()):  # a game just ended: into the night's record
                self._dirty = True
        finally:  # a timer that raised (the game was restored) must not hold the answers back
            self._flush()
        return count

    def run_forever(self, max_wait: float = 1.0) -> None:
        """Block on the queue until a message or the next deadline, then :meth:`drain`; forever.

        Started as the server's one background task. ``stop()`` ends it within ``max_wait``.
        """
        while not self._stopped:
            wake = self.next_wakeup()
            timeout = max_wait if wake is None else min(max_wait, max(0.0, wake - self.clock()))
            try:
                message = self._queue.get(timeout=timeout)
            except self._empty:
                message = None
            try:
                if message is not None:
                    self._process(message)
                self.drain()
            except Exception:  # pragma: no cover - the loop must survive anything
                log.exception("engine loop error")

    def stop(self) -> None:
        """Ask :meth:`run_forever` to return."""
        self._stopped = True

    def _fire_timers(self) -> None:
        now = self.clock()
        if self.party.hand_on_host(now):
            self._dirty = True
        if self._save_failure is not None and now >= self._save_failure["retry_at"]:
            self._dirty = True  # try saving again even if nothing else changes
        game = self.party.game
        if game is None or game.over or self.party.paused:
            return
        deadline = game.next_deadline()
        if deadline is not None and deadline <= self.game_now():
            self._guarded(lambda: game.tick(self._rules_now()))
            self._dirty = True

    def _guarded(self, change: Callable[[], None]) -> None:
        """Run a game change; on an unexpected exception, log it and restore the game as it was.

        The copy to restore is JSON text, parsed only if the change fails (issue 18). When the
        store's last snapshot holds this very game as it is now (written at the end of the last
        flush, and only actions have run since: :attr:`_saved_game`), that text is the copy;
        otherwise the game is encoded first (:meth:`Game.to_json`). Sixth pass: the game was
        encoded twice per action, for this copy and for the snapshot.

        Raises:
            RuleError: the change's own refusal (the game is unchanged: the pipeline refuses
                before it changes anything), or ``"internal"`` after a restore.
        """
        game = self.party.game
        saved, self._saved_game = self._saved_game, None  # after this change the text is old
        stored = (game is not None and saved is not None and saved[0] is game
                  and saved[1] == game.version)
        snapshot = game.to_json() if game is not None and not stored else None
        try:
            change()
        except RuleError:
            if stored and game.version == saved[1]:
                self._saved_game = saved  # a refusal changes nothing: the text still holds
            raise
        except Exception:
            log.exception("game raised; state restored")
            if stored:
                self.party.game = type(game).from_dict(json.loads(saved[2])["party"]["game"]["state"], self.rng)
            elif snapshot is not None:
                self.party.game = type(game).from_dict(json.loads(snapshot), self.rng)
            raise RuleError("internal") from None

    # ----- messages -----------------------------------------------------------------------------
    def _process(self, message: Message) -> None:
        conn = self.connections.get(message.sid)
        log.debug("message %s from %s (%s)", message.kind, message.sid, "known" if conn else "unknown")
        payload = message.payload
        msg_id = reply_id(payload)
        if message.kind != "act":
            self._saved_game = None  # joins, host moves, presence may change the game outside _guarded
        if message.kind == "connect" and conn is None:
            self._on_connect(message)
            return
        if message.kind == "disconnect":
            self._on_disconnect(message)
            return
        if conn is None:
            # a held move whose socket went meanwhile still counts: the tap reached the host
            # (played on arrival it would have stood); it plays for the seat, the answer is lost
            conn = message.meta.get("conn")
        if conn is None:
            return  # a message from a socket we never saw connect (or already gone)
        if "tap" not in message.meta and self._racing(message):
            # A racing action waits until no earlier tap can still arrive (hold_window), then is
            # applied in tap order: an earlier tap over a slower link still wins (issue 26).
            try:
                message.meta["tap"] = self._tap(message)
            except RuleError:
                pass  # refused in _on_act, in order
            else:
                sync = self.clock_of(message.sid)
                message.meta["jitter"] = sync.jitter if sync is not None else 0.0
                message.meta["conn"] = conn
                heapq.heappush(self._held_acts, (message.meta["tap"][0], message.seq, message))
                return
        if "tap" not in message.meta and message.kind == "act" and self._held_acts \
                and not self._racing(message):  # (a racing one here had its stamp refused)
            # Any other move of the game waits behind the held racing ones (at its arrival), or
            # it would overtake an earlier tap: a ストップ or a reset tapped after a held play was
            # applied first and the play refused. Never part of a fair draw.
            message.meta.update(tap=(message.stamp, 0.0), jitter=0.0, behind=True, conn=conn)
            heapq.heappush(self._held_acts, (message.stamp, message.seq, message))
            return
        try:
            if "arity" in message.meta:
                log.warning("socket %s sent %r with %d arguments (one is expected)",
                            message.sid, message.kind, message.meta["arity"])
                raise RuleError("malformed", detail="one payload per message")
            payload = self._check_envelope(message.kind, payload)
            handler = getattr(self, f"_on_{message.kind}")
            handler(conn, payload, message)
        except RuleError as error:
            self._reply(conn, msg_id, error)
        except Exception:  # a bug outside a game's rules: answer it, keep the loop alive
            log.exception("message %s failed", message.kind)
            self._reply(conn, msg_id, RuleError("internal"))
            self._dirty = True
        else:
            self._seen(conn, message.kind, msg_id)
            self._reply(conn, msg_id, None)
            self._dirty = True
        self._sync_pause()

    def _sync_pause(self) -> None:
        """Keep the game clock in step with ``party.paused``, whatever changed it (pause,
        resume, or a kick or end that stopped a paused game)."""
        now = self.clock()
        if self.party.paused and self._paused_at is None:
            self._paused_at = now
        elif not self.party.paused and self._paused_at is not None:
            self._paused_total += now - self._paused_at
            self._paused_at = None

    def _check_envelope(self, kind: str, payload: Any) -> Any:
        """The payload as the game may see it, or a refusal.

        Order: a known kind; then :func:`wire.clean` (only finite numbers, integers a browser can
        hold, bounded nesting; invisible characters removed from every text); then the size as
        compact JSON; then the envelope's schema (whose integers are JSON integers: ``2.0`` is
        not one).

        Returns:
            The cleaned payload (a new structure).
        Raises:
            RuleError: ``"unknown_message"``, ``"malformed"`` (``detail``), ``"too_large"`` (``max``).
        """
        if kind not in _ENVELOPE_VALIDATORS:
            raise RuleError("unknown_message")
        try:
            payload = wire.clean(payload)
            size = len(wire.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode())
        except (TypeError, ValueError) as error:
            detail = error.detail if isinstance(error, wire.WireError) else "json"
            raise RuleError("malformed", detail=detail) from None
        if size > MAX_MESSAGE_BYTES:
            raise RuleError("too_large", max=MAX_MESSAGE_BYTES)
        error = next(iter(_ENVELOPE_VALIDATORS[kind].iter_errors(payload)), None)
        if error is not None:
            where = "/".join(str(p) for p in error.path) or "(root)"
            # jsonschema's message quotes the value; never a secret (a Wi-Fi password) back
            what = error.validator if "password" in error.path else error.message
            raise RuleError("malformed", detail=f"{where}: {what}"[:200])
        return payload

    def _reply(self, conn: Connection, msg_id: Any, error: RuleError | None) -> None:
        if error is None:
            self._send("result", {"id": msg_id, "ok": True}, conn.sid)
            return
        self._send("result", {
            "id": msg_id,
            "ok": False,
            "code": error.code,
            **({"scope": error.scope} if error.scope else {}),
            "params": {k: v for k, v in error.params.items() if isinstance(v, (str, int, float))},
            "message": i18n.refusal(conn.lang, error.code, error.scope, **error.params),
        }, conn.sid)

    def _on_connect(self, message: Message) -> None:
        meta = message.meta
        conn = Connection(
            sid=message.sid,
            role="tv" if meta.get("role") == "tv" else "phone",
            lang=i18n.normalize_lang(meta.get("lang")),
            host_screen=bool(meta.get("host_screen")) and meta.get("role") == "tv",
        )
        self.connections[message.sid] = conn
        self._sent.pop(message.sid, None)
        self._held.pop(message.sid, None)
        welcome: dict[str, Any] = {"seat": None, "room": self.party.room, "role": conn.role}
        if conn.role == "phone" and meta.get("token") is not None:
            seat = self.party.seat_of_token(meta.get("token"))
            moved = self._moved.get(meta.get("token")) if isinstance(meta.get("token"), str) else None
            if seat is None and moved is not None and moved in self.party.seats:
                welcome["reason"] = "moved"  # the seat was taken over from another device
                welcome["name"] = self.party.seats[moved].name
            elif seat is None:
                welcome["reason"] = "unknown_token"
            else:
                self._bind(conn, seat.id)
                welcome.update(seat=seat.id, name=seat.name)
        self._send("welcome", welcome, conn.sid)
        self._dirty = True

    def _bind(self, conn: Connection, seat_id: str) -> None:
        seat = self.party.seats[seat_id]
        conn.seat = seat_id
        seat.connections += 1
        seat.away_since = None
        # the seat is back (or taken over): nothing to take
        self._drop_claims(seat=seat_id, tell_gone=True, except_sid=conn.sid)
        if seat.connections == 1:
            self._tell_presence(seat_id, True)

    def _drop_claims(self, *, seat: str | None = None, sid: str | None = None,
                     tell_gone: bool = False, except_sid: str | None = None) -> bool:
        """Drop the take-over requests for seat ``seat`` or asked from socket ``sid``; with
        ``tell_gone`` each asking page (but ``except_sid``'s) is told its request is gone.
        Returns whether any was dropped."""
        dropped = [c for c in self._claims.values() if c["seat"] == seat or c["sid"] == sid]
        for claim in dropped:
            del self._claims[claim["id"]]
            if tell_gone and claim["sid"] != except_sid:
                self._claim_answer[claim["sid"]] = "gone"
        return bool(dropped)

    def _tell_presence(self, seat_id: str, present: bool) -> None:
        """Tell a running game that a playing seat's last socket went (``present`` False) or its
        first came back (True), on the game clock (:meth:`Game.presence`). A game's refusal or
        bug here never blocks the (re)connect itself."""
        party = self.party
        game = party.game
        if game is None or not party.running or seat_id not in party.players:
            return
        try:
            self._guarded(lambda: game.presence(seat_id, present, self._rules_now()))
        except RuleError:
            pass
        self._dirty = True

    def _on_disconnect(self, message: Message) -> None:
        conn = self.connections.pop(message.sid, None)
        with self._sync_lock:
            self._clocks.pop(message.sid, None)
            self._issued.pop(message.sid, None)
        self._sent.pop(message.sid, None)
        self._held.pop(message.sid, None)
        self._claim_answer.pop(message.sid, None)
        if self._drop_claims(sid=message.sid):
            self._dirty = True
        if conn is None or conn.seat is None:
            return
        seat = self.party.seats.get(conn.seat)
        if seat is not None:
            seat.connections = max(0, seat.connections - 1)
            if seat.connections == 0:
                seat.away_since = self.clock()
                self._tell_presence(seat.id, False)
        self._dirty = True

    def _on_join(self, conn: Connection, payload: dict, message: Message) -> None:
        if conn.role != "phone":
            raise RuleError("not_a_phone")
        if conn.seat is not None:
            raise RuleError("already_joined")
        lang = i18n.normalize_lang(payload.get("lang"), conn.lang)
        conn.lang = lang
        self._claim_answer.pop(conn.sid, None)
        away = self._away_seat_named(payload["name"])
        if payload.get("claim"):
            self._claim(conn, payload["name"], away)
            return
        if away is not None:
            # the name of a seat whose phone is away: the page offers to ask the host for it
            raise RuleError("name_taken_away", name=away.name)
        seat = self.party.join(payload["name"], lang, lambda: secrets.token_urlsafe(24))
        self._bind(conn, seat.id)
        self._send("welcome", {"seat": seat.id, "name": seat.name, "token": seat.token,
                               "room": self.party.room, "role": "phone"}, conn.sid)

    def _away_seat_named(self, name: str):
        """The seat called ``name`` (by :func:`partyhost.party.name_key`) when no phone of it is
        connected, else None."""
        key = name_key(name)
        for seat in self.party.seats.values():
            if name_key(seat.name) == key and seat.connections == 0:
                return seat
        return None

    def _claim(self, conn: Connection, name: str, seat) -> None:
        """A phone asks to take over the away seat called ``name`` (its own phone locked out, a
        second browser): the request waits for the host (TV or host phone), since a name is not
        an identity. A connected seat can never be asked for.

        Raises:
            RuleError: ``"claim_no_seat"`` (no seat of that name is away), ``"too_many_claims"``.
        """
        if seat is None:
            raise RuleError("claim_no_seat", name=clean_name(name))
        self._drop_claims(sid=conn.sid)
        if len(self._claims) >= MAX_CLAIMS:
            raise RuleError("too_many_claims")
        claim_id = secrets.token_urlsafe(9)
        self._claims[claim_id] = {"id": claim_id, "seat": seat.id, "sid": conn.sid}

    def _answer_claim(self, claim_id: str, allow: bool) -> None:
        """The host's answer to a take-over request. Allowed: the asking phone gets the seat
        (hand, score and all) under a new token; the old token is kept aside so the old page,
        when it wakes, is told its seat moved. Refused: the asking phone is told.

        Raises:
            RuleError: ``"no_such_claim"`` (answered already, or its phone went);
                ``"seat_connected"`` (the seat's own phone came back meanwhile).
        """
        claim = self._claims.pop(claim_id, None)
        if claim is None:
            raise RuleError("no_such_claim")
        conn = self.connections.get(claim["sid"])
        seat = self.party.seats.get(claim["seat"])
        if conn is None or seat is None:
            raise RuleError("no_such_claim")
        if not allow:
            self._claim_answer[conn.sid] = "refused"
            return
        if seat.connections > 0 or conn.seat is not None:
            raise RuleError("seat_connected", name=seat.name)
        self._moved[seat.token] = seat.id
        seat.token = secrets.token_urlsafe(24)
        self._bind(conn, seat.id)
        self._send("welcome", {"seat": seat.id, "name": seat.name, "token": seat.token,
                               "room": self.party.room, "role": "phone", "moved_here": True}, conn.sid)

    def claims(self) -> list[dict]:
        """Take-over requests waiting for the host, oldest first: ``[{"id", "seat", "name"}]``
        (for the TV and host screens)."""
        return [{"id": c["id"], "seat": c["seat"], "name": self.party.seats[c["seat"]].name}
                for c in self._claims.values() if c["seat"] in self.party.seats]

    def _on_lang(self, conn: Connection, payload: dict, message: Message) -> None:
        conn.lang = i18n.normalize_lang(payload["lang"], conn.lang)
        if conn.seat is not None:
            self.party.seats[conn.seat].lang = conn.lang

    @staticmethod
    def _id_key(conn: Connection) -> str:
        return conn.seat or f"screen:{conn.sid}"

    def _check_fresh(self, conn: Connection, msg_id: Any) -> None:
        """Refuse a message id this seat (or screen) already had accepted: a doubled tap or
        a resend after a reconnect. A refused message does not use its id up."""
        if msg_id is not None and msg_id in self._recent_by_seat.get(self._id_key(conn), ()):
            raise RuleError("duplicate")

    def _seen(self, conn: Connection, kind: str, msg_id: Any) -> None:
        if msg_id is not None and kind in ("act", "host"):
            self._recent_by_seat.setdefault(self._id_key(conn), deque(maxlen=RECENT_IDS)).append(msg_id)

    def _on_act(self, conn: Connection, payload: dict, message: Message) -> None:
        party = self.party
        if conn.seat is None:
            raise RuleError("not_joined")
        if party.game is None:
            raise RuleError("no_game")
        if payload["game"] != party.game_serial:
            raise RuleError("stale_game")
        if conn.seat not in party.players:
            raise RuleError("not_playing_this_game")
        if party.game.over:
            raise RuleError("game_over")
        if party.paused:
            raise RuleError("paused")
        # a racing move is judged at its tap's moment on the server clock (its arrival without
        # clock sync; see _process), any other at its arrival
        tap, uncertainty = message.meta.get("tap") or (message.stamp, 0.0)
        late = (message.stamp - self._paused_total) - payload.get("at", float("inf"))
        if late > LATE_AFTER:
            raise RuleError("too_late", seconds=round(late, 1))
        if "tap" not in message.meta and self._racing(message):
            self._tap(message)  # not held: its stamp was refused; say why
        received = clocksync.Moment(self.received_game_time(tap), uncertainty)
        action = {k: v for k, v in payload.items() if k not in ("id", "game", "at", "tc")}
        self._check_fresh(conn, payload.get("id"))  # the game's pipeline checks the action itself
        game = party.game
        self._guarded(lambda: game.apply(conn.seat, action, received))

    def received_game_time(self, stamp: float) -> float:
        """The game-clock time at which a message stamped ``stamp`` (server clock) arrived.

        A game judges an action by when the server *received* it, not when the loop got round
        to it, so two plays 3 ms apart are 3 ms apart to the rules however busy the loop was
        (Word Basket's near-race margin, Diabolo's claims). The time never goes back past what
        the game was last told (a timer that fired meanwhile), so a game's clock only moves
        forward. Only meaningful while not paused (actions are refused while paused).
        """
        received = stamp - self._paused_total
        floor = self._game_floor
        if received < floor:
            received = floor
        self._game_floor = received
        return received

    def is_host(self, conn: Connection) -> bool:
        """Host powers: the laptop's own TV page, or the phone the host promoted."""
        return conn.host_screen or (conn.seat is not None and conn.seat == self.party.host_seat)

    def _on_host(self, conn: Connection, payload: dict, message: Message) -> None:
        if not self.is_host(conn):
            raise RuleError("not_host")
        self._check_fresh(conn, payload.get("id"))
        party = self.party
        op = payload["op"]
        # "play again" on one screen and "back to lobby" on another, pressed together: each
        # names the game it was pressed for, and the second finds it gone.
        if "serial" in payload and payload["serial"] != party.game_serial:
            raise RuleError("stale_game")
        if op == "choose":
            party.choose(payload.get("game", party.game_key), payload.get("options"))
        elif op in ("start", "restart"):
            party.start(self.rng, self._rules_now())
        elif op == "pause":
            if not party.running:
                raise RuleError("no_game")
            party.paused = True
        elif op == "resume":
            party.paused = False
        elif op == "end":
            party.end("host" if party.running else "finished", self.game_now())
        elif op == "kick":
            seat_id = payload.get("seat", "")
            sids = [c for c in self.connections.values() if c.seat == seat_id]
            party.kick(seat_id, self._rules_now())
            self._drop_claims(seat=seat_id, tell_gone=True)
            for other in sids:
                other.seat = None
                self._send("kicked", {}, other.sid)
        elif op == "promote":
            party.promote(payload.get("seat", ""))
        elif op == "claim":
            self._answer_claim(payload.get("claim", ""), bool(payload.get("allow")))
        elif op == "game":
            # the host's own moves inside a game (overrule a table vote, …): Game.host_apply
            game = party.game
            if game is None:
                raise RuleError("no_game")
            if game.over:
                raise RuleError("game_over")
            action = payload.get("action")
            by = None if conn.host_screen else conn.seat  # a promoted phone acts from its seat
            self._guarded(lambda: game.host_apply(action, self._rules_now(), by=by))
        elif op == "coach":
            # the first-round coach: the lobby switch, or (during a game) the host's skip
            if "on" not in payload:
                raise RuleError("malformed", detail="on: required")
            party.set_coach(payload["on"])
        elif op == "again":  # もう一度: the last recorded game, same options
            party.again(self.rng, self._rules_now())
        elif op == "ohiraki":  # the night summary on (おひらき) or off (the night goes on)
            if "on" not in payload:
                raise RuleError("malformed", detail="on: required")
            party.show_summary(payload["on"])
        elif op == "address":
            index = payload.get("index", 0)
            if index >= len(self.addresses):
                raise RuleError("no_such_address")
            party.address_index = index
        elif op == "wifi":  # the TV's Wi-Fi card: set (or clear, with an empty SSID)
            if self.wifi is None:
                raise RuleError("no_wifi")
            if not conn.host_screen:
                # a host TV page only: host powers pass on to any connected guest by themselves
                # (Party.hand_on_host), who could point the QR code the room scans at their own
                # hotspot; a host phone never sees the card either (the views)
                raise RuleError("wifi_host_screen")
            try:
                self.wifi.set(payload.get("ssid", ""), payload.get("password", ""))
            except ValueError as error:
                raise RuleError(str(error)) from None
            self._dirty = True

    # ----- views --------------------------------------------------------------------------------
    def join_url(self) -> str:
        """The URL the QR code encodes: the chosen address, the port and ``/``."""
        if not self.addresses:
            return join_url("127.0.0.1", self.port)
        index = min(self.party.address_index, len(self.addresses) - 1)
        return join_url(self.addresses[index].url_host, self.port)

    def party_view(self) -> dict:
        """The public lobby state every screen shows."""
        party = self.party
        board = party.scoreboard()
        return {
            "room": party.room,
            "phase": party.phase,
            "game_key": party.game_key,
            "options": party.options.get(party.game_key, {}),
            "howto": party.howto(),
            "games": registry.describe(),
            "roster": party.roster(),
            "names": party.names,
            "host_seat": party.host_seat,
            "paused": party.paused,
            "serial": party.game_serial,
            "players": list(party.players),
            "over": bool(party.game is not None and party.game.over),
            "coach": party.coach_on(),
            "table_lang": party.lobby_table_lang(),
            "ended": party.ended,
            "record": party.record,
            "scoreboard": board,
            **self._night_view(board),
        }

    def _night_view(self, board: list[dict]) -> dict:
        """The lobby's momentum (もう一度 and the suggested next game for the seats present,
        :func:`partyhost.night.suggest`) and, while おひらき is up, the night summary
        (:func:`partyhost.night.summary`)."""
        party = self.party
        present = sum(1 for s in party.seats.values() if s.connections > 0)
        ranges = {key: (cls.MIN_PLAYERS, cls.MAX_PLAYERS) for key, cls in registry.GAMES.items()}
        return {
            "momentum": {
                "again": party.record[-1]["game"] if party.record else None,
                "present": present,
                "next": night.suggest(ranges, present, party.record),
            },
            "summary": night.summary(party.record, board, party.seats) if party.summary else None,
        }

    def view_for(self, conn: Connection, shared: dict | None = None) -> dict:
        """Everything one socket may see: the party, its own seat, and the game view of that
        seat (the table view for TV pages, spectators and phones not yet seated).

        Args:
            conn: the socket.
            shared: a dict kept for one flush: the parts every socket sees alike (the party
                view, each seat's game view, the join box) are built once and the *same
                objects* are put in every view, so :func:`encode_view` writes each once.
        """
        if shared is None:
            shared = {}
        party = self.party
        game = party.game
        seat_id = conn.seat
        if "party" not in shared:
            shared["party"] = self.party_view()
        view: dict[str, Any] = {"party": shared["party"], "host": self.is_host(conn)}
        if conn.role == "phone":
            seat = party.seats.get(seat_id) if seat_id else None
            view["me"] = None if seat is None else {
                "seat": seat.id, "name": seat.name, "spectator": seat.spectator,
                "playing": seat.id in party.players,
            }
            asked = next((c for c in self._claims.values() if c["sid"] == conn.sid), None)
            if seat is None and asked is not None and asked["seat"] in party.seats:
                view["claim"] = {"status": "pending", "name": party.seats[asked["seat"]].name}
            elif seat is None and conn.sid in self._claim_answer:
                view["claim"] = {"status": self._claim_answer[conn.sid]}
        if game is not None:
            game_seat = seat_id if seat_id in party.players else None
            if ("game", game_seat) not in shared:
                shared["game", game_seat] = game.view(game_seat)
            view["game"] = shared["game", game_seat]
        else:
            view["game"] = None
        if conn.role == "tv" or view["host"]:
            if "join" not in shared:
                shared["join"] = {
                    "url": self.join_url(),
                    "addresses": [
                        {"address": c.address, "interface": c.interface, "virtual": c.virtual,
                         "default_route": c.default_route}
                        for c in self.addresses
                    ],
                    "index": party.address_index,
                    "doctor": self.doctor[min(party.address_index, len(self.doctor) - 1)]
                    if self.doctor else None,
                }
                shared["alerts"] = self.alerts()
                shared["claims"] = self.claims()
            view["join"] = shared["join"]
            if conn.host_screen and self.wifi is not None:
                # the host TV only: the SSID and a version, never the password (/wifi.svg)
                view["wifi"] = self.wifi.public()
            view["alerts"] = shared["alerts"]
            view["claims"] = shared["claims"]
        return view

    def alert(self, code: str, **params: Any) -> None:
        """Show a notice on the TV and host screens (``alert.<code>`` in the catalogues, with
        ``params``) until the next game starts. The host's terminal said more; this is what the
        table should know (e.g. that the last party could not be read)."""
        self._alerts[code] = {"code": code, "params": params, "serial": self.party.game_serial}
        self._dirty = True

    def alerts(self) -> list[dict]:
        """The party-level notices for TV and host screens, most urgent first:
        ``[{"code": str, "params": {...}}]``. ``save_failed`` (``reason``: see
        :func:`partyhost.store.failure_reason`) stays while saving fails; the others until the
        next game starts."""
        shown = []
        if self._save_failure is not None:
            shown.append({"code": "save_failed", "params": {"reason": self._save_failure["reason"]}})
        for note in self._alerts.values():
            if note["serial"] == self.party.game_serial:
                shown.append({"code": note["code"], "params": note["params"]})
        return shown

    @property
    def save_failing(self) -> str | None:
        """Why saving fails now (a :func:`partyhost.store.failure_reason` code), or None."""
        return self._save_failure["reason"] if self._save_failure else None

    def _save(self, now: float) -> None:
        """Save a snapshot; a failure (disk full, read-only folder…) never stops the game: it is
        logged once, shown on the TV until a save works again, and retried every
        :data:`SAVE_RETRY` seconds meanwhile."""
        try:
            # live=True: the game's part is not deep-copied first, the store encodes it at once
            self.store.save({"party": self.party.to_dict(live=True), "game_now": now})
        except Exception as error:
            self._saved_game = None
            retry_at = self.clock() + SAVE_RETRY
            if self._save_failure is None:
                reason = failure_reason(error)
                log.error("パーティーを保存できません(%s)。ゲームは続きます。保存できるまでテレビに警告を出します"
                          " / cannot save the party (%s: %s); the game goes on and the TV warns until a"
                          " save works", i18n.message("ja", f"alert.reason.{reason}"), reason,
                          getattr(error, "cause", error))
                log.debug("snapshot failed", exc_info=True)
                self._save_failure = {"reason": reason, "count": 1, "retry_at": retry_at}
            else:
                self._save_failure["count"] += 1
                self._save_failure["retry_at"] = retry_at
                self._save_failure["reason"] = failure_reason(error)
            return
        game = self.party.game
        text = getattr(self.store, "last_text", None)
        if game is not None and text is not None:
            self._saved_game = (game, game.version, text)
        if self._save_failure is not None:
            log.warning("保存できるようになりました / saving works again (%d attempts had failed)",
                        self._save_failure["count"])
            self._save_failure = None

    def _flush(self) -> None:
        """Send each socket its changed view, write the snapshot, then the batch's answers.

        Order (issue 18, item 3): the states of sockets that sent nothing in this batch go
        first: they acknowledge nothing, so they need not wait for the disk. Then the snapshot
        is written, once for the whole batch however many messages it held (a group commit).
        Only then do the batch's answers (``result``, ``welcome``, ``kicked``) and the states of
        the sockets that sent them go out, so a phone is never told that its action was taken
        before a ``kill -9`` could no longer lose it, in either async mode (threading sends
        from other threads at once; under eventlet nothing leaves before the loop yields).
        """
        if not self._dirty:
            self._release([])  # nothing changed: nothing to save before answering
            return
        self._dirty = False
        now = self.game_now()
        after_save: list[tuple[str, Any]] = []
        shown = self.save_failing
        try:
            after_save, unsendable = self._fan_out(now)
        finally:  # even when a view cannot be built (a bug): save, then answer
            if self.store is not None:
                self._save(now)
            self._release(after_save)
        if self.save_failing != shown:
            # saving just started failing or works again: the TV's warning (alerts) changed
            # with this write, so the views go out once more (rare, only on such a change)
            _, unsendable = self._fan_out(now)
        if unsendable:
            raise ValueError(f"a view holds a non-finite number (sockets {unsendable}); not sent")

    def _release(self, states: list[tuple[str, Any]]) -> None:
        """Send the held answers of this batch in order, then ``states`` (``(sid, state)``)."""
        answers, self._answers = self._answers, []
        for event, data, sid in answers:
            self._send(event, data, sid, hold=False)
        for sid, state in states:
            self._send("state", state, sid, hold=False)

    def _fan_out(self, now: float) -> tuple[list[tuple[str, Any]], list[str]]:
        """Send the changed views to the sockets that sent nothing in this batch. Returns the
        ``(sid, state)`` pairs that wait for the snapshot, and the sockets whose view could not
        be written (a non-finite number: a bug in a game)."""
        # A view depends on the socket's role, its seat and its host powers only (view_for), so
        # each distinct view is built and encoded once per flush, however many screens show it.
        # The encoding is both the "did it change" key and the text that goes out (issue 18).
        # The parts of the party view a page holds (wire.HELD_PARTS: the catalogue, roster,
        # names, record, scoreboard; no game action changes them): the views are encoded
        # without them, and a socket gets each only when what it holds differs (its first state
        # after each (re)connect, or a change of that part).
        lean: dict[tuple, tuple[dict, dict, str] | None] = {}  # kind -> (full view, lean view, text)
        variants: dict[tuple, tuple[dict, str]] = {}  # (kind, parts) -> (view, text) with those parts
        parties: dict[tuple, dict] = {}  # parts -> the lean party view plus those parts (shared)
        shared: dict = {}
        memo: dict[int, tuple[Any, str]] = {}
        lean_party: dict | None = None
        held_texts: dict[str, str] = {}
        outgoing: dict[str, tuple[dict, list[str]]] = {}
        unsendable: list[str] = []
        game = self.party.game
        # the game's table parts are built once for all the seats' views (Game.sharing_views)
        with game.sharing_views() if game is not None else contextlib.nullcontext():
            for conn in list(self.connections.values()):
                kind = (conn.role, conn.seat, self.is_host(conn))
                if kind not in lean:
                    view = self.view_for(conn, shared)
                    if lean_party is None:
                        lean_party = {k: v for k, v in view["party"].items() if k not in HELD_PARTS}
                    lean_view = {**view, "party": lean_party}
                    try:
                        lean[kind] = (view, lean_view, encode_view(lean_view, memo))
                        if not held_texts:
                            held_texts = self._held_texts(view["party"])
                    except ValueError:
                        # a non-finite number in a view: a bug in a game. That socket keeps its last
                        # good state; the others still get theirs, then the bug is raised loudly.
                        lean[kind] = None
                entry = lean[kind]
                if entry is None:
                    unsendable.append(conn.sid)
                    continue
                view, lean_view, text = entry
                held = self._held.setdefault(conn.sid, {})
                parts = tuple(k for k in HELD_PARTS if held.get(k) != held_texts[k])
                if self._sent.get(conn.sid) == text and not parts:
                    continue
                self._sent[conn.sid] = text
                held.update((k, held_texts[k]) for k in parts)
                if not parts:
                    outgoing.setdefault(text, (lean_view, []))[1].append(conn.sid)
                    continue
                if (kind, parts) not in variants:
                    if parts not in parties:
                        parties[parts] = {**lean_party, **{k: view["party"][k] for k in parts}}
                    with_parts = {**view, "party": parties[parts]}
                    variants[kind, parts] = (with_parts, encode_view(with_parts, memo))
                with_parts, full_text = variants[kind, parts]
                outgoing.setdefault(full_text, (with_parts, []))[1].append(conn.sid)
        now_json = '{"now":' + wire.dumps(now) + ","
        answered = {sid for _, _, sid in self._answers}
        after_save: list[tuple[str, Any]] = []
        for text, (view, sids) in outgoing.items():
            view["now"] = now
            state = wire.EncodedView(view, now_json + text[1:])  # a view is never {}
            for sid in sids:
                if sid in answered:
                    after_save.append((sid, state))
                else:
                    self._send("state", state, sid, hold=False)
        return after_save, unsendable

    def _held_texts(self, party_view: dict) -> dict[str, str]:
        """The JSON of each of :data:`HELD_PARTS` in ``party_view``, to compare with what each
        socket holds. The catalogue is the same list every time (:func:`registry.describe`), so
        its text is written once per process, not once per flush; the score's and the record's
        once per change."""
        texts = {}
        for key in HELD_PARTS:
            value = party_view.get(key)
            if key == "games":
                if self._catalogue[0] is not value:
                    self._catalogue = (value, wire.compact(value))
                texts[key] = self._catalogue[1]
            elif key == "scoreboard":
                if self._board_text[0] is not value:  # the same rows until the score changes
                    self._board_text = (value, wire.compact(value))
                texts[key] = self._board_text[1]
            elif key == "record" and value is self.party.record:
                texts[key] = self._record_text.text(value)  # entries never change once written
            else:
                texts[key] = wire.compact(value)
        return texts

    def _send(self, event: str, data: Any, sid: str, hold: bool = True) -> None:
        """Send one event to one socket; with ``hold`` (every answer to a message) it waits in
        the batch's answers until the snapshot is written (:meth:`_flush`)."""
        if hold:
            self._answers.append((event, data, sid))
            return
        try:
            self._emit(event, data, sid)
        except Exception:  # pragma: no cover - a dead socket must not stop the loop
            log.exception("emit failed")
