"""Revolts and wars: who fights, support, resolution, and the war sequence of a tile.

A conflict dict (kept in `state.conflict`, replaced rather than edited) names the
colour, both seats and both leaders' squares, and each side's committed tiles
(`None` until committed). Wars of one tile are tracked in `state.wars`.
"""
from __future__ import annotations

from collections.abc import Sequence

from engine.tigris.board import NEIGHBORS, SQUARE_NAMES
from engine.tigris.regions import adjacent_temples, leader_code, regions, regions_without, vacate
from engine.tigris.scoring import add_points
from engine.tigris.state import COLORS, FACE_UP, LEADER, LEADERS, RED, State


def start_revolt(s: State, placed_sq: int, defender_sq: int, events: list) -> None:
    attacker, color = leader_code(s.cells, placed_sq)
    defender, _ = leader_code(s.cells, defender_sq)
    s.conflict = {
        "kind": "revolt", "color": color, "attacker": attacker, "defender": defender,
        "attacker_leader": placed_sq, "defender_leader": defender_sq,
        "attacker_commit": None, "defender_commit": None,
    }
    events.append({
        "type": "revolt_started", "color": COLORS[color], "attacker": attacker,
        "defender": defender, "square": SQUARE_NAMES[defender_sq],
    })


def declare_wars(s: State, sq: int, events: list) -> None:
    """A tile on `sq` joined two kingdoms: record which colours are in conflict."""
    colors = war_colors(s, sq)
    if colors:
        s.wars = {"square": sq, "owner": s.active, "colors": colors}
        events.append({
            "type": "kingdoms_united", "seat": s.active, "square": SQUARE_NAMES[sq],
            "colors": [COLORS[c] for c in colors],
        })


def war_colors(s: State, sq: int) -> list[int]:
    """Colours with two leaders in the kingdom that holds the unification square."""
    reg = regions(s)
    seen = [0, 0, 0, 0]
    for leader_sq in reg.leaders[reg.labels[sq]]:
        seen[leader_code(s.cells, leader_sq)[1]] += 1
    return [c for c in range(4) if seen[c] >= 2]


def start_war(s: State, color: int, events: list) -> None:
    """Begin the war of `color` over the current unification square."""
    wars = s.wars
    assert wars is not None  # a war starts only while kingdoms are united
    reg = regions(s)
    fighters = [
        sq for sq in reg.leaders[reg.labels[wars["square"]]]
        if leader_code(s.cells, sq)[1] == color
    ]
    seats = {leader_code(s.cells, sq)[0]: sq for sq in fighters}
    attacker = s.active
    while attacker not in seats:
        attacker = (attacker + 1) % s.players
    defender = next(seat for seat in seats if seat != attacker)
    s.wars = {**wars, "colors": [c for c in wars["colors"] if c != color]}
    s.conflict = {
        "kind": "war", "color": color, "attacker": attacker, "defender": defender,
        "attacker_leader": seats[attacker], "defender_leader": seats[defender],
        "attacker_commit": None, "defender_commit": None,
    }
    events.append({
        "type": "war_started", "color": COLORS[color], "attacker": attacker,
        "defender": defender,
    })


def base_strength(s: State, side: str) -> int:
    """A side's strength before committed tiles: its supporters on the board."""
    conflict = s.conflict
    assert conflict is not None
    leader_sq = conflict[side + "_leader"]
    if conflict["kind"] == "revolt":
        return adjacent_temples(s.cells, leader_sq)
    return len(war_supporters(s, leader_sq, conflict["color"]))


def war_supporters(s: State, leader_sq: int, color: int) -> list[int]:
    """Face-up tiles of `color` in the leader's original kingdom."""
    assert s.wars is not None  # supporters are counted during a war
    reg = regions_without(s, s.wars["square"])
    tile = FACE_UP + color
    cells = s.cells
    return [sq for sq in reg.members[reg.labels[leader_sq]] if cells[sq] == tile]


def support_color(conflict: dict) -> int:
    """The colour of the hand tiles a side commits: revolts are fought with temples
    whatever the leaders' colour, wars with tiles of the leaders' colour."""
    return RED if conflict["kind"] == "revolt" else conflict["color"]


def support_range(s: State, seat: int) -> Sequence[int]:
    """How many tiles `seat` may commit to the current conflict now."""
    conflict = s.conflict
    assert conflict is not None
    side = "attacker" if conflict["attacker_commit"] is None else "defender"
    in_hand = s.hands[seat][support_color(conflict)]
    if not s.options.get("english_variant"):
        return range(in_hand + 1)
    attack = base_strength(s, "attacker")
    defend = base_strength(s, "defender")
    if side == "attacker":
        # The attacker may commit only if his total then exceeds the defender's.
        least = max(1, defend - attack + 1)
        return range(0, 1) if least > in_hand else _zero_or(range(least, in_hand + 1))
    # The defender may commit only to reach an exact tie.
    gap = attack + conflict["attacker_commit"] - defend
    return range(0, 1) if not 1 <= gap <= in_hand else _zero_or(range(gap, gap + 1))


def _zero_or(extra: range) -> list[int]:
    return [0, *extra]


def commit_support(s: State, seat: int, count: int, events: list) -> None:
    conflict = s.conflict
    assert conflict is not None
    side = "attacker" if conflict["attacker_commit"] is None else "defender"
    color = support_color(conflict)
    s.hands[seat][color] -= count
    s.discarded += count
    s.conflict = {**conflict, side + "_commit": count}
    events.append({
        "type": "support_committed", "seat": seat, "side": side,
        "color": COLORS[color], "count": count,
    })


def resolve_conflict(s: State, events: list) -> None:
    """Both sides have committed: compare, remove the loser, score the winner."""
    conflict = s.conflict
    assert conflict is not None
    color = conflict["color"]
    attack = base_strength(s, "attacker") + conflict["attacker_commit"]
    defend = base_strength(s, "defender") + conflict["defender_commit"]
    winner, loser = ("attacker", "defender") if attack > defend else ("defender", "attacker")
    winner_seat, loser_seat = conflict[winner], conflict[loser]
    loser_sq = conflict[loser + "_leader"]
    removed: list[int] = []
    if conflict["kind"] == "war":
        removed = war_losses(s, loser_sq, color)
    vacate(s, [loser_sq, *removed])
    s.leaders[loser_seat][color] = -1
    s.discarded += len(removed)
    s.conflict = None
    points_color = RED if conflict["kind"] == "revolt" else color
    events.append({
        "type": "conflict_resolved", "kind": conflict["kind"], "color": COLORS[color],
        "winner": winner_seat, "loser": loser_seat, "attacker_strength": attack,
        "defender_strength": defend, "leader_returned": LEADERS[color],
        "removed": [SQUARE_NAMES[sq] for sq in removed],
    })
    add_points(s, winner_seat, points_color, 1 + len(removed), conflict["kind"], events)


def war_losses(s: State, loser_sq: int, color: int) -> list[int]:
    """The loser's supporters that leave the board (priest-war exception applied; a
    tile under a civilization building is never removed)."""
    supporters = [sq for sq in war_supporters(s, loser_sq, color) if sq not in s.buildings]
    if color != RED:
        return supporters
    cells, treasures = s.cells, s.treasures
    kept = set()
    for sq in supporters:
        if sq in treasures:
            kept.add(sq)
            continue
        for n in NEIGHBORS[sq]:
            if cells[n] >= LEADER and n != loser_sq:
                kept.add(sq)
                break
    return [sq for sq in supporters if sq not in kept]
