"""The reader's own position in a decision email, in lines: his dynasty and the cards in
his hand (his victory pile stays face down, as on the table)."""
from __future__ import annotations

from engine.sentences import counts_text


def summary_lines(view: dict, seat: int) -> list[str]:
    me = view["players"][seat]
    return [f"You play the {me['dynasty']} (seat {seat}).", f"Your hand: {counts_text(me['hand'])}"]
