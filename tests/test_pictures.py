"""Board pictures as PNG, checked by decoding them rather than against snapshots."""
import io
import struct

import pytest
from PIL import Image, ImageChops, ImageStat

import engine
from engine.tigris import drawing
from service import pictures
from tests.engine.tigris_views import tigris_view

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(png: bytes) -> tuple[int, int]:
    """Width and height from the IHDR chunk, which must come first."""
    assert png[:8] == PNG_SIGNATURE
    length, kind = struct.unpack(">I4s", png[8:16])
    assert kind == b"IHDR" and length == 13
    return struct.unpack(">II", png[16:24])


def pixels(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def image_pixels(image) -> Image.Image:
    """A cairo image (opaque ARGB32) as Pillow RGB."""
    image.flush()
    return Image.frombuffer("RGBA", (image.get_width(), image.get_height()), bytes(image.get_data()),
                            "raw", "BGRA", image.get_stride(), 1).convert("RGB")


def square_box(square: str) -> tuple[int, int, int, int]:
    col, row = "ABCDEFGHIJKLMNOP".index(square[0]), int(square[1:]) - 1
    x, y = drawing.BOARD_LEFT + col * drawing.CELL, drawing.BOARD_TOP + row * drawing.CELL
    return x, y, x + drawing.CELL, y + drawing.CELL


def test_the_board_png_has_the_documented_size():
    png = pictures.board_png("tigris", tigris_view())
    assert png_size(png) == (drawing.WIDTH, drawing.HEIGHT) == (816, 656)
    assert pixels(png).size == (816, 656)


def test_a_placed_tile_changes_only_its_square():
    before = image_pixels(pictures.board_image("tigris", tigris_view()))
    after = image_pixels(pictures.board_image("tigris", tigris_view(tiles={"F7": "red"})))
    changed = ImageChops.difference(before, after).getbbox()
    assert changed is not None
    left, top, right, bottom = square_box("F7")
    assert left <= changed[0] and top <= changed[1] and changed[2] <= right + 1 and changed[3] <= bottom + 1
    # The tile is red where the land was sand.
    middle = ((left + right) // 2 - 12, (top + bottom) // 2 - 12)
    r, g, b = after.getpixel(middle)
    assert r > 150 and g < 90 and b < 90
    assert before.getpixel(middle) != after.getpixel(middle)


def test_the_service_dispatches_to_the_games_drawing():
    view = tigris_view(tiles={"F7": "red"})
    assert pictures.board_svg("tigris", view, highlight=["D5"]) == drawing.board_svg(view, highlight=["D5"])


def test_an_unknown_game_is_a_value_error():
    with pytest.raises(ValueError, match="unknown game"):
        pictures.board_png("no-such-game", {})


def test_a_game_without_a_drawing_is_a_value_error(monkeypatch):
    # A game that declares no drawing (the contract's default).
    monkeypatch.setattr(engine.get_game("tigris"), "drawing", None)
    with pytest.raises(ValueError, match="has no drawing"):
        pictures.board_png("tigris", {})
    assert pictures.games_with_drawings() == ["euphrat-cards", "eden", "civ-cards"]


def _with_conflict(view: dict) -> dict:
    view["conflict"] = {"kind": "revolt", "color": "red", "attacker": 1, "defender": 0,
                        "attacker_leader": "C6", "defender_leader": "B6"}
    return view


LAYERED = {
    "start": tigris_view(),
    # Tiles on river squares (E1, A4) must hide the waves the background draws there.
    "middle game": _with_conflict(tigris_view(
        tiles={"E1": "blue", "A4": "blue", "B5": "black", "B7": "red", "C5": "green", "N6": "black"},
        face_down={"I5": "red", "J5": "red"}, catastrophes=["D6", "P11"],
        leaders={0: {"king": "B6", "trader": "C4"}, 1: {"priest": "C6"}, 2: {"farmer": "O6"}},
        monuments=[("red", "green", "I5")], unification=("D5", 2))),
    "advanced board, a spectator, four players": tigris_view(board="advanced", players=4, seat=None),
    "civilization buildings": {
        **tigris_view(tiles={"E10": "black", "F10": "black", "G10": "black", "B5": "blue", "E6": "green"},
                      leaders={0: {"king": "D10"}}),
        "buildings": {"black": "F10", "red": "K1", "blue": None, "green": None},
    },
    "ziggurat": {
        **tigris_view(tiles={"G5": "z", "G4": "z", "F5": "z", "H5": "z", "G6": "z", "E4": "red"},
                      leaders={0: {"king": "F4"}}),
        "ziggurat": {"square": "G5", "offer": None, "point_taken": False},
    },
    "open tiles": {**tigris_view(tiles={"B5": "black"}), "display": {"red": 2, "blue": 1, "green": 1, "black": 2}},
}


@pytest.mark.parametrize("view", LAYERED.values(), ids=LAYERED.keys())
def test_the_email_picture_painted_from_pieces_equals_the_whole_drawing(view):
    whole = image_pixels(pictures.render(drawing.board_svg(view)))
    layered = image_pixels(pictures.board_image("tigris", view))
    # A piece is blended onto the board as a whole, not shape by shape: the same
    # colours up to rounding.
    assert max(high for _, high in ImageChops.difference(whole, layered).getextrema()) <= 1


def test_the_email_png_has_256_colours_close_to_the_drawing():
    view = LAYERED["middle game"]
    png = Image.open(io.BytesIO(pictures.board_png("tigris", view)))
    assert png.mode == "P" and len(png.getcolors(256)) <= 256
    difference = ImageChops.difference(png.convert("RGB"), image_pixels(pictures.board_image("tigris", view)))
    # Off by about one level on average; by more than 8 only on a few antialiased edges.
    assert max(ImageStat.Stat(difference).mean) < 2
    far = sum(difference.convert("L").histogram()[9:])
    assert far / (difference.width * difference.height) < 0.005


def _card_game_view(seed: int, moves: int) -> dict:
    """The view of seat 0 after `moves` random moves of a card game."""
    import random

    import engine
    game = engine.get_game("euphrat-cards")
    state, rng = game.setup(3, seed, {}), random.Random(seed)
    for _ in range(moves):
        seat = min(game.pending(state))
        state, _ = game.apply(state, seat, rng.choice(game.legal_moves(state, seat)))
    return game.view(state, 0)


@pytest.mark.parametrize("moves", [0, 60, 150])
def test_the_card_game_picture_painted_from_pieces_equals_the_whole_drawing(moves):
    from engine.euphrat_cards import drawing as cards_drawing

    view = _card_game_view(4, moves)
    # The page's drawing marks its reader in the key ("bow, you"); the picture, which
    # every reader of a position shares, does not: compare with the unmarked drawing.
    whole = image_pixels(pictures.render(cards_drawing.board_svg({**view, "seat": None})))
    layered = image_pixels(pictures.board_image("euphrat-cards", view))
    assert max(high for _, high in ImageChops.difference(whole, layered).getextrema()) <= 1
