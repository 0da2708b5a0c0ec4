"""Highest Happiness and Highest Culture: who holds them, and when they change hands.

A card with no holder goes to the one player with the highest score, if that score
reaches the card's minimum (the minimum is for the first acquisition). A held card
moves when another player's score exceeds the holder's: to the one player with the
highest score, or to nobody when that score is shared. After a combat in which the
holder lost a building and fell below the minimum or below another player, it goes to
the one player with the highest score reaching the minimum, or to nobody (the rulebook:
"if nobody meets the requirements to be the new holder, it is simply taken away").
"""
from __future__ import annotations

from engine.civ_cards.effects import total
from engine.civ_cards.table import CardTable


def qualifies(s: dict, award: dict, score: int) -> bool:
    if award["score"] == "culture" and s["options"].get("culture_threshold_rule") == "more_than_2":
        return score > award["minimum"]
    return score >= award["minimum"]


def scores(table: CardTable, s: dict, award: dict) -> list[int]:
    return [total(table, player, award["score"]) for player in s["players"]]


def update_awards(table: CardTable, s: dict, events: list, losers: tuple = ()) -> None:
    """Give, move or take back every award card as its rule says, at once."""
    for award_id, award in table.awards.items():
        points = scores(table, s, award)
        holder = s["awards"][award_id]
        top = max(points)
        leaders = [seat for seat, n in enumerate(points) if n == top]
        sole = leaders[0] if len(leaders) == 1 and qualifies(s, award, top) else None
        exceeded = holder is not None and any(n > points[holder] for n in points)
        if holder is None:
            new = sole
        elif holder in losers and (exceeded or not qualifies(s, award, points[holder])):
            # after a combat loss the new holder must meet the requirement, or nobody holds it
            new = sole
        elif exceeded:
            new = leaders[0] if len(leaders) == 1 else None
        else:
            new = holder
        if new != holder:
            s["awards"][award_id] = new
            events.append({"type": "award_changed", "award": award_id, "seat": new, "previous": holder,
                           "score": None if new is None else points[new]})


def award_bonus(table: CardTable, s: dict, seat: int, effect: str) -> int:
    """What the award cards held by `seat` add to an effect (discount, draw, discard)."""
    return sum(award.get(effect, 0) for award_id, award in table.awards.items() if s["awards"][award_id] == seat)


def discount(table: CardTable, s: dict, seat: int, kind: str | None) -> int:
    """The happiness discount on a technology, building or wonder bought by `seat`."""
    if kind == "wonder" and not s["options"].get("happiness_discounts_wonders", True):
        return 0
    return award_bonus(table, s, seat, "discount")
