"""Top Ten's coach (はじめてモード) and "what you can do now" line (see
:meth:`partyhost.games.base.Game.coach_view` and :meth:`~partyhost.games.base.Game.guide`).

Round 1 on the TV: the captain reads a theme, the others answer at the strength of their secret
number, the captain calls them from lowest to highest, the round ends. Texts live in
``i18n/top_ten_coach.<lang>.json``. A seat's own number appears only in its own view.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import coach_step, coach_tip_text, msg

if TYPE_CHECKING:  # pragma: no cover
    from .top_ten import TopTen

P = "top_ten."


def strip(g: "TopTen") -> dict | None:
    """The TV's coach line in every round (issue 27: it stopped after round 1)."""
    step = {"choose": "choose", "answer": "answer", "order": "order", "round_over": "round_over"}.get(g.phase)
    if step is None:
        return None
    if step == "order" and g.reveals and g.reveals[-1]["mistake"]:
        step = "mistake"
    params = {"captain_seat": g.captain, "next_seat": g.next_captain(), "round": g.round}
    nine = step in ("choose", "answer") and g.captain not in g.answerers  # 9 players: no captain's number
    nxt = step + ("_nine" if nine else "")
    if step == "round_over" and g.round != 1:
        step = "round_over_n"
    line = coach_step(P, step, nxt, **params)
    if nine:  # the same step, said without the captain's number
        line["now"] = msg(f"{P}coach.step.{nxt}", **params)
    return line


def tip(g: "TopTen", seat: str) -> dict | None:
    """The tip for ``seat`` now: the captain's, an answerer's, the tokens after a mistake."""
    if seat not in g.players:
        return None
    captain = seat == g.captain
    if g.phase == "choose":
        name = ("captain_choose" if seat in g.answerers else "captain_choose_nine") if captain else None
    elif g.phase == "answer":
        if seat in g.numbers and seat not in g.answers:
            name = "captain_answer" if captain else "answer"
        else:
            name = "captain_listen" if captain else None
    elif g.phase == "order":
        if g.reveals and g.reveals[-1]["mistake"]:
            name = "tokens"
        else:
            name = "captain_order" if captain else ("wait_order" if seat in g.numbers else None)
    elif g.phase == "round_over":
        name = "next_captain" if seat == g.next_captain() else None
    else:
        name = None
    if name is None:
        return None
    return coach_tip_text(P, name)



def guide(g: "TopTen", seat: str | None) -> dict:
    """See :meth:`partyhost.games.base.Game.guide`."""
    if g.over:
        return {"now": msg(P + "guide.over")}
    if seat not in g.players:
        return {"now": msg(P + "guide.watch")}
    captain = seat == g.captain
    if g.phase == "choose":
        if captain:
            return {"now": msg(P + "guide.choose")}
        return {"now": msg(P + "guide.wait_choose", captain_seat=g.captain)}
    if g.phase == "answer":
        if seat in g.numbers and seat not in g.answers:
            # the number itself stays where the screen already shows it (one place to keep private)
            return {"now": msg(P + ("guide.answer_first" if captain else "guide.answer"))}
        if captain:
            return {"now": msg(P + "guide.listen")}
        return {"now": msg(P + "guide.wait_answers")}
    if g.phase == "order":
        if captain:
            return {"now": msg(P + "guide.order")}
        return {"now": msg(P + "guide.wait_order", captain_seat=g.captain)}
    nxt = g.next_captain()
    if seat == nxt:
        return {"now": msg(P + "guide.next_round")}
    return {"now": msg(P + "guide.wait_next", next_seat=nxt)}
