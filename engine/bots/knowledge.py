"""What a bot knows of a game besides its rules: how to fill in what its seat cannot
see (a determinisation), and how good a position is for a seat (an evaluation).

A game with knowledge of its own returns it from its `bot_knowledge()` (kept in the
game's package); any other game gets `GenericKnowledge`, which works from the public
rules and the view alone.
"""
from __future__ import annotations

import random

from engine.bots.base import decisions
from engine.core import Game


def knowledge_for(game: Game) -> GenericKnowledge:
    own = game.bot_knowledge()
    return GenericKnowledge(game) if own is None else own


def rank_value(outcome: dict, seat: int) -> float:
    """1 for sole first place down to 0 for last, ties sharing the places they span."""
    ranking = outcome.get("ranking") or []
    seats = sum(len(group) for group in ranking)
    if seats < 2:
        return 1.0
    start = 0
    for group in ranking:
        if seat in group:
            # The mean value of the places the group spans: 1 - place / (seats - 1).
            places = range(start, start + len(group))
            return sum(1 - p / (seats - 1) for p in places) / len(group)
        start += len(group)
    return 0.0


def public_score(view: dict, seat: int) -> float | None:
    """A seat's score as the view shows it: a number, or the sum of a dict of
    numbers, under `score`, `vp` or `points`; None if the view shows none."""
    players = view.get("players")
    if not isinstance(players, list) or not 0 <= seat < len(players) or not isinstance(players[seat], dict):
        return None
    for key in ("score", "vp", "points", "victory_points"):
        value = players[seat].get(key)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        if isinstance(value, dict) and value and all(isinstance(v, (int, float)) for v in value.values()):
            return float(sum(value.values()))
    return None


class GenericKnowledge:
    """For a game with no knowledge of its own: determinise through the game's own
    `determinise` if it has one, else by reading the view back as a state when that
    gives the same view (nothing hidden from the seat matters); evaluate by the
    public score in the view."""

    has_evaluation = False

    def __init__(self, game: Game):
        self.game = game

    def determinise(self, view: dict, seat: int, rng: random.Random):
        own = self.game.determinise(view, seat, rng)
        if own is not None:
            return own
        try:
            state = self.game.from_json({k: v for k, v in view.items() if k not in ("seat", "pending")})
            same = self.game.view(state, seat) == view
        except Exception:  # a view is not a state for most games: no determinisation
            return None
        return state if same else None

    def evaluate(self, state, seat: int) -> float:
        outcome = self.game.outcome(state)
        if outcome is not None:
            return 1000.0 * rank_value(outcome, seat)
        view = self.game.view(state, seat)
        own = public_score(view, seat)
        if own is None:
            return 0.0
        scores = [public_score(view, other) for other in range(len(view["players"])) if other != seat]
        others = [score for score in scores if score is not None]
        return own - (max(others) if others else 0.0)

    def playout_step(self, state, seat: int, rng: random.Random):
        """One decision of a playout: a random legal move."""
        state, _ = self.game.apply(state, seat, rng.choice(decisions(self.game, self.game.legal_moves(state, seat))))
        return state

    def seat_count(self, state) -> int:
        count = getattr(state, "players", None)
        return count if isinstance(count, int) else len(self.game.to_json(state)["players"])
