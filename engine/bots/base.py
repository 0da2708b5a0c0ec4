"""What every bot shares: the choose() interface and its per-decision random source."""
from __future__ import annotations

import hashlib
import json
import random

from engine.core import Game


def decision_rng(seed: int, view: dict, moves: list[dict]) -> random.Random:
    """A private random source for one decision, fixed by the bot's seed and what it
    is shown: the same seed, view and moves always give the same choice."""
    digest = hashlib.sha256(json.dumps([seed, view, moves], sort_keys=True).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def decisions(game: Game, moves: list[dict]) -> list[dict]:
    """The moves that answer the decision: without a game's `setting_moves` (the card
    game's standing answers), which cost no action, so a bot choosing one would owe
    the same decision again and again."""
    settings = game.setting_moves
    answers = [move for move in moves if move.get("type") not in settings] if settings else moves
    return answers or moves


class Bot:
    """A player for one game. `choose` takes the seat's view (it names the seat) and
    that seat's legal moves, and returns one of the moves."""

    kind = "bot"

    def __init__(self, game: Game, seed: int):
        self.game, self.seed = game, seed

    def choose(self, view: dict, moves: list[dict]) -> dict:
        if not moves:
            raise ValueError("a bot chooses among legal moves; none were given")
        moves = decisions(self.game, moves)
        if len(moves) == 1:
            return moves[0]
        return self._choose(view, moves, decision_rng(self.seed, view, moves))

    def _choose(self, view: dict, moves: list[dict], rng: random.Random) -> dict:
        raise NotImplementedError
