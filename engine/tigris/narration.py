"""Events and decisions in words, for emails and the game page. `names` maps a seat
to the player's display name."""
from __future__ import annotations

from engine.tigris.conflicts import base_strength
from engine.tigris.state import COLORS, LEADERS, TILE_NAMES, State


def _tile(color: str) -> str:
    return f"{color} {TILE_NAMES[COLORS.index(color)]}"


def _tiles(tiles: dict) -> str:
    return ", ".join(f"{n} {c}" for c, n in tiles.items())


def describe_event(event: dict, names: dict) -> str | None:
    """One sentence for an event, or None for bookkeeping events not worth a line."""
    who = names.get(event.get("seat"), f"seat {event.get('seat')}")
    kind = event["type"]
    sentences = {
        "tile_placed": lambda: f"{who} placed a {_tile(event['color'])} on {event['square']}.",
        "leader_placed": lambda: f"{who} put the {event['leader']} on {event['square']}.",
        "leader_moved": lambda: f"{who} moved the {event['leader']} from {event['from']} to {event['square']}.",
        "leader_withdrawn": lambda: f"{who} withdrew the {event['leader']} from {event['square']}.",
        "leader_returned": lambda: f"{who}'s {event['leader']} on {event['square']} lost its last temple and went home.",
        "catastrophe_placed": lambda: f"{who} placed a catastrophe on {event['square']}"
        + (f", destroying a {_tile(event['destroyed'])}." if event.get("destroyed") else "."),
        "tiles_swapped": lambda: f"{who} swapped {event['count']} tiles.",
        "tiles_received": lambda: f"{who} drew {_tiles(event['tiles'])}.",
        "points_scored": lambda: f"{who} scored {event['points']} {event['color']} point{'s' if event['points'] != 1 else ''} ({event['reason']}).",
        "revolt_started": lambda: f"Revolt on {event['square']}: {names.get(event['attacker'])} attacks {names.get(event['defender'])}'s priest.",
        "kingdoms_united": lambda: f"{who} united two kingdoms on {event['square']}: war over {', '.join(event['colors'])}.",
        "war_chosen": lambda: f"{who} chose the {event['color']} war next.",
        "war_started": lambda: f"{event['color'].capitalize()} war: {names.get(event['attacker'])} attacks {names.get(event['defender'])}.",
        "support_committed": lambda: f"{who} committed {event['count']} {event['color']} supporter{'s' if event['count'] != 1 else ''} as {event['side']}.",
        "conflict_resolved": lambda: (
            f"{names.get(event['winner'])} won the {event['color']} {event['kind']} "
            f"{max(event['attacker_strength'], event['defender_strength'])} to "
            f"{min(event['attacker_strength'], event['defender_strength'])}; "
            f"{names.get(event['loser'])}'s {event['leader_returned']} went home"
            + (f" and {len(event['removed'])} tiles were removed." if event["removed"] else ".")
        ),
        "monument_built": lambda: f"{who} built the {event['monument']} monument on {event['square']}.",
        "monument_declined": lambda: f"{who} built no monument on {event['square']}.",
        "treasure_taken": lambda: f"{who} took the treasure on {event['square']}.",
        "turn_ended": lambda: f"{who} ended turn {event['turn']}.",
        "game_ended": lambda: "The game ended: "
        + ("the bag ran out of tiles." if event["reason"] == "bag" else "only two treasures are left."),
    }
    sentence = sentences.get(kind)
    return sentence() if sentence else None


def prompt(s: State, seat: int, kind: str, names: dict) -> str:
    """The decision `seat` owes (`kind` from pending), in words."""
    if kind == "action":
        return f"Take your {'first' if s.actions_left == 2 else 'second'} action of turn {s.turn}."
    if kind == "support":
        conflict = s.conflict
        side = "attacker" if conflict["attacker_commit"] is None else "defender"
        other = "defender" if side == "attacker" else "attacker"
        color = COLORS[conflict["color"]]
        leader = LEADERS[conflict["color"]]
        text = (
            f"{'You attack' if side == 'attacker' else 'You defend'} in a {color} "
            f"{conflict['kind']} against {names.get(conflict[other])}'s {leader}. "
            f"You have {base_strength(s, side)} supporters on the board, they have "
            f"{base_strength(s, other)}"
        )
        if side == "defender":
            text += f" plus {conflict['attacker_commit']} committed"
        in_hand = s.hands[seat][conflict["color"]]
        return text + f". Commit up to {in_hand} {color} tiles from your hand."
    if kind == "war_order":
        return "Choose which war to fight next: " + ", ".join(COLORS[c] for c in s.wars["colors"]) + "."
    if kind == "monument":
        return "Your tile completed a square of four: build a monument on it, or decline."
    if kind == "treasure":
        return "Your trader's kingdom holds several treasures: pick the one to take."
    return ""
