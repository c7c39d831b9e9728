"""QR rendering (partyhost.qr): structure checks plus a round trip through a real decoder.

The decoder is zxing-cpp (a self-contained binary wheel; no numpy or Pillow needed:
images are handed over as a 2-D ``memoryview``). It is part of the test extras.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
import zxingcpp

from partyhost import qr

URL = "http://192.168.1.20:8765/"
SVG_NS = "http://www.w3.org/2000/svg"
BLOCKS = {" ", "\u2580", "\u2584", "\u2588"}  # space, upper half, lower half, full block
# One square module as qrcode's SvgPathImage writes it: M x,y H x+1 V y+1 H x z
MODULE = re.compile(r"M(\d+),(\d+)H(\d+)V(\d+)H(\d+)z")


def decode(grid: list[list[bool]], scale: int = 4) -> list:
    """Decode a dark(True)/light(False) grid, drawn dark-on-white at ``scale`` px per cell.

    No inverted retry, so a code with swapped colours does not decode.
    """
    rows = []
    for row in grid:
        line = bytes(0 if dark else 255 for dark in row for _ in range(scale))
        rows.extend([line] * scale)
    pixels = memoryview(bytearray(b"".join(rows))).cast("B", (len(rows), len(rows[0])))
    return zxingcpp.read_barcodes(pixels, formats=zxingcpp.BarcodeFormat.QRCode,
                                  try_invert=False)


def decoded_text(grid: list[list[bool]]) -> str:
    found = decode(grid)
    assert len(found) == 1, found
    assert found[0].ec_level == "M"
    return found[0].text


def svg_to_grid(markup: str) -> list[list[bool]]:
    """Rasterise qr.svg() output: white background rect, then the path's dark modules."""
    root = ET.fromstring(markup)
    size = int(root.get("viewBox").split()[2])
    rect = root.find(f"{{{SVG_NS}}}rect")
    assert rect.get("fill") == "white"
    path = root.find(f"{{{SVG_NS}}}path")
    d = path.get("d")
    assert MODULE.sub("", d) == "", "path is not made of unit squares"
    grid = [[False] * size for _ in range(size)]
    for x, y, x2, y2, x3 in (map(int, m) for m in MODULE.findall(d)):
        assert (x2, y2, x3) == (x + 1, y + 1, x)
        grid[y][x] = True
    return grid


def ascii_to_grid(text: str) -> list[list[bool]]:
    """What a dark terminal shows: glyph ink is light, the rest is dark background."""
    grid = []
    for line in text.splitlines():
        grid.append([ch not in "\u2588\u2580" for ch in line])  # top half lit by █ or ▀
        grid.append([ch not in "\u2588\u2584" for ch in line])  # bottom half lit by █ or ▄
    return grid


# --- SVG -----------------------------------------------------------------------


def test_svg_is_inline_svg_element():
    markup = qr.svg(URL)
    assert markup.startswith("<svg ")
    assert "<?xml" not in markup
    root = ET.fromstring(markup)
    assert root.tag == f"{{{SVG_NS}}}svg"


def test_svg_scales_with_css():
    root = ET.fromstring(qr.svg(URL))
    assert root.get("width") == "100%" and root.get("height") == "100%"
    assert "mm" not in qr.svg(URL)
    x0, y0, w, h = root.get("viewBox").split()
    assert (x0, y0) == ("0", "0") and w == h and int(w) >= 21 + 8


def test_svg_white_background_covers_everything():
    root = ET.fromstring(qr.svg(URL))
    first = root[0]
    assert first.tag == f"{{{SVG_NS}}}rect"  # drawn first, i.e. below the path
    assert first.get("fill") == "white"
    assert (first.get("x"), first.get("y")) == ("0", "0")
    assert (first.get("width"), first.get("height")) == ("100%", "100%")
    assert first.get("fill-opacity") in (None, "1")


