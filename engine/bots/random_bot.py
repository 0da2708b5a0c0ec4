"""The random bot: a uniform choice among the legal moves."""
from __future__ import annotations

from engine.bots.base import Bot


class RandomBot(Bot):
    kind = "random"

    def _choose(self, view, moves, rng):
        return rng.choice(moves)
