"""Civilization: The Card Game, behind the engine contract
(docs/engine.md, docs/games/civ-cards.md). The cards come from a card table
(engine/civ_cards/cards.json by default); the game object is built on one."""
from __future__ import annotations

from engine.civ_cards import buying, combat, drawing, narration, notation
from engine.civ_cards.awards import scores
from engine.civ_cards.buying import plot_price, population_price
from engine.civ_cards.choices import choice_words
from engine.civ_cards.moves import MOVES, give_moves, link_moves, trade_moves
from engine.civ_cards.reasons import reason
from engine.civ_cards.scoring import figures, ranking
from engine.civ_cards.state import clone_state, from_json, take_from_hand
from engine.civ_cards.summary import summary_lines
from engine.civ_cards.table import CardTable, load_table
from engine.civ_cards.turn import advance, collect, collect_choices, finish, pick_plot, setup, start_draw
from engine.core import BaseGame, EngineError, IllegalMove
from engine.sentences import count

MOVE_FIELDS = {
    "pick_plot": ("slot",), "settle": ("plot",), "discard": ("card",), "collect": ("population",),
    "buy_plot": ("slot", "pay"), "buy_population": ("plot",), "build": ("card", "plot"),
    "research": ("card",), "trade": ("give", "get"), "cash": ("card", "resource"),
    "scrap": ("plot", "card"), "give": ("resource", "count"), "end_buying": (),
    "attack": ("card", "target"), "fight": (), "return_walls": ("plot",), "repel": ("unit",),
    "counter": ("card", "unit"), "end_counters": (), "give_population": ("plots",),
    "lose_buildings": ("buildings",), "place_population": ("plots",),
}
MOVES_BY_DECISION = {
    "draft": ("pick_plot",), "settle": ("settle",), "discard": ("discard",), "collect": ("collect",),
    "buy": ("buy_plot", "buy_population", "build", "research", "trade", "cash", "scrap", "give", "end_buying"),
    "attack": ("attack", "fight"), "catapult": ("return_walls",), "walls": ("repel",),
    "counter": ("counter", "end_counters"), "give_population": ("give_population",),
    "lose_buildings": ("lose_buildings",), "place_population": ("place_population",),
}
OPTION_CHOICES = {
    "teams": ("none", "opposite", "adjacent"),
    "happiness_discounts_wonders": (True, False),
    "culture_threshold_rule": ("at_least_2", "more_than_2"),
}
# The phases of a player's own turn. The rulebook allows the 3:1 trade "in qualsiasi
# momento durante il turno di gioco", and teammates' gifts "durante i loro turni": with
# any decision he owes in one of them.
TURN_PHASES = ("collect", "buy", "combat", "discard")
# Moves that go with any decision of one's own turn (TURN_PHASES). Not scrapping: the
# rulebook's "in qualsiasi momento il loro possessore desideri" is "per liberare spazio
# per un altro edificio o meraviglia", and those are placed only while buying.
OWN_TURN_MOVES = ("trade", "give")
PROMPTS = {
    "draft": "Pick a plot from the draft.",
    "settle": "Choose the plot for your free population.",
    "discard": "Discard a card from your hand.",
    "collect": "Choose what your population yields this turn.",
    "buy": "Buy plots, population, buildings, wonders or technologies, trade 3:1, or end buying.",
    "attack": "Commit units against your neighbours, then fight (or fight with none to skip combat).",
    "catapult": "A catapult returns one of your Walls to your hand: choose which plot's.",
    "walls": "Your Walls may send one attacking unit back: choose it, or none.",
    "counter": "Counter attacking units with cards from your hand (in secret), then say done.",
    "give_population": "Choose the plots your stolen population leaves.",
    "lose_buildings": "Choose the buildings you lose (they return to your hand).",
    "place_population": "Choose the plots your captured population joins.",
}


