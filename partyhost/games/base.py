"""The one small interface every game implements (see ``../shared/DESIGN.md``).

A game is pure rules: no Flask, no sockets, no clock and no randomness of its own. The engine
owns the clock and the ``random.Random``; it hands ``now`` (seconds on the server's game clock,
a float that only moves forward and stands still while the host has paused) and ``rng`` in.

Seats are opaque strings (``"s1"``, ``"s2"`` …) chosen by the party; a game never sees names,
tokens or sockets.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar


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

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"RuleError({self.code!r}, {self.params!r})"


class Game:
    """Base class of a game's rules.

    Subclasses set the class attributes and implement every method below. Actions are plain
    dicts with a ``"type"`` key; ``ACTIONS`` maps each type to a JSON Schema (draft 2020-12)
    for the rest of the dict, which the engine checks before ``apply`` is called, so ``apply``
    may assume well-formed input and only checks the rules.

    Class attributes:
        KEY: registry key, e.g. ``"the_mind"``.
        MIN_PLAYERS / MAX_PLAYERS: seat count bounds, inclusive.
        OPTIONS: JSON Schema of the lobby options object (with defaults), ``{}`` when none.
        ACTIONS: ``{type: JSON Schema of the action dict}``.
        HOST_ACTIONS: ``{type: JSON Schema}`` of the host's own in-game moves (overruling a
            table vote…), sent as ``host {op: "game", action}`` and applied by ``host_apply``.
        SCRIPT: the game's renderer under ``partyhost/static/`` (``js/<game>.js``), loaded by
            every page; it registers ``PH.games[KEY] = {phone(root, s), tv(root, s),
            lobby?(root, s)}``. ``lobby`` (optional) draws the game's options in the lobby.
        STYLE: the game's stylesheet under ``partyhost/static/``, or ``""`` when it has none.
    """

    KEY: ClassVar[str] = ""
    MIN_PLAYERS: ClassVar[int] = 1
    MAX_PLAYERS: ClassVar[int] = 1
    OPTIONS: ClassVar[dict] = {"type": "object", "properties": {}, "additionalProperties": False}
    ACTIONS: ClassVar[dict[str, dict]] = {}
    HOST_ACTIONS: ClassVar[dict[str, dict]] = {}
    SCRIPT: ClassVar[str] = ""
    STYLE: ClassVar[str] = ""

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

    def apply(self, seat: str, action: dict, now: float) -> None:
        """Apply one stamped action of ``seat``. Raises RuleError and changes nothing if refused."""
        raise NotImplementedError

    def host_apply(self, action: dict, now: float) -> None:
        """Apply one of the host's in-game moves (``HOST_ACTIONS``); the host may be the TV, which
        has no seat. Raises RuleError and changes nothing if refused."""
        raise RuleError("unknown_action", type=str(action.get("type", ""))[:40])

    def tick(self, now: float) -> None:
        """Fire whatever the clock drives once ``now >= next_deadline()``."""

    def next_deadline(self) -> float | None:
        """The game-clock time at which ``tick`` must run next, or None."""
        return None

    def leave(self, seat: str, now: float) -> None:
        """A player is removed (kicked) mid-game. Games that cannot continue raise
        ``RuleError("cannot_continue")`` and the engine ends the game instead."""
        raise RuleError("cannot_continue")

    def interrupted(self, now: float) -> None:
        """The host restarted and this game was restored from a snapshot; players reconnect one
        by one. Games where that matters (real-time play) stop play here. Default: nothing."""

    @property
    def over(self) -> bool:
        """True once the game has ended (won, lost or finished); further actions are refused."""
        raise NotImplementedError

    def view(self, seat: str | None) -> dict:
        """What ``seat`` may know, JSON-ready. ``seat=None`` is the table (TV, spectators)."""
        raise NotImplementedError

    def to_dict(self) -> dict:
        """A full JSON-ready snapshot of the state (secrets included: for store and tests)."""
        raise NotImplementedError

    @classmethod
    def from_dict(cls, data: dict, rng: random.Random) -> "Game":
        """Rebuild a game from ``to_dict()`` output."""
        raise NotImplementedError
