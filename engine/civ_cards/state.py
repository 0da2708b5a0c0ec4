"""The game's state: plain JSON (dicts, lists, strings, numbers), documented in
docs/games/civ-cards.md and writable by hand. `from_json` checks a hand-written state
against the card table and fills what may be left out; `clone` copies it for `apply`.
"""
from __future__ import annotations

from typing import Any

from engine.civ_cards.table import RESOURCES, CardTable
from engine.core import IllegalMove

PHASES = ("draft", "settle", "opening_discard", "collect", "buy", "combat", "discard")


def clone(value):
    """A deep copy of plain JSON data (faster than copy.deepcopy)."""
    if isinstance(value, dict):
        return {k: clone(v) for k, v in value.items()}
    if isinstance(value, list):
        return [clone(v) for v in value]
    return value


PILES = ("deck", "discard", "plot_deck", "plot_display", "tech_deck", "tech_display")


def clone_state(s: dict) -> dict:
    """A deep copy of a state, knowing its shape: the long piles are lists of strings,
    copied flat; the rest goes through `clone`."""
    new = {key: clone(value) for key, value in s.items() if key not in PILES and key != "players"}
    for pile in PILES:
        new[pile] = list(s[pile])
    new["players"] = [
        {
            **{key: clone(value) for key, value in p.items()
               if key not in ("plots", "hand", "resources", "technologies")},
            "plots": [{"plot": plot["plot"], "population": plot["population"], "buildings": list(plot["buildings"])}
                      for plot in p["plots"]],
            "hand": dict(p["hand"]),
            "resources": dict(p["resources"]),
            "technologies": list(p["technologies"]),
        }
        for p in s["players"]
    ]
    return new


def new_player() -> dict:
    return {
        "plots": [],
        "hand": {},
        "resources": dict.fromkeys(RESOURCES, 0),
        "technologies": [],
    }


def _bad_state(message: str) -> IllegalMove:
    return IllegalMove(f"invalid state JSON: {message}", code="bad_state")


def from_json(table: CardTable, data: dict) -> dict:
    try:
        s = _from_json(table, data)
    except IllegalMove:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise _bad_state(f"{type(exc).__name__}: {exc}") from None
    return s


def _from_json(table: CardTable, data: dict) -> dict:
    s = clone(data)
    if s.get("game", "civ-cards") != "civ-cards":
        raise _bad_state(f"game is {s.get('game')!r}, not 'civ-cards'")
    s["game"] = "civ-cards"
    if s.setdefault("table", table.id) != table.id:
        raise _bad_state(f"the state is played with card table {s['table']!r}, this game uses {table.id!r}")
    players = s["players"]
    if not 2 <= len(players) <= 4:
        raise _bad_state("2 to 4 players")
    for seat, player in enumerate(players):
        _player(table, seat, player)
    s.setdefault("options", {})
    s.setdefault("dealer", len(players) - 1)
    for pile, kinds in (("deck", ("unit", "building", "wonder", "bonus")),
                        ("discard", ("unit", "building", "wonder", "bonus")),
                        ("plot_deck", ("plot",)), ("plot_display", ("plot",)),
                        ("tech_deck", ("technology",)), ("tech_display", ("technology",))):
        cards = s.setdefault(pile, [])
        _known(table, cards, kinds, pile)
    s.setdefault("population", table.population_total - sum(p["population"] for pl in players for p in pl["plots"]))
    if s["population"] < 0:
        raise _bad_state("more population on plots than the table has")
    awards = s.setdefault("awards", {})
    for award in table.awards:
        holder = awards.setdefault(award, None)
        if holder is not None and not 0 <= holder < len(players):
            raise _bad_state(f"{award} is held by seat {holder}, who is not playing")
    s["rng"] = int(s.get("rng", 0))
    turn = s.setdefault("turn", {})
    turn.setdefault("number", 1)
    turn.setdefault("active", 0)
    turn.setdefault("phase", "buy")
    if turn["phase"] not in PHASES:
        raise _bad_state(f"phase {turn['phase']!r} is not one of {', '.join(PHASES)}")
    if not 0 <= turn["active"] < len(players):
        raise _bad_state(f"active seat {turn['active']} is not playing")
    for key in ("draft", "settle", "discarding", "combat", "finished"):
        s.setdefault(key, None)
    if turn["phase"] == "combat" and s["combat"] is None:
        s["combat"] = {"stage": "declare", "fronts": [], "stolen": 0}
    needed = PHASE_RECORDS.get(turn["phase"])
    if needed and s[needed] is None:
        raise _bad_state(f"phase {turn['phase']!r} needs its {needed!r} record (docs/games/civ-cards.md)")
    unknown = set(awards) - set(table.awards)
    if unknown:
        raise _bad_state(f"awards {sorted(unknown)} are not award cards; awards: {', '.join(table.awards)}")
    if s["combat"] is not None:
        _combat(table, s)
    return s