class CivCards(BaseGame):
    id = "civ-cards"
    name = "Civilization: The Card Game"
    unplaced_moves = ()  # its moves are all chosen on the tableaux or by link_moves
    min_players = 2
    max_players = 4
    option_choices = OPTION_CHOICES
    move_fields = MOVE_FIELDS
    moves_by_decision = MOVES_BY_DECISION
    notation, narration, drawing = notation, narration, drawing  # this game's modules (states need the table)

    def forms_for(self, options: dict) -> tuple[str, ...]:
        """The notation's forms a game with these options can use (a reply's `help`):
        giving resources is between teammates only."""
        teams = options.get("teams", OPTION_CHOICES["teams"][0]) != "none"
        return tuple(form for form in self.move_forms if teams or not form.startswith("give "))

    def __init__(self, table: CardTable | None = None):
        self.table: CardTable = table or load_table()
        provisional = " (provisional card table)" if self.table.metadata.get("provisional") else ""
        self.description = f"Civilization: The Card Game (Firaxis 2006){provisional}: {self.table.metadata['title']}."

    def validate_options(self, options: dict | None, players: int) -> dict:
        merged = super().validate_options(options, players)
        if merged["teams"] != "none" and players != 4:
            raise EngineError("the team variant is for 4 players", code="bad_option")
        return merged

    def setup(self, players: int, seed: int, options: dict | None = None) -> dict:
        return setup(self.table, players, seed, self.validate_options(options, players))

    def pending(self, s: dict) -> dict[int, str]:
        if s["finished"] is not None:
            return {}
        phase = s["turn"]["phase"]
        if phase == "draft":
            return {s["draft"]["order"][0]: "draft"}
        if phase == "settle":
            return {seat: "settle" for seat in s["settle"]}
        if phase in ("opening_discard", "discard"):
            return {s["discarding"]["order"][0]: "discard"}
        if phase == "combat":
            return combat.owed(self.table, s)
        return {s["turn"]["active"]: phase}

    def legal_moves(self, s: dict, seat: int) -> list[dict]:
        kind = self.pending(s).get(seat)
        if kind is None:
            return []
        moves = MOVES[kind](self.table, s, seat)
        if kind != "buy" and self._own_turn(s, seat):  # buying lists these among its own moves
            moves.extend(trade_moves(self.table, s, seat))
            moves.extend(give_moves(self.table, s, seat))
        return moves

    @staticmethod
    def _own_turn(s: dict, seat: int) -> bool:
        """Whether the seat is the player whose turn it is (see TURN_PHASES)."""
        return s["turn"]["phase"] in TURN_PHASES and s["turn"]["active"] == seat

    def link_moves(self, s: dict, seat: int) -> list[dict]:
        """The few moves offered as links or buttons when the choices are many (see
        moves.link_moves); the rest are typed, sent by reply or clicked on the table."""
        kind = self.pending(s).get(seat)
        return [] if kind is None else link_moves(kind, self.legal_moves(s, seat))

    def choice_label(self, s: dict, seat: int, move: dict) -> str:
        """A move offered to `seat`, naming the card, plot or unit it acts on
        (engine/civ_cards/choices.py)."""
        return choice_words(self.table, self.view(s, seat), move)

    def card_label(self, card: str) -> str:
        """A card as players know it: its name on the table."""
        return self.table.name(card)

    def is_over(self, s: dict) -> bool:
        return s["finished"] is not None

    def summary_lines(self, view: dict, seat: int) -> list[str]:
        """The table in short lines from the seat's side, for its decision email
        (engine/civ_cards/summary.py)."""
        return summary_lines(self.table, view, seat)

    def board_text(self, view: dict) -> str:
        """Nothing: the decision email's summary lines hold the table in words (a second
        copy, the drawing's `board_text`, would repeat them)."""
        return ""

    def answers(self, state: dict, seat: int, decision: str, kind: str) -> bool:
        """Whether a move of `kind` answers the seat's decision: the 3:1 trade and a gift
        to the teammate also may with any decision of the player's own turn
        (OWN_TURN_MOVES); they leave the decision owed as it was."""
        return super().answers(state, seat, decision, kind) or (kind in OWN_TURN_MOVES and self._own_turn(state, seat))

    def apply_checked(self, state: dict, seat: int, move: dict, decision: str) -> tuple[dict, list[dict]]:
        s = clone_state(state)
        events: list[dict] = []
        _HANDLERS[move["type"]](self.table, s, seat, move, events)
        advance(self.table, s, events)
        return s, events

    def default_move(self, s: dict, seat: int) -> dict | None:
        """The move made for a seat that lets its deadline pass: end buying, fight with
        what is committed, let walls and counters be, or the first listed choice."""
        kind = self.pending(s).get(seat)
        if kind is None:
            return None
        least: dict[str, dict] = {"buy": {"type": "end_buying"}, "attack": {"type": "fight"},
                 "walls": {"type": "repel", "unit": None}, "counter": {"type": "end_counters"}}
        return least.get(kind) or self.legal_moves(s, seat)[0]

    def view(self, s: dict, seat: int | None) -> dict:
        data = clone_state(s)
        del data["rng"]
        for pile in ("deck", "plot_deck", "tech_deck", "discard"):
            data[f"{pile}_size"] = len(data.pop(pile))
        for other, player in enumerate(data["players"]):
            player["figures"] = figures(self.table, player)
            player["plot_price"] = plot_price(self.table, player)
            player["population_price"] = population_price(self.table, player)
            if other != seat:
                player["hand_size"] = sum(player.pop("hand").values())
        for _award_id, award in self.table.awards.items():
            for player, points in zip(data["players"], scores(self.table, s, award)):
                player[award["score"]] = points
        fight = data["combat"]
        if fight is not None and fight["stage"] in ("declare", "catapult", "walls", "counter"):
            for front in fight["fronts"]:
                if front["defender"] != seat:
                    front["counters"] = "hidden"
        data["seat"] = seat
        data["pending"] = {str(k): v for k, v in self.pending(s).items()}
        data["provisional_table"] = bool(self.table.metadata.get("provisional"))
        return data

    def outcome(self, s: dict) -> dict | None:
        if s["finished"] is None:
            return None
        return {"reason": s["finished"]["reason"], **ranking(self.table, s)}

    def score_words(self, score: dict) -> str:
        """The VP and, in their order, the figures that break a tie in VP."""
        technologies = "1 technology" if score["technologies"] == 1 else f"{score['technologies']} technologies"
        wonders = count(score["wonders"], "wonder")
        return f"{score['vp']} VP ({technologies}, {score['population']} population, {wonders})"

    def to_json(self, s: dict) -> dict:
        return clone_state(s)

    def from_json(self, data: dict) -> dict:
        return from_json(self.table, data)

    def parse_move(self, text: str) -> dict:
        return self.notation.parse_move(text, frozenset(self.table.cards))

    def prompt(self, s: dict, seat: int, names: dict) -> str:
        """What the seat owes and why (engine/civ_cards/reasons.py); in a combat, first
        who attacks whom with what."""
        kind = self.pending(s).get(seat)
        if kind is None:
            return ""
        words = " ".join(filter(None, [PROMPTS.get(kind, ""), reason(self.table, s, seat, kind)]))
        fight = s["combat"]
        if fight is None or not fight["fronts"]:
            return words
        attacker = s["turn"]["active"]
        who = lambda n: f"{names.get(n) or 'seat ' + str(n)} (seat {n})"  # noqa: E731
        fronts = {f["defender"]: f for f in fight["fronts"]}
        units = lambda f: ", ".join(f"{i + 1}. {self.table.name(u)}{' (sent back)' if i == f['repelled'] else ''}"  # noqa: E731
                                    for i, u in enumerate(f["units"]))
        if seat == attacker:
            lines = "; ".join(f"{who(d)} with {units(f)}" for d, f in sorted(fronts.items()))
            return f"You attack {lines}. {words}"
        return f"{who(attacker)} attacks you with {units(fronts[seat])}. {words}"

    def describe_event(self, event: dict, names: dict) -> str | None:
        """An event in words: who, what, and its public details."""
        return narration.describe_event(event, names, self.table)


