"""The reader's own position in a decision email, in lines: the cards in his hand by
name (none when it is empty), his resources and his victory points with what makes them."""
from __future__ import annotations

from engine.civ_cards.table import CardTable
from engine.sentences import counts_text


def summary_lines(table: CardTable, view: dict, seat: int) -> list[str]:
    me = view["players"][seat]
    figures = me["figures"]
    lines = [f"Your hand: {counts_text({table.name(card): n for card, n in me['hand'].items()})}"] if me["hand"] else []
    return lines + [f"Your resources: {counts_text(me['resources'])}",
                    f"Your points: {figures['vp']} VP ({figures['population']} population, "
                    f"{figures['technologies']} technologies, {figures['wonders']} wonders)"]
