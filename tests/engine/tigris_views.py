"""Hand-written Tigris views (docs/games/tigris.md, "View") for drawing tests."""
from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

BOARDS = json.loads((Path(__file__).parents[2] / "engine" / "tigris" / "boards.json").read_text())
COLUMNS = "ABCDEFGHIJKLMNOP"
DYNASTIES = ("archer", "bull", "pot", "lion")
TILE_CHARS = {"red": "r", "blue": "b", "green": "g", "black": "k"}


def name(row: int, col: int) -> str:
    return f"{COLUMNS[col]}{row + 1}"


def start_temples(board: str = "standard") -> list[str]:
    """The squares of the starting temples (each with a treasure)."""
    return [name(r, c) for r, c in BOARDS[board]["temples_with_treasure"]]


def take_first(board: str = "standard") -> list[str]:
    return [name(r, c) for r, c in BOARDS[board]["take_first"]]


def tigris_view(*, tiles: dict[str, str] | None = None, face_down: dict[str, str] | None = None,
                catastrophes: Sequence[str] = (), treasures: list[str] | None = None,
                leaders: dict[int, dict[str, str]] | None = None, monuments: Sequence[tuple] = (),
                unification: tuple[str, int] | None = None, players: int = 3, seat: int | None = 0,
                board: str = "standard", start: bool = True, dynasties: list[str] | None = None) -> dict:
    """A view for `seat`. With `start`, the starting temples and their treasures are on
    the board; `tiles` maps squares to colours (face up), `face_down` likewise (under a
    monument); `leaders` maps seats to {role: square}; `monuments` holds
    (first colour, second colour, top-left square); `unification` is (square, owner)."""
    rows = [[("~" if ch == "~" else ".") for ch in line] for line in BOARDS[board]["map"]]

    def put(square: str, char: str) -> None:
        rows[int(square[1:]) - 1][COLUMNS.index(square[0])] = char

    placed = {sq: "red" for sq in start_temples(board)} if start else {}
    placed.update(tiles or {})
    for square, color in placed.items():
        put(square, TILE_CHARS.get(color, color))  # or a cell char: "z" a ziggurat tile
    for square, color in (face_down or {}).items():
        put(square, TILE_CHARS[color].upper())
    for square in catastrophes:
        put(square, "x")
    dynasties = dynasties or list(DYNASTIES[:players])
    player_list = []
    for s in range(players):
        where: dict[str, str | None] = {"king": None, "priest": None, "farmer": None, "trader": None}
        where.update((leaders or {}).get(s, {}))
        player = {"dynasty": dynasties[s], "leaders": where, "treasures": 0, "catastrophes": 2,
                  "score": {"red": 0, "blue": 0, "green": 0, "black": 0}}
        if s == seat:
            player["hand"] = {"red": 2, "blue": 2, "green": 1, "black": 1}
        else:
            player["hand_size"], player["score"] = 6, None
        player_list.append(player)
    return {
        "game": "tigris",
        "options": {"board": board, "open_scoring": False, "english_variant": False},
        "board": ["".join(r) for r in rows],
        "treasures": list(treasures) if treasures is not None else (start_temples(board) if start else []),
        "monuments": [{"colors": [a, b], "square": sq} for a, b, sq in monuments],
        "players": player_list,
        "bag_size": 100,
        "turn": {"number": 3, "active": 0, "actions_left": 2},
        "conflict": None,
        "wars": None if unification is None else {
            "square": unification[0], "owner": unification[1], "colors": ["red"]},
        "monument": None,
        "finished": None,
        "seat": seat,
        "pending": {"0": "action"},
        "take_first": take_first(board),
    }
