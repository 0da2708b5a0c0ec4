"""Bot benchmark: win rates of one bot kind against another over two-player games
with seats swapped every game, each bot's decision time (mean, p99, process time on
one core), the strong bot's iterations per second, and the process's peak memory.

    .venv/bin/python bench/bots.py [--game tigris] [--games 20] [--pair greedy:random]
                                   [--iterations 400] [--start 0]

A game counts 1 for a win, 1/2 for a shared first place. Not part of the test suite.
"""
from __future__ import annotations

import argparse
import os
import resource
import sys
import time

# This script shares its folder with bench/engine.py: keep the folder off the path.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _HERE]

import engine  # noqa: E402
from engine.bots import get_bot  # noqa: E402


def play(game, game_id: str, kinds: list[str], seed: int, iterations: int, times: dict) -> list[list[int]]:
    """One game between bots of `kinds` (by seat); returns the ranking."""
    bots = [get_bot(game_id, kind, seed * 10 + seat, **({"iterations": iterations} if kind == "strong" else {}))
            for seat, kind in enumerate(kinds)]
    state = game.setup(len(kinds), seed, {})
    while game.outcome(state) is None:
        seat = min(game.pending(state))
        view, moves = game.view(state, seat), game.legal_moves(state, seat)
        started = time.process_time()
        move = bots[seat].choose(view, moves)
        if len(moves) > 1:  # a forced move is no decision
            times[kinds[seat]].append(time.process_time() - started)
        state, _ = game.apply(state, seat, move)
    return game.outcome(state)["ranking"]


def match(game_id: str, first: str, second: str, games: int, iterations: int, start: int = 0) -> dict:
    game = engine.get_game(game_id)
    times = {first: [], second: []}
    score = 0.0
    for number in range(start, start + games):
        kinds = [first, second] if number % 2 == 0 else [second, first]
        ranking = play(game, game_id, kinds, 1000 + number // 2, iterations, times)
        seat = kinds.index(first)
        score += 1.0 if ranking[0] == [seat] else 0.5 if seat in ranking[0] else 0.0
    return {"score": score, "times": times}


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="tigris")
    parser.add_argument("--games", type=int, default=20, help="games per pair (seats swap every game)")
    parser.add_argument("--pair", action="append", help="first:second bot kinds (repeatable); "
                        "default greedy:random and strong:greedy")
    parser.add_argument("--iterations", type=int, default=400, help="the strong bot's budget per decision")
    parser.add_argument("--start", type=int, default=0, help="number of the first game (its seeds), so that "
                        "a long match can run in parts whose scores add up")
    args = parser.parse_args()
    pairs = [p.split(":") for p in (args.pair or ["greedy:random", "strong:greedy"])]
    print(f"{args.game}: {args.games} two-player games per pair, seats swapped; strong: {args.iterations} iterations")
    print("pair                 score   win rate   bot      decisions  mean ms  p99 ms")
    for first, second in pairs:
        result = match(args.game, first, second, args.games, args.iterations, args.start)
        for i, kind in enumerate((first, second)):
            t = result["times"][kind]
            label = f"{first} vs {second}" if i == 0 else ""
            score = f"{result['score']:>5.1f}/{args.games}  {result['score'] / args.games:>7.0%}" if i == 0 else " " * 17
            print(f"{label:<20} {score}   {kind:<8} {len(t):>9}  {sum(t) / len(t) * 1e3:>7.1f}  {percentile(t, 0.99) * 1e3:>6.1f}")
            if kind == "strong":
                print(f"{'':<48}strong: {args.iterations / (sum(t) / len(t)):.0f} iterations/s")
    print(f"peak memory of the process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
