"""The Civilization card game's tableaux as SVG, drawn from a view JSON (docs/drawing.md).

Pure: the same view always gives the same text. At the top the plots and technologies
for sale and the award holders; then one band per player with his figures, resources,
technologies and row of plots (population and buildings on each); at the bottom the
viewing player's hand. Cards a player may act on carry `data-slot` in the game's own
notation: `display-plot-2`, `tech-pottery`, `plot-3` (the viewer's own plots),
`hand-granary`.
"""
from __future__ import annotations

import textwrap
from xml.sax.saxutils import escape, quoteattr

from engine.civ_cards.table import RESOURCES
from engine.picture_pieces import piece

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
PAPER = "#f4ecd8"
INK = "#3d3222"
GOLD = "#f2b90f"
KIND_FILL = {"food": "#d8ecc4", "production": "#ecd2b8", "commerce": "#f6e7a8"}
CARD_FILL = {"technology": "#cfe0f2", "unit": "#f0c8c0", "building": "#e6ddc8", "wonder": "#e8d0ef",
             "bonus": "#fbf3cf", None: "#eeeeee"}
MARGIN = 16
CARD_W, CARD_H = 104, 78
GAP = 8
TOP_BAND = 118
PLAYER_BAND = 150
HAND_BAND = 64
HAND_PITCH = 140  # a hand card and the gap after it: room for "Great Merchant x2"
MIN_WIDTH = 960
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
    """Width (grows with the longest row of plots or the hand) and height (grows with
    the players)."""
    longest = max([len(p["plots"]) for p in view["players"]] + [3 + 3 + 1])
    hand = _hand_cards(view)
    width = max(MIN_WIDTH, 2 * MARGIN + 220 + longest * (CARD_W + GAP), 2 * MARGIN + len(hand) * HAND_PITCH)
    height = TOP_BAND + len(view["players"]) * PLAYER_BAND + (HAND_BAND if hand else 0) + MARGIN
    return width, height


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
    """What only the number of players and the size decide: paper, band lines, headings."""
    lines = [f'<rect width="{width}" height="{height}" fill="{PAPER}"/>',
             _text(MARGIN, 22, "Draft" if view.get("draft") else "For sale", 15, "bold")]
    for seat in range(len(view["players"])):
        top = TOP_BAND + seat * PLAYER_BAND
        lines.append(f'<line x1="{MARGIN}" y1="{top}" x2="{width - MARGIN}" y2="{top}" stroke="{INK}" '
                     'stroke-opacity="0.3"/>')
    if _hand_cards(view):
        lines.append(_text(MARGIN, TOP_BAND + len(view["players"]) * PLAYER_BAND + 14, "Your hand", 13, "bold"))
    return "".join(lines)


def _parts(view: dict, marked: set) -> list[tuple[int, int, int, int, str]]:
    """Every card and block of text: (x, y, width, height, drawing with its box at the origin)."""
    try:
        parts = _market(view, marked)
        for seat, player in enumerate(view["players"]):
            parts.extend(_player_band(view, seat, player, TOP_BAND + seat * PLAYER_BAND, marked))
        parts.extend(_hand(view, TOP_BAND + len(view["players"]) * PLAYER_BAND, marked))
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
             + ("; ".join(f"{card_name(t)} ({_cost_text(t)})" for t in view["tech_display"]) or "none") + ".",
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
    """Lines of text (words, size, weight) as one part, 18 pixels apart."""
    drawing = "".join(_text(0, 14 + 18 * i, words, size, weight) for i, (words, size, weight) in enumerate(lines))
    return x, y, width, 18 * len(lines) + 4, drawing


def _card(x, y, slot, lines, fill, marked, w=CARD_W, h=CARD_H) -> tuple:
    attrs = f' data-slot={quoteattr(slot)}' if slot else ""
    cls = ' class="legal"' if slot and slot in marked else ""
    texts = "".join(_text(6, 16 + 14 * i, line, 12 if i == 0 else 11, "bold" if i == 0 else "normal")
                    for i, line in enumerate(lines))
    drawing = (f'<g{attrs}{cls}><rect width="{w}" height="{h}" rx="6" fill="{fill}" '
               f'stroke="{INK}" stroke-width="1"/>{texts}'
               f'<rect class="legal-mark" x="-2" y="-2" width="{w + 4}" height="{h + 4}" rx="7" fill="none"/></g>')
    return x, y, w, h, drawing


