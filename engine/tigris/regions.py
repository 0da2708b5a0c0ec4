"""Regions and kingdoms: connected groups of tiles and leaders (orthogonal).

Labels are computed once per state and cached on it: every legal-move listing and
every rule check reads them. Catastrophes and empty squares separate regions.
"""
from __future__ import annotations

from engine.tigris.board import NEIGHBORS, RINGS, SQUARES
from engine.tigris.state import CATASTROPHE, EMPTY, FACE_UP, LEADER, RED, State, board_strings_after


class Regions:
    """Region label per square (negative: in no region), members, and leaders per region."""

    __slots__ = ("labels", "members", "leaders")

    def __init__(self, cells: list[int]):
        # -1: a tile or leader not yet labelled; -2: empty or catastrophe, in no region.
        labels = [-1 if code != EMPTY and code != CATASTROPHE else -2 for code in cells]
        members: list[list[int]] = []
        leaders: list[list[int]] = []
        for start in [sq for sq in range(SQUARES) if labels[sq] == -1]:
            if labels[start] != -1:
                continue
            rid = len(members)
            labels[start] = rid
            group = [start]
            stack = [start]
            while stack:
                for n in NEIGHBORS[stack.pop()]:
                    if labels[n] == -1:
                        labels[n] = rid
                        group.append(n)
                        stack.append(n)
            members.append(group)
            leaders.append([sq for sq in group if cells[sq] >= LEADER])
        self.labels = labels
        self.members = members
        self.leaders = leaders

    def joined(self, sq: int, cells: list[int]) -> Regions:
        """The regions once the empty square `sq` holds what `cells[sq]` now holds:
        it joins the regions next to it into one (the largest keeps its id; the
        others are left empty), cheaper than labelling the board again."""
        labels = self.labels[:]
        members, leaders = self.members[:], self.leaders[:]
        near = []
        for n in NEIGHBORS[sq]:
            rid = labels[n]
            if rid >= 0 and rid not in near:
                near.append(rid)
        if near:
            keep = max(near, key=lambda rid: len(members[rid]))
            group, group_leaders = members[keep] + [sq], leaders[keep][:]
            for rid in near:
                if rid != keep:
                    for member in members[rid]:
                        labels[member] = keep
                    group.extend(members[rid])
                    group_leaders.extend(leaders[rid])
                    members[rid], leaders[rid] = [], []
        else:
            keep = len(members)
            group, group_leaders = [sq], []
            members.append(group)
            leaders.append(group_leaders)
        if cells[sq] >= LEADER:
            group_leaders.append(sq)
        labels[sq] = keep
        members[keep], leaders[keep] = group, group_leaders
        new = Regions.__new__(Regions)
        new.labels, new.members, new.leaders = labels, members, leaders
        return new

    def without(self, squares: list[int], cells: list[int]) -> Regions:
        """The regions once `squares`, which held tiles or leaders, hold nothing or a
        catastrophe (as `cells` now shows): only the regions they were in are labelled
        again, and a region surely left whole (`stays_whole`) just loses the square."""
        labels = self.labels[:]
        members, leaders = self.members[:], self.leaders[:]
        squares = [sq for sq in squares if labels[sq] >= 0]
        if len(squares) == 1 and stays_whole(labels, squares[0]):
            sq = squares[0]
            rid = labels[sq]
            labels[sq] = -2
            members[rid] = [m for m in members[rid] if m != sq]
            leaders[rid] = [m for m in leaders[rid] if m != sq]
        else:
            touched = []
            for sq in squares:
                if labels[sq] not in touched:
                    touched.append(labels[sq])
                labels[sq] = -2
            for rid in touched:
                remaining = [m for m in members[rid] if labels[m] == rid]
                for m in remaining:
                    labels[m] = -1
                members[rid], leaders[rid] = [], []
                for start in remaining:
                    if labels[start] != -1:
                        continue
                    piece = rid if not members[rid] else len(members)
                    if piece != rid:
                        members.append([])
                        leaders.append([])
                    labels[start] = piece
                    group = [start]
                    stack = [start]
                    while stack:
                        for n in NEIGHBORS[stack.pop()]:
                            if labels[n] == -1:
                                labels[n] = piece
                                group.append(n)
                                stack.append(n)
                    members[piece] = group
                    leaders[piece] = [m for m in group if cells[m] >= LEADER]
        new = Regions.__new__(Regions)
        new.labels, new.members, new.leaders = labels, members, leaders
        return new

    def kingdoms_next_to(self, sq: int) -> set[int]:
        """Ids of the kingdoms (regions with a leader) orthogonally next to `sq`."""
        labels, leaders = self.labels, self.leaders
        found = set()
        for n in NEIGHBORS[sq]:
            rid = labels[n]
            if rid >= 0 and leaders[rid]:
                found.add(rid)
        return found


