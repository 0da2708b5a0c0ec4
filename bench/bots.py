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


def play(game, game_id: str, kinds: list[str], seed: int, iterations: int, times: dict,
         max_actions: int) -> list[list[int]] | None:
    """One game between bots of `kinds` (by seat); returns the ranking, or None when
    it has not ended after `max_actions` (a card game's dead table, which the rules
    never end: docs/games/euphrat-cards.md)."""
    bots = [get_bot(game_id, kind, seed * 10 + seat, **({"iterations": iterations} if kind == "strong" else {}))
            for seat, kind in enumerate(kinds)]
    state = game.setup(len(kinds), seed, {})
    for _ in range(max_actions):
        if game.outcome(state) is not None:
            return game.outcome(state)["ranking"]
        seat = min(game.pending(state))
        view, moves = game.view(state, seat), game.legal_moves(state, seat)
        started = time.process_time()
        move = bots[seat].choose(view, moves)
        if len(moves) > 1:  # a forced move is no decision
            times[kinds[seat]].append(time.process_time() - started)
        state, _ = game.apply(state, seat, move)
    return None


def match(game_id: str, first: str, second: str, games: int, iterations: int, start: int = 0,
          max_actions: int = 5000) -> dict:
    game = engine.get_game(game_id)
    times: dict[str, list[float]] = {first: [], second: []}
    score, unfinished = 0.0, 0
    for number in range(start, start + games):
        kinds = [first, second] if number % 2 == 0 else [second, first]
        ranking = play(game, game_id, kinds, 1000 + number // 2, iterations, times, max_actions)
        if ranking is None:
            unfinished += 1
            continue
        seat = kinds.index(first)
        score += 1.0 if ranking[0] == [seat] else 0.5 if seat in ranking[0] else 0.0
        if (number - start + 1) % 10 == 0:
            print(f"  {number - start + 1} games: {first} {score:g}", file=sys.stderr, flush=True)
    return {"score": score, "times": times, "unfinished": unfinished}


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
    parser.add_argument("--max-actions", type=int, default=5000, help="a game not ended after this many "
                        "actions counts as unfinished and is left out of the score")
    parser.add_argument("--start", type=int, default=0, help="number of the first game (its seeds), so that "
                        "a long match can run in parts whose scores add up")
    args = parser.parse_args()
    pairs = [p.split(":") for p in (args.pair or ["greedy:random", "strong:greedy"])]
    print(f"{args.game}: {args.games} two-player games per pair, seats swapped; strong: {args.iterations} iterations")
    print("pair                 score   win rate   bot      decisions  mean ms  p99 ms")
    for first, second in pairs:
        result = match(args.game, first, second, args.games, args.iterations, args.start, args.max_actions)
        finished = args.games - result["unfinished"]
        for i, kind in enumerate((first, second)):
            t = result["times"][kind]
            label = f"{first} vs {second}" if i == 0 else ""
            score = (f"{result['score']:>5.1f}/{finished}  {result['score'] / max(finished, 1):>7.0%}" if i == 0
                     else " " * 17)
            print(f"{label:<20} {score}   {kind:<8} {len(t):>9}  "
                  f"{sum(t) / len(t) * 1e3:>7.1f}  {percentile(t, 0.99) * 1e3:>6.1f}")
            if kind == "strong":
                print(f"{'':<48}strong: {args.iterations / (sum(t) / len(t)):.0f} iterations/s")
        if result["unfinished"]:
            print(f"{'':<20} {result['unfinished']} game(s) not ended after {args.max_actions} actions "
                  "(left out of the score)")
    print(f"peak memory of the process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
