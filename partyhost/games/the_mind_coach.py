"""The Mind's coach (はじめてモード) and its "what you can do now" line (see
:meth:`partyhost.games.base.Game.coach_view` and :meth:`~partyhost.games.base.Game.guide`).

Texts live in ``i18n/the_mind_coach.<lang>.json`` under ``the_mind.coach.*`` and
``the_mind.guide.*``. Everything here is read from what the viewer may know: a seat's own
hand, and what the whole table sees.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import coach_step, coach_tip_text, msg

if TYPE_CHECKING:  # pragma: no cover
    from .the_mind import TheMind

P = "the_mind."


def _event_kind(g: "TheMind") -> str | None:
    return g.last_event.get("kind") if g.last_event else None


def strip(g: "TheMind") -> dict | None:
    """The TV's coach line at every level (issue 27: it stopped after level 1): getting ready,
    playing, the shuriken vote, a mistake, a level done, play stopped for an away phone.

    A shuriken used at level 1 has no step of its own: each player holds one card there, so a
    thrown shuriken empties every hand and the line goes straight to ``level_done``."""
    kind = _event_kind(g)
    params: dict = {}
    if g.waiting:
        step = "away"  # play is stopped for an away player (the TV names whom it waits for)
    elif g.proposal is not None:
        step = "shuriken"
        params["by_seat"] = g.proposal["by"]
    elif g.phase == "ready" and kind == "mistake":
        step = "mistake"
    elif g.phase == "ready" and kind == "level_complete" and not any(g.ready.values()):
        step = "level_done" if g.level == 2 else "level_up"
        params.update(done=g.level - 1, level=g.level)
    elif g.phase == "ready":
        step = "ready"
    else:
        step = "play"
    return coach_step(P, step, **params)


def tip(g: "TheMind", seat: str) -> dict | None:
    """The tip for ``seat`` now: the shuriken vote, a mistake, getting ready, playing."""
    if seat not in g.players:
        return None
    kind = _event_kind(g)
    if g.proposal is not None:
        name = "shuriken_proposer" if g.proposal["by"] == seat else "shuriken_vote"
    elif g.phase == "ready" and kind == "mistake":
        name = "mistake"
    elif g.phase == "ready" and not g.ready.get(seat, False):
        name = "ready"
    elif g.phase == "playing" and g.hands.get(seat):
        name = "play"
    else:
        return None
    return coach_tip_text(P, name)



def guide(g: "TheMind", seat: str | None) -> dict:
    """See :meth:`partyhost.games.base.Game.guide`."""
    if g.over:
        return {"now": msg(P + "guide.over")}
    if seat not in g.players:
        return {"now": msg(P + "guide.watch")}
    if g.proposal is not None:
        agreed = seat in g.proposal["agreed"]
        return {"now": msg(P + ("guide.shuriken_wait" if agreed else "guide.shuriken_vote"))}
    if g.phase == "ready":
        return {"now": msg(P + ("guide.ready_wait" if g.ready.get(seat) else "guide.ready"))}
    hand = g.hands.get(seat) or []
    if not hand:
        return {"now": msg(P + "guide.empty")}
    return {"now": msg(P + ("guide.play_shuriken" if g.shuriken else "guide.play"), card=hand[0])}
