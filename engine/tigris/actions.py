"""The four actions of a turn, each checked against the rules before it changes anything
that matters (it works on a fresh copy, so a refused move leaves no trace)."""
from __future__ import annotations

from engine.core import IllegalMove
from engine.tigris.board import BLOCKS_OF, SQUARE_NAMES, block_squares
from engine.tigris.buildings import kingdom_has_building
from engine.tigris.conflicts import declare_wars, start_revolt
from engine.tigris.open_tiles import queue_draws
from engine.tigris.regions import leader_code, next_to_temple, occupied, regions, vacate
from engine.tigris.scoring import add_points
from engine.tigris.state import (
    BLUE,
    CATASTROPHE,
    COLORS,
    EMPTY,
    FACE_DOWN,
    FACE_UP,
    LEADER,
    LEADERS,
    TILE_NAMES,
    ZIGGURAT,
    State,
)
from engine.tigris.turn import draw, finish, king_or_leader_owner, return_stranded_leaders


def place_tile(s: State, seat: int, color: int, sq: int, events: list) -> None:
    if s.hands[seat][color] == 0:
        raise IllegalMove(f"you have no {COLORS[color]} tile in hand", code="tile_not_in_hand")
    if s.cells[sq] != EMPTY:
        raise IllegalMove(f"{SQUARE_NAMES[sq]} is not empty", code="square_occupied")
    river = s.board_map.river[sq]
    if color == BLUE and not river:
        raise IllegalMove("blue farms go on river squares only", code="farm_needs_river")
    if color != BLUE and river:
        raise IllegalMove(
            f"only blue farms go on the river; {SQUARE_NAMES[sq]} is a river square",
            code="river_needs_farm",
        )
    reg = regions(s)
    kingdoms = reg.kingdoms_next_to(sq)
    if len(kingdoms) >= 3:
        raise IllegalMove(
            f"a tile on {SQUARE_NAMES[sq]} would touch {len(kingdoms)} kingdoms; at most 2",
            code="joins_three_kingdoms",
        )
    scorer = king_or_leader_owner(s, next(iter(kingdoms)), color) if len(kingdoms) == 1 else None
    s.hands[seat][color] -= 1
    s.cells[sq] = FACE_UP + color
    occupied(s, sq)
    s.actions_left -= 1
    events.append({
        "type": "tile_placed", "seat": seat, "color": COLORS[color],
        "tile": TILE_NAMES[color], "square": SQUARE_NAMES[sq],
    })
    if scorer is not None:
        doubled = s.options.get("buildings") and kingdom_has_building(s, regions(s).labels, sq, color)
        add_points(s, scorer, color, 2 if doubled else 1, "tile", events)
    if len(kingdoms) == 2:
        declare_wars(s, sq, events)
    if _completes_block(s.cells, sq):
        s.monument = sq
    if s.options.get("ziggurat"):  # offered after the wars and the monument
        s.ziggurat_offer = sq
    if s.options.get("buildings"):  # offered after the wars, the monument and the ziggurat
        s.building = sq


def _completes_block(cells: list[int], sq: int) -> bool:
    code = cells[sq]
    return any(all(cells[b] == code for b in block_squares(tl)) for tl in BLOCKS_OF[sq])


def place_leader(s: State, seat: int, color: int, sq: int, events: list) -> None:
    old = s.leaders[seat][color]
    name = LEADERS[color]
    if sq == old:
        raise IllegalMove(f"your {name} already stands on {SQUARE_NAMES[sq]}", code="same_square")
    if s.cells[sq] != EMPTY or s.board_map.river[sq]:
        raise IllegalMove(
            f"a leader needs an empty land square; {SQUARE_NAMES[sq]} is not one",
            code="square_occupied",
        )
    if not next_to_temple(s.cells, sq):
        raise IllegalMove(
            f"a leader must stand next to a face-up temple; {SQUARE_NAMES[sq]} is not",
            code="leader_needs_temple",
        )
    if old >= 0:  # a move is a withdrawal followed by a placement
        vacate(s, [old])
    reg = regions(s)
    kingdoms = reg.kingdoms_next_to(sq)
    if len(kingdoms) >= 2:
        raise IllegalMove(
            f"a leader on {SQUARE_NAMES[sq]} would join two kingdoms", code="leader_joins_kingdoms"
        )
    rival = None
    if kingdoms:
        for other in reg.leaders[next(iter(kingdoms))]:
            if leader_code(s.cells, other)[1] == color:
                rival = other
    s.cells[sq] = LEADER + seat * 4 + color
    s.leaders[seat][color] = sq
    occupied(s, sq)
    s.actions_left -= 1
    if old >= 0:
        events.append({
            "type": "leader_moved", "seat": seat, "leader": name,
            "from": SQUARE_NAMES[old], "square": SQUARE_NAMES[sq],
        })
    else:
        events.append({"type": "leader_placed", "seat": seat, "leader": name, "square": SQUARE_NAMES[sq]})
    if rival is not None:
        start_revolt(s, sq, rival, events)


