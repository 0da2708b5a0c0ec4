"""The Tigris & Euphrates board as SVG, drawn from a player's view (docs/drawing.md).

One drawing serves the game's web page (inline SVG) and the decision emails (the same
SVG turned into PNG). It reads only the view JSON (docs/games/tigris.md) and the board
map in boards.json; it is deterministic: the same view always gives the same text.
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from engine.core import round_of_view
from engine.emblems import dynasty_emblem
from engine.picture_pieces import piece

ROWS, COLS = 11, 16
CELL = 48                      # pixels per square
MARGIN = 24                    # room for the column letters and row numbers
LEGEND_HEIGHT = 80             # the key below the board
BOARD_LEFT, BOARD_TOP = MARGIN, MARGIN
WIDTH = 2 * MARGIN + COLS * CELL                    # 816
HEIGHT = 2 * MARGIN + ROWS * CELL + LEGEND_HEIGHT   # 656
DISPLAY_HEIGHT = 40            # the row of face-up tiles under the key (option open_tiles)
DISPLAY_TILE = 28

COLUMN_LETTERS = "ABCDEFGHIJKLMNOP"
COLORS = ("red", "blue", "green", "black")
TILE_NAMES = {"red": "temple", "blue": "farm", "green": "market", "black": "settlement"}
# The letter on every tile and monument tier, so colour is never the only cue.
TILE_LETTERS = {"red": "T", "blue": "F", "green": "M", "black": "S"}
TILE_CHARS = {"r": "red", "b": "blue", "g": "green", "k": "black"}
CHAR_OF_TILE = {color: char for char, color in TILE_CHARS.items()}
LEADER_COLORS = {"king": "black", "priest": "red", "farmer": "blue", "trader": "green"}
LEADER_LETTERS = {"king": "K", "priest": "P", "farmer": "F", "trader": "T"}
BUILDING_NAMES = {"red": "library", "blue": "granary", "green": "market hall", "black": "palace"}

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
INK = "#4a3b22"
PAINT = {
    "red": "#b83a2e", "blue": "#2d6cb5", "green": "#3c8a41", "black": "#2e2e2e",
    "land": "#efe2bd", "river": "#9fcbe8", "grid": "#cbb888", "wave": "#5f9cc7",
    "frame": "#7a6540", "paper": "#f8f1dc", "gold": "#e2b21d", "gold_edge": "#7a5a00",
    "stone": "#6d5c4c", "face_down": "#ddd0ad", "plate": "#f3e7c6",
    "legal": "#ffcf00", "conflict": "#d9480f", "unification": "#6b2fa0", "unknown": "#9a9a9a",
}
_SQUARE_NAME = re.compile(r"([A-P])(1[01]|[1-9])")


def board_svg(view: dict, *, highlight: list[str] | None = None) -> str:
    """The board of `view` as a standalone SVG document of WIDTH x HEIGHT pixels.

    Squares named in `highlight` get the class `legal` and a visible outline.
    Raises ValueError when the view's board or a square name is malformed.
    """
    board = _Board.from_view(view, highlight or [])
    height = _height(board)
    parts = [
        _svg_open('role="img" class="tigris-board"', height),
        f"<title>{escape(board.title())}</title>",
        f"<desc>{escape(board.description())}</desc>",
        "<style>.square.legal{cursor:pointer}</style>",
        f'<rect width="{WIDTH}" height="{height}" fill="{PAINT["paper"]}"/>',
        _labels(),
        '<g class="squares">', *(_square(board, sq) for sq in range(ROWS * COLS)), "</g>",
        '<g class="monuments" pointer-events="none">',
        *(_monument(m, *_origin(m[0])) for m in board.monuments), "</g>",
        '<g class="markers" pointer-events="none">', *(marker for _, marker in _markers(board, _origin)), "</g>",
        _frame(),
        f'<g class="legend" data-height="{LEGEND_HEIGHT}">' + _legend_key() + _legend_dynasties(board) + "</g>",
        *_display_row(board),
        "</svg>",
    ]
    return "\n".join(parts)


def _height(board: _Board) -> int:
    return HEIGHT if board.display is None else HEIGHT + DISPLAY_HEIGHT


def picture_layers(view: dict) -> tuple[str, list[tuple[float, float, str]]]:
    """The board of `view` for a raster picture: the background, which only the board
    map decides (paper, labels, squares, river, the fixed rows of the key), and the
    pieces to paint over it in order, each an SVG document placed at (x, y). Painted
    so, they give the picture of `board_svg(view)`. The background is the same for
    every position on a map, and a piece's document the same wherever it stands, so a
    renderer may draw each once and reuse it."""
    board = _Board.from_view(view, [])
    pieces = []

    def place(x: int, y: int, width: int, height: int, drawing: str) -> None:
        pieces.append(piece(x, y, width, height, drawing, FONT))

    for sq in range(ROWS * COLS):
        standing = _standing(board, sq, 0, 0)
        if standing:
            place(*_origin(sq), CELL, CELL, standing)
    for monument in board.monuments:
        place(*_origin(monument[0]), 2 * CELL, 2 * CELL, _monument(monument, 0, 0))
    for sq, marker in _markers(board, lambda sq: (0, 0)):
        place(*_origin(sq), CELL, CELL, marker)
    place(0, 0, WIDTH, HEIGHT, _frame())  # the same on every board: one piece
    strip = _KEY_TOP + 40  # the key's last row, which names the dynasties
    place(0, strip, WIDTH, HEIGHT - strip, f'<g transform="translate(0 {-strip})">{_legend_dynasties(board)}</g>')
    if board.display is not None:
        place(0, HEIGHT, WIDTH, DISPLAY_HEIGHT, _display_label(0))
        for index, color in enumerate(board.display):
            x, y = _display_tile_corner(index)
            place(x, y, DISPLAY_TILE, DISPLAY_TILE, _display_tile(0, 0, color))
    return _background(board.map_name, _height(board)), pieces


@cache
def _background(map_name: str, height: int = HEIGHT) -> str:
    river, _ = _river_and_take_first(map_name)
    # Waves on every river square: a tile placed there covers them whole.
    ground = [_ground(sq, sq in river, waves=True) for sq in range(ROWS * COLS)]
    return "\n".join([_svg_open("", height), f'<rect width="{WIDTH}" height="{height}" fill="{PAINT["paper"]}"/>',
                      _labels(), *ground, _legend_key(), "</svg>"])


def _svg_open(attributes: str = "", height: int = HEIGHT) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
            f'viewBox="0 0 {WIDTH} {height}" {attributes} font-family={quoteattr(FONT)}>')


# --- the display of face-up tiles (option open_tiles) ------------------------------


def _display_label(top: int) -> str:
    return _legend_word(MARGIN, top + DISPLAY_HEIGHT / 2, "Face up beside the board:")


def _display_tile_corner(index: int) -> tuple[int, int]:
    return MARGIN + 170 + index * (DISPLAY_TILE + 8), HEIGHT + (DISPLAY_HEIGHT - DISPLAY_TILE) // 2


def _display_tile(x: float, y: float, color: str) -> str:
    fill = PAINT.get(color, PAINT["unknown"])
    return (f'<rect x="{x:g}" y="{y:g}" width="{DISPLAY_TILE}" height="{DISPLAY_TILE}" rx="4" fill="{fill}" '
            f'stroke="#00000055" stroke-width="1.5"/>'
            + _text(x + DISPLAY_TILE / 2, y + DISPLAY_TILE / 2, TILE_LETTERS.get(color, "?"), 15, "#ffffff"))


def _display_row(board: _Board) -> list[str]:
    """The face-up tiles in colour order, each a `<g data-display-tile="colour">`."""
    if board.display is None:
        return []
    tiles = []
    for index, color in enumerate(board.display):
        x, y = _display_tile_corner(index)
        tiles.append(f"<g{_attrs(data__display__tile=color)}>{_display_tile(x, y, color)}</g>")
    return ['<g class="display">', _display_label(HEIGHT), *tiles, "</g>"]


def _frame() -> str:
    return (f'<rect x="{BOARD_LEFT}" y="{BOARD_TOP}" width="{COLS * CELL}" height="{ROWS * CELL}" '
            f'fill="none" stroke="{PAINT["frame"]}" stroke-width="2"/>')


# --- reading the view -------------------------------------------------------------


def square_name(sq: int) -> str:
    return f"{COLUMN_LETTERS[sq % COLS]}{sq // COLS + 1}"


def square_index(name: object) -> int:
    match = _SQUARE_NAME.fullmatch(str(name))
    if match is None:
        raise ValueError(f"not a board square: {name!r}")
    return (int(match.group(2)) - 1) * COLS + COLUMN_LETTERS.index(match.group(1))


@cache
def _board_maps() -> dict:
    return json.loads(Path(__file__).with_name("boards.json").read_text(encoding="utf-8"))


def _river_and_take_first(board_name: str) -> tuple[frozenset[int], frozenset[int]]:
    maps = _board_maps()
    if board_name not in maps or "river" not in maps[board_name]:
        raise ValueError(f"unknown board map: {board_name!r}")
    data = maps[board_name]
    return (frozenset(r * COLS + c for r, c in data["river"]),
            frozenset(r * COLS + c for r, c in data["take_first"]))


class _Board:
    """What stands on each square, read once from the view."""

    def __init__(self) -> None:
        self.map_name = "standard"
        self.round: int | None = None
        self.river: frozenset[int] = frozenset()
        self.take_first: frozenset[int] = frozenset()
        self.tiles: dict[int, tuple[str, bool]] = {}       # square -> (colour, face down)
        self.catastrophes: set[int] = set()
        self.treasures: set[int] = set()
        self.leaders: dict[int, tuple[str, int, str]] = {}  # square -> (role, seat, dynasty)
        self.monuments: list[tuple[int, str, str]] = []   # (top-left square, colour, colour)
        self.monument_of: dict[int, str] = {}
        self.unification: tuple[int, object] | None = None  # (square, owner seat or "shared")
        self.conflict: dict[int, str] = {}                # leader square -> attacker/defender
        self.conflict_words = ""
        self.buildings: dict[int, str] = {}               # square -> colour (option buildings)
        self.ziggurat_tiles: set[int] = set()             # option ziggurat
        self.ziggurat_centre: int | None = None
        self.display: list[str] | None = None             # face-up tiles (option open_tiles)
        self.legal: set[int] = set()
        self.dynasties: list[str] = []
        self.seat: int | None = None

    @classmethod
    def from_view(cls, view: dict, highlight: list[str]) -> _Board:
        board = cls()
        board.map_name = str((view.get("options") or {}).get("board") or "standard")
        board.river, board.take_first = _river_and_take_first(board.map_name)
        if view.get("take_first") is not None:
            board.take_first = frozenset(square_index(n) for n in view["take_first"])
        board.round = round_of_view(view)
        board.seat = view.get("seat")
        board._read_cells(view.get("board"))
        board.treasures = {square_index(n) for n in view.get("treasures") or []}
        board._read_monuments(view.get("monuments") or [])
        board._read_leaders(view.get("players") or [])
        wars = view.get("wars")
        if wars and wars.get("square"):
            shared = (view.get("options") or {}).get("unification_tiles") == "shared"
            board.unification = (square_index(wars["square"]), "shared" if shared else wars.get("owner"))
        board._read_conflict(view.get("conflict"))
        board.buildings = {square_index(where): str(color)
                           for color, where in (view.get("buildings") or {}).items() if where is not None}
        if view.get("display") is not None:
            board.display = [color for color in COLORS for _ in range(int(view["display"].get(color, 0)))][:6]
        centre = (view.get("ziggurat") or {}).get("square")
        board.ziggurat_centre = None if centre is None else square_index(centre)
        board.legal = {square_index(n) for n in highlight}
        return board

    def _read_cells(self, rows) -> None:
        if not isinstance(rows, list) or len(rows) != ROWS or any(
                not isinstance(r, str) or len(r) != COLS for r in rows):
            raise ValueError(f"the board must be {ROWS} strings of {COLS} cells")
        for row, text in enumerate(rows):
            for col, cell in enumerate(text):
                sq = row * COLS + col
                if cell in ".~":
                    continue
                if cell == "x":
                    self.catastrophes.add(sq)
                elif cell == "z":
                    self.ziggurat_tiles.add(sq)
                elif cell.lower() in TILE_CHARS:
                    self.tiles[sq] = (TILE_CHARS[cell.lower()], cell.isupper())
                else:
                    raise ValueError(f"unknown board cell {cell!r} at {square_name(sq)}")

    def _read_monuments(self, monuments: list) -> None:
        for monument in monuments:
            first, second = (list(monument.get("colors") or []) + ["?", "?"])[:2]
            top_left = square_index(monument.get("square"))
            if top_left % COLS == COLS - 1 or top_left // COLS == ROWS - 1:
                raise ValueError(f"a monument's 2x2 block must fit on the board: {square_name(top_left)}")
            self.monuments.append((top_left, str(first), str(second)))
            for sq in (top_left, top_left + 1, top_left + COLS, top_left + COLS + 1):
                self.monument_of[sq] = f"{first}-{second}"

    def _read_leaders(self, players: list) -> None:
        for seat, player in enumerate(players):
            dynasty = str(player.get("dynasty", ""))
            self.dynasties.append(dynasty)
            for role, where in (player.get("leaders") or {}).items():
                if where is not None:
                    self.leaders[square_index(where)] = (str(role), seat, dynasty)

    def _read_conflict(self, conflict: dict | None) -> None:
        if not conflict:
            return
        sides = []
        for side in ("attacker", "defender"):
            square = square_index(conflict.get(f"{side}_leader"))
            self.conflict[square] = side
            sides.append(f"seat {conflict.get(side)} at {square_name(square)}")
        self.conflict_words = (f"{str(conflict.get('kind', 'conflict')).capitalize()} in "
                               f"{conflict.get('color')}: {sides[0]} attacks {sides[1]}.")

    def text_cell(self, sq: int) -> str:
        """Two characters for a square of `board_text`."""
        if sq in self.leaders:
            role, seat, _ = self.leaders[sq]
            return f"{LEADER_LETTERS.get(role, '?')}{seat}"
        if self.unification and self.unification[0] == sq:
            return "u "
        if sq in self.catastrophes:
            return "x "
        if sq in self.ziggurat_tiles:
            return "z "
        if sq in self.tiles:
            color, face_down = self.tiles[sq]
            mark = "#" if face_down or sq in self.monument_of else "*" if sq in self.treasures else \
                "^" if sq in self.buildings else " "
            return f"{CHAR_OF_TILE[color]}{mark}"
        return "~ " if sq in self.river else ". "

    # --- the text alternative ---

    def title(self) -> str:
        return "Tigris & Euphrates board" + (f", round {self.round}" if self.round is not None else "")

    def description(self) -> str:
        lines = [f"{self.map_name.capitalize()} board, columns A to P from the left, "
                 f"rows 1 to 11 from the top."]
        for color in COLORS:
            squares = [s for s, (c, down) in sorted(self.tiles.items()) if c == color and not down]
            if squares:
                lines.append(f"{color.capitalize()} {TILE_NAMES[color]}s ({TILE_LETTERS[color]}): "
                             f"{_names(squares)}.")
        face_down = [f"{c} {square_name(s)}" for s, (c, down) in sorted(self.tiles.items()) if down]
        if face_down:
            lines.append(f"Face-down tiles under monuments: {', '.join(face_down)}.")
        for top_left, first, second in self.monuments:
            block = (top_left, top_left + 1, top_left + COLS, top_left + COLS + 1)
            lines.append(f"Monument {first}-{second} on {_names(block)}.")
        if self.treasures:
            marked = [square_name(s) + (" (taken first)" if s in self.take_first else "")
                      for s in sorted(self.treasures)]
            lines.append(f"Treasures: {', '.join(marked)}.")
        for sq, (role, seat, dynasty) in sorted(self.leaders.items()):
            lines.append(f"{dynasty.capitalize()} {role} ({LEADER_LETTERS.get(role, '?')}, "
                         f"seat {seat}) at {square_name(sq)}.")
        if self.catastrophes:
            lines.append(f"Catastrophes: {_names(sorted(self.catastrophes))}.")
        if self.ziggurat_tiles:
            centre = "" if self.ziggurat_centre is None else f", its tower on {square_name(self.ziggurat_centre)}"
            lines.append(f"The ziggurat stands on {_names(sorted(self.ziggurat_tiles))}{centre}.")
        for sq, color in sorted(self.buildings.items()):
            lines.append(f"The {BUILDING_NAMES.get(color, 'building')} ({color}) stands on {square_name(sq)}.")
        if self.conflict_words:
            lines.append(self.conflict_words)
        if self.unification:
            owner = "shared" if self.unification[1] == "shared" else f"of seat {self.unification[1]}"
            lines.append(f"Unification tile {owner} at {square_name(self.unification[0])}.")
        if self.display is not None:
            shown = ", ".join(f"{self.display.count(c)} {c}" for c in COLORS if c in self.display)
            lines.append(f"Face up beside the board: {shown or 'nothing'}.")
        if self.legal:
            lines.append(f"Squares you may choose: {_names(sorted(self.legal))}.")
        return " ".join(lines)


def board_text(view: dict) -> str:
    """The board as a grid of characters, for the plain text of emails: two
    characters a square (what stands there, then a mark) and a key of what is shown."""
    board = _Board.from_view(view, [])
    lines = ["    " + "  ".join("ABCDEFGHIJKLMNOP"[:COLS])]
    for row in range(ROWS):
        cells = [board.text_cell(row * COLS + col) for col in range(COLS)]
        lines.append(f"{row + 1:>2}  " + " ".join(cells).rstrip())
    lines.append("")
    lines.append(". land  ~ river  r temple  b farm  g market  k settlement  x catastrophe")
    lines.append("after a tile: * treasure  # under a monument" + ("  ^ building" if board.buildings else "")
                 + ("   z ziggurat" if board.ziggurat_tiles else "")
                 + ("   u unification tile" if board.unification else ""))
    you = {board.seat: " (you)"} if board.seat is not None else {}
    seats = ", ".join(f"{seat} {dynasty}{you.get(seat, '')}" for seat, dynasty in enumerate(board.dynasties))
    lines.append("Leaders: K king, P priest, F farmer, T trader, then the seat (K0: seat 0's king).")
    lines.append(f"Seats: {seats}.")
    for top_left, first, second in board.monuments:
        lines.append(f"Monument {first}-{second} on {square_name(top_left)} (2x2).")
    return "\n".join(lines)


def _names(squares) -> str:
    return ", ".join(square_name(s) for s in squares)


# --- drawing ----------------------------------------------------------------------


def _attrs(**attrs) -> str:
    """Attributes in the given order, every value escaped; a trailing `_` is dropped and
    `__` becomes `-` so data attributes can be written as keyword arguments."""
    return "".join(f" {k.rstrip('_').replace('__', '-')}={quoteattr(str(v))}"
                   for k, v in attrs.items() if v is not None)


def _origin(sq: int) -> tuple[int, int]:
    return BOARD_LEFT + (sq % COLS) * CELL, BOARD_TOP + (sq // COLS) * CELL


def _text(x: float, y: float, text: str, size: int, fill: str, weight: str = "bold") -> str:
    # Centred on (x, y): the baseline is moved down by about a third of the size,
    # because dominant-baseline is not honoured by every renderer.
    return (f'<text x="{x:g}" y="{y + size * 0.36:g}" font-size="{size}" font-weight="{weight}" '
            f'text-anchor="middle" fill="{fill}">{escape(text)}</text>')


def _labels() -> str:
    out = []
    for col, letter in enumerate(COLUMN_LETTERS):
        x = BOARD_LEFT + col * CELL + CELL / 2
        out += [_text(x, MARGIN / 2, letter, 13, INK), _text(x, MARGIN * 1.5 + ROWS * CELL, letter, 13, INK)]
    for row in range(ROWS):
        y = BOARD_TOP + row * CELL + CELL / 2
        out += [_text(MARGIN / 2, y, str(row + 1), 13, INK),
                _text(MARGIN * 1.5 + COLS * CELL, y, str(row + 1), 13, INK)]
    return '<g class="labels">' + "".join(out) + "</g>"


def _square(board: _Board, sq: int) -> str:
    river = sq in board.river
    tile = board.tiles.get(sq)
    leader = board.leaders.get(sq)
    data = {
        "class_": "square" + (" legal" if sq in board.legal else ""),
        "data__square": square_name(sq),
        "data__terrain": "river" if river else "land",
        "data__tile": tile[0] if tile else None,
        "data__face__down": "true" if tile and tile[1] else None,
        "data__catastrophe": "true" if sq in board.catastrophes else None,
        "data__treasure": "true" if sq in board.treasures else None,
        "data__take__first": "true" if sq in board.take_first else None,
        "data__monument": board.monument_of.get(sq),
        "data__leader": leader[0] if leader else None,
        "data__seat": leader[1] if leader else None,
        "data__dynasty": leader[2] if leader else None,
        "data__unification": board.unification[1] if board.unification and board.unification[0] == sq else None,
        "data__conflict": board.conflict.get(sq),
        "data__building": board.buildings.get(sq),
        "data__ziggurat": ("tower" if sq == board.ziggurat_centre else "true") if sq in board.ziggurat_tiles else None,
    }
    ground = _ground(sq, river, waves=not tile)
    return f"<g{_attrs(**data)}>{ground}{_standing(board, sq, *_origin(sq))}</g>"


def _ground(sq: int, river: bool, waves: bool) -> str:
    """A square's land or river, with the river's waves when `waves`."""
    x, y = _origin(sq)
    rect = (f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" '
            f'fill="{PAINT["river" if river else "land"]}" stroke="{PAINT["grid"]}"/>')
    return rect + _waves(x, y) if river and waves else rect


def _standing(board: _Board, sq: int, x: int, y: int) -> str:
    """What stands on a square, drawn with its corner at (x, y): the take-first mark,
    a tile or catastrophe, a leader."""
    tile = board.tiles.get(sq)
    leader = board.leaders.get(sq)
    body = []
    if sq in board.take_first:
        body.append(f'<rect x="{x + 2}" y="{y + 2}" width="{CELL - 4}" height="{CELL - 4}" '
                    f'fill="none" stroke="{PAINT["gold_edge"]}" stroke-width="2" stroke-dasharray="5 3"/>')
    if tile:
        body.append(_tile(x, y, *tile))
    if sq in board.catastrophes:
        body.append(_catastrophe(x, y))
    if sq in board.ziggurat_tiles:
        body.append(_ziggurat_tile(x, y))
    if leader:
        if sq in board.conflict:  # under the leader, so the role badge stays clear
            body.append(f'<circle cx="{x + CELL / 2:g}" cy="{y + CELL / 2:g}" r="21.5" fill="none" '
                        f'stroke="{PAINT["conflict"]}" stroke-width="3" stroke-dasharray="6 3"/>')
        body.append(_leader(x + CELL / 2, y + CELL / 2, leader[0], leader[2]))
    return "".join(body)


def _waves(x: int, y: int) -> str:
    # A wavy line as well as the blue, so the river reads without colour.
    paths = []
    for dy in (17, 31):
        paths.append(f"M{x + 9} {y + dy} q5 -5 10 0 t10 0 t10 0")
    return (f'<path d="{" ".join(paths)}" fill="none" stroke="{PAINT["wave"]}" '
            f'stroke-width="1.6" stroke-linecap="round"/>')


def _tile(x: int, y: int, color: str, face_down: bool) -> str:
    inset, size = 4, CELL - 8
    if face_down:
        fill, edge, ink = PAINT["face_down"], PAINT[color], PAINT[color]
    else:
        fill, edge, ink = PAINT[color], "#00000055", "#ffffff"
    return (f'<rect x="{x + inset}" y="{y + inset}" width="{size}" height="{size}" rx="5" '
            f'fill="{fill}" stroke="{edge}" stroke-width="1.5"/>'
            + _text(x + CELL / 2, y + CELL / 2 + 1, TILE_LETTERS[color], 22, ink))


def _ziggurat_tile(x: int, y: int) -> str:
    """A sandstone tile with stepped edges and a **Z**."""
    inset, size = 4, CELL - 8
    return (f'<rect x="{x + inset}" y="{y + inset}" width="{size}" height="{size}" rx="2" '
            f'fill="#c8a064" stroke="{PAINT["frame"]}" stroke-width="2"/>'
            f'<rect x="{x + 9}" y="{y + 9}" width="{CELL - 18}" height="{CELL - 18}" fill="none" '
            f'stroke="{PAINT["frame"]}" stroke-width="1.2"/>'
            + _text(x + CELL / 2, y + CELL / 2 + 1, "Z", 20, INK))


def _ziggurat_tower(x: int, y: int) -> str:
    """The tower on the ziggurat's centre: three stepped tiers over the tile."""
    tiers = [(8, 30, 32, 10), (13, 21, 22, 9), (18, 13, 12, 8)]
    return "".join(f'<rect x="{x + left}" y="{y + top}" width="{width}" height="{height}" '
                   f'fill="#e6c88f" stroke="{PAINT["frame"]}" stroke-width="1.5"/>'
                   for left, top, width, height in tiers)


