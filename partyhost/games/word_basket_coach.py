"""Word Basket's coach (はじめてモード) and "what you can do now" line (see
:meth:`partyhost.games.base.Game.coach_view` and :meth:`~partyhost.games.base.Game.guide`).

Word Basket is one race, not rounds, so the coach runs for the first game while it is on (the
host can skip it): the deal and the field card, playing a word, リーチ, a table vote. Texts live
in ``i18n/word_basket_coach.<lang>.json``. Only public facts and the seat's own hand are read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lexicon import kana
from .base import coach_step, coach_tip_text, msg

if TYPE_CHECKING:  # pragma: no cover
    from .word_basket import WordBasket

P = "word_basket."


def _field(g: "WordBasket") -> str:
    """The field's letter, or a row wild's letters (any of か・き・く・け・こ)."""
    if g.field.get("kana"):
        return g.field["kana"]
    row = g.field.get("row")
    return "・".join(kana.ROWS[row]) if row else ""


def strip(g: "WordBasket") -> dict | None:
    """The TV's coach line: deal, play, リーチ, a vote, a last card waiting."""
    params: dict = {"field": _field(g)}
    reached = [s for s in g.players if g.reach.get(s)]
    if g.phase == "vote" and g.vote_info:
        step = "vote"
        params["word_seat"] = g.vote_info["seat"]
    elif g.stage == "win_pending":  # the reach countdown (the phase reads "play" meanwhile)
        step = "win_pending"
        params["winner_seat"] = g.pending_win["seat"]
    elif reached:
        step = "reach"
        params["reach_seat"] = reached[0]
    elif not g.chain:
        step = "deal"
    else:
        step = "play"
    return coach_step(P, step, **params)


def tip(g: "WordBasket", seat: str) -> dict | None:
    """The tip for ``seat``: a vote to cast, リーチ to declare, a word to challenge, playing."""
    if seat not in g.players:
        return None
    hand = g.hands.get(seat) or []
    top = g.challengeable()
    if g.phase == "vote" and g.vote is not None:
        if seat in g.vote.voters and seat not in g.vote.ballots:
            name = "vote"
        else:
            return None
    elif len(hand) == 1 and not g.reach.get(seat):
        name = "reach"
    elif top is not None and top["seat"] != seat:
        name = "challenge"
    elif any(s != seat and len(g.hands.get(s, ())) == 1 and not g.reach.get(s) for s in g.players):
        name = "point_out"
    elif g.stage == "play" and hand:
        name = "play"
    else:
        return None
    return coach_tip_text(P, name)



def guide(g: "WordBasket", seat: str | None) -> dict:
    """See :meth:`partyhost.games.base.Game.guide`."""
    if g.over:
        return {"now": msg(P + "guide.over")}
    if seat not in g.players:
        return {"now": msg(P + "guide.watch")}
    hand = g.hands.get(seat) or []
    if g.phase == "vote" and g.vote is not None:
        if seat in g.vote.voters and seat not in g.vote.ballots:
            return {"now": msg(P + "guide.vote")}
        return {"now": msg(P + "guide.vote_wait")}
    if len(hand) == 1 and not g.reach.get(seat):
        return {"now": msg(P + "guide.reach")}
    if g.stage == "win_pending":  # the reach countdown: plays wait, objections are open
        if g.pending_win["seat"] == seat:
            return {"now": msg(P + "guide.win_pending")}
        return {"now": msg(P + "guide.win_pending_other", winner_seat=g.pending_win["seat"])}
    field = _field(g)
    if not field:
        return {"now": msg(P + "guide.play_any")}
    return {"now": msg(P + "guide.play", field=field)}
