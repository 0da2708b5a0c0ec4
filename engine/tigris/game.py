"""Tigris & Euphrates behind the engine contract (docs/engine.md, docs/games/tigris.md)."""
from __future__ import annotations

from engine.core import BaseGame, IllegalMove, named_squares
from engine.sentences import weakest_colours_first
from engine.tigris import actions, drawing, moves, narration, notation, state
from engine.tigris.board import BOARD_MAPS, SQUARE_NAMES, square_index
from engine.tigris.buildings import building_options, place_building
from engine.tigris.conflicts import commit_support, start_war, support_range
from engine.tigris.open_tiles import drawing_seat, take_display_tile, tiles_drawn
from engine.tigris.scoring import ranking
from engine.tigris.state import COLOR_INDEX, COLORS, LEADER_INDEX, MONUMENT_NAMES, State
from engine.tigris.state import to_json as state_to_json
from engine.tigris.summary import summary_lines
from engine.tigris.turn import (
    build_monument,
    draw,
    monument_options,
    return_stranded_leaders,
    settle,
    setup,
    take_treasure,
    treasure_choices,
)
from engine.tigris.ziggurat import build_ziggurat, take_ziggurat_point, ziggurat_options, ziggurat_point_owed

# Each move type and the fields it carries besides "type".
MOVE_FIELDS = {
    "place_tile": ("color", "square"),
    "place_leader": ("leader", "square"),
    "withdraw_leader": ("leader",),
    "place_catastrophe": ("square",),
    "swap_tiles": ("tiles",),
    "commit_support": ("count",),
    "choose_war": ("color",),
    "build_monument": ("monument", "square"),
    "decline_monument": (),
    "take_treasure": ("square",),
    "pass": (),
    "place_building": ("square",),
    "decline_building": (),
    "build_ziggurat": ("square",),
    "decline_ziggurat": (),
    "take_ziggurat_point": ("color",),
    "take_display_tile": ("color",),
    "draw_blind": ("count",),
}
MOVES_BY_DECISION = {
    "action": ("place_tile", "place_leader", "withdraw_leader", "place_catastrophe", "swap_tiles", "pass"),
    "support": ("commit_support",),
    "war_order": ("choose_war",),
    "monument": ("build_monument", "decline_monument"),
    "treasure": ("take_treasure",),
    "building": ("place_building", "decline_building"),
    "ziggurat": ("build_ziggurat", "decline_ziggurat"),
    "ziggurat_point": ("take_ziggurat_point",),
    "draw": ("take_display_tile", "draw_blind"),
}
OPTION_CHOICES = {
    "board": ("standard", "advanced"),
    "open_scoring": (False, True),
    "english_variant": (False, True),
    "buildings": (False, True),
    "ziggurat": (False, True),
    "open_tiles": (False, True),
    # The older edition's one unification tile for everybody: only the marker changes.
    "unification_tiles": ("per_player", "shared"),
}


# The option a form with one of these words needs on (`no building` as well as `building SQUARE`).
_OPTION_OF_WORD = {"building": "buildings", "ziggurat": "ziggurat", "take": "open_tiles", "blind": "open_tiles"}

_TAKE_FIRST_NAMES = {
    name: tuple(SQUARE_NAMES[sq] for sq in sorted(board.take_first)) for name, board in BOARD_MAPS.items()
}


def _bad_move(message: str) -> IllegalMove:
    return IllegalMove(message, code="bad_move")


def _square(move: dict) -> int:
    value = move["square"]
    try:
        return square_index(value)
    except (KeyError, AttributeError):
        raise IllegalMove(
            f"{value!r} is not a square; squares are A1 to P11", code="bad_square"
        ) from None


def _color(value) -> int:
    if not isinstance(value, str) or value not in COLOR_INDEX:
        raise IllegalMove(f"{value!r} is not a colour; colours: {', '.join(COLORS)}", code="bad_color")
    return COLOR_INDEX[value]


def _leader(value) -> int:
    if isinstance(value, str) and value in LEADER_INDEX:
        return LEADER_INDEX[value]
    if isinstance(value, str) and value in COLOR_INDEX:
        return COLOR_INDEX[value]
    raise IllegalMove(
        f"{value!r} is not a leader; leaders: king, priest, farmer, trader", code="bad_leader"
    )


def _tiles(value) -> list[int]:
    if not isinstance(value, dict):
        raise _bad_move("tiles must be an object of colour -> count")
    counts = [0, 0, 0, 0]
    for name, count in value.items():
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise _bad_move(f"tile count for {name!r} must be a whole number")
        counts[_color(name)] += count
    return counts


