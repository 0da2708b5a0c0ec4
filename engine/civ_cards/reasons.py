"""Why a decision is owed and what limits it, in a sentence after its prompt: why a
card must be discarded and how many are left, what the resources held can buy (so a
card not lit on the page explains itself), why combat may be skipped."""
from __future__ import annotations

from engine.civ_cards.awards import award_bonus
from engine.civ_cards.buying import plot_price, population_price
from engine.civ_cards.card_text import listing
from engine.civ_cards.effects import standing_cards
from engine.civ_cards.table import RESOURCES, CardTable
from engine.sentences import count


def reason(table: CardTable, s: dict, seat: int, kind: str) -> str:
    """The sentence that says why `kind` is owed now, or "" when its prompt says enough."""
    explain = {"discard": _discard, "buy": _buy, "attack": _attack, "collect": _collect}.get(kind)
    return explain(table, s, seat) if explain else ""


def _discard(table: CardTable, s: dict, seat: int) -> str:
    meta = table.metadata
    left = s["discarding"]["left"]
    still = "this is the last one" if left == 1 else f"{left} still to discard, this one included"
    if s["turn"]["phase"] == "opening_discard":
        return (f"Before the first turn each player discards {count(meta['opening_discard'], 'card')} "
                f"of those dealt ({still}).")
    player = s["players"][seat]
    sources = [table.name(card) for card, _ in standing_cards(table, player) if table.effects(card).get("extra_draw")]
    sources += [table.name(award) for award, holder in s["awards"].items()
                if holder == seat and table.awards[award].get("draw")]
    drawn = meta["draw"] + award_bonus(table, s, seat, "draw") + sum(
        table.effects(card).get("extra_draw", 0) for card, _ in standing_cards(table, player))
    more = f" ({meta['draw']}, and {drawn - meta['draw']} more for {listing(sources)})" if sources else ""
    extra = award_bonus(table, s, seat, "discard")
    culture = [table.name(award) for award, holder in s["awards"].items()
               if holder == seat and table.awards[award].get("discard")]
    fewer = f" ({meta['discard']}, and {extra} more for {listing(culture)})" if extra else ""
    return (f"Your turn ends: you drew {count(drawn, 'card')}{more} and discard {meta['discard'] + extra}{fewer} "
            f"({still}).")


def _buy(table: CardTable, s: dict, seat: int) -> str:
    player = s["players"][seat]
    held = ", ".join(f"{player['resources'].get(kind, 0)} {kind}" for kind in RESOURCES)
    return (f"You hold {held}. A plot costs {plot_price(table, player)} of any mix, a population "
            f"{population_price(table, player)} food; technologies are paid in commerce, buildings and wonders "
            "in production; bonus cards are played for resources; units wait for combat, after buying.")


def _attack(table: CardTable, s: dict, seat: int) -> str:
    units = [card for card in s["players"][seat]["hand"] if table.kind(card) == "unit"]
    if units:
        return ""
    return "You hold no unit, so this turn you can only fight with none, which skips combat."


def _collect(table: CardTable, s: dict, seat: int) -> str:
    return "Each population yields one more resource of a kind its plot yields."
