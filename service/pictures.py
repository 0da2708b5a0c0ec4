"""Board pictures: each game's drawing (SVG) for web pages, and as PNG for emails.

A game has a drawing when its engine package has a `drawing` module with
`board_svg(view, *, highlight=None) -> str`. Asking for the picture of a game without
one raises ValueError, so callers can leave the picture out.
"""
from __future__ import annotations

import importlib
import io
from functools import lru_cache
from types import ModuleType

import cairocffi
import cairosvg
import cairosvg.parser
import cairosvg.surface

# Game id -> engine package, as in engine.registry; the drawing is `<package>.drawing`.
_GAME_PACKAGES = {
    "tigris": "engine.tigris",
    "euphrat-cards": "engine.euphrat_cards",
    "eden": "engine.eden",
    "civ-cards": "engine.civ_cards",
}


def drawing_module(game_id: str) -> ModuleType:
    """The drawing module of `game_id`; ValueError when the game has none."""
    package = _GAME_PACKAGES.get(game_id)
    if package is None:
        raise ValueError(f"unknown game {game_id!r}")
    name = f"{package}.drawing"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as err:
        if err.name not in (name, package):
            raise  # a missing dependency inside the drawing is a real error
        raise ValueError(f"game {game_id!r} has no drawing") from None


def board_svg(game_id: str, view: dict, highlight: list[str] | None = None) -> str:
    """The board of `view` as an SVG document (already escaped, safe to inline)."""
    return drawing_module(game_id).board_svg(view, highlight=highlight)


def svg_to_png(svg: str, scale: float = 1.0) -> bytes:
    """`svg` rendered as PNG; `scale` multiplies the SVG's pixel size."""
    # unsafe=False (the default, said aloud): no external files or entities are read.
    return cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=scale, unsafe=False)


def board_png(game_id: str, view: dict) -> bytes:
    """The board of `view` as PNG, for the picture in an email.

    A drawing with `picture_layers(view) -> (background, foreground)` is painted in two
    parts: the background is rendered once per distinct SVG and kept as raw pixels, and
    only the pieces are rendered for each picture. That skips most of the drawing's
    elements (squares, labels, the river), which dominate the time cairosvg takes.
    """
    drawing = drawing_module(game_id)
    if not hasattr(drawing, "picture_layers"):
        return svg_to_png(drawing.board_svg(view))
    background, foreground = drawing.picture_layers(view)
    output = io.BytesIO()
    _OverBackground(_background_pixels(background), foreground, output).finish()
    return output.getvalue()


@lru_cache(maxsize=8)
def _background_pixels(svg: str) -> tuple[bytes, int, int, int]:
    """`svg` rendered once: its ARGB32 pixels, width, height and stride."""
    surface = cairosvg.surface.PNGSurface(cairosvg.parser.Tree(bytestring=svg.encode("utf-8")), None, 96)
    image = surface.cairo
    image.flush()
    return bytes(image.get_data()), image.get_width(), image.get_height(), image.get_stride()


class _OverBackground(cairosvg.surface.PNGSurface):
    """A PNG surface that starts from a copy of cached background pixels instead of a
    transparent canvas (cairosvg's hook for making the surface is `_create_surface`)."""

    def __init__(self, background: tuple[bytes, int, int, int], svg: str, output):
        self._background = background
        super().__init__(cairosvg.parser.Tree(bytestring=svg.encode("utf-8")), output, 96)

    def _create_surface(self, width, height):
        pixels, cached_width, cached_height, stride = self._background
        if (int(round(width)), int(round(height))) != (cached_width, cached_height):
            raise ValueError("the picture's layers differ in size")
        surface = cairocffi.ImageSurface.create_for_data(
            bytearray(pixels), cairocffi.FORMAT_ARGB32, cached_width, cached_height, stride)
        return surface, cached_width, cached_height
