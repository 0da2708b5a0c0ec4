"""Listing the legal moves of a seat. Hot path: one region labelling per state,
precomputed neighbours and square names, plain loops. The moves themselves are made
once, read-only (`ReadOnlyDict`), and shared by every listing."""
from __future__ import annotations

from functools import lru_cache
from itertools import chain, product

from engine.core import ReadOnlyDict
from engine.tigris.actions import catastrophe_squares
from engine.tigris.board import BOARD_MAPS, NEIGHBORS, SQUARE_NAMES, SQUARES
from engine.tigris.buildings import building_options
from engine.tigris.conflicts import support_range
from engine.tigris.open_tiles import drawing_seat
from engine.tigris.regions import Regions, kingdoms_touching, regions, stays_whole
from engine.tigris.state import (
    BLACK,
    BLUE,
    COLORS,
    EMPTY,
    FACE_UP,
    GREEN,
    LEADER,
    LEADERS,
    MONUMENT_NAMES,
    RED,
    State,
)
from engine.tigris.turn import monument_options, treasure_choices
from engine.tigris.ziggurat import ziggurat_options

# By colour, then square.
TILE_MOVES = tuple(
    tuple(ReadOnlyDict(type="place_tile", color=COLORS[c], square=name) for name in SQUARE_NAMES)
    for c in range(4)
)
LEADER_MOVES = tuple(
    tuple(ReadOnlyDict(type="place_leader", leader=LEADERS[c], square=name) for name in SQUARE_NAMES)
    for c in range(4)
)
WITHDRAW_MOVES = tuple(ReadOnlyDict(type="withdraw_leader", leader=LEADERS[c]) for c in range(4))
CATASTROPHE_MOVES = tuple(ReadOnlyDict(type="place_catastrophe", square=name) for name in SQUARE_NAMES)
PASS_MOVE = ReadOnlyDict(type="pass")


def _by_colors(per_square) -> tuple[tuple[tuple[dict, ...], ...], ...]:
    """For each set of colours (a 4-bit mask by colour index), per square, the moves
    `per_square(colours, square)` lists there: a listing joins one tuple per square."""
    return tuple(
        tuple(tuple(per_square([c for c in range(4) if mask >> c & 1], sq)) for sq in range(SQUARES))
        for mask in range(16)
    )


def _tiles_on(colors: list[int], sq: int, river: tuple[bool, ...]):
    if river[sq]:
        return [TILE_MOVES[BLUE][sq]] if BLUE in colors else []
    return [TILE_MOVES[c][sq] for c in (RED, GREEN, BLACK) if c in colors]


# Per board, by the colours in hand, then square: the tiles that may go there.
TILES_BY_HAND = {
    name: _by_colors(lambda colors, sq, river=board.river: _tiles_on(colors, sq, river))
    for name, board in BOARD_MAPS.items()
}
# By the leaders in supply (a mask by colour), then square: their placements there.
LEADERS_BY_SUPPLY = _by_colors(
    lambda colors, sq: [LEADER_MOVES[c][sq] for c in (BLACK, RED, BLUE, GREEN) if c in colors]
)


def _listed(**fields) -> ReadOnlyDict:
    return ReadOnlyDict(fields)


def _mask(flags) -> int:
    return sum(1 << c for c, flag in enumerate(flags) if flag)


def action_moves(s: State, seat: int) -> list[dict]:
    reg = regions(s)
    moves: list[dict] = []
    _tile_moves(s, seat, moves)
    _leader_moves(s, seat, reg, moves)
    if s.catastrophes[seat]:
        moves.extend(map(CATASTROPHE_MOVES.__getitem__, catastrophe_squares(s)))
    moves.extend(_swap_moves(tuple(s.hands[seat])))
    moves.append(PASS_MOVE)
    return moves


def _tile_moves(s: State, seat: int, out: list) -> None:
    touching, cells = kingdoms_touching(s), s.cells
    tiles_on = TILES_BY_HAND[s.board][_mask(s.hands[seat])]
    out.extend(chain.from_iterable([
        tiles_on[sq] for sq in range(SQUARES) if cells[sq] == EMPTY and touching[sq] < 3
    ]))


def _temple_neighbors(s: State) -> list[int]:
    """Empty land squares next to a face-up temple: where leaders may go."""
    cached = s.cache.get("temple_neighbors")
    if cached is None:
        cells, river = s.cells, s.board_map.river
        found = set()
        temple = FACE_UP + RED
        for sq in [sq for sq, code in enumerate(cells) if code == temple]:
            for n in NEIGHBORS[sq]:
                if cells[n] == EMPTY and not river[n]:
                    found.add(n)
        cached = s.cache["temple_neighbors"] = sorted(found)
    return cached


def _leader_moves(s: State, seat: int, reg: Regions, out: list) -> None:
    row = s.leaders[seat]
    candidates = _temple_neighbors(s)
    touching = kingdoms_touching(s)
    allowed = [sq for sq in candidates if touching[sq] <= 1]
    if min(row) < 0:
        placements = LEADERS_BY_SUPPLY[_mask(sq < 0 for sq in row)]
        out.extend(chain.from_iterable(map(placements.__getitem__, allowed)))
    twos = None
    for color in (BLACK, RED, BLUE, GREEN):
        lifted = row[color]
        if lifted < 0:
            continue
        if twos is None:
            twos = [sq for sq in candidates if touching[sq] == 2]
        out.append(WITHDRAW_MOVES[color])
        targets = _leader_squares(reg, candidates, touching, allowed, twos, lifted, s.cells)
        out.extend(map(LEADER_MOVES[color].__getitem__, targets))


