"""Bots: players that choose a move from what their seat sees.

    bot = get_bot("tigris", "greedy", seed=7)
    move = bot.choose(view, moves)   # view(state, seat) and that seat's legal moves

A bot reads only the seat's view and its legal moves (which depend only on what the
seat sees). Where it needs what the seat cannot see (other hands, the bag or deck),
it fills it in at random consistently with the view (`determinise`). Bots are pure:
no clock, no global random; the same seed, view and moves give the same choice.

Kinds: `random` (a uniform legal move), `greedy` (one-ply lookahead with the game's
evaluation), `strong` (information-set Monte Carlo tree search over determinised
states, with a budget in iterations). `random` and `greedy` play every registered
game (greedy through a generic evaluation where a game has none of its own);
`strong` needs a game's own evaluation (Tigris, the card game).
"""
from __future__ import annotations

from engine.bots.base import Bot, decision_rng
from engine.bots.greedy import GreedyBot
from engine.bots.knowledge import knowledge_for
from engine.bots.mcts import StrongBot
from engine.bots.random_bot import RandomBot
from engine.core import EngineError
from engine.registry import get_game

BOT_KINDS = ("random", "greedy", "strong")


def bot_kinds(game_id: str) -> tuple[str, ...]:
    """The kinds of bot that play `game_id`."""
    if knowledge_for(get_game(game_id)).has_evaluation:
        return BOT_KINDS
    return ("random", "greedy")


def get_bot(game_id: str, kind: str, seed: int = 0, **budget) -> Bot:
    """A bot of `kind` for `game_id`; `budget` (strong only): `iterations`."""
    game = get_game(game_id)
    if kind not in bot_kinds(game_id):
        raise EngineError(
            f"no {kind!r} bot for {game_id}; bots: {', '.join(bot_kinds(game_id))}", code="unknown_bot"
        )
    if kind == "random":
        return RandomBot(game, seed)
    if kind == "greedy":
        return GreedyBot(game, seed, knowledge_for(game))
    return StrongBot(game, seed, knowledge_for(game), **budget)


__all__ = ["BOT_KINDS", "Bot", "bot_kinds", "decision_rng", "get_bot"]
