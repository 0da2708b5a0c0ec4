"""The reader's own position in a decision email, in lines: his colour, his cards (each
with its shape, what cultivation cards do, and why a card has no play now), his mana,
his fertility points, and the bids open to him as one line."""
from __future__ import annotations

from engine.eden.board import BUY_FEE, CULTIVATION_COST, SQUARE_PRICE
from engine.eden.drawing import card_label
from engine.eden.notation import card_words

CULTIVATION_TEXT = (
    "A cultivation card: lay its shape (turned any way, not mirrored) on your tiles; the lowest of them rise one "
    f"level, {CULTIVATION_COST} mana each. The bank pays {SQUARE_PRICE} mana per square for it; the market asks "
    f"{BUY_FEE} more."
)


def summary_lines(view: dict, seat: int) -> list[str]:
    me = view["players"][seat]
    lines = [f"You play {me['color']} (seat {seat}).", f"Your hand: {hand_words(me['hand'])}"]
    if any(card_words(card) != card for card in me["hand"]):
        lines.append(CULTIVATION_TEXT)
    lines += [f"No play now for {card_label(card)}: {why}." for card, why in me.get("unplayable", {}).items()]
    lines += [f"Your mana: {me['mana']}", f"Your points: {me['points']}"]
    if "bidding" in view:
        lines.append(bid_line(view["bidding"]))
    return lines


def hand_words(hand: list[str]) -> str:
    """The hand by kind: `irrigation cards B1, C3; cultivation card 9 (L tetromino)`."""
    squares = [card for card in hand if card_words(card) == card]
    shapes = [card_label(card) for card in hand if card_words(card) != card]
    parts = [f"irrigation card{'s' if len(squares) > 1 else ''} {', '.join(squares)}"] if squares else []
    return "; ".join(parts + shapes) or "nothing"


def bid_line(bidding: dict) -> str:
    """The bids open to the reader, in one line, instead of a link per amount."""
    lowest, highest, step, points = bidding["lowest"], bidding["highest"], bidding["step"], bidding["points"]
    if highest < lowest:
        return (f"You cannot bid now (the lowest bid, {lowest} x {points} = {lowest * points} mana, is beyond your "
                "mana, or your supply lacks the tiles to take the other side's): accept, or decline if you may.")
    return (f"Bid N: reply \"bid N\", N from {lowest} to {highest} in steps of {step}; if the other side accepts "
            f"you pay N x {points} mana ({lowest} x {points} = {lowest * points}).")
