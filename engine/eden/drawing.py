"""Eden's board as SVG, drawn from a view JSON (see docs/drawing.md).

Pure: the same view always gives the same text. The 7x7 garden with column letters
and row numbers, each land tile in its owner's colour with its colour letter, its level
and its dots (white and red), the acquisition being bid for, and a key below: the
players, their fertility points and cards in hand, the market.
"""
from __future__ import annotations

from functools import lru_cache
from xml.sax.saxutils import escape

from engine.core import round_of_view
from engine.eden.board import (
    BUY_FEE,
    COLOR_LETTERS,
    COLORS,
    CULTIVATION_COST,
    POINTS,
    RED_DOTS,
    SHAPE_CELLS,
    SHAPE_NAMES,
    SIZE,
    SQUARE_INDEX,
    SQUARE_PRICE,
)
from engine.eden.notation import card_with_shape, card_words
from engine.picture_pieces import piece

CELL = 64
LEFT, TOP = 32, 32  # room for the row numbers and column letters
BOARD = SIZE * CELL
KEY_FONT = 18  # read at 12 px when a phone shows the picture at 0.7 of its size
KEY_LINE = 26
MARKET_LINES = 3
KEY_PAD = 14
WIDTH = LEFT + BOARD + 16
HEIGHT = TOP + BOARD + KEY_PAD + (4 + MARKET_LINES + 1) * KEY_LINE + 8  # the most: four players, a full market


def _height(view: dict) -> int:
    """The drawing's height: the garden and a key of as many lines as it has."""
    return TOP + BOARD + KEY_PAD + (len(view.get("players", [])) + len(_market_lines(view)) + 1) * KEY_LINE + 8
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
PAPER = "#f4efe1"
DESERT = "#e3cf9e"
LINE = "#b59b62"
LABEL = "#5b4a2c"
GOLD = "#f2b90f"
FILLS = {"red": "#c0392b", "yellow": "#e0b000", "blue": "#1f5fa8", "pink": "#d65aa0"}
INK = {"red": "#ffffff", "yellow": "#2b2100", "blue": "#ffffff", "pink": "#ffffff"}
STYLE = (
    ".square .legal-mark{fill:none;stroke:none}"
    f".square.legal .legal-mark{{fill:{GOLD};fill-opacity:0.25;stroke:{GOLD};stroke-width:4;stroke-dasharray:8 4}}"
    ".square.legal{cursor:pointer}"
    ".square.chosen .legal-mark{fill:#2e7d32;fill-opacity:0.35;stroke:#2e7d32;stroke-width:4;stroke-dasharray:none}"
)


def board_svg(view: dict, *, highlight=None) -> str:
    """The garden of an Eden view as an SVG document. `highlight` names squares to
    mark with class `legal`."""
    cells = _cells(view)
    roles = _acquisition_roles(view)
    marked = {_square_name(name) for name in highlight or ()}
    height = _height(view)
    squares = [_square(i, cells[i], roles.get(i), i in marked) for i in range(SIZE * SIZE)]
    return "\n".join([
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-labelledby="eden-title eden-desc" '
        f'viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" height="{height}">',
        f'<title id="eden-title">Eden board, round {round_of_view(view) or 1}</title>',
        f'<desc id="eden-desc">{escape(describe(view))}</desc>',
        f"<style>{STYLE}</style>",
        f'<g font-family="{FONT}">',
        _background_shapes(height),
        *squares,
        _key(view),
        "</g>",
        "</svg>",
    ])


def picture_layers(view: dict) -> tuple[str, list[tuple[float, float, str]]]:
    """The board for a raster picture (docs/drawing.md): paper, labels and the empty
    garden as the background; each tile and the key as pieces."""
    cells = _cells(view)
    roles = _acquisition_roles(view)
    pieces = []
    for i, cell in enumerate(cells):
        if cell is not None or i in roles:
            x, y = _origin(i)
            pieces.append(piece(x, y, CELL, CELL, _tile_shapes(cell, roles.get(i)), FONT))
    height = _height(view)
    pieces.append(piece(0, TOP + BOARD, WIDTH, height - TOP - BOARD,
                        f'<g transform="translate(0 {-(TOP + BOARD)})">{_key(view)}</g>',
                        FONT))
    return _background(height), pieces


