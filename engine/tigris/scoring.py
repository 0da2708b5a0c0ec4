"""Victory points: awarding them (with their visibility) and the final ranking."""
from __future__ import annotations

from engine.tigris.state import COLORS, State


def add_points(s: State, seat: int, color: int, points: int, reason: str, events: list) -> None:
    """Give `seat` points of `color`; the event is private unless scores are open."""
    if points <= 0:
        return
    s.scores[seat][color] += points
    event = {
        "type": "points_scored", "seat": seat, "color": COLORS[color],
        "points": points, "reason": reason,
    }
    if not s.options.get("open_scoring"):
        event["visible_to"] = [seat]
    events.append(event)


def final_colors(scores: list[int], treasures: int) -> list[int]:
    """A player's points by colour after placing each treasure on the weakest colour.

    Placing each treasure in turn on the currently weakest colour maximises the
    weakest, then the second weakest, and so on, so it is optimal for the comparison.
    """
    totals = list(scores)
    for _ in range(treasures):
        weakest = min(range(4), key=lambda c: totals[c])
        totals[weakest] += 1
    return totals


def ranking(s: State) -> dict:
    """The outcome: seats ranked by their sorted colour totals, ties sharing a place."""
    keys = {}
    detail = {}
    for seat in range(s.players):
        totals = final_colors(s.scores[seat], s.treasure_counts[seat])
        keys[seat] = sorted(totals)
        detail[seat] = {
            "points": dict(zip(COLORS, s.scores[seat])),
            "treasures": s.treasure_counts[seat],
            "with_treasures": dict(zip(COLORS, totals)),
            "sorted": sorted(totals),
        }
    order = sorted(keys, key=lambda seat: keys[seat], reverse=True)
    places: list[list[int]] = []
    for seat in order:
        if places and keys[places[-1][0]] == keys[seat]:
            places[-1].append(seat)
        else:
            places.append([seat])
    return {"ranking": places, "scores": detail}
