"""Seats that need no colour (issue 16 item 3): the seat palette in app.css stays distinct for
normal vision and under simulated deuteranopia, protanopia and tritanopia, and every seat has a
second mark (a shape) beside its colour.

The simulation is Machado, Oliveira & Fernandes (2009) at full severity and the distance CIE76
ΔE*ab, as the issue measured the old palette (sky/violet 4.6 under deuteranopia); the colour
science is coloraide's. Runs in well under a second.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from coloraide import Color  # the `test` extra (make install-test)

STATIC = Path(__file__).resolve().parent.parent / "partyhost" / "static"
MIN_DELTA_E = 15.0
DEFICIENCIES = ("deutan", "protan", "tritan")


def seat_colours() -> list[str]:
    """``--seat-1`` … in order, as written in app.css."""
    css = (STATIC / "css" / "app.css").read_text("utf-8")
    found = dict(re.findall(r"--seat-(\d+):\s*(#[0-9a-fA-F]{6})\b", css))
    return [found[str(i)] for i in range(1, len(found) + 1)]


def seen(hex_colour: str, deficiency: str | None) -> Color:
    colour = Color(hex_colour)
    if deficiency:
        colour = colour.filter(deficiency, method="machado").convert("srgb").clip()
    return colour


def smallest_gap(colours: list[str], deficiency: str | None) -> tuple[float, str, str]:
    return min((seen(a, deficiency).delta_e(seen(b, deficiency), method="76"), a, b)
               for a, b in itertools.combinations(colours, 2))


def test_the_palette_is_read_from_the_stylesheet_and_covers_nine_seats():
    colours = seat_colours()
    assert len(colours) == 9 and len(set(colours)) == 9
    js = (STATIC / "js" / "app.js").read_text("utf-8")
    assert "--seat-" in js and not any(c.lower() in js.lower() for c in colours)  # one source


@pytest.mark.parametrize("deficiency", [None, *DEFICIENCIES])
def test_every_pair_of_seat_colours_stays_apart(deficiency):
    gap, a, b = smallest_gap(seat_colours(), deficiency)
    assert gap >= MIN_DELTA_E, f"{a} and {b}: ΔE {gap:.1f} under {deficiency or 'normal vision'}"


def test_the_check_catches_the_old_palette():
    """The old palette failed, as the issue measured: the test would have caught it."""
    old = ["#f2b134", "#4fc3f7", "#ef6f6c", "#8bd17c", "#c792ea", "#ff7ab6", "#2ec4b6", "#d7dbe8", "#b08968"]
    gap, a, b = smallest_gap(old, "deutan")
    assert gap < MIN_DELTA_E
    sky_violet = seen("#4fc3f7", "deutan").delta_e(seen("#c792ea", "deutan"), method="76")
    assert round(sky_violet, 1) == 4.6


def test_seat_colours_are_readable_on_the_page_background():
    """Names are drawn in their seat's colour on the page and on its panels (--panel, #1f2230):
    WCAG AA's 4.5:1 on both (axe found seats 3, 5, 7 and 8 at 4.0 to 4.3 on a panel)."""
    for colour in seat_colours():
        for background in ("#14161f", "#1f2230"):
            assert Color(colour).contrast(Color(background)) >= 4.5, (colour, background)


def test_every_seat_has_a_second_mark():
    js = (STATIC / "js" / "app.js").read_text("utf-8")
    marks = re.search(r"const MARKS = \[([^\]]*)\]", js).group(1)
    shapes = re.findall(r'"([^"]+)"', marks)
    assert len(shapes) == len(seat_colours()) == len(set(shapes))
