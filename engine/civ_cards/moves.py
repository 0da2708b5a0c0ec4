"""Listing the legal moves of a seat, in full, so clients can offer them as choices."""
from __future__ import annotations

from itertools import combinations, combinations_with_replacement

from engine.civ_cards import combat
from engine.civ_cards.buying import card_price, plot_price, population_price
from engine.civ_cards.effects import bonus_of, building_room, removable_walls
from engine.civ_cards.scoring import teammate
from engine.civ_cards.table import RESOURCES, CardTable
from engine.civ_cards.turn import collect_choices


def _hand(table: CardTable, player: dict) -> list[str]:
    return sorted(player["hand"], key=table.sort_key)


def draft_moves(table, s, seat):
    return [{"type": "pick_plot", "slot": i + 1} for i in range(len(s["draft"]["display"]))]


def settle_moves(table, s, seat):
    return [{"type": "settle", "plot": i + 1} for i in range(len(s["players"][seat]["plots"]))]


def discard_moves(table, s, seat):
    return [{"type": "discard", "card": card} for card in _hand(table, s["players"][seat])]


def collect_moves(table, s, seat):
    return [{"type": "collect", "population": split} for split in collect_choices(table, s, seat)]


def buy_moves(table: CardTable, s: dict, seat: int) -> list[dict]:
    player = s["players"][seat]
    held = player["resources"]
    moves = _plot_moves(table, s, player)
    if s["population"] > 0 and held["food"] >= population_price(table, player):
        moves.extend({"type": "buy_population", "plot": i + 1} for i in range(len(player["plots"])))
    for card in _hand(table, player):
        if table.kind(card) in ("building", "wonder") and held["production"] >= card_price(table, s, seat, card):
            moves.extend(
                {"type": "build", "card": card, "plot": i + 1} for i, plot in enumerate(player["plots"])
                if len(plot["buildings"]) < building_room(table, player, plot))
        bonus = bonus_of(table, card)
        if bonus is not None:
            kinds = RESOURCES if bonus["resource"] == "wild" else (bonus["resource"],)
            moves.extend({"type": "cash", "card": card, "resource": kind} for kind in kinds)
    moves.extend(
        {"type": "research", "card": tech} for tech in s["tech_display"]
        if held["commerce"] >= card_price(table, s, seat, tech))
    moves.extend(trade_moves(table, s, seat))
    moves.extend(scrap_moves(table, s, seat))
    moves.extend(give_moves(table, s, seat))
    moves.append({"type": "end_buying"})
    return moves


def scrap_moves(table: CardTable, s: dict, seat: int) -> list[dict]:
    """Scrapping each of the seat's standing buildings and wonders (once per plot and card)."""
    plots = s["players"][seat]["plots"]
    standing = {(i + 1, card) for i, plot in enumerate(plots) for card in plot["buildings"]}
    return [{"type": "scrap", "plot": plot, "card": card} for plot, card in sorted(standing)]


def give_moves(table: CardTable, s: dict, seat: int) -> list[dict]:
    """The gifts of resources to the seat's teammate (none outside the team variant)."""
    if teammate(s, seat) is None:
        return []
    held = s["players"][seat]["resources"]
    return [{"type": "give", "resource": kind, "count": n} for kind in RESOURCES for n in range(1, held[kind] + 1)]


def trade_moves(table: CardTable, s: dict, seat: int) -> list[dict]:
    """The 3:1 trades the seat's resources allow."""
    held, rate = s["players"][seat]["resources"], table.metadata["trade_rate"]
    return [{"type": "trade", "give": give, "get": get} for give in RESOURCES for get in RESOURCES
            if give != get and held[give] >= rate]


def _plot_moves(table: CardTable, s: dict, player: dict) -> list[dict]:
    price = plot_price(table, player)
    food, production, commerce = (player["resources"][k] for k in RESOURCES)
    if not s["plot_display"] or food + production + commerce < price:
        return []
    mixes = []
    for f in range(min(food, price) + 1):
        for p in range(min(production, price - f) + 1):
            if price - f - p <= commerce:
                mixes.append({"food": f, "production": p, "commerce": price - f - p})
    return [{"type": "buy_plot", "slot": slot + 1, "pay": mix}
            for slot in range(len(s["plot_display"])) for mix in mixes]


def attack_moves(table, s, seat):
    player = s["players"][seat]
    targets = combat.neighbours(s, seat)
    moves = [{"type": "attack", "card": card, "target": target}
             for card in _hand(table, player) if table.kind(card) == "unit" for target in targets]
    moves.append({"type": "fight"})
    return moves