def _must(condition: bool, message: str, code: str) -> None:
    if not condition:
        raise IllegalMove(message, code=code)


def _in_list(move: dict, legal: list[dict], message: str, code: str) -> None:
    # Compared with the kinds of the values too: JSON's true is not the unit 1.
    _must(any(move == m and all(type(move[k]) is type(m[k]) for k in m) for m in legal), message, code)


def _sorted(value):
    """A list of choices in canonical order, or the value as given when it is no such list."""
    try:
        return sorted(value) if isinstance(value, list) else value
    except TypeError:
        return value


def _pick_plot(table, s, seat, move, events):
    display = s["draft"]["display"]
    slot = move["slot"]
    _must(isinstance(slot, int) and not isinstance(slot, bool) and 1 <= slot <= len(display),
          f"pick a plot 1 to {len(display)} of the draft, not {slot!r}", "bad_slot")
    pick_plot(s, seat, slot - 1, events)


def _settle(table, s, seat, move, events):
    player = s["players"][seat]
    index = buying.plot_index(player, move["plot"])
    _must(s["population"] > 0, "no population card is left", "no_population")
    s["population"] -= 1
    player["plots"][index]["population"] += 1
    s["settle"].remove(seat)
    events.append({"type": "population_settled", "seat": seat, "plot": move["plot"]})


