"""The Mind (ザ・マインド): pure rules of the cooperative "play all cards in rising order" game.

Sources. The rulebook ``shared/seeds/003_e593f889e41d4ea3.txt`` is the law; ``shared/RULES.md``
section "The Mind" settles what it leaves open for phones. Rulebook sections are cited by their
order in the seed file:

* §1 goal (one team; all numbers onto one pile, lowest first; level n deals n cards each)
* §2 set-up by player count (lives, shuriken, levels; spare lives and shuriken set aside)
* §3 starting a level and playing (everyone readies, cards one at a time; "stop")
* §4 wrong order costs one life; shuriken need every player's agreement
* §5 level complete: reshuffle all 100, deal the next level, rewards and the caps, victory

How a phone stands in for the table (RULES.md):

* "ready" is the hand laid on the table. A level, and play after every stop, mistake or shuriken,
  starts only once every player (also one whose hand is already empty) is ready.
* A phone always plays its holder's lowest card; a play names the level it was made for, and a
  play of a card that is no longer in the hand (discarded meanwhile) is refused without penalty.
  The server takes plays in the order it stamped them, so of two plays a few milliseconds apart
  the first one received counts.
* Times: ``now`` is float seconds on the engine's game clock. The time ``t`` recorded for each
  played or discarded card is seconds of *playing* time since the level began (time spent in
  phase ``"ready"`` after a stop, mistake or shuriken is not counted), rounded to 0.01 s.

The class never reads a clock, never does I/O and never uses the global ``random``: the engine
hands in ``now`` and a ``random.Random`` that is kept and used for every deal.
"""

from __future__ import annotations

import random
from typing import ClassVar

from . import schema, the_mind_coach
from .base import Game, Move, RuleError, joined, msg, plain

# --- rules as data ---------------------------------------------------------------------------

#: Lowest and highest number card; the deck holds each number once (§1, §2).
CARD_LOW = 1
CARD_HIGH = 100
ALL_CARDS: tuple[int, ...] = tuple(range(CARD_LOW, CARD_HIGH + 1))

#: Starting lives, starting shuriken and number of levels by player count
#: (seeds/003_… §2; RULES.md "The Mind", first line).
PLAYER_COUNT_TABLE: dict[int, dict[str, int]] = {
    2: {"lives": 2, "shuriken": 1, "levels": 12},
    3: {"lives": 3, "shuriken": 1, "levels": 10},
    4: {"lives": 4, "shuriken": 1, "levels": 8},
}

#: Reward for completing a level: level -> "life" | "shuriken". Levels not listed give nothing
#: (seeds/003_… §5 names level 2 and the rewarded levels; RULES.md "The Mind" gives the map).
REWARDS: dict[int, str] = {2: "shuriken", 3: "life", 5: "shuriken", 6: "life", 8: "shuriken", 9: "life"}

#: The team never holds more than this many lives / shuriken; a reward beyond is not gained
#: (seeds/003_… §5: component counts 5 lives, 3 shuriken).
MAX_LIVES = 5
MAX_SHURIKEN = 3

#: Seconds a shuriken proposal stays open before it lapses (our own choice for phones; the
#: rulebook has the table agree out loud).
SHURIKEN_VOTE_SECONDS = 30.0

#: Seconds a player holding cards may be away (a phone's socket closed) before play stops to
#: wait for them (our own rule for phones, issue 16: an absent player is never played over; the
#: rulebook's table has nobody drop out). A phone that reconnects
#: or reloads (about 1.5 s on a party's Wi-Fi, issue 16) does so unnoticed by the table.
AWAY_GRACE = 2.0

PHASES = ("ready", "playing", "won", "lost")

def rewarded_levels(players: int) -> dict[str, list[int]]:
    """The levels whose completion earns something in a game of ``players`` (2–4):
    ``{"shuriken": [level…], "life": [level…]}`` from :data:`REWARDS`, only levels before that
    game's last (completing the last level wins the game: a 4-player game of 8 levels never
    reaches level 9, and level 8's shuriken would come too late to use). §5.

    Raises:
        KeyError: ``players`` is not in :data:`PLAYER_COUNT_TABLE`."""
    last = PLAYER_COUNT_TABLE[players]["levels"]
    out: dict[str, list[int]] = {"shuriken": [], "life": []}
    for level in sorted(REWARDS):
        if level < last:
            out[REWARDS[level]].append(level)
    return out


