"""The Mind's tightest gap earns a title for both of its players (``night.candidates``), each
with the other as ``partner_seat``: the reason shown beside it must be true for both, so it may
not say who played first. (It said "Played 80 ms after Bo" to the player who played first.)

Unit test, no server: well under a second.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from partyhost import night

I18N = Path(__file__).resolve().parent.parent / "partyhost" / "i18n"


def _render(template: str, params: dict, names: dict) -> str:
    def field(m: re.Match) -> str:
        key = m.group(1)
        value = params[key]
        return names[value] if key.endswith("_seat") else str(value)
    return re.sub(r"\{(\w+)\}", field, template)


def test_both_players_of_the_gap_get_a_reason_true_for_each():
    record = [{"serial": 1, "game": "the_mind", "duration": 60.0,
               "players": [{"seat": "s1", "name": "Al"}, {"seat": "s2", "name": "Bo"}],
               "result": {"coop": True, "won": True, "places": [["s1", "s2"]]},
               # Al played 41, then Bo played 43 only 80 ms later
               "highlights": [{"key": "the_mind.hl.gap", "params": {"ms": 80, "card": 41, "next": 43, "seat": "s1",
                                                                   "next_seat": "s2", "level": 3}}]}]
    gap = night.candidates(record, [{"seat": "s1", "points": 1, "games": 1}, {"seat": "s2", "points": 1, "games": 1}])["gap"]
    assert sorted(t["seat"] for t in gap) == ["s1", "s2"]
    names = {"s1": "Al", "s2": "Bo"}
    for lang in ("en", "ja"):
        template = json.loads((I18N / f"night.{lang}.json").read_text(encoding="utf-8"))["night.why.gap"]
        for title in gap:
            text = _render(template, title["params"], names)
            # Al played first: nothing may say Al came after Bo (nor Bo before Al)
            assert not re.search(r"\b(after|before|then)\b|の後|の前|より後|より先", text), (lang, title["seat"], text)
            assert "80" in text and names[title["params"]["partner_seat"]] in text, (lang, text)