def _discard(table, s, seat, move, events):
    card = move["card"]
    player = s["players"][seat]
    _must(isinstance(card, str) and player["hand"].get(card, 0) > 0,
          f"{card!r} is not in your hand; you hold: {', '.join(sorted(player['hand']))}", "not_in_hand")
    take_from_hand(player, card)
    s["discard"].append(card)
    s["discarding"]["left"] -= 1
    events.append({"type": "card_discarded", "seat": seat})
    events.append({"type": "card_discarded_privately", "seat": seat, "card": card, "visible_to": [seat]})


def _collect(table, s, seat, move, events):
    choices = collect_choices(table, s, seat)
    population = move["population"]
    allowed = "; ".join("/".join(str(c[k]) for k in c) for c in choices)
    _must(population in choices,
          f"your population can yield (food/production/commerce) one of: {allowed}", "bad_collect")
    collect(table, s, seat, population, events)


def _end_buying(table, s, seat, move, events):
    s["turn"]["phase"] = "combat"
    s["combat"] = combat.new_combat()
    events.append({"type": "buying_ended", "seat": seat})


def _research(table, s, seat, move, events):
    buying.research(table, s, seat, move["card"], events)
    if not s["tech_display"] and not s["tech_deck"]:
        finish(table, s, "last_technology", events)


def _attack(table, s, seat, move, events):
    card, target = move["card"], move["target"]
    player = s["players"][seat]
    _must(isinstance(card, str) and table.kind(card) == "unit" and player["hand"].get(card, 0) > 0,
          f"{card!r} is no unit in your hand", "not_in_hand")
    targets = combat.neighbours(s, seat)
    _must(target in targets and not isinstance(target, bool),
          f"you may attack only your neighbours: seats {', '.join(map(str, targets))}", "bad_target")
    take_from_hand(player, card)
    combat.declare(s, seat, card, target, events)


def _fight(table, s, seat, move, events):
    if not s["combat"]["fronts"]:
        s["combat"] = None
        events.append({"type": "no_combat", "seat": seat})
        start_draw(table, s, events)
        return
    combat.fight(table, s, events)


