"""Decrypto (デクリプト): pure rules of the two-team code game, and its 2-vs-1 variant.

Sources. The rulebook ``shared/seeds/000_869e48370cc59a45.txt`` is the law; ``shared/RULES.md``
section "Decrypto" settles what it leaves open for phones. Rulebook sections are cited by their
headings in the seed file, in English:

* §setup "秘密の4語と記録の準備" (teams as even as possible, 4 keywords per team fixed for the
  game, a 24-card code deck per team, encryptors rotate within each team)
* §clues "ヒントを作るときの約束" (3 clues in code order; no keyword itself; no repeated clue;
  the optional 30-second timer, missing clues go blank)
* §guess "白の出題、両チームの予想、答え合わせ" (white's clues first; the team decodes, the other
  intercepts from round 2; reveal order interception, decode, code; the tokens)
* §next "初手と次のラウンドの見え方" (black the same way; codes go back and are reshuffled)
* §end "終了と同時成立の処理" (end check after both teams; the tie-break: score, then the
  keyword guesses, then a shared win; 8 rounds at most)
* §three "3人なら2人対1人" (the team of two encrypts, the lone interceptor takes a token for
  each interception from round 2 and for each team miscommunication; 2 tokens or round 5)

Words the code uses: a *team* is ``"white"`` or ``"black"``; the *encryptor* writes the clues;
the team's other players *decode*; the other team *intercepts*. A *code* is a list of three
distinct digits 1–4. Tokens are ``interceptions`` and ``miscommunications``.

The game's parts: this module holds the rules of play (phases, moves, rounds); judging words
(decks, normalisation, the clue checks) is :mod:`.decrypto_words`; the end check and the
tie-break are :mod:`.decrypto_scoring`; who may know what, and the views, are
:mod:`.decrypto_view`. The shared action pipeline (schema, game over, seat, stale round, version)
is :class:`~.base.Game`'s.

The state machine (:data:`PHASES` declares it; a move outside its phase is ``"dc_not_now"``)::

    phase      open moves              ends when … → next phase
    encrypt    clues; host:            every encrypting team's clues are in, or the 30-s timer
               pass_encryptor          runs out (tick; missing clues blank) → guess (white first)
    guess      draft, lock             every open guess (the decode; the interception from
                                       round 2) is locked → reveal (tokens given)
    reveal     next (players, host)    "next", or the reveal deadline (tick) → guess of the
                                       next encrypting team, or encrypt of the next round.
                                       After the round's last reveal the end check runs first:
                                       → over (a winner, or the score) | keywords (still tied)
    keywords   kw_guess                both teams have locked their guesses → judge
    judge      accept, judged          both teams are done judging → over
    over       —                       (the game has a result)

The class never reads a clock, never does I/O in the rules and never uses the global ``random``:
the engine hands in ``now`` (game-clock seconds) and a ``random.Random`` kept for the codes. The
keyword decks are read once by :meth:`Decrypto.prepare` (``games/data/decrypto_keywords.*.txt``).
"""

from __future__ import annotations

import itertools
import random
from typing import Any, ClassVar, NamedTuple

from . import decrypto_scoring as scoring
from . import decrypto_view as views
from . import decrypto_words as words
from . import decrypto_coach, schema
from .base import Game, Move, RuleError, deck_lang, msg
from .decrypto_scoring import TEAMS, other
from .decrypto_words import CLUE_MAX, KEYWORD_LANGS, normalize, tidy
from .schema import check_options

__all__ = [
    "CODE_DECK", "MAX_ROUNDS", "MAX_ROUNDS_THREE", "PHASES", "REVEAL_SECONDS", "TEAMS",
    "TIMER_SECONDS", "Decrypto", "balance_teams", "normalize", "other", "tidy",
]

# --- rules as data ---------------------------------------------------------------------------

KEYWORDS_PER_TEAM = 4
CODE_LENGTH = 3

#: The code deck of each team: every ordering of three distinct digits from 1–4 (24 cards;
#: research/rules-and-lexicons.md §3, RULES.md "Decrypto").
CODE_DECK: tuple[tuple[int, int, int], ...] = tuple(itertools.permutations(range(1, 5), CODE_LENGTH))

MAX_ROUNDS = 8  # §end
MAX_ROUNDS_THREE = 5  # §three
TIMER_SECONDS = 30.0  # the sand timer (§clues), when the lobby option ``timer`` is on
REVEAL_SECONDS = 25.0  # a reveal stays on screen this long unless someone taps "next" (ours)
KEYWORD_SECONDS = 180.0  # the tie-break's keyword guesses: then the drafts count as answers (ours)
JUDGE_SECONDS = 120.0  # judging the near matches: then what stands counts (ours)


class Phase(NamedTuple):
    """One phase of the state machine: the moves open in it and what ends it."""

    moves: tuple[str, ...]
    ends: str


PHASES: dict[str, Phase] = {
    "encrypt": Phase(("clues", "pass_encryptor"), "all clues in, or the timer runs out → guess"),
    "guess": Phase(("draft", "lock"), "every open guess locked → reveal"),
    "reveal": Phase(("next",), "next, or the reveal deadline → guess (next team) | encrypt (next "
                               "round); after the round's last reveal, the end check → over | keywords"),
    "keywords": Phase(("kw_guess",), "both teams locked their guesses, or KEYWORD_SECONDS (the drafts "
                                     "count) → judge"),
    "judge": Phase(("accept", "contest", "judged", "rule"), "both teams judged and every contested near "
                   "match ruled by the host, or JUDGE_SECONDS (a contest left open counts) → over"),
    "over": Phase((), "the game has a result"),
}
"""The phases in play order (see the module docstring for the whole table)."""

_ROUND = {"type": "integer", "minimum": 1, "maximum": MAX_ROUNDS}
_TEAM = {"enum": list(TEAMS)}
_DIGIT = {"type": "integer", "minimum": 1, "maximum": 4}
_DRAFT_DIGIT = {"type": "integer", "minimum": 0, "maximum": 4}
_ROW = {"type": "integer", "minimum": 0, "maximum": CODE_LENGTH - 1}
_CLUE = {"type": "string", "maxLength": 200}
_WORD = {"type": "string", "maxLength": 200}
_BOOL = {"type": "boolean"}


_schema = schema.action

def _n_of(item: dict, n: int) -> dict:
    return {"type": "array", "items": item, "minItems": n, "maxItems": n}


def _three_line() -> dict:
    """The 3-player game in one line (§three), from its constants."""
    return msg("decrypto.howto.v.three", tokens=scoring.TOKENS_TO_WIN, rounds=MAX_ROUNDS_THREE)


