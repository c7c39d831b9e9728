"""What each seat may know in Top Ten (part of :mod:`.top_ten`): the views.

Privacy is decided here, in one place (DESIGN.md "Views and privacy"). Rulebook
``shared/seeds/001_f9c04369d21a052b.txt``: §theme — each player sees only their own number, and
the numbers nobody was dealt stay face down, unseen by anyone; §reveal — a number becomes public
when the captain's pick is revealed. The theme card of a round is drawn by its captain (§theme),
so only the captain sees its four themes before one is read out.

* :func:`view` builds what a seat (or the table) sees from the game's state.

It does not change the game, and does not import :mod:`.top_ten` (it imports this module).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .base import plain
from .top_ten_themes import card_themes

if TYPE_CHECKING:  # pragma: no cover
    from .top_ten import TopTen


def view(game: "TopTen", seat: str | None) -> dict:
    """What ``seat`` may know, JSON-ready; ``seat=None`` is the table (TV and spectators).

    Shape: ``{"game": "top_ten", "phase", "round", "rounds", "tokens", "unicorns", "poops",
    "captain": seat, "next_captain": seat, "lang": theme language,
    "theme": None | {"title", "low", "high", "mode"},
    "players": [{"seat", "answerer": bool, "answered": bool, "answer": str | None, "revealed": bool}]
    (seating order; ``answer`` is the typed text, ``""`` for out loud, None before answering),
    "answer_order": [seats], "pending": seat | None (the captain's unconfirmed pick),
    "reveals": [{"seat", "number", "mistake"}] (this round, in order),
    "history": [{"round", "captain", "theme", "reveals", "mistakes"}],
    "rating": None | "perfect" | "great" | "fair" | "lost", "last_event", "version"}``.

    A seat also gets ``"me"`` and ``"number"`` (its own number this round, None without one)
    and, only the captain while choosing, ``"choices"``: the card's four themes. No view holds
    another seat's unrevealed number, the numbers nobody was dealt, or a card not yet drawn.
    """
    shown = {r["seat"] for r in game.reveals}
    out: dict[str, Any] = {
        "game": game.KEY,
        "phase": game.phase,
        "round": game.round,
        "rounds": game.rounds,
        "tokens": game.tokens,
        "unicorns": game.unicorns,
        "poops": game.poops,
        "captain": game.captain,
        "next_captain": game._after(game.captain) if game.players else None,
        "lang": game.lang,
        "theme": plain(game.theme),
        "players": [
            {
                "seat": s,
                "answerer": s in game.answerers,
                "answered": s in game.answers,
                "answer": game.answers.get(s),
                "revealed": s in shown,
            }
            for s in game.players
        ],
        "answer_order": list(game.answer_order),
        "pending": game.pending,
        "reveals": plain(game.reveals),
        "history": plain(game.history),
        "rating": game.rating,
        "last_event": plain(game.last_event),
        "version": game.version,
    }
    if seat is not None:
        out["me"] = seat
        out["number"] = game.numbers.get(seat)
        if seat == game.captain and game.phase == "choose" and game.cards:
            out["choices"] = card_themes(game.cards[game.round - 1])
    return out
