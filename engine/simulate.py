"""Random play, for tests, benchmarks and demonstrations. Pure: the caller's seed
drives a private random.Random, never the global one."""
from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

# (random source, state, legal moves of the acting seat) -> the move it makes
Chooser = Callable[[random.Random, Any, list[dict]], dict]


def uniform_choice(rng: random.Random, state, moves: list[dict]) -> dict:
    return rng.choice(moves)


def random_playout(game, players: int, seed: int, options: dict | None = None, max_steps: int = 10_000,
                   choose: Chooser = uniform_choice) -> Iterator[tuple]:
    """Yield (state, seat, move, new_state, events) for one random game from `seed`.

    The acting seat is drawn among the pending seats, the move by `choose` (uniformly
    among its legal moves unless told otherwise). Raises RuntimeError if the game has
    not ended after `max_steps`.
    """
    chooser = random.Random(seed)
    state = game.setup(players, seed, options or {})
    for _ in range(max_steps):
        if game.outcome(state) is not None:
            return
        seat = chooser.choice(sorted(game.pending(state)))
        move = choose(chooser, state, game.legal_moves(state, seat))
        new_state, events = game.apply(state, seat, move)
        yield state, seat, move, new_state, events
        state = new_state
    raise RuntimeError(f"game with seed {seed} did not end within {max_steps} steps")
