"""Eden (Gal Zuckerman) behind the engine contract (docs/engine.md, docs/games/eden.md)."""
from __future__ import annotations

from engine.core import BaseGame, EngineError, IllegalMove, named_squares
from engine.eden import acquisition, actions, drawing, moves, narration, notation, state
from engine.eden.acquisition import bidding, decider
from engine.eden.board import CARD_INDEX, CULTIVATION_NAMES, PROVISIONAL, SQUARE_INDEX, SQUARES
from engine.eden.state import State
from engine.eden.state import to_json as state_to_json
from engine.eden.summary import summary_lines
from engine.eden.turn import end_turn, points, ranking, setup

# Each move type and the fields it carries besides "type".
MOVE_FIELDS = {
    "irrigate": ("square",),
    "cultivate": ("card", "squares"),
    "sell": ("card",),
    "buy": ("card",),
    "pass": (),
    "contest": ("square",),
    "uncontest": (),
    "attack_with": ("square",),
    "bid": ("amount",),
    "accept": (),
    "decline": (),
}
MOVES_BY_DECISION = {
    "action": ("irrigate", "cultivate", "sell", "buy", "pass"),
    "acquire": ("contest", "uncontest", "attack_with", "bid", "sell", "decline"),
    "bid": ("bid", "accept", "sell"),  # selling: the attacker only, in his own action step
}
OPTION_CHOICES = {"allow_two": (False, True)}
DESCRIPTION = (
    "Eden (Gal Zuckerman): irrigate and cultivate a 7x7 garden, buy land from your "
    "neighbours by bidding; the first to 20 fertility points wins."
)
PROVISIONAL_NOTE = (
    " The cultivation card shapes, the dots per level and the tile split are provisional"
    " (no public source gives the printed values)."
)


def _square(value) -> int:
    if not isinstance(value, str) or value.upper() not in SQUARE_INDEX:
        raise IllegalMove(f"{value!r} is not a square; squares are A1 to G7", code="bad_square")
    return SQUARE_INDEX[value.upper()]


def _card(value) -> int:
    if not isinstance(value, str) or value.upper() not in CARD_INDEX or CARD_INDEX[value.upper()] < SQUARES:
        raise IllegalMove(f"{value!r} is not a cultivation card; they are {', '.join(CULTIVATION_NAMES)}",
                          code="bad_card")
    return CARD_INDEX[value.upper()]


def _squares(value) -> tuple[int, ...]:
    if not isinstance(value, list) or not value:
        raise IllegalMove("squares must be a list of squares such as [\"B2\", \"B3\"]", code="bad_move")
    return tuple(_square(v) for v in value)


