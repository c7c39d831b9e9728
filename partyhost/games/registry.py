"""The games the host can play, by key, and the schema checks shared by all of them.

Schemas are checked with the ``jsonschema`` package (draft 2020-12, with JSON integers only:
:data:`partyhost.wire.Validator`): every action and every options object is validated before a
game sees it, so rules code only checks rules.
"""

from __future__ import annotations

from functools import lru_cache

from ..wire import Validator
from .base import Game, RuleError
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


@lru_cache(maxsize=None)
def _validator(cls: type[Game], action_type: str | None, host: bool = False) -> Validator:
    schema = cls.OPTIONS if action_type is None else (cls.HOST_ACTIONS if host else cls.ACTIONS)[action_type]
    Validator.check_schema(schema)
    return Validator(schema)


def _first_error(validator: Validator, data: object) -> str | None:
    error = next(iter(sorted(validator.iter_errors(data), key=lambda e: list(e.path))), None)
    if error is None:
        return None
    where = "/".join(str(p) for p in error.path) or "(root)"
    return f"{where}: {error.message}"[:200]


def check_action(cls: type[Game], action: object, host: bool = False) -> dict:
    """Validate one action dict against ``cls.ACTIONS`` (``cls.HOST_ACTIONS`` when ``host``).

    Returns:
        The action, unchanged.
    Raises:
        RuleError: ``"unknown_action"`` (``type``) or ``"malformed"`` (``detail``).
    """
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise RuleError("malformed", detail="type")
    if action["type"] not in (cls.HOST_ACTIONS if host else cls.ACTIONS):
        raise RuleError("unknown_action", type=action["type"][:40])
    problem = _first_error(_validator(cls, action["type"], host), action)
    if problem:
        raise RuleError("malformed", detail=problem)
    return action


def check_options(cls: type[Game], options: object) -> dict:
    """Validate lobby options and fill in the schema's defaults.

    Raises:
        RuleError: ``"bad_options"`` (``detail``).
    """
    problem = _first_error(_validator(cls, None), options)
    if problem:
        raise RuleError("bad_options", detail=problem)
    filled = dict(options)
    for name, prop in cls.OPTIONS.get("properties", {}).items():
        if name not in filled and "default" in prop:
            filled[name] = prop["default"]
    return filled


def assets() -> dict[str, list[str]]:
    """Static files every page loads for the registered games: ``{"scripts": [...], "styles": [...]}``
    (paths under ``partyhost/static/``)."""
    return {
        "scripts": [cls.SCRIPT for cls in GAMES.values() if cls.SCRIPT],
        "styles": [cls.STYLE for cls in GAMES.values() if cls.STYLE],
    }


def describe() -> list[dict]:
    """Public description of every game for the lobby: key, player bounds, options schema."""
    return [
        {"key": key, "min": cls.MIN_PLAYERS, "max": cls.MAX_PLAYERS, "options": cls.OPTIONS}
        for key, cls in GAMES.items()
    ]
