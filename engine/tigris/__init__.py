"""Tigris & Euphrates (Knizia): the standard game. `GAME` is the contract object."""
from engine.tigris.game import Tigris

GAME = Tigris()

__all__ = ["GAME", "Tigris"]