# The record a hand-written phase cannot do without (a combat starts empty when left out).
PHASE_RECORDS = {"draft": "draft", "settle": "settle", "opening_discard": "discarding", "discard": "discarding"}


FRONT_DEFAULTS: dict[str, Any] = {
    "repelled": None, "catapults": 0, "walls_done": False, "counters": [], "counters_done": False,
    "steal": 0, "destroy": 0, "population_done": False, "buildings_done": False,
}
COMBAT_STAGES = ("declare", "catapult", "walls", "counter", "losses", "placing")


def _combat(table: CardTable, s: dict) -> None:
    """Fill a hand-written combat's fronts and check what they name."""
    combat = s["combat"]
    if combat.setdefault("stage", "declare") not in COMBAT_STAGES:
        raise _bad_state(f"combat stage {combat['stage']!r} is not one of {', '.join(COMBAT_STAGES)}")
    combat.setdefault("stolen", 0)
    for front in combat.setdefault("fronts", []):
        if not 0 <= front["defender"] < len(s["players"]) or front["defender"] == s["turn"]["active"]:
            raise _bad_state(f"a front's defender {front['defender']} is not another seat")
        _known(table, front.setdefault("units", []), ("unit",), "a front's units")
        for key, value in FRONT_DEFAULTS.items():
            front.setdefault(key, clone(value))
        _known(table, [card for card, _ in front["counters"]], ("unit",), "a front's counters")
        units = range(len(front["units"]))
        if front["repelled"] not in (None, *units) or any(unit not in units for _, unit in front["counters"]):
            raise _bad_state(f"a front's repelled unit and counters name its units by index 0 to {len(units) - 1}")


def _player(table: CardTable, seat: int, player: dict) -> None:
    for plot in player.setdefault("plots", []):
        _known(table, [plot["plot"]], ("plot",), f"seat {seat}'s plot")
        plot.setdefault("population", 0)
        buildings = plot.setdefault("buildings", [])
        _known(table, buildings, ("building", "wonder"), f"seat {seat}'s buildings")
        if plot["population"] < 0:
            raise _bad_state(f"seat {seat} has a plot with negative population")
    hand = player.setdefault("hand", {})
    _known(table, list(hand), ("unit", "building", "wonder", "bonus"), f"seat {seat}'s hand")
    if any(not isinstance(n, int) or n < 0 for n in hand.values()):
        raise _bad_state(f"seat {seat}'s hand has a count that is not a whole number")
    player["hand"] = {card: n for card, n in hand.items() if n}
    resources = player.setdefault("resources", {})
    if set(resources) - set(RESOURCES):
        raise _bad_state(f"resources are {', '.join(RESOURCES)}")
    player["resources"] = {kind: int(resources.get(kind, 0)) for kind in RESOURCES}
    if min(player["resources"].values()) < 0:
        raise _bad_state(f"seat {seat} holds negative resources")
    _known(table, player.setdefault("technologies", []), ("technology",), f"seat {seat}'s technologies")


def _known(table: CardTable, cards: list, kinds: tuple, where: str) -> None:
    for card in cards:
        if table.kind(card) not in kinds:
            allowed = ", ".join(table.of_kind(*kinds))
            raise _bad_state(f"{where}: {card!r} is not a card of kind {'/'.join(kinds)}; cards: {allowed}")


def hand_size(player: dict) -> int:
    return sum(player["hand"].values())


def take_from_hand(player: dict, card: str, count: int = 1) -> None:
    left = player["hand"].get(card, 0) - count
    if left < 0:
        raise IllegalMove(f"your hand holds no {card}", code="not_in_hand")
    if left:
        player["hand"][card] = left
    else:
        del player["hand"][card]


def put_in_hand(player: dict, card: str, count: int = 1) -> None:
    player["hand"][card] = player["hand"].get(card, 0) + count
