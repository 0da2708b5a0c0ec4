"""Events and decisions in words, for emails and the game page. `names` maps a seat
to the player's display name. Nothing here reads a private fact: a prompt is the same
whatever the hands and mana hold."""
from __future__ import annotations

from engine.core import round_of
from engine.eden.acquisition import multiplier
from engine.eden.board import SQUARE_NAMES, is_cultivation
from engine.eden.state import State
from engine.sentences import turn_over


def _s(n: int) -> str:
    return "" if n == 1 else "s"


def describe_event(event: dict, names: dict) -> str | None:
    """One sentence for an event, or None for bookkeeping events not worth a line."""
    who = names.get(event.get("seat"), f"seat {event.get('seat')}")
    kind = event["type"]
    sentences = {
        "land_irrigated": lambda: f"{who} irrigated {event['square']}.",
        "land_cultivated": lambda: (
            f"{who} cultivated {', '.join(event['squares'])} with {event['card']}: "
            f"{', '.join(event['raised'])} rose to level {event['level']} for {event['cost']} mana."
        ),
        "card_sold": lambda: f"{who} sold {event['card']} to the bank for {event['price']} mana.",
        "card_bought": lambda: f"{who} bought {event['card']} from the market for {event['price']} mana.",
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
        "card_received": lambda: f"You drew {event['card']}.",
        "turn_ended": lambda: turn_over(who, event),
        "game_ended": lambda: "The game ended: " + (
            f"{names.get(event['ranking'][0][0])} reached 20 fertility points."
            if event["reason"] == "twenty_points" else "a full round passed with no card to play."
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
            return f"You irrigated {SQUARE_NAMES[a['placed']]}: contest an adjacent opponent's tile, or decline."
        return (
            f"Contest more of {names.get(a['defender'])}'s tiles or add a tile to your attack, then open "
            f"the bidding (at least 10 mana per point, x{multiplier(s, a, seat)}); or uncontest to choose "
            f"the tiles again, or decline."
        )
    other = a["attacker"] if seat == a["defender"] else a["defender"]
    selling = " You may sell cultivation cards first to raise mana." if seat == a["attacker"] else ""
    return (
        f"{names.get(other)} bids {a['bids'][-1]} mana per point for your tiles: accept (you are paid), "
        f"or raise by at least 5 (you would pay x{multiplier(s, a, seat)}).{selling}"
    )
