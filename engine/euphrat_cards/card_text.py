"""What each kind of card does, in a player's words: shown where a card is shown (a
card's tooltip on the table, a line of the decision email). One sentence each, from the
rules digest (docs/games/euphrat-cards.md)."""
from __future__ import annotations

from engine.euphrat_cards.cards import COLORS

# By the card's character in a view (`r`, `b`, `g`, `k`, `t`, ships `R`, `G`, `K`).
CARD_NAMES = {"r": "red temple", "b": "blue farm", "g": "green market", "k": "black settlement",
              "t": "treasure", "R": "blue-red ship", "G": "blue-green ship", "K": "blue-black ship"}
CARD_TEXT = {
    "r": "the priest's colour; red cards fight internal conflicts, and a leader on a red card "
         "gets +1 there",
    "b": "the farmer's colour; four blue cards at a column's bottom may become any free ship",
    "g": "the trader's colour; a trader in a kingdom that joins two treasures may swap one for a red card",
    "k": "the king's colour; the king also scores any colour whose own leader is not in his kingdom",
    "t": "a red card with a treasure; a trader may take it, and at the end a treasure counts for "
         "your weakest colour",
    "ship": "at the end of your turn, each of your leaders of one of its two colours in its kingdom "
            "scores 1, paid with a card of that colour from your hand",
    "hidden": "played face down into a gap; turned up once the conflicts it started are fought",
    "catastrophe": "once per game: removes a card without a leader (not a ship); the cards below move up",
}


def card_words(card: str) -> str:
    """A card of a view as players know it, with what it does: `blue farm: the farmer's ...`."""
    if card in ("R", "G", "K"):
        return f"{CARD_NAMES[card]}: {CARD_TEXT['ship']}"
    if card in CARD_NAMES:
        return f"{CARD_NAMES[card]}: {CARD_TEXT[card]}"
    return f"face-down card: {CARD_TEXT['hidden']}"


def color_words(color: str) -> str:
    """A colour of card in a hand (`red`) with its name and what it does."""
    return card_words("rbgk"[COLORS.index(color)])
