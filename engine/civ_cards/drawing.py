"""The Civilization card game's tableaux as SVG, drawn from a view JSON (docs/drawing.md).

Pure: the same view always gives the same text. At the top the plots and technologies
for sale and the award holders; then one band per player with his figures, resources,
technologies and rows of plots (population and buildings on each); at the bottom the
viewing player's hand; all in words, at a fixed width the game page shows at full size.
Every card carries its rules text as its title; cards a player may act on carry
`data-slot` in the game's own notation: `display-plot-2`, `tech-pottery`, `plot-3` (the
viewer's own plots), `hand-granary`.
"""
from __future__ import annotations

import textwrap
from xml.sax.saxutils import escape, quoteattr

from engine.civ_cards.card_text import PAID_WITH, card_text
from engine.civ_cards.table import RESOURCES
from engine.picture_pieces import piece
from engine.sentences import count

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
PAPER = "#f4ecd8"
INK = "#3d3222"
GOLD = "#f2b90f"
KIND_FILL = {"food": "#d8ecc4", "production": "#ecd2b8", "commerce": "#f6e7a8"}
CARD_FILL = {"technology": "#cfe0f2", "unit": "#f0c8c0", "building": "#e6ddc8", "wonder": "#e8d0ef",
             "bonus": "#fbf3cf", None: "#eeeeee"}
MARGIN = 16
CARD_W, CARD_H = 114, 64  # a card of the top row: its name and two lines of yield or cost
PLOT_H = 100  # a plot of a tableau: name, yield, population, two buildings
GAP = 8
PER_ROW = 6  # cards in a row: the width, fixed, fits the game page's board at full size
WIDTH = 2 * MARGIN + PER_ROW * (CARD_W + GAP) - GAP
LINE = 18  # a line of a block of text
PITCH = 15  # a line of a card
HAND_PITCH = 178  # a hand card and the gap after it: room for "Hanging Gardens x2" in bold
HAND_PER_ROW = (WIDTH - 2 * MARGIN + GAP) // HAND_PITCH
HAND_ROW = 40
WRAP = 90  # characters of a 12-pixel line that fit the width
STYLE = (
    "[data-slot] .legal-mark{fill:none;stroke:none}"
    f"[data-slot].legal .legal-mark{{fill:{GOLD};fill-opacity:0.2;stroke:{GOLD};stroke-width:4}}"
    "[data-slot].legal{cursor:pointer}"
)


def _table():
    from engine.civ_cards import GAME  # the drawing names the shipped table's cards
    return GAME.table


def card_name(card: str) -> str:
    table = _table()
    return table.name(card) if table.kind(card) else card.replace("-", " ").title()


def size(view: dict) -> tuple[int, int]:
    """Width (fixed: rows wrap) and height (grows with the players, their plots and the hand)."""
    return WIDTH, _layout(view)[-1]


def _layout(view: dict) -> list[int]:
    """The top of each player's band, then of the hand band, then the whole height."""
    tops = [_market_height(view)]
    for seat, player in enumerate(view["players"]):
        tops.append(tops[-1] + _band_height(view, seat, player))
    hand = _hand_cards(view)
    rows = -(-len(hand) // HAND_PER_ROW)
    return [*tops, tops[-1] + (24 + rows * HAND_ROW if hand else 0) + MARGIN]


def board_svg(view: dict, *, highlight=None) -> str:
    """The tableaux of a view as an SVG document; `highlight` names slots to mark
    with class `legal`."""
    width, height = size_or_error(view)
    parts = _parts(view, set(highlight or ()))
    return "\n".join([
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-labelledby="civ-title civ-desc" '
        f'viewBox="0 0 {width} {height}" width="{width}" height="{height}">',
        '<title id="civ-title">Civilization card game tableaux</title>',
        f'<desc id="civ-desc">{escape(describe(view))}</desc>',
        f"<style>{STYLE}</style>",
        f'<g font-family="{FONT}" fill="{INK}">',
        _frame(view, width, height),
        *(f'<g transform="translate({x} {y})">{drawing}</g>' for x, y, _, _, drawing in parts),
        "</g>",
        "</svg>",
    ])


def picture_layers(view: dict) -> tuple[str, list[tuple[float, float, str]]]:
    """The tableaux for a raster picture (docs/drawing.md): the frame (paper, band
    lines, headings) as background, and each card and block of text as a piece drawn
    at its box's origin. Painted in order they give `board_svg(view)`'s picture."""
    width, height = size_or_error(view)
    background = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
                  f'font-family="{FONT}" fill="{INK}">{_frame(view, width, height)}</svg>')
    return background, [piece(x, y, w, h, f'<g fill="{INK}">{drawing}</g>', FONT)
                        for x, y, w, h, drawing in _parts(view, set())]


