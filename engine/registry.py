"""Game id -> game module. Modules are imported on first use."""
from __future__ import annotations

import importlib

from engine.core import EngineError

_MODULES = {
    "tigris": "engine.tigris",
    "euphrat-cards": "engine.euphrat_cards",
    "eden": "engine.eden",
    "civ-cards": "engine.civ_cards",
}


# The names people know the games by; the ids stay in URLs, the API and the data.
_NAMES = {"tigris": "Tigris & Euphrates", "euphrat-cards": "Euphrat & Tigris: the card game",
          "eden": "Eden", "civ-cards": "Civilization: The Card Game"}


def game_name(game_id: str) -> str:
    return _NAMES.get(game_id, game_id)


def game_ids() -> list[str]:
    """Ids of the games this engine can play."""
    return [gid for gid in _MODULES if _importable(gid)]


def _importable(game_id: str) -> bool:
    try:
        importlib.import_module(_MODULES[game_id])
    except ModuleNotFoundError:
        return False
    return True


def get_game(game_id: str):
    """The game module for `game_id`; EngineError(code='unknown_game') if none."""
    module = _MODULES.get(game_id)
    if module is None:
        raise EngineError(
            f"unknown game {game_id!r}; known games: {', '.join(sorted(_MODULES))}",
            code="unknown_game",
        )
    return importlib.import_module(module).GAME
