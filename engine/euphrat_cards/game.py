"""Euphrat & Tigris: the card game, behind the engine contract
(docs/engine.md, docs/games/euphrat-cards.md)."""
from __future__ import annotations

from engine.core import BaseGame, IllegalMove
from engine.euphrat_cards import actions, drawing, moves, narration, notation, state
from engine.euphrat_cards.card_text import color_words
from engine.euphrat_cards.cards import (
    COLOR_INDEX,
    COLORS,
    COLUMN_LETTERS,
    GAP_BASE,
    LEADER_INDEX,
    SHIP_CODES,
    column_index,
    gap_index,
    parse_place,
    place_name,
)
from engine.euphrat_cards.conflicts import commit_support, start_external, support_color
from engine.euphrat_cards.ending import END_VOTE, agree_end, may_propose, propose_end, refuse_end, table_full
from engine.euphrat_cards.rewards import (
    build_ship,
    can_take,
    close_offer,
    decline_offer,
    offer_for,
    score_from_hand,
    ship_choices,
    swap_treasure,
)
from engine.euphrat_cards.scoring import ranking
from engine.euphrat_cards.state import STANDING_ANSWERS, State
from engine.euphrat_cards.state import to_json as state_to_json
from engine.euphrat_cards.summary import summary_lines
from engine.euphrat_cards.turn import finish, settle, setup
from engine.sentences import weakest_colours_first

# Each move type and the fields it carries besides "type".
MOVE_FIELDS = {
    "play_card": ("color", "place"),
    "place_leader": ("leader", "card"),
    "withdraw_leader": ("leader",),
    "play_catastrophe": ("card",),
    "pass": (),
    "commit_support": ("count",),
    "choose_conflict": ("color",),
    "score": (),
    "build_ship": ("ship",),
    "swap_treasure": ("column",),
    "decline": (),
    "set_answer": ("offer", "answer"),
    "propose_end": (),
    "agree_end": (),
    "refuse_end": (),
}
# A standing answer may be set with any decision the seat owes; it takes no action.
MOVES_BY_DECISION = {
    "action": ("play_card", "place_leader", "withdraw_leader", "play_catastrophe", "pass", "propose_end", "set_answer"),
    "support": ("commit_support", "set_answer"),
    "conflict_order": ("choose_conflict", "set_answer"),
    "score": ("score", "decline", "set_answer"),
    "ship": ("build_ship", "decline", "set_answer"),
    "treasure": ("swap_treasure", "decline", "set_answer"),
    END_VOTE: ("agree_end", "refuse_end"),
}
OPTION_CHOICES = {
    "two_player_trim": (True, False),
    "open_scoring": (False, True),
}


def _bad_move(message: str) -> IllegalMove:
    return IllegalMove(message, code="bad_move")


def _color(value) -> int:
    if not isinstance(value, str) or value not in COLOR_INDEX:
        raise IllegalMove(f"{value!r} is not a colour; colours: {', '.join(COLORS)}", code="bad_color")
    return COLOR_INDEX[value]


def _leader(value) -> int:
    if isinstance(value, str) and value in LEADER_INDEX:
        return LEADER_INDEX[value]
    if isinstance(value, str) and value in COLOR_INDEX:
        return COLOR_INDEX[value]
    raise IllegalMove(f"{value!r} is not a leader; leaders: king, priest, farmer, trader", code="bad_leader")


def _card_place(value) -> int:
    place = parse_place(value)
    if place is None:
        raise IllegalMove(
            f"{value!r} names no card; a card is a column letter A-H and a row (C0 is the "
            "column's head), or a gap AB..GH", code="bad_place",
        )
    return place