def withdraw_leader(s: State, seat: int, color: int, events: list) -> None:
    sq = s.leaders[seat][color]
    if sq < 0:
        raise IllegalMove(f"your {LEADERS[color]} is not on the board", code="leader_not_on_board")
    vacate(s, [sq])
    s.leaders[seat][color] = -1
    s.actions_left -= 1
    events.append({
        "type": "leader_withdrawn", "seat": seat, "leader": LEADERS[color], "square": SQUARE_NAMES[sq],
    })


# Cells a catastrophe may go on: an empty square or a face-up tile (treasures and
# buildings apart); `catastrophe_refusal` says why any other may not.
CATASTROPHE_TARGETS = frozenset(range(EMPTY, FACE_DOWN))


def catastrophe_squares(s: State) -> list[int]:
    """Every square a catastrophe may go on, in order."""
    cells, treasures, buildings = s.cells, s.treasures, s.buildings
    return [
        sq for sq in range(len(cells))
        if cells[sq] in CATASTROPHE_TARGETS and sq not in treasures and sq not in buildings
    ]


def catastrophe_refusal(s: State, sq: int) -> str | None:
    """Why a catastrophe may not go on `sq`, or None if it may."""
    code = s.cells[sq]
    if code >= LEADER:
        return "a leader stands there"
    if code == CATASTROPHE:
        return "a catastrophe is already there"
    if FACE_DOWN <= code < CATASTROPHE:
        return "a monument stands there"
    if code == ZIGGURAT:
        return "the ziggurat stands there"
    if sq in s.treasures:
        return "a treasure lies there"
    if sq in s.buildings:
        return "a building stands there"
    return None


def place_catastrophe(s: State, seat: int, sq: int, events: list) -> None:
    if s.catastrophes[seat] == 0:
        raise IllegalMove("you have no catastrophe tiles left", code="no_catastrophe_left")
    refusal = catastrophe_refusal(s, sq)
    if refusal:
        raise IllegalMove(
            f"no catastrophe on {SQUARE_NAMES[sq]}: {refusal}", code="catastrophe_forbidden"
        )
    code = s.cells[sq]
    destroyed = COLORS[code - FACE_UP] if code != EMPTY else None
    if destroyed:
        s.discarded += 1
    vacate(s, [sq], CATASTROPHE)
    s.catastrophes[seat] -= 1
    s.actions_left -= 1
    events.append({
        "type": "catastrophe_placed", "seat": seat, "square": SQUARE_NAMES[sq], "destroyed": destroyed,
    })
    return_stranded_leaders(s, events)


def swap_tiles(s: State, seat: int, tiles: list[int], events: list) -> None:
    hand = s.hands[seat]
    count = sum(tiles)
    if count == 0:
        raise IllegalMove("swap at least one tile", code="bad_swap")
    for color, n in enumerate(tiles):
        if n > hand[color]:
            raise IllegalMove(
                f"you have {hand[color]} {COLORS[color]} tiles, not {n}", code="bad_swap"
            )
    for color, n in enumerate(tiles):
        hand[color] -= n
    s.discarded += count
    s.actions_left -= 1
    events.append({"type": "tiles_swapped", "seat": seat, "count": count})
    if s.options.get("open_tiles"):  # drawn tile by tile, from the display or the bag
        queue_draws(s, [(seat, count)], False)
    elif not draw(s, seat, count, events):
        finish(s, "bag", events)


def pass_actions(s: State, seat: int, events: list) -> None:
    """Take no more actions this turn: a turn has up to two actions ("fino a due
    azioni"); the end of the turn follows as after a second action."""
    events.append({"type": "actions_passed", "seat": seat, "actions_left": s.actions_left})
    s.actions_left = 0
