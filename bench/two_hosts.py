"""Two web hosts and two worker hosts on one PostgreSQL and one Redis: the layout of
docs/scaling.md (with its one beat and one outbox relay), run locally. Every game's
moves alternate between the two web hosts; then the same version of a game is sent to
both hosts at once; the two worker hosts share the task queues. Reports the moves
accepted per host, the races (each must end with one 200 and one 409), the decision
emails owed and accepted by the SMTP sink (each exactly once), and the tasks each
worker host ran.

    .venv/bin/python bench/two_hosts.py [--games 100] [--seconds 20] [--clients 8] [--races 50]

Needs the local PostgreSQL and Redis; creates and drops its own database and queues.
"""
from __future__ import annotations

import argparse
import collections
import http.client
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
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

DB = "turnpost_bench_two_hosts"
QUEUE = "turnpost-bench-two-hosts"
TIGRIS = engine.get_game("tigris")


class Games:
    """The games' states as the clients know them, one lock each."""

    def __init__(self, table: list):
        self.states = {gid: [TIGRIS.setup(2, seed, {}), version] for gid, seed, version, _, _ in table}
        self.locks = {gid: threading.Lock() for gid in self.states}


def post_move(port: int, token: str, gid: int, move: dict, version: int) -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("POST", f"/api/games/{gid}/moves", json.dumps({"move": move, "version": version}),
                     {"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
        response = conn.getresponse()
        return response.status, json.loads(response.read() or b"{}")
    finally:
        conn.close()


def play(ports: list[int], tokens: dict, games: Games, my_games: list[int], seconds: float, tally: dict) -> None:
    """Move after move round `my_games`, each game's moves sent to the hosts in turn."""
    rng, stop_at, n = random.Random(my_games[0]), time.monotonic() + seconds, 0
    while time.monotonic() < stop_at:
        gid = my_games[n % len(my_games)]
        n += 1
        with games.locks[gid]:
            state, version = games.states[gid]
            if TIGRIS.outcome(state) is not None:
                continue
            seat = next(iter(TIGRIS.pending(state)))
            move = rng.choice(TIGRIS.legal_moves(state, seat))
            port = ports[version % len(ports)]
            status, body = post_move(port, tokens[seat], gid, move, version)
            tally[(port, status)] += 1
            if status == 200:
                games.states[gid] = [TIGRIS.apply(state, seat, move)[0], body["version"]]


def race(ports: list[int], tokens: dict, games: Games, gid: int, rng: random.Random) -> list[int]:
    """Two different legal moves at the same version, one to each host, at once."""
    state, version = games.states[gid]
    seat = next(iter(TIGRIS.pending(state)))
    moves = rng.sample(TIGRIS.legal_moves(state, seat), 2)
    answers: list = [None, None]

    def send(i):
        answers[i] = post_move(ports[i], tokens[seat], gid, moves[i], version)

    threads = [threading.Thread(target=send, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    winner = next((i for i, (status, _) in enumerate(answers) if status == 200), None)
    if winner is not None:
        games.states[gid] = [TIGRIS.apply(state, seat, moves[winner])[0], answers[winner][1]["version"]]
    return sorted(status for status, _ in answers)


def start_hosts(env: dict, web_ports: list[int], logs: str) -> list[subprocess.Popen]:
    celery = [sys.executable, "-m", "celery", "-A", "workers.app"]
    processes = [subprocess.Popen([sys.executable, "-m", "gunicorn", "-w", "2", "-k", "gthread", "--threads", "4",
                                   "-b", f"127.0.0.1:{port}", "--log-level", "warning", "workers.wsgi:app"], env=env)
                 for port in web_ports]
    for host in (1, 2):  # each worker host serves both queues, as one machine would
        processes.append(subprocess.Popen(
            [*celery, "worker", "--loglevel=info", "--concurrency=2", "--without-gossip", "--without-mingle",
             f"--queues={QUEUE},{QUEUE}.mail", f"--hostname=host{host}@bench",
             f"--logfile={logs}/worker{host}.log"], env=env))
    processes.append(subprocess.Popen([*celery, "beat", "--loglevel=warning", f"--schedule={logs}/beat-schedule"],
                                      env=env))
    relay_log = open(f"{logs}/relay.log", "wb")  # one relay, as one beat
    processes.append(subprocess.Popen(relay_command(), env=env, stdout=relay_log, stderr=subprocess.STDOUT))
    return processes


def wait_ready(ports: list[int], token: str, gid: int, limit: float = 60) -> None:
    """Until every web host answers (their start is not what is measured)."""
    give_up = time.monotonic() + limit
    for port in ports:
        while True:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                conn.request("GET", f"/api/games/{gid}", headers={"Authorization": f"Bearer {token}"})
                if conn.getresponse().status == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > give_up:
                raise SystemExit(f"the web host on port {port} did not answer in {limit:g} s")
            time.sleep(0.2)


def delivered(url: str, begun, arrivals_path: str) -> tuple[int, int, int]:
    """Decision emails owed since `begun`, those the sink accepted, and extra copies."""
    with psycopg.connect(url.replace("+psycopg", ""), autocommit=True) as conn:
        wait_until = time.time() + 120
        while time.time() < wait_until and first_value(
                conn, "SELECT count(*) FROM notification WHERE created_at >= %s AND sent_at IS NULL", (begun,)):
            time.sleep(0.5)
        owed = {local_part(m) for (m,) in conn.execute("SELECT message_id FROM notification WHERE created_at >= %s",
                                                         (begun,))}
    time.sleep(1)
    with open(arrivals_path) as log:
        arrivals = collections.Counter(local_part(line.split(" ", 1)[1]) for line in log)
    accepted = [m for m in owed if m in arrivals]
    return len(owed), len(accepted), sum(arrivals[m] - 1 for m in accepted)


def tasks_per_host(logs: str) -> dict[str, int]:
    counts = {}
    for host in (1, 2):
        with open(f"{logs}/worker{host}.log") as log:
            counts[f"host{host}"] = sum(1 for line in log if " succeeded in " in line)
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--races", type=int, default=50)
    args = parser.parse_args()
    url = fresh_database(DB)
    table = two_player_games(url, args.games)
    tokens = seat_tokens(url)
    logs = tempfile.mkdtemp()
    smtp_port, web_ports = free_port(), [free_port(), free_port()]
    sink = start_sink(smtp_port, f"{logs}/arrivals")
    env = service_env(url, QUEUE, smtp_port, tempfile.mkdtemp())
    processes = start_hosts(env, web_ports, logs)
    client = redis.Redis.from_url("redis://127.0.0.1:6379/0")
    try:
        wait_ready(web_ports, tokens[0], table[0][0])
        with psycopg.connect(url.replace("+psycopg", ""), autocommit=True) as conn:
            begun = first_value(conn, "SELECT now()")
        games, tally = Games(table), collections.Counter[tuple[int, int]]()  # (port, status) -> answers
        ids = [gid for gid, *_ in table]
        started = time.monotonic()
        clients = [threading.Thread(target=play,
                                    args=(web_ports, tokens, games, ids[i::args.clients], args.seconds, tally))
                   for i in range(args.clients)]
        for thread in clients:
            thread.start()
        for thread in clients:
            thread.join()
        elapsed = time.monotonic() - started
        rng = random.Random(3)
        live = [gid for gid in ids if TIGRIS.outcome(games.states[gid][0]) is None]
        races = collections.Counter(tuple(race(web_ports, tokens, games, gid, rng)) for gid in live[:args.races])
        owed, accepted, copies = delivered(url, begun, f"{logs}/arrivals")
        per_host = tasks_per_host(logs)
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait()
        sink.terminate()
        for key in client.scan_iter(QUEUE + "*"):
            client.delete(key)
    moves = sum(n for (_, status), n in tally.items() if status == 200)
    print(f"cross-host play: {moves} moves accepted in {elapsed:.1f} s ({moves / elapsed:.0f}/s) by "
          + ", ".join(f"host on :{port} {tally[(port, 200)]}" for port in web_ports)
          + f"; other answers: {dict((k, v) for k, v in tally.items() if k[1] != 200) or 'none'}")
    print(f"races (same version to both hosts at once): {dict(races)}")
    print(f"emails: {owed} owed, {accepted} accepted by SMTP, {copies} extra copies")
    print(f"tasks run per worker host: {per_host}")


if __name__ == "__main__":
    main()
