"""The card game's table as SVG, drawn from a view JSON (see docs/drawing.md).

Pure: the same view always gives the same text. Eight columns of cards hang from their
heads (the treasures at the start), the seven gaps lie between them, free ships wait in
a strip below. Each card, and each place a card may still go, is an element with
`data-slot` in the game's own notation (`C2`, `CD`).
"""
from __future__ import annotations

from functools import lru_cache
from xml.sax.saxutils import escape, quoteattr

from engine.emblems import dynasty_emblem
from engine.euphrat_cards.card_text import CARD_NAMES, card_words
from engine.euphrat_cards.cards import COLUMN_LETTERS, COLUMNS, GAP_NAMES, MAX_UNDER
from engine.picture_pieces import piece

CARD_W, CARD_H = 56, 34  # one card, in pixels
ROW_PITCH = 40  # from one card of a column to the next
GAP_W = 36  # room between two columns, where a gap card lies
MARGIN = 16
TOP = 30  # the column letters
ROWS = MAX_UNDER + 1  # the head and the cards under it
STRIP = 96  # below the table: the free ships, then the key to the leaders' emblems
TEXT = 18  # every word and letter: at least 12 pixels where a page shows the table 0.7 times its size
WIDTH = 2 * MARGIN + COLUMNS * CARD_W + (COLUMNS - 1) * GAP_W
HEIGHT = TOP + ROWS * ROW_PITCH + STRIP
GAP_ROW = 2  # gap cards lie beside the third card of a column (3 are needed under both)

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
PAPER = "#f7f0dc"
SLOT = "#e9dcb4"
LABEL = "#5b4a2c"
GOLD = "#f2b90f"

# Colour and letter of each civilization card, as on the Tigris tiles.
CARDS = {
    "r": ("red", "temple", "T", "#c0392b"),
    "b": ("blue", "farm", "F", "#1f5fa8"),
    "g": ("green", "market", "M", "#2e7d32"),
    "k": ("black", "settlement", "S", "#262626"),
}
COLOR_FILL = {color: fill for color, _, _, fill in CARDS.values()}
SHIPS = {"R": "red", "G": "green", "K": "black"}
SHIP_CHARS = {color: char for char, color in SHIPS.items()}
LEADERS = {"king": ("K", "black"), "priest": ("P", "red"), "farmer": ("F", "blue"), "trader": ("T", "green")}
DYNASTIES_BY_SEAT = ("bow", "bull", "pot", "lion")

STYLE = (
    "[data-slot] .legal-mark{fill:none;stroke:none}"
    f"[data-slot].legal .legal-mark{{fill:{GOLD};fill-opacity:0.2;stroke:{GOLD};stroke-width:4}}"
    "[data-slot].legal{cursor:pointer}"
)


def board_svg(view: dict, *, highlight=None) -> str:
    """The table of a card-game view as an SVG document. `highlight` names slots
    (`C2`, `CD`) or columns (`C`: its next free slot) to mark with class `legal`."""
    leaders = _leaders_by_slot(view)
    marked = _marked_slots(view, highlight or ())
    body = [_slot(*place, leaders, marked) for place in _places(view)]
    return "\n".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-labelledby="table-title table-desc" '
            f'viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}">',
            "<title id=\"table-title\">Euphrat &amp; Tigris card game table</title>",
            f'<desc id="table-desc">{escape(describe(view))}</desc>',
            f"<style>{STYLE}</style>",
            f'<rect width="{WIDTH}" height="{HEIGHT}" fill="{PAPER}"/>',
            f'<g font-family="{FONT}">',
            *_labels(),
            *body,
            *_free_ships(view, titled=True),
            *_emblem_key(view),
            "</g>",
            "</svg>",
        ]
    )


def picture_layers(view: dict) -> tuple[str, list[tuple[float, float, str]]]:
    """The table for a raster picture (docs/drawing.md): a background of paper and
    column letters, and each card, empty place and the strip of free ships as a piece
    drawn at its box's origin. Painted in order they give `board_svg(view)`'s picture."""
    leaders = _leaders_by_slot(view)
    pieces = [piece(x, y, w, h, _slot_shapes(0, 0, w, h, card, leaders.get(name)), FONT)
              for name, x, y, w, h, card, _ in _places(view)]
    strip = TOP + ROWS * ROW_PITCH
    ships = f'<g transform="translate(0 {-strip})">{"".join(_free_ships(view) + _emblem_key(view, False))}</g>'
    pieces.append(piece(0, strip, WIDTH, HEIGHT - strip, ships, FONT))
    return _background(), pieces


