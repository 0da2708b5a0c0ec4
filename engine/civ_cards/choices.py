"""The moves offered to a player, in words for him: each names the card, plot or unit
it acts on ("discard Walls", "build Granary on plot 2 (Plains)"), which his own view
shows him. (`notation.describe` names no private card: its line may reach others.)"""
from __future__ import annotations

from engine.civ_cards.narration import resources
from engine.civ_cards.notation import describe
from engine.civ_cards.table import CardTable


def choice_words(table: CardTable, view: dict, move: dict) -> str:
    """`move` of the seat whose `view` this is, in words that name what it acts on."""
    me = view["players"][view["seat"]]

    def name(card: str) -> str:
        return table.name(card) if table.kind(card) else str(card)

    def plot(number: int) -> str:
        plots = me["plots"]
        return f"plot {number} ({name(plots[number - 1]['plot'])})" if 0 < number <= len(plots) else f"plot {number}"

    def plot_list(numbers: list[int]) -> str:
        return ", ".join(plot(n) for n in numbers)

    def unit(number: int) -> str:
        fronts = (view.get("combat") or {}).get("fronts") or []
        front = next((f for f in fronts if f["defender"] == view["seat"]), None)
        units = front["units"] if front else []
        return f"unit {number} ({name(units[number - 1])})" if 0 < number <= len(units) else f"unit {number}"

    def offered(slot: int) -> str:
        row = (view.get("draft") or {}).get("display") if move["type"] == "pick_plot" else view.get("plot_display")
        return name(row[slot - 1]) if row and 0 < slot <= len(row) else f"plot {slot} on display"

    def bonus(card: str, resource: str) -> str:
        value = table.effects(card).get("bonus", {}).get("value") if table.kind(card) else None
        return f"{value} {resource}" if value else resource

    kind = str(move.get("type"))
    words = {
        "pick_plot": lambda: f"take {offered(move['slot'])} from the draft",
        "settle": lambda: f"put the free population on {plot(move['plot'])}",
        "discard": lambda: f"discard {name(move['card'])}",
        "collect": lambda: f"your population yields {resources(move['population'])}",
        "buy_plot": lambda: f"buy {offered(move['slot'])}, paying {resources(move['pay'])}",
        "buy_population": lambda: f"buy a population for {plot(move['plot'])}",
        "build": lambda: f"build {name(move['card'])} on {plot(move['plot'])}",
        "research": lambda: f"buy the technology {name(move['card'])}",
        "cash": lambda: f"play {name(move['card'])} for {bonus(move['card'], move['resource'])}",
        "scrap": lambda: f"scrap {name(move['card'])} on {plot(move['plot'])}",
        "attack": lambda: f"attack seat {move['target']} with {name(move['card'])}",
        "counter": lambda: f"counter {unit(move['unit'])} with {name(move['card'])}",
        "repel": lambda: "let the attack through" if move["unit"] is None else f"send {unit(move['unit'])} back",
        "return_walls": lambda: f"return the Walls of {plot(move['plot'])} to your hand",
        "give_population": lambda: f"give up population from {plot_list(move['plots'])}",
        "lose_buildings": lambda: "lose " + ", ".join(f"{name(card)} on {plot(n)}" for n, card in move["buildings"]),
        "place_population": lambda: f"place the captured population on {plot_list(move['plots'])}",
    }.get(kind)
    try:
        return words() if words else describe(move)
    except (KeyError, IndexError, TypeError):
        return describe(move)
