"""Internal and external conflicts: who fights, support, resolution, and the
sequence of external conflicts after a union.

A conflict dict (kept in `state.conflict`, replaced rather than edited) names its
kind, colour, both seats and both leaders' places, and each side's committed cards
(`None` until committed). A union in progress is `state.union`: the face-down gap
card's gap and the colours still to fight.
"""
from __future__ import annotations

from engine.euphrat_cards.cards import COLORS, GAP_BASE, LEADERS, RED, TREASURE, card_color, place_name
from engine.euphrat_cards.rewards import add_vp, offer_score
from engine.euphrat_cards.state import State, card_at
from engine.euphrat_cards.table import (
    color_places,
    leader_on,
    leaders_in,
    place_span,
    region_span,
    return_leader,
    take_card,
)


def start_internal(s: State, attacker: int, color: int, events: list) -> bool:
    """A leader just placed: fight the same-colour leader of its new kingdom, if any."""
    place = s.leaders[attacker][color]
    for seat, other_color, other_place in leaders_in(s, place_span(s, place)):
        if other_color == color and seat != attacker:
            _begin(s, "internal", color, attacker, place, seat, other_place, events)
            return True
    return False


def _begin(s: State, kind: str, color: int, attacker: int, attacker_place: int,
           defender: int, defender_place: int, events: list) -> None:
    s.conflict = {
        "kind": kind, "color": color, "attacker": attacker, "defender": defender,
        "attacker_leader": attacker_place, "defender_leader": defender_place,
        "attacker_commit": None, "defender_commit": None,
    }
    events.append({
        "type": "conflict_started", "kind": kind, "color": COLORS[color],
        "attacker": attacker, "defender": defender,
    })


def start_union(s: State, gap: int, events: list) -> None:
    colors = union_conflict_colors(s, gap)
    s.union = {"gap": gap, "colors": colors}
    events.append({
        "type": "kingdoms_united", "seat": s.active, "gap": place_name(GAP_BASE + gap),
        "conflicts": [COLORS[c] for c in colors],
    })


def union_conflict_colors(s: State, gap: int) -> list[int]:
    """Colours with two leaders in the kingdom holding the union's gap card."""
    seen = [0, 0, 0, 0]
    for _, color, _ in leaders_in(s, region_span(s, gap)):
        seen[color] += 1
    return [c for c in range(4) if seen[c] >= 2]


def start_external(s: State, color: int, events: list) -> None:
    """Begin the union's conflict of `color`: the active player attacks if involved,
    else the first involved player clockwise from him."""
    union = s.union
    assert union is not None  # external conflicts come from a union
    places = {
        seat: place for seat, c, place in leaders_in(s, region_span(s, union["gap"])) if c == color
    }
    attacker = s.active
    while attacker not in places:
        attacker = (attacker + 1) % s.players
    defender = next(seat for seat in places if seat != attacker)
    s.union = {**union, "colors": [c for c in union["colors"] if c != color]}
    _begin(s, "external", color, attacker, places[attacker], defender, places[defender], events)


def supporting_side(s: State) -> str:
    assert s.conflict is not None
    return "attacker" if s.conflict["attacker_commit"] is None else "defender"


def base_strength(s: State, side: str) -> int:
    """A side's strength before committed cards."""
    conflict = s.conflict
    assert conflict is not None
    place = conflict[side + "_leader"]
    if conflict["kind"] == "internal":
        card = card_at(s, place)
        assert card is not None  # a leader stands on a card
        return 1 if card_color(card) == RED else 0
    assert s.union is not None  # external conflicts come from a union
    span = place_span(s, place, ignore_gap=s.union["gap"])
    return len(color_places(s, span, conflict["color"]))


def support_color(conflict: dict) -> int:
    """Internal conflicts are fought with red cards, external ones with the leaders' colour."""
    return RED if conflict["kind"] == "internal" else conflict["color"]


def commit_support(s: State, seat: int, count: int, events: list) -> None:
    conflict = s.conflict
    assert conflict is not None
    side = supporting_side(s)
    color = support_color(conflict)
    s.hands[seat][color] -= count
    s.conflict = {**conflict, side + "_commit": count}
    events.append({
        "type": "support_committed", "seat": seat, "side": side,
        "color": COLORS[color], "count": count,
    })


def resolve_conflict(s: State, events: list) -> None:
    """Both sides have committed: compare, return the loser, reward the winner."""
    conflict = s.conflict
    assert conflict is not None
    color = conflict["color"]
    attack = base_strength(s, "attacker") + conflict["attacker_commit"]
    defend = base_strength(s, "defender") + conflict["defender_commit"]
    winner, loser = ("attacker", "defender") if attack > defend else ("defender", "attacker")
    winner_seat, loser_seat = conflict[winner], conflict[loser]
    taken: list[int] = []
    if conflict["kind"] == "external":
        taken = _loser_kingdom_cards(s, conflict[loser + "_leader"], color)
    return_leader(s, loser_seat, color, "conflict", events)
    s.conflict = None
    events.append({
        "type": "conflict_resolved", "kind": conflict["kind"], "color": COLORS[color],
        "winner": winner_seat, "loser": loser_seat, "attacker_strength": attack,
        "defender_strength": defend, "leader_returned": LEADERS[color],
        "cards_taken": [place_name(p) for p in taken],
    })
    won = [take_card(s, place) for place in sorted(taken, reverse=True)]
    committed = conflict["attacker_commit"] + conflict["defender_commit"]
    paid_in = support_color(conflict)
    if committed:
        won.append(paid_in)
        s.discard[paid_in] += committed - 1
    add_vp(s, winner_seat, won, f"{conflict['kind']} conflict", events)
    if not committed:
        offer_score(s, winner_seat, paid_in, f"{conflict['kind']} conflict")


def _loser_kingdom_cards(s: State, loser_place: int, color: int) -> list[int]:
    """Cards of `color` in the loser's original kingdom that go to the winner: not
    treasures, not cards bearing a leader (the loser's own leader stands on another
    colour, so its card is never among them)."""
    assert s.union is not None  # external conflicts come from a union
    span = place_span(s, loser_place, ignore_gap=s.union["gap"])
    return [
        place for place in color_places(s, span, color)
        if card_at(s, place) != TREASURE and leader_on(s, place) is None
    ]
