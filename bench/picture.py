"""Board picture benchmark: the CPU time to paint a board and to make its PNG, for
Tigris boards of games in play (`--moves` uniformly random moves each), in one process.

    .venv/bin/python bench/picture.py [--boards 60] [--moves 100] [--rounds 3]

Each round times every board's painting (`board_image`) and then its whole PNG
(`board_png`, painting included); the encoding is the difference.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _HERE]
sys.path.insert(0, os.path.dirname(_HERE))

import engine  # noqa: E402
from service import pictures  # noqa: E402


def views(boards: int, moves: int) -> list[dict]:
    game = engine.get_game("tigris")
    found = []
    for seed in range(boards):
        rng, state = random.Random(seed), game.setup(2, seed, {})
        for _ in range(moves):
            if game.outcome(state) is not None:
                break
            seat = min(game.pending(state))
            state, _ = game.apply(state, seat, rng.choice(game.legal_moves(state, seat)))
        found.append(game.view(state, 0))
    return found


def cpu_ms(work, items) -> float:
    started = time.process_time()
    for item in items:
        work(item)
    return (time.process_time() - started) * 1000 / len(items)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=60)
    parser.add_argument("--moves", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    boards = views(args.boards, args.moves)
    sizes = [len(pictures.board_png("tigris", view)) for view in boards]  # also renders every piece once
    for _ in range(args.rounds):
        paint = cpu_ms(lambda view: pictures.board_image("tigris", view), boards)
        whole = cpu_ms(lambda view: pictures.board_png("tigris", view), boards)
        print(f"{len(boards)} boards after {args.moves} moves: paint {paint:.2f} ms, PNG {whole - paint:.2f} ms, "
              f"together {whole:.2f} ms CPU a board; {sum(sizes) / len(sizes) / 1000:.1f} KB")


if __name__ == "__main__":
    main()
