"""Civilization: The Card Game's events as sentences with the players' and the cards'
names (for the game page's log and the emails). An event type without a sentence
here is told plainly."""
from __future__ import annotations

from engine.civ_cards.table import CardTable
from engine.sentences import count, told

ENDINGS = {"last_technology": "the last technology was bought"}


def resources(amounts: dict) -> str:
    """`{"food": 2, "commerce": 1}` as "2 food, 1 commerce"; "nothing" when empty."""
    return ", ".join(f"{n} {kind}" for kind, n in amounts.items() if n) or "nothing"


def plots(numbers: list) -> str:
    return ("plot " if len(numbers) == 1 else "plots ") + ", ".join(str(n) for n in numbers)


def describe_event(event: dict, names: dict, table: CardTable) -> str | None:
    def name(seat):
        return names.get(seat, f"seat {seat}")

    def card(card_id):
        return table.name(card_id) if card_id in table.cards else str(card_id)

    who = name(event.get("seat"))
    paid = lambda resource="": (resources(event["paid"]) if isinstance(event["paid"], dict)  # noqa: E731
                                else f"{event['paid']} {resource}")
    sentences = {
        "plot_picked": lambda: f"{who} took {card(event['plot'])} from the draft.",
        "population_settled": lambda: f"{who} put the free population on plot {event['plot']}.",
        "resources_collected": lambda: f"{who} collected {resources(event['resources'])}.",
        "plot_bought": lambda: f"{who} bought {card(event['plot'])}, paying {paid()}.",
        "population_bought": lambda: f"{who} bought population for plot {event['plot']}, paying {paid('food')}.",
        "built": lambda: f"{who} built {card(event['card'])} on plot {event['plot']}, paying {paid('production')}.",
        "technology_bought": lambda: f"{who} bought the technology {card(event['card'])}, paying {paid('commerce')}.",
        "traded": lambda: f"{who} traded {event['count']} {event['gave']} for 1 {event['got']}.",
        "bonus_played": lambda: f"{who} cashed {card(event['card'])} for {event['value']} {event['resource']}.",
        "building_scrapped": lambda: f"{who} scrapped {card(event['card'])} on plot {event['plot']}.",
        "resources_given": lambda: f"{who} gave {event['count']} {event['resource']} to {name(event['to'])}.",
        "buying_ended": lambda: f"{who} is done buying.",
        "unit_committed": lambda: f"{who} sends {card(event['unit'])} against {name(event['target'])}.",
        "no_combat": lambda: f"{who} attacks nobody this turn.",
        "combat_started": lambda: f"{who} attacks " + "; ".join(
            f"{name(int(defender))} with {', '.join(card(u) for u in units)}"
            for defender, units in sorted(event["fronts"].items())) + ".",
        "walls_returned": lambda: f"A catapult sent {who}'s {card(event['card'])} on plot {event['plot']} "
                                  "back to the hand.",
        "walls_held": lambda: f"{who}'s walls send no unit back.",
        "unit_repelled": lambda: f"{who}'s walls sent back unit {event['index']}, {card(event['unit'])}.",
        "counter_chosen": lambda: f"{who} counters unit {event['unit']} with {card(event['card'])}.",
        "counters_done": lambda: f"{who} has chosen the counters.",
        "counters_revealed": lambda: _counters(event, who, card),
        "population_stolen": lambda: f"{name(event['by'])} took population from {who}'s {plots(event['plots'])}.",
        "buildings_destroyed": lambda: (
            f"{who} lost " + ", ".join(f"{card(c)} on plot {p}" for p, c in event["buildings"])
            + " (back to the hand)." if event["buildings"] else f"{who} lost no building."),
        "population_placed": lambda: f"{who} placed the captured population on {plots(event['plots'])}.",
        "combat_ended": lambda: f"{who}'s combat is over.",
        "card_discarded": lambda: f"{who} discarded a card.",
        "card_discarded_privately": lambda: f"{who} discarded {card(event['card'])}.",
        "cards_drawn": lambda: f"{who} drew {count(event['count'], 'card')}.",
        "cards_received": lambda: f"{who} drew " + ", ".join(
            count(n, card(c)) if n > 1 else card(c) for c, n in event["cards"].items()) + ".",
        "deck_reshuffled": lambda: f"The discards were shuffled into a new deck of {count(event['size'], 'card')}.",
        "award_changed": lambda: _award(event, name, card),
        "turn_ended": lambda: f"{who}'s turn is over.",
        "game_ended": lambda: _ended(event, name),
    }
    return told(sentences, event, who)


def _counters(event: dict, who: str, card) -> str:
    shown = ", ".join(f"{card(c)} against unit {unit}" for c, unit in event["counters"]) or "no counter"
    losses = []
    if event.get("steal"):
        losses.append(f"loses {count(event['steal'], 'population')}")
    if event.get("destroy"):
        losses.append(f"loses {count(event['destroy'], 'building')}")
    return f"{who} shows {shown}" + (f", and {' and '.join(losses)}." if losses else "; the attack takes nothing.")


def _award(event: dict, name, card) -> str:
    award = card(event["award"])
    if event.get("seat") is None:
        return f"Nobody holds {award} any more (it was {name(event['previous'])}'s)."
    return f"{name(event['seat'])} takes {award} with {event.get('score')}" + (
        f" from {name(event['previous'])}." if event.get("previous") is not None else ".")


def _ended(event: dict, name) -> str:
    ranking = event.get("ranking") or []
    places = "; ".join(" and ".join(name(seat) for seat in place) for place in ranking)
    return f"The game is over: {ENDINGS.get(event.get('reason', ''), event.get('reason'))}. Ranking: {places}."