class Tigris(BaseGame):
    id = "tigris"
    name = "Tigris & Euphrates"
    unplaced_moves = ("pass", "withdraw_leader")  # nothing put on the board: page buttons
    min_players = 2
    max_players = 4
    option_choices = OPTION_CHOICES
    move_fields = MOVE_FIELDS
    moves_by_decision = MOVES_BY_DECISION
    shared_board_picture = True  # its picture differs between seats only by the reader's own marks
    states, notation, narration, drawing = state, notation, narration, drawing  # this game's modules

    def touched_squares(self, move: dict) -> list[str]:
        return named_squares(move)  # every move naming a square puts something on it or takes from it

    def forms_for(self, options: dict) -> tuple[str, ...]:
        """The notation's forms a game with these options can use (a reply's `help`)."""
        merged = {**self.default_options(), **options}
        return tuple(form for form in self.move_forms if all(merged[_OPTION_OF_WORD[word]]
                                                             for word in form.split() if word in _OPTION_OF_WORD))

    def setup(self, players: int, seed: int, options: dict | None = None) -> State:
        return setup(players, seed, self.validate_options(options, players))

    def pending(self, state: State) -> dict[int, str]:
        if state.finished is not None:
            return {}
        conflict = state.conflict
        if conflict is not None:
            side = "attacker" if conflict["attacker_commit"] is None else "defender"
            return {conflict[side]: "support"}
        if state.wars is not None:
            return {state.active: "war_order"}
        if state.monument is not None:
            return {state.active: "monument"}
        if state.ziggurat_offer is not None:
            return {state.active: "ziggurat"}
        if state.building is not None:
            return {state.active: "building"}
        drawing = drawing_seat(state)
        if drawing is not None:
            return {drawing[0]: "draw"}
        choices = treasure_choices(state)
        if choices:
            return {seat: "treasure" for seat in sorted(choices)}
        if state.actions_left == 0 and ziggurat_point_owed(state):  # holds the turn open
            return {state.active: "ziggurat_point"}
        return {state.active: "action"}

    def legal_moves(self, state: State, seat: int) -> list[dict]:
        kind = self.pending(state).get(seat)
        if kind == "action":
            return moves.action_moves(state, seat)
        if kind == "support":
            return moves.support_moves(state, seat)
        if kind == "war_order":
            return moves.war_order_moves(state)
        if kind == "monument":
            return moves.monument_moves(state)
        if kind == "treasure":
            return moves.treasure_moves(state, seat)
        if kind == "building":
            return moves.building_moves(state)
        if kind == "ziggurat":
            return moves.ziggurat_moves(state)
        if kind == "ziggurat_point":
            return moves.ziggurat_point_moves()
        if kind == "draw":
            return moves.draw_moves(state)
        return []

    def is_over(self, state: State) -> bool:
        return state.finished is not None

    def apply_checked(self, state: State, seat: int, move: dict, decision: str) -> tuple[State, list[dict]]:
        s = state.clone()
        events: list[dict] = []
        _HANDLERS[move["type"]](s, seat, move, events)
        settle(s, events)
        return s, events

    def default_move(self, state: State, seat: int) -> dict | None:
        """The move made for a seat that lets its deadline pass: the least committal
        legal choice: an owed action passes (the turn's remaining actions are not taken)."""
        kind = self.pending(state).get(seat)
        if kind is None:
            return None
        if kind == "action":
            return {"type": "pass"}
        if kind == "monument":
            return {"type": "decline_monument"}
        if kind == "building":
            return {"type": "decline_building"}
        if kind == "ziggurat":
            return {"type": "decline_ziggurat"}
        if kind == "draw":  # blind, so nothing is shown
            return self.legal_moves(state, seat)[-1]
        if kind == "ziggurat_point":  # the weakest colour: always the best for the ranking
            scores = state.scores[seat]
            return {"type": "take_ziggurat_point", "color": COLORS[min(range(4), key=lambda c: (scores[c], c))]}
        return self.legal_moves(state, seat)[0]  # support 0, first war, first treasure

    def summary_lines(self, view: dict, seat: int) -> list[str]:
        """The seat's own position in lines, for its decision email (engine/tigris/summary.py)."""
        return summary_lines(view, seat)

    def score_words(self, score) -> str:
        """One seat's final score in the game-over email (engine/sentences.py)."""
        return weakest_colours_first(score)

    def view(self, state: State, seat: int | None) -> dict:
        data = state_to_json(state)
        del data["rng"], data["discarded"]
        data["bag_size"] = sum(data.pop("bag").values())
        revealed = state.finished is not None or state.options.get("open_scoring")
        for other, player in enumerate(data["players"]):
            if other != seat:
                player["hand_size"] = sum(player.pop("hand").values())
                if not revealed:
                    player["score"] = None
        data["seat"] = seat
        data["pending"] = {str(s): kind for s, kind in self.pending(state).items()}
        data["take_first"] = list(_TAKE_FIRST_NAMES[state.board])
        return data

    def outcome(self, state: State) -> dict | None:
        if state.finished is None:
            return None
        return {"reason": state.finished, **ranking(state)}

    def bot_knowledge(self):
        from engine.tigris.bot_knowledge import KNOWLEDGE  # imported on first use: it plays the game

        return KNOWLEDGE


def _place_tile(s, seat, move, events):
    actions.place_tile(s, seat, _color(move["color"]), _square(move), events)


def _place_leader(s, seat, move, events):
    actions.place_leader(s, seat, _leader(move["leader"]), _square(move), events)


def _withdraw_leader(s, seat, move, events):
    actions.withdraw_leader(s, seat, _leader(move["leader"]), events)


