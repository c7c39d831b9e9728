"""Schema checks shared by every game: actions and lobby options.

Schemas are checked with the ``jsonschema`` package (draft 2020-12, with JSON integers only:
:data:`partyhost.wire.Validator`). The game pipeline (:meth:`Game.apply`) checks each action once;
the party checks options when the host chooses a game. Kept apart from the registry so a game
module never imports the registry (which imports every game).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..wire import INVISIBLE_CHARACTERS, Validator

if TYPE_CHECKING:  # pragma: no cover
    from .base import Game


def _rule_error(code: str, **params: Any) -> Exception:
    from .base import RuleError  # base imports this module

    return RuleError(code, **params)


SEAT_KEY: dict = {
    "type": "string",
    "minLength": 1,
    "maxLength": 20,
    # no control or invisible character anywhere: the "not" of a search (an anchored "^[^…]+$"
    # would let a key ending in a newline by, since "$" also matches before one)
    "not": {"pattern": "[\\u0000-\\u001f\\u007f"
                       + "".join(f"\\u{ord(ch):04x}" for ch in INVISIBLE_CHARACTERS) + "]"},
}
"""JSON Schema (for ``propertyNames``) of a lobby-options key that names a seat (Decrypto's
``teams``, Word Basket's ``handicaps``): a short text without control or invisible characters.

The envelope removes invisible characters from every text *value* (:func:`partyhost.wire.clean`)
but keeps object keys as sent, and the options go out in every state: without this a key such as
``"\\u202es1"`` would be stored and carried to every screen. No seat id holds such a character,
so a key with one is a bad option."""


def action(kind: str, optional: dict | None = None, **required: dict) -> dict:
    """The JSON Schema of one whole action dict: ``{"type": kind}``, the ``required`` properties,
    the ``optional`` ones that may be left out, and nothing else.

    Example: ``action("play", level={"type": "integer"}, card={"type": "integer"})``.
    """
    return {
        "type": "object",
        "properties": {"type": {"const": kind}, **required, **(optional or {})},
        "required": ["type", *required],
        "additionalProperties": False,
    }


def options(**properties: dict) -> dict:
    """The JSON Schema of a game's lobby options: these properties (each with its ``default``),
    nothing else. ``options()`` is a game without options."""
    return {"type": "object", "properties": properties, "additionalProperties": False}


_BY_ID: dict[int, tuple[dict, Validator]] = {}


def validator(schema: dict) -> Validator:
    """The (cached) validator of one schema.

    Raises:
        jsonschema.SchemaError: ``schema`` is not a valid draft 2020-12 schema.
    """
    found = _BY_ID.get(id(schema))
    if found is None or found[0] is not schema:  # (an id can be reused once a schema is gone)
        Validator.check_schema(schema)
        found = _BY_ID[id(schema)] = (schema, Validator(schema))
    return found[1]


@lru_cache(maxsize=None)
def _validator(cls: type, action_type: str | None, host: bool = False) -> Validator:
    schema = cls.OPTIONS if action_type is None else (cls.HOST_ACTIONS if host else cls.ACTIONS)[action_type]
    return validator(schema)


def _first_error(valid: Validator, data: object) -> str | None:
    error = next(iter(sorted(valid.iter_errors(data), key=lambda e: list(e.path))), None)
    if error is None:
        return None
    where = "/".join(str(p) for p in error.path) or "(root)"
    return f"{where}: {error.message}"[:200]


def check_action(cls: type["Game"], action: object, host: bool = False) -> dict:
    """Validate one action dict against ``cls.ACTIONS`` (``cls.HOST_ACTIONS`` when ``host``).

    Returns:
        The action, unchanged.
    Raises:
        RuleError: ``"malformed"`` (``detail``: no ``type``, or where the schema fails) or
            ``"unknown_action"`` (``type``).
    """
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise _rule_error("malformed", detail="type")
    if action["type"] not in (cls.HOST_ACTIONS if host else cls.ACTIONS):
        raise _rule_error("unknown_action", type=action["type"][:40])
    problem = _first_error(_validator(cls, action["type"], host), action)
    if problem:
        raise _rule_error("malformed", detail=problem)
    return action


def check_options(cls: type["Game"], options: object) -> dict:
    """Validate lobby options and fill in the schema's defaults.

    Raises:
        RuleError: ``"bad_options"`` (``detail``).
    """
    problem = _first_error(_validator(cls, None), options)
    if problem:
        raise _rule_error("bad_options", detail=problem)
    filled = dict(options)  # type: ignore[call-overload]
    for name, prop in cls.OPTIONS.get("properties", {}).items():
        if name not in filled and "default" in prop:
            filled[name] = prop["default"]
    return filled
