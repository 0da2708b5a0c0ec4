"""Email benchmark: decision emails per second for one worker process, each fully
composed from the database (decision summary, links, board picture as PNG) and
accepted by a local SMTP server (aiosmtpd, in a second process).

    .venv/bin/python bench/mail.py [--emails 300]

Needs the local PostgreSQL. Creates and drops its own database.
"""
from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import time

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _HERE]

import psycopg  # noqa: E402
from sqlmodel import select  # noqa: E402

from service.auth import user_for_email  # noqa: E402
from service.config import Settings  # noqa: E402
from service.db import make_engine, transaction  # noqa: E402
from service.migrate import upgrade  # noqa: E402
from service.models import Notification  # noqa: E402
from service.play import create_game, respond  # noqa: E402
from workers.delivery import deliver  # noqa: E402
from workers.mail import SmtpSender  # noqa: E402

ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"
DB = "turnpost_bench_mail"
URL = f"postgresql+psycopg://postgres@127.0.0.1:5432/{DB}"
SINK = """
import asyncio, sys
from aiosmtpd.controller import Controller
class Sink:
    async def handle_DATA(self, server, session, envelope):
        return "250 OK"
c = Controller(Sink(), hostname="127.0.0.1", port=int(sys.argv[1])); c.start()
import time
while True: time.sleep(3600)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--emails", type=int, default=300)
    args = parser.parse_args()
    with psycopg.connect(ADMIN, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{DB}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{DB}"')
    upgrade(URL)
    engine = make_engine(URL)
    for n in range(args.emails):  # each started game owes one decision email
        with transaction(engine) as db:
            ann, bob = user_for_email(db, f"ann{n}@bench.test"), user_for_email(db, f"bob{n}@bench.test")
            game, _ = create_game(db, ann, "tigris", 2, invite=[bob.email])
            respond(db, game.id, bob, True, game.version)
    with transaction(engine) as db:
        ids = list(db.exec(select(Notification.id).where(Notification.kind == "your_turn")))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    sink = subprocess.Popen([sys.executable, "-c", SINK, str(port)])
    time.sleep(1.5)
    settings = Settings(database_url=URL, smtp_url=f"smtp://127.0.0.1:{port}", secret_key="bench", redis_url=None)
    sender = SmtpSender(settings.smtp_url)
    times = []
    started = time.perf_counter()
    try:
        for notification_id in ids:
            t0 = time.perf_counter()
            assert deliver(engine, settings, notification_id, sender) == "sent"
            times.append(time.perf_counter() - t0)
    finally:
        elapsed = time.perf_counter() - started
        sender.close()
        sink.terminate()
    times.sort()
    print(f"{len(ids)} decision emails with board PNG, one process: {len(ids) / elapsed:.0f} emails/s, "
          f"p50 {statistics.median(times) * 1000:.1f} ms, p99 {times[int(len(times) * 0.99)] * 1000:.1f} ms")


if __name__ == "__main__":
    main()
