"""The CPU one move request costs the service, measured in one process through Flask's
test client on PostgreSQL and Redis (the work announced to the outbox relay, which does
not run here: its cost is outside the request), side by
side with the one-commit floor. CPU time, unlike wall time, hardly changes when other
processes share the machine's cores.

    .venv/bin/python bench/move_cost.py [--games 100] [--moves 600] [--profile]
"""
from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import sys
import time

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _HERE]
sys.path.insert(0, os.path.dirname(_HERE))

import engine  # noqa: E402
from bench.common import fresh_database, seat_tokens, two_player_games  # noqa: E402
from service.app import create_app  # noqa: E402
from service.config import Settings  # noqa: E402
from workers.wiring import start_dispatcher  # noqa: E402

DB = "turnpost_bench_cost"
QUEUE = "turnpost-bench-cost"
TIGRIS = engine.get_game("tigris")


class Players:
    """Two-player games played with random legal moves through the test client."""

    def __init__(self, client, table, tokens, seed=1):
        self.client, self.tokens, self.rng = client, tokens, random.Random(seed)
        self.games = [gid for gid, *_ in table]
        self.states = {gid: [TIGRIS.setup(2, s, {}), v] for gid, s, v, *_ in table}
        self.turn = 0

    def request(self, kind: str) -> float:
        """One request of `kind` (commit, move, minimal); the CPU seconds it took."""
        gid = self.games[self.turn % len(self.games)]
        self.turn += 1
        state, version = self.states[gid]
        seat = next(iter(TIGRIS.pending(state)))
        headers = {"Authorization": f"Bearer {self.tokens[seat]}"}
        if kind == "commit":
            start = time.process_time()
            answer = self.client.post(f"/api/_bench/commit/{gid}", json={}, headers=headers)
            return time.process_time() - start
        move = self.rng.choice(TIGRIS.legal_moves(state, seat))
        if kind == "minimal":
            headers["Prefer"] = "return=minimal"
        start = time.process_time()
        answer = self.client.post(f"/api/games/{gid}/moves", json={"move": move, "version": version}, headers=headers)
        spent = time.process_time() - start
        assert answer.status_code == 200, answer.get_json()
        self.states[gid] = [TIGRIS.apply(state, seat, move)[0], answer.get_json()["version"]]
        return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--moves", type=int, default=600)
    parser.add_argument("--profile", action="store_true", help="print a cProfile (CPU time) of the move requests")
    args = parser.parse_args()
    url = fresh_database(DB)
    table = two_player_games(url, args.games)
    tokens = seat_tokens(url)
    app = create_app(Settings(database_url=url, redis_url="redis://127.0.0.1:6379/0", secret_key="bench",
                              queue=QUEUE, rate_limit="1000000 per minute", bench_endpoints=True))
    start_dispatcher(app)
    players = Players(app.test_client(), table, tokens)
    try:
        for kind in ("commit", "move", "minimal"):  # warm every path once
            for _ in range(50):
                players.request(kind)
        print(f"{args.moves} requests of each kind, interleaved; CPU ms per request (one process)")
        kinds = {"commit": "one commit (floor)", "move": "move submit", "minimal": "move, return=minimal"}
        spent: dict[str, list[float]] = {kind: [] for kind in kinds}
        for _ in range(args.moves):  # interleaved, so that the machine's load weighs on each alike
            for kind in kinds:
                spent[kind].append(players.request(kind))
        floor = sum(spent["commit"]) / args.moves
        for kind, name in kinds.items():
            times = sorted(spent[kind])
            mean = sum(times) / len(times)
            print(f"{name:<22} mean {mean * 1000:6.2f}   p50 {times[len(times) // 2] * 1000:6.2f}   "
                  f"x floor {mean / floor:5.2f}")
        if args.profile:
            profile = cProfile.Profile(time.process_time)
            profile.runcall(lambda: [players.request("move") for _ in range(args.moves)])
            pstats.Stats(profile).sort_stats("cumulative").print_stats(
                r"service/|workers/|limiter.*check_request|smorest/response|webargs/core.py.*parse\b"
                r"|celery/app/task.py.*apply_async", 40)
    finally:
        import redis

        client = redis.Redis.from_url("redis://127.0.0.1:6379/0")
        for key in client.scan_iter(QUEUE + "*"):
            client.delete(key)


if __name__ == "__main__":
    main()