@lru_cache(maxsize=1)
def _background() -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" font-family="{FONT}">'
            f'<rect width="{WIDTH}" height="{HEIGHT}" fill="{PAPER}"/>{"".join(_labels())}</svg>')


def _leaders_by_slot(view: dict) -> dict[str, tuple[str, int, str]]:
    found = {}
    for seat, player in enumerate(view["players"]):
        dynasty = player.get("dynasty") or DYNASTIES_BY_SEAT[seat]
        for role, slot in (player.get("leaders") or {}).items():
            if slot:
                found[slot.upper()] = (role, seat, dynasty)
    return found


def _marked_slots(view: dict, highlight) -> set[str]:
    """Slot names to mark; a bare column letter stands for its next free slot."""
    marked = set()
    for name in highlight:
        name = name.upper()
        if len(name) == 1 and name in COLUMN_LETTERS[:COLUMNS]:
            name = f"{name}{len(view['columns'][COLUMN_LETTERS.index(name)])}"
        marked.add(name)
    return marked


def _column_x(index: int) -> int:
    return MARGIN + index * (CARD_W + GAP_W)


def _row_y(row: int) -> int:
    return TOP + row * ROW_PITCH


def _labels() -> list[str]:
    style = f'font-size="{TEXT}" font-weight="bold" fill="{LABEL}" text-anchor="middle"'
    return [
        f'<text x="{_column_x(i) + CARD_W / 2}" y="{TOP - 10}" {style}>{COLUMN_LETTERS[i]}</text>'
        for i in range(COLUMNS)
    ]


# (slot name, x, y, width, height, card or "", column letter or None)
_Place = tuple[str, float, float, int, int, str, str | None]


def _places(view: dict) -> list[_Place]:
    """Every card and every place a card may still go, in drawing order: (slot name,
    x, y, width, height, card or "", column letter or None). A column lists its cards
    from the head down, then its next free place if it has room; a gap card stands
    upright between its two columns, centred on their third card, so it cannot be
    mistaken for a card of either column."""
    places: list[_Place] = []
    for index, cards in enumerate(view["columns"]):
        letter, x = COLUMN_LETTERS[index], _column_x(index)
        for row in range(min(len(cards) + 1, ROWS)):
            card = cards[row] if row < len(cards) else ""
            places.append((f"{letter}{row}", x, _row_y(row), CARD_W, CARD_H, card, letter))
    width, height = GAP_W - 8, 2 * ROW_PITCH - 6
    for index, card in enumerate(view["gaps"]):
        x, y = _column_x(index) + CARD_W + 4, _row_y(GAP_ROW) + CARD_H / 2 - height / 2
        places.append((GAP_NAMES[index], x, y, width, height, "" if card == "." else card, None))
    return places


def _slot(name, x, y, w, h, card, column, leaders, marked) -> str:
    """One card (or an empty place) with its data attributes; the legal mark last."""
    attrs = {"data-slot": name}
    if column:
        attrs["data-column"] = column
    if name in marked:
        attrs["class"] = "legal"
    if not card:
        attrs["data-empty"] = "1"
    else:
        attrs.update(_card_attrs(card))
    if name in leaders:
        role, seat, _ = leaders[name]
        attrs.update({"data-leader": role, "data-seat": str(seat)})
    shapes = _slot_shapes(x, y, w, h, card, leaders.get(name)) + (
        f'<rect class="legal-mark" x="{x + 2}" y="{y + 2}" width="{w - 4}" height="{h - 4}" rx="4"/>'
    ) + f"<title>{escape(_slot_title(name, card, leaders.get(name)))}</title>"
    opening = "".join(f" {key}={quoteattr(value)}" for key, value in attrs.items())
    return f"<g{opening}>{shapes}</g>"


def _slot_shapes(x, y, w, h, card: str, leader: tuple | None) -> str:
    """What a place shows: its card, or a dashed outline when empty; its leader."""
    upright = h > w  # a gap card
    if not card:
        fill = "none" if upright else SLOT
        shapes = (f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="5" fill="{fill}" '
                  f'stroke="#c9b68a" stroke-dasharray="4 3"/>')
    else:
        shapes = _card(x, y, w, h, card)
    if leader:
        role, _, dynasty = leader
        at = (x + w / 2, y + h - LEADER_R - 2) if upright else (x + w - LEADER_R - 2, y + h / 2)
        shapes += _leader(*at, role, dynasty)
    return shapes


