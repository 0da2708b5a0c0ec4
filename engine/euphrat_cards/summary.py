"""The reader's own position in a decision email, in lines: his dynasty and leaders, the
cards in his hand with what each colour does (his victory pile stays face down, as on
the table), and the table in short lines, readable on a phone where the picture is not."""
from __future__ import annotations

from engine.euphrat_cards.card_text import color_words
from engine.euphrat_cards.drawing import table_lines
from engine.sentences import counts_text


def summary_lines(view: dict, seat: int) -> list[str]:
    me = view["players"][seat]
    placed = [f"{role} on {slot}" for role, slot in me["leaders"].items() if slot]
    supply = [role for role, slot in me["leaders"].items() if not slot]
    leaders = "; ".join(placed + ([", ".join(supply) + " in supply"] if supply else []))
    catastrophe = "in hand" if me["catastrophe"] else "played"
    return [f"You play the {me['dynasty']} (seat {seat}). Your leaders: {leaders}. Your catastrophe: {catastrophe}.",
            f"Your hand: {counts_text(me['hand'])}.",
            *(f"- {color_words(color)}" for color, n in me["hand"].items() if n),
            "The table, each column from its head down:", *table_lines(view)]
