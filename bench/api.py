"""API benchmark: durable move submits per second and their latency (p50/p99) on
PostgreSQL under gunicorn, at 16 and 64 concurrent clients over 1,000 two-player
Tigris games, with a bare one-commit endpoint measured in the same run as the floor.

    .venv/bin/python bench/api.py [--games 1000] [--seconds 20] [--clients 16 64]
                                  [--gunicorn-workers 4] [--gunicorn-threads 8] [--minimal]

Needs the local PostgreSQL and Redis. The outbox relay runs beside the server and hands
the moves' work to Redis, as in production. Creates and drops its own database. Clients run
in 2 processes on the same machine as the server (so they share its 2 cores); each
client keeps its games' states locally with the engine to choose legal moves.
"""
from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import time

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _HERE]
sys.path.insert(0, os.path.dirname(_HERE))

import engine  # noqa: E402
from bench.common import free_port, fresh_database, relay_command, seat_tokens, two_player_games  # noqa: E402

DB = "turnpost_bench"
TIGRIS = engine.get_game("tigris")


def prepare(games: int) -> tuple[str, dict, list]:
    url = fresh_database(DB)
    table = [(gid, seed, version) for gid, seed, version, _, _ in two_player_games(url, games)]
    tokens = seat_tokens(url)
    return url, tokens, table


def client_process(args) -> dict:
    port, path, seconds, threads, games, tokens, seed = args
    import threading

    results = {"latencies": [], "errors": 0, "server_errors": 0, "conflicts": 0}
    lock = threading.Lock()
    stop_at = time.monotonic() + seconds

    def run(my_games, rng):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        states = {gid: [TIGRIS.setup(2, s, {}), v] for gid, s, v in my_games}
        latencies, errors, server_errors, conflicts = [], 0, 0, 0
        order = [g[0] for g in my_games]
        i = 0
        while time.monotonic() < stop_at:
            gid = order[i % len(order)]
            i += 1
            state, version = states[gid]
            if TIGRIS.outcome(state) is not None:
                continue
            seat = next(iter(TIGRIS.pending(state)))
            if path != "commit":
                move = rng.choice(TIGRIS.legal_moves(state, seat))
                body = json.dumps({"move": move, "version": version})
                url = f"/api/games/{gid}/moves"
            else:
                body, url = "{}", f"/api/_bench/commit/{gid}"
            headers = {"Content-Type": "application/json", "Authorization": f"Bearer {tokens[seat]}"}
            if path == "minimal":
                headers["Prefer"] = "return=minimal"
            t0 = time.perf_counter()
            conn.request("POST", url, body, headers)
            response = conn.getresponse()
            data = response.read()
            latencies.append(time.perf_counter() - t0)
            if response.status >= 500:
                server_errors += 1
            elif response.status == 409:
                conflicts += 1
            elif response.status != 200:
                errors += 1
            elif path != "commit":
                new_state, _ = TIGRIS.apply(state, seat, move)
                states[gid] = [new_state, json.loads(data)["version"]]
        with lock:
            results["latencies"].extend(latencies)
            results["errors"] += errors
            results["server_errors"] += server_errors
            results["conflicts"] += conflicts

    workers = [threading.Thread(target=run, args=(games[t::threads], random.Random(seed + t))) for t in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return results


def measure(port, path, seconds, clients, table, tokens) -> dict:
    processes = 2
    per = clients // processes
    chunks = [table[p::processes] for p in range(processes)]
    with multiprocessing.Pool(processes) as pool:
        parts = pool.map(client_process,
                         [(port, path, seconds, per, chunks[p], tokens, 1000 * p) for p in range(processes)])
    latencies = sorted(x for part in parts for x in part["latencies"])
    return {
        "requests_per_s": len(latencies) / seconds,
        "p50_ms": statistics.median(latencies) * 1000,
        "p99_ms": latencies[int(len(latencies) * 0.99)] * 1000,
        "5xx": sum(p["server_errors"] for p in parts),
        "other_4xx": sum(p["errors"] for p in parts) + sum(p["conflicts"] for p in parts),
    }


def _wait_for(port: int, seconds: float = 60) -> None:
    """Until the server answers (a loaded machine starts gunicorn slowly)."""
    give_up = time.monotonic() + seconds
    while time.monotonic() < give_up:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/api/openapi.json")
            if conn.getresponse().status == 200:
                break
        except OSError:
            pass
        time.sleep(0.5)
    time.sleep(2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--clients", type=int, nargs="+", default=[16, 64])
    parser.add_argument("--gunicorn-workers", type=int, default=4)
    parser.add_argument("--gunicorn-threads", type=int, default=8)
    parser.add_argument("--minimal", action="store_true", help="also measure moves sent with Prefer: return=minimal")
    args = parser.parse_args()
    # Each client level plays its own fresh games (a run advances the games it plays).
    paths = ("commit", "move", "minimal") if args.minimal else ("commit", "move")
    url, tokens, table = prepare(args.games * len(args.clients) * (len(paths) - 1))
    port = free_port()
    env = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": "bench", "TURNPOST_BENCH": "1",
           "REDIS_URL": "redis://127.0.0.1:6379/0", "TURNPOST_QUEUE": "turnpost-bench",
           "TURNPOST_INSTANCE": "/tmp/turnpost-bench",
           "RATE_LIMIT": "1000000 per minute"}
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-w", str(args.gunicorn_workers), "-k", "gthread",
         "--threads", str(args.gunicorn_threads),
         "-b", f"127.0.0.1:{port}", "--log-level", "warning", "workers.wsgi:app"], env=env)
    # The moves' work goes to Celery through the relay, on the same cores (no worker takes it).
    relay = subprocess.Popen(relay_command(), env=env, stderr=subprocess.DEVNULL)
    try:
        _wait_for(port)
        print(f"{args.games} games, {args.seconds:g} s per run, "
              f"gunicorn {args.gunicorn_workers} workers x {args.gunicorn_threads} threads, PostgreSQL")
        print("endpoint          clients   req/s   p50 ms   p99 ms   5xx   other 4xx")
        for level, clients in enumerate(args.clients):
            for n, path in enumerate(paths):
                # The floor writes the rows the first kind of move then plays.
                first = (level * (len(paths) - 1) + max(n - 1, 0)) * args.games
                games = table[first:first + args.games]
                r = measure(port, path, args.seconds, clients, games, tokens)
                name = {"commit": "one commit (floor)", "move": "move submit", "minimal": "move, minimal"}[path]
                print(f"{name:<18}{clients:>7}{r['requests_per_s']:>8.0f}{r['p50_ms']:>9.1f}{r['p99_ms']:>9.1f}{r['5xx']:>6}{r['other_4xx']:>12}")
    finally:
        for process in (server, relay):
            process.terminate()
            process.wait()
        import redis

        client = redis.Redis.from_url("redis://127.0.0.1:6379/0")
        for key in client.scan_iter("turnpost-bench*"):
            client.delete(key)


if __name__ == "__main__":
    main()
