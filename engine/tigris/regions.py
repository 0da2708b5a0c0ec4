"""Regions and kingdoms: connected groups of tiles and leaders (orthogonal).

Labels are computed once per state and cached on it: every legal-move listing and
every rule check reads them. Catastrophes and empty squares separate regions.
"""
from __future__ import annotations

from engine.tigris.board import NEIGHBORS, SQUARES
from engine.tigris.state import CATASTROPHE, EMPTY, FACE_UP, LEADER, RED, State


class Regions:
    """Region label per square (-1: not in a region), members, and leaders per region."""

    __slots__ = ("labels", "members", "leaders")

    def __init__(self, cells: list[int]):
        labels = [-1] * SQUARES
        members: list[list[int]] = []
        leaders: list[list[int]] = []
        for start in range(SQUARES):
            code = cells[start]
            if code == EMPTY or code == CATASTROPHE or labels[start] >= 0:
                continue
            rid = len(members)
            labels[start] = rid
            group = [start]
            stack = [start]
            while stack:
                sq = stack.pop()
                for n in NEIGHBORS[sq]:
                    if labels[n] < 0:
                        c = cells[n]
                        if c != EMPTY and c != CATASTROPHE:
                            labels[n] = rid
                            group.append(n)
                            stack.append(n)
            members.append(group)
            leaders.append([sq for sq in group if cells[sq] >= LEADER])
        self.labels = labels
        self.members = members
        self.leaders = leaders

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
