"""The buy phase: plots, population, buildings and wonders, technologies; playing bonus
resource cards, the 3:1 trade, scrapping a building, gifts between teammates.
Every function checks its rule and raises IllegalMove saying what is allowed."""
from __future__ import annotations

from engine.civ_cards.awards import discount, update_awards
from engine.civ_cards.effects import bonus_of, building_room
from engine.civ_cards.scoring import teammate
from engine.civ_cards.state import take_from_hand
from engine.civ_cards.table import RESOURCES, CardTable
from engine.core import IllegalMove


def plot_price(table: CardTable, player: dict) -> int:
    """The 5th plot costs 15 resources of any mix, then 5 more for each further one."""
    rule = table.metadata["plot_price"]
    number = len(player["plots"]) + 1
    return rule["price"] + rule["step"] * max(0, number - rule["first_priced"])


def population_price(table: CardTable, player: dict) -> int:
    """6 food while owning 1 population, 8 owning 2, 10 owning 3... (counting the
    population the player holds now)."""
    rule = table.metadata["population_price"]
    owned = sum(plot["population"] for plot in player["plots"])
    return rule["price"] + rule["step"] * max(0, owned - 1)


def card_price(table: CardTable, s: dict, seat: int, card: str) -> int:
    return max(0, table.cost(card) - discount(table, s, seat, table.kind(card)))


def pay(player: dict, kind: str, amount: int, what: str) -> None:
    held = player["resources"][kind]
    if held < amount:
        raise IllegalMove(f"{what} costs {amount} {kind}; you hold {held}", code="cannot_afford")
    player["resources"][kind] -= amount


def plot_index(player: dict, number) -> int:
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(player["plots"]):
        raise IllegalMove(f"plot {number!r} is not yours; your plots are 1 to {len(player['plots'])}", code="bad_plot")
    return number - 1


def display_index(s: dict, which: str, slot) -> int:
    display = s[f"{which}_display"]
    if isinstance(slot, bool) or not isinstance(slot, int) or not 1 <= slot <= len(display):
        raise IllegalMove(f"there is no {which} {slot!r} on display; choose 1 to {len(display)}", code="bad_slot")
    return slot - 1


def buy_plot(table: CardTable, s: dict, seat: int, slot, payment, events: list) -> None:
    player = s["players"][seat]
    index = display_index(s, "plot", slot)
    price = plot_price(table, player)
    if not isinstance(payment, dict) or set(payment) - set(RESOURCES) or any(
            isinstance(n, bool) or not isinstance(n, int) or n < 0 for n in payment.values()):
        raise IllegalMove("pay is a count per resource: food, production, commerce", code="bad_payment")
    if sum(payment.values()) != price:
        raise IllegalMove(f"this plot costs {price} resources of any mix; you offered {sum(payment.values())}",
                          code="bad_payment")
    for kind, n in payment.items():
        pay(player, kind, n, "this plot")
    card = s["plot_display"].pop(index)
    if s["plot_deck"]:
        s["plot_display"].insert(index, s["plot_deck"].pop(0))
    player["plots"].append({"plot": card, "population": 0, "buildings": []})
    events.append({"type": "plot_bought", "seat": seat, "plot": card, "paid": dict(payment)})


def buy_population(table: CardTable, s: dict, seat: int, plot, events: list) -> None:
    player = s["players"][seat]
    index = plot_index(player, plot)
    if s["population"] <= 0:
        raise IllegalMove("no population card is left", code="no_population")
    price = population_price(table, player)
    pay(player, "food", price, "population")
    s["population"] -= 1
    player["plots"][index]["population"] += 1
    events.append({"type": "population_bought", "seat": seat, "plot": plot, "paid": price})


def build(table: CardTable, s: dict, seat: int, card, plot, events: list) -> None:
    player = s["players"][seat]
    if table.kind(card) not in ("building", "wonder") or not player["hand"].get(card):
        held = sorted(c for c in player["hand"] if table.kind(c) in ("building", "wonder"))
        raise IllegalMove(f"{card!r} is no building or wonder in your hand; you hold: {', '.join(held) or 'none'}",
                          code="not_in_hand")
    index = plot_index(player, plot)
    target = player["plots"][index]
    room = building_room(table, player, target)
    if len(target["buildings"]) >= room:
        raise IllegalMove(
            f"plot {plot} holds {len(target['buildings'])} of {room} buildings or wonders; a second needs "
            f"{table.metadata['second_building_population']} population or a technology allowing it",
            code="plot_full")
    price = card_price(table, s, seat, card)
    pay(player, "production", price, table.name(card))
    take_from_hand(player, card)
    target["buildings"].append(card)
    events.append({"type": "built", "seat": seat, "card": card, "plot": plot, "paid": price})
    update_awards(table, s, events)


