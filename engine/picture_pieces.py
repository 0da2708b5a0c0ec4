"""Pieces for a drawing's `picture_layers` (docs/drawing.md): a part of the picture as
a small SVG document of its own, to be rendered once and copied wherever it stands."""
from __future__ import annotations

from functools import lru_cache
from xml.sax.saxutils import quoteattr

MARGIN = 8  # room around a piece's box for what overflows it (strokes, rings)


def piece(x: float, y: float, width: int, height: int, drawing: str, font: str) -> tuple[float, float, str]:
    """`drawing`, made with its box's top-left corner at the origin, as a piece to
    paint at (x, y): (left, top, SVG document)."""
    return x - MARGIN, y - MARGIN, _document(width, height, drawing, font)


@lru_cache(maxsize=1024)
def _document(width: int, height: int, drawing: str, font: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width + 2 * MARGIN}" '
            f'height="{height + 2 * MARGIN}" font-family={quoteattr(font)}>'
            f'<g transform="translate({MARGIN} {MARGIN})">{drawing}</g></svg>')
