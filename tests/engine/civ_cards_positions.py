"""Hand-written Civilization card-game positions for tests: name what lies where, get a state."""
from __future__ import annotations

from collections import Counter

import engine
from engine.civ_cards.game import CivCards
from engine.civ_cards.table import CardTable

GAME = engine.get_game("civ-cards")
assert isinstance(GAME, CivCards)  # the registered game object, with its card table
TABLE: CardTable = GAME.table
DEFAULT_PLOTS = ["grassland", "plains", "hills", "river"]


def player(plots=None, population=None, buildings=None, hand=None, resources=None, technologies=None) -> dict:
    """A player record: plots by id, population and buildings per plot number (1-based)."""
    plots = plots or DEFAULT_PLOTS
    return {
        "plots": [
            {"plot": plot, "population": (population or {}).get(i + 1, 0),
             "buildings": (buildings or {}).get(i + 1, [])}
            for i, plot in enumerate(plots)
        ],
        "hand": hand or {},
        "resources": resources or {},
        "technologies": technologies or [],
    }


def position(players=None, count: int = 3, phase: str = "buy", active: int = 0, deck=None, options=None, **extra):
    """A state in `phase` of `active`'s turn; `players` maps seat -> player()."""
    records = [(players or {}).get(seat) or player() for seat in range(count)]
    data = {
        "game": "civ-cards",
        "options": {**GAME.default_options(), **(options or {})},
        "players": records,
        "deck": deck if deck is not None else ["warrior"] * 4 + ["wheat"] * 4 + ["granary"] * 3,
        "discard": extra.pop("discard", []),
        "plot_deck": extra.pop("plot_deck", ["coast", "oasis"]),
        "plot_display": extra.pop("plot_display", ["grassland", "hills", "vineyard"]),
        "tech_deck": extra.pop("tech_deck", ["mysticism", "writing"]),
        "tech_display": extra.pop("tech_display", ["pottery", "agriculture", "engineering"]),
        "awards": extra.pop("awards", {}),
        "rng": 12345,
        "turn": {"number": 5, "active": active, "phase": phase},
        **extra,
    }
    return GAME.from_json(data)


def play(state, *moves):
    """Apply (seat, text) moves in order; returns the final state and all events."""
    events = []
    for seat, text in moves:
        state, new = GAME.apply(state, seat, GAME.parse_move(text) if isinstance(text, str) else text)
        events.extend(new)
    return state, events


def hand_of(state, seat: int) -> dict:
    return state["players"][seat]["hand"]


def resources_of(state, seat: int) -> dict:
    return state["players"][seat]["resources"]


def cards_accounted(state, table=TABLE) -> dict:
    """Every card of the table by id: where each copy is, counted (must equal the table)."""
    counts: Counter[str] = Counter()
    population = table.of_kind("population")[0]
    for pile in ("deck", "discard", "plot_deck", "plot_display", "tech_deck", "tech_display"):
        counts.update(state[pile])
    for record in state["players"]:
        counts.update(record["hand"])
        counts.update(record["technologies"])
        for plot in record["plots"]:
            counts[plot["plot"]] += 1
            counts[population] += plot["population"]
            counts.update(plot["buildings"])
    counts[population] += state["population"]
    if state["draft"]:
        counts.update(state["draft"]["display"])
    if state["combat"]:
        for front in state["combat"]["fronts"]:
            counts.update(card for i, card in enumerate(front["units"]) if i != front["repelled"])
        counts[population] += state["combat"]["stolen"]
    return {card: n for card, n in counts.items() if n}


def table_counts(table=TABLE) -> dict:
    return {cid: row["count"] for cid, row in table.cards.items()
            if row["kind"] not in ("resource", "award") and row["count"]}
