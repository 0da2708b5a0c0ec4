"""The card table: every card of the game as a row of one JSON file, with typed effects.

The rules modules never name a card; they ask the table for cards of a kind and read
their effects (engine/civ_cards/effects.py). A different table (the printed cards, when
known) is a different file loaded with `load_table`, with no code change.
"""
from __future__ import annotations

import json
import os
from functools import cached_property

from engine.core import EngineError

DEFAULT_TABLE = os.path.join(os.path.dirname(__file__), "cards.json")
RESOURCES = ("food", "production", "commerce")
KINDS = ("plot", "resource", "population", "technology", "unit", "building", "wonder", "bonus", "award")
DECK_KINDS = ("unit", "building", "wonder", "bonus")
# Effect type -> what its value must be (checked on load, so a bad table fails early).
EFFECT_TYPES = {
    "yield": "resource counts",
    "resource": "resource",
    "flat_yield": "resource counts",
    "plot_bonus": "resource",
    "happiness": "count",
    "culture": "count",
    "extra_draw": "count",
    "walls": "count",
    "building_slot": "count",
    "steal_population": "count",
    "destroy_buildings": "count",
    "removes_walls": "count",
    "counters": "names",
    "bonus": "bonus",
    "award": "award",
}
METADATA_FIELDS = (
    "id", "provisional", "title", "plots_dealt", "display_size", "plot_price", "population_price",
    "opening_hands", "opening_discard", "draw", "discard", "trade_rate", "max_buildings_per_plot",
    "second_building_population",
)


class TableError(EngineError):
    code = "bad_table"


class CardTable:
    """The rows of a card table, indexed by id and kind."""

    def __init__(self, data: dict):
        self.metadata = dict(data["metadata"])
        missing = [f for f in METADATA_FIELDS if f not in self.metadata]
        if missing:
            raise TableError(f"card table metadata lacks {', '.join(missing)}")
        self.id = self.metadata["id"]
        self.cards: dict[str, dict] = {}
        for row in data["cards"]:
            _check_row(row, self.cards)
            self.cards[row["id"]] = row
        self.order = {card_id: i for i, card_id in enumerate(self.cards)}
        for kind in ("plot", "technology", "population"):
            if not self.of_kind(kind):
                raise TableError(f"card table has no {kind} card")
        self._check_counters()

    def _check_counters(self) -> None:
        known = set(self.of_kind("unit")) | {row.get("unit_class") for row in self.rows("unit")}
        for row in self.rows("unit"):
            unknown = set(row["effects"].get("counters", ())) - known
            if unknown:
                raise TableError(f"{row['id']} counters unknown units or classes {sorted(unknown)}")

    def of_kind(self, *kinds: str) -> list[str]:
        """Ids of the card rows of these kinds, in table order."""
        return [cid for cid, row in self.cards.items() if row["kind"] in kinds]

    def rows(self, kind: str) -> list[dict]:
        return [row for row in self.cards.values() if row["kind"] == kind]

    def kind(self, card_id) -> str | None:
        row = self.cards.get(card_id) if isinstance(card_id, str) else None
        return None if row is None else row["kind"]

    def effects(self, card_id: str) -> dict:
        return self.cards[card_id]["effects"]

    def cost(self, card_id: str) -> int:
        return self.cards[card_id].get("cost", 0)

    def name(self, card_id: str) -> str:
        return self.cards[card_id]["name"]

    def count(self, card_id: str) -> int:
        return self.cards[card_id]["count"]

    def kind_total(self, *kinds: str) -> int:
        return sum(row["count"] for row in self.cards.values() if row["kind"] in kinds)

    @cached_property
    def population_total(self) -> int:
        return self.kind_total("population")

    @cached_property
    def awards(self) -> dict[str, dict]:
        """Award card id -> its award effect (score, minimum and what it grants)."""
        return {row["id"]: row["effects"]["award"] for row in self.rows("award")}

    def deck_cards(self) -> list[str]:
        """Every card of the play deck, each id repeated by its count, in table order."""
        return [cid for cid in self.of_kind(*DECK_KINDS) for _ in range(self.count(cid))]

    def sort_key(self, card_id: str) -> int:
        return self.order.get(card_id, len(self.order))


def _check_row(row: dict, seen: dict) -> None:
    card_id = row.get("id")
    if not isinstance(card_id, str) or not card_id or card_id != card_id.lower() or " " in card_id:
        raise TableError(f"card id {card_id!r} must be a lower-case word without spaces")
    if card_id in seen:
        raise TableError(f"card id {card_id!r} appears twice")
    if row.get("kind") not in KINDS:
        raise TableError(f"{card_id}: kind {row.get('kind')!r} is not one of {', '.join(KINDS)}")
    if not isinstance(row.get("count"), int) or row["count"] < 0:
        raise TableError(f"{card_id}: count must be a whole number")
    for effect, value in row.get("effects", {}).items():
        shape = EFFECT_TYPES.get(effect)
        if shape is None:
            raise TableError(f"{card_id}: unknown effect {effect!r}; effects: {', '.join(EFFECT_TYPES)}")
        if not _fits(shape, value):
            raise TableError(f"{card_id}: effect {effect} takes {shape}, not {value!r}")
    row.setdefault("effects", {})


def _fits(shape: str, value) -> bool:
    if shape == "count":
        return isinstance(value, int) and not isinstance(value, bool) and value >= 0
    if shape == "resource":
        return value in RESOURCES
    if shape == "resource counts":
        return isinstance(value, dict) and set(value) <= set(RESOURCES) and all(
            isinstance(n, int) and n >= 0 for n in value.values())
    if shape == "names":
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    if shape == "bonus":
        return value.get("resource") in (*RESOURCES, "wild") and isinstance(value.get("value"), int)
    if shape == "award":
        return value.get("score") in ("happiness", "culture") and isinstance(value.get("minimum"), int)
    return False


def load_table(path: str = DEFAULT_TABLE) -> CardTable:
    """Read and check a card table file; TableError says what is wrong with it."""
    with open(path, encoding="utf-8") as handle:
        try:
            data = json.load(handle)
        except json.JSONDecodeError as exc:
            raise TableError(f"card table {path} is not JSON: {exc}") from None
    try:
        return CardTable(data)
    except (KeyError, TypeError, AttributeError) as exc:
        raise TableError(f"card table {path} is malformed: {type(exc).__name__}: {exc}") from None