class EuphratCards(BaseGame):
    id = "euphrat-cards"
    name = "Euphrat & Tigris: the card game"
    unplaced_moves = ("pass", "withdraw_leader", "propose_end")  # nothing put on the table: page buttons
    min_players = 2
    max_players = 4
    option_choices = OPTION_CHOICES
    move_fields = MOVE_FIELDS
    moves_by_decision = MOVES_BY_DECISION
    setting_moves = ("set_answer",)  # change a standing answer; no decision is made by them
    states, notation, narration, drawing = state, notation, narration, drawing  # this game's modules

    def setup(self, players: int, seed: int, options: dict | None = None) -> State:
        return setup(players, seed, self.validate_options(options, players))

    def pending(self, state: State) -> dict[int, str]:
        if state.finished is not None:
            return {}
        if state.offers:
            owed: dict[int, str] = {}
            for offer in state.offers:
                owed.setdefault(offer["seat"], offer["kind"])
            return owed
        conflict = state.conflict
        if conflict is not None:
            side = "attacker" if conflict["attacker_commit"] is None else "defender"
            return {conflict[side]: "support"}
        if state.union is not None:
            return {state.active: "conflict_order"}
        return {state.active: "action"}

    def legal_moves(self, state: State, seat: int) -> list[dict]:
        kind = self.pending(state).get(seat)
        if kind == "action":
            proposal = [{"type": "propose_end"}] if may_propose(state) else []
            return moves.action_moves(state, seat) + proposal + moves.answer_moves(state, seat)
        if kind == "support":
            return moves.support_moves(state, seat) + moves.answer_moves(state, seat)
        if kind == "conflict_order":
            return moves.conflict_order_moves(state) + moves.answer_moves(state, seat)
        if kind == END_VOTE:
            return [{"type": "agree_end"}, {"type": "refuse_end"}]
        if kind is not None:
            return moves.offer_moves(state, seat) + moves.answer_moves(state, seat)
        return []

    def is_over(self, state: State) -> bool:
        return state.finished is not None

    def apply_checked(self, state: State, seat: int, move: dict, decision: str) -> tuple[State, list[dict]]:
        s = state.clone()
        events: list[dict] = []
        kind = move["type"]
        if decision == "action" and kind not in ("set_answer", "propose_end"):
            s.actions_left -= 1
        _HANDLERS[kind](s, seat, move, events)
        settle(s, events)
        return s, events

    def default_move(self, state: State, seat: int) -> dict | None:
        """The move made for a seat that lets its deadline pass: the least committal
        legal choice: end the turn, commit nothing, decline an offer, or fight the
        first waiting conflict."""
        kind = self.pending(state).get(seat)
        if kind is None:
            return None
        if kind == "action":
            return {"type": "pass"}
        if kind == "support":
            return {"type": "commit_support", "count": 0}
        if kind == "conflict_order":
            return moves.conflict_order_moves(state)[0]
        if kind == END_VOTE:
            return {"type": "refuse_end"}
        return {"type": "decline"}

    def view(self, state: State, seat: int | None) -> dict:
        data = state_to_json(state)
        del data["rng"], data["removed"]
        data["deck_size"] = len(data.pop("deck"))
        data["removed_size"] = len(state.removed)
        finished = state.finished is not None
        open_piles = finished or state.options.get("open_scoring")
        for other, player in enumerate(data["players"]):
            pile = player.pop("vp")
            player["vp_count"] = len(pile)
            if open_piles:
                player["vp"] = pile
            elif other == seat:
                player["vp_top"] = pile[-1] if pile else None
            if other != seat:
                player["hand_size"] = sum(player.pop("hand").values())
                del player["answers"]
        if state.union is not None and seat != state.active:
            gap = state.union["gap"]
            data["gaps"] = data["gaps"][:gap] + "?" + data["gaps"][gap + 1:]
        data["seat"] = seat
        data["pending"] = {str(s): kind for s, kind in self.pending(state).items()}
        # Public facts only (see engine/euphrat_cards/ending.py).
        data["table_full"] = table_full(state)
        return data

    def outcome(self, state: State) -> dict | None:
        if state.finished is None:
            return None
        return {"reason": state.finished, **ranking(state)}

    def forms_for(self, options: dict) -> tuple[str, ...]:
        """The forms for a reply's `help`: all but the vote to end a full table, which the
        decision's own list of moves open now names while it is open."""
        return tuple(form for form in self.move_forms if form not in notation.END_VOTE_FORMS)

    def choice_label(self, state: State, seat: int, move: dict) -> str:
        """A choice as a link or a button names what it acts on: the colour of the cards
        committed or scored, the offer declined."""
        return narration.describe_choice(state, seat, move)

    def board_text(self, view: dict) -> str:
        """Nothing beside the summary lines, which hold the table in words for both parts
        of the email (engine/euphrat_cards/summary.py)."""
        return ""

    def card_text(self, card: str) -> str:
        """A colour of card in the hand, named, with what it does (engine/euphrat_cards/card_text.py)."""
        return color_words(card)

    def summary_lines(self, view: dict, seat: int) -> list[str]:
        """The seat's own position in lines, for its decision email (engine/euphrat_cards/summary.py)."""
        return summary_lines(view, seat)

    def score_words(self, score) -> str:
        """One seat's final score in the game-over email (engine/sentences.py)."""
        return weakest_colours_first(score)

    def bot_knowledge(self):
        """What bots know of this game besides its rules (engine/euphrat_cards/bot_knowledge.py)."""
        from engine.euphrat_cards.bot_knowledge import KNOWLEDGE  # on a bot's first move: it builds on engine.bots

        return KNOWLEDGE


def _play_card(s, seat, move, events):
    color, place = _color(move["color"]), move["place"]
    column, gap = column_index(place), gap_index(place)
    if column is not None:
        actions.play_to_column(s, seat, color, column, events)
    elif gap is not None:
        actions.play_to_gap(s, seat, color, gap, events)
    else:
        raise IllegalMove(
            f"{place!r} is neither a column (A-H) nor a gap (AB, BC, ... GH)", code="bad_place"
        )


