"""Listing the legal moves of a seat. Hot path: one region labelling per state,
precomputed neighbours and square names, plain loops. The moves themselves are made
once, read-only (`ReadOnlyDict`), and shared by every listing."""
from __future__ import annotations

from functools import lru_cache
from itertools import product

from engine.core import ReadOnlyDict
from engine.tigris.actions import catastrophe_squares
from engine.tigris.board import NEIGHBORS, SQUARE_NAMES, SQUARES
from engine.tigris.buildings import building_options
from engine.tigris.conflicts import support_range
from engine.tigris.regions import Regions, regions, stays_whole
from engine.tigris.state import (
    BLACK, BLUE, COLORS, EMPTY, FACE_UP, GREEN, LEADER, LEADERS, MONUMENT_NAMES, RED, State,
)
from engine.tigris.turn import monument_options, treasure_choices
from engine.tigris.open_tiles import drawing_seat
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


def _listed(**fields) -> ReadOnlyDict:
    return ReadOnlyDict(fields)


def action_moves(s: State, seat: int) -> list[dict]:
    reg = regions(s)
    moves: list[dict] = []
    _tile_moves(s, seat, reg, moves)
    _leader_moves(s, seat, reg, moves)
    if s.catastrophes[seat]:
        moves.extend([CATASTROPHE_MOVES[sq] for sq in catastrophe_squares(s)])
    moves.extend(_swap_moves(tuple(s.hands[seat])))
    moves.append(PASS_MOVE)
    return moves


def _tile_moves(s: State, seat: int, reg: Regions, out: list) -> None:
    hand = s.hands[seat]
    land = [TILE_MOVES[c] for c in (RED, GREEN, BLACK) if hand[c]]
    water = [TILE_MOVES[BLUE]] if hand[BLUE] else []
    river = s.board_map.river
    touching, cells = _kingdoms_touching(s, reg), s.cells
    out.extend([
        table[sq]
        for sq in range(SQUARES) if cells[sq] == EMPTY and touching[sq] < 3
        for table in (water if river[sq] else land)
    ])


def _kingdoms_touching(s: State, reg: Regions) -> list[int]:
    """Per square, how many distinct kingdoms lie next to it: walking the kingdoms'
    squares once is cheaper than looking round every empty square."""
    cached = s.cache.get("kingdoms_touching")
    if cached is None:
        cached = [0] * SQUARES
        last = [-1] * SQUARES
        for rid, group_leaders in enumerate(reg.leaders):
            if not group_leaders:
                continue
            for sq in reg.members[rid]:
                for n in NEIGHBORS[sq]:
                    if last[n] != rid:
                        last[n] = rid
                        cached[n] += 1
        s.cache["kingdoms_touching"] = cached
    return cached


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
    touching = _kingdoms_touching(s, reg)
    allowed = [sq for sq in candidates if touching[sq] <= 1]
    in_supply = [LEADER_MOVES[c] for c in (BLACK, RED, BLUE, GREEN) if row[c] < 0]
    if in_supply:
        out.extend([table[sq] for sq in allowed for table in in_supply])
    edge = None
    for color in (BLACK, RED, BLUE, GREEN):
        lifted = row[color]
        if lifted < 0:
            continue
        if edge is None:
            # Only squares next to 1 or 2 kingdoms can change when a leader leaves one.
            labels = reg.labels
            edge = [(sq, [labels[n] for n in NEIGHBORS[sq]]) for sq in candidates if 1 <= touching[sq] <= 2]
        out.append(WITHDRAW_MOVES[color])
        table = LEADER_MOVES[color]
        out.extend([table[sq] for sq in _leader_squares(reg, candidates, touching, allowed, edge, lifted, s.cells)])


def _leader_squares(reg: Regions, candidates: list[int], touching: list[int], allowed: list[int],
                    edge: list[tuple[int, list[int]]], lifted: int, cells: list[int]) -> list[int]:
    """Candidate squares touching at most one kingdom once the leader on `lifted` is
    taken off the board (`allowed`: those touching at most one now). Only squares next
    to that leader's kingdom can change: the kingdom may fall apart or stop being one."""
    labels = reg.labels
    region = labels[lifted]
    near = [sq for sq, near_labels in edge if region in near_labels]
    if not near:
        return allowed
    if stays_whole(labels, lifted):
        # Still one kingdom if another leader is in it, touched if not only through `lifted`.
        still_kingdom = len(reg.leaders[region]) > 1
        verdicts = {
            sq: touching[sq] - (not (still_kingdom and any(
                n != lifted and labels[n] == region for n in NEIGHBORS[sq]))) <= 1
            for sq in near
        }
    else:
        split, is_kingdom = _split_without(reg, lifted, cells, [bool(group) for group in reg.leaders])
        verdicts = {}
        for sq in near:
            pieces = {split[n] for n in NEIGHBORS[sq] if n != lifted and n in split}
            verdicts[sq] = touching[sq] - 1 + sum(is_kingdom[piece] for piece in pieces) <= 1
    if all(verdicts[sq] == (touching[sq] <= 1) for sq in near):
        return allowed
    return [sq for sq in candidates if verdicts.get(sq, touching[sq] <= 1)]


def _split_without(reg: Regions, lifted: int, cells: list[int], is_kingdom: list[bool]):
    """Relabel the region of `lifted` as it falls apart when that square empties.
    Returns the new labels of its squares and the kingdom flags extended for them."""
    labels = reg.labels
    rid = labels[lifted]
    split: dict[int, int] = {lifted: -1}
    is_kingdom = is_kingdom[:]
    for start in reg.members[rid]:
        if start in split:
            continue
        new_id = len(is_kingdom)
        split[start] = new_id
        stack = [start]
        has_leader = False
        while stack:
            sq = stack.pop()
            if cells[sq] >= LEADER:
                has_leader = True
            for n in NEIGHBORS[sq]:
                if labels[n] == rid and n not in split:
                    split[n] = new_id
                    stack.append(n)
        is_kingdom.append(has_leader)
    return split, is_kingdom


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
    return [_listed(type="choose_war", color=COLORS[c]) for c in s.wars["colors"]]


def monument_moves(s: State) -> list[dict]:
    moves = [
        _listed(type="build_monument", monument=MONUMENT_NAMES[m], square=SQUARE_NAMES[sq])
        for m, sq in monument_options(s)
    ]
    moves.append(_listed(type="decline_monument"))
    return moves


def building_moves(s: State) -> list[dict]:
    moves = [_listed(type="place_building", square=SQUARE_NAMES[sq]) for sq in building_options(s)]
    moves.append(_listed(type="decline_building"))
    return moves


def ziggurat_moves(s: State) -> list[dict]:
    moves = [_listed(type="build_ziggurat", square=SQUARE_NAMES[sq]) for sq in ziggurat_options(s)]
    moves.append(_listed(type="decline_ziggurat"))
    return moves


def draw_moves(s: State) -> list[dict]:
    """One face-up tile of each colour shown, or 1 to all the owed tiles blind."""
    owed = drawing_seat(s)[1]
    moves = [_listed(type="take_display_tile", color=COLORS[c]) for c in range(4) if s.display[c]]
    moves.extend(_listed(type="draw_blind", count=n) for n in range(1, min(owed, sum(s.bag)) + 1))
    return moves


def treasure_moves(s: State, seat: int) -> list[dict]:
    return [
        _listed(type="take_treasure", square=SQUARE_NAMES[sq])
        for sq in treasure_choices(s).get(seat, ())
    ]


def ziggurat_point_moves() -> list[dict]:
    return [_listed(type="take_ziggurat_point", color=c) for c in COLORS]
