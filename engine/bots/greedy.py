"""The greedy bot: one-ply lookahead. Each legal move is applied to a determinised
state and the result valued by the game's evaluation; the best move is played
(ties broken at random). With no determinisation for a game it plays at random."""
from __future__ import annotations

import random

from engine.bots.base import Bot
from engine.core import EngineError


def move_values(game, knowledge, state, seat: int, moves: list[dict]) -> list[float]:
    """The evaluation for `seat` after each move (-inf for a move the determinised
    state refuses, which a consistent determinisation never does)."""
    values = []
    for move in moves:
        try:
            after, _ = game.apply(state, seat, move)
        except EngineError:
            values.append(float("-inf"))
            continue
        values.append(knowledge.evaluate(after, seat))
    return values


def best_move(moves: list[dict], values: list[float], rng: random.Random) -> dict:
    top = max(values)
    return rng.choice([move for move, value in zip(moves, values) if value == top])


class GreedyBot(Bot):
    kind = "greedy"

    def __init__(self, game, seed: int, knowledge):
        super().__init__(game, seed)
        self.knowledge = knowledge

    def _choose(self, view, moves, rng):
        seat = view["seat"]
        state = self.knowledge.determinise(view, seat, rng)
        if state is None:
            return rng.choice(moves)
        return best_move(moves, move_values(self.game, self.knowledge, state, seat, moves), rng)
