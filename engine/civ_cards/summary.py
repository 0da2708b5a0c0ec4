"""The table in short lines for the reader's decision email, readable on a phone where
the picture is not: his hand with what each card does, his resources, points, plots
and technologies; what is on offer, with each technology's text; the awards and decks;
a line per other player."""
from __future__ import annotations

from engine.civ_cards.card_text import card_text
from engine.civ_cards.narration import resources
from engine.civ_cards.table import RESOURCES, CardTable
from engine.sentences import count, counts_text


def summary_lines(table: CardTable, view: dict, seat: int) -> list[str]:
    me = view["players"][seat]
    figures = me["figures"]
    hand = [f"Your hand: {counts_text({table.name(card): n for card, n in me['hand'].items()})}"] if me["hand"] else []
    hand += [f"- {table.name(card)}: {card_text(table, card)}" for card in sorted(me["hand"], key=table.sort_key)]
    return [
        *hand,
        f"Your resources: {counts_text(me['resources'])}",
        f"Your points: {figures['vp']} VP ({figures['population']} population, "
        f"{figures['technologies']} technologies, {figures['wonders']} wonders); "
        f"happiness {me.get('happiness', 0)}, culture {me.get('culture', 0)}",
        f"Your plots: {_plots(table, me)}",
        f"Your technologies: {', '.join(table.name(t) for t in me['technologies']) or 'none'}",
        *_offer(table, view),
        *(_other(table, n, player) for n, player in enumerate(view["players"]) if n != seat),
    ]


def _plots(table: CardTable, player: dict) -> str:
    return "; ".join(
        f"{i}. {table.name(plot['plot'])} ({resources(table.effects(plot['plot']).get('yield', {}))}; "
        f"population {plot['population']}" + "".join(f", {table.name(b)}" for b in plot["buildings"]) + ")"
        for i, plot in enumerate(player["plots"], 1)) or "none"


def _offer(table: CardTable, view: dict) -> list[str]:
    draft = view.get("draft")
    row = draft["display"] if draft else view["plot_display"]
    plots = "; ".join(f"{i}. {table.name(p)} ({resources(table.effects(p).get('yield', {}))})"
                      for i, p in enumerate(row, 1)) or "none"
    awards = "; ".join(f"{table.name(a)}: {'nobody' if holder is None else f'seat {holder}'}"
                       for a, holder in view["awards"].items())
    fronts = (view.get("combat") or {}).get("fronts") or []
    return [
        f"Draft, round {draft['round']}: {plots}" if draft else f"Plots for sale: {plots}",
        "Technologies on display:" if view["tech_display"] else "Technologies on display: none",
        *(f"- {table.name(t)}: {card_text(table, t)}" for t in view["tech_display"]),
        f"{awards}. Deck: {count(view.get('deck_size', 0), 'card')}, {count(view.get('plot_deck_size', 0), 'plot')}, "
        f"{view.get('tech_deck_size', 0)} technologies",
        *(f"Attack on seat {front['defender']}: " + ", ".join(
            f"{i}. {table.name(unit)}" for i, unit in enumerate(front["units"], 1)) for front in fronts),
    ]


def _other(table: CardTable, seat: int, player: dict) -> str:
    held = player.get("hand_size", 0)
    mix = ", ".join(f"{player['resources'].get(kind, 0)} {kind}" for kind in RESOURCES)
    techs = ", ".join(table.name(t) for t in player["technologies"]) or "no technology"
    return (f"Seat {seat}: {player['figures']['vp']} VP; {mix}; {count(held, 'card')} in hand; "
            f"plots {_plots(table, player)}; {techs}")
