"""The flow of play: set-up (plot draft, free population, the opening deal and
discards), the start of a turn (collecting), drawing and discarding, the next turn and
the end. `advance` runs every automatic step until some seat owes a decision."""
from __future__ import annotations

from engine.civ_cards import combat
from engine.civ_cards.awards import award_bonus
from engine.civ_cards.effects import fixed_collection, population_groups, population_splits, total
from engine.civ_cards.scoring import ranking
from engine.civ_cards.state import hand_size, new_player, put_in_hand
from engine.civ_cards.table import RESOURCES, CardTable
from engine.core import rng_below, seed_state


def shuffled(s: dict, cards: list) -> list:
    cards = list(cards)
    rng = s["rng"]
    for i in range(len(cards) - 1, 0, -1):  # Fisher-Yates
        rng, j = rng_below(rng, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    s["rng"] = rng
    return cards


def setup(table: CardTable, players: int, seed: int, options: dict) -> dict:
    s = {"game": "civ-cards", "table": table.id, "options": dict(options), "rng": seed_state(seed)}
    s["players"] = [new_player() for _ in range(players)]
    s["dealer"] = players - 1
    s["deck"] = shuffled(s, table.deck_cards())
    s["tech_deck"] = shuffled(s, table.of_kind("technology"))
    s["plot_deck"] = shuffled(s, [p for p in table.of_kind("plot") for _ in range(table.count(p))])
    s["discard"], s["plot_display"], s["tech_display"] = [], [], []
    s["population"] = table.population_total
    s["awards"] = dict.fromkeys(table.awards)
    s["turn"] = {"number": 0, "active": _left_of_dealer(s), "phase": "draft"}
    s["settle"] = s["discarding"] = s["combat"] = s["finished"] = None
    for seat in _clockwise_from_left_of_dealer(s):
        for _ in range(table.metadata["plots_dealt"]):
            s["players"][seat]["plots"].append(_plot(s["plot_deck"].pop(0)))
    _start_draft_round(s, 1)
    advance(table, s, [])
    return s


def _plot(card: str) -> dict:
    return {"plot": card, "population": 0, "buildings": []}


def _left_of_dealer(s: dict) -> int:
    return (s["dealer"] + 1) % len(s["players"])


def _clockwise_from_left_of_dealer(s: dict) -> list[int]:
    n = len(s["players"])
    return [(_left_of_dealer(s) + i) % n for i in range(n)]


def _start_draft_round(s: dict, round_number: int) -> None:
    """Round 1 picks clockwise from the dealer's left; round 2 from the dealer,
    counter-clockwise. As many plots are laid out as there are players."""
    n = len(s["players"])
    order = _clockwise_from_left_of_dealer(s)
    if round_number == 2:
        order = [(s["dealer"] - i) % n for i in range(n)]
    display, s["plot_deck"] = s["plot_deck"][:n], s["plot_deck"][n:]
    s["draft"] = {"round": round_number, "order": order[:len(display)], "display": display}


def advance(table: CardTable, s: dict, events: list) -> None:
    """Run the automatic steps until a decision is owed or the game is over."""
    while s["finished"] is None:
        phase = s["turn"]["phase"]
        step = _STEPS.get(phase)
        if step is None or not step(table, s, events):
            return


def _draft_step(table, s, events) -> bool:
    draft = s["draft"]
    if draft["order"] and len(draft["display"]) == 1:
        pick_plot(s, draft["order"][0], 0, events)  # the last plot goes to the last picker
    if draft["order"]:
        return False
    if draft["round"] == 1 and s["plot_deck"]:
        _start_draft_round(s, 2)
        return True
    s["draft"] = None
    s["turn"]["phase"] = "settle"
    s["settle"] = [seat for seat in _clockwise_from_left_of_dealer(s)
                   if s["players"][seat]["plots"]][:s["population"]]  # a table may have fewer population cards
    return True


def pick_plot(s: dict, seat: int, index: int, events: list) -> None:
    draft = s["draft"]
    card = draft["display"].pop(index)
    draft["order"].remove(seat)
    s["players"][seat]["plots"].append(_plot(card))
    events.append({"type": "plot_picked", "seat": seat, "plot": card})


def _settle_step(table, s, events) -> bool:
    if s["settle"]:
        return False
    s["settle"] = None
    size = table.metadata["display_size"]
    for _ in range(size):
        refill_display(s, "plot", size)
        refill_display(s, "tech", size)
    for seat, count in zip(_clockwise_from_left_of_dealer(s), table.metadata["opening_hands"]):
        draw(s, seat, count, events)
    s["turn"]["phase"] = "opening_discard"
    order = _clockwise_from_left_of_dealer(s)
    s["discarding"] = {"order": order, "left": _discard_count(s, order[0], table.metadata["opening_discard"])}
    return True


def refill_display(s: dict, which: str, size: int) -> None:
    """Lay one more plot or technology face up, if its deck has one and room is left."""
    deck, display = s[f"{which}_deck"], s[f"{which}_display"]
    if deck and len(display) < size:
        display.append(deck.pop(0))


def _discard_count(s: dict, seat: int, wanted: int) -> int:
    return min(wanted, hand_size(s["players"][seat]))


def _discard_step(table, s, events) -> bool:
    discarding = s["discarding"]
    if discarding["left"] > 0:
        return False
    discarding["order"].pop(0)
    if discarding["order"]:
        wanted = table.metadata["opening_discard"]
        discarding["left"] = _discard_count(s, discarding["order"][0], wanted)
        return True
    s["discarding"] = None
    if s["turn"]["phase"] == "opening_discard":
        s["turn"]["number"] = 0
        start_turn(s, _left_of_dealer(s), events)
    else:
        events.append({"type": "turn_ended", "seat": s["turn"]["active"], "turn": s["turn"]["number"]})
        start_turn(s, (s["turn"]["active"] + 1) % len(s["players"]), events)
    return True


def start_turn(s: dict, seat: int, events: list) -> None:
    s["turn"] = {"number": s["turn"]["number"] + 1, "active": seat, "phase": "collect"}


def collect_choices(table: CardTable, s: dict, seat: int) -> list[dict[str, int]]:
    """Every way the seat's population may split its yield among kinds."""
    return population_splits(population_groups(table, s["players"][seat]))


def _collect_step(table, s, events) -> bool:
    seat = s["turn"]["active"]
    choices = collect_choices(table, s, seat)
    if len(choices) > 1:
        return False
    collect(table, s, seat, choices[0], events)
    return True


def collect(table: CardTable, s: dict, seat: int, from_population: dict, events: list) -> None:
    player = s["players"][seat]
    got = fixed_collection(table, player)
    for kind in RESOURCES:
        got[kind] += from_population.get(kind, 0)
        player["resources"][kind] += got[kind]
    events.append({"type": "resources_collected", "seat": seat, "resources": got})
    s["turn"]["phase"] = "buy"


def _combat_step(table, s, events) -> bool:
    if not combat.resolve(table, s, events):
        return False
    s["combat"] = None
    start_draw(table, s, events)
    return True


def start_draw(table: CardTable, s: dict, events: list) -> None:
    """Draw 4 (plus the Highest Culture card's), then the technologies' and wonders'
    extra cards just before discarding; then discard 2 (plus the award's)."""
    seat = s["turn"]["active"]
    meta = table.metadata
    player = s["players"][seat]
    count = meta["draw"] + award_bonus(table, s, seat, "draw") + total(table, player, "extra_draw")
    draw(s, seat, count, events)
    s["turn"]["phase"] = "discard"
    wanted = meta["discard"] + award_bonus(table, s, seat, "discard")
    s["discarding"] = {"order": [seat], "left": _discard_count(s, seat, wanted)}


def draw(s: dict, seat: int, count: int, events: list) -> None:
    """Draw from the play deck; when it runs out the discard pile is shuffled into a
    new deck (the rulebook is silent); with both empty fewer cards are drawn."""
    got: dict[str, int] = {}
    player = s["players"][seat]
    for _ in range(count):
        if not s["deck"] and s["discard"]:
            s["deck"] = shuffled(s, sorted(s["discard"]))
            s["discard"] = []
            events.append({"type": "deck_reshuffled", "size": len(s["deck"])})
        if not s["deck"]:
            break
        card = s["deck"].pop(0)
        put_in_hand(player, card)
        got[card] = got.get(card, 0) + 1
    # The others learn how many, the drawer which: one line each in a log.
    events.append({"type": "cards_drawn", "seat": seat, "count": sum(got.values()),
                   **({"hidden_from": [seat]} if got else {})})
    if got:
        events.append({"type": "cards_received", "seat": seat, "cards": got, "visible_to": [seat]})


def finish(table: CardTable, s: dict, reason: str, events: list) -> None:
    s["finished"] = {"reason": reason}
    s["combat"] = s["discarding"] = None
    result = ranking(table, s)
    events.append({"type": "game_ended", "reason": reason, "ranking": result["ranking"]})


def _waiting(table, s, events) -> bool:
    return False


_STEPS = {
    "draft": _draft_step,
    "settle": _settle_step,
    "opening_discard": _discard_step,
    "collect": _collect_step,
    "buy": _waiting,
    "combat": _combat_step,
    "discard": _discard_step,
}
