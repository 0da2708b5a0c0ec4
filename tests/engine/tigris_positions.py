"""Hand-written Tigris positions for tests: name what stands where, get a state."""
from __future__ import annotations

from collections.abc import Sequence

import engine
from engine.tigris.board import BOARD_MAPS, COLS, ROWS, square_index

GAME = engine.get_game("tigris")
TILE_CHARS = {"red": "r", "blue": "b", "green": "g", "black": "k"}


def position(
    tiles: dict[str, str] | None = None,
    leaders: dict[int, dict[str, str]] | None = None,
    hands: dict[int, dict[str, int]] | None = None,
    players: int = 3,
    active: int = 0,
    actions_left: int = 2,
    treasures: Sequence[str] = (),
    scores: dict[int, dict[str, int]] | None = None,
    options: dict | None = None,
    bag: dict[str, int] | None = None,
    **extra,
):
    """A state on an empty map: `tiles` maps squares to a colour name or a cell char
    (`x` catastrophe, uppercase face down); `treasures` need temples under them."""
    opts = {"board": "standard", **(options or {})}
    river = BOARD_MAPS[opts["board"]].river
    cells = [["~" if river[r * COLS + c] else "." for c in range(COLS)] for r in range(ROWS)]
    for name, what in (tiles or {}).items():
        sq = square_index(name)
        cells[sq // COLS][sq % COLS] = TILE_CHARS.get(what, what)
    data = {
        "game": "tigris",
        "options": opts,
        "board": ["".join(row) for row in cells],
        "treasures": list(treasures),
        "monuments": extra.pop("monuments", []),
        "players": [
            {
                "leaders": (leaders or {}).get(seat, {}),
                "hand": (hands or {}).get(seat, {}),
                "score": (scores or {}).get(seat, {}),
                "treasures": extra.get("treasure_counts", {}).get(seat, 0),
                "catastrophes": extra.get("catastrophes", {}).get(seat, 2),
            }
            for seat in range(players)
        ],
        "bag": bag or {"red": 30, "blue": 20, "green": 20, "black": 20},
        "rng": 12345,
        "turn": {"number": 5, "active": active, "actions_left": actions_left},
        "conflict": extra.pop("conflict", None),
        "wars": extra.pop("wars", None),
        "monument": extra.pop("monument", None),
        "finished": None,
    }
    for variant_field in ("buildings", "ziggurat", "display", "draws"):  # with their options
        if variant_field in extra:
            data[variant_field] = extra.pop(variant_field)
    return GAME.from_json(data)


REVOLT_TILES = {"G5": "red", "I5": "red", "G4": "red", "I4": "red", "K11": "red", "O9": "red", "P2": "red"}


def revolt_position(hands, players: int = 2):
    """Seat 0 to act; seat 1's priest on H5 between the temples G5 and I5, and H4
    (next to G4 and I4) free for seat 0's priest to revolt; three far treasures keep
    the game going."""
    return position(players=players, tiles=REVOLT_TILES, treasures=["K11", "O9", "P2"],
                    leaders={1: {"priest": "H5"}}, hands=hands)


def play(state, *moves):
    """Apply (seat, text) moves in order; returns the final state and all events."""
    events = []
    for seat, text in moves:
        state, new = GAME.apply(state, seat, GAME.parse_move(text))
        events.extend(new)
    return state, events


def cell(state, name: str) -> str:
    """The board character at a square (leaders show as the empty square)."""
    sq = square_index(name)
    return GAME.to_json(state)["board"][sq // COLS][sq % COLS]


def discarded(state) -> int:
    """Tiles out of the game (without a stated count, a position derives it)."""
    return GAME.to_json(state)["discarded"]


def leader_at(state, seat: int, leader: str):
    return GAME.to_json(state)["players"][seat]["leaders"][leader]


def score(state, seat: int) -> dict:
    return GAME.to_json(state)["players"][seat]["score"]


def hand(state, seat: int) -> dict:
    return GAME.to_json(state)["players"][seat]["hand"]