def _produced(card: str) -> dict[str, int]:
    """What a plot card yields by resource; nothing for any other card."""
    table = _table()
    return table.effects(card).get("yield", {}) if table.kind(card) == "plot" else {}


def _yield_text(card: str) -> str:
    return " ".join(f"{n}{kind[0].upper()}" for kind, n in _produced(card).items()) or "?"


def _yield_words(card: str) -> str:
    return ", ".join(f"{n} {kind}" for kind, n in _produced(card).items()) or "no yield"


def _plot_fill(card: str) -> str:
    produced = _produced(card)
    return KIND_FILL[max(produced, key=produced.__getitem__)] if produced else CARD_FILL[None]


def _cost_text(card: str) -> str:
    table = _table()
    return f"cost {table.cost(card)}" if table.kind(card) else ""


def _market(view: dict, marked: set) -> list[tuple]:
    out = []
    x = MARGIN
    for i, plot in enumerate(_plots_offered(view)):
        out.append(_card(x, 32, f"display-plot-{i + 1}", [card_name(plot), _yield_text(plot)], _plot_fill(plot),
                         marked))
        x += CARD_W + GAP
    for tech in view["tech_display"]:
        out.append(_card(x, 32, f"tech-{tech}", [card_name(tech), _cost_text(tech)], CARD_FILL["technology"], marked))
        x += CARD_W + GAP
    awards = [f"{card_name(a)}: {'nobody' if seat is None else f'seat {seat}'}" for a, seat in view["awards"].items()]
    decks = (f"deck {view.get('deck_size', 0)}  plots {view.get('plot_deck_size', 0)}  "
             f"technologies {view.get('tech_deck_size', 0)}")
    draft = [f"draft round {view['draft']['round']}"] if view.get("draft") else []
    lines = [(line, 12, "normal") for line in [*draft, *awards, decks, *_combat_lines(view)]]
    out.append(_block(x + 8, 34, size(view)[0] - x - 8 - MARGIN, lines))
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


def _player_band(view: dict, seat: int, player: dict, top: int, marked: set) -> list[tuple]:
    own = seat == view.get("seat")
    pending = view.get("pending", {}).get(str(seat))
    f = player.get("figures", {})
    res = player.get("resources", {})
    techs = ", ".join(card_name(t) for t in player["technologies"]) or "no technology"
    lines = [
        (f"Seat {seat}{' (you)' if own else ''}", 14, "bold"),
        *([(f"deciding: {pending.replace('_', ' ')}", 12, "bold")] if pending else []),
        (f"VP {f.get('vp', 0)} (pop {f.get('population', 0)}, tech {f.get('technologies', 0)}, "
         f"wonders {f.get('wonders', 0)})", 12, "normal"),
        ("resources " + " ".join(f"{k[0].upper()}{res.get(k, 0)}" for k in RESOURCES), 12, "normal"),
        (f"happiness {player.get('happiness', 0)}  culture {player.get('culture', 0)}", 12, "normal"),
        (f"cards in hand {player.get('hand_size', sum(player.get('hand', {}).values()))}", 12, "normal"),
        (techs[:30] + ("…" if len(techs) > 30 else ""), 11, "normal"),  # fits the 210 pixels
    ]
    out = [_block(MARGIN, top + 6, 210, lines)]
    x = MARGIN + 220
    for i, plot in enumerate(player["plots"]):
        texts = [card_name(plot["plot"]), f"{_yield_text(plot['plot'])}, pop {plot['population']}",
                 *[card_name(b) for b in plot["buildings"]]]
        out.append(_card(x, top + 12, f"plot-{i + 1}" if own else None, texts, _plot_fill(plot["plot"]), marked,
                         h=CARD_H + 44))
        x += CARD_W + GAP
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
        count = hand[card]
        label = f"{card_name(card)}{f' x{count}' if count > 1 else ''}"
        out.append(_card(MARGIN + i * HAND_PITCH, top + 20, f"hand-{card}", [label],
                         CARD_FILL.get(table.kind(card), CARD_FILL[None]), marked, w=HAND_PITCH - GAP, h=30))
    return out
