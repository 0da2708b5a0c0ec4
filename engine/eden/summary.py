"""The reader's own position in a decision email, in lines: his colour, his cards (each
with its shape), his mana and his fertility points."""
from __future__ import annotations

from engine.eden.drawing import card_label


def summary_lines(view: dict, seat: int) -> list[str]:
    me = view["players"][seat]
    hand = ", ".join(card_label(card) for card in me["hand"]) or "nothing"
    return [f"You play {me['color']} (seat {seat}).", f"Your hand: {hand}", f"Your mana: {me['mana']}",
            f"Your points: {me['points']}"]
