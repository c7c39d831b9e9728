"""Issue 18, fifth pass: :func:`partyhost.games.base.plain` keeps a scalar without a call. It must
still return exactly what it returned before: an equal deep copy (tuples as lists) that shares no
dict or list with its input, with every scalar's type kept (``True`` stays a bool, ``1.0`` a
float, ``None`` stays ``None``)."""

from __future__ import annotations

import json

from partyhost.games.base import plain


def _old_plain(value):
    """The build before the fifth pass, as the reference."""
    kind = type(value)
    if kind is dict:
        return {k: _old_plain(v) for k, v in value.items()}
    if kind is list or kind is tuple:
        return [v if type(v) in (int, float, str, bool) else _old_plain(v) for v in value]
    return value


def _containers(value, out):
    if isinstance(value, (dict, list)):
        out.append(value)
        for v in value.values() if isinstance(value, dict) else value:
            _containers(v, out)
    return out


SAMPLE = {
    "level": 3, "t": 1.0, "ok": True, "no": False, "none": None, "s": "あ",
    "cards": [{"card": 1, "seat": "s1", "t": 0.5, "reason": None, "x": {"a": [1, (2, "b"), []]}}],
    "pair": (1, {"k": [None, True]}), "empty": {}, "deep": [[[{"z": [0]}]]],
}


def test_plain_returns_what_the_old_build_returned():
    new, old = plain(SAMPLE), _old_plain(SAMPLE)
    assert new == old
    assert json.dumps(new, sort_keys=True) == json.dumps(old, sort_keys=True)  # 1.0 vs 1, True vs 1
    assert type(new["t"]) is float and new["ok"] is True and new["none"] is None
    assert new["pair"] == [1, {"k": [None, True]}] and type(new["cards"][0]["x"]["a"][1]) is list
    for scalar in (None, 5, 2.5, "x", True):
        assert plain(scalar) is scalar


def test_plain_shares_no_dict_or_list_with_its_input():
    copy = plain(SAMPLE)
    given = {id(c) for c in _containers(SAMPLE, [])}
    assert not given & {id(c) for c in _containers(copy, [])}
    copy["cards"][0]["x"]["a"].append(9)
    assert SAMPLE["cards"][0]["x"]["a"] == [1, (2, "b"), []]
