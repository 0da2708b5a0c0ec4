"""Pure rules engines for turnpost's games, behind one contract (docs/engine.md)."""
from engine.core import (
    EngineError,
    Game,
    IllegalMove,
    MoveParseError,
    NotYourTurn,
    events_for,
    visible_to,
)
from engine.registry import game_ids, game_name, get_game

__all__ = [
    "EngineError",
    "Game",
    "IllegalMove",
    "MoveParseError",
    "NotYourTurn",
    "events_for",
    "game_ids",
    "game_name",
    "get_game",
    "visible_to",
]
