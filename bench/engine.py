"""Engine benchmark: random games per minute, actions per second, and the time of one
decision (legal_moves + apply, with the acting seat's view) at p50/p99, per player count.

    .venv/bin/python bench/engine.py [--games N] [--game tigris] [--options '{"allow_two": true}'] [--cpu-time]

Runs on one core (one process). `--cpu-time` measures the process's CPU time instead of
the wall clock: fairer on a machine others are using. Not part of the test suite.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time

# This script shares its name with the package it measures: keep its folder off the path.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _HERE]

import engine  # noqa: E402


def bench(game, players: int, games: int, options: dict, clock=time.perf_counter) -> dict:
    step_times: list[float] = []
    actions = 0
    legal_counts = 0
    started = clock()
    for seed in range(games):
        chooser = random.Random(seed)
        state = game.setup(players, seed, options)
        while game.outcome(state) is None:
            t0 = clock()
            seat = chooser.choice(sorted(game.pending(state)))
            moves = game.legal_moves(state, seat)
            move = chooser.choice(moves)
            state, _ = game.apply(state, seat, move)
            game.view(state, seat)
            step_times.append(clock() - t0)
            legal_counts += len(moves)
            actions += 1
    elapsed = clock() - started
    step_times.sort()
    return {
        "players": players,
        "games_per_minute": games / elapsed * 60,
        "actions_per_second": actions / elapsed,
        "actions_per_game": actions / games,
        "legal_moves_per_decision": legal_counts / actions,
        "p50_us": statistics.median(step_times) * 1e6,
        "p99_us": step_times[int(len(step_times) * 0.99)] * 1e6,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--game", default="tigris")
    parser.add_argument("--options", type=json.loads, default={}, help="game options as JSON")
    parser.add_argument("--cpu-time", action="store_true", help="time by the process's CPU time")
    args = parser.parse_args()
    clock = time.process_time if args.cpu_time else time.perf_counter
    game = engine.get_game(args.game)
    print(f"{args.game}: {args.games} random games per player count, one process, options {args.options}"
          f"{', CPU time' if args.cpu_time else ''}")
    print("players  games/min  actions/s  actions/game  legal/decision  p50 us  p99 us")
    for players in range(game.min_players, game.max_players + 1):
        try:
            game.validate_options(args.options, players)
        except engine.EngineError as refusal:
            print(f"{players:>7}  skipped: {refusal.message}")
            continue
        r = bench(game, players, args.games, args.options, clock)
        print(
            f"{r['players']:>7}  {r['games_per_minute']:>9.0f}  {r['actions_per_second']:>9.0f}"
            f"  {r['actions_per_game']:>12.0f}  {r['legal_moves_per_decision']:>14.0f}"
            f"  {r['p50_us']:>6.0f}  {r['p99_us']:>6.0f}"
        )


if __name__ == "__main__":
    main()
