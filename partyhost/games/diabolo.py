"""Diabolo (ディアボロ): pure rules of the real-time letter-card word grab.

Sources. The rulebook ``shared/seeds/004_cde4d22f2f5d4f5d.txt`` is the law; ``shared/RULES.md``
section "Diabolo" settles what it leaves open for phones (our 66-card deck, the table vote, the
tempo on the dealer's phone). Rulebook sections are cited by their order in the seed file:

* §1 set-up (66 letter cards, 6 of them jokers; shuffle)
* §2 a round: the dealer turns cards face up one at a time at the tempo the dealer chooses; all
  play at once, the dealer too; a word of at least 3 face-up cards, each card once, in any
  order; a claim stops play; valid: the claimant takes the cards; invalid: every other player
  picks one card from the table (from the deck when it runs short)
* §3 round end (deck out and no one finds a word), results, the next dealer sits to the left
* §4 game end: each player deals once (4–6 players) or twice (2–3); highest total wins
* §5 words: any German word, no abbreviations, ß as SS, umlauts as AE/OE/UE, a two-letter card
  in its written order with its letters together, a joker is any one letter, the double joker
  two letters (never one)
* §6 examples (HANG, LAGER, STOP with the ST card and a joker, POST with the double joker)
* §7 variant: victory tiles (most cards in a round, ties each; first to 2; a tile holder's later
  results count 10 less, adjustable)
* §8 variant: quick players must use at least 4 cards

The module's parts: the cards, spelling and the word solver are :mod:`.diabolo_words` (pure
functions of cards); the table vote is :mod:`.vote`; this module is the state, the phases
(:data:`PHASES`, below: the whole state machine in one place), the moves and the view. The action
pipeline (schema, game over, seat, stale round, version) is :class:`~.base.Game`'s.

How phones stand in for the table (RULES.md "Diabolo"):

* Cards have ids ``0 … 65`` (their row in the deck table, ``games/data/diabolo_decks.json``); a
  card's id says only its face, which is public once turned. The undealt deck's *order* is the
  only secret; views carry only its size.
* A claim names the word and the face-up cards it uses, in spelling order, with the letters of
  each joker. The first claim wins its cards: the first *tapped*, on the server clock (claims
  and picks are :attr:`RACING`, docs/fair_first_card.md; a phone without clock sync: the first
  received); a later claim that needs a card
  already taken (or held by a claim under vote) is refused (``"card_taken"``) without penalty.
  Claims that cannot be spelt from their cards are refused, not punished: only a word the table
  votes down costs the picks.
* A word the list knows stands; an unknown word goes to a :class:`~.vote.TableVote` of the other
  players, which the host may overrule.
* The turning is timed on the game clock: ``next_turn_at`` while the dealer's auto-turn runs,
  ``end_at`` (the deck-out countdown) once the deck is out.

The class never reads a clock, never does I/O at play time and never uses the global ``random``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, ClassVar

from . import diabolo_coach, schema
from .base import Game, Move, RuleError, joined, msg, plain, seat_name
from .diabolo_words import (  # noqa: F401 - re-exported: the public face of the game's words
    HANDICAP_CARDS, LANGS, MIN_CARDS, abbreviation, POSSIBLE_SCAN, POSSIBLE_WORDS, best_assignment, card_letters,
    deck_table, fold, is_known, is_letters, possible_words, shown_face,
)
from .diabolo_words import prepare as _prepare_words
from .vote import VOTE_SECONDS, TableVote

MAX_WORD = 30
"""Longest word a claim may name, in folded letters (our own bound for phones)."""
CLAIM_SHOW_SECONDS = 2.0
"""After a claim stands, the turning waits at least this long so the table sees it (ours)."""
PICK_SECONDS = 15.0
"""Time each other player has to pick a card after a rejected word; then a random card (ours)."""
SUGGEST_SCAN = 1_500
"""List words :meth:`Diabolo.suggest` tries for a real word to claim (kept cheap: bots and the
conformance suite call it every step)."""


# --- the phases: the whole state machine ------------------------------------------------------

@dataclass(frozen=True)
class Phase:
    """One phase of a Diabolo round.

    Attributes:
        means: what the table is doing (and the rulebook section).
        moves: the player moves (:attr:`Diabolo.MOVES` types) it opens; the handlers refuse the
            others with a code that names the phase (``word_vote_open``, ``not_picking``…).
        host_moves: the host moves (:attr:`Diabolo.HOST_MOVES` types) it opens.
        ends: what ends it, and the phase play goes to. Besides, a kicked player
            (:meth:`Diabolo.leave`) can withdraw a claim under vote, end picking or a round.
    """

    means: str
    moves: tuple[str, ...]
    host_moves: tuple[str, ...]
    ends: str


PHASES: dict[str, Phase] = {
    "turning": Phase(
        "the dealer turns cards face up, by hand or on the tempo; everyone looks for a word (§2)",
        ("claim", "turn", "auto", "tempo", "pass"),  # pass only once the deck is out (§3)
        ("turn", "auto", "handicap"),
        "a known word: its cards go to the claimant, turning goes on; an unknown word: vote; "
        "the deck is out and its countdown runs out, every player passes, or too few cards are "
        "left for any word: scored (§3)",
    ),
    "vote": Phase(
        "the other players vote on an unknown word; its cards are held for the claimant (RULES.md)",
        ("vote", "auto", "tempo"),
        ("overrule", "auto", "handicap"),
        "the vote is decided (every voter voted, its time ran out, or the host overruled): "
        "accepted: the claimant takes the cards, turning; rejected: picking; the claimant left: turning",
    ),
    "picking": Phase(
        "a word was voted down: every other player picks one face-up card, from the deck when "
        "the row is empty (§2)",
        ("pick", "auto", "tempo"),
        ("auto", "handicap"),
        "every picker has a card (after PICK_SECONDS a random one): turning, or scored when "
        "the deck is out and too few cards are left",
    ),
    "scored": Phase(
        "the round is counted (§3; §7 victory tiles); the next dealer, to the left, deals",
        ("deal",),
        ("deal", "handicap"),
        "the next round is dealt: turning. The last round (§4) or a second tile (§7) goes "
        "straight on to over",
    ),
    "over": Phase("the highest total wins, ties share (§4); with tiles, the first to two (§7)",
                  (), (), "never"),
}


# --- schemas ---------------------------------------------------------------------------------

_ROUND = {"type": "integer", "minimum": 1, "maximum": 1000}
_CARD_ID = {"type": "integer", "minimum": 0, "maximum": 199}
_VOTE_ID = {"type": "integer", "minimum": 1}
_TURNED = {"type": "integer", "minimum": 0, "maximum": 200}
_OUTCOME = {"enum": ["accept", "reject"]}


_action = schema.action

_CLAIM_CARDS = {"type": "array", "minItems": 1, "maxItems": 40, "items": {
    "type": "object", "properties": {"id": _CARD_ID, "as": {"type": "string", "minLength": 1, "maxLength": 2}},
    "required": ["id"], "additionalProperties": False}}


def deals_each(players: int) -> int:
    """How many times each player deals in a game without victory tiles (§4: twice with 2–3
    players, once with 4–6)."""
    return 2 if players <= 3 else 1


@lru_cache(maxsize=512)
def _words_to_claim(lang: str, ids: tuple[int, ...], need: int) -> tuple[str, ...]:
    """A few list words spellable from the cards ``ids`` with at least ``need`` of them (for
    :meth:`Diabolo.suggest`; cached because a row is asked about again and again)."""
    cards = [deck_table(lang)[i] for i in ids]
    try:
        return tuple(possible_words(cards, lang, min_cards=need, limit=3, scan=SUGGEST_SCAN))
    except (OSError, ValueError):  # no word list: bots make up words
        return ()


class Diabolo(Game):
    """Diabolo for 2–6 players (seeds/004_…; RULES.md "Diabolo").

    Phases: see :data:`PHASES`. Moves (``MOVES``/``HOST_MOVES`` hold each one's schema; every
    move marked ``round`` is refused ``stale`` by the pipeline when its round is not this one):

    * ``{"type": "claim", "round", "word", "cards": [{"id", "as"?}]}`` — a word from face-up
      cards in spelling order; ``as`` gives a joker's letter(s).
    * ``{"type": "vote", "vote": id, "ballot": "accept"|"reject"}`` — a ballot on the word under
      vote ``id`` (``view()["vote"]["id"]``); a ballot for an earlier vote is refused ``vote_gone``.
    * ``{"type": "pick", "round", "card": id}`` — take one face-up card after a rejected word.
    * ``{"type": "pass", "round"}`` — the deck is out and I see no more word.
    * dealer only: ``{"type": "turn", "round", "turned": n}`` (turn the next card now; ``turned``
      is how many cards this round the phone has seen turned, so a doubled tap turns one),
      ``{"type": "auto", "round", "on": bool}`` (start / pause the turning),
      ``{"type": "tempo", "seconds": s}`` (auto-turn interval).
    * the next dealer (or any player if that one has left): ``{"type": "deal", "round": n}``
      deals round ``n`` (the next one: any other is refused ``stale``) after the scores.

    Host moves: ``overrule {vote, outcome}``, ``auto {on}``, ``turn {turned}``, ``deal {round}``
    (the host may stand in for a dealer whose phone is gone), ``handicap {seat, on}``.

    Snapshot layout 2 (:attr:`STATE_VERSION`): layout 1 had no ``vote_serial`` (see :meth:`migrate`).
    """

    KEY: ClassVar[str] = "diabolo"
    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int] = 6
    OPTIONS: ClassVar[dict] = schema.options(
        lang={"enum": list(LANGS), "default": "de"},
        interval={"type": "number", "minimum": 1, "maximum": 20, "default": 4},
        end_seconds={"type": "number", "minimum": 5, "maximum": 120, "default": 20},
        handicap={"type": "array", "items": {"type": "string", "maxLength": 20},
                  "maxItems": 20, "uniqueItems": True, "default": []},
        victory_tiles={"type": "boolean", "default": False},
        tile_handicap={"type": "integer", "minimum": 0, "maximum": 30, "default": 10},
    )
    MOVES: ClassVar[dict[str, Move]] = {
        "claim": Move(_action("claim", round=_ROUND, word={"type": "string", "minLength": 1, "maxLength": 60},
                              cards=_CLAIM_CARDS), "_do_claim", stale=True),
        "vote": Move(_action("vote", vote=_VOTE_ID, ballot=_OUTCOME), "_do_vote"),
        "pick": Move(_action("pick", round=_ROUND, card=_CARD_ID), "_do_pick", stale=True),
        "pass": Move(_action("pass", round=_ROUND), "_do_pass", stale=True),
        "turn": Move(_action("turn", round=_ROUND, turned=_TURNED), "_do_turn", stale=True),
        "auto": Move(_action("auto", round=_ROUND, on={"type": "boolean"}), "_do_auto", stale=True),
        "tempo": Move(_action("tempo", seconds={"type": "number", "minimum": 1, "maximum": 20}), "_do_tempo"),
        "deal": Move(_action("deal", round=_ROUND), "_do_deal"),  # names the *next* round: checked there
    }
    # two claims (or two picks) wanting the same card: the one tapped first takes it (issue 26,
    # docs/fair_first_card.md), not the one whose message came first over the Wi-Fi
    RACING: ClassVar[frozenset[str]] = frozenset({"claim", "pick"})
    HOST_MOVES: ClassVar[dict[str, Move]] = {
        "overrule": Move(_action("overrule", vote=_VOTE_ID, outcome=_OUTCOME), "_host_overrule"),
        "auto": Move(_action("auto", on={"type": "boolean"}), "_host_auto"),
        "turn": Move(_action("turn", turned=_TURNED), "_host_turn"),
        "handicap": Move(_action("handicap", seat={"type": "string", "maxLength": 20}, on={"type": "boolean"}),
                         "_host_handicap"),
        "deal": Move(_action("deal", round=_ROUND), "_host_deal"),
    }
    STATE_VERSION: ClassVar[int] = 3
    FIELDS: ClassVar[tuple[str, ...]] = (
        "players", "options", "lang", "interval", "end_seconds", "handicap", "victory_tiles",
        "tile_handicap", "dealers", "round", "dealer", "phase", "deck", "table", "turned", "piles",
        "auto_on", "next_turn_at", "end_at", "passed", "claim", "vote", "vote_serial", "picking", "results",
        "tiles", "winners", "possible", "log", "last_event", "event_n", "version",
    )  # fmt: skip

    @classmethod
    def prepare(cls) -> None:
        """Load both decks and word lists at server start, so no handler waits for them."""
        for lang in LANGS:
            try:
                _prepare_words(lang)
            except Exception:  # a missing list shows up as refusals, not a dead server
                pass

    def __init__(self) -> None:
        """An empty game; call :meth:`setup` (or :meth:`from_dict`) first."""
        super().__init__()
        self._rng: random.Random | None = None
        self.options: dict = {}
        self.lang = "de"
        self.interval = 4.0
        self.end_seconds = 20.0
        self.handicap: list[str] = []
        self.victory_tiles = False
        self.tile_handicap = 10
        self.dealers: list[str] = []  # planned dealer of each round (tiles: grows as needed)
        self.round = 0
        self.dealer = ""
        self.phase = "turning"
        self.deck: list[int] = []  # undealt card ids, next card first: the one secret
        self.table: list[int] = []  # face-up card ids in row order
        self.turned = 0  # cards the dealer has turned up this round (a pick from the deck is not one)
        self.piles: dict[str, list[int]] = {}  # cards each seat has taken this round
        self.auto_on = False
        self.next_turn_at: float | None = None
        self.end_at: float | None = None
        self.passed: list[str] = []
        self.claim: dict | None = None  # the last claim {seat, word, ids, cards, status, voted?}
        self.vote: dict | None = None  # TableVote.to_dict() while phase == "vote"
        self.vote_serial = 0  # id of the latest vote (ballots name the vote they are for)
        self.picking: dict | None = None  # {"pickers", "picked": {seat: {"id"|None, "from"}}, "deadline"}
        self.results: list[dict] = []  # per round: {"round", "dealer", "cards": {seat: n}, "tiles": [seats]}
        self.tiles: dict[str, int] = {}
        self.winners: list[str] = []
        self.possible: list[str] = []
        self.log: list[dict] = []  # this round's settled claims: {"seat", "word", "count", "status"}

    # --- set-up ------------------------------------------------------------------------------

    def setup(self, players: list[str], options: dict, rng: random.Random, now: float) -> None:
        """Start the game and deal round 1 (§1, §4; RULES.md "Diabolo").

        Args:
            players: 2–6 distinct seat ids in seating order; the first deals first.
            options: the lobby options (``OPTIONS``; missing ones take their defaults).
            rng: the engine's ``random.Random``; kept for every shuffle and timed-out pick.
            now: game-clock seconds.
        Raises:
            RuleError: ``"player_count"``, ``"duplicate_seat"``, ``"bad_options"``.
        """
        players = list(players)
        if not self.MIN_PLAYERS <= len(players) <= self.MAX_PLAYERS:
            raise RuleError("player_count", count=len(players), min=self.MIN_PLAYERS, max=self.MAX_PLAYERS)
        if len(set(players)) != len(players):
            raise RuleError("duplicate_seat")
        opts = {name: prop["default"] for name, prop in self.OPTIONS["properties"].items()}
        opts.update(options or {})
        if set(opts) - set(self.OPTIONS["properties"]) or opts["lang"] not in LANGS:
            raise RuleError("bad_options", detail="options")
        self.__init__()
        self._rng = rng
        self.players = players
        self.options = plain(opts)
        self.lang = opts["lang"]
        self.interval = float(opts["interval"])
        self.end_seconds = float(opts["end_seconds"])
        self.handicap = [s for s in opts["handicap"] if s in players]
        self.victory_tiles = bool(opts["victory_tiles"])
        self.tile_handicap = int(opts["tile_handicap"])
        self.tiles = {s: 0 for s in players}
        rounds_each = deals_each(len(players))
        self.dealers = [players[i % len(players)] for i in range(len(players) * rounds_each)]
        self._deal(1, float(now))
        self.version = 1

    def next_dealer(self) -> str:
        """Who deals the next round as planned now (the seat to the left of this round's dealer,
        §3; after a kick, the replanned rotation; with victory tiles the rotation goes on). Also
        the seat that starts it once the scores are shown. Changes nothing; for views and the
        coach."""
        return self._planned_dealer(self.round + 1)

    def _planned_dealer(self, number: int) -> str:
        """The dealer of round ``number`` (at most one past the plan) as planned: each next
        dealer sits to the left (§3); with victory tiles the rotation goes on past the plan, as
        :meth:`_deal` extends it. Changes nothing."""
        if number <= len(self.dealers):
            return self.dealers[number - 1]
        return self._seat_after(self.dealers[-1]) if self.dealers else self.players[0]

    def _seat_after(self, seat: str, order: list[str] | None = None) -> str:
        """The player sitting after ``seat`` (to the left, §3) in ``order`` (default: the
        players), skipping seats no longer playing; ``seat`` itself may have left, when ``order``
        still holds it. A seat found nowhere: the first player."""
        order = self.players if order is None else order
        if seat not in order:
            return self.players[0]
        i = order.index(seat)
        for k in range(1, len(order) + 1):
            nxt = order[(i + k) % len(order)]
            if nxt in self.players:
                return nxt
        return self.players[0]

    def _replan_dealers(self, gone: str, seats_before: list[str]) -> None:
        """After ``gone`` left (``seats_before``: the seating order with them): the round they were
        dealing passes to the next seat, and the rounds still to come are planned anew for the
        new player count (§4: each deals once with 4–6, twice with 2–3; the rounds already dealt
        count), in seating order from the seat after this round's dealer. With victory tiles
        the rotation simply goes on from that seat (§7)."""
        if self.dealer == gone and self.phase in ("turning", "vote", "picking"):
            self.dealer = self._seat_after(gone, seats_before)
            self.dealers[self.round - 1] = self.dealer
        done = self.dealers[: self.round]
        nxt = self._seat_after(done[-1], seats_before) if done else self.players[0]
        if self.victory_tiles:
            self.dealers = done + [nxt]
            return
        per = deals_each(len(self.players))
        count = {p: sum(1 for d in done if d == p) for p in self.players}
        future: list[str] = []
        seat = nxt
        while any(count[p] < per for p in self.players):
            if count[seat] < per:
                future.append(seat)
                count[seat] += 1
            seat = self._seat_after(seat)
        self.dealers = done + future

    def _deal(self, number: int, now: float) -> None:
        """Collect every card, shuffle, and start round ``number`` with its dealer (§2, §3)."""
        while self.victory_tiles and len(self.dealers) < number:
            self.dealers.append(self._seat_after(self.dealers[-1]) if self.dealers else self.players[0])
        self.round = number
        self.dealer = self.dealers[number - 1]
        self.deck = [c["id"] for c in self.cards]
        self._rng.shuffle(self.deck)
        self.table = []
        self.turned = 0
        self.piles = {s: [] for s in self.players}
        self.phase = "turning"
        self.auto_on = False  # the dealer starts the turning (or turns by hand)
        self.next_turn_at = None
        self.end_at = None
        self.passed = []
        self.claim = None
        self.vote = None
        self.picking = None
        self.possible = []
        self.log = []
        self._event("deal", round=number, dealer=self.dealer)

    # --- the engine interface ----------------------------------------------------------------

    @property
    def cards(self) -> tuple[dict, ...]:
        """This game's deck table (see :func:`~.diabolo_words.deck_table`)."""
        return deck_table(self.lang)


    def next_deadline(self) -> float | None:
        """Game-clock seconds of the next timed step: the vote's close, the picks' time limit,
        the next auto-turn, or the end of the deck-out countdown; None when nothing is timed."""
        if self.phase == "vote" and self.vote is not None:
            return self.vote["closes"]
        if self.phase == "picking" and self.picking is not None:
            return self.picking["deadline"]
        if self.phase == "turning":
            times = [t for t in (self.next_turn_at if self.auto_on and self.deck else None, self.end_at)
                     if t is not None]
            return min(times) if times else None
        return None

    def tick(self, now: float) -> None:
        """Run whatever is due at game-clock ``now``: close the vote, make the missing picks at
        random, turn the next card, or end the round when the deck-out countdown has run."""
        now = float(now)
        changed = False
        if self.phase == "vote" and self.vote is not None and now >= self.vote["closes"]:
            self._change_vote(lambda vote: vote.expire(now), now)
            changed = True
        elif self.phase == "picking" and self.picking is not None and now >= self.picking["deadline"]:
            for seat in list(self.picking["pickers"]):
                if seat not in self.picking["picked"]:
                    card = self._rng.choice(self.table) if self.table else None
                    self._give_pick(seat, card, random_pick=True)
            self._finish_picking(now)
            changed = True
        elif self.phase == "turning":
            if self.auto_on and self.deck and self.next_turn_at is not None and now >= self.next_turn_at:
                self._turn(now)
                changed = True
            elif self.end_at is not None and now >= self.end_at:
                self._end_round(now, "countdown")
                changed = True
        if changed:
            self.version += 1

    def _do_leave(self, seat: str, now: float) -> None:
        """Remove a (kicked) player: their cards this round stay out of play in their pile, they
        leave the dealer rotation (a round they were dealing passes to the next seat, and the
        rounds to come are planned anew for the new count, :meth:`_replan_dealers`), a vote drops
        their ballot, a claim of theirs under vote is
        withdrawn and a pick owed by them is skipped. Not in the rulebook (RULES.md "General").

        Raises:
            RuleError: ``"game_over"``, ``"not_a_player"``, ``"cannot_continue"`` (fewer than 2
                would remain).
        """
        seats_before = list(self.players)
        self.players.remove(seat)
        self.handicap = [s for s in self.handicap if s != seat]
        self.passed = [s for s in self.passed if s != seat]
        self._replan_dealers(seat, seats_before)
        if self.phase == "vote" and self.vote is not None:
            if self.claim and self.claim["seat"] == seat:
                self.claim["status"] = "withdrawn"
                self.vote = None
                self._resume(now)
            else:
                self._change_vote(lambda vote: vote.drop_voter(seat), now)
        elif self.phase == "picking" and self.picking is not None:
            if seat in self.picking["pickers"] and seat not in self.picking["picked"]:
                self.picking["pickers"].remove(seat)
                self._maybe_finish_picking(now)
        self._event("left", seat=seat)
        if self.phase == "turning" and not self.deck and all(s in self.passed for s in self.players):
            self._end_round(now, "passed")
        if self.phase == "scored" and self.round >= len(self.dealers) and not self.victory_tiles:
            self._finish_game()

    def interrupted(self, now: float) -> None:
        """After a host restart the turning stops (the dealer starts it again) and every running
        time limit (deck-out countdown, vote, picks) starts afresh, so phones that are still
        reconnecting lose nothing."""
        now = float(now)
        if self.phase in ("turning", "vote", "picking") and self.auto_on:
            # also during a vote or the picks: their end must not start the turning by itself
            # (issue 13 point 16); the dealer starts it again
            self.auto_on = False
            self.next_turn_at = None
        if self.phase == "turning" and self.end_at is not None:
            self.end_at = now + self.end_seconds
        if self.phase == "vote" and self.vote is not None:
            self.vote["closes"] = now + VOTE_SECONDS
        if self.phase == "picking" and self.picking is not None:
            self.picking["deadline"] = now + PICK_SECONDS
        self.version += 1

    def _presence(self, seat: str, present: bool, now: float) -> bool:
        """The dealer's phone went away while the cards turn by themselves: the turning stops at
        once, since nobody could pause it or change its tempo and the dealer would miss the
        cards (issue 16; the others lose nothing: a stopped row waits). The dealer, back, or
        the host (``auto``) starts it again. Other seats away change nothing: the row waits for
        nobody in the rulebook either, and the host can stop the turning."""
        if present or seat != self.dealer or self.phase != "turning" or not self.auto_on:
            return False
        self.auto_on = False
        self.next_turn_at = None
        self._event("auto", on=False, away=seat)
        return True

    # --- players' moves (the pipeline has checked schema, game over, seat, stale round) -------

    def _do_claim(self, seat: str, action: dict, now: float) -> None:
        """A word from face-up cards (§2, §5, §8).

        Checks, in order (after the pipeline's ``"stale"`` round): ``"round_scored"`` (scored);
        ``"word_too_long"`` (``max``: more than ``MAX_WORD`` letters once folded);
        ``"abbreviation"`` (``word``: on our curated list, with or without dots — refused
        outright, never voted, §5 and RULES.md);
        ``"not_letters"`` (anything but letters: abbreviations with dots, digits, an empty word);
        ``"card_twice"``; ``"card_taken"`` (a card is already in a pile or held by the claim
        under vote: the race was lost, no penalty); ``"not_face_up"``; ``"word_vote_open"`` /
        ``"picking_open"``; ``"too_few_cards"`` (``min``); ``"joker_letter"`` /
        ``"not_a_joker"``; ``"spelling"`` (``word``, ``spelled``).

        A known word stands at once: the claimant takes the cards, the turning waits. An unknown
        word opens a table vote of the other players.
        """
        if self.phase == "scored":
            raise RuleError("round_scored")
        word = fold(action["word"], self.lang)
        if len(word) > MAX_WORD:
            raise RuleError("word_too_long", max=MAX_WORD)
        short = abbreviation(action["word"], self.lang)
        if short is not None:
            raise RuleError("abbreviation", word=short)
        if not is_letters(word):
            raise RuleError("not_letters")
        ids = [c["id"] for c in action["cards"]]
        if len(set(ids)) != len(ids):
            raise RuleError("card_twice")
        taken = set().union(*(set(p) for p in self.piles.values())) | self._held()
        for i in ids:
            if i in taken:
                raise RuleError("card_taken", face=self._shown(i))
        for i in ids:
            if i not in self.table:
                raise RuleError("not_face_up")
        if self.phase == "vote":
            raise RuleError("word_vote_open")
        if self.phase == "picking":
            raise RuleError("picking_open")
        need = self._min_cards(seat)
        if len(ids) < need:
            raise RuleError("too_few_cards", min=need)
        spelled = "".join(card_letters(self.cards[c["id"]], c.get("as")) for c in action["cards"])
        if spelled != word:
            raise RuleError("spelling", word=word, spelled=spelled)
        cards = [{"id": c["id"], "face": self.cards[c["id"]]["face"],
                  "as": card_letters(self.cards[c["id"]], c.get("as"))} for c in action["cards"]]
        self.claim = {"seat": seat, "word": word, "ids": ids, "cards": cards, "status": "vote"}
        self.passed = []
        if is_known(word, self.lang):
            self._take(now)
        else:
            voters = [s for s in self.players if s != seat]
            self.vote_serial += 1
            self.vote = TableVote({"word": word, "seat": seat}, voters, now, VOTE_SECONDS,
                                  vote_id=self.vote_serial).to_dict()
            self.phase = "vote"
            self._event("claim_vote", seat=seat, word=word)

    def _do_vote(self, seat: str, action: dict, now: float) -> None:
        """A ballot on the word under vote (RULES.md; :class:`TableVote`). Raises ``"no_word_vote"``
        and the vote's own codes (``vote_gone``, ``vote_closed``, ``not_a_voter``)."""
        if self.phase != "vote" or self.vote is None:
            raise RuleError("no_word_vote")
        self._change_vote(lambda vote: vote.cast(seat, action["ballot"], action["vote"]), now)

    def _do_pick(self, seat: str, action: dict, now: float) -> None:
        """Take one face-up card after a voted-down word (§2). Raises (after the pipeline's
        ``"stale"``) ``"not_picking"``, ``"not_your_pick"`` (the claimant), ``"already_picked"``,
        ``"card_taken"`` (another picker was first), ``"not_face_up"``."""
        if self.phase != "picking" or self.picking is None:
            raise RuleError("not_picking")
        if seat not in self.picking["pickers"]:
            raise RuleError("not_your_pick")
        if seat in self.picking["picked"]:
            raise RuleError("already_picked")
        card = action["card"]
        if card not in self.table:
            if any(card in p for p in self.piles.values()):
                raise RuleError("card_taken", face=self._shown(card))
            raise RuleError("not_face_up")
        self._give_pick(seat, card, random_pick=False)
        self._maybe_finish_picking(now)

    def _do_pass(self, seat: str, action: dict, now: float) -> None:
        """I see no more word (§3). Only once the deck is out; when every player has passed the
        round ends. Raises (after ``"stale"``) ``"round_scored"``, ``"word_vote_open"`` /
        ``"picking_open"``, ``"deck_not_out"``."""
        self._need_turning()
        if self.deck:
            raise RuleError("deck_not_out")
        if seat not in self.passed:
            self.passed.append(seat)
        if all(s in self.passed for s in self.players):
            self._end_round(now, "passed")
        else:
            self._event("pass", seat=seat)

    def _do_turn(self, seat: str, action: dict, now: float) -> None:
        """The dealer turns the next card now (§2). Raises (after ``"stale"``) ``"not_dealer"``,
        ``"round_scored"``, ``"word_vote_open"``/``"picking_open"``, ``"stale_turn"`` (``turned``:
        a doubled tap), ``"deck_out"``."""
        self._need_dealer(seat)
        self._turn_now(action["turned"], now)

    def _do_auto(self, seat: str, action: dict, now: float) -> None:
        """The dealer starts or pauses the turning (§2: the dealer sets the tempo). Raises (after
        ``"stale"``) ``"not_dealer"``, ``"round_scored"``."""
        self._need_dealer(seat)
        self._set_auto(bool(action["on"]), now)

    def _do_tempo(self, seat: str, action: dict, now: float) -> None:
        """The dealer sets the auto-turn interval in seconds (1–20). Raises ``"not_dealer"``,
        ``"round_scored"``."""
        self._need_dealer(seat)
        if self.phase not in ("turning", "vote", "picking"):
            raise RuleError("round_scored")
        self.interval = float(action["seconds"])
        if self.phase == "turning" and self.auto_on and self.next_turn_at is not None:
            self.next_turn_at = min(self.next_turn_at, now + self.interval)
        self._event("tempo", seconds=self.interval)

    def _do_deal(self, seat: str, action: dict, now: float) -> None:
        """Deal the next round once the scores are up (§3). Only its dealer may (any player if
        that one has left). Raises ``"not_scored"``, ``"stale"`` (``round`` must be the next
        round's number), ``"not_dealer"``."""
        self._deal_next(action, now, seat)

    # --- the host's moves ----------------------------------------------------------------------

    def _host_overrule(self, action: dict, now: float) -> None:
        """The host decides the word under vote (RULES.md: the host can overrule). Raises
        ``"no_word_vote"``, ``"vote_gone"`` (another vote's id), ``"vote_closed"``,
        ``"overrule_own_word"`` (the host's phone is the claimant's: nobody rules on their own
        word; the table votes, or the TV overrules)."""
        if self.phase != "vote" or self.vote is None:
            raise RuleError("no_word_vote")
        if self.host_by is not None and self.claim and self.host_by == self.claim["seat"]:
            raise RuleError("overrule_own_word")
        self._change_vote(lambda vote: vote.overrule(action["outcome"], action["vote"]), now)

    def _host_auto(self, action: dict, now: float) -> None:
        """Start or pause the turning for a dealer whose phone is gone. Raises ``"round_scored"``."""
        self._set_auto(bool(action["on"]), now)

    def _host_turn(self, action: dict, now: float) -> None:
        """Turn the next card for the dealer. Raises like :meth:`_do_turn`, without ``not_dealer``."""
        self._turn_now(int(action["turned"]), now)

    def _host_deal(self, action: dict, now: float) -> None:
        """Deal the next round for a next dealer whose phone is gone (else nobody could go on);
        they stay that round's dealer. Raises ``"not_scored"``, ``"stale"``."""
        self._deal_next(action, now)

    def _host_handicap(self, action: dict, now: float) -> None:
        """Give a player the quick-player handicap, or take it back (§8). Raises ``"not_a_player"``."""
        seat = action["seat"]
        if seat not in self.players:
            raise RuleError("not_a_player")
        self.handicap = [s for s in self.handicap if s != seat] + ([seat] if action["on"] else [])
        self._event("handicap", seat=seat, on=bool(action["on"]))

    # --- rules shared by the moves -------------------------------------------------------------

    def _deal_next(self, action: dict, now: float, seat: str | None = None) -> None:
        """Deal round ``action["round"]`` with its planned dealer; ``seat`` None is the host,
        who may deal for anyone. Raises ``"not_scored"``, ``"stale"`` (params ``round``,
        ``current``: the round to deal), ``"not_dealer"``; changes nothing when it does."""
        if self.phase != "scored":
            raise RuleError("not_scored")
        if action["round"] != self.round + 1:
            raise RuleError("stale", round=action["round"], current=self.round + 1)
        nxt = self._planned_dealer(self.round + 1)
        if seat is not None and seat != nxt and nxt in self.players:
            raise RuleError("not_dealer")
        self._deal(self.round + 1, now)

    def _need_dealer(self, seat: str) -> None:
        if seat != self.dealer:
            raise RuleError("not_dealer")

    def _need_turning(self) -> None:
        if self.phase in ("scored", "over"):
            raise RuleError("round_scored")
        if self.phase == "vote":
            raise RuleError("word_vote_open")
        if self.phase == "picking":
            raise RuleError("picking_open")

    def _min_cards(self, seat: str) -> int:
        """Fewest cards a word of ``seat`` must take (§2; §8 for a player given the handicap)."""
        return HANDICAP_CARDS if seat in self.handicap else MIN_CARDS

    def _held(self) -> set[int]:
        """The cards a claim under vote holds for its claimant."""
        return set(self.claim["ids"]) if self.claim and self.claim["status"] == "vote" else set()

    def _shown(self, card: int) -> str:
        """The face of card ``card`` for a refusal message (jokers as Ψ / ΨΨ)."""
        return shown_face(self.cards[card]) if 0 <= card < len(self.cards) else "?"

    def _face(self, card: int) -> str:
        return self.cards[card]["face"] if 0 <= card < len(self.cards) else "?"

    def _set_auto(self, on: bool, now: float) -> None:
        if self.phase in ("scored", "over"):
            raise RuleError("round_scored")
        self.auto_on = on
        self.next_turn_at = (now if not self.table else now + self.interval) if on else None
        self._event("auto", on=on)

    def _turn_now(self, turned: int, now: float) -> None:
        self._need_turning()
        if turned != self.turned:
            raise RuleError("stale_turn", turned=self.turned)
        if not self.deck:
            raise RuleError("deck_out")
        self._turn(now)

    def _turn(self, now: float) -> None:
        """Turn the top card of the deck face up at the end of the row."""
        card = self.deck.pop(0)
        self.table.append(card)
        self.turned += 1
        self.next_turn_at = now + self.interval if self.auto_on else None
        self._event("turn", card=card, face=self._face(card))
        if not self.deck:
            self.end_at = now + self.end_seconds
            self._end_if_stuck(now)

    def _take(self, now: float) -> None:
        """The claim stands: its cards go to the claimant's pile (§2)."""
        claim = self.claim
        for i in claim["ids"]:
            self.table.remove(i)
        self.piles[claim["seat"]].extend(claim["ids"])
        claim["status"] = "taken"
        self.vote = None
        self._event("claim_taken", seat=claim["seat"], word=claim["word"], count=len(claim["ids"]))
        self._keep("word", len(claim["ids"]), seat=claim["seat"], word=claim["word"],
                   count=len(claim["ids"]), round=self.round)
        self.log.append({"seat": claim["seat"], "word": claim["word"], "count": len(claim["ids"]), "status": "taken"})
        self._resume(now, CLAIM_SHOW_SECONDS)

    def _change_vote(self, change: Callable[[TableVote], None], now: float) -> None:
        """Apply ``change`` (a ballot, the overrule, a time-out, a voter leaving) to the open
        vote, keep it, and settle the claim once the vote is decided. A :class:`RuleError` from
        ``change`` leaves everything as it was."""
        vote = TableVote.from_dict(self.vote)
        change(vote)
        self.vote = vote.to_dict()
        if vote.decided == "accept":
            self._take(now)
            self.claim["voted"] = True
        elif vote.decided == "reject":
            self._reject(now)

    def _reject(self, now: float) -> None:
        """The table voted the word down: no cards for the claimant; every other player picks
        one (§2)."""
        claim = self.claim
        claim["status"] = "rejected"
        self.vote = None
        pickers = [s for s in self.players if s != claim["seat"]]
        self.phase = "picking"
        self.picking = {"pickers": pickers, "picked": {}, "deadline": now + PICK_SECONDS}
        self._event("claim_rejected", seat=claim["seat"], word=claim["word"])
        self.log.append({"seat": claim["seat"], "word": claim["word"], "count": 0, "status": "rejected"})
        self._maybe_finish_picking(now)

    def _give_pick(self, seat: str, card: int | None, random_pick: bool) -> None:
        """One picker takes ``card`` from the table; from the deck when the table is empty; nothing
        when both are (§2)."""
        if card is not None and card in self.table:
            self.table.remove(card)
            self.piles[seat].append(card)
            self.picking["picked"][seat] = {"id": card, "face": self._face(card), "from": "table", "random": random_pick}
        elif self.deck:
            self.piles[seat].append(self.deck.pop(0))
            self.picking["picked"][seat] = {"id": None, "face": None, "from": "deck", "random": random_pick}
        else:
            self.picking["picked"][seat] = {"id": None, "face": None, "from": "none", "random": random_pick}

    def _maybe_finish_picking(self, now: float) -> None:
        """When the table is empty, the pickers still waiting take from the deck at once; when
        all have picked, play goes on."""
        if not self.table:
            for seat in self.picking["pickers"]:
                if seat not in self.picking["picked"]:
                    self._give_pick(seat, None, random_pick=False)
        if all(s in self.picking["picked"] for s in self.picking["pickers"]):
            self._finish_picking(now)

    def _finish_picking(self, now: float) -> None:
        self._event("picked", picks=plain(self.picking["picked"]))
        self._resume(now)

    def _resume(self, now: float, wait: float = 0.0) -> None:
        """Back to turning after a claim: the next auto-turn and the deck-out countdown restart."""
        self.phase = "turning"
        self.picking = None
        self.next_turn_at = now + max(self.interval, wait) if self.auto_on else None
        if not self.deck:
            self.end_at = now + self.end_seconds
            self._end_if_stuck(now)

    def _end_if_stuck(self, now: float) -> None:
        """Deck out and too few cards face up for anyone's word: the round is over (§3)."""
        fewest = min(self._min_cards(s) for s in self.players)
        if not self.deck and self.phase == "turning" and len(self.table) < fewest:
            self._end_round(now, "no_cards")

    # --- scoring (§3, §4, §7) ------------------------------------------------------------------

    def _end_round(self, now: float, why: str) -> None:
        """Score the round (§3; §7 victory tiles) and show a few words still possible."""
        counts = {s: len(self.piles.get(s, [])) for s in self.players}
        tiles_to: list[str] = []
        if self.victory_tiles:
            adjusted = {s: counts[s] - (self.tile_handicap if self.tiles.get(s, 0) > 0 else 0) for s in self.players}
            top = max(adjusted.values())
            # RULES.md "Diabolo": the highest adjusted result takes the tile (ties each), also when
            # it is 0 or below after the holders' handicap; only a round in which nobody took a
            # card gives none (else every player would tie for it and two empty rounds would
            # make everyone a winner)
            anyone_took = any(counts[s] > 0 for s in self.players)
            tiles_to = [s for s in self.players if adjusted[s] == top] if anyone_took else []
            for s in tiles_to:
                self.tiles[s] = self.tiles.get(s, 0) + 1
        self.results.append({"round": self.round, "dealer": self.dealer, "cards": counts, "tiles": tiles_to,
                             "why": why})
        self._keep_best_claim(counts)
        self.phase = "scored"
        self.auto_on = False
        self.next_turn_at = None
        self.end_at = None
        self.picking = None
        self.vote = None
        try:
            self.possible = possible_words([self.cards[i] for i in self.table], self.lang)
        except Exception:  # no word list: the round still ends
            self.possible = []
        self._event("round_end", round=self.round, why=why)
        if self.victory_tiles:
            if any(n >= 2 for n in self.tiles.values()):
                self._finish_game()
        elif self.round >= len(self.dealers):
            self._finish_game()

    def best_claim_index(self) -> int | None:
        """The round's best claim so far: the index in ``log`` of the taken claim with the most
        cards (the first of equals), or None before one is taken. The TV stars it."""
        best = None
        for i, c in enumerate(self.log):
            if c["status"] == "taken" and (best is None or c["count"] > self.log[best]["count"]):
                best = i
        return best

    def _keep_best_claim(self, counts: dict[str, int]) -> None:
        """At a round's end, keep this round's best claim (the most cards; the first wins a tie)
        as the highlight candidate ``claim``, scored by its share of every card taken in the
        round (claims and picks): the claim that carried its round the most."""
        at = self.best_claim_index()
        total = sum(counts.values())
        if at is None or total <= 0:
            return
        best = self.log[at]
        self._keep("claim", best["count"] / total, seat=best["seat"], word=best["word"],
                   count=best["count"], of=total, round=self.round)

    def totals(self) -> dict[str, int]:
        """Each player's sum of round results (§4): ``{seat: cards}``."""
        return {s: sum(r["cards"].get(s, 0) for r in self.results) for s in self.players}

    def _finish_game(self) -> None:
        """The winners: the highest total, ties share (§4); with tiles, the most tiles (§7)."""
        if self.victory_tiles:
            top = max(self.tiles.get(s, 0) for s in self.players)
            self.winners = [s for s in self.players if self.tiles.get(s, 0) == top]
        else:
            totals = self.totals()
            top = max(totals.values())
            self.winners = [s for s in self.players if totals[s] == top]
        self.phase = "over"
        self._event("over", winners=list(self.winners))

    def outcome(self) -> dict:
        """Ranked by tiles when playing to two tiles (§7), else by total cards (§4); equal
        standing shares a place. ``detail`` holds ``totals`` and ``tiles``."""
        totals = self.totals()
        key = (lambda s: self.tiles.get(s, 0)) if self.victory_tiles else (lambda s: totals[s])
        levels = sorted({key(s) for s in self.players}, reverse=True)
        return {"coop": False, "won": None,
                "places": [[s for s in self.players if key(s) == v] for v in levels],
                "detail": {"totals": totals, "tiles": {s: self.tiles.get(s, 0) for s in self.players}}}

    def highlights(self) -> list[dict]:
        """The biggest word taken (the most cards in one claim; the first wins a tie), and the
        round's best claim: of each finished round's biggest claim, the one that took the largest
        share of the cards taken in its round (claims and picks; the earlier round wins a tie).
        The second is left out when it is the same claim as the first."""
        out = []
        word = self.marks.get("word")
        if word is not None:
            out.append(msg("diabolo.hl.word", seat=word["seat"], word=word["word"], count=word["count"],
                           round=word["round"]))
        best = self.marks.get("claim")
        if best is not None and not (word is not None and (word["seat"], word["word"], word["round"])
                                     == (best["seat"], best["word"], best["round"])):
            out.append(msg("diabolo.hl.claim", seat=best["seat"], word=best["word"], count=best["count"],
                           of=best["of"], round=best["round"]))
        return out

    def card_count(self) -> int:
        """Cards in deck + table + every pile (always the whole deck: conservation)."""
        return len(self.deck) + len(self.table) + sum(len(p) for p in self.piles.values())

    # --- the view ------------------------------------------------------------------------------

    # --- how to play: the rules in use ------------------------------------------------------------

    @classmethod
    def howto_facts(cls, options: dict, players: list[str]) -> list[dict]:
        """The rules in use for ``players`` with ``options`` (see :meth:`Game.howto_facts`): the
        word language; victory tiles, or how often each deals (:func:`deals_each`); the auto-turn
        interval; who plays with the handicap."""
        props = cls.OPTIONS["properties"]
        o = {**{k: p["default"] for k, p in props.items()}, **options}
        count = len(players)
        return cls._facts(o["lang"], bool(o["victory_tiles"]), o["tile_handicap"], count,
                          count * deals_each(count), o["interval"], [s for s in o["handicap"] if s in players])

    def howto_facts_now(self, options: dict) -> list[dict]:
        """The rules in use of this game as played: the dealer's tempo, the host's handicaps and
        the rounds as planned now (a kick replans them)."""
        return self._facts(self.lang, self.victory_tiles, self.tile_handicap, len(self.players),
                           len(self.dealers), self.interval, [s for s in self.handicap if s in self.players])

    @classmethod
    def howto_count_facts(cls, count: int, options: dict) -> list[dict]:
        """How often each player deals (:func:`deals_each`, §4); with victory tiles the count
        changes nothing (the deal goes round until someone holds two). See
        :meth:`Game.howto_count_facts`."""
        if options.get("victory_tiles"):
            return []
        return [msg("diabolo.howto.c.deals", times=deals_each(count))]

    @staticmethod
    def _facts(lang: str, tiles: bool, minus: int, count: int, rounds: int, interval: float,
               slow: list[str]) -> list[dict]:
        out = [msg("diabolo.howto.v.lang", lang={"key": f"diabolo.opt.{lang}"})]
        if tiles:
            out.append(msg("diabolo.howto.v.tiles", minus=minus))
        elif count >= 2:
            out.append(msg("diabolo.howto.v.deals", count=count, times=deals_each(count), rounds=rounds))
        out.append(msg("diabolo.howto.v.interval", seconds=interval))
        if slow:
            out.append(msg("diabolo.howto.v.handicap", names=joined([seat_name(s) for s in slow])))
        return out

    def guide(self, seat: str | None) -> dict:
        """What ``seat`` can do now (see :mod:`partyhost.games.diabolo_coach`)."""
        return diabolo_coach.guide(self, seat)

    def coach_strip(self) -> dict | None:
        """The first-round coach (see :mod:`partyhost.games.diabolo_coach`)."""
        return diabolo_coach.strip(self)

    def coach_tip(self, seat: str) -> dict | None:
        """The first-round coach (see :mod:`partyhost.games.diabolo_coach`)."""
        return diabolo_coach.tip(self, seat)

    def view(self, seat: str | None) -> dict:
        """What ``seat`` may know; ``None`` is the table. Everything is public except the order
        of the undealt deck, of which views carry only the size.

        Shape: ``{"game", "phase", "lang", "round", "rounds" (None in the tiles variant),
        "dealer", "next_dealer", "interval", "auto", "next_turn_at", "end_at", "deck_left",
        "turned", "deck_size", "table": [{"id", "face", "joker"}], "players": [{"seat", "cards",
        "total", "tiles", "min", "passed"}], "claim": None | {"seat", "word", "cards": [{"id",
        "face", "as"}], "status": "vote"|"taken"|"rejected"|"withdrawn", "voted"?}, "vote": None
        | TableVote.view(), "picking": None | {"pickers", "picked": {seat: {"id", "face",
        "from", "random"}}, "deadline"}, "results", "winners", "places", "possible", "log": [{"seat", "word", "count", "status":
        "taken"|"rejected"}] (this round's settled claims, oldest first), "log_best": index in
        "log" of the round's best claim or None, "victory_tiles",
        "tile_handicap", "last_event", "version"}``; a seat also gets ``"me"``.

        ``places`` is None until the game is over, then the game's own final ranking
        (:meth:`outcome`'s ``places``: best first, a list of seats per place, equal standing
        sharing one). Pages draw it as it is and never rank the players themselves.

        Everything but ``me`` is the table's (:meth:`_table_view`, :meth:`~.base.Game.table_part`):
        one object whose members every view of one flush shares.
        """
        out = dict(self.table_part("table", self._table_view))
        if seat is not None:
            out["me"] = seat
        return out

    def _table_view(self) -> dict:
        """The part of :meth:`view` every seat sees alike (the TV's whole game view)."""
        totals = self.totals()
        next_dealer = None
        if self.phase == "scored":
            next_dealer = self._planned_dealer(self.round + 1)
            if next_dealer not in self.players:
                next_dealer = None
        claim = None
        if self.claim is not None:
            claim = {k: plain(v) for k, v in self.claim.items() if k != "ids"}
        vote = TableVote.from_dict(self.vote).view() if self.vote is not None else None
        return {
            "game": self.KEY,
            "phase": self.phase,
            "lang": self.lang,
            "round": self.round,
            "rounds": None if self.victory_tiles else len(self.dealers),
            "dealer": self.dealer,
            "next_dealer": next_dealer,
            "interval": self.interval,
            "auto": self.auto_on,
            "next_turn_at": self.next_turn_at if self.auto_on and self.deck and self.phase == "turning" else None,
            "end_at": self.end_at if self.phase == "turning" else None,
            "deck_left": len(self.deck),
            "deck_size": len(self.cards),
            "turned": self.turned,
            "table": [dict(self.cards[i]) for i in self.table],
            "players": [
                {"seat": s, "cards": len(self.piles.get(s, [])), "total": totals[s], "tiles": self.tiles.get(s, 0),
                 "min": self._min_cards(s), "passed": s in self.passed}
                for s in self.players
            ],
            "claim": claim,
            "vote": vote,
            "picking": plain(self.picking),
            "results": plain(self.results),
            "winners": list(self.winners),
            "places": self.outcome()["places"] if self.phase == "over" else None,
            "possible": list(self.possible),
            "log": plain(self.log),
            "log_best": self.best_claim_index(),
            "victory_tiles": self.victory_tiles,
            "tile_handicap": self.tile_handicap,
            "last_event": plain(self.last_event),
            "version": self.version,
        }

    # --- snapshots, bots and the conformance suite ---------------------------------------------

    @classmethod
    def migrate(cls, data: dict, version: int) -> dict:
        """Layout 2 → 3: the round's claim log (``log``), empty for a saved round.
        Layout 1 → 2: ballots and the host's overrule name their vote (``vote_serial``, the id
        of the latest vote). A layout-1 snapshot takes its serial from the open vote's id, or 0
        when no vote is open; an open vote saved before votes had ids gets id 1, so phones can
        name it (their ballots carry ids from 1). A snapshot that already has ``vote_serial``
        (written by main before snapshots had versions) keeps it."""
        if version < 2:
            vote = data.get("vote")
            if isinstance(vote, dict) and not vote.get("id"):
                vote["id"] = 1
            data.setdefault("vote_serial", vote["id"] if isinstance(vote, dict) else 0)
        if version < 3:
            data.setdefault("log", [])  # the round's claim log came with layout 3: it starts empty
        return data

    def suggest(self, seat: str | None, rng: random.Random) -> list[dict]:
        """A few moves ``seat`` could sensibly make now, mostly legal (``seat=None``: the host's).

        The dealer turns cards and starts the turning at a quick tempo; a player claims a real
        word of the list found by the game's own solver (:func:`~.diabolo_words.possible_words`
        over the free face-up cards), now and then a made-up one (its cards' own letters, which
        goes to a vote), passes once the deck is out, votes, picks, and the next dealer deals.
        The host turns, overrules and deals. Random play from these ends a game (the
        conformance suite plays 2 and 6 players to the end in a few hundred moves).

        Returns:
            Action dicts shaped as :attr:`MOVES` (``seat`` a player) or :attr:`HOST_MOVES`
            (``seat=None``); none for a spectator or once the game is over. A move may repeat
            (a weight for random choice).
        """
        if self.over:
            return []
        if seat is None:
            return self._host_suggestions(rng)
        if seat not in self.players:
            return []
        r = self.round
        out: list[dict] = []
        if self.phase == "turning":
            if seat == self.dealer and self.deck:
                out += [{"type": "turn", "round": r, "turned": self.turned}] * 2
                if not self.auto_on:
                    out.append({"type": "auto", "round": r, "on": True})
                if self.interval > 1:
                    out.append({"type": "tempo", "seconds": 1})
            out += self._claim_suggestions(seat, rng)
            if not self.deck and seat not in self.passed:
                out.append({"type": "pass", "round": r})
        elif self.phase == "vote" and self.vote is not None and seat in self.vote["voters"]:
            out.append({"type": "vote", "vote": self.vote["id"], "ballot": rng.choice(("accept", "reject"))})
        elif self.phase == "picking" and self.picking is not None and self.table:
            if seat in self.picking["pickers"] and seat not in self.picking["picked"]:
                out.append({"type": "pick", "round": r, "card": rng.choice(self.table)})
        elif self.phase == "scored":
            nxt = self._planned_dealer(r + 1)
            if seat == nxt or nxt not in self.players:
                out.append({"type": "deal", "round": r + 1})
        return out

    def _host_suggestions(self, rng: random.Random) -> list[dict]:
        """The host stands in for the dealer (turn, start the turning), decides a vote, deals the
        next round, and now and then changes a player's handicap (§8)."""
        out: list[dict] = []
        if self.phase == "turning" and self.deck:
            out.append({"type": "turn", "turned": self.turned})
            if not self.auto_on:
                out.append({"type": "auto", "on": True})
        elif self.phase == "vote" and self.vote is not None:
            out.append({"type": "overrule", "vote": self.vote["id"], "outcome": rng.choice(("accept", "reject"))})
        elif self.phase == "scored":
            out.append({"type": "deal", "round": self.round + 1})
        if rng.random() < 0.05:
            out.append({"type": "handicap", "seat": rng.choice(self.players), "on": rng.random() < 0.3})
        return out

    def _claim_suggestions(self, seat: str, rng: random.Random) -> list[dict]:
        """Claims of a real word from the free face-up cards (two copies, so they are chosen
        most), and sometimes a made-up word spelt by the cards as they lie."""
        held = self._held()
        free = tuple(sorted(i for i in self.table if i not in held))
        need = self._min_cards(seat)
        if len(free) < need:
            return []
        out: list[dict] = []
        for word in _words_to_claim(self.lang, free, need)[:1]:
            plan = best_assignment(word, [self.cards[i] for i in free])
            if plan is not None:
                cards = [{"id": c["id"], **({"as": c["as"]} if c["joker"] else {})} for c in plan]
                out += [{"type": "claim", "round": self.round, "word": word, "cards": cards}] * 2
        if rng.random() < 0.1:
            chosen = rng.sample(free, need)
            cards = [{"id": i, **({"as": "E" * self.cards[i]["joker"]} if self.cards[i]["joker"] else {})}
                     for i in chosen]
            word = "".join(card_letters(self.cards[c["id"]], c.get("as")) for c in cards)
            out.append({"type": "claim", "round": self.round, "word": word, "cards": cards})
        return out

    def redeal_hidden(self, seat: str | None, rng: random.Random) -> "Diabolo":
        """A copy with the undealt deck shuffled anew: its order is the one thing no seat (and
        not the table) may know. Everything else (the row, the piles' sizes, claims, votes,
        picks, scores) is public and kept; cards a picker drew face down from the deck are
        shown to nobody by any view (only pile sizes are). ``seat`` does not matter: no seat
        sees more than the table."""
        twin = type(self).from_dict(self.to_dict(), rng)
        rng.shuffle(twin.deck)
        return twin