@lru_cache(maxsize=8)
def _background(height: int) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" font-family="{FONT}">'
            f"{_background_shapes(height)}</svg>")


@lru_cache(maxsize=8)
def _background_shapes(height: int) -> str:
    parts = [f'<rect width="{WIDTH}" height="{height}" fill="{PAPER}"/>',
             f'<rect x="{LEFT}" y="{TOP}" width="{BOARD}" height="{BOARD}" fill="{DESERT}" stroke="{LINE}" '
             'stroke-width="2"/>']
    for k in range(SIZE):
        parts.append(f'<text x="{LEFT + k * CELL + CELL // 2}" y="{TOP - 10}" text-anchor="middle" '
                     f'font-size="18" fill="{LABEL}">{"ABCDEFG"[k]}</text>')
        parts.append(f'<text x="{LEFT // 2}" y="{TOP + k * CELL + CELL // 2 + 6}" text-anchor="middle" '
                     f'font-size="18" fill="{LABEL}">{k + 1}</text>')
    for k in range(1, SIZE):
        parts.append(f'<path d="M{LEFT + k * CELL} {TOP}v{BOARD}M{LEFT} {TOP + k * CELL}h{BOARD}" stroke="{LINE}"/>')
    return "".join(parts)


def _cells(view: dict) -> list[tuple[str, int] | None]:
    """(colour, level) or None per square, A1 first, from the view's board rows."""
    rows = view.get("board")
    if not isinstance(rows, list) or len(rows) != SIZE:
        raise ValueError(f"an Eden board is {SIZE} rows")
    cells: list[tuple[str, int] | None] = []
    for row in rows:
        parts = str(row).split()
        if len(parts) != SIZE:
            raise ValueError(f"an Eden board row is {SIZE} cells")
        for cell in parts:
            if cell == "..":
                cells.append(None)
            elif len(cell) == 2 and cell[0] in COLOR_LETTERS and cell[1] in "1234":
                cells.append((COLORS[COLOR_LETTERS.index(cell[0])], int(cell[1])))
            else:
                raise ValueError(f"unknown board cell {cell!r}")
    return cells


def _square_name(name: str) -> int:
    index = SQUARE_INDEX.get(str(name).upper())
    if index is None:
        raise ValueError(f"{name!r} is not a square of the Eden board")
    return index


def _acquisition_roles(view: dict) -> dict[int, str]:
    a = view.get("acquisition")
    if not a:
        return {}
    roles = {_square_name(sq): "A" for sq in a.get("attack", [])}
    roles.update({_square_name(sq): "D" for sq in a.get("defend", [])})
    return roles