def catapult_moves(table, s, seat):
    walls = sorted(set(removable_walls(table, s["players"][seat])))
    return [{"type": "return_walls", "plot": i + 1} for i in walls]


def walls_moves(table, s, seat):
    front = combat.front_of(s, seat)
    return [{"type": "repel", "unit": i + 1} for i in combat.live_units(front)] + [{"type": "repel", "unit": None}]


def counter_moves(table, s, seat):
    front = combat.front_of(s, seat)
    player = s["players"][seat]
    moves = []
    for card in _hand(table, player):
        if player["hand"][card] > combat.committed(front, card):
            moves.extend({"type": "counter", "card": card, "unit": i + 1}
                         for i in combat.counter_targets(table, s, front, card))
    moves.append({"type": "end_counters"})
    return moves


def give_population_moves(table, s, seat):
    front = combat.front_of(s, seat)
    plots = s["players"][seat]["plots"]
    pool = [i + 1 for i, plot in enumerate(plots) for _ in range(plot["population"])]
    return [{"type": "give_population", "plots": list(c)} for c in sorted(set(combinations(pool, front["steal"])))]


def lose_buildings_moves(table, s, seat):
    front = combat.front_of(s, seat)
    # In canonical order, as `apply` compares a choice: each combination then lists it so.
    pool = sorted([i + 1, card] for i, card in combat.destroyable(table, s["players"][seat]))
    choices = sorted({tuple(tuple(b) for b in c) for c in combinations(pool, front["destroy"])})
    return [{"type": "lose_buildings", "buildings": [list(b) for b in c]} for c in choices]


def place_population_moves(table, s, seat):
    plots = range(1, len(s["players"][seat]["plots"]) + 1)
    return [{"type": "place_population", "plots": list(c)}
            for c in combinations_with_replacement(plots, s["combat"]["stolen"])]


MOVES = {
    "draft": draft_moves,
    "settle": settle_moves,
    "discard": discard_moves,
    "collect": collect_moves,
    "buy": buy_moves,
    "attack": attack_moves,
    "catapult": catapult_moves,
    "walls": walls_moves,
    "counter": counter_moves,
    "give_population": give_population_moves,
    "lose_buildings": lose_buildings_moves,
    "place_population": place_population_moves,
}


FEW_CHOICES = 12  # a decision with no more choices than this offers every one as a link

# The way on from a decision (also what a passed deadline plays), always offered first.
WAY_ON: dict[str, dict] = {"buy": {"type": "end_buying"}, "attack": {"type": "fight"},
          "counter": {"type": "end_counters"}, "walls": {"type": "repel", "unit": None}}
# The moves of a decision with many choices that are still one click each: no payment
# mix, plot or combination of cards to pick.
SIMPLE_MOVES = {"buy": ("research", "trade"), "attack": ("attack",), "counter": ("counter",), "walls": ("repel",)}
COMBINATIONS = ("give_population", "lose_buildings", "place_population")


def link_moves(kind: str, legal: list[dict]) -> list[dict]:
    """The choices worth a link or button: all when few; else the way on (end buying,
    fight, counters done, no unit sent back) and the simple choices (a technology of
    the display, a 3:1 trade, a unit and its target); for a choice of several plots or
    buildings, the ones on a single plot first. Each other kind of decision is one
    click per choice already (a plot, a card, a split of the yield). Gifts outside buying
    are left out: they may go with any decision of one's own turn, but are typed (or
    clicked on the page), not offered beside a discard or a combat choice."""
    if kind != "buy":
        legal = [move for move in legal if move["type"] != "give"]
    if len(legal) <= FEW_CHOICES:
        return legal
    # The 3:1 trades of one's own turn come early, as a long list is cut (FEW_CHOICES).
    trades = [move for move in legal if move["type"] == "trade"]
    if kind in WAY_ON:
        way_on = WAY_ON[kind]
        return [way_on] + trades + [move for move in legal
                                    if move["type"] in SIMPLE_MOVES[kind] and move not in (way_on, *trades)]
    if kind in COMBINATIONS:
        answers = [move for move in legal if move["type"] == kind]
        return (trades + sorted(answers, key=lambda move: len(_plots_named(move)) > 1))[:FEW_CHOICES]
    return trades + [move for move in legal if move["type"] != "trade"]


def _plots_named(move: dict) -> set[int]:
    """The plots a combat answer names: population by plot number, buildings as [plot, card]."""
    if "plots" in move:
        return set(move["plots"])
    return {plot for plot, _card in move["buildings"]}