def _catastrophe(x: int, y: int) -> str:
    inset, size = 4, CELL - 8
    a, b = 14, CELL - 14
    return (f'<rect x="{x + inset}" y="{y + inset}" width="{size}" height="{size}" rx="5" '
            f'fill="{PAINT["stone"]}" stroke="#2b2118" stroke-width="1.5"/>'
            f'<path d="M{x + a} {y + a}L{x + b} {y + b}M{x + b} {y + a}L{x + a} {y + b}" '
            f'stroke="#ffffff" stroke-width="5" stroke-linecap="round"/>')


def _leader(cx: float, cy: float, role: str, dynasty: str) -> str:
    fill = PAINT.get(LEADER_COLORS.get(role, ""), PAINT["unknown"])
    badge_x, badge_y = cx + 13, cy + 13
    return (f'<circle cx="{cx:g}" cy="{cy:g}" r="17" fill="{fill}" stroke="#ffffff" stroke-width="2.5"/>'
            f'<g transform="translate({cx:g} {cy - 1:g})">{dynasty_emblem(dynasty, fill)}</g>'
            f'<circle cx="{badge_x:g}" cy="{badge_y:g}" r="8" fill="#ffffff" stroke="{fill}" stroke-width="1.5"/>'
            + _text(badge_x, badge_y, LEADER_LETTERS.get(role, "?"), 11, fill))


