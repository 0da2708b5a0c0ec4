"""Civilization: The Card Game (Firaxis 2006). `GAME` is the contract object, built on
the shipped card table (a provisional reconstruction, see docs/games/civ-cards.md)."""
from engine.civ_cards.game import CivCards
from engine.civ_cards.table import CardTable, load_table

GAME = CivCards()

__all__ = ["GAME", "CivCards", "CardTable", "load_table"]
