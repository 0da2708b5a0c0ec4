"""Hand-written card-game positions for tests: name what lies where, get a state."""
from __future__ import annotations

import engine
from engine.euphrat_cards.cards import TOTAL_CARDS

GAME = engine.get_game("euphrat-cards")


def position(
    columns: list[str] | None = None,
    gaps: str = ".......",
    leaders: dict[int, dict[str, str]] | None = None,
    hands: dict[int, dict[str, int]] | None = None,
    vp: dict[int, str] | None = None,
    players: int = 3,
    active: int = 0,
    actions_left: int = 2,
    deck: str = "rbgk" * 10,
    options: dict | None = None,
    **extra,
):
    """A state from the parts a test cares about; columns default to 8 lone treasures."""
    data = {
        "game": "euphrat-cards",
        "options": {"two_player_trim": True, "open_scoring": False, **(options or {})},
        "columns": columns or ["t"] * 8,
        "gaps": gaps,
        "ships": extra.pop("ships", ["blue-red", "blue-green", "blue-black"]),
        "players": [
            {
                "leaders": (leaders or {}).get(seat, {}),
                "hand": (hands or {}).get(seat, {}),
                "catastrophe": extra.get("catastrophes", {}).get(seat, True),
                "vp": (vp or {}).get(seat, ""),
            }
            for seat in range(players)
        ],
        "deck": deck,
        "removed": "",
        "unused_catastrophes": 4 - players,
        "discard": {},
        "rng": 12345,
        "turn": {"number": 5, "active": active, "actions_left": actions_left},
        "conflict": extra.pop("conflict", None),
        "union": extra.pop("union", None),
        "offers": extra.pop("offers", []),
        "finished": None,
    }
    return GAME.from_json(data)


def play(state, *moves):
    """Apply (seat, text) moves in order; returns the final state and all events."""
    events = []
    for seat, text in moves:
        state, new = GAME.apply(state, seat, GAME.parse_move(text))
        events.extend(new)
    return state, events


def as_json(state) -> dict:
    return GAME.to_json(state)


def column(state, letter: str) -> str:
    return as_json(state)["columns"]["ABCDEFGH".index(letter)]


def leader_at(state, seat: int, leader: str):
    return as_json(state)["players"][seat]["leaders"][leader]


def vp(state, seat: int) -> str:
    return as_json(state)["players"][seat]["vp"]


def hand(state, seat: int) -> dict:
    return as_json(state)["players"][seat]["hand"]


def cards_accounted(data: dict) -> int:
    """Every one of the 200 cards, wherever it is (committed ones lie before their players)."""
    players = data["players"]
    conflict = data["conflict"] or {}
    committed = (conflict.get("attacker_commit") or 0) + (conflict.get("defender_commit") or 0)
    return (
        committed +
        len(data["deck"]) + len(data["removed"])
        + sum(sum(p["hand"].values()) + len(p["vp"]) + p["catastrophe"] for p in players)
        + sum(len(col) for col in data["columns"]) + sum(ch != "." for ch in data["gaps"])
        + sum(data["discard"].values()) + data["unused_catastrophes"] + len(data["ships"])
    )


__all__ = ["TOTAL_CARDS"]