def _monument(monument: tuple[int, str, str], x: int, y: int) -> str:
    """A two-tier stepped monument over its 2x2 block (corner at x, y): the first
    colour below, the second above, each tier with its tile letter."""
    top_left, first, second = monument
    block = 2 * CELL
    low, high = PAINT.get(first, PAINT["unknown"]), PAINT.get(second, PAINT["unknown"])
    return (
        f'<g{_attrs(class_="monument", data__monument=f"{first}-{second}", data__at=square_name(top_left))}>'
        f'<rect x="{x + 7}" y="{y + 7}" width="{block - 14}" height="{block - 14}" rx="8" '
        f'fill="{PAINT["plate"]}" stroke="{PAINT["frame"]}" stroke-width="2"/>'
        f'<rect x="{x + 14}" y="{y + 50}" width="{block - 28}" height="30" rx="3" '
        f'fill="{low}" stroke="#00000066" stroke-width="1.5"/>'
        f'<rect x="{x + 26}" y="{y + 18}" width="{block - 52}" height="32" rx="3" '
        f'fill="{high}" stroke="#00000066" stroke-width="1.5"/>'
        + _text(x + CELL, y + 65, TILE_LETTERS.get(first, "?"), 18, "#ffffff")
        + _text(x + CELL, y + 34, TILE_LETTERS.get(second, "?"), 18, "#ffffff")
        + "</g>"
    )