def _ring_stays_whole(inside: list[bool]) -> bool:
    """Whether a region stays in one piece when a square empties, from which of the 8
    squares around it (N, NE, E, SE, S, SW, W, NW) it holds: surely so when they form
    one run in the ring (joined through the ring) reaching every orthogonal neighbour
    in the region."""
    runs_with_neighbour = 0
    for i in range(8):
        if inside[i] and not inside[i - 1]:  # a run starts here: does it touch a neighbour?
            j, touches = i, False
            while inside[j % 8] and j < i + 8:
                touches = touches or j % 2 == 0
                j += 1
            runs_with_neighbour += touches
    return all(inside) or runs_with_neighbour <= 1


# By the 8-bit mask of the ring squares in the region (bit i: the i-th of RINGS).
_STAYS_WHOLE = tuple(_ring_stays_whole([bool(mask >> i & 1) for i in range(8)]) for mask in range(256))
# Per square, (ring square, its bit) for the ring squares on the board.
_RING_BITS = tuple(tuple((n, 1 << i) for i, n in enumerate(ring) if n >= 0) for ring in RINGS)


def stays_whole(labels: list[int], lifted: int) -> bool:
    """Whether the region of `lifted` surely stays in one piece when that square
    empties (`_ring_stays_whole`)."""
    region = labels[lifted]
    return _STAYS_WHOLE[sum([bit for n, bit in _RING_BITS[lifted] if labels[n] == region])]


def regions(state: State) -> Regions:
    cached = state.cache.get("regions")
    if cached is None:
        cached = state.cache["regions"] = Regions(state.cells)
    return cached


def kingdoms_touching(state: State) -> list[int]:
    """Per square, how many distinct kingdoms have a square orthogonally next to it."""
    cached = state.cache.get("kingdoms_touching")
    if cached is None:
        cached = state.cache["kingdoms_touching"] = _count_kingdoms_touching(regions(state))
    return cached


def _count_kingdoms_touching(reg: Regions) -> list[int]:
    # Walking the kingdoms' squares once is cheaper than looking round every square.
    counts = [0] * SQUARES
    last = [-1] * SQUARES
    for rid, group_leaders in enumerate(reg.leaders):
        if not group_leaders:
            continue
        for sq in reg.members[rid]:
            for n in NEIGHBORS[sq]:
                if last[n] != rid:
                    last[n] = rid
                    counts[n] += 1
    return counts


def occupied(state: State, sq: int) -> None:
    """Square `sq`, empty before, now holds a tile or leader: forget what was derived
    from the old cells, carrying the regions over (joined) when they were known."""
    cache, cells = state.cache, state.cells
    state.cache = {}
    if "board_strings" in cache:
        state.cache["board_strings"] = board_strings_after(cache["board_strings"], state, (sq,))
    if "regions" in cache:
        old = cache["regions"]
        state.cache["regions"] = old.joined(sq, cells)
        if "kingdoms_touching" in cache:
            touching = _touching_after_join(cache["kingdoms_touching"], old, sq, cells)
            if touching is not None:
                state.cache["kingdoms_touching"] = touching
    if "temple_neighbors" in cache:
        found = [n for n in cache["temple_neighbors"] if n != sq]
        if cells[sq] == FACE_UP + RED:
            river = state.board_map.river
            found = sorted({*found, *(n for n in NEIGHBORS[sq] if cells[n] == EMPTY and not river[n])})
        state.cache["temple_neighbors"] = found


