"""Civilization buildings (option `buildings`, 2nd edition advanced rules): a palace,
a market hall, a library and a granary, one per colour, standing on lines of three
or more face-up tiles of their colour.

The player whose tile becomes part of an unbroken horizontal or vertical line of 3+
tiles of its colour may put that colour's building on any tile of the line, or move
it there from a line that is shorter than the new one. A tile placed into a kingdom
holding the building of its colour scores 2 instead of 1. The tile under a building
counts in conflicts but is never removed, takes no catastrophe, and when it is flipped
for a monument the building goes back beside the board.
"""
from __future__ import annotations

from engine.tigris.board import COLS, SQUARE_NAMES
from engine.tigris.state import BUILDING_NAMES, COLORS, FACE_DOWN, FACE_UP, State


def line_through(cells: list[int], sq: int, step: int) -> list[int]:
    """The unbroken run of tiles like the one on `sq` through it, horizontal (step 1)
    or vertical (step COLS)."""
    code = cells[sq]
    run = [sq]
    for direction in (-step, step):
        at = sq
        while True:
            nxt = at + direction
            if nxt < 0 or nxt >= len(cells) or (step == 1 and nxt // COLS != at // COLS):
                break
            if cells[nxt] != code:
                break
            run.append(nxt)
            at = nxt
    return sorted(run)


def longest_line(cells: list[int], sq: int) -> int:
    return max(len(line_through(cells, sq, 1)), len(line_through(cells, sq, COLS)))


def building_options(s: State) -> list[int]:
    """Squares where the active player may put the building of the placed tile's colour."""
    sq = s.building
    assert sq is not None  # asked only after a tile that may found a building
    cells = s.cells
    code = cells[sq]
    if not FACE_UP <= code < FACE_DOWN:
        return []
    standing = s.buildings[code - FACE_UP]
    beaten = longest_line(cells, standing) if standing >= 0 else 2
    found: set[int] = set()
    for step in (1, COLS):
        line = line_through(cells, sq, step)
        if len(line) > beaten:
            found.update(line)
    found.discard(standing)
    return sorted(found)


def place_building(s: State, seat: int, sq: int, events: list) -> None:
    color = s.cells[sq] - FACE_UP
    old = s.buildings[color]
    s.buildings = tuple(sq if c == color else at for c, at in enumerate(s.buildings))
    s.building = None
    events.append({
        "type": "building_placed", "seat": seat, "building": BUILDING_NAMES[color],
        "color": COLORS[color], "square": SQUARE_NAMES[sq],
        "from": SQUARE_NAMES[old] if old >= 0 else None,
    })


def return_flipped_buildings(s: State, squares, events: list) -> None:
    """Buildings on tiles flipped for a monument go back beside the board."""
    for color, at in enumerate(s.buildings):
        if at in squares:
            s.buildings = tuple(-1 if c == color else where for c, where in enumerate(s.buildings))
            events.append({
                "type": "building_returned", "building": BUILDING_NAMES[color],
                "color": COLORS[color], "square": SQUARE_NAMES[at],
            })


def kingdom_has_building(s: State, labels: list[int], sq: int, color: int) -> bool:
    """Whether the region of `sq` holds the building of `color`."""
    at = s.buildings[color]
    return at >= 0 and labels[at] == labels[sq]
