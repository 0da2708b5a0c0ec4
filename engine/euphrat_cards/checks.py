"""Consistency checks of a loaded state, so that a hand-written position (a test or a
bug report) that no game could reach is refused at once, saying what is wrong.

Each check returns a message or None; `check_state` returns the first one found.
"""
from __future__ import annotations

from engine.euphrat_cards.cards import (
    COLUMN_LETTERS,
    COLUMNS,
    GAP_BASE,
    HAND_SIZE,
    LEADERS,
    MAX_UNDER,
    TREASURE,
    place_name,
)
from engine.euphrat_cards.state import State
from engine.euphrat_cards.table import leaders_in, region_span, under

OFFER_KINDS = ("score", "ship", "treasure", "end_vote")
ENDINGS = ("deck", "treasures", "agreed")


def check_state(s: State) -> str | None:
    for check in (_turn, _hands, _columns, _union, _conflict, _kingdom_leaders, _offers, _finished):
        problem = check(s)
        if problem:
            return problem
    return None


def _seat_problem(s: State, what: str, seat) -> str | None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < s.players:
        return f"{what} is seat {seat}; seats are 0 to {s.players - 1}"
    return None


def _turn(s: State) -> str | None:
    if not 0 <= s.active < s.players:
        return f"turn.active is {s.active}; seats are 0 to {s.players - 1}"
    if not 0 <= s.actions_left <= 2:
        return f"turn.actions_left is {s.actions_left}; it is 0, 1 or 2"
    return None


def _hands(s: State) -> str | None:
    for seat, hand in enumerate(s.hands):
        if sum(hand) > HAND_SIZE:
            return f"seat {seat} holds {sum(hand)} cards; a hand holds at most {HAND_SIZE}"
    return None


def _columns(s: State) -> str | None:
    for column, cards in enumerate(s.columns):
        letter = COLUMN_LETTERS[column]
        if under(cards) > MAX_UNDER:
            return f"column {letter} holds {under(cards)} cards under its head; at most {MAX_UNDER}"
        if TREASURE in cards[1:]:
            row = cards.index(TREASURE, 1)
            return f"column {letter} holds a treasure at {letter}{row}; a treasure is only ever a column's head"
    return None


def _union(s: State) -> str | None:
    if s.union is not None and s.gaps[s.union["gap"]] < 0:
        return f"the union's gap {place_name(GAP_BASE + s.union['gap'])} holds no card"
    return None


def _conflict(s: State) -> str | None:
    conflict = s.conflict
    if conflict is None:
        return None
    if conflict.get("kind") not in ("internal", "external"):
        return "conflict.kind is 'internal' or 'external'"
    if conflict["kind"] == "external" and s.union is None:
        return "an external conflict is fought only during a union (`union` names its gap)"
    color = conflict["color"]
    for side in ("attacker", "defender"):
        seat, place = conflict[side], conflict[side + "_leader"]
        problem = _seat_problem(s, f"conflict.{side}", seat)
        if problem:
            return problem
        if place is None or s.leaders[seat][color] != place:
            where = "nowhere" if place is None else place_name(place)
            return f"the {side}'s leader is not on {where}: the {side} (seat {seat}) needs its {LEADERS[color]} there"
        commit = conflict[side + "_commit"]
        if commit is not None and (isinstance(commit, bool) or not isinstance(commit, int) or commit < 0):
            return f"conflict.{side}_commit is a count or null"
    if conflict["attacker"] == conflict["defender"]:
        return "a conflict is fought between two seats"
    if conflict["attacker_commit"] is None and conflict["defender_commit"] is not None:
        return "the defender commits only after the attacker"
    return None


def _kingdom_leaders(s: State) -> str | None:
    """Two leaders of one colour share a kingdom only while they fight: the running
    conflict's colour, or a colour the union still has to fight."""
    fought = set(s.union["colors"]) if s.union is not None else set()
    if s.conflict is not None:
        fought.add(s.conflict["color"])
    column = 0
    while column < COLUMNS:
        span = region_span(s, column)
        seen: dict[int, tuple[int, int]] = {}  # colour -> (seat, place) of its first leader
        for seat, color, place in leaders_in(s, span):
            if color in seen and color not in fought:
                first_seat, first = seen[color]
                return (f"seat {first_seat}'s {LEADERS[color]} on {place_name(first)} and "
                        f"seat {seat}'s {LEADERS[color]} on {place_name(place)} stand in one kingdom; two "
                        "leaders of one colour share a kingdom only during their conflict")
            seen[color] = seat, place
        column = span[1] + 1
    return None


def _offers(s: State) -> str | None:
    for offer in s.offers:
        if offer.get("kind") not in OFFER_KINDS:
            return f"an offer of kind {offer.get('kind')!r}; kinds: {', '.join(OFFER_KINDS)}"
        seat = offer.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < s.players:
            return f"an offer to seat {seat}; seats are 0 to {s.players - 1}"
    return None


def _finished(s: State) -> str | None:
    if s.finished is not None and s.finished not in ENDINGS:
        return f"finished.reason is {s.finished!r}; one of: {', '.join(ENDINGS)}"
    return None