def _rewards_line(players: int, short: bool = False) -> dict:
    """The rewards of a game of ``players`` (:func:`rewarded_levels`): the rules in use's line
    with the caps, or (``short``) the row of the rules by player count."""
    got = rewarded_levels(players)
    levels = {"shuriken": joined(got["shuriken"], "the_mind.sep.levels"), "shuriken_n": len(got["shuriken"]),
              "lives": joined(got["life"], "the_mind.sep.levels"), "lives_n": len(got["life"])}
    if short:
        return msg("the_mind.howto.c.rewards", **levels)
    return msg("the_mind.howto.v.rewards", **levels, max_lives=MAX_LIVES, max_shuriken=MAX_SHURIKEN)


_LEVEL = {"type": "integer", "minimum": 1, "maximum": max(t["levels"] for t in PLAYER_COUNT_TABLE.values())}


_action_schema = schema.action

def _clock(value: float) -> float:
    return round(float(value), 2)


class TheMind(Game):
    """The Mind for 2–4 players (seeds/003_… ; RULES.md "The Mind").

    Life cycle: ``setup`` deals level 1 and the game waits in phase ``"ready"``; when every
    player is ready the phase becomes ``"playing"``; a mistake, a shuriken or a stop returns it to
    ``"ready"``; a completed level deals the next one (phase ``"ready"``); the game ends in
    ``"won"`` (last level completed) or ``"lost"`` (no life left).

    Actions (dicts; ``ACTIONS`` holds the JSON Schema of each whole dict, ``"type"`` included):

    * ``{"type": "ready", "level": int, "ready": bool}`` — lay (or lift) the hand on the table.
    * ``{"type": "stop", "level": int}`` — pause play; everyone readies again.
    * ``{"type": "play", "level": int, "card": int}`` — play the holder's lowest card.
    * ``{"type": "propose_shuriken", "level": int}`` — open a shuriken vote.
    * ``{"type": "vote_shuriken", "proposal": int, "agree": bool}`` — answer the open vote.

    Every refused action raises :class:`RuleError` and leaves the state untouched; every
    successful change bumps ``version``. Example::

        >>> g = TheMind(); g.setup(["s1", "s2"], {}, random.Random(1), now=0.0)
        >>> g.view("s1")["phase"], len(g.view("s1")["hand"])
        ('ready', 1)
    """

    KEY: ClassVar[str] = "the_mind"
    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int] = 4
    STALE_FIELD: ClassVar[str] = "level"
    MOVES: ClassVar[dict[str, Move]] = {
        "ready": Move(_action_schema("ready", level=_LEVEL, ready={"type": "boolean"}), "_do_ready", stale=True),
        "stop": Move(_action_schema("stop", level=_LEVEL), "_do_stop", stale=True),
        "play": Move(_action_schema(
            "play", level=_LEVEL, card={"type": "integer", "minimum": CARD_LOW, "maximum": CARD_HIGH}
        ), "_do_play", stale=True),
        "propose_shuriken": Move(_action_schema("propose_shuriken", level=_LEVEL), "_do_propose_shuriken",
                                 stale=True),
        "vote_shuriken": Move(_action_schema(
            "vote_shuriken", proposal={"type": "integer", "minimum": 1}, agree={"type": "boolean"}
        ), "_do_vote_shuriken"),
    }
    # two plays close together: the one tapped first goes on the pile first (issue 26)
    RACING: ClassVar[frozenset[str]] = frozenset({"play"})
    # every play counts, in tap order: the best estimate of that order, never a draw (a swapped
    # pair of plays 1 ms apart is a lost life)
    RACE_DRAW: ClassVar[bool] = False
    FIELDS: ClassVar[tuple[str, ...]] = (
        "players", "levels", "level", "phase", "lives", "shuriken", "hands", "stock", "ready",
        "log", "proposal", "next_proposal_id", "last_event", "event_n", "chart", "version",
        "elapsed", "play_start", "away", "waiting",
    )
    STATE_VERSION: ClassVar[int] = 2
    HOST_MOVES: ClassVar[dict[str, Move]] = {
        "continue_without": Move(_action_schema(
            "continue_without", level=_LEVEL, seat={"type": "string", "maxLength": 20}
        ), "_host_continue_without", stale=True),
    }

    def _reset(self) -> None:
        self.players: list[str] = []
        self.levels = 0
        self.level = 0
        self.phase = "ready"
        self.lives = 0
        self.shuriken = 0
        self.hands: dict[str, list[int]] = {}
        self.stock: list[int] = []
        self.ready: dict[str, bool] = {}
        # Every card played or discarded this level, in order:
        # {"card", "seat", "t", "kind": "play"|"discard", "reason": None|"mistake"|"shuriken"|"left"}
        self.log: list[dict] = []
        self.proposal: dict | None = None
        self.next_proposal_id = 1
        self.last_event: dict | None = None
        self.event_n = 0
        self.chart: dict | None = None
        self.version = 0
        self.elapsed = 0.0  # playing seconds of this level before the current stretch of play
        self.play_start: float | None = None  # game-clock time the current stretch began
        self.away: dict[str, float] = {}  # seat -> game-clock time its phone went away
        self.waiting: list[str] = []  # seats play stopped for; it resumes when they are back

    # --- set-up ------------------------------------------------------------------------------

    def setup(self, players: list[str], options: dict, rng: random.Random, now: float) -> None:
        """Start a game and deal level 1 (seeds/003_… §2; RULES.md "The Mind").

        Args:
            players: 2–4 distinct seat ids in seating order.
            options: must be ``{}`` (the game has no options).
            rng: the engine's ``random.Random``; kept and used for every deal.
            now: game-clock seconds (unused at set-up; play time starts when all are ready).

        Raises:
            RuleError: ``"player_count"`` (params ``count``, ``min``, ``max``) for fewer than 2
                or more than 4 players; ``"duplicate_seat"`` when a seat id repeats;
                ``"bad_options"`` when ``options`` is not an empty object.
        """
        players = list(players)
        if not self.MIN_PLAYERS <= len(players) <= self.MAX_PLAYERS:
            raise RuleError("player_count", count=len(players), min=self.MIN_PLAYERS, max=self.MAX_PLAYERS)
        if len(set(players)) != len(players):
            raise RuleError("duplicate_seat")
        if options not in (None, {}):
            raise RuleError("bad_options")
        start = PLAYER_COUNT_TABLE[len(players)]
        self._reset()
        self._rng = rng
        self.players = players
        self.levels = start["levels"]
        self.lives = start["lives"]
        self.shuriken = start["shuriken"]
        self._deal(1)
        self.version = 1

    # --- the engine interface ----------------------------------------------------------------

    @property
    def over(self) -> bool:
        """True once the game is won or lost."""
        return self.phase in ("won", "lost")

    def tick(self, now: float) -> None:
        """Fire what the clock drives at ``now`` (game-clock seconds): a player holding cards
        who has been away for :data:`AWAY_GRACE` stops play (everyone readies again, as after a
        stop) and the table waits for them; an open shuriken proposal lapses at its deadline
        (our own rule for phones: a vote cannot hold the table forever).

        Does nothing (and does not bump ``version``) when nothing is due.
        """
        due = [s for s in self._away_pending() if now >= self.away[s] + AWAY_GRACE]
        if due:
            self.waiting += [s for s in due if s not in self.waiting]
            if self.phase == "playing":
                self._pause(now)
            for s in due:
                self.ready[s] = False
            self._event("waiting", seats=list(self.waiting))
            self.version += 1
        if self.proposal is not None and now >= self.proposal["deadline"]:
            lapsed = self.proposal["id"]
            self.proposal = None
            self._resume_clock(now)
            self._event("shuriken_lapsed", proposal=lapsed)
            self.version += 1

    def next_deadline(self) -> float | None:
        """Game-clock seconds at which an away player's grace ends or the open shuriken proposal
        lapses, whichever is first; None when neither is pending."""
        times = [self.away[s] + AWAY_GRACE for s in self._away_pending()]
        if self.proposal is not None:
            times.append(self.proposal["deadline"])
        return min(times) if times else None

    def _away_pending(self) -> list[str]:
        """Away seats the table does not wait for yet although it must: they hold cards, the
        level is on (ready or playing) and play is not already stopped for them."""
        if self.phase not in ("ready", "playing"):
            return []
        return [s for s in self.players if s in self.away and s not in self.waiting and self.hands.get(s)]

    def _presence(self, seat: str, present: bool, now: float) -> bool:
        """A player's phone went away or came back (see :meth:`Game.presence`; our own rule
        for phones, issue 16). Away: remembered; after :data:`AWAY_GRACE` :meth:`tick` stops play for them
        if they hold cards. Back: no longer waited for; when nobody is waited for any more the
        event ``"back"`` tells the table, every ready flag is cleared (as after a stop) and play
        resumes once everyone is ready again."""
        if not present:
            if seat in self.away:
                return False
            self.away[seat] = now
            return True
        if seat not in self.away:
            return False
        del self.away[seat]
        if seat in self.waiting:
            self.waiting.remove(seat)
            if not self.waiting and self.phase == "ready":
                # as after a stop: everyone lays the hand down again, the returner included
                self.ready = {s: False for s in self.players}
            self._event("back", seat=seat, waiting=list(self.waiting))
        return True

    def _host_continue_without(self, action: dict, now: float) -> None:
        """The host goes on without an away player: their hand is set aside face up (chart
        reason ``"away"``), no life is lost, and they keep their seat (they are dealt in again at
        the next level). Play starts if everyone else is ready; the level is complete if no
        hand holds cards any more. Ours (issue 16), as a kick's face-up discard without the kick.

        Raises ``"not_a_player"`` (not playing), ``"not_away"`` (the phone is connected).
        """
        seat = action["seat"]
        if seat not in self.players:
            raise RuleError("not_a_player")
        if seat not in self.away:
            raise RuleError("not_away")
        t = self._play_time(now)
        cards = self.hands[seat]
        self.hands[seat] = []
        for card in cards:
            self.log.append({"card": card, "seat": seat, "t": t, "kind": "discard", "reason": "away"})
        if seat in self.waiting:
            self.waiting.remove(seat)
        cause = {"kind": "continued_without", "seat": seat,
                 "discarded": [{"card": c, "seat": seat} for c in cards]}
        self._go_on_after(cause, now)

    def _go_on_after(self, cause: dict, now: float) -> None:
        """The level goes on after a player's cards left the game (they left, or the host went on
        without them): the level is complete if no hand holds a card, play starts if everyone
        left is ready, else the table just hears ``cause`` (an event ``{"kind", "seat",
        "discarded"}``)."""
        if self._all_empty():
            self._complete_level(now, cause)
        elif self.phase == "ready" and self._all_ready():
            self._start_playing(now)
            self.last_event["cause"] = cause
        else:
            self._event(**cause)

    def _all_ready(self) -> bool:
        """Every player is ready; an away player with no cards left is not waited for."""
        return all(self.ready.get(s) or (s in self.away and not self.hands.get(s)) for s in self.players)

    @classmethod
    def migrate(cls, data: dict, version: int) -> dict:
        """Version 1 snapshots knew nobody away: ``away`` and ``waiting`` start empty."""
        if version < 2:
            data.setdefault("away", {})
            data.setdefault("waiting", [])
        return data

    def _do_leave(self, seat: str, now: float) -> None:
        """Remove a (kicked) player mid-game; no life is lost.

        Their hand is discarded face up (chart reason ``"left"``), an open shuriken vote is
        cancelled (it was put to a different table), and the level is complete if no hand holds
        cards any more; in phase ``"ready"`` play starts if everyone left is ready. The number of
        levels, lives and shuriken stay as set up. Not in the rulebook: RULES.md "General".

        Raises:
            RuleError: ``"game_over"`` after the game ended; ``"not_a_player"`` for a seat that
                is not playing; ``"cannot_continue"`` when fewer than 2 players would remain.
                Nothing changes when it is raised.
        """
        t = self._play_time(now)
        cards = self.hands.pop(seat)
        for card in cards:
            self.log.append({"card": card, "seat": seat, "t": t, "kind": "discard", "reason": "left"})
        self.players.remove(seat)
        self.ready.pop(seat, None)
        self.away.pop(seat, None)
        if seat in self.waiting:
            self.waiting.remove(seat)
        self.proposal = None
        cause = {"kind": "left", "seat": seat, "discarded": [{"card": c, "seat": seat} for c in cards]}
        self._go_on_after(cause, now)

    def interrupted(self, now: float) -> None:
        """After a host restart, play stops and everyone readies again (as after a "stop"), so
        the first phone to reconnect cannot play before the others are back."""
        if self.phase == "playing":
            self._pause(now)
            self._event("stop", by=None)
            self.version += 1

    # --- actions -----------------------------------------------------------------------------

    def _do_ready(self, seat: str, action: dict, now: float) -> None:
        """Lay or lift the hand (seeds/003_… §3; RULES.md "The Mind").

        Raises ``"already_playing"``
        (phase is not ``"ready"``).
        """
        if self.phase != "ready":
            raise RuleError("already_playing")
        self.ready[seat] = bool(action["ready"])
        if self._all_ready():
            self._start_playing(now)

    def _do_stop(self, seat: str, action: dict, now: float) -> None:
        """Pause play; everyone readies again (seeds/003_… §3).

        Raises ``"not_playing"`` (before the level's first start) or ``"stopped"`` (play stopped).
        """
        if self.phase != "playing":
            self._refuse_not_playing()
        self._pause(now)
        self._event("stop", by=seat)

    def _refuse_not_playing(self) -> None:
        """Why a play or a stop is refused while the table is not playing: ``"not_playing"``
        before the level's first start (everyone has not readied yet), ``"stopped"`` once the level
        has been played and stopped (a ストップ, a mistake or a shuriken: the table refocuses and
        play resumes when everyone is ready again; seeds/003_… §3)."""
        if self.log or self.elapsed > 0:
            raise RuleError("stopped")
        raise RuleError("not_playing")

    def _do_play(self, seat: str, action: dict, now: float) -> None:
        """Play the seat's lowest card (seeds/003_… §3, §4; RULES.md "The Mind").

        Checks, in this order (after the pipeline's ``"stale"`` level check): ``"card_gone"`` (params ``card``: not in the
        seat's hand, e.g. discarded by a mistake or shuriken meanwhile, or a doubled tap);
        ``"not_playing"`` / ``"stopped"`` (see :meth:`_refuse_not_playing`); ``"shuriken_vote_open"``; ``"not_lowest"`` (params ``card``).

        If any hand holds a lower card, exactly one life is lost and every lower card in every
        hand is discarded face up (reason ``"mistake"``, same ``t``); at zero lives the game is
        lost at once; otherwise play pauses unless that emptied every hand.
        """
        card = int(action["card"])
        hand = self.hands[seat]
        if card not in hand:
            raise RuleError("card_gone", card=card)
        if self.phase != "playing":
            self._refuse_not_playing()
        if self.proposal is not None:
            raise RuleError("shuriken_vote_open")
        if card != hand[0]:
            raise RuleError("not_lowest", card=card)
        t = self._play_time(now)
        hand.pop(0)
        before = next((e for e in reversed(self.log) if e["kind"] == "play"), None)
        self.log.append({"card": card, "seat": seat, "t": t, "kind": "play", "reason": None})
        lower = sorted((c, s) for s in self.players for c in self.hands[s] if c < card)
        if not lower and before is not None and before["seat"] != seat:
            ms = max(0, round((t - before["t"]) * 1000))  # the night's record: the tightest gap
            self._keep("gap", -ms, ms=ms, card=before["card"], next=card, seat=before["seat"],
                       next_seat=seat, level=self.level)
        if not lower:
            if self._all_empty():
                self._complete_level(now, {"kind": "play", "card": card, "by": seat, "t": t})
            else:
                self._event("play", card=card, by=seat, t=t)
            return
        for c, s in lower:
            self.hands[s].remove(c)
            self.log.append({"card": c, "seat": s, "t": t, "kind": "discard", "reason": "mistake"})
        self.lives -= 1
        cause = {
            "kind": "mistake",
            "card": card,
            "by": seat,
            "t": t,
            "discarded": [{"card": c, "seat": s} for c, s in lower],
        }
        if self.lives <= 0:
            self.lives = 0
            self._end_level(now, "lost", None, False)
            self._event("lost", level=self.level, cause=cause)
        elif self._all_empty():
            self._complete_level(now, cause)
        else:
            self._pause(now)
            self._event(**cause)

    def _do_propose_shuriken(self, seat: str, action: dict, now: float) -> None:
        """Open a shuriken vote; the proposer agrees (seeds/003_… §4).

        The vote lapses ``SHURIKEN_VOTE_SECONDS`` after ``now``. Raises
        ``"no_shuriken"``, ``"shuriken_vote_open"``.
        """
        if self.shuriken < 1:
            raise RuleError("no_shuriken")
        if self.proposal is not None:
            raise RuleError("shuriken_vote_open")
        self.proposal = {
            "id": self.next_proposal_id,
            "by": seat,
            "agreed": [seat],
            "deadline": now + SHURIKEN_VOTE_SECONDS,
        }
        self.next_proposal_id += 1
        self._stop_clock(now)  # the table stops to vote: that time is not play time
        self._event("shuriken_proposed", proposal=self.proposal["id"], by=seat)

    def _do_vote_shuriken(self, seat: str, action: dict, now: float) -> None:
        """Agree to or decline the open shuriken vote (seeds/003_… §4).

        A decline cancels the vote. When every player has agreed, one shuriken is spent and each
        player with cards discards their lowest face up (reason ``"shuriken"``); a player with
        an empty hand votes too and discards nothing. Raises ``"stale_proposal"`` (params
        ``proposal``) when no open vote has that id, or its deadline has passed.
        """
        p = self.proposal
        if p is None or p["id"] != action["proposal"] or now >= p["deadline"]:
            raise RuleError("stale_proposal", proposal=action["proposal"])
        if not action["agree"]:
            self.proposal = None
            self._resume_clock(now)
            self._event("shuriken_declined", proposal=p["id"], by=seat)
            return
        if seat not in p["agreed"]:
            p["agreed"].append(seat)
        self._maybe_throw_shuriken(now)

    # --- internals ---------------------------------------------------------------------------

    def _maybe_throw_shuriken(self, now: float) -> None:
        p = self.proposal
        if p is None or any(s not in p["agreed"] for s in self.players):
            return
        self.proposal = None
        self.shuriken -= 1
        t = self._play_time(now)
        discarded = []
        for s in self.players:
            if self.hands[s]:
                c = self.hands[s].pop(0)
                discarded.append({"card": c, "seat": s})
                self.log.append({"card": c, "seat": s, "t": t, "kind": "discard", "reason": "shuriken"})
        cause = {"kind": "shuriken", "proposal": p["id"], "t": t, "discarded": discarded}
        if self._all_empty():
            self._complete_level(now, cause)
        else:
            self._pause(now)
            self._event(**cause)

    def _all_empty(self) -> bool:
        return not any(self.hands[s] for s in self.players)

    def _play_time(self, now: float) -> float:
        """Seconds of playing time since the level began (paused time excluded), rounded."""
        if self.phase == "playing" and self.play_start is not None:
            return _clock(self.elapsed + max(0.0, now - self.play_start))
        return _clock(self.elapsed)

    def _stop_clock(self, now: float) -> None:
        """Stop the play clock (a shuriken vote) without leaving phase ``"playing"``."""
        if self.phase == "playing" and self.play_start is not None:
            self.elapsed += max(0.0, now - self.play_start)
            self.play_start = None

    def _resume_clock(self, now: float) -> None:
        """Restart the play clock after a vote that threw no shuriken."""
        if self.phase == "playing" and self.play_start is None:
            self.play_start = now

    def _start_playing(self, now: float) -> None:
        self.phase = "playing"
        self.play_start = None if self.proposal is not None else now
        self._event("start", level=self.level, resumed=bool(self.log) or self.elapsed > 0)

    def _pause(self, now: float) -> None:
        """Back to phase ready: flags cleared, the play clock stops."""
        if self.phase == "playing" and self.play_start is not None:
            self.elapsed += max(0.0, now - self.play_start)
        self.play_start = None
        self.phase = "ready"
        self.ready = {s: False for s in self.players}

    def _deal(self, level: int) -> None:
        """Shuffle all 100 cards and deal ``level`` to each player (seeds/003_… §1, §5)."""
        deck = list(ALL_CARDS)
        self._rng.shuffle(deck)
        self.level = level
        self.hands = {}
        for i, s in enumerate(self.players):
            self.hands[s] = sorted(deck[i * level : (i + 1) * level])
        self.stock = sorted(deck[len(self.players) * level :])
        self.log = []
        self.proposal = None
        self.elapsed = 0.0
        self.play_start = None
        self.phase = "ready"
        self.ready = {s: False for s in self.players}
        self.waiting = []  # an away player dealt in again is waited for anew (see tick)

    def _end_level(self, now: float, outcome: str, reward: str | None, capped: bool) -> None:
        if self.phase == "playing" and self.play_start is not None:
            self.elapsed += max(0.0, now - self.play_start)
        self.play_start = None
        self.chart = {
            "level": self.level,
            "outcome": outcome,
            "reward": reward,
            "capped": capped,
            "cards": plain(self.log),
        }
        self.proposal = None
        if outcome == "lost":
            self.phase = "lost"

    def _complete_level(self, now: float, cause: dict) -> None:
        """All hands empty with lives left: reward, then win or deal the next level (§5)."""
        reward = REWARDS.get(self.level)
        capped = False
        if reward == "life":
            capped = self.lives >= MAX_LIVES
            self.lives = min(MAX_LIVES, self.lives + 1)
        elif reward == "shuriken":
            capped = self.shuriken >= MAX_SHURIKEN
            self.shuriken = min(MAX_SHURIKEN, self.shuriken + 1)
        done = self.level
        self._end_level(now, "complete", reward, capped)
        if done >= self.levels:
            self.phase = "won"
            self._event("won", level=done, reward=reward, capped=capped, cause=cause)
        else:
            self._deal(done + 1)
            self._event("level_complete", level=done, reward=reward, capped=capped, cause=cause)

    # --- the night's record ----------------------------------------------------------------

    def outcome(self) -> dict:
        """Cooperative: everyone wins or loses together; ``detail`` has the level reached and
        the levels of this game (see :meth:`.base.Game.outcome`)."""
        return {"coop": True, "won": self.phase == "won", "places": [list(self.players)],
                "detail": {"level": self.level, "levels": self.levels}}

    def highlights(self) -> list[dict]:
        """The highest level reached (cleared or where the lives ran out), and the tightest
        gap of the game between two cards played one after the other (in order) by two
        players in one level (kept as they were played, every card seen face up)."""
        out = [msg("the_mind.hl.level_won" if self.phase == "won" else "the_mind.hl.level_lost",
                   level=self.level, levels=self.levels)]
        gap = self.marks.get("gap")
        if gap is not None:
            out.append(msg("the_mind.hl.gap", **{k: v for k, v in gap.items() if k != "score"}))
        return out

    # --- views and snapshots -----------------------------------------------------------------

    def view(self, seat: str | None) -> dict:
        """What ``seat`` may know, JSON-ready; ``None`` is the table (TV and spectators).

        Shape: ``{"game", "phase", "level", "levels", "lives", "shuriken",
        "players": [{"seat", "cards": count, "ready"}] (seating order),
        "pile": [{"card", "seat", "t"}], "discards": [{"card", "seat", "t", "reason"}]
        (this level), "proposal": None | {"id", "by", "agreed": [seats], "deadline"},
        "away": [seats whose phone is away], "waiting": [seats play is stopped for],
        "last_event": None | {"n", "kind", ...}, "chart": None | {"level", "outcome", "reward",
        "capped", "cards": [...]}, "revealed": None | [{"seat", "cards"}] (only once the game
        is lost: the hands turned over), "version"}``. A seat (player or spectator) also gets
        ``"hand"`` (its own sorted cards; ``[]`` for a spectator) and ``"me"``. No view holds
        another seat's unplayed cards. Everything but ``hand`` and ``me`` is the table's
        (:meth:`table_part`: one object shared by one flush's views).
        """
        out = dict(self.table_part("table", self._table_view))
        if seat is not None:
            out["hand"] = list(self.hands.get(seat, [])) if seat in self.players else []
            out["me"] = seat
        return out

    def _table_view(self) -> dict:
        """The part of :meth:`view` every seat sees alike (the TV's whole game view)."""
        return {
            "game": self.KEY,
            "phase": self.phase,
            "level": self.level,
            "levels": self.levels,
            "lives": self.lives,
            "shuriken": self.shuriken,
            "players": [
                {"seat": s, "cards": len(self.hands[s]), "ready": bool(self.ready.get(s, False))}
                for s in self.players
            ],
            "pile": [{"card": e["card"], "seat": e["seat"], "t": e["t"]} for e in self.log if e["kind"] == "play"],
            "discards": [
                {"card": e["card"], "seat": e["seat"], "t": e["t"], "reason": e["reason"]}
                for e in self.log
                if e["kind"] == "discard"
            ],
            "proposal": plain(self.proposal),
            "away": [s for s in self.players if s in self.away],
            "waiting": list(self.waiting),
            "last_event": plain(self.last_event),
            "chart": plain(self.chart),
            # A lost game shows what was still in the hands, as a table would turn them over.
            "revealed": (
                [{"seat": s, "cards": list(self.hands[s])} for s in self.players]
                if self.phase == "lost" else None
            ),
            "version": self.version,
        }

    # --- how to play: the rules in use ------------------------------------------------------------

    @classmethod
    def howto_facts(cls, options: dict, players: list[str]) -> list[dict]:
        """The starting lives, shuriken and the number of levels for this many players, from
        :data:`PLAYER_COUNT_TABLE` (the count held to 2–4, for a lobby with too few or many),
        then the rewards of that game (:func:`rewarded_levels`)."""
        count = min(max(len(players), cls.MIN_PLAYERS), cls.MAX_PLAYERS)
        return [msg("the_mind.howto.v.setup", count=count, **PLAYER_COUNT_TABLE[count]), _rewards_line(count)]

    @classmethod
    def howto_count_facts(cls, count: int, options: dict) -> list[dict]:
        """A game of ``count`` players: its lives, shuriken and levels (:data:`PLAYER_COUNT_TABLE`)
        and its rewards (:func:`rewarded_levels`); see :meth:`Game.howto_count_facts`."""
        return [msg("the_mind.howto.c.setup", **PLAYER_COUNT_TABLE[count]), _rewards_line(count, short=True)]

    def guide(self, seat: str | None) -> dict:
        """What ``seat`` can do now (see :mod:`partyhost.games.the_mind_coach`)."""
        return the_mind_coach.guide(self, seat)

    def coach_strip(self) -> dict | None:
        """The first-level coach (see :mod:`partyhost.games.the_mind_coach`)."""
        return the_mind_coach.strip(self)

    def coach_tip(self, seat: str) -> dict | None:
        """The first-level coach (see :mod:`partyhost.games.the_mind_coach`)."""
        return the_mind_coach.tip(self, seat)

    # --- for the conformance suite and bots -------------------------------------------------

    def suggest(self, seat: str | None, rng: random.Random) -> list[dict]:
        """What ``seat`` could do now: ready up, play its lowest card, stop, propose or answer a
        shuriken vote (the host has no moves in The Mind)."""
        if seat is None or seat not in self.players or self.over:
            return []
        out: list[dict] = []
        if self.proposal is not None:
            out.append({"type": "vote_shuriken", "proposal": self.proposal["id"], "agree": rng.random() < 0.7})
        if self.phase == "ready":
            # lay the hand down; a hand already down is now and then lifted again
            out.append({"type": "ready", "level": self.level,
                        "ready": not self.ready.get(seat, False) or rng.random() > 0.1})
        elif self.phase == "playing":
            hand = self.hands.get(seat) or []
            if hand:
                out += [{"type": "play", "level": self.level, "card": hand[0]}] * 3
            out.append({"type": "stop", "level": self.level})
            if self.shuriken and self.proposal is None:
                out.append({"type": "propose_shuriken", "level": self.level})
        return out

    def redeal_hidden(self, seat: str | None, rng: random.Random) -> "TheMind":
        """A copy where the other players' hands and the undealt stock are shuffled and dealt
        again (each hand keeps its size); ``seat``'s own hand and everything played stay."""
        twin = type(self).from_dict(self.to_dict(), rng)
        if self.over and self.phase == "lost":
            return twin  # the hands are turned over: nothing is secret any more
        others = [s for s in twin.players if s != seat]
        pool = [c for s in others for c in twin.hands[s]] + list(twin.stock)
        rng.shuffle(pool)
        for s in others:
            size = len(twin.hands[s])
            twin.hands[s], pool = sorted(pool[:size]), pool[size:]
        twin.stock = sorted(pool)
        return twin

    def undealt(self) -> list[int]:
        """The cards of this level's shuffle that no one was dealt (sorted; secret)."""
        return list(self.stock)