def _markers(board: _Board, corner: Callable[[int], tuple[int, int]]) -> list[tuple[int, str]]:
    """The markers over the squares, as (square, drawing); `corner` gives where the
    drawing puts each square's top-left corner."""
    out = []
    for sq in sorted(board.treasures):
        x, y = corner(sq)
        out.append((sq, _treasure(x + CELL - 10, y + 10, sq in board.take_first)))
    if board.unification:
        sq = board.unification[0]
        x, y = corner(sq)
        out.append((sq,
            f'<rect x="{x + 1.5}" y="{y + 1.5}" width="{CELL - 3}" height="{CELL - 3}" fill="none" '
            f'stroke="{PAINT["unification"]}" stroke-width="3"/>'
            f'<circle cx="{x + 10}" cy="{y + 10}" r="8" fill="#ffffff" stroke="{PAINT["unification"]}" '
            f'stroke-width="2"/>' + _text(x + 10, y + 10, "U", 11, PAINT["unification"])))
    if board.ziggurat_centre is not None and board.ziggurat_centre in board.ziggurat_tiles:
        x, y = corner(board.ziggurat_centre)
        out.append((board.ziggurat_centre, _ziggurat_tower(x, y)))
    for sq, color in sorted(board.buildings.items()):
        x, y = corner(sq)
        out.append((sq, _building(x + 11, y + CELL - 11, color)))
    for sq, side in sorted(board.conflict.items()):
        x, y = corner(sq)
        out.append((sq,
            f'<circle cx="{x + 9}" cy="{y + 9}" r="8" fill="{PAINT["conflict"]}"/>'
            + _text(x + 9, y + 9, side[0].upper(), 11, "#ffffff")))
    for sq in sorted(board.legal):
        x, y = corner(sq)
        out.append((sq, f'<rect x="{x + 2}" y="{y + 2}" width="{CELL - 4}" height="{CELL - 4}" rx="4" '
                        f'fill="{PAINT["legal"]}" fill-opacity="0.25" stroke="{PAINT["legal"]}" '
                        f'stroke-width="4" stroke-dasharray="8 4"/>'))
    return out