def test_svg_single_black_path_without_id():
    root = ET.fromstring(qr.svg(URL))
    paths = root.findall(f"{{{SVG_NS}}}path")
    assert len(paths) == 1
    assert paths[0].get("fill") == "#000000"
    assert paths[0].get("d")
    assert all(el.get("id") is None for el in root.iter())


def test_svg_has_no_external_references():
    markup = qr.svg(URL)
    assert "http" not in markup.replace(SVG_NS, "")
    for needle in ("href", "<image", "url(", "<script", "<style", "@import", "<foreignObject"):
        assert needle not in markup


def test_svg_has_quiet_zone():
    grid = svg_to_grid(qr.svg(URL))
    size = len(grid)
    border = qr.BORDER
    assert border == 4
    for i in range(size):
        for j in range(size):
            if min(i, j) < border or max(i, j) >= size - border:
                assert not grid[i][j], f"dark module in quiet zone at {(i, j)}"
    # the top-left finder pattern starts right after the quiet zone
    assert grid[border][border] and grid[border][border + 6]


def test_svg_decodes_back_to_url():
    assert decoded_text(svg_to_grid(qr.svg(URL))) == URL


def test_svg_matches_the_qr_matrix():
    matrix = qr._build(URL).get_matrix()
    assert svg_to_grid(qr.svg(URL)) == [[bool(v) for v in row] for row in matrix]


def test_svg_is_cached():
    assert qr.svg(URL) is qr.svg(URL)
    assert qr.svg.cache_info().hits >= 1
    other = qr.svg("http://192.168.1.21:8765/")
    assert other != qr.svg(URL)
    assert decoded_text(svg_to_grid(other)) == "http://192.168.1.21:8765/"


@pytest.mark.parametrize(
    "data",
    ["http://[fd00::5]:8765/", "http://10.0.0.2:8765/join?room=ABCD", "x",
     "http://192.168.100.200:65535/" + "a" * 200],
)
def test_svg_round_trip_various(data):
    assert decoded_text(svg_to_grid(qr.svg(data))) == data


# --- matrix --------------------------------------------------------------------


def test_matrix_decodes_back_to_url():
    assert decoded_text(qr._build(URL).get_matrix()) == URL


def test_decoder_rejects_inverted_colours():
    # guards the polarity checks below: the decoder is not retrying inverted images
    matrix = qr._build(URL).get_matrix()
    assert decode([[not v for v in row] for row in matrix]) == []


# --- ASCII ---------------------------------------------------------------------


def test_ascii_shape_and_characters():
    text = qr.ascii(URL)
    assert text.endswith("\n")
    lines = text.splitlines()
    size = len(qr._build(URL).get_matrix())
    assert {len(line) for line in lines} == {size}
    assert len(lines) == (size + 1) // 2
    assert set(text) <= BLOCKS | {"\n"}


def test_ascii_decodes_as_seen_on_a_dark_terminal():
    grid = ascii_to_grid(qr.ascii(URL))
    assert decoded_text(grid) == URL


def test_ascii_quiet_zone_is_lit():
    lines = qr.ascii(URL).splitlines()
    assert set(lines[0]) == {"\u2588"} and set(lines[1]) == {"\u2588"}
    for line in lines[2:-1]:
        assert line[:4] == line[-4:] == "\u2588" * 4


# --- errors --------------------------------------------------------------------


@pytest.mark.parametrize("func", [qr.svg, qr.ascii])
def test_rejects_bytes(func):
    with pytest.raises(TypeError):
        func(URL.encode())


@pytest.mark.parametrize("func", [qr.svg, qr.ascii])
def test_too_long_data(func):
    with pytest.raises(ValueError, match="too long"):
        func("x" * 5000)


def test_longest_fitting_data():
    # version 40-M holds 2331 bytes; one more must fail cleanly
    assert decoded_text(svg_to_grid(qr.svg("x" * 2331))) == "x" * 2331
    with pytest.raises(ValueError, match="too long"):
        qr.svg("x" * 2332)
