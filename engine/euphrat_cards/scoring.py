"""The final ranking: VP piles by colour, treasures as jokers, weakest colour first."""
from __future__ import annotations

from engine.euphrat_cards.cards import COLORS, TREASURE
from engine.euphrat_cards.state import State


def pile_colors(pile: list[int]) -> tuple[list[int], int]:
    """Cards per colour and treasures in a VP pile."""
    counts = [0, 0, 0, 0]
    treasures = 0
    for card in pile:
        if card == TREASURE:
            treasures += 1
        else:
            counts[card] += 1
    return counts, treasures


def with_jokers(counts: list[int], treasures: int) -> list[int]:
    """Each treasure in turn goes to the currently weakest colour (first in colour
    order on a tie): this maximises the weakest, then the next, so it is optimal."""
    totals = list(counts)
    for _ in range(treasures):
        totals[min(range(4), key=lambda c: totals[c])] += 1
    return totals


def ranking(s: State) -> dict:
    """Seats ranked by their colour totals sorted weakest first; a full tie shares a place."""
    keys, detail = {}, {}
    for seat in range(s.players):
        counts, treasures = pile_colors(s.vp[seat])
        totals = with_jokers(counts, treasures)
        keys[seat] = sorted(totals)
        detail[seat] = {
            "cards": dict(zip(COLORS, counts)),
            "treasures": treasures,
            "with_treasures": dict(zip(COLORS, totals)),
            "sorted": sorted(totals),
        }
    places: list[list[int]] = []
    for seat in sorted(keys, key=lambda seat: keys[seat], reverse=True):
        if places and keys[places[-1][0]] == keys[seat]:
            places[-1].append(seat)
        else:
            places.append([seat])
    return {"ranking": places, "scores": detail}
