"""Deadline benchmark: many pending deadlines fired by a real Celery worker and beat
on Redis and PostgreSQL. Reports the drift (fired at minus due at) at p50/p99/max,
duplicates (a deadline's effect applied twice), and the worker's memory over the run.

    .venv/bin/python bench/deadlines.py [--deadlines 100000] [--games 1000] [--window 600]

The deadlines are reminders for the seats that owe a decision in `--games` started
games, due evenly over `--window` seconds after a short lead. They start in the
database only: the sweeper's first run builds the Redis mirror from the table. One
`worker` pool (4 processes, as in the Procfile) takes the deadline queue and a `mailer` (1 process)
the mail queue; the players chose no email, so each reminder's delivery is a quick
skip. Needs the local PostgreSQL and Redis; creates and drops its own database.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _HERE]
sys.path.insert(0, os.path.dirname(_HERE))

import psycopg  # noqa: E402
import redis  # noqa: E402

from bench.common import first_value, fresh_database, two_player_games  # noqa: E402

DB = "turnpost_bench_deadlines"
QUEUE = "turnpost-bench-deadlines"
LEAD = 30  # seconds before the first deadline is due (the mirror is built meanwhile)


def insert_deadlines(url: str, count: int, window: float) -> datetime:
    """`count` reminders spread over the window; returns when the first is due."""
    first = datetime.now(UTC) + timedelta(seconds=LEAD)
    with psycopg.connect(url.replace("+psycopg", "")) as conn:
        seats = conn.execute(
            "SELECT game_id, seat FROM seat WHERE decision_started_at IS NOT NULL ORDER BY game_id").fetchall()
        now = datetime.now(UTC)
        with conn.cursor().copy("COPY deadline (game_id, seat, kind, due_at, created_at) FROM STDIN") as copy:
            for n in range(count):
                game_id, seat = seats[n % len(seats)]
                copy.write_row((game_id, seat, "reminder", first + timedelta(seconds=window * n / count), now))
    return first


def tree_rss_mb(root: int) -> float:
    """Resident memory of a process and all its descendants, in MB."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
                children.setdefault(ppid, []).append(int(entry))
            except OSError:
                continue
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        todo.extend(children.get(pid, []))
        try:
            with open(f"/proc/{pid}/status") as f:
                total += next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
        except (OSError, StopIteration):
            continue
    return total / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deadlines", type=int, default=100_000)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--window", type=float, default=600)
    parser.add_argument("--concurrency", type=int, default=4, help="worker processes (as in the Procfile)")
    args = parser.parse_args()
    url = fresh_database(DB)
    two_player_games(url, args.games, pairs=args.games, email_mode="off")
    client = redis.Redis.from_url("redis://127.0.0.1:6379/0")
    for key in client.scan_iter(QUEUE + "*"):
        client.delete(key)
    first_due = insert_deadlines(url, args.deadlines, args.window)
    env = {**os.environ, "DATABASE_URL": url, "REDIS_URL": "redis://127.0.0.1:6379/0", "TURNPOST_QUEUE": QUEUE,
           "SECRET_KEY": "bench", "TURNPOST_INSTANCE": tempfile.mkdtemp()}
    celery = [sys.executable, "-m", "celery", "-A", "workers.app"]
    quiet = ["--loglevel=warning", "--without-gossip", "--without-mingle"]
    schedule = os.path.join(tempfile.mkdtemp(), "beat-schedule")
    worker = subprocess.Popen([*celery, "worker", f"--concurrency={args.concurrency}", f"--queues={QUEUE}", *quiet],
                              env=env)
    mailer = subprocess.Popen([*celery, "worker", "--concurrency=1", f"--queues={QUEUE}.mail", *quiet], env=env)
    beat = subprocess.Popen([*celery, "beat", "-s", schedule, "--loglevel=warning"], env=env)
    memory = []
    try:
        with psycopg.connect(url.replace("+psycopg", ""), autocommit=True) as conn:
            deadline = time.time() + LEAD + args.window + 300
            done = 0
            while done < args.deadlines and time.time() < deadline:
                time.sleep(1)
                done = first_value(
                    conn, "SELECT count(*) FROM deadline WHERE kind = 'reminder' AND done_at IS NOT NULL")
                memory.append((time.time(), done, tree_rss_mb(worker.pid)))
                if len(memory) % 30 == 0:
                    print(f"  {done} fired, worker {memory[-1][2]:.0f} MB", flush=True)
            drifts = sorted(row[0] for row in conn.execute(
                "SELECT EXTRACT(EPOCH FROM done_at - due_at) FROM deadline "
                "WHERE kind = 'reminder' AND done_at IS NOT NULL"))
            reminders = first_value(conn, "SELECT count(*) FROM notification WHERE kind = 'reminder'")
            outcomes: dict[str, int] = dict(conn.execute(
                "SELECT outcome, count(*) FROM deadline WHERE kind = 'reminder' GROUP BY outcome").fetchall())
    finally:
        for process in (beat, worker, mailer):
            process.terminate()
        for process in (beat, worker, mailer):
            process.wait()
        for key in client.scan_iter(QUEUE + "*"):
            client.delete(key)
    firing = [m for m in memory if m[1] > 0]
    print(f"{args.deadlines} deadlines due over {args.window:g} s "
          f"({args.deadlines / args.window:.0f}/s) in {args.games} games")
    print(f"fired {len(drifts)}, outcomes {outcomes}, reminder emails written {reminders} "
          f"(duplicates: {reminders - len(drifts)})")
    if drifts:
        print(f"drift s: p50 {statistics.median(drifts):.3f}  "
              f"p99 {drifts[int(len(drifts) * 0.99)]:.3f}  max {drifts[-1]:.3f}")
    if firing:
        quarter = [firing[min(len(firing) - 1, len(firing) * q // 4)][2] for q in range(5)]
        print("worker memory MB at 0/25/50/75/100% of the firing: " + " / ".join(f"{m:.0f}" for m in quarter)
              + f"  (max {max(m[2] for m in firing):.0f})")
    print(f"first due {first_due:%H:%M:%S}; the mirror was built by the sweeper from the table")


if __name__ == "__main__":
    main()
