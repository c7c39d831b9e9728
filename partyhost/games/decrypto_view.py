"""Decrypto's privacy and views: what each seat may know, and what each screen is sent.

Split from :mod:`.decrypto` (the rules of play) so privacy is decided in one place
(``shared/DESIGN.md`` "Views and privacy"). The ``knows_*`` predicates say who may know each
secret; :func:`view` shows a secret only to a seat they allow, and
:meth:`.decrypto.Decrypto.redeal_hidden` deals anew exactly what they deny, so the conformance
suite's non-interference check holds the two to each other.

| secret (state field)                     | who may know it                                      |
|------------------------------------------|------------------------------------------------------|
| a team's keywords (``keywords``)         | that team; everyone once the game is over            |
| a code (``codes``)                       | its encryptor, until its reveal; then everyone       |
| clues (``clues``)                        | their encryptor, until they go up; then everyone     |
| clue drafts (``clue_drafts``)            | their encryptor only                                 |
| a guess in progress (``guesses``)        | the seats guessing it, until the reveal              |
| tie-break keyword guesses (``kw``)       | the guessing team; the answers to all once judging   |

Rulebook: ``shared/seeds/000_869e48370cc59a45.txt`` §setup (keywords hidden behind each team's
screen), §clues (only the encryptor sees the code), §guess (each team confers quietly; the clue
sheet is public); ``shared/RULES.md`` "Decrypto" ("The clue sheet … is public and shown on the TV
and phones").

Functions here read a game's state and never change it; ``g`` is a
:class:`~.decrypto.Decrypto` (not imported: the rules import this module).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .base import plain
from .decrypto_scoring import TEAMS, other, scores

if TYPE_CHECKING:  # pragma: no cover
    from .decrypto import Decrypto

#: Phases in which a code (and the clues) of the current round may still be secret.
_SECRET_PHASES = ("encrypt", "guess", "reveal")


# --- who may know what ---------------------------------------------------------------------------


def revealed(g: "Decrypto", team: str) -> bool:
    """Whether ``team``'s code of the current round has been revealed (§guess)."""
    return any(h["round"] == g.round and h["team"] == team for h in g.history)


def clues_up(g: "Decrypto", team: str) -> bool:
    """Whether ``team``'s clues of the current round have been read out to the table."""
    return (g.phase in ("guess", "reveal") and g.active == team) or revealed(g, team)


def knows_keywords(g: "Decrypto", seat: str | None, team: str) -> bool:
    """``team``'s keywords: its own players; everyone once the game is over (§setup)."""
    return g.phase == "over" or (seat in g.players and g.team_of(seat) == team)


def is_encryptor(g: "Decrypto", seat: str | None, team: str) -> bool:
    """Whether ``seat`` is ``team``'s encryptor this round (a spectator or the TV never is)."""
    return seat is not None and seat in g.players and g.encryptors.get(team) == seat


def knows_code(g: "Decrypto", seat: str | None, team: str) -> bool:
    """``team``'s code of this round: its encryptor, until the reveal shows it to all (§clues)."""
    return revealed(g, team) or is_encryptor(g, seat, team)


def knows_clues(g: "Decrypto", seat: str | None, team: str) -> bool:
    """``team``'s clues of this round: its encryptor, until they go up (§guess)."""
    return clues_up(g, team) or is_encryptor(g, seat, team)


def knows_guess(g: "Decrypto", seat: str | None, group: str) -> bool:
    """An open guess (``"decode"`` or ``"intercept"``) while it is being made: only the seats
    making it (the team's encryptor waits apart, §guess). Outside the guess phase the last
    guesses are the reveal's, public in the clue sheet."""
    return g.phase != "guess" or g.group_of(seat) == group


def knows_kw_draft(g: "Decrypto", seat: str | None, team: str) -> bool:
    """``team``'s tie-break keyword guesses being typed: that team only (§end)."""
    return seat in g.players and g.team_of(seat) == team


def knows_kw_answer(g: "Decrypto", seat: str | None, team: str) -> bool:
    """``team``'s locked tie-break answers: that team, and everyone once both teams have
    answered (the judging shows them to the table)."""
    return knows_kw_draft(g, seat, team) or g.phase in ("judge", "over")


# --- the views -----------------------------------------------------------------------------------


def sheet(history: list[dict]) -> dict[str, list[dict]]:
    """The public clue sheet (§guess, last paragraph): per team, every revealed round as
    ``{"round", "team", "encryptor", "clues": [3], "code": [3], "decode", "intercept",
    "intercepted", "miscommunicated"}``; clue i belongs under keyword ``code[i]``."""
    return {t: [plain(h) for h in history if h["team"] == t] for t in TEAMS}


