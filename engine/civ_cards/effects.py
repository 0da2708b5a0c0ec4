"""The effect handlers: what a player's cards do, read from their typed effects.

A player's standing cards are his technologies and the buildings and wonders on his
plots; each handler sums one effect type over them. Units' effects are read in combat.
"""
from __future__ import annotations

from engine.civ_cards.table import RESOURCES, CardTable


def standing_cards(table: CardTable, player: dict):
    """(card id, plot index or None) of every technology, building and wonder he owns."""
    for tech in player["technologies"]:
        yield tech, None
    for index, plot in enumerate(player["plots"]):
        for card in plot["buildings"]:
            yield card, index


def total(table: CardTable, player: dict, effect: str) -> int:
    """The sum of a counting effect (happiness, culture, extra_draw, walls...)."""
    return sum(table.effects(card).get(effect, 0) for card, _ in standing_cards(table, player))


def plot_yield(table: CardTable, plot: dict) -> dict[str, int]:
    """A plot's printed yield."""
    return table.effects(plot["plot"]).get("yield", {})


def fixed_collection(table: CardTable, player: dict) -> dict[str, int]:
    """What the player collects before his population's choice: printed yields,
    buildings that add the plot's printed yield of a kind (cumulative), flat yields."""
    got = dict.fromkeys(RESOURCES, 0)
    for plot in player["plots"]:
        printed = plot_yield(table, plot)
        for kind, n in printed.items():
            got[kind] += n
        for card in plot["buildings"]:
            bonus_kind = table.effects(card).get("plot_bonus")
            if bonus_kind is not None:
                got[bonus_kind] += printed.get(bonus_kind, 0)
    for card, _ in standing_cards(table, player):
        for kind, n in table.effects(card).get("flat_yield", {}).items():
            got[kind] += n
    return got


def population_groups(table: CardTable, player: dict) -> list[tuple[int, tuple[str, ...]]]:
    """(population, kinds it may produce) per populated plot: each population card
    yields one resource of a kind its plot yields, the owner's choice."""
    groups = []
    for plot in player["plots"]:
        kinds = tuple(k for k in RESOURCES if plot_yield(table, plot).get(k, 0) > 0)
        if plot["population"] and kinds:
            groups.append((plot["population"], kinds))
    return groups


def population_splits(groups: list[tuple[int, tuple[str, ...]]]) -> list[dict[str, int]]:
    """Every distinct total (food, production, commerce) the population can produce."""
    totals: set[tuple[int, ...]] = {(0, 0, 0)}
    for count, kinds in groups:
        index = [RESOURCES.index(k) for k in kinds]
        step = set()
        for base in totals:
            for split in _splits(count, len(index)):
                new = list(base)
                for i, n in zip(index, split):
                    new[i] += n
                step.add(tuple(new))
        totals = step
    return [dict(zip(RESOURCES, t)) for t in sorted(totals, reverse=True)]


def _splits(count: int, parts: int):
    if parts == 1:
        yield (count,)
        return
    for first in range(count, -1, -1):
        for rest in _splits(count - first, parts - 1):
            yield (first, *rest)


def building_room(table: CardTable, player: dict, plot: dict) -> int:
    """How many buildings and wonders the plot may hold: one; a second with enough
    population or a technology granting it; never more than the table's maximum."""
    meta = table.metadata
    room = 1
    if plot["population"] >= meta["second_building_population"] or total(table, player, "building_slot"):
        room = 2
    return min(room, meta["max_buildings_per_plot"])


def removable_walls(table: CardTable, player: dict) -> list[int]:
    """Plot index of every building (not wonder) with the walls effect, once per card."""
    return [
        index for index, plot in enumerate(player["plots"]) for card in plot["buildings"]
        if table.kind(card) == "building" and table.effects(card).get("walls")
    ]


def counters(table: CardTable, defender_card: str, attacker_card: str) -> bool:
    """Whether a unit played in defence counters an attacking unit (by id or class)."""
    if table.kind(defender_card) != "unit":
        return False
    targets = table.effects(defender_card).get("counters", ())
    return attacker_card in targets or table.cards[attacker_card].get("unit_class") in targets


def bonus_of(table: CardTable, card: str) -> dict | None:
    return table.effects(card).get("bonus") if table.kind(card) == "bonus" else None
