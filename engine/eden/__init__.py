"""Eden (Gal Zuckerman, Kosmos 2001). `GAME` is the contract object."""
from engine.eden.game import Eden

GAME = Eden()

__all__ = ["GAME", "Eden"]
