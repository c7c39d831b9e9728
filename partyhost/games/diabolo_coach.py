"""Diabolo's coach (はじめてモード) and "what you can do now" line (see
:meth:`partyhost.games.base.Game.coach_view` and :meth:`~partyhost.games.base.Game.guide`).

Round 1 on the TV: the dealer turns cards, claims, a vote and picking, the round's end. Every
text names the word language (German by default), and the first Ψ on the table gets its tip.
Texts live in ``i18n/diabolo_coach.<lang>.json``; nothing here reads the deck (the one secret).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import coach_step, coach_tip_text, msg

if TYPE_CHECKING:  # pragma: no cover
    from .diabolo import Diabolo

P = "diabolo."


def _lang(g: "Diabolo") -> dict:
    return {"key": P + "coach.lang." + g.lang}


def _joker_up(g: "Diabolo") -> bool:
    return any(g.cards[c]["joker"] for c in g.table if 0 <= c < len(g.cards))


def strip(g: "Diabolo") -> dict | None:
    """The TV's coach line in every round and its scoring (issue 27: it stopped after round 1)."""
    if g.phase == "over":
        return None
    kind = g.last_event.get("kind") if g.last_event else None
    params: dict = {"language": _lang(g), "dealer_seat": g.dealer}
    if g.phase == "vote" and g.vote:
        step = "vote"
        params.update(word=g.vote["subject"].get("word", ""), word_seat=g.vote["subject"].get("seat"))
    elif g.phase == "picking":
        step = "picking"
    elif g.phase == "scored":
        step = "scored" if g.round == 1 else "scored_n"
        params.update(next_seat=g.next_dealer(), round=g.round)
    elif not g.deck:
        step = "deck_out"
    elif kind == "claim_taken" and g.claim:
        step = "claimed"
        params.update(word=g.claim.get("word", ""), word_seat=g.claim.get("seat"))
    elif _joker_up(g):
        step = "joker"
    else:
        step = "turn"
    return coach_step(P, step, "scored" if step == "scored_n" else None, **params)


def tip(g: "Diabolo", seat: str) -> dict | None:
    """The tip for ``seat``: the dealer's, claiming, the first joker, voting, picking, dealing."""
    if seat not in g.players:
        return None
    if g.phase == "vote" and g.vote:
        if seat in g.vote["voters"] and seat not in g.vote["ballots"]:
            name = "vote"
        else:
            return None
    elif g.phase == "picking" and g.picking:
        if seat in g.picking["pickers"] and seat not in g.picking["picked"]:
            name = "pick"
        else:
            return None
    elif g.phase == "scored":
        name = "deal" if seat == g.next_dealer() else None
    elif g.phase == "turning":
        if _joker_up(g):
            name = "joker"
        elif seat == g.dealer and not g.auto_on:
            name = "dealer"
        elif g.table:
            name = "claim"
        else:
            name = None
    else:
        name = None
    if name is None:
        return None
    return coach_tip_text(P, name, language=_lang(g))



def guide(g: "Diabolo", seat: str | None) -> dict:
    """See :meth:`partyhost.games.base.Game.guide`."""
    if g.over:
        return {"now": msg(P + "guide.over")}
    if seat not in g.players:
        return {"now": msg(P + "guide.watch", language=_lang(g))}
    if g.phase == "vote" and g.vote:
        if seat in g.vote["voters"] and seat not in g.vote["ballots"]:
            return {"now": msg(P + "guide.vote", language=_lang(g), word=g.vote["subject"].get("word", ""))}
        return {"now": msg(P + "guide.vote_wait")}
    if g.phase == "picking" and g.picking:
        if seat in g.picking["pickers"] and seat not in g.picking["picked"]:
            return {"now": msg(P + "guide.pick")}
        return {"now": msg(P + "guide.pick_wait")}
    if g.phase == "scored":
        nxt = g.next_dealer()
        if seat == nxt:
            return {"now": msg(P + "guide.deal")}
        return {"now": msg(P + "guide.wait_deal", next_seat=nxt)}
    if seat == g.dealer and not g.auto_on and g.deck:
        return {"now": msg(P + "guide.dealer", language=_lang(g))}
    if not g.deck:
        return {"now": msg(P + "guide.deck_out", language=_lang(g))}
    return {"now": msg(P + "guide.claim", language=_lang(g))}