def _touching_after_join(touching: list[int], old: Regions, sq: int, cells: list[int]) -> list[int] | None:
    """`kingdoms_touching` once the empty square `sq` holds `cells[sq]`, joining the
    regions next to it; None (count afresh) when it joins two kingdoms."""
    labels, leaders = old.labels, old.leaders
    near = {labels[n] for n in NEIGHBORS[sq] if labels[n] >= 0}
    kingdoms = [rid for rid in near if leaders[rid]]
    if len(kingdoms) >= 2:
        return None
    if not kingdoms and cells[sq] < LEADER:
        return touching  # no kingdom before, none after
    added = [sq]  # the squares joining a kingdom (or making one)
    for rid in near:
        if not leaders[rid]:
            added.extend(old.members[rid])
    kingdom = kingdoms[0] if kingdoms else None
    touching = touching[:]
    seen = set()
    for member in added:
        for n in NEIGHBORS[member]:
            if n in seen:
                continue
            seen.add(n)
            if kingdom is None or not any(labels[m] == kingdom for m in NEIGHBORS[n]):
                touching[n] += 1
    return touching


def vacate(state: State, squares: list[int], code: int = EMPTY) -> None:
    """Take what stands on `squares` off the board, leaving `code` (empty, or a
    catastrophe) there; the facts drawn from the old cells are carried over: the
    regions split where needed, the squares next to temples unless a temple went."""
    cells, cache = state.cells, state.cache
    temple = FACE_UP + RED
    temple_lost = any(cells[sq] == temple for sq in squares)
    for sq in squares:
        cells[sq] = code
    state.cache = {}
    if "board_strings" in cache:
        state.cache["board_strings"] = board_strings_after(cache["board_strings"], state, squares)
    if "regions" in cache:
        old = cache["regions"]
        state.cache["regions"] = old.without(squares, cells)
        if "kingdoms_touching" in cache:
            touching = _touching_after_removal(cache["kingdoms_touching"], old, squares)
            if touching is not None:
                state.cache["kingdoms_touching"] = touching
    if "temple_neighbors" in cache and not temple_lost:
        found = cache["temple_neighbors"]
        if code == EMPTY:
            river = state.board_map.river
            opened = [sq for sq in squares if not river[sq] and next_to_temple(cells, sq)]
            if opened:
                found = sorted({*found, *opened})
        else:
            found = [n for n in found if n not in squares]
        state.cache["temple_neighbors"] = found


def _touching_after_removal(touching: list[int], old: Regions, squares: list[int]) -> list[int] | None:
    """`kingdoms_touching` once `squares` are emptied; None (count afresh) unless it is
    one square, out of every kingdom or leaving its kingdom in one piece."""
    labels, leaders = old.labels, old.leaders
    in_kingdoms = [sq for sq in squares if labels[sq] >= 0 and leaders[labels[sq]]]
    if not in_kingdoms:
        return touching  # pieces of regions with no leader have none
    if len(squares) != 1 or not stays_whole(labels, squares[0]):
        return None
    sq = squares[0]
    rid = labels[sq]
    touching = touching[:]
    if any(leader != sq for leader in leaders[rid]):
        # Still a kingdom: squares next to it only through `sq` count one less.
        for n in NEIGHBORS[sq]:
            if not any(labels[m] == rid and m != sq for m in NEIGHBORS[n]):
                touching[n] -= 1
    else:
        # No longer a kingdom: every square next to it counts one less.
        seen = set()
        for member in old.members[rid]:
            for n in NEIGHBORS[member]:
                if n not in seen:
                    seen.add(n)
                    touching[n] -= 1
    return touching


def regions_without(state: State, sq: int) -> Regions:
    """Regions as if square `sq` were empty (original kingdoms during a war)."""
    key = ("without", sq)
    cached = state.cache.get(key)
    if cached is None:
        cells = state.cells[:]
        cells[sq] = EMPTY
        cached = state.cache[key] = Regions(cells)
    return cached


def leader_code(cells: list[int], sq: int) -> tuple[int, int]:
    """(seat, colour) of the leader on `sq`."""
    return divmod(cells[sq] - LEADER, 4)


def next_to_temple(cells: list[int], sq: int) -> bool:
    """Whether a face-up red temple is orthogonally next to `sq`."""
    temple = FACE_UP + RED
    for n in NEIGHBORS[sq]:
        if cells[n] == temple:
            return True
    return False


def adjacent_temples(cells: list[int], sq: int) -> int:
    temple = FACE_UP + RED
    return sum(1 for n in NEIGHBORS[sq] if cells[n] == temple)
