"""What may cross the wire: the checks every incoming message passes and the strict JSON every
outgoing one is written with.

Used by the engine (incoming envelopes, outgoing views), the transport (the Socket.IO JSON
codec) and the game registry (action schemas). Pure functions, no I/O.

Why this module exists (issue 10): python-socketio's decoder accepts the non-standard tokens
``NaN``, ``Infinity`` and ``-Infinity``; one such number stored by a game reached every view as a
bare ``NaN`` that browsers' ``JSON.parse`` rejects, blanking every screen. So numbers are checked
once, here, before any game sees a message, and nothing is ever *written* with a non-finite
number (``allow_nan=False``): a bug that makes one fails loudly instead of reaching a browser.
"""

from __future__ import annotations

import json
import math
from typing import Any

from jsonschema import Draft202012Validator, validators
from socketio import packet as sio_packet

#: Parts of the party view a page keeps from state to state: each goes to a socket only when it
#: differs from what that socket was last sent (and in full after every (re)connect). Issue 18.
#: The engine leaves them out, the page (app.js) and :mod:`partyhost.pyclient` keep them. They
#: change when someone joins, leaves, is renamed or goes away (roster, names, momentum), when the
#: lobby changes (howto), when a game settles (record, scoreboard) or the night ends (summary), or
#: never (the games catalogue); a game action rarely changes any (howto may, and is then sent).
HELD_PARTS = ("games", "roster", "names", "record", "scoreboard", "howto", "momentum", "summary")

MAX_SAFE_INTEGER = 2**53 - 1
"""Largest integer a browser's JavaScript number holds exactly (``Number.MAX_SAFE_INTEGER``).
Bigger integers are refused: a phone could never have sent them on purpose, and Python would
raise ``OverflowError`` mixing one with a float (``now - 10**400``)."""

MAX_DEPTH = 12
"""Deepest nesting of lists and objects accepted in a message. Real messages nest 3 deep at most;
a deeper one is refused before anything recurses over it."""

INVISIBLE_CHARACTERS = (
    [chr(c) for c in range(0x200B, 0x2010)]  # zero-width space/joiners, LRM, RLM
    + [chr(c) for c in range(0x202A, 0x202F)]  # bidi embeddings and overrides
    + [chr(c) for c in range(0x2060, 0x2065)]  # word joiner, invisible operators
    + [chr(c) for c in range(0x2066, 0x206A)]  # bidi isolates
    + ["\u061c", "\ufeff"]  # Arabic letter mark, zero-width no-break space (BOM)
)
"""Format characters that print as nothing or reorder text. They are removed from every typed
text before any check, so a Decrypto clue ``空\\u200b手`` is the keyword 空手, a name cannot hide
a right-to-left override, and a text of only invisible characters is empty."""

_STRIP = {ord(ch): None for ch in INVISIBLE_CHARACTERS}


class WireError(ValueError):
    """A message that may not enter the engine. ``detail`` says why, in short English for logs
    and the ``malformed`` answer's ``{detail}`` (e.g. ``"non-finite number at card"``)."""

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


def strip_invisible(text: str) -> str:
    """``text`` without :data:`INVISIBLE_CHARACTERS`."""
    return text.translate(_STRIP)


def clean(value: Any) -> Any:
    """Check one decoded message and return it with every string cleaned.

    Walks the value without recursion. Strings (values, not object keys) lose their invisible
    characters; numbers must be finite floats or integers within ±:data:`MAX_SAFE_INTEGER`;
    nesting is at most :data:`MAX_DEPTH`.

    Args:
        value: what the JSON decoder produced (dict, list, str, int, float, bool or None).
    Returns:
        An equal structure (new containers) with cleaned strings.
    Raises:
        WireError: a non-finite number, an integer out of range, nesting too deep, or a type
            JSON cannot hold.
    """
    root: list[Any] = [None]
    # (source, destination container, key in destination, depth, path)
    stack: list[tuple[Any, Any, Any, int, str]] = [(value, root, 0, 0, "")]
    while stack:
        src, dest, key, depth, path = stack.pop()
        if isinstance(src, str):
            dest[key] = strip_invisible(src)
        elif isinstance(src, bool) or src is None:
            dest[key] = src
        elif isinstance(src, int):
            if abs(src) > MAX_SAFE_INTEGER:
                raise WireError(f"integer out of range at {path or '(root)'}")
            dest[key] = src
        elif isinstance(src, float):
            if not math.isfinite(src):
                raise WireError(f"non-finite number at {path or '(root)'}")
            dest[key] = src
        elif isinstance(src, (dict, list)):
            if depth >= MAX_DEPTH:
                raise WireError("nested too deep")
            if isinstance(src, dict):
                out: Any = {}
                items = src.items()
            else:
                out = [None] * len(src)
                items = enumerate(src)
            dest[key] = out
            for k, v in items:
                if not isinstance(k, (str, int)):
                    raise WireError("object key is not a string")
                stack.append((v, out, k, depth + 1, f"{path}/{k}" if path else str(k)))
        else:
            raise WireError(f"not JSON at {path or '(root)'}")
    return root[0]