class Eden(BaseGame):
    id = "eden"
    name = "Eden"
    unplaced_moves = ("pass",)  # nothing put on the garden: a page button
    min_players = 2
    max_players = 4
    option_choices = OPTION_CHOICES
    move_fields = MOVE_FIELDS
    moves_by_decision = MOVES_BY_DECISION
    shared_board_picture = True  # its picture differs between seats only by the reader's own marks
    states, notation, narration, drawing = state, notation, narration, drawing
    provisional = PROVISIONAL

    @property
    def description(self) -> str:  # type: ignore[override]
        return DESCRIPTION + (PROVISIONAL_NOTE if PROVISIONAL else "")

    def touched_squares(self, move: dict) -> list[str]:
        return named_squares(move)  # every move naming a square puts something on it or takes from it

    def validate_options(self, options: dict | None, players: int) -> dict:
        merged = self.checked_options(options)
        lowest = 2 if merged["allow_two"] else 3
        if not isinstance(players, int) or isinstance(players, bool) or not lowest <= players <= 4:
            extra = "" if merged["allow_two"] else " (2 with the option allow_two)"
            raise EngineError(f"Eden is for {lowest} to 4 players{extra}, not {players!r}", code="bad_players")
        return merged

    def setup(self, players: int, seed: int, options: dict | None = None) -> State:
        return setup(players, seed, self.validate_options(options, players))

    def pending(self, state: State) -> dict[int, str]:
        if state.finished is not None:
            return {}
        a = state.acquisition
        if a is not None:
            return {decider(a): "bid" if a["bids"] else "acquire"}
        return {state.active: "action"}

    def legal_moves(self, state: State, seat: int) -> list[dict]:
        kind = self.pending(state).get(seat)
        if kind == "action":
            return moves.action_moves(state, seat)
        if kind == "acquire":
            return moves.acquire_moves(state, seat)
        if kind == "bid":
            return moves.bid_moves(state, seat)
        return []

    def is_over(self, state: State) -> bool:
        return state.finished is not None

    def apply_checked(self, state: State, seat: int, move: dict, decision: str) -> tuple[State, list[dict]]:
        s = state.clone()
        events: list[dict] = []
        _HANDLERS[move["type"]](s, seat, move, events)
        return s, events

    def default_move(self, state: State, seat: int) -> dict | None:
        """The move made for a seat that lets its deadline pass: end the turn, acquire
        nothing, or accept the standing bid."""
        kind = self.pending(state).get(seat)
        return {"action": {"type": "pass"}, "acquire": {"type": "decline"}, "bid": {"type": "accept"}}.get(kind or "")

    def link_moves(self, state: State, seat: int) -> list[dict]:
        """The few moves offered as links or buttons: for a bid, accept; for an
        acquisition, the tiles to contest or add, giving up the tiles contested, or
        decline; for an action, selling, buying and passing (cards are played on the
        board). A bid is one amount, typed in the page's bid control or a reply (the
        view's `bidding` gives its range); the rest is typed or sent by reply."""
        legal = self.legal_moves(state, seat)
        kind = self.pending(state).get(seat)
        if kind == "bid":
            return [{"type": "accept"}]
        if kind == "acquire":
            choices = [m for m in legal if m["type"] in ("contest", "uncontest", "attack_with")]
            return choices + [{"type": "decline"}]
        return [{"type": "pass"}, *(m for m in legal if m["type"] in ("sell", "buy"))]

    def view(self, state: State, seat: int | None) -> dict:
        data = state_to_json(state)
        del data["rng"]
        data["deck_size"] = len(data.pop("deck"))
        del data["turn"]["idle_turns"]  # it tells whether a passing player could have played
        for other, player in enumerate(data["players"]):
            player["points"] = points(state, other)
            if other != seat:
                player["hand_size"] = len(player.pop("hand"))
                del player["mana"]
        data["seat"] = seat
        data["pending"] = {str(s): kind for s, kind in self.pending(state).items()}
        owed = self.pending(state).get(seat) if seat is not None else None
        if seat is not None and owed == "action":  # the seat's own hand: why a card of it has no play now
            data["players"][seat]["unplayable"] = moves.card_refusals(state, seat)
        if seat is not None and owed in ("acquire", "bid") and state.acquisition and state.acquisition["defend"]:
            data["bidding"] = bidding(state, seat)
        data["provisional_data"] = PROVISIONAL
        return data

    def outcome(self, state: State) -> dict | None:
        if state.finished is None:
            return None
        return {"reason": state.finished["reason"], **ranking(state)}

    def form_options(self, players: int, options: dict) -> dict:
        """The options a new game gets from a form's choices for `players` players: two
        players need `allow_two`, which choosing two players means."""
        return {**options, "allow_two": True} if players == 2 else dict(options)

    def summary_lines(self, view: dict, seat: int) -> list[str]:
        """The seat's own position in lines, for its decision email (engine/eden/summary.py)."""
        return summary_lines(view, seat)

    def score_words(self, score) -> str:
        """One seat's final score (from `outcome()["scores"]`) in the game-over email: its
        fertility points."""
        return f"{score} points" if isinstance(score, int) else ""

    def card_label(self, card: str) -> str:
        """A card of a hand or the market in words: a cultivation card with its shape."""
        return drawing.card_label(card)

    def card_text(self, card: str) -> str:
        """What a card does, in a sentence, with its name (also the card's tooltip)."""
        return drawing.card_text(card)

    def card_picture(self, card: str) -> str | None:
        """A cultivation card's shape as a small SVG, for the hand on the game page."""
        return drawing.card_svg(card)


def _irrigate(s, seat, move, events):
    actions.irrigate(s, seat, _square(move["square"]), events)


def _cultivate(s, seat, move, events):
    actions.cultivate(s, seat, _card(move["card"]), _squares(move["squares"]), events)


def _sell(s, seat, move, events):
    if seat != s.active:  # a defender answers a bid outside his own turn
        raise IllegalMove("cultivation cards are sold only in your own turn; accept or raise the bid",
                          code="wrong_decision")
    actions.sell(s, seat, _card(move["card"]), events)


def _buy(s, seat, move, events):
    actions.buy(s, seat, _card(move["card"]), events)


def _pass(s, seat, move, events):
    end_turn(s, bool(moves.card_plays(s, seat)), events)


def _contest(s, seat, move, events):
    acquisition.contest(s, seat, _square(move["square"]), events)


def _uncontest(s, seat, move, events):
    acquisition.uncontest(s, seat, events)


def _attack_with(s, seat, move, events):
    acquisition.add_attacker(s, seat, _square(move["square"]), events)


def _bid(s, seat, move, events):
    acquisition.bid(s, seat, move["amount"], events)


def _accept(s, seat, move, events):
    acquisition.accept(s, seat, events)


def _decline(s, seat, move, events):
    acquisition.decline(s, seat, events)


_HANDLERS = {
    "irrigate": _irrigate,
    "cultivate": _cultivate,
    "sell": _sell,
    "buy": _buy,
    "pass": _pass,
    "contest": _contest,
    "uncontest": _uncontest,
    "attack_with": _attack_with,
    "bid": _bid,
    "accept": _accept,
    "decline": _decline,
}
