"""Board pictures: each game's drawing (SVG) for web pages, and as PNG for emails.

A game has a drawing when its engine package has a `drawing` module with
`board_svg(view, *, highlight=None) -> str`. Asking for the picture of a game without
one raises ValueError, so callers can leave the picture out.
"""
from __future__ import annotations

import importlib
from types import ModuleType

import cairosvg

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


def board_png(game_id: str, view: dict, scale: float = 1.0) -> bytes:
    """The board of `view` as PNG, for the picture in an email."""
    return svg_to_png(board_svg(game_id, view), scale=scale)
