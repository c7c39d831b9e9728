"""Decrypto's coach (はじめてモード) and "what you can do now" line (see
:meth:`partyhost.games.base.Game.coach_view` and :meth:`~partyhost.games.base.Game.guide`).

The coach walks the table through round 1 (encrypt, decode, reveal), says at the end of round 1
that interception starts in round 2, and explains round 2's first interception. Texts live in
``i18n/decrypto_coach.<lang>.json``. The encryptor's tip and code reach only the encryptor.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import coach_step, coach_tip_text, msg
from .decrypto_scoring import other

if TYPE_CHECKING:  # pragma: no cover
    from .decrypto import Decrypto

P = "decrypto."
_THREE_STEPS = {"encrypt", "reveal", "encrypt2", "intercept", "encrypt_n", "intercept_n"}
"""Steps whose TV line names the other team (or, round 1, both encryptors and the team's own
miscommunication token): the 3-player game has its own words for them."""


def _team(team: str | None) -> dict:
    return {"key": P + "team." + (team or "white")}


def strip(g: "Decrypto") -> dict | None:
    """The TV's coach line in every round (issue 27: it stopped after round 2) and in the
    tie-break (the keyword guesses and their judging); rounds 1 and 2 have their own first-time
    words, later rounds a shorter reminder."""
    if g.phase in ("keywords", "judge"):
        return coach_step(P, g.phase)
    if g.phase not in ("encrypt", "guess", "reveal"):
        return None
    first = g.encrypting[0] if g.encrypting else "white"
    active = g.active or first
    params = {"team": _team(active), "other": _team(other(active)), "first": _team(first), "round": g.round}
    last = bool(g.encrypting) and g.active == g.encrypting[-1]
    later = g.round >= 3
    if g.phase == "encrypt":
        step = "encrypt" if g.round == 1 else "encrypt2" if g.round == 2 else "encrypt_n"
        nxt = "encrypt2" if later else step
    elif g.phase == "guess":
        step = "decode" if g.round == 1 else "intercept" if g.round == 2 else "intercept_n"
        nxt = "intercept" if later else step
    else:
        step = "reveal" if g.round == 1 else "reveal2"
        nxt = ("reveal_end1" if g.round == 1 else "reveal_end2") if last else step
    if g.variant == "three":  # one team: never "the other team" (nor its clues, nor its win)
        nxt += "_three"
    shown = step + "_three" if g.variant == "three" and step in _THREE_STEPS else step
    line = coach_step(P, shown, nxt, **params)
    line["step"] = step  # the step's name stays the same in both variants
    return line


def tip(g: "Decrypto", seat: str) -> dict | None:
    """The tip for ``seat``'s role now: encryptor, silent encryptor, decoder, interceptor (and,
    with 3 players, the lone interceptor's while the pair encrypts)."""
    team = g.team_of(seat)
    if team is None or g.phase not in ("encrypt", "guess", "reveal"):
        return None
    encryptor = g.encryptors.get(team) == seat
    if g.phase == "encrypt" and team not in g.encrypting:
        name = "lone"  # 3 players: the lone interceptor has no encryptor and no keywords
    elif g.phase == "encrypt":
        name = "encryptor" if encryptor and g.clues.get(team) is None else (None if encryptor else "wait")
    elif g.phase == "guess":
        group = g.group_of(seat)
        if encryptor and g.active == team:
            name = "silent"
        else:
            name = {"decode": "decoder", "intercept": "interceptor"}.get(group or "", "wait_round1")
    else:
        name = "reveal"
    if name is None:
        return None
    return coach_tip_text(P, name)



def guide(g: "Decrypto", seat: str | None) -> dict:
    """See :meth:`partyhost.games.base.Game.guide`."""
    if g.over:
        return {"now": msg(P + "guide.over")}
    team = g.team_of(seat)
    if team is None:
        return {"now": msg(P + "guide.watch")}
    if g.phase in ("keywords", "judge"):
        return {"now": msg(P + "guide." + g.phase)}
    encryptor = g.encryptors.get(team) == seat
    if g.phase == "encrypt":
        if encryptor and g.clues.get(team) is None:
            code = "-".join(str(d) for d in g.codes.get(team, []))
            return {"now": msg(P + "guide.encrypt", code=code)}
        if team in g.encryptors:
            return {"now": msg(P + "guide.wait_encrypt", encryptor_seat=g.encryptors[team])}
        return {"now": msg(P + "guide.wait_other")}
    if g.phase == "guess":
        if encryptor and g.active == team:
            return {"now": msg(P + "guide.silent")}
        group = g.group_of(seat)
        if group == "decode":
            return {"now": msg(P + "guide.decode")}
        if group == "intercept":
            return {"now": msg(P + "guide.intercept", team=_team(g.active))}
        return {"now": msg(P + "guide.wait_decode", team=_team(g.active))}
    return {"now": msg(P + "guide.reveal")}
