"""Board geometry: squares, names, neighbours, rivers, temples and treasure squares.

A square is the index row * 16 + col (row 0 is the title edge). Everything here is
computed once at import and shared by all states.
"""
from __future__ import annotations

import json
from importlib import resources

ROWS = 11
COLS = 16
SQUARES = ROWS * COLS

COLUMN_LETTERS = "ABCDEFGHIJKLMNOP"
SQUARE_NAMES = tuple(
    f"{COLUMN_LETTERS[sq % COLS]}{sq // COLS + 1}" for sq in range(SQUARES)
)
SQUARE_INDEX = {name: sq for sq, name in enumerate(SQUARE_NAMES)}


def _neighbors(sq: int) -> tuple[int, ...]:
    row, col = divmod(sq, COLS)
    found = []
    if row > 0:
        found.append(sq - COLS)
    if row < ROWS - 1:
        found.append(sq + COLS)
    if col > 0:
        found.append(sq - 1)
    if col < COLS - 1:
        found.append(sq + 1)
    return tuple(found)


NEIGHBORS = tuple(_neighbors(sq) for sq in range(SQUARES))


def _ring(sq: int) -> tuple[int, ...]:
    """The 8 squares around `sq` in order (N, NE, E, SE, S, SW, W, NW; -1 off the
    board): each is orthogonally next to the one after it."""
    row, col = divmod(sq, COLS)
    steps = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))
    return tuple(
        (row + dr) * COLS + col + dc if 0 <= row + dr < ROWS and 0 <= col + dc < COLS else -1
        for dr, dc in steps
    )


RINGS = tuple(_ring(sq) for sq in range(SQUARES))

def block_squares(top_left: int) -> tuple[int, int, int, int]:
    """The four squares of the 2x2 block whose top-left square is `top_left`."""
    return (top_left, top_left + 1, top_left + COLS, top_left + COLS + 1)


def _blocks_containing(sq: int) -> tuple[int, ...]:
    row, col = divmod(sq, COLS)
    found = []
    for r in (row - 1, row):
        for c in (col - 1, col):
            if 0 <= r < ROWS - 1 and 0 <= c < COLS - 1:
                found.append(r * COLS + c)
    return tuple(found)


# 2x2 blocks that contain a square, each named by its top-left square.
BLOCKS_OF = tuple(_blocks_containing(sq) for sq in range(SQUARES))


def square_index(name: str) -> int:
    """The index of a square name like 'F7' (case-insensitive); KeyError if none."""
    return SQUARE_INDEX[name.strip().upper()]


class BoardMap:
    """One printed board: which squares are river, start temples, take-first squares."""

    def __init__(self, name: str, data: dict):
        self.name = name
        self.river = tuple(
            data["map"][sq // COLS][sq % COLS] == "~" for sq in range(SQUARES)
        )
        self.temples = tuple(r * COLS + c for r, c in data["temples_with_treasure"])
        self.take_first = frozenset(r * COLS + c for r, c in data["take_first"])


def _load_maps() -> dict[str, BoardMap]:
    text = resources.files("engine.tigris").joinpath("boards.json").read_text()
    data = json.loads(text)
    return {name: BoardMap(name, data[name]) for name in ("standard", "advanced")}


BOARD_MAPS = _load_maps()
