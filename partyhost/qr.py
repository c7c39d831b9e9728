"""QR codes for the join URL, without Pillow.

* :func:`svg` -- an inline ``<svg>`` for the TV page (qrcode's ``SvgPathImage``
  family: one ``<path>``, stdlib XML only).
* :func:`ascii` -- half-block text for the terminal that started the server.

Both use error correction level M and the standard 4-module quiet zone.
(This module's ``ascii`` shadows the builtin of that name inside this module only.)
"""

from __future__ import annotations

import functools
import io
import xml.etree.ElementTree as ET

import qrcode
import qrcode.constants
import qrcode.exceptions
import qrcode.image.svg

__all__ = ["svg", "ascii", "ERROR_CORRECTION", "BORDER"]

#: qrcode error-correction level used for every code (M: ~15 % recoverable).
ERROR_CORRECTION = qrcode.constants.ERROR_CORRECT_M
#: Quiet zone width in modules (the QR spec minimum).
BORDER = 4


def _build(data: str, image_factory=None) -> qrcode.QRCode:
    """A fitted :class:`qrcode.QRCode` for ``data`` with this module's settings."""
    if not isinstance(data, str):
        raise TypeError(f"data must be str, not {type(data).__name__}")
    code = qrcode.QRCode(
        error_correction=ERROR_CORRECTION,
        border=BORDER,
        image_factory=image_factory,
    )
    code.add_data(data)
    try:
        code.make(fit=True)
    except (ValueError, qrcode.exceptions.DataOverflowError) as exc:
        # qrcode 8.2 reports overflow as ValueError("Invalid version (was 41 ...)")
        # instead of its own DataOverflowError; normalise both.
        raise ValueError(f"data too long for a QR code ({len(data)} characters)") from exc
    return code


@functools.lru_cache(maxsize=32)
def svg(data: str) -> str:
    """Render ``data`` as an inline SVG element string, ready to drop into HTML.

    The result is ``<svg ... viewBox="0 0 N N">`` (no XML declaration) where ``N``
    is the module count including the 4-module quiet zone on each side, so one
    user unit = one module. It contains a white background ``<rect>`` covering the
    whole code (quiet zone included; phones fail on black-on-transparent over a
    dark page) and a single black ``<path>`` with the dark modules. ``width`` and
    ``height`` are ``100%`` (not qrcode's millimetres), so CSS on the element or its
    container sets the size; the aspect ratio is kept by the ``viewBox``. The path
    has no ``id``, so several codes can be inlined on one page. No external
    references. Results are cached (``functools.lru_cache``, 32 entries): the same
    ``data`` returns the identical ``str`` object.

    Args:
        data: text to encode, typically a join URL like ``"http://192.168.1.20:8765/"``.

    Returns:
        The SVG markup as ``str`` (a few KB for a short URL).

    Raises:
        TypeError: ``data`` is not a ``str``.
        ValueError: ``data`` is too long for a version-40 code at level M (about
            2,300 bytes of URL-like text).
    """
    code = _build(data, image_factory=qrcode.image.svg.SvgPathFillImage)
    root = code.make_image().get_image()
    root.set("width", "100%")
    root.set("height", "100%")
    root.set("shape-rendering", "crispEdges")
    for element in root.iter():
        element.attrib.pop("id", None)
    return ET.tostring(root, encoding="unicode")


def ascii(data: str) -> str:
    """Render ``data`` as a terminal QR code made of half-block characters.

    Uses qrcode's ``print_ascii(invert=True)``: meant for light text on a dark
    terminal (the glyphs draw the light modules and the quiet zone). Each character
    is one module wide and two modules tall, so the code looks square at the usual
    ~1:2 character cell. qrcode's no-break space for "no glyph" is replaced by a
    plain space.

    Args:
        data: text to encode.

    Returns:
        Lines of equal length, each ending in ``"\\n"``, using only ``" "``,
        ``"▀"``, ``"▄"`` and ``"█"``.

    Raises:
        TypeError: ``data`` is not a ``str``.
        ValueError: ``data`` is too long (see :func:`svg`).
    """
    code = _build(data)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue().replace("\xa0", " ")