def _place_catastrophe(s, seat, move, events):
    actions.place_catastrophe(s, seat, _square(move), events)


def _swap_tiles(s, seat, move, events):
    actions.swap_tiles(s, seat, _tiles(move["tiles"]), events)


def _pass(s, seat, move, events):
    actions.pass_actions(s, seat, events)


def _commit_support(s, seat, move, events):
    count = move["count"]
    allowed = list(support_range(s, seat))
    if isinstance(count, bool) or count not in allowed:
        raise IllegalMove(
            f"you may commit {', '.join(map(str, allowed))} supporters, not {count!r}",
            code="bad_support",
        )
    commit_support(s, seat, count, events)


def _choose_war(s, seat, move, events):
    color = _color(move["color"])
    if color not in s.wars["colors"]:
        allowed = ", ".join(COLORS[c] for c in s.wars["colors"])
        raise IllegalMove(f"no {COLORS[color]} war is waiting; choose one of: {allowed}", code="bad_war")
    events.append({"type": "war_chosen", "seat": seat, "color": COLORS[color]})
    start_war(s, color, events)


def _build_monument(s, seat, move, events):
    name, sq = move["monument"], _square(move)
    options = monument_options(s)
    if name not in MONUMENT_NAMES or (MONUMENT_NAMES.index(name), sq) not in options:
        allowed = ", ".join(f"{MONUMENT_NAMES[m]} {SQUARE_NAMES[t]}" for m, t in options) or "none"
        raise IllegalMove(f"cannot build {name!r} on {SQUARE_NAMES[sq]}; possible: {allowed}", code="bad_monument")
    build_monument(s, seat, MONUMENT_NAMES.index(name), sq, events)


def _decline_monument(s, seat, move, events):
    events.append({"type": "monument_declined", "seat": seat, "square": SQUARE_NAMES[s.monument]})
    s.monument = None


def _place_building(s, seat, move, events):
    sq = _square(move)
    options = building_options(s)
    if sq not in options:
        allowed = ", ".join(SQUARE_NAMES[t] for t in options)
        raise IllegalMove(f"no building can go on {SQUARE_NAMES[sq]}; possible: {allowed}", code="bad_building")
    place_building(s, seat, sq, events)


def _decline_building(s, seat, move, events):
    events.append({"type": "building_declined", "seat": seat, "square": SQUARE_NAMES[s.building]})
    s.building = None


def _build_ziggurat(s, seat, move, events):
    sq = _square(move)
    options = ziggurat_options(s)
    if sq not in options:
        allowed = ", ".join(SQUARE_NAMES[t] for t in options)
        raise IllegalMove(f"no ziggurat can stand with its centre on {SQUARE_NAMES[sq]}; possible: {allowed}",
                          code="bad_ziggurat")
    build_ziggurat(s, seat, sq, events)
    return_stranded_leaders(s, events)


def _decline_ziggurat(s, seat, move, events):
    events.append({"type": "ziggurat_declined", "seat": seat, "square": SQUARE_NAMES[s.ziggurat_offer]})
    s.ziggurat_offer = None


def _take_ziggurat_point(s, seat, move, events):
    take_ziggurat_point(s, seat, _color(move["color"]), events)


def _take_display_tile(s, seat, move, events):
    color = _color(move["color"])
    if s.display[color] == 0:
        shown = ", ".join(f"{n} {COLORS[c]}" for c, n in enumerate(s.display) if n) or "nothing"
        raise IllegalMove(f"no {COLORS[color]} tile is face up; the display shows {shown}", code="bad_draw")
    take_display_tile(s, seat, color, events)


def _draw_blind(s, seat, move, events):
    count, owed = move["count"], drawing_seat(s)[1]
    most = min(owed, sum(s.bag))
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= most:
        raise IllegalMove(f"draw 1 to {most} tiles from the bag, not {count!r}", code="bad_draw")
    draw(s, seat, count, events)
    tiles_drawn(s, count)


def _take_treasure(s, seat, move, events):
    sq = _square(move)
    choices = treasure_choices(s).get(seat, [])
    if sq not in choices:
        allowed = ", ".join(SQUARE_NAMES[t] for t in choices)
        raise IllegalMove(f"you cannot take a treasure on {SQUARE_NAMES[sq]}; take one of: {allowed}",
                          code="bad_treasure")
    take_treasure(s, seat, sq, events)


_HANDLERS = {
    "place_tile": _place_tile,
    "place_leader": _place_leader,
    "withdraw_leader": _withdraw_leader,
    "place_catastrophe": _place_catastrophe,
    "swap_tiles": _swap_tiles,
    "commit_support": _commit_support,
    "choose_war": _choose_war,
    "build_monument": _build_monument,
    "decline_monument": _decline_monument,
    "take_treasure": _take_treasure,
    "pass": _pass,
    "place_building": _place_building,
    "decline_building": _decline_building,
    "build_ziggurat": _build_ziggurat,
    "decline_ziggurat": _decline_ziggurat,
    "take_ziggurat_point": _take_ziggurat_point,
    "take_display_tile": _take_display_tile,
    "draw_blind": _draw_blind,
}
