"""Decrypto's teams, tokens and the end: who has won, and when the tie-break decides.

Split from :mod:`.decrypto` (the rules of play) so the end conditions and the tie-break read as
one decision table of their own. Pure functions of the tokens and the round; the game applies
what they decide.

Sources: the rulebook ``shared/seeds/000_869e48370cc59a45.txt`` §end "終了と同時成立の処理" (the
end check after both teams: 2 interceptions win, 2 miscommunications lose; both teams at once, a
team with 2 of each, or round 8 ended: the score, then the keyword guesses, then a shared win) and
§three "3人なら2人対1人" (the lone interceptor wins at 2 tokens; the team of two when round 5
ends); ``shared/RULES.md`` "Decrypto".
"""

from __future__ import annotations

from typing import NamedTuple

TEAMS: tuple[str, str] = ("white", "black")
"""White reads its clues first every round (§guess)."""

TOKENS_TO_WIN = 2  # two interceptions win (§end; the lone interceptor's tokens, §three)
TOKENS_TO_LOSE = 2  # two miscommunications lose (§end)

TIED = "tied"
""":attr:`Ending.reason` when the score is tied too: the keyword guesses decide (§end)."""


def other(team: str) -> str:
    """The opposing team: ``other("white") == "black"``."""
    return TEAMS[1] if team == TEAMS[0] else TEAMS[0]


def no_tokens() -> dict[str, dict[str, int]]:
    """Every team's tokens at the start: ``{team: {"interceptions": 0, "miscommunications": 0}}``."""
    return {t: {"interceptions": 0, "miscommunications": 0} for t in TEAMS}


def score(tokens: dict[str, dict[str, int]], team: str) -> int:
    """Interceptions − miscommunications of ``team`` (§end, the first tie-break)."""
    return tokens[team]["interceptions"] - tokens[team]["miscommunications"]


def scores(tokens: dict[str, dict[str, int]]) -> dict[str, int]:
    """``{team: score(tokens, team)}`` for both teams."""
    return {t: score(tokens, t) for t in TEAMS}


class Ending(NamedTuple):
    """What the end check decided.

    Attributes:
        winner: the winning team, or None when the keyword guesses must decide (``reason`` is
            :data:`TIED`).
        reason: ``"intercepted"`` (2 interceptions), ``"miscommunicated"`` (the other team's 2
            miscommunications), ``"score"`` (the tie-break score), ``"three_intercepted"`` /
            ``"three_survived"`` (§three), or :data:`TIED`.
        why: for a tie-break, what caused it: ``"both_intercepted"``, ``"both_miscommunicated"``,
            ``"both_kinds"`` (a team with 2 of each, or one team winning while the other does),
            ``"rounds"`` (the last round ended); None for a plain win.
    """

    winner: str | None
    reason: str
    why: str | None = None


def end_check(variant: str, encrypting: list[str], tokens: dict[str, dict[str, int]],
              round_no: int, max_rounds: int) -> Ending | None:
    """The end check after the round's last reveal (§end; §three). Returns None to play on.

    Args:
        variant: ``"teams"`` (white against black) or ``"three"`` (2 vs 1).
        encrypting: the teams that encrypt, in reading order (one team in the 3-player game).
        tokens: ``{team: {"interceptions": int, "miscommunications": int}}``.
        round_no: the round that just ended (1-based); max_rounds: 8, or 5 for 3 players.
    """
    if variant == "three":
        lone = other(encrypting[0])
        if tokens[lone]["interceptions"] >= TOKENS_TO_WIN:
            return Ending(lone, "three_intercepted")
        if round_no >= max_rounds:
            return Ending(encrypting[0], "three_survived")
        return None
    won = {t for t in TEAMS if tokens[t]["interceptions"] >= TOKENS_TO_WIN}
    lost = {t for t in TEAMS if tokens[t]["miscommunications"] >= TOKENS_TO_LOSE}
    winners = won | {other(t) for t in lost}
    if won & lost:
        return tie_break(tokens, "both_kinds")
    if len(won) == 2:
        return tie_break(tokens, "both_intercepted")
    if len(lost) == 2:
        return tie_break(tokens, "both_miscommunicated")
    if len(winners) == 2:
        return tie_break(tokens, "both_kinds")
    if len(winners) == 1:
        (winner,) = winners
        return Ending(winner, "intercepted" if winner in won else "miscommunicated")
    if round_no >= max_rounds:
        return tie_break(tokens, "rounds")
    return None


def tie_break(tokens: dict[str, dict[str, int]], why: str) -> Ending:
    """The first tie-break (§end): the higher score wins; a tied score leaves the winner open
    (``reason`` :data:`TIED`: each team now guesses the other's four keywords)."""
    by_team = scores(tokens)
    if by_team[TEAMS[0]] != by_team[TEAMS[1]]:
        return Ending(max(TEAMS, key=by_team.get), "score", why)
    return Ending(None, TIED, why)


def keyword_result(correct: dict[str, int]) -> tuple[str | None, str]:
    """The last tie-break (§end): ``correct`` is each team's number of keywords of the other team
    it guessed (0–4). Returns ``(winner, "keywords")``, or ``(None, "shared")`` on a tie: both
    teams share the win."""
    if correct[TEAMS[0]] == correct[TEAMS[1]]:
        return None, "shared"
    return max(TEAMS, key=correct.get), "keywords"
