"""Card codes, colours, leaders and the names of places on the table.

A card is a small integer: 0-3 a civilization card of that colour, 4 a treasure
(a red card with a golden dragon), 5 + colour a ship (blue plus that colour).
Places on the table: column `A`..`H` (left to right), the card at row `n` of a column
is `C0` (its head: the treasure or the card that replaced it) to `C9`, and the gap
between columns C and D is `CD`.
"""
from __future__ import annotations

COLORS = ("red", "blue", "green", "black")
RED, BLUE, GREEN, BLACK = range(4)
COLOR_INDEX = {name: i for i, name in enumerate(COLORS)}
LEADERS = ("priest", "farmer", "trader", "king")  # by colour index
LEADER_INDEX = {name: i for i, name in enumerate(LEADERS)}
DYNASTIES = ("bow", "bull", "pot", "lion")

TREASURE = 4
SHIP = 5  # + the ship's non-blue colour: 5 (blue-red), 7 (blue-green), 8 (blue-black)
SHIP_COLORS = (RED, GREEN, BLACK)
SHIP_NAMES = {SHIP + c: f"blue-{COLORS[c]}" for c in SHIP_COLORS}
SHIP_CODES = {name: code for code, name in SHIP_NAMES.items()}

CARD_CHARS = {RED: "r", BLUE: "b", GREEN: "g", BLACK: "k", TREASURE: "t",
              SHIP + RED: "R", SHIP + GREEN: "G", SHIP + BLACK: "K"}
CHAR_CARDS = {ch: code for code, ch in CARD_CHARS.items()}

COLUMNS = 8
GAPS = COLUMNS - 1
COLUMN_LETTERS = "ABCDEFGH"
GAP_NAMES = tuple(COLUMN_LETTERS[g] + COLUMN_LETTERS[g + 1] for g in range(GAPS))
MAX_UNDER = 8  # cards under a column's head
GAP_MIN_UNDER = 3  # cards under the head of both neighbours before a gap may be filled

DECK_COUNTS = (65, 40, 40, 40)  # red, blue, green, black civilization cards
TREASURES = 8
SHIPS = len(SHIP_COLORS)
CATASTROPHES = 4
TOTAL_CARDS = sum(DECK_COUNTS) + TREASURES + SHIPS + CATASTROPHES  # 200
HAND_SIZE = 8
TWO_PLAYER_TRIM = 30

# A leader's place: column * ROW_SPAN + row, or GAP_BASE + gap; -1 in supply.
ROW_SPAN = 16
GAP_BASE = COLUMNS * ROW_SPAN


def card_color(code: int) -> int:
    """The colour a card counts as: treasures are red; ships have none (-1)."""
    if code < TREASURE:
        return code
    return RED if code == TREASURE else -1


def is_ship(code: int) -> bool:
    return code >= SHIP


def ship_has_color(code: int, color: int) -> bool:
    return code >= SHIP and (color == BLUE or code - SHIP == color)


PLACE_NAMES = tuple(
    f"{COLUMN_LETTERS[place // ROW_SPAN]}{place % ROW_SPAN}" for place in range(GAP_BASE)
) + GAP_NAMES


def place_name(place: int) -> str:
    return PLACE_NAMES[place]


def parse_place(name) -> int | None:
    """The place code of a card name (`C2`, `CD`), or None if it names no place."""
    if not isinstance(name, str):
        return None
    name = name.upper()
    if name in GAP_NAMES:
        return GAP_BASE + GAP_NAMES.index(name)
    if len(name) == 2 and name[0] in COLUMN_LETTERS and name[1].isdigit():
        return COLUMN_LETTERS.index(name[0]) * ROW_SPAN + int(name[1])
    return None


def column_index(name) -> int | None:
    if isinstance(name, str) and len(name) == 1 and name.upper() in COLUMN_LETTERS:
        return COLUMN_LETTERS.index(name.upper())
    return None


def gap_index(name) -> int | None:
    if isinstance(name, str) and name.upper() in GAP_NAMES:
        return GAP_NAMES.index(name.upper())
    return None
