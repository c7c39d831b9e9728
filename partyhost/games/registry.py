"""The games the host can play, by key, and the schema checks shared by all of them.

Schemas are checked with the ``jsonschema`` package (draft 2020-12, with JSON integers only:
:data:`partyhost.wire.Validator`): every action and every options object is validated before a
game sees it, so rules code only checks rules.
"""

from __future__ import annotations

from .base import Game
from .schema import check_action, check_options  # noqa: F401 - re-exported for the engine and party
from .decrypto import Decrypto
from .diabolo import Diabolo
from .the_mind import TheMind
from .top_ten import TopTen
from .word_basket import WordBasket

GAMES: dict[str, type[Game]] = {cls.KEY: cls for cls in (TheMind, WordBasket, Decrypto, TopTen, Diabolo)}
"""Registry key → game class, in the order the lobby lists them."""


def get(key: object) -> type[Game] | None:
    """The game class for ``key``, or None."""
    return GAMES.get(key) if isinstance(key, str) else None


def assets() -> dict[str, list[str]]:
    """Static files every page loads for the registered games: ``{"scripts": [...], "styles": [...]}``
    (paths under ``partyhost/static/``)."""
    return {
        "scripts": [cls.SCRIPT for cls in GAMES.values() if cls.SCRIPT],
        "styles": [cls.STYLE for cls in GAMES.values() if cls.STYLE],
    }


_described: tuple[tuple, list[dict]] = ((), [])


def describe() -> list[dict]:
    """Public description of every game for the lobby: key, player bounds, options schema.

    Built once and then the *same list* is returned while :data:`GAMES` holds the same classes
    (issue 18: the engine builds the party view every flush and keeps the catalogue's JSON by
    this object's identity). Callers must not change it."""
    global _described
    games = tuple(GAMES.items())
    if _described[0] != games:
        _described = (games, [
            {"key": key, "min": cls.MIN_PLAYERS, "max": cls.MAX_PLAYERS, "options": cls.OPTIONS}
            for key, cls in games
        ])
    return _described[1]
