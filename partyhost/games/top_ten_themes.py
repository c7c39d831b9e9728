"""Top Ten's theme cards: the decks on disk and the shape of a theme (part of :mod:`.top_ten`).

Rulebook ``shared/seeds/001_f9c04369d21a052b.txt`` §theme (お題を決めて…): a theme card has two
themes on each side; each theme names what is near 1 (green) and what is near 10 (red), and is
answered in words or as a gesture. RULES.md "Top Ten": the themes are our own. The deck files
``partyhost/games/data/top_ten_themes.<lang>.json`` are documented beside them
(``TOP_TEN_THEMES.md``); ``tests/test_top_ten_themes.py`` checks their content.

Shapes: a card is ``{"id": str, "sides": [[theme, theme], [theme, theme]]}``; a theme is
``{"title": str, "low": str (what 1 means), "high": str (what 10 means), "mode": "speak" |
"gesture"}``. Cards travel only inside the game's snapshot; views hold single themes.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources

#: Theme languages the decks come in (a lobby option; default Japanese).
THEME_LANGS: tuple[str, ...] = ("ja", "en")

#: Themes on one card: two sides of two (§theme).
THEMES_PER_CARD = 4


def _valid_theme(t: object) -> bool:
    return (
        isinstance(t, dict)
        and all(isinstance(t.get(k), str) and t[k].strip() for k in ("title", "low", "high"))
        and t.get("mode") in ("speak", "gesture")
    )


def _valid_card(c: object) -> bool:
    return (
        isinstance(c, dict)
        and isinstance(c.get("id"), str)
        and isinstance(c.get("sides"), list)
        and len(c["sides"]) == 2
        and all(isinstance(side, list) and len(side) == 2 and all(_valid_theme(t) for t in side)
                for side in c["sides"])
    )


@lru_cache(maxsize=None)
def load_deck(lang: str) -> tuple[dict, ...]:
    """The theme cards of ``lang`` from ``partyhost/games/data/top_ten_themes.<lang>.json``.

    Malformed cards are skipped (the deck's own test checks the file). Cached: loaded once, by
    :meth:`TopTen.prepare <partyhost.games.top_ten.TopTen.prepare>` at server start.

    Args:
        lang: one of :data:`THEME_LANGS`; any other value gives an empty deck.
    Returns:
        The cards (shape in the module docstring), possibly empty when the file is missing or
        unreadable. Callers copy a card before changing it: the tuple is shared.
    """
    if lang not in THEME_LANGS:
        return ()
    try:
        path = resources.files("partyhost").joinpath("games", "data", f"top_ten_themes.{lang}.json")
        data = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return ()
    cards = data.get("cards") if isinstance(data, dict) else None
    return tuple(c for c in (cards or []) if _valid_card(c))


def card_themes(card: dict) -> list[dict]:
    """The four themes of ``card`` in the order a ``choose`` action numbers them (``theme``
    0–3): side 1 top, side 1 bottom, side 2 top, side 2 bottom. Each is a fresh public copy."""
    return [public_theme(t) for side in card["sides"] for t in side]


def public_theme(t: dict) -> dict:
    """The fields of a theme a screen shows (``title``, ``low``, ``high``, ``mode``), copied."""
    return {"title": t["title"], "low": t["low"], "high": t["high"], "mode": t["mode"]}
