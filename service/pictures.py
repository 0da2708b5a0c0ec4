"""Board pictures: each game's drawing (SVG) for web pages, and as PNG for emails.

A game has a drawing when its contract object names one (`drawing`, a module with
`board_svg(view, *, highlight=None) -> str` and `picture_layers(view)`, see
docs/engine.md). Asking for the picture of a game without one raises ValueError, so
callers can leave the picture out.
"""
from __future__ import annotations

import hashlib
import struct
import sys
import threading
import zlib
from dataclasses import dataclass
from functools import lru_cache
from types import ModuleType

import cairocffi
import cairosvg
import cairosvg.parser
import cairosvg.surface
from isal import isal_zlib
from PIL import Image

import engine


def drawing_module(game_id: str) -> ModuleType:
    """The drawing module of `game_id`; ValueError when the game is unknown or has none."""
    if game_id not in engine.game_ids():
        raise ValueError(f"unknown game {game_id!r}")
    drawing = engine.get_game(game_id).drawing
    if drawing is None:
        raise ValueError(f"game {game_id!r} has no drawing")
    return drawing


def games_with_drawings() -> list[str]:
    """The ids of the games that have a drawing."""
    return [game_id for game_id in engine.game_ids() if engine.get_game(game_id).drawing is not None]


def board_svg(game_id: str, view: dict, highlight: list[str] | None = None) -> str:
    """The board of `view` as an SVG document (already escaped, safe to inline)."""
    return drawing_module(game_id).board_svg(view, highlight=highlight)


def board_png(game_id: str, view: dict) -> bytes:
    """The board of `view` as PNG, for the picture in an email: 256 colours, which look
    the same as full colour on this drawing, weigh half as much and encode faster."""
    return board_picture(game_id, view).png()


def board_image(game_id: str, view: dict) -> cairocffi.ImageSurface:
    """The board of `view` drawn in full colour."""
    return board_picture(game_id, view).image()


@dataclass(frozen=True)
class BoardPicture:
    """What a board picture shows, ready to be drawn: a drawing's layers (background
    and placed pieces) or, for a drawing without layers, its whole SVG."""

    game_id: str
    svg: str | None = None
    background: str | None = None
    pieces: tuple[tuple[int, int, str], ...] = ()

    def key(self) -> str:
        """A digest of everything drawn: two pictures with the same key are the same
        picture, whoever they are for (so a picture kept under it shows nothing its
        reader's own view does not)."""
        digest = hashlib.sha256(f"{PICTURE_FORMAT}\0{self.game_id}\0".encode())
        if self.svg is not None:
            digest.update(self.svg.encode())
        else:
            assert self.background is not None, "a picture is an SVG or a background with pieces"
            digest.update(self.background.encode())
            for x, y, svg in self.pieces:
                digest.update(f"\0{x},{y}\0{svg}".encode())
        return digest.hexdigest()

    def image(self) -> cairocffi.ImageSurface:
        """Drawn in full colour. A picture with layers is painted from cached parts:
        the background, rendered once per distinct SVG and kept as pixels, and each
        distinct piece (a red tile, a bull king...) rendered once and then only copied
        into place. cairosvg spends about 0.15 ms on each element it draws, and a board
        has about a thousand."""
        if self.svg is not None:
            return render(self.svg)
        pixels, width, height, stride = _background_pixels(self.background)
        image = cairocffi.ImageSurface.create_for_data(bytearray(pixels), cairocffi.FORMAT_ARGB32,
                                                       width, height, stride)
        context = cairocffi.Context(image)
        with _PIECES_LOCK:  # cairo does not promise that two threads may read one surface at once
            for x, y, svg in self.pieces:
                context.set_source_surface(_piece(svg), x, y)
                context.paint()
        return image

    def png(self) -> bytes:
        return _palette_png(self.image())


# Part of every picture's key: changed when the same layers would be drawn differently.
PICTURE_FORMAT = "png-256-1"


def board_picture(game_id: str, view: dict) -> BoardPicture:
    """The picture of `view`, not drawn yet (ValueError when the game has no drawing)."""
    background, pieces = drawing_module(game_id).picture_layers(view)
    return BoardPicture(game_id, background=background, pieces=tuple(pieces))


_PIECES_LOCK = threading.Lock()


@lru_cache(maxsize=1024)
def _piece(svg: str) -> cairocffi.ImageSurface:
    return render(svg)


def render(svg: str) -> cairocffi.ImageSurface:
    """`svg` drawn at its own size (no external files or entities are read)."""
    return cairosvg.surface.PNGSurface(_tree(svg), None, _DPI).cairo


_DPI = 96  # cairosvg's default: one SVG pixel is one image pixel
# Pillow's name for cairo's ARGB32 as it lies in memory (a native-endian 32-bit word),
# read as RGB: the drawings are opaque, so cairo's premultiplied alpha can be dropped as it is.
_CAIRO_RGB = "BGRX" if sys.byteorder == "little" else "XRGB"


def _tree(svg: str) -> cairosvg.parser.Tree:
    return cairosvg.parser.Tree(bytestring=svg.encode("utf-8"), unsafe=False)


def _palette_png(image: cairocffi.ImageSurface) -> bytes:
    image.flush()
    size = (image.get_width(), image.get_height())
    rgb = Image.frombuffer("RGB", size, image.get_data(), "raw", _CAIRO_RGB, image.get_stride(), 1)
    # The 256 colours are chosen from every third pixel of every third row, in a ninth
    # of the time of all of them, and nearly the same (flat fills, a few antialiased
    # edges: at most 1 pixel in 500 ends up more than 8 levels from its colour, as with
    # every other pixel chosen from; from every fourth, up to 1 in 20 on one game's board);
    # then each pixel takes the nearest, without dithering, which would only speckle the
    # flat fills.
    sample = rgb.resize((size[0] // 3, size[1] // 3), Image.Resampling.NEAREST)
    palette = sample.quantize(256, method=Image.Quantize.FASTOCTREE)
    return _indexed_png(rgb.quantize(palette=palette, dither=Image.Dither.NONE))


def _indexed_png(indexed: Image.Image) -> bytes:
    """`indexed` (colours from a palette) as PNG, its rows unfiltered and compressed by
    ISA-L at its fastest level: written here rather than by Pillow, whose zlib at its
    fastest level takes three quarters of the picture's encoding, four times ISA-L's
    time, for a larger file."""
    width, height = indexed.size
    rows = Image.new("P", (width + 1, height), 0)  # each row led by its filter type, 0: none
    rows.paste(indexed, (1, 0))
    palette = indexed.getpalette()
    assert palette is not None, "a quantized image has its palette"
    return b"".join((_PNG_SIGNATURE,
                     _png_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)),  # 8-bit indices
                     _png_chunk(b"PLTE", bytes(palette)),
                     _png_chunk(b"IDAT", isal_zlib.compress(rows.tobytes(), 1)),
                     _png_chunk(b"IEND", b"")))


_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


@lru_cache(maxsize=8)
def _background_pixels(svg: str) -> tuple[bytes, int, int, int]:
    """`svg` rendered once: its ARGB32 pixels, width, height and stride."""
    image = render(svg)
    image.flush()
    return bytes(image.get_data()), image.get_width(), image.get_height(), image.get_stride()
