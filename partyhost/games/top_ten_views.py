"""What each seat may know in Top Ten (part of :mod:`.top_ten`): the views, and their test double.

Privacy is decided here, in one place (DESIGN.md "Views and privacy"). Rulebook
``shared/seeds/001_f9c04369d21a052b.txt``: §theme — each player sees only their own number, and
the numbers nobody was dealt stay face down, unseen by anyone; §reveal — a number becomes public
when the captain's pick is revealed. The theme card of a round is drawn by its captain (§theme),
so only the captain sees its four themes before one is read out.

* :func:`view` builds what a seat (or the table) sees from the game's state;
* :func:`redeal_hidden` builds a twin game in which everything a seat may not know is dealt
  anew. The conformance suite checks that the seat's view is the same for both, so no view
  depends on a secret it must not show.

Neither function changes the game, and neither imports :mod:`.top_ten` (it imports this module).
"""

from __future__ import annotations

import random
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

    Everything but ``me``, ``number`` and ``choices`` is the table's (:func:`_table`,
    :meth:`~.base.Game.table_part`): one object whose members every view of one flush shares.
    """
    out = dict(game.table_part("table", lambda: _table(game)))
    if seat is not None:
        out["me"] = seat
        out["number"] = game.numbers.get(seat)
        if seat == game.captain and game.phase == "choose" and game.cards:
            out["choices"] = card_themes(game.cards[game.round - 1])
    return out


def _table(game: "TopTen") -> dict[str, Any]:
    """The part of :func:`view` every seat sees alike (the TV's whole game view). It takes no
    seat, so no number or theme card can be put into it."""
    shown = {r["seat"] for r in game.reveals}
    return {
        "game": game.KEY,
        "phase": game.phase,
        "round": game.round,
        "rounds": game.rounds,
        "tokens": game.tokens,
        "unicorns": game.unicorns,
        "poops": game.poops,
        "captain": game.captain,
        "next_captain": game.next_captain() if game.players else None,
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


def redeal_hidden(game: "TopTen", seat: str | None, rng: random.Random, deck: tuple[dict, ...]) -> "TopTen":
    """A copy of ``game`` in which everything ``seat`` may not know is dealt anew.

    Dealt anew (§theme, §reveal):

    * the numbers of this round not yet revealed and not ``seat``'s own — every other answerer's,
      the captain's included when ``seat`` is not the captain — together with the undealt ones:
      shuffled and dealt again, one to each of those answerers, the rest undealt;
    * the cards of later rounds: drawn again from those cards and the deck's cards this game
      has not drawn (the order of the theme deck);
    * this round's card while its captain is still choosing, for anyone but the captain (only
      the captain has seen it).

    Kept: ``seat``'s own number, every revealed number, the cards of rounds already chosen, and
    everything public (tokens, answers, picks, history, events).

    Args:
        game: the game; unchanged.
        seat: a player, a spectator's seat, or None for the table.
        rng: the source of the new deal; the twin keeps it for its own later shuffles.
        deck: the theme cards of ``game.lang`` (:func:`~.top_ten_themes.load_deck`); may be
            empty, then the later cards are only shuffled.
    Returns:
        A new game of the same class.
    """
    twin = type(game).from_dict(game.to_dict(), rng)
    shown = {r["seat"] for r in twin.reveals}
    hidden = [s for s in twin.numbers if s != seat and s not in shown]
    pool = [twin.numbers[s] for s in hidden] + list(twin.undealt)
    rng.shuffle(pool)
    for s in hidden:
        twin.numbers[s] = pool.pop()
    twin.undealt = sorted(pool)

    known = twin.round  # cards of rounds 1..round are drawn
    if twin.phase == "choose" and seat != twin.captain:
        known -= 1  # … but this one only by the captain, who has not read a theme out yet
    known = max(known, 0)
    drawn = {c["id"] for c in twin.cards}
    later = twin.cards[known:]
    candidates = later + [c for c in deck if c["id"] not in drawn]
    rng.shuffle(candidates)
    twin.cards = twin.cards[:known] + [plain(c) for c in candidates[:len(later)]]
    return twin
