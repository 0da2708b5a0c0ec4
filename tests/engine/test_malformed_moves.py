"""A move whose fields hold the wrong JSON kind (a list, an object, null, a number
where a name belongs) is refused with the engine's clear error in every game, never
with a crash, whatever the decision."""
from __future__ import annotations

import random

import pytest

import engine
from engine.core import EngineError

WRONG_KINDS = (["red"], {"color": "red"}, None, 1.5, True, -1, "", 10**30)


@pytest.mark.parametrize("name", ["tigris", "euphrat-cards", "eden", "civ-cards"])
def test_fields_of_the_wrong_kind_are_refused_cleanly(name):
    rules, rng = engine.get_game(name), random.Random(11)
    for seed in range(3):
        state = rules.setup(3, seed, {})
        for _ in range(60):
            if rules.outcome(state) is not None:
                break
            seat = min(rules.pending(state))
            legal = rules.legal_moves(state, seat)
            for move in rng.sample(legal, min(8, len(legal))):
                for field in move:
                    for value in WRONG_KINDS:
                        with pytest.raises(EngineError):
                            rules.apply(state, seat, {**move, field: value})
            state = rules.apply(state, seat, rng.choice(legal))[0]
