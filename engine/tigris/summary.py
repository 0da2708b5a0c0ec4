"""The reader's own position in a decision email, in lines: his dynasty, the tiles in
his hand and his points by colour."""
from __future__ import annotations

from engine.sentences import counts_text


def summary_lines(view: dict, seat: int) -> list[str]:
    me = view["players"][seat]
    points = counts_text(me["score"]) if any(me["score"].values()) else "none yet"
    return [f"You play the {me['dynasty']} (seat {seat}).", f"Your hand: {counts_text(me['hand'])}",
            f"Your points: {points}"]
