"""What the benchmarks share: a fresh database, a free port, an SMTP sink process,
and started two-player games."""
from __future__ import annotations

import socket
import subprocess
import sys
import time
from typing import Any

import psycopg

from service.auth import user_for_email
from service.db import make_engine, transaction
from service.migrate import upgrade
from service.play import create_game, respond

ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"

# An SMTP server that accepts everything and, with a file argument, writes one line per
# message: the arrival time and its Message-ID.
SINK = """
import sys, time
from aiosmtpd.controller import Controller
log = open(sys.argv[2], "a", buffering=1) if len(sys.argv) > 2 else None
class Sink:
    async def handle_DATA(self, server, session, envelope):
        if log:
            head = envelope.content.split(b"\\r\\n\\r\\n", 1)[0].decode("ascii", "replace")
            mid = next((l.split(":", 1)[1].strip() for l in head.split("\\r\\n")
                        if l.lower().startswith("message-id:")), "")
            log.write(f"{time.time():.6f} {mid}\\n")
        return "250 OK"
c = Controller(Sink(), hostname="127.0.0.1", port=int(sys.argv[1])); c.start()
while True: time.sleep(3600)
"""


def fresh_database(name: str) -> str:
    """Drop and create database `name` with the schema; its SQLAlchemy URL."""
    with psycopg.connect(ADMIN, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')
    url = f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"
    upgrade(url)
    return url


def first_value(conn: psycopg.Connection, query: str, params: tuple = ()) -> Any:
    """The first column of the query's first row (a count, a time)."""
    row = conn.execute(query, params).fetchone()
    assert row is not None, f"no row for {query}"
    return row[0]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_sink(port: int, log_path: str | None = None) -> subprocess.Popen:
    sink = subprocess.Popen([sys.executable, "-c", SINK, str(port), *([log_path] if log_path else [])])
    time.sleep(1.5)
    return sink


def two_player_games(url: str, games: int, pairs: int = 1, email_mode: str = "every") -> list[tuple]:
    """`games` started two-player Tigris games between `pairs` pairs of players;
    (game id, seed, version, creator id, invitee id) of each."""
    engine = make_engine(url)
    table = []
    for n in range(games):
        with transaction(engine) as db:
            pair = n % pairs
            ann, bob = user_for_email(db, f"ann{pair}@bench.test"), user_for_email(db, f"bob{pair}@bench.test")
            ann.email_mode = bob.email_mode = email_mode
            game, _ = create_game(db, ann, "tigris", 2, invite=[bob.email])
            assert game.id is not None, "a created game has an id"
            answered, _ = respond(db, game.id, bob, True, game.version)
            table.append((answered.id, answered.seed, answered.version, ann.id, bob.id))
    engine.dispose()
    return table


def seat_tokens(url: str) -> dict[int, str]:
    """API tokens of the players of `two_player_games` (pairs=1), by seat: the creator
    takes seat 0."""
    from service.auth import create_api_token

    with transaction(make_engine(url)) as db:
        return {seat: create_api_token(db, user_for_email(db, f"{name}0@bench.test"))[1]
                for seat, name in enumerate(("ann", "bob"))}


def service_env(url: str, queue: str, smtp_port: int, instance: str) -> dict:
    """The environment of the service's processes (web and workers) for a benchmark:
    its database, the local Redis, its own queue, the SMTP sink, no rate limit."""
    import os

    return {**os.environ, "DATABASE_URL": url, "REDIS_URL": "redis://127.0.0.1:6379/0", "TURNPOST_QUEUE": queue,
            "SMTP_URL": f"smtp://127.0.0.1:{smtp_port}", "SECRET_KEY": "bench", "RATE_LIMIT": "1000000 per minute",
            "TURNPOST_INSTANCE": instance}


def relay_command() -> list[str]:
    """`turnpost relay` (the Procfile's `relay`) from this virtualenv."""
    import os
    import sys

    return [os.path.join(os.path.dirname(sys.executable), "turnpost"), "relay"]


def local_part(message_id: str) -> str:
    """`<unique@domain>` -> `unique`: a row's Message-ID and the sent header's (which
    names the mail domain) share it."""
    return message_id.strip().strip("<>").split("@", 1)[0]