def _slot_title(name: str, card: str, leader: tuple | None) -> str:
    """What a place holds in words, shown when it is pointed at: the card and what it does, its leader."""
    if not card:
        return f"{name}: free" + ("" if len(name) == 2 and name[1].isdigit() else
                                  " (a gap may be filled once both its columns hold 3 cards under their heads)")
    text = f"{name}, {card_words(card)}"
    if leader:
        role, seat, dynasty = leader
        text += f". The {dynasty} {role} (seat {seat}) stands on it"
    return text + "."


def _card_attrs(card: str) -> dict[str, str]:
    if card in CARDS:
        return {"data-card": CARDS[card][0]}
    if card == "t":
        return {"data-card": "treasure"}
    if card in SHIPS:
        return {"data-card": "ship", "data-ship": f"blue-{SHIPS[card]}"}
    return {"data-card": "hidden"}


def _card(x, y, w, h, card: str) -> str:
    """A card face: colour and letter; a treasure is red with a gold gem, a ship
    blue over its other colour, a face-down gap card grey with a question mark."""
    frame = f'x="{x}" y="{y}" width="{w}" height="{h}" rx="5"'
    # The letter keeps to the left of a column card, the top of an upright gap card:
    # the leader's disc takes the other end.
    cx, cy = (x + w / 2, y + 16) if h > w else (x + 14, y + h / 2)
    if card in CARDS:
        _, _, letter, fill = CARDS[card]
        return f'<rect {frame} fill="{fill}"/>' + _letter(cx, cy, letter, "#ffffff")
    if card == "t":
        r = 10
        return (
            f'<rect {frame} fill="{COLOR_FILL["red"]}" stroke="{GOLD}" stroke-width="2"/>'
            f'<path d="M{cx} {cy - r}L{cx + r} {cy}L{cx} {cy + r}L{cx - r} {cy}Z" fill="{GOLD}" '
            f'stroke="#7a5a00" stroke-width="1.2"/>'
        )
    if card in SHIPS:
        return _ship(x, y, w, h, SHIPS[card])
    return f'<rect {frame} fill="#b9b4a8" stroke="#77736b"/>' + _letter(cx, cy, "?", "#57524a")


def _ship(x, y, w, h, color: str) -> str:
    """Upper half blue, lower half the ship's other colour, a white hull across."""
    cx, cy = x + w / 2, y + h / 2
    return (
        f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="5" fill="{COLOR_FILL[color]}"/>'
        f'<path d="M{x} {y + 5}a5 5 0 0 1 5 -5h{w - 10}a5 5 0 0 1 5 5v{h / 2 - 5}h-{w}Z" fill="{COLOR_FILL["blue"]}"/>'
        f'<path d="M{cx - 16} {cy - 2}h32l-6 9h-20Z" fill="#ffffff"/>'
        f'<path d="M{cx} {cy - 3}v-11l9 9Z" fill="#ffffff"/>'
    )


def _letter(cx, cy, letter: str, ink: str) -> str:
    return (
        f'<text x="{cx}" y="{cy + 6}" font-size="{TEXT}" font-weight="bold" fill="{ink}" '
        f'text-anchor="middle">{escape(letter)}</text>'
    )


LEADER_R = 15  # a leader's disc fills most of a card's height


def _leader(cx, cy, role: str, dynasty: str) -> str:
    """A disc in the leader's colour (its role) with its dynasty's emblem, as the
    game's own leader tokens; the place's title says both in words."""
    _, color = LEADERS.get(role, ("?", "black"))
    fill = COLOR_FILL[color]
    return (f'<circle cx="{cx}" cy="{cy}" r="{LEADER_R}" fill="{fill}" stroke="#ffffff" stroke-width="2"/>'
            f'<g transform="translate({cx} {cy}) scale(0.95)">{dynasty_emblem(dynasty, fill)}</g>')


def _free_ships(view: dict, titled: bool = False) -> list[str]:
    """The ships still free to build, in a strip under the table (`titled`: each says
    what it does when pointed at, on the page)."""
    y = TOP + ROWS * ROW_PITCH + 8
    shapes = [f'<text x="{MARGIN}" y="{y + 23}" font-size="{TEXT}" fill="{LABEL}">Ships to build:</text>']
    x = MARGIN + 150
    for name in view.get("ships") or ():
        color = name.split("-")[-1]
        if color in COLOR_FILL:
            title = f"<title>{escape(card_words(SHIP_CHARS[color]))}</title>" if titled else ""
            shapes.append(f'<g data-free-ship={quoteattr(name)}>{_ship(x, y, CARD_W, CARD_H, color)}{title}</g>')
            x += CARD_W + 10
    if not view.get("ships"):
        shapes.append(f'<text x="{x}" y="{y + 23}" font-size="{TEXT}" fill="{LABEL}">none</text>')
    return shapes


