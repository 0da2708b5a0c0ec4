"""Commit-to-SMTP-accept latency: moves submitted over HTTP at a steady rate; for each
decision email they cause, the time from the notification row's creation (inside the
move's transaction) to the SMTP server's acceptance of that email. Reports p50, p90,
p99 and max.

    .venv/bin/python bench/latency.py [--rate 4] [--seconds 60] [--games 200]

The whole production path runs: gunicorn (web), the outbox relay, a Celery `worker` and
`mailer` on Redis, PostgreSQL, and an aiosmtpd server that notes when each Message-ID arrived.
Every email is a full decision email with the board picture. Needs the local
PostgreSQL and Redis; creates and drops its own database.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _HERE]
sys.path.insert(0, os.path.dirname(_HERE))

import psycopg  # noqa: E402
import redis  # noqa: E402

import engine  # noqa: E402
from bench.common import (  # noqa: E402
    first_value,
    free_port,
    fresh_database,
    local_part,
    relay_command,
    seat_tokens,
    service_env,
    start_sink,
    two_player_games,
)

DB = "turnpost_bench_latency"
QUEUE = "turnpost-bench-latency"
TIGRIS = engine.get_game("tigris")


def play(port: int, tokens: dict, games: list, rate: float, seconds: float) -> int:
    """Submit legal moves round the games at `rate` per second; the number accepted."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    rng = random.Random(7)
    states = {gid: [TIGRIS.setup(2, seed, {}), version] for gid, seed, version, _, _ in games}
    accepted, start, n = 0, time.monotonic(), 0
    while time.monotonic() - start < seconds:
        time.sleep(max(0.0, start + n / rate - time.monotonic()))
        gid = games[n % len(games)][0]
        n += 1
        state, version = states[gid]
        if TIGRIS.outcome(state) is not None:
            continue
        seat = next(iter(TIGRIS.pending(state)))
        move = rng.choice(TIGRIS.legal_moves(state, seat))
        conn.request("POST", f"/api/games/{gid}/moves", json.dumps({"move": move, "version": version}),
                     {"Content-Type": "application/json", "Authorization": f"Bearer {tokens[seat]}"})
        response = conn.getresponse()
        body = response.read()
        if response.status != 200:
            raise SystemExit(f"move refused: {response.status} {body[:200]!r}")
        states[gid] = [TIGRIS.apply(state, seat, move)[0], json.loads(body)["version"]]
        accepted += 1
    return accepted


def ready(web_port: int, relay_log: str, limit: float = 300) -> None:
    """Until the web service answers and the relay listens (a loaded machine starts them
    slowly), then a few seconds for the workers."""
    give_up = time.monotonic() + limit
    while time.monotonic() < give_up:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", web_port, timeout=10)
            conn.request("GET", "/api/openapi.json")
            if conn.getresponse().status == 200 and b"relaying the work" in open(relay_log, "rb").read():
                break
        except OSError:
            pass
        time.sleep(0.5)
    time.sleep(5)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=float, default=4, help="moves per second")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    url = fresh_database(DB)
    games = two_player_games(url, args.games)
    tokens = seat_tokens(url)
    client = redis.Redis.from_url("redis://127.0.0.1:6379/0")
    smtp_port, web_port = free_port(), free_port()
    arrivals = os.path.join(tempfile.mkdtemp(), "arrivals")
    sink = start_sink(smtp_port, arrivals)
    env = service_env(url, QUEUE, smtp_port, tempfile.mkdtemp())
    relay_log = os.path.join(tempfile.mkdtemp(), "relay.log")
    celery = [sys.executable, "-m", "celery", "-A", "workers.app", "worker", "--loglevel=warning",
              "--without-gossip", "--without-mingle"]
    processes = [
        subprocess.Popen([sys.executable, "-m", "gunicorn", "-w", "4", "-k", "gthread", "--threads", "4",
                          "-b", f"127.0.0.1:{web_port}", "--log-level", "warning", "workers.wsgi:app"], env=env),
        subprocess.Popen([*celery, "--concurrency=4", f"--queues={QUEUE}"], env=env),
        subprocess.Popen([*celery, "--concurrency=2", f"--queues={QUEUE}.mail"], env=env),
        subprocess.Popen(relay_command(), env=env, stderr=open(relay_log, "wb")),
    ]
    try:
        ready(web_port, relay_log)
        with psycopg.connect(url.replace("+psycopg", ""), autocommit=True) as conn:
            # The set-up's emails, which the relay hands over when it starts, go first.
            wait_until = time.time() + 300
            while time.time() < wait_until and first_value(
                    conn, "SELECT count(*) FROM notification WHERE sent_at IS NULL"):
                time.sleep(0.5)
        with psycopg.connect(url.replace("+psycopg", ""), autocommit=True) as conn:
            begun = first_value(conn, "SELECT now()")
            moves = play(web_port, tokens, games, args.rate, args.seconds)
            query = ("SELECT message_id, EXTRACT(EPOCH FROM created_at) FROM notification "
                     "WHERE kind = 'your_turn' AND created_at >= %s")
            # Matched by the Message-ID's unique part: the sent header names the mail domain.
            owed: dict[str, float] = {local_part(m): created for m, created in conn.execute(query, (begun,)).fetchall()}
            wait_until = time.time() + 120
            while time.time() < wait_until and first_value(
                    conn, "SELECT count(*) FROM notification WHERE created_at >= %s AND sent_at IS NULL", (begun,)):
                time.sleep(0.5)
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait()
        sink.terminate()
        for key in client.scan_iter(QUEUE + "*"):
            client.delete(key)
    accepted_at: dict[str, float] = {}
    with open(arrivals) as log:
        for line in log:
            stamp, message_id = line.split(" ", 1)
            accepted_at.setdefault(local_part(message_id.strip()), float(stamp))
    latencies = sorted(accepted_at[m] - float(created) for m, created in owed.items() if m in accepted_at)
    # The start apart: the emails owed in the run's first second, and the others.
    first = min((float(created) for created in owed.values()), default=0.0)
    starting = sorted(accepted_at[m] - float(c) for m, c in owed.items() if m in accepted_at and float(c) < first + 1)
    running = sorted(accepted_at[m] - float(c) for m, c in owed.items() if m in accepted_at and float(c) >= first + 1)
    print(f"{moves} moves in {args.seconds:g} s ({args.rate:g}/s) over {args.games} games; "
          f"{len(owed)} decision emails owed, {len(latencies)} accepted")
    if latencies:
        print(f"commit-to-accept s: p50 {statistics.median(latencies):.3f}  "
              f"p90 {latencies[int(len(latencies) * 0.9)]:.3f}  "
              f"p99 {latencies[int(len(latencies) * 0.99)]:.3f}  max {latencies[-1]:.3f}")
        if starting and running:
            print(f"owed in the first second: {len(starting)}, max {starting[-1]:.3f} s; "
                  f"after it: p99 {running[int(len(running) * 0.99)]:.3f} s, max {running[-1]:.3f} s")


if __name__ == "__main__":
    main()