def size_or_error(view: dict) -> tuple[int, int]:
    try:
        return size(view)
    except (KeyError, TypeError, IndexError, AttributeError) as exc:
        raise ValueError(f"not a civ-cards view: {type(exc).__name__}: {exc}") from None


def _frame(view: dict, width: int, height: int) -> str:
    """What only the players and the size decide: paper, band lines, headings."""
    tops = _layout(view)
    lines = [f'<rect width="{width}" height="{height}" fill="{PAPER}"/>',
             _text(MARGIN, 22, "Draft" if view.get("draft") else "For sale", 15, "bold")]
    for top in tops[:len(view["players"])]:
        lines.append(f'<line x1="{MARGIN}" y1="{top}" x2="{width - MARGIN}" y2="{top}" stroke="{INK}" '
                     'stroke-opacity="0.3"/>')
    if _hand_cards(view):
        lines.append(_text(MARGIN, tops[len(view["players"])] + 16, "Your hand", 14, "bold"))
    return "".join(lines)


def _parts(view: dict, marked: set) -> list[tuple[int, int, int, int, str]]:
    """Every card and block of text: (x, y, width, height, drawing with its box at the origin)."""
    try:
        tops = _layout(view)
        parts = _market(view, marked)
        for seat, player in enumerate(view["players"]):
            parts.extend(_player_band(view, seat, player, tops[seat], marked))
        parts.extend(_hand(view, tops[len(view["players"])], marked))
    except (KeyError, TypeError, IndexError, AttributeError) as exc:
        raise ValueError(f"not a civ-cards view: {type(exc).__name__}: {exc}") from None
    return parts


def describe(view: dict) -> str:
    """The table in words, for the SVG's <desc>."""
    return " ".join(_paragraphs(view))


def board_text(view: dict) -> str:
    """The table in words, what is on offer and each seat a paragraph, for the plain
    text of emails."""
    return "\n".join(textwrap.fill(paragraph, width=78, subsequent_indent="  ") for paragraph in _paragraphs(view))


def _paragraphs(view: dict) -> list[str]:
    draft = view.get("draft")
    plots = "; ".join(f"{i}. {card_name(plot)} ({_yield_words(plot)})"
                      for i, plot in enumerate(_plots_offered(view), 1))
    offer = [f"Draft, round {draft['round']}: {plots}." if draft else f"Plots for sale: {plots or 'none'}.",
             "Technologies on display: "
             + ("; ".join(f"{card_name(t)} ({_price_text(t)})" for t in view["tech_display"]) or "none") + ".",
             " ".join(f"{card_name(award)}: {'nobody' if seat is None else f'seat {seat}'}."
                      for award, seat in view["awards"].items())
             + f" Cards in the deck: {view.get('deck_size', 0)}; plots: {view.get('plot_deck_size', 0)};"
               f" technologies: {view.get('tech_deck_size', 0)}.",
             *[f"{line}." for line in _combat_lines(view)]]
    return [*offer, *(_seat_paragraph(view, seat, player) for seat, player in enumerate(view["players"]))]


def _seat_paragraph(view: dict, seat: int, player: dict) -> str:
    f, res = player.get("figures", {}), player.get("resources", {})
    hand = player.get("hand")
    cards = (", ".join(f"{n} {card_name(card)}" for card, n in sorted(hand.items())) or "none") if hand is not None \
        else str(player.get("hand_size", 0))
    plots = "; ".join(
        f"{i}. {card_name(plot['plot'])} ({_yield_words(plot['plot'])}; population {plot['population']}"
        + "".join(f", {card_name(b)}" for b in plot["buildings"]) + ")" for i, plot in enumerate(player["plots"], 1))
    return (f"Seat {seat}{' (you)' if seat == view.get('seat') else ''}: {f.get('vp', 0)} VP"
            f" (population {f.get('population', 0)}, technologies {f.get('technologies', 0)},"
            f" wonders {f.get('wonders', 0)}); "
            + ", ".join(f"{kind} {res.get(kind, 0)}" for kind in RESOURCES)
            + f"; happiness {player.get('happiness', 0)}, culture {player.get('culture', 0)}."
            f" Plots: {plots or 'none'}."
            f" Technologies: {', '.join(card_name(t) for t in player['technologies']) or 'none'}."
            f" Cards in hand: {cards}.")