def finite(value: object) -> bool:
    """True when no number anywhere in ``value`` (nested dicts, lists, tuples) is NaN or ±Infinity."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, float):
            if not math.isfinite(item):
                return False
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return True


def dumps(obj: Any, **kwargs: Any) -> str:
    """``json.dumps`` that refuses NaN and ±Infinity (``ValueError``) instead of writing the
    non-standard tokens no browser parses. Same signature as :func:`json.dumps`."""
    kwargs["allow_nan"] = False
    return json.dumps(obj, **kwargs)


_COMPACT = json.JSONEncoder(allow_nan=False, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def compact(obj: Any) -> str:
    """``obj`` as compact JSON with sorted keys and UTF-8 text (no ``\\u`` escapes), refusing NaN
    and ±Infinity (``ValueError``): what the views are written with. One encoder for every call
    (``json.dumps`` with options builds a new one each time)."""
    return _COMPACT.encode(obj)


class EntriesText:
    """The JSON text of a list whose entries are never changed once added (the night's record,
    :meth:`partyhost.party.Party.settle`), written again only when the list holds other entry
    objects (one added, the oldest dropped, a restored list). Issue 18, fifth pass: the record
    was encoded twice per action (the held-parts check and the snapshot), up to 40 games each.

    Args:
        encoder: the ``json.JSONEncoder`` whose text is wanted.
    """

    def __init__(self, encoder: json.JSONEncoder) -> None:
        self._encoder = encoder
        self._entries: tuple = ()  # the entry objects last written (held: their ids stay theirs)
        self._text: str | None = None

    def text(self, entries: list) -> str:
        """``encoder.encode(entries)``, from the last call's text when ``entries`` holds the same
        objects in the same order.

        Raises:
            ValueError: a non-finite number (nothing is kept then).
        """
        held = self._entries
        if (self._text is None or len(held) != len(entries)
                or any(a is not b for a, b in zip(held, entries))):
            text = self._encoder.encode(entries)
            self._entries, self._text = tuple(entries), text
        return self._text


def loads(text: str | bytes, **kwargs: Any) -> Any:
    """:func:`json.loads` (non-finite numbers still decode here, so :func:`clean` can refuse them
    with an answer naming the message's id, instead of the socket layer dropping it unanswered)."""
    return json.loads(text, **kwargs)


class StrictJSON:
    """A ``json``-module stand-in for python-socketio (``SocketIO(json=StrictJSON)``): every packet
    is written with :func:`dumps`, so no view with a non-finite number can reach a browser."""

    dumps = staticmethod(dumps)
    loads = staticmethod(loads)


class EncodedView(dict):
    """A view (a plain ``dict``, so in-process tests and fakes read it as before) that carries
    its own strict JSON text, written once by the engine for every socket that gets it.

    :class:`ViewPacket` sends ``text`` as it is, so a view shown on 30 screens is encoded once,
    not once per socket, and the engine's "did this view change" check compares the same text.

    Args:
        view: the view's content (copied into this dict).
        text: ``view`` as compact JSON written by :func:`dumps`.
    """

    __slots__ = ("text",)

    def __init__(self, view: dict, text: str) -> None:
        super().__init__(view)
        self.text = text


class ViewPacket(sio_packet.Packet):
    """python-socketio's packet class for this server (``SocketIO(serializer=ViewPacket)``, the
    library's documented way to customise encoding).

    * An event whose one argument is an :class:`EncodedView` is written around the view's
      ready text: no second ``json.dumps`` of the view.
    * ``uses_binary_events = False``: partyhost never sends binary, so python-socketio does not
      walk every outgoing view looking for ``bytes`` (measured 15 % of server CPU, issue 18).
    * Every other packet is written by the ``json`` module the server was given
      (:class:`StrictJSON`), as before.
    """

    uses_binary_events = False
    json = StrictJSON

    def encode(self) -> Any:  # noqa: D102 - see the class docstring
        data = self.data
        if (self.packet_type == sio_packet.EVENT and self.id is None
                and self.namespace in (None, "/") and isinstance(data, list) and len(data) == 2
                and isinstance(data[1], EncodedView)):
            return f"{sio_packet.EVENT}[{dumps(data[0])},{data[1].text}]"
        return super().encode()


def _is_integer(checker: Any, instance: Any) -> bool:
    return isinstance(instance, int) and not isinstance(instance, bool)


Validator = validators.extend(
    Draft202012Validator,
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer),
)
"""JSON Schema draft 2020-12 validator whose ``integer`` is a JSON integer only: ``2.0`` is not
an integer here (draft 2020-12 would accept it, and a game indexing a hand with it would fail)."""
