"""Events and decisions in words, for emails and the game page. `names` maps a seat
to the player's display name."""
from __future__ import annotations

from engine.core import round_of
from engine.sentences import turn_over
from engine.tigris.conflicts import base_strength, support_color, support_range
from engine.tigris.state import BUILDING_NAMES, COLOR_INDEX, COLORS, FACE_UP, LEADERS, TILE_NAMES, State


def _tile(color: str) -> str:
    return f"{color} {TILE_NAMES[COLORS.index(color)]}"


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _leader(color: str) -> str:
    return LEADERS[COLOR_INDEX[color]]


def _tiles(tiles: dict) -> str:
    return ", ".join(f"{n} {c}" for c, n in tiles.items())


ENDINGS = {"bag": "the bag ran out of tiles", "treasures": "only one or two treasures are left on the board"}


def describe_event(event: dict, names: dict) -> str | None:
    """One sentence for an event, or None for bookkeeping events not worth a line."""
    who = names.get(event.get("seat"), f"seat {event.get('seat')}")
    kind = event["type"]
    sentences = {
        "tile_placed": lambda: f"{who} placed a {_tile(event['color'])} on {event['square']}.",
        "leader_placed": lambda: f"{who} put the {event['leader']} on {event['square']}.",
        "leader_moved": lambda: f"{who} moved the {event['leader']} from {event['from']} to {event['square']}.",
        "leader_withdrawn": lambda: f"{who} withdrew the {event['leader']} from {event['square']}.",
        "leader_returned": lambda: f"{who}'s {event['leader']} on {event['square']} lost its last temple "
                                   "and went home.",
        "catastrophe_placed": lambda: f"{who} placed a catastrophe on {event['square']}"
        + (f", destroying a {_tile(event['destroyed'])}." if event.get("destroyed") else "."),
        "actions_passed": lambda: f"{who} passed, taking no more actions this turn.",
        "tiles_swapped": lambda: f"{who} swapped {_count(event['count'], 'tile')}.",
        "tiles_received": lambda: f"{who} drew {_tiles(event['tiles'])}.",
        "points_scored": lambda: f"{who} scored {event['points']} {event['color']} "
                                 f"point{'s' if event['points'] != 1 else ''} ({event['reason']}).",
        "revolt_started": lambda: f"Revolt on {event['square']}: {names.get(event['attacker'])} attacks "
                                  f"{names.get(event['defender'])}'s {_leader(event['color'])}.",
        "kingdoms_united": lambda: f"{who} united two kingdoms on {event['square']}: war over "
                                   f"{', '.join(event['colors'])}.",
        "war_chosen": lambda: f"{who} chose the {event['color']} war next.",
        "war_started": lambda: f"{event['color'].capitalize()} war: {names.get(event['attacker'])} attacks "
                               f"{names.get(event['defender'])}.",
        "support_committed": lambda: f"{who} committed "
                                     f"{_count(event['count'], event['color'] + ' supporter')} as {event['side']}.",
        "conflict_resolved": lambda: _conflict_resolved(event, names),
        "monument_built": lambda: f"{who} built the {event['monument']} monument on {event['square']}.",
        "building_placed": lambda: f"{who} put the {event['building']} ({event['color']}) on {event['square']}"
        + (f", moving it from {event['from']}." if event["from"] else "."),
        "building_declined": lambda: f"{who} placed no building for the line through {event['square']}.",
        "building_returned": lambda: f"The {event['building']} on {event['square']} went back beside the board.",
        "ziggurat_built": lambda: f"{who} built the ziggurat with its centre on {event['square']}.",
        "ziggurat_declined": lambda: f"{who} built no ziggurat on the cross through {event['square']}.",
        "ziggurat_point_taken": lambda: f"{who} took the ziggurat's point, a colour of their choice (king "
                                        "in its kingdom).",
        "display_tile_taken": lambda: f"{who} took the face-up {_tile(event['color'])}.",
        "display_refilled": lambda: f"Turned face up beside the board: {_tiles(event['tiles'])}.",
        "monument_declined": lambda: f"{who} built no monument on {event['square']}.",
        "treasure_taken": lambda: f"{who} took the treasure on {event['square']}.",
        "turn_ended": lambda: turn_over(who, event),
        "game_ended": lambda: f"The game ended: {ENDINGS[event['reason']]}.",
    }
    sentence = sentences.get(kind)
    return sentence() if sentence else None