def _origin(i: int) -> tuple[int, int]:
    return LEFT + (i % SIZE) * CELL, TOP + (i // SIZE) * CELL


def _square(i: int, cell, role: str | None, legal: bool) -> str:
    x, y = _origin(i)
    name = "ABCDEFG"[i % SIZE] + str(i // SIZE + 1)
    attrs = [f'class="square{" legal" if legal else ""}"', f'data-square="{name}"']
    if cell is not None:
        attrs += [f'data-color="{cell[0]}"', f'data-level="{cell[1]}"']
    if role:
        attrs.append(f'data-acquisition="{"attack" if role == "A" else "defend"}"')
    return (f'<g {" ".join(attrs)} transform="translate({x} {y})">'
            f'<rect width="{CELL}" height="{CELL}" fill="{DESERT}" fill-opacity="0"/>'
            f"{_tile_shapes(cell, role)}"
            f'<rect class="legal-mark" x="3" y="3" width="{CELL - 6}" height="{CELL - 6}" pointer-events="none"/></g>')


@lru_cache(maxsize=128)
def _tile_shapes(cell, role: str | None) -> str:
    """A tile at the origin: its colour, colour letter, level and dots (white first,
    then red); an A or D badge for the tiles of the acquisition being bid for."""
    parts = []
    if cell is not None:
        color, level = cell
        fill, ink = FILLS[color], INK[color]
        parts.append(f'<rect x="4" y="4" width="{CELL - 8}" height="{CELL - 8}" rx="6" fill="{fill}" '
                     'stroke="#3b2f1a" stroke-width="1.5"/>')
        parts.append(f'<text x="9" y="24" font-size="18" font-weight="bold" fill="{ink}">{color[0].upper()}</text>')
        parts.append(f'<text x="{CELL - 9}" y="24" text-anchor="end" font-size="18" font-weight="bold" '
                     f'fill="{ink}">{level}</text>')
        dots = POINTS[level]
        reds = RED_DOTS[level]
        for k in range(dots):
            dot_fill = "#d81e1e" if k >= dots - reds else "#ffffff"
            cx = CELL // 2 - (dots - 1) * 6 + k * 12
            parts.append(f'<circle cx="{cx}" cy="{CELL - 18}" r="5" fill="{dot_fill}" stroke="#3b2f1a"/>')
    if role:
        parts.append(f'<rect x="2" y="2" width="{CELL - 4}" height="{CELL - 4}" fill="none" stroke="#e8730c" '
                     'stroke-width="3" stroke-dasharray="6 3"/>')
        parts.append(f'<circle cx="{CELL // 2}" cy="{CELL // 2 - 4}" r="12" fill="#e8730c"/>'
                     f'<text x="{CELL // 2}" y="{CELL // 2 + 2}" text-anchor="middle" font-size="17" '
                     f'font-weight="bold" fill="#ffffff">{role}</text>')
    return "".join(parts)


def _key(view: dict) -> str:
    """The players (one line each: points, cards, and the reader's own mana), the market
    and the deck, in letters large enough to read when the picture is shrunk to a phone's
    width (KEY_FONT x 0.7)."""
    seat = view.get("seat")
    top = TOP + BOARD + KEY_PAD
    parts = []
    for other, player in enumerate(view.get("players", [])):
        color = player.get("color", COLORS[other])
        y = top + other * KEY_LINE
        hand = int(len(player["hand"]) if "hand" in player else player.get("hand_size", 0))
        points = int(player.get("points", 0))
        facts = [f'{points} pt{"" if points == 1 else "s"}', f'{hand} card{"" if hand == 1 else "s"}']
        if "mana" in player:
            facts.append(f'{int(player["mana"])} mana')
        you = " (you)" if other == seat else ""
        parts.append(f'<rect x="{LEFT}" y="{y}" width="18" height="18" rx="3" fill="{FILLS.get(color, "#888")}"/>')
        parts.append(f'<text x="{LEFT + 26}" y="{y + 15}" font-size="{KEY_FONT}" fill="{LABEL}">'
                     f'{escape(color)}{you}: {", ".join(facts)}</text>')
    y = top + len(view.get("players", [])) * KEY_LINE
    for line in _market_lines(view) + [
            f'Deck: {int(view.get("deck_size", 0))} cards']:
        parts.append(f'<text x="{LEFT}" y="{y + 15}" font-size="{KEY_FONT}" fill="{LABEL}">{escape(line)}</text>')
        y += KEY_LINE
    return "".join(parts)


def _market_lines(view: dict) -> list[str]:
    market = [card_with_shape(str(c)) for c in view.get("market", [])]
    return _wrapped("Market: " + (", ".join(market) or "empty"), MARKET_LINES)


def _wrapped(text: str, lines: int, width: int = 46) -> list[str]:
    """`text` in at most `lines` lines of at most `width` characters, broken after
    commas; what does not fit is counted ("and 3 more")."""
    words = text.split(", ")
    out = [words[0]]
    for k, word in enumerate(words[1:], start=1):
        if len(out[-1]) + 2 + len(word) <= width:
            out[-1] += ", " + word
        elif len(out) < lines:
            out[-1] += ","
            out.append(word)
        else:
            return out[:-1] + [_with_more(out[-1], len(words) - k, width)]
    return out


def _with_more(line: str, more: int, width: int) -> str:
    """`line` ending with "and N more" within `width` characters, dropping its last items."""
    while len(line) + len(f" and {more} more") > width and ", " in line:
        line, more = line.rsplit(", ", 1)[0], more + 1
    return f"{line} and {more} more"


def describe(view: dict) -> str:
    """The board in words, for the SVG's text alternative."""
    cells = _cells(view)
    by_color: dict[str, list[str]] = {}
    for i, cell in enumerate(cells):
        if cell is not None:
            name = "ABCDEFG"[i % SIZE] + str(i // SIZE + 1)
            by_color.setdefault(cell[0], []).append(f"{name} level {cell[1]}")
    lines = [f"{color}: {', '.join(tiles)}." for color, tiles in by_color.items()] or ["The garden is empty."]
    a = view.get("acquisition")
    if a and a.get("defend"):
        lines.append(f"Acquisition: {', '.join(a['attack'])} against {', '.join(a['defend'])}, bids "
                     f"{a.get('bids', [])}.")
    lines.append(f"Market: {', '.join(card_label(str(c)) for c in view.get('market', [])) or 'empty'}.")
    return " ".join(lines)


def board_text(view: dict) -> str:
    """The garden as a grid of characters, for the plain text of emails: each tile as
    its colour's letter and its level (r2: a red tile at level 2)."""
    cells, roles = _cells(view), _acquisition_roles(view)
    lines = ["    " + "   ".join("ABCDEFG"[:SIZE])]
    for row in range(SIZE):
        squares = []
        for col in range(SIZE):
            i = row * SIZE + col
            cell = cells[i]
            text = ". " if cell is None else f"{COLOR_LETTERS[COLORS.index(cell[0])]}{cell[1]}"
            squares.append(text + roles.get(i, " "))
        lines.append(f"{row + 1:>2}  " + " ".join(squares).rstrip())
    seat = view.get("seat")
    seats = ", ".join(f"{COLOR_LETTERS[COLORS.index(color)]} {color}{' (you)' if other == seat else ''}"
                      for other, color in enumerate(p.get("color", COLORS[i])
                                                    for i, p in enumerate(view.get("players", []))))
    lines += ["", f"A tile is its colour and level (r2: red, level 2): {seats}."]
    if roles:
        lines.append("A: a tile of the attack, D: a tile defended, in the acquisition being bid for.")
    return "\n".join(lines)


def card_label(card: str) -> str:
    """A card as players name it: a cultivation card by its number and shape
    (`cultivation card 3 (L tromino)`), an irrigation card by its square
    (`irrigation card B4`). A card's id (`K3`) reads like a square, so it is never shown."""
    if card in SHAPE_NAMES:
        return f"cultivation {card_words(card)} ({SHAPE_NAMES[card]})"
    return f"irrigation card {card}" if card in SQUARE_INDEX else card


def card_text(card: str) -> str:
    """What a card does, in a sentence: its tooltip and its line in the hand on the page."""
    if card in SHAPE_NAMES:
        size = len(SHAPE_CELLS[card])
        return (f"{card_label(card)}: lay its shape of {size} squares (turned any way, not mirrored) on {size} of your "
                f"tiles; the lowest of them rise one level, {CULTIVATION_COST} mana each. The bank pays "
                f"{SQUARE_PRICE * size} mana for it; the market sells it for {BUY_FEE + SQUARE_PRICE * size}.")
    if card in SQUARE_INDEX:
        return f"{card_label(card)}: put a level-1 tile of your colour on {card} while it is empty."
    return card


def card_svg(card: str, cell: int = 14) -> str | None:
    """A cultivation card's shape as a small SVG (as printed: rotations are allowed
    when it is played); None for an irrigation card."""
    if card not in SHAPE_CELLS:
        return None
    cells = SHAPE_CELLS[card]
    width, height = (max(c[k] for c in cells) + 1 for k in (0, 1))
    squares = "".join(f'<rect x="{x * cell + 1}" y="{y * cell + 1}" width="{cell - 2}" height="{cell - 2}" rx="2" '
                      f'fill="{DESERT}" stroke="{LABEL}" stroke-width="1.5"/>' for x, y in cells)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{width * cell}" height="{height * cell}" '
            f'viewBox="0 0 {width * cell} {height * cell}"><title>{escape(card_text(card))}</title>{squares}</svg>')


__all__ = ["board_svg", "board_text", "picture_layers", "describe", "card_label", "card_text", "card_svg"]