def _building(cx: float, cy: float, color: str) -> str:
    """A civilization building: a white house with a roof, edged in its colour."""
    edge = PAINT.get(color, PAINT["unknown"])
    return (f'<path d="M{cx - 8:g} {cy + 7:g}V{cy - 2:g}L{cx:g} {cy - 9:g}L{cx + 8:g} {cy - 2:g}V{cy + 7:g}Z" '
            f'fill="#ffffff" stroke="{edge}" stroke-width="2.2" stroke-linejoin="round"/>'
            f'<rect x="{cx - 2.5:g}" y="{cy + 1:g}" width="5" height="6" fill="{edge}"/>')


def _treasure(cx: float, cy: float, take_first: bool) -> str:
    """A gold diamond; a take-first treasure also has a dark ring around it."""
    ring = (f'<circle cx="{cx:g}" cy="{cy:g}" r="9.5" fill="#ffffff" stroke="{PAINT["gold_edge"]}" '
            f'stroke-width="2"/>' if take_first else "")
    r = 7
    return (ring + f'<path d="M{cx:g} {cy - r:g}L{cx + r:g} {cy:g}L{cx:g} {cy + r:g}L{cx - r:g} {cy:g}Z" '
            f'fill="{PAINT["gold"]}" stroke="{PAINT["gold_edge"]}" stroke-width="1.5"/>')


