"""Events and decisions in words, for emails and the game page. `names` maps a seat
to the player's display name. Nothing here reads a private fact: a prompt is the same
whatever the hands and mana hold."""
from __future__ import annotations

from engine.core import round_of
from engine.eden.acquisition import multiplier
from engine.eden.board import OPENING_BID, RAISE, SQUARE_NAMES, is_cultivation
from engine.eden.drawing import card_label
from engine.eden.notation import card_with_shape
from engine.eden.state import State
from engine.sentences import turn_over


def _s(n: int) -> str:
    return "" if n == 1 else "s"


ENDINGS = {"twenty_points": "a player reached 20 fertility points",
           "no_play": "a full round passed with no card to play"}


def describe_event(event: dict, names: dict) -> str | None:
    """One sentence for an event, or None for bookkeeping events not worth a line."""
    who = names.get(event.get("seat"), f"seat {event.get('seat')}")
    kind = event["type"]
    sentences = {
        "land_irrigated": lambda: f"{who} irrigated {event['square']}.",
        "land_cultivated": lambda: (
            f"{who} cultivated {', '.join(event['squares'])} with {card_with_shape(event['card'])}: "
            f"{', '.join(event['raised'])} rose to level {event['level']} for {event['cost']} mana."
        ),
        "card_sold": lambda: f"{who} sold {card_with_shape(event['card'])} to the bank for {event['price']} mana.",
        "card_bought": lambda: (
            f"{who} bought {card_with_shape(event['card'])} from the market for {event['price']} mana."
        ),
        "income_received": lambda: f"{who} received {event['amount']} mana of income.",
        "tile_contested": lambda: f"{who} contests {names.get(event['defender'])}'s tile on {event['square']}.",
        "contest_withdrawn": lambda: (
            f"{who} gave up contesting {names.get(event['defender'])}'s {', '.join(event['squares'])}."
        ),
        "attacker_joined": lambda: f"{who} attacks with {event['square']} too.",
        "bid_made": lambda: f"{who} bid {event['amount']} mana per point (x{event['multiplier']}).",
        "acquisition_settled": lambda: (
            f"{who} accepted: {names.get(event['winner'])} paid {event['paid']} mana and took "
            f"{', '.join(event['squares'])}."
        ),
        "acquisition_declined": lambda: f"{who} contested nothing.",
        "card_drawn": lambda: f"{who} drew a card.",
        "card_received": lambda: f"You drew {card_label(event['card'])}.",
        "turn_ended": lambda: turn_over(who, event),
        "game_ended": lambda: "The game ended: " + (
            f"{names.get(event['ranking'][0][0])} reached 20 fertility points."
            if event["reason"] == "twenty_points" else ENDINGS["no_play"] + "."
        ),
    }
    if kind == "income_received" and not event["amount"]:
        return None
    sentence = sentences.get(kind)
    return sentence() if sentence else None


def prompt(s: State, seat: int, kind: str, names: dict) -> str:
    """The decision `seat` owes (`kind` from pending), in words."""
    if kind == "action":
        if not s.played:
            return (f"Round {round_of(s.turn, s.players)}: play 1 or 2 irrigation cards, or 1 cultivation card, "
                    "or pass; you may sell or buy cultivation cards.")
        if len(s.played) >= 2 or any(is_cultivation(card) for card in s.played):  # public: the cards are on the board
            return "Sell or buy cultivation cards, or pass to end the turn (no more cards may be played this turn)."
        return "Play a second irrigation card, sell or buy cultivation cards, or pass to end the turn."
    a = s.acquisition
    assert a is not None  # the other decisions come during an acquisition
    if kind == "acquire":
        if not a["defend"]:
            return (f"You irrigated {SQUARE_NAMES[a['placed']]}, next to another player's land: contest one of "
                    "his tiles beside it to try to buy it (then you bid mana for it), or decline to acquire "
                    "nothing and go on with your turn.")
        return (
            f"You contest {names.get(a['defender'])}'s {_squares(a['defend'])}. Contest more of his tiles, or "
            "add one of your tiles beside the new one to the attack (his bids then cost him more per point, "
            f"and he takes it too if you accept), then open the bidding: at least {OPENING_BID} mana per "
            f"point, and you pay x{multiplier(s, a, seat)} (the points of the tiles you contest) if he accepts. "
            "Or uncontest to choose the tiles again, or decline."
        )
    return _bid_prompt(s, a, seat, names)


def _squares(squares: list[int]) -> str:
    return ", ".join(SQUARE_NAMES[i] for i in squares)


def _bid_prompt(s: State, a: dict, seat: int, names: dict) -> str:
    """Accept or raise, with what each means: who pays whom how much, and which tiles
    change hands (all public: the bids and the tiles' levels are on the table)."""
    other = a["attacker"] if seat == a["defender"] else a["defender"]
    mine, theirs = (a["defend"], a["attack"]) if seat == a["defender"] else (a["attack"], a["defend"])
    bid = a["bids"][-1]
    paid = bid * multiplier(s, a, other)
    selling = " You may sell cultivation cards first to raise mana." if seat == a["attacker"] else ""
    return (
        f"{names.get(other)} bids {bid} mana per point for your {_squares(mine)}. Accept: "
        f"{names.get(other)} pays you {bid} x {multiplier(s, a, other)} = {paid} mana and takes "
        f"{_squares(mine)}. Or raise to {bid + RAISE} or more: if {names.get(other)} then accepts, you pay "
        f"your bid x {multiplier(s, a, seat)} and take {_squares(theirs)}.{selling}"
    )
