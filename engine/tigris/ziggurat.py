"""The ziggurat (option `ziggurat`, 2nd edition advanced rules): "uno speciale monumento
da 5 tessere che formano una croce". When the active player's tile completes a plus-shaped
cross of five face-up tiles of one colour, he may discard them and put the five
ziggurat tiles there, with the tower in the centre; there is one ziggurat. Its tiles
cannot be destroyed, and the other monument rules apply (offered after the tile's
wars, only then; they connect but support nothing; leaders left with no temple go
home). At the end of his turn, a player whose king is in the ziggurat's kingdom takes
one victory point of a colour of his choice.
"""
from __future__ import annotations

from engine.tigris.board import COLS, NEIGHBORS, ROWS, SQUARE_NAMES
from engine.tigris.buildings import return_flipped_buildings
from engine.tigris.regions import regions
from engine.tigris.scoring import add_points
from engine.tigris.state import BLACK, COLORS, FACE_DOWN, FACE_UP, ZIGGURAT, State


def cross_of(centre: int) -> tuple[int, ...]:
    return (centre, *NEIGHBORS[centre])


def _inner(sq: int) -> bool:
    row, col = divmod(sq, COLS)
    return 0 < row < ROWS - 1 and 0 < col < COLS - 1


def ziggurat_options(s: State) -> list[int]:
    """Centres of the complete crosses through the placed tile, while none is built."""
    sq = s.ziggurat_offer
    assert sq is not None  # asked only after a tile that may complete a cross
    cells = s.cells
    code = cells[sq]
    if s.ziggurat >= 0 or not FACE_UP <= code < FACE_DOWN:
        return []
    return sorted(
        centre for centre in (sq, *NEIGHBORS[sq])
        if _inner(centre) and all(cells[part] == code for part in cross_of(centre))
    )


def build_ziggurat(s: State, seat: int, centre: int, events: list) -> None:
    squares = cross_of(centre)
    color = s.cells[centre] - FACE_UP
    for sq in squares:
        s.cells[sq] = ZIGGURAT
    s.discarded += len(squares)
    s.cache = {}
    s.ziggurat = centre
    s.ziggurat_offer = None
    events.append({
        "type": "ziggurat_built", "seat": seat, "color": COLORS[color], "square": SQUARE_NAMES[centre],
    })
    return_flipped_buildings(s, squares, events)


def ziggurat_point_owed(s: State) -> bool:
    """Whether the active player, at the end of his turn, takes the ziggurat's point."""
    if s.ziggurat < 0 or s.ziggurat_point_taken:
        return False
    king = s.leaders[s.active][BLACK]
    labels = regions(s).labels
    return king >= 0 and labels[king] == labels[s.ziggurat]


def take_ziggurat_point(s: State, seat: int, color: int, events: list) -> None:
    s.ziggurat_point_taken = True
    events.append({"type": "ziggurat_point_taken", "seat": seat})
    add_points(s, seat, color, 1, "ziggurat", events)