def research(table: CardTable, s: dict, seat: int, tech, events: list) -> None:
    player = s["players"][seat]
    if tech not in s["tech_display"]:
        raise IllegalMove(f"{tech!r} is not on display; on display: {', '.join(s['tech_display'])}", code="bad_tech")
    price = card_price(table, s, seat, tech)
    pay(player, "commerce", price, table.name(tech))
    index = s["tech_display"].index(tech)
    s["tech_display"].pop(index)
    if s["tech_deck"]:
        s["tech_display"].insert(index, s["tech_deck"].pop(0))
    player["technologies"].append(tech)
    events.append({"type": "technology_bought", "seat": seat, "card": tech, "paid": price})
    update_awards(table, s, events)


def check_resource(kind, what: str) -> str:
    if kind not in RESOURCES:
        raise IllegalMove(f"{what} {kind!r} is not a resource; resources: {', '.join(RESOURCES)}", code="bad_resource")
    return kind


def trade(table: CardTable, s: dict, seat: int, give, get, events: list) -> None:
    check_resource(give, "give")
    check_resource(get, "get")
    if give == get:
        raise IllegalMove("a trade gives one kind of resource for another kind", code="bad_trade")
    rate = table.metadata["trade_rate"]
    player = s["players"][seat]
    pay(player, give, rate, "a trade")
    player["resources"][get] += 1
    events.append({"type": "traded", "seat": seat, "gave": give, "count": rate, "got": get})


def cash(table: CardTable, s: dict, seat: int, card, kind, events: list) -> None:
    """Play a bonus resource card: its value joins the player's resources of its kind
    (a wild card: one kind of the player's choice, never split)."""
    player = s["players"][seat]
    bonus = bonus_of(table, card) if table.kind(card) else None
    if bonus is None or not player["hand"].get(card):
        held = sorted(c for c in player["hand"] if table.kind(c) == "bonus")
        raise IllegalMove(f"{card!r} is no bonus resource card in your hand; you hold: {', '.join(held) or 'none'}",
                          code="not_in_hand")
    wanted = bonus["resource"]
    check_resource(kind, "resource")
    if wanted != "wild" and kind != wanted:
        raise IllegalMove(f"{card} is worth {wanted} only", code="bad_resource")
    take_from_hand(player, card)
    s["discard"].append(card)
    player["resources"][kind] += bonus["value"]
    events.append({"type": "bonus_played", "seat": seat, "card": card, "resource": kind, "value": bonus["value"]})


def scrap(table: CardTable, s: dict, seat: int, plot, card, events: list) -> None:
    """Destroy one's own building or wonder to make room; it goes to the discard pile."""
    player = s["players"][seat]
    index = plot_index(player, plot)
    if card not in player["plots"][index]["buildings"]:
        standing = ", ".join(player["plots"][index]["buildings"]) or "nothing"
        raise IllegalMove(f"plot {plot} holds no {card!r}; it holds {standing}", code="bad_building")
    player["plots"][index]["buildings"].remove(card)
    s["discard"].append(card)
    events.append({"type": "building_scrapped", "seat": seat, "plot": plot, "card": card})
    update_awards(table, s, events)


def give(table: CardTable, s: dict, seat: int, kind, count, events: list) -> None:
    mate = teammate(s, seat)
    if mate is None:
        raise IllegalMove("resources are given only to a teammate in the team variant", code="no_teammate")
    check_resource(kind, "resource")
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise IllegalMove(f"give a whole number of resources, at least 1, not {count!r}", code="bad_count")
    pay(s["players"][seat], kind, count, "the gift")
    s["players"][mate]["resources"][kind] += count
    events.append({"type": "resources_given", "seat": seat, "to": mate, "resource": kind, "count": count})
