"""Hand-written Eden positions for tests: name what lies where, get a state."""
from __future__ import annotations

import engine
from engine.eden.board import CARD_NAMES

GAME = engine.get_game("eden")
TILES_PER_COLOR = 24
NAMES = {0: "Ann", 1: "Bob", 2: "Cy", 3: "Di"}


def position(
    tiles: dict[str, str] | None = None,
    hands: dict[int, list[str]] | None = None,
    mana: dict[int, int] | None = None,
    players: int = 3,
    active: int = 0,
    market: list[str] | None = None,
    deck: list[str] | None = None,
    played: list[str] | None = None,
    acquisition: dict | None = None,
    idle_turns: int = 0,
    options: dict | None = None,
):
    """A state from the parts a test cares about. `tiles` maps squares to cells such
    as "r2"; the deck holds every card not placed elsewhere unless given."""
    tiles = tiles or {}
    rows = []
    for row in range(1, 8):
        rows.append(" ".join(tiles.get(f"{col}{row}", "..") for col in "ABCDEFG"))
    hands = hands or {}
    market = market or []
    played = played or []
    used = {card for hand in hands.values() for card in hand} | set(market)
    if deck is None:
        deck = [c for c in CARD_NAMES if c not in used and c not in tiles and c not in played]
    discard = [c for c in CARD_NAMES if c not in used and c not in deck]
    data = {
        "game": "eden",
        "options": {"allow_two": players == 2, **(options or {})},
        "board": rows,
        "players": [
            {"mana": (mana or {}).get(seat, 100), "hand": hands.get(seat, [])}
            for seat in range(players)
        ],
        "deck": deck,
        "discard": discard,
        "market": market,
        "rng": 1,
        "turn": {"number": 7, "active": active, "played": played, "idle_turns": idle_turns},
        "acquisition": acquisition,
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


def cell(state, square: str) -> str:
    row = as_json(state)["board"][int(square[1]) - 1].split()
    return row["ABCDEFG".index(square[0])]


def mana(state, seat: int) -> int:
    return as_json(state)["players"][seat]["mana"]


def hand(state, seat: int) -> list[str]:
    return as_json(state)["players"][seat]["hand"]


def supply(state, seat: int) -> dict:
    return as_json(state)["players"][seat]["supply"]


def tiles_accounted(data: dict) -> list[dict]:
    """Per colour: tiles 1/2 and 3/4 on the board plus those in supply."""
    counts = []
    cells = " ".join(data["board"]).split()
    for seat, player in enumerate(data["players"]):
        letter = "rybp"[seat]
        low = sum(1 for c in cells if c[0] == letter and c[1] in "12")
        high = sum(1 for c in cells if c[0] == letter and c[1] in "34")
        counts.append({"1/2": low + player["supply"]["1/2"], "3/4": high + player["supply"]["3/4"]})
    return counts
