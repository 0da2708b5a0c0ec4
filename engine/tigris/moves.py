"""Listing the legal moves of a seat. Hot path: one region labelling per state,
precomputed neighbours and square names, plain loops."""
from __future__ import annotations

from itertools import product

from engine.tigris.actions import catastrophe_refusal
from engine.tigris.board import NEIGHBORS, SQUARE_NAMES, SQUARES
from engine.tigris.buildings import building_options
from engine.tigris.conflicts import support_range
from engine.tigris.regions import Regions, regions
from engine.tigris.state import (
    BLACK, BLUE, COLORS, EMPTY, FACE_UP, GREEN, LEADER, LEADERS, MONUMENT_NAMES, RED, State,
)
from engine.tigris.turn import monument_options, treasure_choices
from engine.tigris.open_tiles import drawing_seat
from engine.tigris.ziggurat import ziggurat_options


def action_moves(s: State, seat: int) -> list[dict]:
    reg = regions(s)
    moves: list[dict] = []
    _tile_moves(s, seat, reg, moves)
    _leader_moves(s, seat, reg, moves)
    if s.catastrophes[seat]:
        moves.extend(
            {"type": "place_catastrophe", "square": SQUARE_NAMES[sq]}
            for sq in range(SQUARES)
            if catastrophe_refusal(s, sq) is None
        )
    _swap_moves(s.hands[seat], moves)
    moves.append({"type": "pass"})
    return moves


def _tile_moves(s: State, seat: int, reg: Regions, out: list) -> None:
    hand = s.hands[seat]
    land = [COLORS[c] for c in (RED, GREEN, BLACK) if hand[c]]
    water = ["blue"] if hand[BLUE] else []
    river = s.board_map.river
    labels, leaders, cells = reg.labels, reg.leaders, s.cells
    for sq in range(SQUARES):
        if cells[sq] != EMPTY:
            continue
        colors = water if river[sq] else land
        if not colors:
            continue
        first = second = -1
        for n in NEIGHBORS[sq]:
            rid = labels[n]
            if rid >= 0 and rid != first and rid != second and leaders[rid]:
                if first < 0:
                    first = rid
                elif second < 0:
                    second = rid
                else:
                    break
        else:
            name = SQUARE_NAMES[sq]
            for color in colors:
                out.append({"type": "place_tile", "color": color, "square": name})


def _temple_neighbors(s: State) -> list[int]:
    """Empty land squares next to a face-up temple: where leaders may go."""
    cached = s.cache.get("temple_neighbors")
    if cached is None:
        cells, river = s.cells, s.board_map.river
        found = set()
        temple = FACE_UP + RED
        for sq in range(SQUARES):
            if cells[sq] == temple:
                for n in NEIGHBORS[sq]:
                    if cells[n] == EMPTY and not river[n]:
                        found.add(n)
        cached = s.cache["temple_neighbors"] = sorted(found)
    return cached


def _leader_moves(s: State, seat: int, reg: Regions, out: list) -> None:
    row = s.leaders[seat]
    candidates = _temple_neighbors(s)
    in_supply = [LEADERS[c] for c in (BLACK, RED, BLUE, GREEN) if row[c] < 0]
    if in_supply:
        for sq in _leader_squares(reg, candidates, -1, s.cells):
            name = SQUARE_NAMES[sq]
            for leader in in_supply:
                out.append({"type": "place_leader", "leader": leader, "square": name})
    for color in (BLACK, RED, BLUE, GREEN):
        sq = row[color]
        if sq < 0:
            continue
        leader = LEADERS[color]
        out.append({"type": "withdraw_leader", "leader": leader})
        for target in _leader_squares(reg, candidates, sq, s.cells):
            out.append({"type": "place_leader", "leader": leader, "square": SQUARE_NAMES[target]})


def _leader_squares(reg: Regions, candidates: list[int], lifted: int, cells: list[int]) -> list[int]:
    """Candidate squares touching at most one kingdom, with the leader on `lifted`
    (or none, -1) taken off the board first."""
    labels, leaders = reg.labels, reg.leaders
    split: dict[int, int] = {}
    is_kingdom = [bool(group) for group in leaders]
    if lifted >= 0:
        split, is_kingdom = _split_without(reg, lifted, cells, is_kingdom)
    found = []
    for sq in candidates:
        if sq == lifted:
            continue
        first = -1
        for n in NEIGHBORS[sq]:
            if n == lifted:
                continue
            rid = split.get(n, labels[n])
            if rid >= 0 and rid != first and is_kingdom[rid]:
                if first >= 0:
                    break
                first = rid
        else:
            found.append(sq)
    return found


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


def _swap_moves(hand: list[int], out: list) -> None:
    for counts in product(*(range(n + 1) for n in hand)):
        if any(counts):
            out.append({
                "type": "swap_tiles",
                "tiles": {COLORS[c]: n for c, n in enumerate(counts) if n},
            })


def support_moves(s: State, seat: int) -> list[dict]:
    return [{"type": "commit_support", "count": n} for n in support_range(s, seat)]


def war_order_moves(s: State) -> list[dict]:
    return [{"type": "choose_war", "color": COLORS[c]} for c in s.wars["colors"]]


def monument_moves(s: State) -> list[dict]:
    moves = [
        {"type": "build_monument", "monument": MONUMENT_NAMES[m], "square": SQUARE_NAMES[sq]}
        for m, sq in monument_options(s)
    ]
    moves.append({"type": "decline_monument"})
    return moves


def building_moves(s: State) -> list[dict]:
    moves = [{"type": "place_building", "square": SQUARE_NAMES[sq]} for sq in building_options(s)]
    moves.append({"type": "decline_building"})
    return moves


def ziggurat_moves(s: State) -> list[dict]:
    moves = [{"type": "build_ziggurat", "square": SQUARE_NAMES[sq]} for sq in ziggurat_options(s)]
    moves.append({"type": "decline_ziggurat"})
    return moves


def draw_moves(s: State) -> list[dict]:
    """One face-up tile of each colour shown, or 1 to all the owed tiles blind."""
    owed = drawing_seat(s)[1]
    moves = [{"type": "take_display_tile", "color": COLORS[c]} for c in range(4) if s.display[c]]
    moves.extend({"type": "draw_blind", "count": n} for n in range(1, min(owed, sum(s.bag)) + 1))
    return moves


def treasure_moves(s: State, seat: int) -> list[dict]:
    return [
        {"type": "take_treasure", "square": SQUARE_NAMES[sq]}
        for sq in treasure_choices(s).get(seat, ())
    ]
