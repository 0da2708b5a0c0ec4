"""Board pictures: each game's drawing (SVG) for web pages, and as PNG for emails.

A game has a drawing when its engine package has a `drawing` module with
`board_svg(view, *, highlight=None) -> str`. Asking for the picture of a game without
one raises ValueError, so callers can leave the picture out.
"""
from __future__ import annotations

import importlib
import io
import sys
from functools import lru_cache
from types import ModuleType

import cairocffi
import cairosvg
import cairosvg.parser
import cairosvg.surface
from PIL import Image

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


def board_png(game_id: str, view: dict) -> bytes:
    """The board of `view` as PNG, for the picture in an email: 256 colours, which look
    the same as full colour on this drawing, weigh a third and encode faster."""
    return _palette_png(board_image(game_id, view))


def board_image(game_id: str, view: dict) -> cairocffi.ImageSurface:
    """The board of `view` drawn in full colour.

    A drawing with `picture_layers(view) -> (background, foreground)` is painted in two
    parts: the background is rendered once per distinct SVG and kept as raw pixels, and
    only the pieces are rendered for each picture. That skips most of the drawing's
    elements (squares, labels, the river), which dominate the time cairosvg takes.
    """
    drawing = drawing_module(game_id)
    if not hasattr(drawing, "picture_layers"):
        return render(drawing.board_svg(view))
    background, foreground = drawing.picture_layers(view)
    return _OverBackground(_background_pixels(background), foreground).cairo


def render(svg: str) -> cairocffi.ImageSurface:
    """`svg` drawn at its own size (no external files or entities are read)."""
    return cairosvg.surface.PNGSurface(_tree(svg), None, _DPI).cairo


_DPI = 96  # cairosvg's default: one SVG pixel is one image pixel
# Pillow's name for cairo's ARGB32 as it lies in memory (a native-endian 32-bit word).
_CAIRO_RAW = "BGRA" if sys.byteorder == "little" else "ARGB"


def _tree(svg: str) -> cairosvg.parser.Tree:
    return cairosvg.parser.Tree(bytestring=svg.encode("utf-8"), unsafe=False)


def _palette_png(image: cairocffi.ImageSurface) -> bytes:
    image.flush()
    size = (image.get_width(), image.get_height())
    # The drawings are opaque, so cairo's premultiplied alpha can be dropped as it is.
    rgb = Image.frombuffer("RGBA", size, bytes(image.get_data()), "raw", _CAIRO_RAW, image.get_stride(), 1)
    output = io.BytesIO()
    rgb.convert("RGB").quantize(256, method=Image.Quantize.FASTOCTREE).save(output, "PNG")
    return output.getvalue()


@lru_cache(maxsize=8)
def _background_pixels(svg: str) -> tuple[bytes, int, int, int]:
    """`svg` rendered once: its ARGB32 pixels, width, height and stride."""
    image = render(svg)
    image.flush()
    return bytes(image.get_data()), image.get_width(), image.get_height(), image.get_stride()


class _OverBackground(cairosvg.surface.PNGSurface):
    """A cairosvg surface that starts from a copy of cached background pixels instead
    of a transparent canvas (cairosvg's hook for making the surface is `_create_surface`)."""

    def __init__(self, background: tuple[bytes, int, int, int], svg: str):
        self._background = background
        super().__init__(_tree(svg), None, _DPI)

    def _create_surface(self, width, height):
        pixels, cached_width, cached_height, stride = self._background
        if (int(round(width)), int(round(height))) != (cached_width, cached_height):
            raise ValueError("the picture's layers differ in size")
        surface = cairocffi.ImageSurface.create_for_data(
            bytearray(pixels), cairocffi.FORMAT_ARGB32, cached_width, cached_height, stride)
        return surface, cached_width, cached_height
