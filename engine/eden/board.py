"""Eden's fixed facts: the 7x7 board, the cards, the colours, and the printed data
(cultivation shapes, dots per level, tile split) read from `data.json`.

The printed data is provisional until the real values are typed in (see the file's
`note`); nothing else in the engine depends on its particular values.
"""
from __future__ import annotations

import json
from importlib import resources

SIZE = 7
COLUMN_LETTERS = "ABCDEFG"
SQUARES = SIZE * SIZE
SQUARE_NAMES = tuple(f"{COLUMN_LETTERS[i % SIZE]}{i // SIZE + 1}" for i in range(SQUARES))
SQUARE_INDEX = {name: i for i, name in enumerate(SQUARE_NAMES)}

COLORS = ("red", "yellow", "blue", "pink")  # by seat
COLOR_LETTERS = "rybp"

STARTING_MANA = 100
HAND_SIZE = 6  # dealt at the start
DRAW_BELOW = 5  # draw one card at the end of a turn when holding fewer
WINNING_POINTS = 20
INCOME_PER_RED_DOT = 5
CULTIVATION_COST = 10  # per tile that rises
SQUARE_PRICE = 10  # selling: per square of the card; buying: this per square plus BUY_FEE
BUY_FEE = 10
OPENING_BID = 10
RAISE = 5
BID_STEP = 5  # mana comes in cards of 5 and up
MAX_LEVEL = 4
LOW, HIGH = 0, 1  # tile kinds: the 1/2 tile and the 3/4 tile


def _load() -> dict:
    return json.loads(resources.files("engine.eden").joinpath("data.json").read_text())


DATA = _load()
PROVISIONAL = bool(DATA.get("provisional"))
CULTIVATION_NAMES = tuple(card["name"] for card in DATA["cultivation_cards"])
CARD_NAMES = SQUARE_NAMES + CULTIVATION_NAMES  # irrigation card i is square i
CARD_ID_BY_NUMBER = {str(k + 1): name for k, name in enumerate(CULTIVATION_NAMES)}  # "9" -> the ninth card
CARD_INDEX = {name: i for i, name in enumerate(CARD_NAMES)}
POINTS = (0,) + tuple(DATA["levels"][str(k)]["white"] + DATA["levels"][str(k)]["red"] for k in range(1, 5))
RED_DOTS = (0,) + tuple(DATA["levels"][str(k)]["red"] for k in range(1, 5))
TILES = (DATA["tiles_per_color"]["1/2"], DATA["tiles_per_color"]["3/4"])


def tile_kind(level: int) -> int:
    """Which tile shows a level: 1 and 2 are the two sides of one tile, 3 and 4 of another."""
    return LOW if level <= 2 else HIGH


def is_cultivation(card: int) -> bool:
    return card >= SQUARES


def _rotations(cells: list[list[int]]) -> tuple[tuple[tuple[int, int], ...], ...]:
    """The distinct quarter turns of a shape (never its mirror image), each moved so
    its smallest column and row are 0."""
    shapes = []
    current = [tuple(c) for c in cells]
    for _ in range(4):
        min_x = min(x for x, _ in current)
        min_y = min(y for _, y in current)
        normal = tuple(sorted((x - min_x, y - min_y) for x, y in current))
        if normal not in shapes:
            shapes.append(normal)
        current = [(-y, x) for x, y in current]
    return tuple(shapes)


SHAPE_NAMES = {card["name"]: card["shape"].replace("-", " ") for card in DATA["cultivation_cards"]}
SHAPE_CELLS = {card["name"]: tuple(map(tuple, card["cells"])) for card in DATA["cultivation_cards"]}
ROTATIONS = tuple(_rotations(card["cells"]) for card in DATA["cultivation_cards"])
CARD_SQUARES = tuple(len(card["cells"]) for card in DATA["cultivation_cards"])


def _placements(rotations) -> tuple[tuple[int, ...], ...]:
    """Every set of squares (sorted indices) a shape can cover on the board."""
    found = set()
    for shape in rotations:
        width = max(x for x, _ in shape) + 1
        height = max(y for _, y in shape) + 1
        for top in range(SIZE - height + 1):
            for left in range(SIZE - width + 1):
                found.add(tuple(sorted((top + y) * SIZE + left + x for x, y in shape)))
    return tuple(sorted(found))


PLACEMENTS = tuple(_placements(r) for r in ROTATIONS)
PLACEMENT_SETS = tuple(frozenset(frozenset(squares) for squares in p) for p in PLACEMENTS)


def _neighbours(i: int) -> tuple[int, ...]:
    x, y = i % SIZE, i // SIZE
    steps = ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1))
    return tuple(ny * SIZE + nx for nx, ny in steps if 0 <= nx < SIZE and 0 <= ny < SIZE)


NEIGHBOURS = tuple(_neighbours(i) for i in range(SQUARES))


def cultivation_size(card: int) -> int:
    return CARD_SQUARES[card - SQUARES]


def card_number(name: str) -> int:
    """A cultivation card's number as players say it ("card 9"): its place in the data
    file. Its id (`K9`) reads like a square, so players never see it."""
    return CULTIVATION_NAMES.index(name) + 1
