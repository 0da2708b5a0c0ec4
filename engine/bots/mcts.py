"""The strong bot: single-observer information-set Monte Carlo tree search.

Every iteration samples a determinisation of what the bot's seat cannot see, walks
the one tree (nodes are reached by moves, whichever determinisation) choosing moves
by UCB among those legal in this determinisation (counting how often each was
available), expands one new move, plays a short playout, and backs up each seat's
reward. A playout ends at the game's end (reward: the final ranking) or after
`playout_depth` decisions (reward: the game's evaluation, squashed into 0..1).

The root considers only the `root_width` moves the greedy lookahead rates best, each
starting from that rating as a prior: the search spends its budget on telling good
moves apart. The budget is in iterations: the engine reads no clock.
"""
from __future__ import annotations

import math
import random

from engine.bots.base import Bot, decisions
from engine.bots.greedy import best_move, move_values
from engine.bots.knowledge import rank_value
from engine.core import EngineError

EXPLORATION = 0.7
EVALUATION_SCALE = 4.0  # evaluation units for a 73% expected reward
PRIOR_VISITS = 3


def move_key(move: dict) -> str:
    """Moves as the engine lists them always carry their fields in the same order, so
    their repr names them (and is far cheaper than sorted JSON)."""
    return repr(move)


class Edge:
    __slots__ = ("move", "visits", "reward", "available", "child")

    def __init__(self, move: dict, visits: int = 0, reward: float = 0.0):
        self.move, self.visits, self.reward = move, visits, reward
        self.available = visits
        self.child: dict[str, Edge] = {}


class StrongBot(Bot):
    kind = "strong"

    def __init__(self, game, seed: int, knowledge, iterations: int = 400, playout_depth: int = 8,
                 root_width: int = 8):
        super().__init__(game, seed)
        self.knowledge = knowledge
        self.iterations, self.playout_depth, self.root_width = iterations, playout_depth, root_width

    def _choose(self, view, moves, rng):
        seat = view["seat"]
        first = self.knowledge.determinise(view, seat, rng)
        if first is None:
            return rng.choice(moves)
        values = move_values(self.game, self.knowledge, first, seat, moves)
        if self.iterations <= 0:
            return best_move(moves, values, rng)
        root = self._root(moves, values)
        for _ in range(self.iterations):
            self._iterate(root, view, seat, rng)
        return max(root.values(), key=lambda edge: (edge.visits, edge.reward)).move

    def _root(self, moves, values) -> dict[str, Edge]:
        ranked = sorted(range(len(moves)), key=lambda i: -values[i])[: self.root_width]
        top = values[ranked[0]]
        root = {}
        for i in ranked:
            prior = self._squash(values[i] - top) if math.isfinite(values[i]) else 0.0
            root[move_key(moves[i])] = Edge(moves[i], PRIOR_VISITS, PRIOR_VISITS * prior)
        return root

    @staticmethod
    def _squash(value: float) -> float:
        return 1 / (1 + math.exp(-value / EVALUATION_SCALE))

    def _iterate(self, root: dict[str, Edge], view: dict, seat: int, rng: random.Random) -> None:
        game = self.game
        state = self.knowledge.determinise(view, seat, rng)
        path: list[tuple[Edge, int]] = []
        fresh: list[tuple[str, dict]]
        children, at_root = root, True
        while game.outcome(state) is None:
            actor = min(game.pending(state))
            if at_root:
                # The root's moves depend only on what the seat sees: legal in every
                # consistent determinisation.
                options, fresh = list(children.values()), []
            else:
                legal = decisions(game, game.legal_moves(state, actor))
                options, fresh = [], []
                for move in legal:
                    key = move_key(move)
                    edge = children.get(key)
                    (fresh.append((key, move)) if edge is None else options.append(edge))
            if not options and not fresh:
                return
            if fresh:
                key, move = rng.choice(fresh)
                edge = children[key] = Edge(move)
                edge.available = 1
            else:
                edge = self._select(options)
            for option in options:
                option.available += 1
            try:
                state, _ = game.apply(state, actor, edge.move)
            except EngineError:
                return
            path.append((edge, actor))
            if fresh:
                break
            children, at_root = edge.child, False
        rewards = self._playout(state, rng)
        for edge, actor in path:
            edge.visits += 1
            edge.reward += rewards[actor]

    @staticmethod
    def _select(options: list[Edge]) -> Edge:
        best, best_score = options[0], -1.0
        for edge in options:
            if edge.visits == 0:
                return edge
            score = edge.reward / edge.visits + EXPLORATION * math.sqrt(math.log(edge.available) / edge.visits)
            if score > best_score:
                best, best_score = edge, score
        return best

    def _playout(self, state, rng: random.Random) -> list[float]:
        game, knowledge = self.game, self.knowledge
        for _ in range(self.playout_depth):
            if game.outcome(state) is not None:
                break
            state = knowledge.playout_step(state, min(game.pending(state)), rng)
        outcome = game.outcome(state)
        seats = range(knowledge.seat_count(state))
        if outcome is not None:
            return [rank_value(outcome, s) for s in seats]
        return [self._squash(knowledge.evaluate(state, s)) for s in seats]
