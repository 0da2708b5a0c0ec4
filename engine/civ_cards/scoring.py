"""Victory points and the final ranking: population, technologies and wonders score 1
each; ties by technologies, then population, then wonders; a full tie shares the place.
In the team variant each team's figures are the sums of its two players'."""
from __future__ import annotations

from engine.civ_cards.table import CardTable


def figures(table: CardTable, player: dict) -> dict:
    population = sum(plot["population"] for plot in player["plots"])
    technologies = len(player["technologies"])
    wonders = sum(1 for plot in player["plots"] for card in plot["buildings"] if table.kind(card) == "wonder")
    return {"vp": population + technologies + wonders, "technologies": technologies,
            "population": population, "wonders": wonders}


def teams(s: dict) -> list[list[int]] | None:
    """The two teams of the team variant, or None."""
    layout = s["options"].get("teams", "none")
    if layout == "opposite":
        return [[0, 2], [1, 3]]
    if layout == "adjacent":
        return [[0, 1], [2, 3]]
    return None


def teammate(s: dict, seat: int) -> int | None:
    for team in teams(s) or ():
        if seat in team:
            return next(other for other in team if other != seat)
    return None


def _key(f: dict) -> tuple:
    return f["vp"], f["technologies"], f["population"], f["wonders"]


def ranking(table: CardTable, s: dict) -> dict:
    per_seat = {seat: figures(table, player) for seat, player in enumerate(s["players"])}
    sides = teams(s) or [[seat] for seat in per_seat]
    keys: dict[tuple[int, ...], tuple] = {}
    for side in sides:
        summed = {name: sum(per_seat[seat][name] for seat in side) for name in per_seat[side[0]]}
        keys[tuple(side)] = _key(summed)
    places: list[list[int]] = []
    last = None
    for team in sorted(keys, key=lambda team: keys[team], reverse=True):
        if places and keys[team] == last:
            places[-1].extend(team)
        else:
            places.append(list(team))
        last = keys[team]
    return {"ranking": places, "scores": {seat: f for seat, f in per_seat.items()}}