def view(g: "Decrypto", seat: str | None) -> dict:
    """What ``seat`` may know, JSON-ready; ``None`` (or a seat that does not play) is the table.

    Public part: ``{"game", "variant", "lang", "round", "max_rounds", "phase", "teams":
    {team: [seats]}, "encrypting": [teams], "encryptors": {team: seat}, "tokens": {team:
    {"interceptions", "miscommunications"}}, "scores", "submitted": {team: bool},
    "deadline": None | game-clock s (the 30-s timer), "reveal_deadline", "active": None |
    team, "clues": None | [3] (the active team's, public from its guess phase),
    "guessing": {"decode"|"intercept": {"team", "locked"}}, "sheet": see :func:`sheet`,
    "reveal": None | the latest reveal record (phases reveal, keywords, judge and over),
    "keywords": None | {team: [4]} (only once over), "tie": None | {"why", "locked": {team:
    bool}, "judged": {team: bool}, "guesses": {team: [4]} and "accepted" once judging starts},
    "result": None | {"winner": team|None, "reason", "scores", "why"?, "correct"?}, "event":
    None | {"n", "kind", …}, "version"}``.

    A player's seat adds ``"me"``, ``"team"``, ``"role"`` (``"encryptor"``, ``"decoder"``,
    ``"interceptor"`` or ``"waiting"``), ``"my_keywords"`` (own team's words, or ``[]`` for
    the lone interceptor), ``"my_code"`` (the encryptor only, until its reveal),
    ``"my_clues"`` (``{"clues": [3], "final": bool}``: the encryptor's draft or submitted clues,
    until they are public), ``"my_guess"`` (the open guess of the seat's group: ``{"team",
    "code", "locked", "by"}``) and ``"my_kw"`` (``{"draft", "words", "by"}``) / ``"my_judge"``
    (``{"guesses", "exact", "accepted", "done"}``) in the tie-break.

    The public part reads no seat: it is the table's (:meth:`~.base.Game.table_part`), one object
    whose members every view of one flush shares; the seat's own keys are added to a copy.
    """
    out = dict(g.table_part("table", lambda: _table(g)))
    if seat is None or seat not in g.players:
        return out
    out.update(_private(g, seat))
    return out


def _table(g: "Decrypto") -> dict[str, Any]:
    """The public part of :func:`view`: what every seat sees alike (the TV's whole game view).
    It takes no seat, so nothing seat-specific (keywords, codes, drafts) can be put into it."""
    over = g.phase == "over"
    clues_public = g.phase in ("guess", "reveal") and g.active is not None
    tie = None
    if g.kw:
        tie = {
            "why": (g.result or {}).get("why"),
            "locked": {t: g.kw[t]["words"] is not None for t in TEAMS},
            "judged": {t: bool(g.judge.get(t, {}).get("done")) for t in TEAMS},
        }
        if g.judge:
            # by guessing team: its answers, which count, which it contested, and the host's rulings
            tie["guesses"] = {t: list(g.kw[t]["words"]) for t in TEAMS}
            tie["accepted"] = {t: list(g.judge[other(t)]["accepted"]) for t in TEAMS}
            tie["exact"] = {t: list(g.judge[other(t)]["exact"]) for t in TEAMS}
            tie["contested"] = {t: list(g.judge[other(t)].get("contested", [False] * 4)) for t in TEAMS}
            tie["ruled"] = {t: list(g.judge[other(t)].get("ruled", [None] * 4)) for t in TEAMS}
    return {
        "game": g.KEY,
        "variant": g.variant,
        "lang": g.lang,
        "round": g.round,
        "max_rounds": g.max_rounds,
        "phase": g.phase,
        "teams": {t: list(g.teams[t]) for t in TEAMS},
        "encrypting": list(g.encrypting),
        "encryptors": dict(g.encryptors),
        "tokens": plain(g.tokens),
        "scores": scores(g.tokens),
        "submitted": {t: g.clues.get(t) is not None for t in g.encrypting},
        "deadline": g.deadline if g.phase in ("encrypt", "keywords", "judge") else None,
        "reveal_deadline": g.reveal_deadline if g.phase == "reveal" else None,
        "timer_paused": {"left": round(g.timer_paused["left"], 1), "waiting_for": list(g.timer_paused["for"])}
        if g.timer_paused and g.phase == "encrypt" else None,
        "active": g.active,
        "clues": list(g.clues[g.active]) if clues_public else None,
        "guessing": {k: {"team": v["team"], "locked": v["locked"]} for k, v in g.guesses.items()}
        if g.phase == "guess" else {},
        "sheet": sheet(g.history),
        "reveal": plain(g.history[-1]) if g.history and g.phase in ("reveal", "over", "keywords", "judge")
        else None,
        "keywords": {t: list(g.keywords[t]) for t in TEAMS} if over else None,
        "tie": tie,
        "result": plain(g.result) if over else None,
        "event": plain(g.event),
        "version": g.version,
    }


def _role(g: "Decrypto", seat: str) -> str:
    team = g.team_of(seat)
    encryptor = g.encryptors.get(team) == seat
    if g.phase == "encrypt":
        return "encryptor" if encryptor else "waiting"
    if g.phase == "guess":
        if encryptor and g.active == team:
            return "encryptor"
        return {"decode": "decoder", "intercept": "interceptor"}.get(g.group_of(seat), "waiting")
    return "waiting"


def _private(g: "Decrypto", seat: str) -> dict[str, Any]:
    team = g.team_of(seat)
    group = g.group_of(seat)
    out: dict[str, Any] = {
        "me": seat,
        "team": team,
        "my_keywords": list(g.keywords[team]),
        "role": _role(g, seat),
        "my_code": None,
        "my_clues": None,
    }
    if g.encryptors.get(team) == seat and g.round > 0 and g.phase in _SECRET_PHASES and not revealed(g, team):
        out["my_code"] = list(g.codes[team])
        if not clues_up(g, team):
            submitted = g.clues.get(team)
            out["my_clues"] = {
                "clues": list(submitted if submitted is not None else g.clue_drafts[team]),
                "final": submitted is not None,
            }
    out["my_guess"] = plain(g.guesses[group]) if group else None
    out["my_kw"] = plain(g.kw.get(team)) if g.kw and team in g.kw else None
    out["my_judge"] = None
    if g.judge and team in g.judge:
        out["my_judge"] = {"guesses": list(g.kw[other(team)]["words"]), **plain(g.judge[team])}
    return out