def _text(x, y, words, size=12, weight="normal", anchor="start") -> str:
    return (f'<text x="{x}" y="{y}" font-size="{size}" font-weight="{weight}" '
            f'text-anchor="{anchor}">{escape(str(words))}</text>')


def _block(x, y, width, lines) -> tuple:
    """Lines of text (words, size, weight) as one part, LINE pixels apart."""
    drawing = "".join(_text(0, 14 + LINE * i, words, size, weight) for i, (words, size, weight) in enumerate(lines))
    return x, y, width, LINE * len(lines) + 4, drawing


def _card(x, y, card, slot, lines, fill, marked, w=CARD_W, h=CARD_H) -> tuple:
    """A card with its lines of text (the first, its name, in bold) and its rules text
    as the title a pointer or a tap shows."""
    attrs = f' data-slot={quoteattr(slot)}' if slot else ""
    cls = ' class="legal"' if slot and slot in marked else ""
    name = _name_lines(lines[0], w)
    texts = "".join(_text(6, 17 + PITCH * i, line, 13 if i < len(name) else 12, "bold" if i < len(name) else "normal")
                    for i, line in enumerate([*name, *lines[1:]]))
    kind = _table().kind(card) or ""
    drawing = (f'<g{attrs}{cls} data-card={quoteattr(card)} data-kind="{kind}">'
               f'<title>{escape(_card_title(card))}</title>'
               f'<rect width="{w}" height="{h}" rx="6" fill="{fill}" stroke="{INK}" stroke-width="1"/>{texts}'
               f'<rect class="legal-mark" x="-2" y="-2" width="{w + 4}" height="{h + 4}" rx="7" fill="none"/></g>')
    return x, y, w, h, drawing


def _name_lines(name: str, w: int) -> list[str]:
    """A card's name on one line, or on two where it would run past the card's edge
    ("Bronze Working" on a technology). Its width is estimated at 8.4 pixels a letter of
    13-pixel bold (DejaVu Sans, measured in Chromium) rather than measured: the engine
    draws without fonts."""
    return textwrap.wrap(name, max(1, int((w - 10) / 8.4))) or [name]


def _card_title(card: str) -> str:
    """The card's name and rules text (engine/civ_cards/card_text.py)."""
    return f"{card_name(card)}. {card_text(_table(), card)}"


def _produced(card: str) -> dict[str, int]:
    """What a plot card yields by resource; nothing for any other card."""
    table = _table()
    return table.effects(card).get("yield", {}) if table.kind(card) == "plot" else {}


def _yield_lines(card: str) -> list[str]:
    """A plot's yield, a line per resource: "1 food", "2 production"."""
    return [f"{n} {kind}" for kind, n in _produced(card).items() if n] or ["no yield"]


def _yield_words(card: str) -> str:
    return ", ".join(f"{n} {kind}" for kind, n in _produced(card).items()) or "no yield"


def _plot_fill(card: str) -> str:
    produced = _produced(card)
    return KIND_FILL[max(produced, key=lambda kind: produced[kind])] if produced else CARD_FILL[None]


def _price_text(card: str) -> str:
    """What a card costs and in what: "4 commerce"."""
    return f"{_table().cost(card)} {PAID_WITH.get(_table().kind(card), '')}".strip()


def _market_lines(view: dict) -> list[str]:
    """Below the top row: the draft's round, who holds the awards, the decks, the fronts."""
    awards = " · ".join(f"{card_name(a)}: {'nobody' if seat is None else f'seat {seat}'}"
                        for a, seat in view["awards"].items())
    decks = (f"Deck: {view.get('deck_size', 0)} cards, {view.get('plot_deck_size', 0)} plots, "
             f"{view.get('tech_deck_size', 0)} technologies")
    draft = [f"Draft round {view['draft']['round']}"] if view.get("draft") else []
    return [*draft, *([awards] if awards else []), decks,
            *(line for front in _combat_lines(view) for line in textwrap.wrap(front, WRAP))]


def _market_height(view: dict) -> int:
    return 32 + CARD_H + 6 + LINE * len(_market_lines(view)) + 10


