"""Euphrat & Tigris: the card game (Knizia). `GAME` is the contract object."""
from engine.euphrat_cards.game import EuphratCards

GAME = EuphratCards()

__all__ = ["GAME", "EuphratCards"]
