"""The games this engine plays: the one table of them. A game's package defines `GAME`,
its contract object, whose class declares its id and name (engine.core.BaseGame);
adding a game is one line here. Packages are imported on first use."""
from __future__ import annotations

import importlib
from functools import cache

from engine.core import EngineError, Game

# One line per game: the package whose `GAME` plays it.
GAME_PACKAGES = (
    "engine.tigris",
    "engine.euphrat_cards",
    "engine.eden",
    "engine.civ_cards",
)


@cache
def _games() -> dict[str, Game]:
    games: dict[str, Game] = {}
    for package in GAME_PACKAGES:
        game = importlib.import_module(package).GAME
        if game.id in games:
            raise RuntimeError(f"two games registered as {game.id!r}: {package} and another")
        games[game.id] = game
    return games


def game_ids() -> list[str]:
    """Ids of the games this engine can play, in registration order."""
    return list(_games())


def game_name(game_id: str) -> str:
    """The name people know a game by (the id stays in URLs, the API and the data)."""
    game = _games().get(game_id)
    return game_id if game is None else game.name


def get_game(game_id: str) -> Game:
    """The contract object of `game_id`; EngineError(code='unknown_game') if none."""
    game = _games().get(game_id)
    if game is None:
        raise EngineError(
            f"unknown game {game_id!r}; known games: {', '.join(sorted(_games()))}",
            code="unknown_game",
        )
    return game