_KEY_TOP = 2 * MARGIN + ROWS * CELL


def _legend_key() -> str:
    """The fixed rows of the key below the board: colours (tile and leader), markers."""
    row1, row2 = _KEY_TOP + 12, _KEY_TOP + 36
    items = []
    for i, color in enumerate(COLORS):
        x = MARGIN + i * 196
        role = next(r for r, c in LEADER_COLORS.items() if c == color)
        items.append(f'<rect x="{x}" y="{row1 - 9}" width="18" height="18" rx="3" fill="{PAINT[color]}"/>'
                     + _text(x + 9, row1, TILE_LETTERS[color], 11, "#ffffff")
                     + _legend_word(x + 23, row1, TILE_NAMES[color])
                     + f'<circle cx="{x + 110}" cy="{row1}" r="9" fill="{PAINT[color]}"/>'
                     + _text(x + 110, row1, LEADER_LETTERS[role], 11, "#ffffff")
                     + _legend_word(x + 124, row1, role))
    x = MARGIN
    items.append(_treasure(x + 9, row2, False) + _legend_word(x + 22, row2, "treasure"))
    x += 196
    items.append(_treasure(x + 9, row2, True) + _legend_word(x + 22, row2, "treasure taken first"))
    x += 196
    items.append(f'<rect x="{x}" y="{row2 - 9}" width="18" height="18" rx="3" fill="{PAINT["stone"]}"/>'
                 f'<path d="M{x + 5} {row2 - 4}l8 8m0 -8l-8 8" stroke="#fff" stroke-width="2.5"/>'
                 + _legend_word(x + 23, row2, "catastrophe"))
    x += 196
    items.append(f'<circle cx="{x + 9}" cy="{row2}" r="8" fill="#ffffff" stroke="{PAINT["unification"]}" '
                 f'stroke-width="2"/>' + _text(x + 9, row2, "U", 11, PAINT["unification"])
                 + _legend_word(x + 23, row2, "unification tile"))
    return "".join(items)


def _legend_dynasties(board: _Board) -> str:
    """The last row of the key: each seat's dynasty, and which one is the reader's."""
    row3 = _KEY_TOP + 60
    items = []
    for seat, dynasty in enumerate(board.dynasties[:4]):
        x = MARGIN + seat * 196
        you = " (you)" if seat == board.seat else ""
        items.append(f'<circle cx="{x + 9}" cy="{row3}" r="10" fill="{INK}"/>'
                     f'<g transform="translate({x + 9} {row3}) scale(0.6)">{dynasty_emblem(dynasty, INK)}</g>'
                     + _legend_word(x + 23, row3, f"{dynasty}, seat {seat}{you}"))
    return "".join(items)


def _legend_word(x: float, y: float, text: str) -> str:
    return (f'<text x="{x:g}" y="{y + 4:g}" font-size="12" fill="{INK}">'
            f"{escape(text)}</text>")