def balance_teams(players: list[str], assigned: dict) -> dict[str, list[str]]:
    """Split ``players`` into white and black (§setup: "できるだけ同人数の2チーム").

    Seats the host placed (``assigned``: seat → team; unknown seats ignored) stay where they
    are; every other seat, in seating order, joins the smaller team (white on a tie). Returns
    ``{"white": [...], "black": [...]}`` in seating order. Never raises; see
    :meth:`Decrypto.setup` for the size checks.
    """
    teams: dict[str, list[str]] = {t: [] for t in TEAMS}
    for seat in players:
        team = assigned.get(seat) if isinstance(assigned, dict) else None
        if team in TEAMS:
            teams[team].append(seat)
    for seat in players:
        if not (isinstance(assigned, dict) and assigned.get(seat) in TEAMS):
            smaller = min(TEAMS, key=lambda t: (len(teams[t]), TEAMS.index(t)))
            teams[smaller].append(seat)
    order = {s: i for i, s in enumerate(players)}
    return {t: sorted(v, key=order.get) for t, v in teams.items()}


class Decrypto(Game):
    """Decrypto for 3–8 players (seeds/000_…; RULES.md "Decrypto").

    4–8 players play white against black (each team ≥2); 3 players play the 2-vs-1 variant
    (§three): the team of two encrypts, the lone player intercepts. The phases are
    :data:`PHASES` (the module docstring draws the state machine).

    Moves (``MOVES``; ``ACTIONS`` holds each JSON Schema). Those carrying ``round`` are refused
    ``"stale"`` (params ``round``, ``current``) when made for another round, before any rule:

    * ``{"type": "clues", "round", "clues": [3 str], "final": bool}`` — the encryptor saves a
      draft (``final`` false: kept, unchecked, used if the timer runs out) or submits.
    * ``{"type": "draft", "round", "team", "code": [3 × 0–4], "index"?: 0–2}`` — the live,
      team-shared guess for ``team``'s clues (0 = not chosen yet); with ``index`` only that row
      changes (the digit moves away from another row), so teammates' taps do not undo each other.
    * ``{"type": "lock", "round", "team", "code": [3 × 1–4]}`` — any member locks the guess.
    * ``{"type": "next", "round", "team"}`` — leave the reveal of ``team``'s clues.
    * ``{"type": "kw_guess", "words": [4 str], "final": bool, "fields"?: [0–3]}`` — tie-break
      keyword guesses of the other team's keywords, by number (draft shared with the team, or
      final); a draft with ``fields`` changes only those fields.
    * ``{"type": "accept", "number": 1–4, "accept": bool}`` — accept a near match of a guess
      about one of the own team's keywords; ``{"type": "judged"}`` — the team is done judging.

    Host moves (``HOST_MOVES``): ``{"type": "next", "round", "team"}`` (the TV leaves a reveal);
    ``{"type": "pass_encryptor", "round", "team"}`` (an away encryptor's turn goes to the next
    teammate, as Top Ten's away captain).
    """

    KEY: ClassVar[str] = "decrypto"
    MIN_PLAYERS: ClassVar[int] = 3
    MAX_PLAYERS: ClassVar[int] = 8
    OPTIONS: ClassVar[dict] = schema.options(
        teams={
            "type": "object",
            "propertyNames": schema.SEAT_KEY,
            "additionalProperties": _TEAM,
            "maxProperties": 64,
            "default": {},
        },
        timer={"type": "boolean", "default": False},
        lang={"enum": ["auto", *KEYWORD_LANGS], "default": "auto"},
        uneven={"type": "boolean", "default": False},
    )
    DECK_LANG: ClassVar[str | None] = "lang"
    STALE_FIELD: ClassVar[str] = "round"
    MOVES: ClassVar[dict[str, Move]] = {
        "clues": Move(_schema("clues", round=_ROUND, clues=_n_of(_CLUE, CODE_LENGTH), final=_BOOL),
                      "_do_clues", stale=True),
        "draft": Move(_schema("draft", {"index": _ROW}, round=_ROUND, team=_TEAM,
                              code=_n_of(_DRAFT_DIGIT, CODE_LENGTH)), "_do_draft", stale=True),
        "lock": Move(_schema("lock", round=_ROUND, team=_TEAM, code=_n_of(_DIGIT, CODE_LENGTH)),
                     "_do_lock", stale=True),
        "next": Move(_schema("next", round=_ROUND, team=_TEAM), "_do_next", stale=True),
        "kw_guess": Move(_schema("kw_guess", {"fields": {
            "type": "array", "maxItems": KEYWORDS_PER_TEAM, "uniqueItems": True,
            "items": {"type": "integer", "minimum": 0, "maximum": KEYWORDS_PER_TEAM - 1}}},
            words=_n_of(_WORD, KEYWORDS_PER_TEAM), final=_BOOL), "_do_kw_guess"),
        "accept": Move(_schema("accept", number=_DIGIT, accept=_BOOL), "_do_accept"),
        "contest": Move(_schema("contest", number=_DIGIT), "_do_contest"),
        "judged": Move(_schema("judged"), "_do_judged"),
    }
    HOST_MOVES: ClassVar[dict[str, Move]] = {
        "next": Move(_schema("next", round=_ROUND, team=_TEAM), "_host_next", stale=True),
        "rule": Move(_schema("rule", team=_TEAM, number=_DIGIT, accept=_BOOL), "_host_rule"),
        "pass_encryptor": Move(_schema("pass_encryptor", round=_ROUND, team=_TEAM), "_host_pass_encryptor",
                               stale=True),
    }
    STATE_VERSION: ClassVar[int] = 2  # 2: ``away`` and ``timer_paused`` (issue 16)
    FIELDS: ClassVar[tuple[str, ...]] = (
        "players", "teams", "variant", "encrypting", "lang", "timer", "max_rounds", "keywords",
        "round", "phase", "active", "encryptors", "codes", "clues", "clue_drafts", "deadline",
        "guesses", "history", "tokens", "reveal_deadline", "kw", "judge", "result", "event",
        "version", "lineup", "away", "timer_paused",
    )  # fmt: skip

    def __init__(self) -> None:
        """An empty game; call :meth:`setup` (or use :meth:`from_dict`) before anything else."""
        super().__init__()
        self._rng: random.Random | None = None
        self.teams: dict[str, list[str]] = {t: [] for t in TEAMS}
        self.variant = "teams"  # or "three"
        self.encrypting: list[str] = []  # teams that encrypt, in reading order
        # each team's seats in the order they take turns encrypting, kept whole when a seat
        # leaves (so the turn passes on from where the gone seat sat)
        self.lineup: dict[str, list[str]] = {t: [] for t in TEAMS}
        self.lang = "ja"
        self.timer = False
        self.max_rounds = MAX_ROUNDS
        self.keywords: dict[str, list[str]] = {t: [] for t in TEAMS}
        self.round = 0
        self.phase = "encrypt"
        self.active: str | None = None  # the team whose clues are up (guess / reveal)
        self.encryptors: dict[str, str] = {}
        self.codes: dict[str, list[int]] = {}
        self.clues: dict[str, list[str] | None] = {}
        self.clue_drafts: dict[str, list[str]] = {}
        self.deadline: float | None = None
        # players whose phone is away (Game.presence), sorted; the clue timer waits for them
        self.away: list[str] = []
        # the clue timer stopped for an away encryptor: {"left": s, "for": [seats]} (deadline None)
        self.timer_paused: dict | None = None
        # the open guesses on the active team's clues: group -> {"team", "code", "locked", "by"}
        self.guesses: dict[str, dict] = {}
        self.history: list[dict] = []  # every reveal, in order
        self.tokens: dict[str, dict[str, int]] = scoring.no_tokens()
        self.reveal_deadline: float | None = None
        # tie-break: team -> {"draft": [4], "words": [4] | None, "by"} (its guesses of the other's words)
        self.kw: dict[str, dict] = {}
        # tie-break: team -> {"exact": [4 bool], "accepted": [4 bool], "done": bool} (judging
        # the guesses about its own words)
        self.judge: dict[str, dict] = {}
        self.result: dict | None = None

    @property
    def event(self) -> dict | None:
        """The latest event, ``{"n", "kind", …}`` (the base's ``last_event``), under the name
        the views, the browser and the snapshots give it."""
        return self.last_event

    @event.setter
    def event(self, value: dict | None) -> None:
        self.last_event = value
        self.event_n = value["n"] if value else 0

    # --- keyword decks ------------------------------------------------------------------------

    @classmethod
    def prepare(cls) -> None:
        """Read both keyword decks once at server start (a missing file is left for setup to
        report as ``"dc_no_keywords"``)."""
        for lang in KEYWORD_LANGS:
            words.readings(lang)
            words.forms(lang)  # the clue check's other forms of each keyword (issue 14)
            try:
                words.deck(lang)
            except (FileNotFoundError, OSError):
                pass

    deck = staticmethod(words.deck)
    readings = staticmethod(words.readings)

    # --- set-up ------------------------------------------------------------------------------

    def setup(self, players: list[str], options: dict, rng: random.Random, now: float) -> None:
        """Form the teams, draw the keywords and start round 1 (§setup, §three).

        Args:
            players: 3–8 distinct seat ids in seating order.
            options: ``{"teams": {seat: "white"|"black"}, "timer": bool, "lang": "auto"|"ja"|"en",
                "uneven": bool}``
                (all optional); unplaced seats are balanced by :func:`balance_teams`.
            rng: kept for the keyword draw and every round's codes.
            now: game-clock seconds (unused at set-up).

        Raises:
            RuleError: ``"player_count"`` (``count``, ``min``, ``max``); ``"duplicate_seat"``;
            ``"bad_options"`` (``detail``); ``"dc_team_size"`` (``white``, ``black``) when a team
            of 4–8 players has fewer than 2, or 3 players are not split 2 and 1;
            ``"dc_teams_uneven"`` (``white``, ``black``) when the teams differ by more than one
            and the host has not allowed it (option ``uneven``: 6 v 2 only on purpose);
            ``"dc_no_keywords"`` (``lang``) when the deck file is missing or too small.
        """
        players = list(players)
        if not self.MIN_PLAYERS <= len(players) <= self.MAX_PLAYERS:
            raise RuleError("player_count", count=len(players), min=self.MIN_PLAYERS, max=self.MAX_PLAYERS)
        if len(set(players)) != len(players):
            raise RuleError("duplicate_seat")
        options = check_options(type(self), dict(options or {}))
        teams = balance_teams(players, options["teams"])
        sizes = {t: len(teams[t]) for t in TEAMS}
        if len(players) == 3:
            if sorted(sizes.values()) != [1, 2]:
                raise RuleError("dc_team_size", **sizes)
        elif min(sizes.values()) < 2:
            raise RuleError("dc_team_size", **sizes)
        elif abs(sizes["white"] - sizes["black"]) > 1 and not options.get("uneven"):
            # §setup: できるだけ同人数の2チーム — the host may override (RULES.md), but only on purpose
            raise RuleError("dc_teams_uneven", **sizes)
        lang = deck_lang(options["lang"])  # "auto": the party gives the table's language
        try:
            deck = words.deck(lang)
        except (FileNotFoundError, OSError):
            raise RuleError("dc_no_keywords", lang=lang) from None
        if len(deck) < 2 * KEYWORDS_PER_TEAM:
            raise RuleError("dc_no_keywords", lang=lang)
        self.__init__()
        self._rng = rng
        self.players = players
        self.teams = teams
        self.lineup = {t: list(teams[t]) for t in TEAMS}
        self.lang = lang
        self.timer = options["timer"]
        if len(players) == 3:
            self.variant = "three"
            self.encrypting = [t for t in TEAMS if len(teams[t]) == 2]
            self.max_rounds = MAX_ROUNDS_THREE
        else:
            self.variant = "teams"
            self.encrypting = list(TEAMS)
            self.max_rounds = MAX_ROUNDS
        drawn = rng.sample(deck, 2 * KEYWORDS_PER_TEAM)  # distinct words: distinct across teams
        for i, team in enumerate(self.encrypting):
            self.keywords[team] = drawn[i * KEYWORDS_PER_TEAM : (i + 1) * KEYWORDS_PER_TEAM]
        self._start_round(1)
        self.version = 1

    # --- the clock and the table -------------------------------------------------------------------


    def next_deadline(self) -> float | None:
        """When the clue timer runs out (phase encrypt) or a reveal moves on, or None."""
        if self.phase in ("encrypt", "keywords", "judge"):
            return self.deadline
        if self.phase == "reveal":
            return self.reveal_deadline
        return None

    def tick(self, now: float) -> None:
        """Fire the clue timer (missing clues go blank, §clues) or leave a reveal."""
        if self.phase == "encrypt" and self.deadline is not None and now >= self.deadline:
            blanked = []
            for team in self.encrypting:
                if self.clues.get(team) is None:
                    self.clues[team] = words.timed_out_clues(
                        self.clue_drafts.get(team, ["", "", ""]), self.keywords[team], self.used_clues(team),
                        self.lang)
                    blanked.append(team)
            self.deadline = None
            self._event("timer_out", teams=blanked)
            self._after_clues(now)
            if self.last_event and self.last_event["kind"] == "clues_up":
                # the clues go up at once: the event the phones see says why some are blank
                self.last_event["timed_out"] = list(blanked)
            self.version += 1
        elif self.phase == "reveal" and self.reveal_deadline is not None and now >= self.reveal_deadline:
            self._advance(now)
            self.version += 1
        elif self.phase == "keywords" and self.deadline is not None and now >= self.deadline:
            for team in TEAMS:  # time is up: what each team typed is its answer
                if self.kw[team]["words"] is None:
                    self.kw[team]["words"] = list(self.kw[team]["draft"])
            self._event("kw_time_up")
            self._open_judging(now)
            self.version += 1
        elif self.phase == "judge" and self.deadline is not None and now >= self.deadline:
            self._finish_judging(time_up=True)
            self.version += 1

    @classmethod
    def migrate(cls, data: dict, version: int) -> dict:
        """Version 1 snapshots knew nobody away and never paused the clue timer."""
        if version < 2:
            data.setdefault("away", [])
            data.setdefault("timer_paused", None)
        return data

    def can_continue_without(self, seat: str) -> bool:
        """Every team keeps its shape without ``seat`` (≥2 in a team game; never in the
        3-player game, whose team of two and interceptor are all needed)."""
        return self.variant != "three" and len(self.teams[self.team_of(seat)]) > 2

    def _do_leave(self, seat: str, now: float) -> None:
        """A kicked player leaves. The game goes on while every team keeps its shape (≥2 in a
        team game; the team of two and the interceptor in the 3-player game: so never there).
        An encryptor who leaves before the clues are in hands the turn, and the same code, to
        the next teammate in turn (drafts dropped; with the timer running, a fresh 30 s); later
        turns go on from the gone seat's place.

        Raises:
            RuleError: ``"game_over"``, ``"not_a_player"``, ``"cannot_continue"``.
        """
        team = self.team_of(seat)
        handed_to = None
        self.players.remove(seat)
        self.teams[team].remove(seat)
        if self.phase == "encrypt" and self.encryptors.get(team) == seat and self.clues.get(team) is None:
            # the encryptor leaves before the clues are in: the next teammate in turn takes the
            # same code (only the gone seat saw it) and writes from scratch
            handed_to = self._next_in_turn(team, seat)
            self.encryptors[team] = handed_to
            self.clue_drafts[team] = ["", "", ""]
            self._fresh_time(now)
        if seat in self.away:
            self.away.remove(seat)
        self._sync_timer(now)
        for g in self.guesses.values():
            if g.get("by") == seat:
                g["by"] = None
        self._event("left", seat=seat, handed_to=handed_to)

    # --- who is who ----------------------------------------------------------------------------

    def team_of(self, seat: str | None) -> str | None:
        """The team of ``seat``, or None (not a player)."""
        for team in TEAMS:
            if seat in self.teams[team]:
                return team
        return None

    def group_of(self, seat: str | None) -> str | None:
        """Which open guess ``seat`` helps with now: ``"decode"``, ``"intercept"`` or None (not
        the guess phase, the active team's encryptor, round 1's other team, not a player)."""
        if self.phase != "guess" or self.active is None:
            return None
        team = self.team_of(seat)
        if team is None:
            return None
        if team == self.active:
            return None if self.encryptors.get(team) == seat else "decode"
        return "intercept" if "intercept" in self.guesses else None

    def _next_in_turn(self, team: str, after: str) -> str:
        """The team member whose turn follows ``after`` in the team's lineup (§setup: encryptors
        take turns within the team), skipping seats that have left. ``after`` may have left."""
        lineup = self.lineup.get(team) or self.teams[team]
        if after not in lineup:
            return self.teams[team][0]
        i = lineup.index(after)
        for k in range(1, len(lineup) + 1):
            seat = lineup[(i + k) % len(lineup)]
            if seat in self.teams[team]:
                return seat
        return self.teams[team][0]

    def _encryptor_for(self, team: str, round_no: int) -> str:
        """Round 1: the team's first seat; later: the one after last round's encryptor."""
        prev = self.encryptors.get(team)
        if round_no == 1 or prev is None:
            return self.teams[team][0]
        return self._next_in_turn(team, prev)

    # --- rounds --------------------------------------------------------------------------------

    def _open(self, action: dict) -> None:
        """Refuse ``"dc_not_now"`` a move that :data:`PHASES` does not open in this phase."""
        if action["type"] not in PHASES[self.phase].moves:
            raise RuleError("dc_not_now")

    def _start_round(self, round_no: int) -> None:
        """Each encrypting team's next encryptor draws a code from the reshuffled deck (§next)."""
        self.round = round_no
        self.phase = "encrypt"
        self.active = None
        self.guesses = {}
        self.deadline = None
        self.timer_paused = None
        self.reveal_deadline = None
        self.encryptors = {t: self._encryptor_for(t, round_no) for t in self.encrypting}
        self.codes = {}
        for team in self.encrypting:
            deck = list(CODE_DECK)
            self._rng.shuffle(deck)
            self.codes[team] = list(deck[0])
        self.clues = {t: None for t in self.encrypting}
        self.clue_drafts = {t: ["", "", ""] for t in self.encrypting}
        self._event("round", round=round_no)

    def used_clues(self, team: str) -> set[str]:
        """Normalised clues ``team`` has given in earlier reveals (§clues: no repeats)."""
        return words.used_clues(self.history, team)

    def check_clue(self, team: str, clue: str) -> str:
        """Tidy one clue and check it against ``team``'s keywords and earlier clues (§clues).
        Returns the tidy clue; raises the refusals of :func:`.decrypto_words.check_clue`."""
        return words.check_clue(clue, self.keywords[team], self.used_clues(team), self.lang)

    def _do_clues(self, seat: str, action: dict, now: float) -> None:
        """The encryptor saves or submits the round's 3 clues (§clues).

        Raises ``"dc_not_now"`` (not phase encrypt), ``"dc_not_encryptor"``, ``"dc_clues_done"``
        (already submitted), and for a final submit the refusals of
        :func:`.decrypto_words.check_clues` (``"dc_clue_*"``). A draft (``final`` false) is only
        trimmed to ``CLUE_MAX``.
        """
        self._open(action)
        team = self.team_of(seat)
        if team not in self.encryptors or self.encryptors[team] != seat:
            raise RuleError("dc_not_encryptor")
        if self.clues.get(team) is not None:
            raise RuleError("dc_clues_done")
        if not action["final"]:
            self.clue_drafts[team] = [tidy(c)[:CLUE_MAX] for c in action["clues"]]
            return
        checked = words.check_clues(action["clues"], self.keywords[team], self.used_clues(team), self.lang)
        self.clues[team] = checked
        self.clue_drafts[team] = list(checked)
        self._event("clues_in", team=team)
        waiting = [t for t in self.encrypting if self.clues.get(t) is None]
        if waiting and self.timer and self.deadline is None and self.timer_paused is None:
            self.deadline = now + TIMER_SECONDS  # the sand timer is turned over (§clues)
        self._after_clues(now)
        self._sync_timer(now)  # the one it now presses may be away already

    def _after_clues(self, now: float) -> None:
        if all(self.clues.get(t) is not None for t in self.encrypting):
            self.deadline = None
            self.timer_paused = None
            self._open_guess(self.encrypting[0])

    def _open_guess(self, team: str) -> None:
        """``team``'s clues go public; its decoders and (from round 2) the other team guess."""
        self.phase = "guess"
        self.active = team
        self.reveal_deadline = None
        self.guesses = {"decode": {"team": team, "code": [0, 0, 0], "locked": False, "by": None}}
        if self.round >= 2:  # no interception in round 1 (§guess, §three)
            self.guesses["intercept"] = {"team": other(team), "code": [0, 0, 0], "locked": False, "by": None}
        self._event("clues_up", team=team)

    def _group_for_action(self, seat: str, action: dict) -> dict:
        self._open(action)
        if action["team"] != self.active:
            raise RuleError("dc_stale_team")
        group = self.group_of(seat)
        if group is None:
            if self.encryptors.get(self.active) == seat:
                raise RuleError("dc_encryptor_waits")
            raise RuleError("dc_no_interception_yet" if self.round < 2 else "dc_not_guesser")
        guess = self.guesses[group]
        if guess["locked"]:
            raise RuleError("dc_guess_locked")
        return guess

    def _do_draft(self, seat: str, action: dict, now: float) -> None:
        """Change the team's shared draft guess (0 = open). Raises ``"dc_not_now"``,
        ``"dc_stale_team"`` (those clues are done), ``"dc_encryptor_waits"``,
        ``"dc_no_interception_yet"`` (round 1), ``"dc_not_guesser"``, ``"dc_guess_locked"``."""
        guess = self._group_for_action(seat, action)
        if "index" in action:
            # one tapped row: only it changes (a teammate's tap in flight stays), and the digit
            # moves away from any other row (a code has each digit once)
            i = action["index"]
            digit = action["code"][i]
            code = [0 if (digit and d == digit) else d for d in guess["code"]]
            code[i] = digit
            guess["code"] = code
        else:
            guess["code"] = list(action["code"])
        guess["by"] = seat

    def _do_lock(self, seat: str, action: dict, now: float) -> None:
        """Lock the team's guess (any member, §guess). The refusals of :meth:`_do_draft` and
        ``"dc_guess_repeats"`` (a digit twice: no code has one). When every open guess is
        locked, the reveal follows."""
        guess = self._group_for_action(seat, action)
        code = list(action["code"])
        if len(set(code)) != len(code):
            raise RuleError("dc_guess_repeats")
        guess.update(code=code, locked=True, by=seat)
        self._event("locked", team=guess["team"])
        if all(g["locked"] for g in self.guesses.values()):
            self._reveal(now)

    def _reveal(self, now: float) -> None:
        """Interception, decode, code, tokens (§guess; §three for the lone interceptor)."""
        team = self.active
        code = self.codes[team]
        intercept = self.guesses.get("intercept")
        decode = self.guesses["decode"]
        intercepted = None if intercept is None else intercept["code"] == code
        miscommunicated = decode["code"] != code
        if intercepted:
            self.tokens[other(team)]["interceptions"] += 1
        if miscommunicated:
            if self.variant == "three":
                # §three: 失敗チップの代わりに盗聴者へ成功チップ — the interceptor's token *instead of*
                # the team's miscommunication mark (never both: the TV counted the failure twice)
                self.tokens[other(team)]["interceptions"] += 1
            else:
                self.tokens[team]["miscommunications"] += 1
        record = {
            "round": self.round,
            "team": team,
            "encryptor": self.encryptors[team],
            "clues": list(self.clues[team]),
            "code": list(code),
            "decode": list(decode["code"]),
            "intercept": None if intercept is None else list(intercept["code"]),
            "intercepted": intercepted,
            "miscommunicated": miscommunicated,
        }
        self.history.append(record)
        self.phase = "reveal"
        self.reveal_deadline = now + REVEAL_SECONDS
        self._event("reveal", team=team, round=self.round)
        if team == self.encrypting[-1]:
            self._end_check()

    def _do_next(self, seat: str | None, action: dict, now: float) -> None:
        """Leave the reveal of ``team``'s clues (any player, or the host through
        :meth:`_host_next`). Raises ``"dc_not_now"`` (no reveal on), ``"dc_stale_team"``."""
        self._open(action)
        if action["team"] != self.active:
            raise RuleError("dc_stale_team")
        self._advance(now)

    def _host_pass_encryptor(self, action: dict, now: float) -> None:
        """The encryptor's phone is away: the host hands the turn to the next teammate in turn
        (as Top Ten's away captain). The team draws a new code, since the away player saw the old
        one and now decodes with the team; drafts are dropped; with the timer running the new
        encryptor gets a fresh 30 s (RULES.md "Decrypto"; not in the rulebook).

        Raises ``"dc_not_now"`` (not while writing clues), ``"dc_clues_done"`` (the team's clues
        are in), ``"dc_no_teammate"`` (nobody to hand it to: the team has no other member).
        """
        if self.phase != "encrypt":
            raise RuleError("dc_not_now")
        team = action["team"]
        if team not in self.encryptors:
            raise RuleError("dc_not_now")
        if self.clues.get(team) is not None:
            raise RuleError("dc_clues_done")
        old = self.encryptors[team]
        new = self._next_in_turn(team, old)
        if new == old:
            raise RuleError("dc_no_teammate")
        self.encryptors[team] = new
        deck = [list(c) for c in CODE_DECK if list(c) != self.codes[team]]
        self.codes[team] = list(self._rng.choice(deck))
        self.clue_drafts[team] = ["", "", ""]
        self._fresh_time(now)
        self._sync_timer(now)
        self._event("encryptor_passed", team=team, seat=old, to=new)

    def _fresh_time(self, now: float) -> None:
        """A new encryptor while the sand timer runs: turn it over again (30 s from now)."""
        if self.deadline is not None:
            self.deadline = max(self.deadline, now + TIMER_SECONDS)
        if self.timer_paused is not None:
            self.timer_paused["left"] = max(self.timer_paused["left"], TIMER_SECONDS)

    # --- an away encryptor and the clue timer (issue 16) -----------------------------------------

    def timer_waits_on(self) -> list[str]:
        """The seats the clue timer presses: the encryptors whose clues are not in yet (phase
        encrypt), in reading order."""
        if self.phase != "encrypt":
            return []
        return [self.encryptors[t] for t in self.encrypting if t in self.encryptors and self.clues.get(t) is None]

    def _presence(self, seat: str, present: bool, now: float) -> bool:
        """A player's phone went away or came back (:meth:`Game.presence`). The clue timer
        stops, keeping the seconds it had left, while a seat it presses is away, and runs on
        from there once none is (ours for phones, issue 16: an absent encryptor's clues are
        never blanked by a timer they could not see). The host's ``pass_encryptor`` remains."""
        if seat not in self.players or (seat in self.away) == (not present):
            return False
        if present:
            self.away.remove(seat)
        else:
            self.away = sorted([*self.away, seat])
        self._sync_timer(now)
        return True

    def _sync_timer(self, now: float) -> bool:
        """Stop the running clue timer while a seat it presses is away (``timer_paused`` keeps
        the seconds left and whom it waits for; ``deadline`` is None meanwhile), or run it on
        with those seconds once nobody it presses is away. Returns whether anything changed."""
        away = [s for s in self.timer_waits_on() if s in self.away]
        paused = self.timer_paused
        if paused is None:
            if self.phase != "encrypt" or self.deadline is None or not away:
                return False
            self.timer_paused = {"left": max(0.0, self.deadline - now), "for": away}
            self.deadline = None
            return True
        if away:
            if away == paused["for"]:
                return False
            paused["for"] = away
            return True
        self.timer_paused = None
        if self.phase == "encrypt" and self.timer_waits_on():
            self.deadline = now + paused["left"]
        return True

    def _host_next(self, action: dict, now: float) -> None:
        """The host (TV) leaves a reveal: as :meth:`_do_next`."""
        self._do_next(None, action, now)

    def _advance(self, now: float) -> None:
        if self.result and self.result.get("tie_next"):
            self._open_keywords(self.result["why"], now)
            return
        i = self.encrypting.index(self.active)
        if i + 1 < len(self.encrypting):
            self._open_guess(self.encrypting[i + 1])
        else:
            self._start_round(self.round + 1)

    # --- the end ------------------------------------------------------------------------------

    def score(self, team: str) -> int:
        """Interceptions − miscommunications (§end, first tie-break)."""
        return scoring.score(self.tokens, team)

    def _end_check(self) -> None:
        """After the round's last reveal (§end; §three): a result, the keyword guesses of the
        tie-break, or play on (see :func:`.decrypto_scoring.end_check`)."""
        ending = scoring.end_check(self.variant, self.encrypting, self.tokens, self.round, self.max_rounds)
        if ending is None:
            return
        if ending.reason == scoring.TIED:
            # the round's last reveal (interception, decode, code) is shown first, as any other;
            # "next" (or the reveal's time) then opens the keyword guesses (issue 13 point 7)
            self.result = {"why": ending.why, "tie_next": True}
        elif ending.why is None:
            self._finish(ending.winner, ending.reason)
        else:
            self._finish(ending.winner, ending.reason, why=ending.why)

    def _open_keywords(self, why: str, now: float) -> None:
        """Scores tied: each team guesses the other's 4 keywords (§end), within KEYWORD_SECONDS."""
        self.phase = "keywords"
        self.reveal_deadline = None
        self.deadline = now + KEYWORD_SECONDS
        self.kw = {t: {"draft": ["", "", "", ""], "words": None, "by": None} for t in TEAMS}
        self.judge = {}
        self.result = {"why": why}
        self._event("tie_break", why=why)

    def _do_kw_guess(self, seat: str, action: dict, now: float) -> None:
        """Save (shared with the team) or lock the team's guesses of the other team's 4
        keywords, by number (§end). Raises ``"dc_not_now"``, ``"dc_guess_locked"``."""
        self._open(action)
        team = self.team_of(seat)
        entry = self.kw[team]
        if entry["words"] is not None:
            raise RuleError("dc_guess_locked")
        typed = [tidy(w)[:CLUE_MAX] for w in action["words"]]
        if "fields" in action and not action["final"]:
            # only the fields this phone changed: a teammate typing another field meanwhile
            # keeps their word
            draft = list(entry["draft"])
            for i in action["fields"]:
                draft[i] = typed[i]
            typed = draft
        entry["draft"] = typed
        entry["by"] = seat
        if action["final"]:
            entry["words"] = list(typed)
            self._event("kw_locked", team=team)
            if all(self.kw[t]["words"] is not None for t in TEAMS):
                self._open_judging(now)

    def _open_judging(self, now: float) -> None:
        """Both teams answered: a keyword counts when the other team named it in any slot
        (normalised equality, RULES.md "Decrypto"); near matches (the guess in a keyword's own
        slot) are for the table: the owning team may accept one, the guessing team may contest
        one the owners did not accept, and the host rules a contest. JUDGE_SECONDS at most."""
        self.phase = "judge"
        self.deadline = now + JUDGE_SECONDS
        self.judge = {}
        for t in TEAMS:
            exact = words.named_keywords(self.kw[other(t)]["words"], self.keywords[t], self.lang)
            self.judge[t] = {"exact": exact, "accepted": list(exact), "done": False,
                             "contested": [False] * KEYWORDS_PER_TEAM, "ruled": [None] * KEYWORDS_PER_TEAM}
        self._event("judge")

    def _judge_entry(self, team: str) -> dict:
        """``judge[team]``, with the contest fields a snapshot from before them lacks."""
        entry = self.judge[team]
        entry.setdefault("contested", [False] * KEYWORDS_PER_TEAM)
        entry.setdefault("ruled", [None] * KEYWORDS_PER_TEAM)
        return entry

    def _near_match(self, team: str, i: int) -> None:
        """Refuse judging keyword ``i`` of ``team`` as a near match: ``"dc_exact_match"`` (named
        exactly: it counts), ``"dc_no_guess"`` (the guess in its slot is blank), ``"dc_guess_used"``
        (that guess names another keyword exactly: one guess counts once)."""
        entry = self._judge_entry(team)
        if entry["exact"][i]:
            raise RuleError("dc_exact_match")
        guess = self.kw[other(team)]["words"][i]
        if not normalize(guess):
            raise RuleError("dc_no_guess")
        if words.named_keywords([guess], self.keywords[team], self.lang) != [False] * KEYWORDS_PER_TEAM:
            raise RuleError("dc_guess_used")

    def _do_accept(self, seat: str, action: dict, now: float) -> None:
        """The team owning a keyword accepts (or takes back) a near match of the guess in its slot
        (§end; RULES.md: the table judges, the owners alone never refuse: see :meth:`_do_contest`).
        Raises ``"dc_not_now"``, ``"dc_judged"`` (the team already confirmed), the refusals of
        :meth:`_near_match`, ``"dc_ruled"`` (the host has ruled on it)."""
        self._open(action)
        team = self.team_of(seat)
        entry = self._judge_entry(team)
        if entry["done"]:
            raise RuleError("dc_judged")
        i = action["number"] - 1
        self._near_match(team, i)
        if entry["ruled"][i] is not None:
            raise RuleError("dc_ruled")
        entry["accepted"][i] = bool(action["accept"])
        if entry["accepted"][i]:
            entry["contested"][i] = False

    def _do_contest(self, seat: str, action: dict, now: float) -> None:
        """The guessing team contests a near match the owners did not accept: the host rules on it
        (RULES.md "Decrypto": never the owning team alone). Raises ``"dc_not_now"``, the refusals
        of :meth:`_near_match`, ``"dc_accepted"`` (it counts already), ``"dc_ruled"``."""
        self._open(action)
        owners = other(self.team_of(seat))
        entry = self._judge_entry(owners)
        i = action["number"] - 1
        self._near_match(owners, i)
        if entry["accepted"][i]:
            raise RuleError("dc_accepted")
        if entry["ruled"][i] is not None:
            raise RuleError("dc_ruled")
        entry["contested"][i] = True
        self._event("contested", team=owners, number=i + 1)

    def _host_rule(self, action: dict, now: float) -> None:
        """The host rules on a near match of keyword ``number`` of ``team`` (accept or not); final.
        Raises ``"dc_not_now"``, the refusals of :meth:`_near_match`; the host's phone may not rule
        on its own team's keyword (``"overrule_own_word"``)."""
        self._open(action)
        team = action["team"]
        if self.host_by is not None and self.team_of(self.host_by) == team:
            raise RuleError("overrule_own_word")
        entry = self._judge_entry(team)
        i = action["number"] - 1
        self._near_match(team, i)
        entry["ruled"][i] = bool(action["accept"])
        entry["accepted"][i] = bool(action["accept"])
        entry["contested"][i] = False
        self._event("ruled", team=team, number=i + 1, accept=bool(action["accept"]))
        self._finish_judging()

    def _do_judged(self, seat: str, action: dict, now: float) -> None:
        """The team is done judging; when both are and no contest waits for the host, most
        correct guesses wins, else the victory is shared (§end). Raises ``"dc_not_now"``,
        ``"dc_judged"``."""
        self._open(action)
        entry = self._judge_entry(self.team_of(seat))
        if entry["done"]:
            raise RuleError("dc_judged")
        entry["done"] = True
        self._finish_judging()

    def _finish_judging(self, time_up: bool = False) -> None:
        """End the tie-break when both teams are done and no contest is open, or at the time
        limit: then a contest the host left open counts as guessed (the owners cannot win by
        refusing, RULES.md)."""
        entries = {t: self._judge_entry(t) for t in TEAMS}
        open_contest = any(any(e["contested"]) for e in entries.values())
        if not time_up and (open_contest or not all(e["done"] for e in entries.values())):
            return
        for e in entries.values():
            for i, contested in enumerate(e["contested"]):
                if contested:
                    e["accepted"][i] = True
                    e["contested"][i] = False
        # team t's correct guesses are the ones about the other team's words that count
        correct = {t: sum(entries[other(t)]["accepted"]) for t in TEAMS}
        winner, reason = scoring.keyword_result(correct)
        self._finish(winner, reason, why=(self.result or {}).get("why", "rounds"), correct=correct)

    def _finish(self, winner: str | None, reason: str, **extra: Any) -> None:
        self.phase = "over"
        self.deadline = None
        self.reveal_deadline = None
        self.result = {
            "winner": winner,
            "reason": reason,
            "scores": {t: self.score(t) for t in TEAMS},
            **extra,
        }
        self._event("over", winner=winner, reason=reason)

    # --- the night's record ----------------------------------------------------------------

    def outcome(self) -> dict:
        """Team against team: the winning team's seats, then the other team's; a draw (no
        winner) is one shared place. ``detail`` has the winner, its ``label`` (the team's name),
        the reason, the scores and each seat's team."""
        result = self.result or {}
        winner = result.get("winner")
        team_of = {s: t for t, seats in self.teams.items() for s in seats}
        if winner in self.teams:
            places = [[s for s in self.players if team_of.get(s) == winner],
                      [s for s in self.players if team_of.get(s) != winner]]
        else:
            places = [list(self.players)]
        return {"coop": False, "won": None, "places": [p for p in places if p],
                "detail": {"winner": winner, "reason": result.get("reason"),
                           "label": msg(f"decrypto.team.{winner}") if winner in self.teams else None,
                           "scores": dict(result.get("scores") or {}), "teams": team_of}}

    def highlights(self) -> list[dict]:
        """The decisive interception: the winning team's last interception, with the clues
        it read and the code (both shown at that reveal)."""
        winner = (self.result or {}).get("winner")
        for record in reversed(self.history):
            if record.get("intercepted") and other(record["team"]) == winner:
                return [msg("decrypto.hl.intercept", team={"key": f"decrypto.team.{winner}"}, round=record["round"],
                            clues=" / ".join(c or "—" for c in record["clues"]),
                            code="-".join(str(n) for n in record["code"]))]
        return []

    # --- views ---------------------------------------------------------------------------------

    def sheet(self) -> dict[str, list[dict]]:
        """The public clue sheet (§guess): see :func:`.decrypto_view.sheet`."""
        return views.sheet(self.history)

    # --- how to play: the rules in use ------------------------------------------------------------

    @classmethod
    def howto_facts(cls, options: dict, players: list[str]) -> list[dict]:
        """The rules in use for ``players`` with ``options`` (see :meth:`Game.howto_facts`): the
        2-against-1 variant for 3, else the teams as :func:`balance_teams` will form them; the
        timer; the keyword language."""
        teams = balance_teams(players, options.get("teams") or {})
        return cls._facts(len(players), teams, bool(options.get("timer")), deck_lang(options.get("lang")))

    def howto_facts_now(self, options: dict) -> list[dict]:
        """The rules in use of this game: its teams as they are now (a kick may have changed them)."""
        count = 3 if self.variant == "three" else len(self.players)
        return self._facts(count, self.teams, bool(self.timer), self.lang)

    @classmethod
    def howto_count_facts(cls, count: int, options: dict) -> list[dict]:
        """3 players: the 2-against-1 game (§three: :data:`MAX_ROUNDS_THREE` rounds, the lone
        interceptor's :data:`~.decrypto_scoring.TOKENS_TO_WIN` tokens); 4–8: two teams
        (§end: :data:`MAX_ROUNDS` rounds at most). See :meth:`Game.howto_count_facts`."""
        if count == 3:
            return [_three_line()]
        return [msg("decrypto.howto.c.teams", rounds=MAX_ROUNDS, win=scoring.TOKENS_TO_WIN,
                    lose=scoring.TOKENS_TO_LOSE)]

    @staticmethod
    def _facts(count: int, teams: dict, timer: bool, lang: str) -> list[dict]:
        out = []
        if count == 3:
            out.append(_three_line())
        else:
            if count >= 4:
                out.append(msg("decrypto.howto.v.teams", count=count,
                               white=len(teams["white"]), black=len(teams["black"])))
            out.append(msg("decrypto.howto.v.rule"))
        out.append(msg("decrypto.howto.v.timer_on" if timer else "decrypto.howto.v.timer_off"))
        out.append(msg("decrypto.howto.v.lang", lang={"key": f"decrypto.lang.{lang}"}))
        return out

    def guide(self, seat: str | None) -> dict:
        """What ``seat`` can do now (see :mod:`partyhost.games.decrypto_coach`)."""
        return decrypto_coach.guide(self, seat)

    def coach_strip(self) -> dict | None:
        """The first-rounds coach (see :mod:`partyhost.games.decrypto_coach`)."""
        return decrypto_coach.strip(self)

    def coach_tip(self, seat: str) -> dict | None:
        """The first-rounds coach (see :mod:`partyhost.games.decrypto_coach`)."""
        return decrypto_coach.tip(self, seat)

    def view(self, seat: str | None) -> dict:
        """What ``seat`` may know, JSON-ready; ``None`` is the table (TV and spectators). The
        shape and the privacy rules: :func:`.decrypto_view.view`."""
        return views.view(self, seat)

    # --- for the conformance suite and bots ----------------------------------------------------

    def suggest(self, seat: str | None, rng: random.Random) -> list[dict]:
        """A few moves ``seat`` could make now, from what it may know (``None``: the host's).

        A bot table that plays on purpose, so games run a varied length (some to the last
        round): the encryptor mostly gives clues its team can read (each names the keyword of
        its digit, made new with the round number, e.g. ``"サメ 3"``), sometimes plain deck words
        or a draft; decoders mostly lock the code those clues spell, sometimes a random one (a
        miscommunication); interceptors, who cannot read them, lock a random code; anyone moves
        a reveal on; in the tie-break each team answers with deck words and judges near matches
        at random.
        """
        if self.over:
            return []
        r = self.round
        if seat is None:
            if self.phase == "encrypt" and rng.random() < 0.05:
                waiting = [t for t in self.encrypting if self.clues.get(t) is None]
                if waiting:
                    return [{"type": "pass_encryptor", "round": r, "team": rng.choice(waiting)}]
            return [{"type": "next", "round": r, "team": self.active}] if self.phase == "reveal" else []
        team = self.team_of(seat)
        if team is None:
            return []
        if self.phase == "encrypt":
            if self.encryptors.get(team) != seat or self.clues.get(team) is not None:
                return []
            hints = [f"{self.keywords[team][d - 1]} {r}" for d in self.codes[team]]
            plain_words = rng.sample(words.deck(self.lang), CODE_LENGTH)
            return [{"type": "clues", "round": r, "clues": hints, "final": True}] * 8 + [
                {"type": "clues", "round": r, "clues": plain_words, "final": True},
                {"type": "clues", "round": r, "clues": [hints[0], "", ""], "final": False}]
        if self.phase == "guess":
            group = self.group_of(seat)
            if group is None or self.guesses[group]["locked"]:
                return []
            row = rng.randrange(CODE_LENGTH)
            tap = [0] * CODE_LENGTH
            tap[row] = rng.randint(1, 4)
            out = [{"type": "draft", "round": r, "team": self.active, "code": tap, "index": row},
                   {"type": "lock", "round": r, "team": self.active, "code": list(rng.choice(CODE_DECK))}]
            read = self._read_hints(team, self.clues[self.active]) if group == "decode" else None
            if read:
                out += [{"type": "lock", "round": r, "team": self.active, "code": read}] * 8
            return out
        if self.phase == "reveal":
            return [{"type": "next", "round": r, "team": self.active}]
        if self.phase == "keywords":
            if self.kw[team]["words"] is not None:
                return []
            answer = [w if rng.random() < 0.8 else ""
                      for w in rng.sample(words.deck(self.lang), KEYWORDS_PER_TEAM)]
            field = rng.randrange(KEYWORDS_PER_TEAM)
            return [{"type": "kw_guess", "words": answer, "final": False, "fields": [field]},
                    {"type": "kw_guess", "words": answer, "final": True}]
        if self.phase == "judge" and not self.judge[team]["done"]:
            answers = self.kw[other(team)]["words"]
            open_ = [i for i in range(KEYWORDS_PER_TEAM)
                     if not self.judge[team]["exact"][i] and normalize(answers[i])]
            return [{"type": "accept", "number": i + 1, "accept": rng.random() < 0.5} for i in open_[:2]] + [
                {"type": "judged"}]
        return []

    def _read_hints(self, team: str, clues: list[str]) -> list[int] | None:
        """The code a decoding bot of ``team`` reads from clues that name its keywords (see
        :meth:`suggest`): each clue's digit is the keyword it starts with; None when a clue
        names none, or two name the same."""
        forms = [normalize(k) for k in self.keywords[team]]
        code = []
        for clue in clues:
            key = normalize(clue)
            digits = [i + 1 for i, f in enumerate(forms) if f and key.startswith(f)]
            if not digits:
                return None
            code.append(max(digits, key=lambda d: len(forms[d - 1])))
        return code if len(set(code)) == CODE_LENGTH else None

    def redeal_hidden(self, seat: str | None, rng: random.Random) -> "Decrypto":
        """A copy in which everything ``seat`` may not know is dealt anew, and everything it may
        know kept (the ``knows_*`` rules of :mod:`.decrypto_view`): keywords of teams it may not
        know (fresh deck words, distinct), codes not yet revealed and not its own as encryptor
        (fresh deck codes), clue drafts and unread clues of other encryptors (fresh text), the
        guesses other groups are making, the other team's tie-break answers until judging."""
        twin = type(self).from_dict(self.to_dict(), rng)
        hidden = [t for t in TEAMS if self.keywords[t] and not views.knows_keywords(self, seat, t)]
        kept = {w for t in TEAMS if t not in hidden for w in self.keywords[t]}
        pool = [w for w in words.deck(self.lang) if w not in kept]  # (deck words are distinct)
        fresh = rng.sample(pool, KEYWORDS_PER_TEAM * len(hidden))
        for i, team in enumerate(hidden):
            twin.keywords[team] = fresh[i * KEYWORDS_PER_TEAM : (i + 1) * KEYWORDS_PER_TEAM]

        def noise(n: int) -> list[str]:
            return [f"zz{rng.randrange(10**6)}" for _ in range(n)]

        for team in self.codes:
            if not views.knows_code(self, seat, team):
                twin.codes[team] = list(rng.choice(CODE_DECK))
            if not views.is_encryptor(self, seat, team):
                twin.clue_drafts[team] = noise(CODE_LENGTH)
            if self.clues.get(team) is not None and not views.knows_clues(self, seat, team):
                twin.clues[team] = noise(CODE_LENGTH)
        for group, guess in twin.guesses.items():
            if not views.knows_guess(self, seat, group):
                guess["code"] = [rng.randint(0, 4) for _ in range(CODE_LENGTH)]
                guess["by"] = rng.choice([None, *self.teams[guess["team"]]])
        for team, entry in twin.kw.items():
            if not views.knows_kw_draft(self, seat, team):
                entry["draft"] = noise(KEYWORDS_PER_TEAM)
                entry["by"] = rng.choice([None, *self.teams[team]])
            if entry["words"] is not None and not views.knows_kw_answer(self, seat, team):
                entry["words"] = noise(KEYWORDS_PER_TEAM)
        return twin

    # --- snapshots -----------------------------------------------------------------------------

    @classmethod
    def from_dict(cls, data: dict, rng: random.Random) -> "Decrypto":
        """Rebuild a game from :meth:`~.base.Game.to_dict` output; ``rng`` draws later codes.

        An unversioned snapshot from before the encryptors' lineup was kept (e98aa63) gets its
        teams as the lineup. Raises :class:`~.base.SnapshotError` as the base does."""
        if isinstance(data, dict) and "v" not in data and "lineup" not in data and "teams" in data:
            data = {**data, "lineup": data["teams"]}
        return super().from_dict(data, rng)