def _market(view: dict, marked: set) -> list[tuple]:
    out = []
    x = MARGIN
    for i, plot in enumerate(_plots_offered(view)):
        out.append(_card(x, 32, plot, f"display-plot-{i + 1}", [card_name(plot), *_yield_lines(plot)],
                         _plot_fill(plot), marked))
        x += CARD_W + GAP
    for tech in view["tech_display"]:
        out.append(_card(x, 32, tech, f"tech-{tech}", [card_name(tech), _price_text(tech)], CARD_FILL["technology"],
                         marked))
        x += CARD_W + GAP
    out.append(_block(MARGIN, 32 + CARD_H + 6, WIDTH - 2 * MARGIN,
                      [(line, 12, "normal") for line in _market_lines(view)]))
    return out


def _plots_offered(view: dict) -> list[str]:
    """The plots a player may take from the top row: the draft's during the draft,
    else those for sale (both are numbered as `pick SLOT` and `plot SLOT` name them)."""
    draft = view.get("draft")
    return draft["display"] if draft else view["plot_display"]


def _combat_lines(view: dict) -> list[str]:
    """The attacking units of each front, in the order committed (as moves number them)."""
    fight = view.get("combat")
    if not fight:
        return []
    return [f"attack on seat {front['defender']}: " + ", ".join(
        f"{i + 1}. {card_name(unit)}{' (sent back)' if i == front['repelled'] else ''}"
        for i, unit in enumerate(front["units"])) for front in fight["fronts"]]


def _band_lines(view: dict, seat: int, player: dict) -> list[tuple[str, int, str]]:
    """A player's heading and figures in words, above his plots."""
    pending = view.get("pending", {}).get(str(seat))
    f = player.get("figures", {})
    res = player.get("resources", {})
    held = player.get("hand_size", sum(player.get("hand", {}).values()))
    techs = ", ".join(card_name(t) for t in player["technologies"]) or "none"
    return [
        (f"Seat {seat}{' (you)' if seat == view.get('seat') else ''}"
         + (f", deciding: {pending.replace('_', ' ')}" if pending else ""), 14, "bold"),
        (f"{f.get('vp', 0)} VP ({f.get('population', 0)} population, "
         f"{_many(f.get('technologies', 0), 'technology', 'technologies')}, {_many(f.get('wonders', 0), 'wonder')})"
         f" · happiness {player.get('happiness', 0)}, "
         f"culture {player.get('culture', 0)} · {count(held, 'card')} in hand", 12, "normal"),
        ("Resources: " + ", ".join(f"{res.get(k, 0)} {k}" for k in RESOURCES), 12, "normal"),
        *((line, 12, "normal") for line in textwrap.wrap(f"Technologies: {techs}", WRAP)),
    ]


def _many(n: int, noun: str, plural: str = "") -> str:
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def _plot_rows(player: dict) -> int:
    return max(1, -(-len(player["plots"]) // PER_ROW))


def _band_height(view: dict, seat: int, player: dict) -> int:
    return 6 + LINE * len(_band_lines(view, seat, player)) + 10 + _plot_rows(player) * (PLOT_H + GAP) + 6


def _player_band(view: dict, seat: int, player: dict, top: int, marked: set) -> list[tuple]:
    own = seat == view.get("seat")
    lines = _band_lines(view, seat, player)
    out = [_block(MARGIN, top + 6, WIDTH - 2 * MARGIN, lines)]
    first = top + 6 + LINE * len(lines) + 10
    for i, plot in enumerate(player["plots"]):
        texts = [card_name(plot["plot"]), *_yield_lines(plot["plot"]), f"population {plot['population']}",
                 *[card_name(b) for b in plot["buildings"]]]
        row, column = divmod(i, PER_ROW)
        out.append(_card(MARGIN + column * (CARD_W + GAP), first + row * (PLOT_H + GAP), plot["plot"],
                         f"plot-{i + 1}" if own else None, texts, _plot_fill(plot["plot"]), marked, h=PLOT_H))
    return out


def _hand_cards(view: dict) -> list[str]:
    seat = view.get("seat")
    if seat is None:
        return []
    return sorted(view["players"][seat].get("hand", {}))


def _hand(view: dict, top: int, marked: set) -> list[tuple]:
    cards = _hand_cards(view)
    hand = view["players"][view["seat"]]["hand"] if cards else {}
    table = _table()
    out = []
    for i, card in enumerate(cards):
        copies = hand[card]
        label = f"{card_name(card)}{f' x{copies}' if copies > 1 else ''}"
        row, column = divmod(i, HAND_PER_ROW)
        out.append(_card(MARGIN + column * HAND_PITCH, top + 26 + row * HAND_ROW, card, f"hand-{card}", [label],
                         CARD_FILL.get(table.kind(card), CARD_FILL[None]), marked, w=HAND_PITCH - GAP, h=30))
    return out
