"""Combat: the active player's declared units against his seat neighbours.

Stages, each waiting for the seats that owe a choice:
  declare   the attacker commits units from his hand to neighbours (`attack`, `fight`);
  catapult  each catapult returns one of the defender's Walls to his hand (the
            defender chooses which, when it matters);
  walls     a defender with Walls or a wonder acting as Walls may send one attacking
            unit back to the attacker's hand (one per attack);
  counter   every defender, in secret and at the same time, plays cards from hand that
            counter attacking units; the counters are revealed when all are in;
  losses    uncountered units act: the defender chooses the plots his stolen
            population leaves and the buildings he loses (back to his hand);
  placing   the attacker chooses the plots the stolen population joins.
Then every unit involved is discarded (those sent back by Walls excepted).
"""
from __future__ import annotations

from engine.civ_cards.awards import update_awards
from engine.civ_cards.effects import counters, removable_walls, total
from engine.civ_cards.state import put_in_hand
from engine.civ_cards.table import CardTable


def neighbours(s: dict, seat: int) -> list[int]:
    n = len(s["players"])
    return sorted({(seat - 1) % n, (seat + 1) % n} - {seat})


def new_combat() -> dict:
    return {"stage": "declare", "fronts": [], "stolen": 0}


def front_of(s: dict, defender: int) -> dict | None:
    return next((f for f in s["combat"]["fronts"] if f["defender"] == defender), None)


def declare(s: dict, seat: int, unit: str, target: int, events: list) -> None:
    front = front_of(s, target)
    if front is None:
        front = {"defender": target, "units": [], "repelled": None, "catapults": 0, "walls_done": False,
                 "counters": [], "counters_done": False, "steal": 0, "destroy": 0,
                 "population_done": False, "buildings_done": False}
        s["combat"]["fronts"].append(front)
        s["combat"]["fronts"].sort(key=lambda f: f["defender"])
    front["units"].append(unit)
    events.append({"type": "unit_committed", "seat": seat, "unit": unit, "target": target})


def fight(table: CardTable, s: dict, events: list) -> None:
    combat = s["combat"]
    combat["stage"] = "catapult"
    for front in combat["fronts"]:
        front["catapults"] = sum(1 for u in front["units"] if table.effects(u).get("removes_walls"))
    events.append({"type": "combat_started", "seat": s["turn"]["active"],
                   "fronts": {str(f["defender"]): list(f["units"]) for f in combat["fronts"]}})


def live_units(front: dict) -> list[int]:
    """Indexes of the attacking units still in the fight (not sent back)."""
    return [i for i in range(len(front["units"])) if i != front["repelled"]]


def countered(front: dict) -> set[int]:
    return {unit for _, unit in front["counters"]}


def has_walls(table: CardTable, player: dict) -> bool:
    return total(table, player, "walls") > 0


def owed(table: CardTable, s: dict) -> dict[int, str]:
    """The seats the combat waits for and the kind of choice each owes."""
    combat = s["combat"]
    stage = combat["stage"]
    if stage == "declare":
        return {s["turn"]["active"]: "attack"}
    if stage == "placing":
        return {s["turn"]["active"]: "place_population"} if combat["stolen"] else {}
    waiting = {}
    for front in combat["fronts"]:
        kind = _front_owes(stage, front)
        if kind:
            waiting[front["defender"]] = kind
    return waiting


def _front_owes(stage: str, front: dict) -> str | None:
    if stage == "catapult" and front["catapults"]:
        return "catapult"
    if stage == "walls" and not front["walls_done"]:
        return "walls"
    if stage == "counter" and not front["counters_done"]:
        return "counter"
    if stage == "losses" and not front["population_done"]:
        return "give_population"
    if stage == "losses" and not front["buildings_done"]:
        return "lose_buildings"
    return None


def resolve(table: CardTable, s: dict, events: list) -> bool:
    """Take every automatic step; True when the combat is over."""
    combat = s["combat"]
    if combat is None:
        return True
    while True:
        stage = combat["stage"]
        if stage == "declare":
            return False
        _AUTO[stage](table, s, events)
        if owed(table, s):
            return False
        if stage == "placing":
            _end(table, s, events)
            return True
        combat["stage"] = _NEXT[stage]
        if combat["stage"] == "losses":
            _reveal_counters(table, s, events)


def _auto_catapults(table, s, events) -> None:
    for front in s["combat"]["fronts"]:
        player = s["players"][front["defender"]]
        while front["catapults"]:
            walls = removable_walls(table, player)
            if not walls:
                front["catapults"] = 0
            elif front["catapults"] >= len(walls) or len(set(walls)) == 1:
                return_walls(table, s, front, walls[0], events)
            else:
                break


def return_walls(table: CardTable, s: dict, front: dict, plot_index: int, events: list) -> None:
    player = s["players"][front["defender"]]
    buildings = player["plots"][plot_index]["buildings"]
    card = next(c for c in buildings if table.kind(c) == "building" and table.effects(c).get("walls"))
    buildings.remove(card)
    put_in_hand(player, card)
    front["catapults"] -= 1
    front["lost_building"] = True
    events.append({"type": "walls_returned", "seat": front["defender"], "plot": plot_index + 1, "card": card})


def _auto_walls(table, s, events) -> None:
    for front in s["combat"]["fronts"]:
        if not front["walls_done"] and (not has_walls(table, s["players"][front["defender"]]) or not live_units(front)):
            front["walls_done"] = True