def _emblem_key(view: dict, mark_reader: bool = True) -> list[str]:
    """Whose leaders are whose: each dynasty's emblem with its name, the reader's marked
    on the page (not in the email's picture, which every reader of a position shares;
    the email says the reader's dynasty in words)."""
    y = TOP + ROWS * ROW_PITCH + 52
    shapes = [f'<text x="{MARGIN}" y="{y + 23}" font-size="{TEXT}" fill="{LABEL}">Leaders:</text>']
    x = MARGIN + 100
    for seat, player in enumerate(view["players"]):
        dynasty = str(player.get("dynasty") or DYNASTIES_BY_SEAT[seat])
        you = ", you" if mark_reader and view.get("seat") == seat else ""
        shapes.append(f'<circle cx="{x + LEADER_R}" cy="{y + 17}" r="{LEADER_R}" fill="{LABEL}"/>'
                      f'<g transform="translate({x + LEADER_R} {y + 17}) scale(0.95)">'
                      f'{dynasty_emblem(dynasty, LABEL)}</g>'
                      f'<text x="{x + 2 * LEADER_R + 6}" y="{y + 23}" font-size="{TEXT}" fill="{LABEL}">'
                      f'{escape(dynasty)}{you}</text>')
        x += 2 * LEADER_R + 16 + 11 * (len(dynasty) + len(you))
    return shapes


def board_text(view: dict) -> str:
    """The table in words, a line per column, one for the gaps and one for the ships:
    the decision email's table, readable on a phone (`table_lines`)."""
    return "\n".join(table_lines(view))


SHORT_NAMES = {"r": "red", "b": "blue", "g": "green", "k": "black", "t": "treasure",
               **{char: CARD_NAMES[char] for char in SHIPS}}


def table_lines(view: dict) -> list[str]:
    """The table in short lines: each column from its head down, with its leaders
    (the reader's own called his), then the gaps and the free ships."""
    leaders = _leaders_by_slot(view)

    def named(slot: str, card: str) -> str:
        words = SHORT_NAMES.get(card, "face down")
        if slot in leaders:
            role, seat, dynasty = leaders[slot]
            words += f" (your {role})" if seat == view.get("seat") else f" (the {dynasty} {role})"
        return words

    lines = []
    for index, cards in enumerate(view["columns"]):
        letter = COLUMN_LETTERS[index]
        lines.append(f"{letter}: " + (", ".join(named(f"{letter}{row}", card) for row, card in enumerate(cards))
                                      or "empty"))
    gaps = [f"{GAP_NAMES[i]} {named(GAP_NAMES[i], card)}" for i, card in enumerate(view["gaps"]) if card != "."]
    lines.append(f"Gaps: {', '.join(gaps) or 'none filled'}.")
    lines.append(f"Ships to build: {', '.join(view.get('ships') or ()) or 'none'}.")
    return lines


def describe(view: dict) -> str:
    """The table in words, for the SVG's <desc>."""
    leaders = _leaders_by_slot(view)

    def card_words(slot: str, card: str) -> str:
        if card in CARDS:
            words = f"{CARDS[card][0]} {slot}"
        elif card == "t":
            words = f"treasure {slot}"
        elif card in SHIPS:
            words = f"blue-{SHIPS[card]} ship {slot}"
        else:
            words = f"face-down card {slot}"
        if slot in leaders:
            role, seat, dynasty = leaders[slot]
            words += f" with the {dynasty} {role} (seat {seat})"
        return words

    sentences = []
    for index, cards in enumerate(view["columns"]):
        letter = COLUMN_LETTERS[index]
        listed = ", ".join(card_words(f"{letter}{row}", card) for row, card in enumerate(cards))
        sentences.append(f"Column {letter}: {listed or 'empty'}.")
    gap_cards = [card_words(GAP_NAMES[i], card) for i, card in enumerate(view["gaps"]) if card != "."]
    sentences.append(f"Gaps: {', '.join(gap_cards) or 'none'}.")
    sentences.append(f"Ships to build: {', '.join(view.get('ships') or ()) or 'none'}.")
    return " ".join(sentences)
