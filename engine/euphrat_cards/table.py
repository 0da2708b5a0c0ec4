"""Reading and changing the table: regions, leaders in them, removing cards.

A region is a run of columns joined by filled gaps, so it is named by its first and
last column (`lo`, `hi`). Removing a card from a column closes the hole upward and
moves the leaders standing below it up with their cards.
"""
from __future__ import annotations

from engine.euphrat_cards.cards import (
    COLUMNS,
    GAP_BASE,
    LEADERS,
    ROW_SPAN,
    TREASURE,
    card_color,
    place_name,
)
from engine.euphrat_cards.state import State


def under(column: list[int]) -> int:
    """Cards under the column's head (the head is the treasure or what replaced it)."""
    return max(len(column) - 1, 0)


def place_column(place: int) -> int:
    """A column of the region a place belongs to (a gap's left neighbour)."""
    return place - GAP_BASE if place >= GAP_BASE else place // ROW_SPAN


def region_span(s: State, column: int, ignore_gap: int = -1) -> tuple[int, int]:
    """First and last column of the region holding `column`; `ignore_gap` is treated
    as empty (the face-down card of a union, for the original kingdoms)."""
    gaps = s.gaps
    lo = column
    while lo > 0 and gaps[lo - 1] >= 0 and lo - 1 != ignore_gap:
        lo -= 1
    hi = column
    while hi < COLUMNS - 1 and gaps[hi] >= 0 and hi != ignore_gap:
        hi += 1
    return lo, hi


def place_span(s: State, place: int, ignore_gap: int = -1) -> tuple[int, int]:
    return region_span(s, place_column(place), ignore_gap)


def in_span(place: int, span: tuple[int, int]) -> bool:
    lo, hi = span
    if place >= GAP_BASE:
        return lo <= place - GAP_BASE < hi
    return lo <= place // ROW_SPAN <= hi


def leaders_in(s: State, span: tuple[int, int]) -> list[tuple[int, int, int]]:
    """(seat, colour, place) of every leader standing in the region."""
    return [
        (seat, color, place)
        for seat, row in enumerate(s.leaders)
        for color, place in enumerate(row)
        if place >= 0 and in_span(place, span)
    ]


def leader_on(s: State, place: int) -> tuple[int, int] | None:
    """(seat, colour) of the leader standing on a place, if any."""
    for seat, row in enumerate(s.leaders):
        for color, where in enumerate(row):
            if where == place:
                return seat, color
    return None


def color_places(s: State, span: tuple[int, int], color: int) -> list[int]:
    """Places of the cards counting as `color` in the region (treasures count as red)."""
    lo, hi = span
    found: list[int] = []
    for column in range(lo, hi + 1):
        base = column * ROW_SPAN
        found.extend(base + row for row, card in enumerate(s.columns[column]) if card_color(card) == color)
    found.extend(GAP_BASE + g for g in range(lo, hi) if s.gaps[g] >= 0 and card_color(s.gaps[g]) == color)
    return found


def treasure_columns(s: State, span: tuple[int, int] = (0, COLUMNS - 1)) -> list[int]:
    lo, hi = span
    return [c for c in range(lo, hi + 1) if s.columns[c] and s.columns[c][0] == TREASURE]


def take_card(s: State, place: int) -> int:
    """Remove the card at `place` (no leader may stand on it) and close the hole."""
    if place >= GAP_BASE:
        card = s.gaps[place - GAP_BASE]
        s.gaps[place - GAP_BASE] = -1
        return card
    column, row = divmod(place, ROW_SPAN)
    card = s.columns[column].pop(row)
    for leader_row in s.leaders:
        for color, where in enumerate(leader_row):
            if where > place and where // ROW_SPAN == column and where < GAP_BASE:
                leader_row[color] = where - 1
    return card


def return_leader(s: State, seat: int, color: int, reason: str, events: list) -> None:
    place = s.leaders[seat][color]
    s.leaders[seat][color] = -1
    events.append({
        "type": "leader_returned", "seat": seat, "leader": LEADERS[color],
        "card": place_name(place), "reason": reason,
    })