def repel(s: dict, front: dict, index: int | None, events: list) -> None:
    front["walls_done"] = True
    if index is None:
        events.append({"type": "walls_held", "seat": front["defender"]})
        return
    front["repelled"] = index
    unit = front["units"][index]
    put_in_hand(s["players"][s["turn"]["active"]], unit)
    events.append({"type": "unit_repelled", "seat": front["defender"], "unit": unit, "index": index + 1})


def _auto_counters(table, s, events) -> None:
    for front in s["combat"]["fronts"]:
        if not live_units(front):
            front["counters_done"] = True


def counter_targets(table: CardTable, s: dict, front: dict, card: str) -> list[int]:
    """Indexes of the live, not yet countered attacking units that `card` counters."""
    taken = countered(front)
    return [i for i in live_units(front) if i not in taken and counters(table, card, front["units"][i])]


def committed(front: dict, card: str) -> int:
    return sum(1 for c, _ in front["counters"] if c == card)


def _reveal_counters(table: CardTable, s: dict, events: list) -> None:
    for front in s["combat"]["fronts"]:
        player = s["players"][front["defender"]]
        for card, _ in front["counters"]:
            player["hand"][card] -= 1
            if not player["hand"][card]:
                del player["hand"][card]
            s["discard"].append(card)  # a counter has done its work: discarded with the units
        uncountered = [front["units"][i] for i in live_units(front) if i not in countered(front)]
        front["steal"] = min(sum(table.effects(u).get("steal_population", 0) for u in uncountered),
                             sum(p["population"] for p in player["plots"]))
        front["destroy"] = min(sum(table.effects(u).get("destroy_buildings", 0) for u in uncountered),
                               len(destroyable(table, player)))
        events.append({"type": "counters_revealed", "seat": front["defender"],
                       "counters": [[card, unit + 1] for card, unit in front["counters"]],
                       "steal": front["steal"], "destroy": front["destroy"]})


def destroyable(table: CardTable, player: dict) -> list[tuple[int, str]]:
    """(plot index, card) of every building a unit may destroy (wonders never)."""
    return [(i, c) for i, plot in enumerate(player["plots"]) for c in plot["buildings"] if table.kind(c) == "building"]


def _auto_losses(table, s, events) -> None:
    for front in s["combat"]["fronts"]:
        player = s["players"][front["defender"]]
        if not front["population_done"]:
            populated = [i for i, p in enumerate(player["plots"]) if p["population"]]
            total_population = sum(player["plots"][i]["population"] for i in populated)
            if front["steal"] == 0:
                front["population_done"] = True
            elif len(populated) == 1 or front["steal"] == total_population:
                plots = [i for i in populated for _ in range(player["plots"][i]["population"])]
                give_population(s, front, plots[:front["steal"]], events)
        if front["population_done"] and not front["buildings_done"]:
            buildings = destroyable(table, player)
            if front["destroy"] == 0:
                front["buildings_done"] = True
            elif len(set(buildings)) == 1 or front["destroy"] == len(buildings):
                lose_buildings(s, front, buildings[:front["destroy"]], events)


def give_population(s: dict, front: dict, plots: list[int], events: list) -> None:
    player = s["players"][front["defender"]]
    for i in plots:
        player["plots"][i]["population"] -= 1
    s["combat"]["stolen"] += len(plots)
    front["population_done"] = True
    events.append({"type": "population_stolen", "seat": front["defender"], "by": s["turn"]["active"],
                   "plots": [i + 1 for i in plots]})


def lose_buildings(s: dict, front: dict, buildings: list[tuple[int, str]], events: list) -> None:
    player = s["players"][front["defender"]]
    for i, card in buildings:
        player["plots"][i]["buildings"].remove(card)
        put_in_hand(player, card)
    front["buildings_done"] = True
    if buildings:
        front["lost_building"] = True
    events.append({"type": "buildings_destroyed", "seat": front["defender"],
                   "buildings": [[i + 1, card] for i, card in buildings]})


def _auto_placing(table, s, events) -> None:
    combat = s["combat"]
    plots = s["players"][s["turn"]["active"]]["plots"]
    if combat["stolen"] and len(plots) == 1:
        place_population(s, [0] * combat["stolen"], events)


def place_population(s: dict, plots: list[int], events: list) -> None:
    seat = s["turn"]["active"]
    for i in plots:
        s["players"][seat]["plots"][i]["population"] += 1
    s["combat"]["stolen"] = 0
    events.append({"type": "population_placed", "seat": seat, "plots": [i + 1 for i in plots]})


def _end(table: CardTable, s: dict, events: list) -> None:
    """Every unit involved goes to the discard pile; awards follow building losses."""
    losers = []
    for front in s["combat"]["fronts"]:
        s["discard"].extend(front["units"][i] for i in live_units(front))
        if front.get("lost_building"):
            losers.append(front["defender"])
    events.append({"type": "combat_ended", "seat": s["turn"]["active"]})
    update_awards(table, s, events, tuple(losers))


_AUTO = {
    "catapult": _auto_catapults,
    "walls": _auto_walls,
    "counter": _auto_counters,
    "losses": _auto_losses,
    "placing": _auto_placing,
}
_NEXT = {"catapult": "walls", "walls": "counter", "counter": "losses", "losses": "placing"}