def _leader_squares(reg: Regions, candidates: list[int], touching: list[int], allowed: list[int],
                    twos: list[int], lifted: int, cells: list[int]) -> list[int]:
    """Candidate squares touching at most one kingdom once the leader on `lifted` is
    taken off the board (`allowed`: those touching at most one now; `twos`: those
    touching two). Only squares next to that leader's kingdom can change: it may stop
    being a kingdom (a square next to 2 may then touch 1) or fall apart into several
    (a square next to 1 may then touch 2)."""
    labels = reg.labels
    region = labels[lifted]
    near_twos = [sq for sq in twos if any(labels[n] == region for n in NEIGHBORS[sq])]
    others = len(reg.leaders[region]) - 1  # leaders left in it
    if others == 0:  # no longer a kingdom: its neighbours next to 2 kingdoms touch 1
        return sorted(allowed + near_twos) if near_twos else allowed
    if others == 1 and not near_twos:  # at most one kingdom is left of it
        return allowed
    if stays_whole(labels, lifted):
        if not near_twos:
            return allowed
        piece_of = None  # one piece, numbered 0
        is_kingdom = [True]
    else:
        piece_of, is_kingdom = _split_without(reg, lifted, cells)
    changing = near_twos if sum(is_kingdom) <= 1 else [sq for sq in candidates if 1 <= touching[sq] <= 2]
    verdicts = {}
    for sq in changing:
        around = [n for n in NEIGHBORS[sq] if labels[n] == region]
        if around:
            pieces = {0 if piece_of is None else piece_of[n] for n in around if n != lifted}
            verdicts[sq] = touching[sq] - 1 + sum(is_kingdom[piece] for piece in pieces) <= 1
    if all(verdict == (touching[sq] <= 1) for sq, verdict in verdicts.items()):
        return allowed
    return [sq for sq in candidates if verdicts.get(sq, touching[sq] <= 1)]


def _split_without(reg: Regions, lifted: int, cells: list[int]) -> tuple[dict[int, int], list[bool]]:
    """The pieces the region of `lifted` falls into when that square empties: the
    piece number of each of its squares, and whether each piece is a kingdom."""
    labels = reg.labels
    rid = labels[lifted]
    piece_of: dict[int, int] = {lifted: -1}
    is_kingdom: list[bool] = []
    for start in reg.members[rid]:
        if start in piece_of:
            continue
        piece = len(is_kingdom)
        piece_of[start] = piece
        stack = [start]
        has_leader = False
        while stack:
            sq = stack.pop()
            if cells[sq] >= LEADER:
                has_leader = True
            for n in NEIGHBORS[sq]:
                if labels[n] == rid and n not in piece_of:
                    piece_of[n] = piece
                    stack.append(n)
        is_kingdom.append(has_leader)
    return piece_of, is_kingdom


@lru_cache(maxsize=1024)
def _swap_moves(hand: tuple[int, ...]) -> tuple[dict, ...]:
    """Every non-empty choice of tiles from `hand`."""
    return tuple(
        _listed(type="swap_tiles", tiles=ReadOnlyDict((COLORS[c], n) for c, n in enumerate(counts) if n))
        for counts in product(*(range(n + 1) for n in hand))
        if any(counts)
    )


def support_moves(s: State, seat: int) -> list[dict]:
    return [_listed(type="commit_support", count=n) for n in support_range(s, seat)]


def war_order_moves(s: State) -> list[dict]:
    assert s.wars is not None  # listed only while wars wait to be fought
    return [_listed(type="choose_war", color=COLORS[c]) for c in s.wars["colors"]]


def monument_moves(s: State) -> list[dict]:
    moves: list[dict] = [
        _listed(type="build_monument", monument=MONUMENT_NAMES[m], square=SQUARE_NAMES[sq])
        for m, sq in monument_options(s)
    ]
    moves.append(_listed(type="decline_monument"))
    return moves


def building_moves(s: State) -> list[dict]:
    moves: list[dict] = [_listed(type="place_building", square=SQUARE_NAMES[sq]) for sq in building_options(s)]
    moves.append(_listed(type="decline_building"))
    return moves


def ziggurat_moves(s: State) -> list[dict]:
    moves: list[dict] = [_listed(type="build_ziggurat", square=SQUARE_NAMES[sq]) for sq in ziggurat_options(s)]
    moves.append(_listed(type="decline_ziggurat"))
    return moves


def draw_moves(s: State) -> list[dict]:
    """One face-up tile of each colour shown, or 1 to all the owed tiles blind."""
    drawing = drawing_seat(s)
    assert drawing is not None  # listed only while a seat draws
    owed = drawing[1]
    moves: list[dict] = [_listed(type="take_display_tile", color=COLORS[c]) for c in range(4) if s.display[c]]
    moves.extend(_listed(type="draw_blind", count=n) for n in range(1, min(owed, sum(s.bag)) + 1))
    return moves


def treasure_moves(s: State, seat: int) -> list[dict]:
    return [
        _listed(type="take_treasure", square=SQUARE_NAMES[sq])
        for sq in treasure_choices(s).get(seat, ())
    ]


def ziggurat_point_moves() -> list[dict]:
    return [_listed(type="take_ziggurat_point", color=c) for c in COLORS]