def _return_walls(table, s, seat, move, events):
    front = combat.front_of(s, seat)
    _in_list(move, MOVES["catapult"](table, s, seat),
             "choose a plot of yours holding Walls", "bad_plot")
    combat.return_walls(table, s, front, move["plot"] - 1, events)


def _repel(table, s, seat, move, events):
    front = combat.front_of(s, seat)
    live = [i + 1 for i in combat.live_units(front)]
    unit = move["unit"]
    _must(unit is None or (unit in live and not isinstance(unit, bool)),
          f"send back one attacking unit ({', '.join(map(str, live))}) or none", "bad_unit")
    combat.repel(s, front, None if unit is None else unit - 1, events)


def _counter(table, s, seat, move, events):
    _in_list(move, MOVES["counter"](table, s, seat),
             f"{move['card']!r} cannot counter attacking unit {move['unit']!r}: it must be a card in your hand "
             "that counters that unit, which no other card counters yet", "bad_counter")
    front = combat.front_of(s, seat)
    front["counters"].append([move["card"], move["unit"] - 1])
    events.append({"type": "counter_chosen", "seat": seat, "card": move["card"], "unit": move["unit"],
                   "visible_to": [seat]})


def _end_counters(table, s, seat, move, events):
    combat.front_of(s, seat)["counters_done"] = True
    events.append({"type": "counters_done", "seat": seat})


def _give_population(table, s, seat, move, events):
    front = combat.front_of(s, seat)
    plots = _sorted(move["plots"])
    _in_list({"type": "give_population", "plots": plots}, MOVES["give_population"](table, s, seat),
             f"name {front['steal']} plot numbers, one per population lost, each plot at most as often as it "
             "holds population", "bad_plots")
    combat.give_population(s, front, [p - 1 for p in plots], events)


def _lose_buildings(table, s, seat, move, events):
    front = combat.front_of(s, seat)
    chosen = move["buildings"]
    legal = MOVES["lose_buildings"](table, s, seat)
    key = _sorted(chosen)
    _in_list({"type": "lose_buildings", "buildings": key}, legal,
             f"name {front['destroy']} of your buildings as PLOT:CARD (wonders cannot be destroyed)", "bad_buildings")
    combat.lose_buildings(s, front, [(p - 1, card) for p, card in key], events)


def _place_population(table, s, seat, move, events):
    plots = _sorted(move["plots"])
    _in_list({"type": "place_population", "plots": plots}, MOVES["place_population"](table, s, seat),
             f"name {s['combat']['stolen']} of your plot numbers, one per captured population", "bad_plots")
    combat.place_population(s, [p - 1 for p in plots], events)


_HANDLERS = {
    "pick_plot": _pick_plot,
    "settle": _settle,
    "discard": _discard,
    "collect": _collect,
    "buy_plot": lambda t, s, seat, m, e: buying.buy_plot(t, s, seat, m["slot"], m["pay"], e),
    "buy_population": lambda t, s, seat, m, e: buying.buy_population(t, s, seat, m["plot"], e),
    "build": lambda t, s, seat, m, e: buying.build(t, s, seat, m["card"], m["plot"], e),
    "research": _research,
    "trade": lambda t, s, seat, m, e: buying.trade(t, s, seat, m["give"], m["get"], e),
    "cash": lambda t, s, seat, m, e: buying.cash(t, s, seat, m["card"], m["resource"], e),
    "scrap": lambda t, s, seat, m, e: buying.scrap(t, s, seat, m["plot"], m["card"], e),
    "give": lambda t, s, seat, m, e: buying.give(t, s, seat, m["resource"], m["count"], e),
    "end_buying": _end_buying,
    "attack": _attack,
    "fight": _fight,
    "return_walls": _return_walls,
    "repel": _repel,
    "counter": _counter,
    "end_counters": _end_counters,
    "give_population": _give_population,
    "lose_buildings": _lose_buildings,
    "place_population": _place_population,
}
