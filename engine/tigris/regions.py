"""Regions and kingdoms: connected groups of tiles and leaders (orthogonal).

Labels are computed once per state and cached on it: every legal-move listing and
every rule check reads them. Catastrophes and empty squares separate regions.
"""
from __future__ import annotations

from engine.tigris.board import NEIGHBORS, SQUARES
from engine.tigris.state import CATASTROPHE, EMPTY, FACE_UP, LEADER, RED, State


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

    def joined(self, sq: int, cells: list[int]) -> "Regions":
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

    def kingdoms_next_to(self, sq: int) -> set[int]:
        """Ids of the kingdoms (regions with a leader) orthogonally next to `sq`."""
        labels, leaders = self.labels, self.leaders
        found = set()
        for n in NEIGHBORS[sq]:
            rid = labels[n]
            if rid >= 0 and leaders[rid]:
                found.add(rid)
        return found


def regions(state: State) -> Regions:
    cached = state.cache.get("regions")
    if cached is None:
        cached = state.cache["regions"] = Regions(state.cells)
    return cached


def occupied(state: State, sq: int) -> None:
    """Square `sq`, empty before, now holds a tile or leader: forget what was derived
    from the old cells, carrying the regions over (joined) when they were known."""
    cache, cells = state.cache, state.cells
    state.cache = {}
    if "regions" in cache:
        state.cache["regions"] = cache["regions"].joined(sq, cells)
    if "temple_neighbors" in cache:
        found = [n for n in cache["temple_neighbors"] if n != sq]
        if cells[sq] == FACE_UP + RED:
            river = state.board_map.river
            found = sorted({*found, *(n for n in NEIGHBORS[sq] if cells[n] == EMPTY and not river[n])})
        state.cache["temple_neighbors"] = found


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