def _conflict_resolved(event: dict, names: dict) -> str:
    attack, defend = event["attacker_strength"], event["defender_strength"]
    result = f"{max(attack, defend)} to {min(attack, defend)}"
    if attack == defend:
        result += " (a tie goes to the defender)"
    removed = len(event["removed"])
    return (
        f"{names.get(event['winner'])} won the {event['color']} {event['kind']} {result}; "
        f"{names.get(event['loser'])}'s {event['leader_returned']} went home"
        + (f" and {_count(removed, 'tile')} {'was' if removed == 1 else 'were'} removed." if removed else ".")
    )


def _support_prompt(s: State, seat: int, names: dict) -> str:
    conflict = s.conflict
    assert conflict is not None  # asked only during a conflict
    side = "attacker" if conflict["attacker_commit"] is None else "defender"
    other = "defender" if side == "attacker" else "attacker"
    color = COLORS[conflict["color"]]
    tiles = COLORS[support_color(conflict)]
    supporter = "adjacent temple" if conflict["kind"] == "revolt" else f"{color} supporter"
    text = (
        f"{'You attack' if side == 'attacker' else 'You defend'} in a {color} "
        f"{conflict['kind']} against {names.get(conflict[other])}'s {LEADERS[conflict['color']]}. "
        f"You have {_count(base_strength(s, side), supporter)} on the board, they have "
        f"{base_strength(s, other)}"
    )
    if side == "defender":
        text += f" plus {conflict['attacker_commit']} committed"
    allowed = list(support_range(s, seat))
    if allowed == [0]:
        offer = f"You may commit no {tiles} tiles now"
    elif allowed == list(range(allowed[-1] + 1)):
        offer = f"Commit up to {_count(allowed[-1], tiles + ' tile')} from your hand"
    else:
        offer = f"Commit {' or '.join(map(str, allowed))} {tiles} tiles from your hand"
    return f"{text}. {offer}; a tie goes to the defender."


def prompt(s: State, seat: int, kind: str, names: dict) -> str:
    """The decision `seat` owes (`kind` from pending), in words."""
    if kind == "action":
        return (
            f"Take your {'first' if s.actions_left == 2 else 'second'} action of round {round_of(s.turn, s.players)}, "
            "or pass to end your turn."
        )
    if kind == "support":
        return _support_prompt(s, seat, names)
    if kind == "war_order":
        assert s.wars is not None
        return "Choose which war to fight next: " + ", ".join(COLORS[c] for c in s.wars["colors"]) + "."
    if kind == "monument":
        return "Your tile completed a square of four: build a monument on it, or decline."
    if kind == "building":
        assert s.building is not None
        color = s.cells[s.building] - FACE_UP
        return (f"Your tile is part of a line of three or more: put the {BUILDING_NAMES[color]} on a tile "
                "of the line, or decline.")
    if kind == "ziggurat":
        return "Your tile completed a cross of five: build the ziggurat on it, or decline."
    if kind == "ziggurat_point":
        return "Your king is in the ziggurat's kingdom: take one point of the colour of your choice."
    if kind == "draw":
        assert s.draws is not None
        owed = s.draws["queue"][0][1]
        shown = ", ".join(f"{n} {COLORS[c]}" for c, n in enumerate(s.display) if n)
        return (f"Draw {owed} tile{'s' if owed != 1 else ''}: take a face-up tile ({shown}) "
                "or draw from the bag.")
    if kind == "treasure":
        return "Your trader's kingdom holds several treasures: pick the one to take."
    return ""