def _place_leader(s, seat, move, events):
    actions.place_leader(s, seat, _leader(move["leader"]), _card_place(move["card"]), events)


def _withdraw_leader(s, seat, move, events):
    actions.withdraw_leader(s, seat, _leader(move["leader"]), events)


def _play_catastrophe(s, seat, move, events):
    actions.play_catastrophe(s, seat, _card_place(move["card"]), events)


def _pass(s, seat, move, events):
    actions.pass_turn(s, seat, events)


def _commit_support(s, seat, move, events):
    count = move["count"]
    color = COLORS[support_color(s.conflict)]
    held = s.hands[seat][support_color(s.conflict)]
    if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= held:
        raise IllegalMove(
            f"you may commit 0 to {held} {color} cards (those in your hand), not {count!r}",
            code="bad_support",
        )
    commit_support(s, seat, count, events)


def _choose_conflict(s, seat, move, events):
    color = _color(move["color"])
    if color not in s.union["colors"]:
        allowed = ", ".join(COLORS[c] for c in s.union["colors"])
        raise IllegalMove(f"no {COLORS[color]} conflict is waiting; choose one of: {allowed}", code="bad_conflict")
    events.append({"type": "conflict_chosen", "seat": seat, "color": COLORS[color]})
    start_external(s, color, events)


def _score(s, seat, move, events):
    offer = offer_for(s, seat)
    if not can_take(s, offer):
        color = COLORS[offer["color"]]
        raise IllegalMove(f"you hold no {color} card to score with; decline instead", code="card_not_in_hand")
    close_offer(s, offer)
    score_from_hand(s, seat, offer["color"], offer["reason"], events)


def _build_ship(s, seat, move, events):
    offer = offer_for(s, seat)
    choices = ship_choices(s, offer["color"])
    code = SHIP_CODES.get(move["ship"]) if isinstance(move["ship"], str) else None
    if code not in choices:
        allowed = ", ".join(move_name for move_name, c in SHIP_CODES.items() if c in choices)
        raise IllegalMove(
            f"{COLORS[offer['color']]} cards may build only: {allowed} (not {move['ship']!r})", code="bad_ship"
        )
    close_offer(s, offer)
    build_ship(s, seat, offer, code, events)


def _swap_treasure(s, seat, move, events):
    offer = offer_for(s, seat)
    if not can_take(s, offer):
        raise IllegalMove("you hold no red card to put in the treasure's place; decline instead",
                          code="card_not_in_hand")
    column = column_index(move["column"])
    if column not in offer["columns"]:
        allowed = ", ".join(COLUMN_LETTERS[c] for c in offer["columns"])
        raise IllegalMove(
            f"{move['column']!r} is not a treasure of the joined kingdom; choose one of: {allowed}",
            code="bad_treasure",
        )
    close_offer(s, offer)
    swap_treasure(s, seat, column, events)


def _decline(s, seat, move, events):
    decline_offer(s, offer_for(s, seat), events)


def _set_answer(s, seat, move, events):
    kind, answer = move["offer"], move["answer"]
    if not isinstance(kind, str) or kind not in STANDING_ANSWERS or answer not in STANDING_ANSWERS[kind]:
        # In the notation only: the offer and answer sent may be any JSON value.
        allowed = ", ".join(f"`answer {k} {a}`" for k, answers in STANDING_ANSWERS.items() for a in answers)
        raise IllegalMove(f"that is no standing answer; standing answers: {allowed}", code="bad_answer")
    s.answers = tuple({**a, kind: answer} if other == seat else a for other, a in enumerate(s.answers))
    # Private: the others must not learn how this seat answers offers.
    events.append({"type": "answer_set", "seat": seat, "offer": kind, "answer": answer, "visible_to": [seat]})


def _propose_end(s, seat, move, events):
    propose_end(s, seat, events)


def _agree_end(s, seat, move, events):
    if agree_end(s, seat, events):
        finish(s, "agreed", events)


def _refuse_end(s, seat, move, events):
    refuse_end(s, seat, events)


_HANDLERS = {
    "play_card": _play_card,
    "place_leader": _place_leader,
    "withdraw_leader": _withdraw_leader,
    "play_catastrophe": _play_catastrophe,
    "pass": _pass,
    "commit_support": _commit_support,
    "choose_conflict": _choose_conflict,
    "score": _score,
    "build_ship": _build_ship,
    "swap_treasure": _swap_treasure,
    "decline": _decline,
    "set_answer": _set_answer,
    "propose_end": _propose_end,
    "agree_end": _agree_end,
    "refuse_end": _refuse_end,
}

__all__ = ["EuphratCards", "GAP_BASE", "place_name"]
