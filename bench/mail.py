"""Email benchmark: decision emails per second, each fully composed from the database
(decision summary, links, board picture as PNG) and accepted by a local SMTP server
(aiosmtpd, in a process of its own). Each game first plays `--moves` random moves, so
the boards and the news are those of a game in play; each game owes one email, so no
two emails share a picture.

    .venv/bin/python bench/mail.py [--emails 300] [--moves 100] [--processes 1] [--batch 20] [--reuse]
                                   [--profile FILE]

`--processes N` sends with N processes (the Procfile's mailer runs 2), each with its
own database and SMTP connections, the emails dealt out in turn and sent in batches of
`--batch` as the mailer's tasks take them (1: one row at a time, as before batches).
Besides the rate on
the wall clock, it reports the CPU time one email costs: in the sending processes, and
in all, the SMTP server and the PostgreSQL backends included, from which the rate the
machine's cores could reach is projected (the wall clock of a shared machine says
little). Needs the local PostgreSQL. Creates and drops its own database; `--reuse`
keeps the games of an earlier run and sends their emails again. `--profile FILE` writes
the first sending process's cProfile statistics (CPU time) to FILE (`python -m pstats`).
"""
from __future__ import annotations

import argparse
import cProfile
import multiprocessing
import os
import random
import statistics
import sys
import time
from typing import cast

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _HERE]
sys.path.insert(0, os.path.dirname(_HERE))

import psycopg  # noqa: E402
from sqlmodel import col, func, select, update  # noqa: E402

from bench.common import ADMIN, free_port, fresh_database, start_sink, two_player_games  # noqa: E402
from service.config import Settings  # noqa: E402
from service.db import make_engine, transaction  # noqa: E402
from service.models import Game, Notification  # noqa: E402
from service.play import game_state, rules, submit_move  # noqa: E402
from workers.delivery import deliver_many  # noqa: E402
from workers.dispatch import MAIL_BATCH  # noqa: E402
from workers.mail import SmtpSender  # noqa: E402

DB = "turnpost_bench_mail"
URL = f"postgresql+psycopg://postgres@127.0.0.1:5432/{DB}"
TICKS = os.sysconf("SC_CLK_TCK")


def play_random_moves(database, game_id: int, moves: int, rng: random.Random) -> None:
    """`moves` uniformly random legal moves through the service, in one transaction."""
    with transaction(database) as db:
        for _ in range(moves):
            game = db.get(Game, game_id, populate_existing=True)  # the move's writer bypasses the session
            assert game is not None
            state = game_state(game)
            if rules(game).outcome(state) is not None:
                return
            seat = min(rules(game).pending(state))
            move = rng.choice(rules(game).legal_moves(state, seat))
            submit_move(db, game_id, seat, move, game.version)


def prepare(emails: int, moves: int, reuse: bool) -> list[int]:
    """The outbox rows to send: the decision each game owes now, one email per game."""
    with psycopg.connect(ADMIN, autocommit=True) as admin:
        exists = admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", (DB,)).fetchone()
    if not (reuse and exists):
        fresh_database(DB)
        database = make_engine(URL)
        for game_id, *_ in two_player_games(URL, emails, pairs=emails):
            play_random_moves(database, game_id, moves, random.Random(game_id))
    database = make_engine(URL)
    with transaction(database) as db:
        ids = cast(list[int], list(db.exec(select(func.max(Notification.id)).where(
            Notification.kind == "your_turn").group_by(col(Notification.game_id)).order_by(
                func.max(Notification.id))))[:emails])  # each a stored row's
        db.exec(update(Notification).where(col(Notification.id).in_(ids)).values(
            sent_at=None, claimed_until=None, attempts=0, next_attempt_at=None))
    database.dispose()
    return ids


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of process `pid` so far."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def sender_process(ids: list[int], smtp_url: str, batch: int, profile: str | None, barrier, results) -> None:
    """Send `ids` in batches once every sender is ready; report its database backend's
    pid, then the times and CPU, and keep the backend until the CPU it used has been read."""
    from workers import warm_up
    from workers.picture_cache import cache_for

    settings = Settings(database_url=URL, smtp_url=smtp_url, secret_key="bench", redis_url=None)
    # Readied as the mailer readies itself before its first task (workers/tasks.py): the
    # drawing code and the picture cache's module imported, the backgrounds drawn.
    warm_up.draw_every_game()
    cache_for(settings)
    database = make_engine(URL)
    with database.connect() as connection:  # the pool gives this connection back to each delivery
        backend = connection.exec_driver_sql("SELECT pg_backend_pid()").scalar()
    sender = SmtpSender(smtp_url)
    sender.connect()
    results.put(backend)
    barrier.wait()  # ready
    barrier.wait()  # go
    profiler = cProfile.Profile(time.process_time)
    times, cpu = [], time.process_time()
    if profile:
        profiler.enable()
    for start in range(0, len(ids), batch):
        chunk, t0 = ids[start:start + batch], time.perf_counter()
        assert set(deliver_many(database, settings, chunk, sender).values()) == {"sent"}
        times += [(time.perf_counter() - t0) / len(chunk)] * len(chunk)
    cpu = time.process_time() - cpu
    if profile:
        profiler.disable()
        profiler.dump_stats(profile)
    sender.close()
    results.put((times, cpu))
    barrier.wait()  # the CPU has been read


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--emails", type=int, default=300)
    parser.add_argument("--moves", type=int, default=100, help="random moves played in each game first")
    parser.add_argument("--processes", type=int, default=1, help="sending processes")
    parser.add_argument("--batch", type=int, default=MAIL_BATCH, help="notifications per delivery task")
    parser.add_argument("--profile", help="write the first sender's cProfile statistics to this file")
    parser.add_argument("--reuse", action="store_true", help="send again the emails of the games already there")
    args = parser.parse_args()
    ids = prepare(args.emails, args.moves, args.reuse)
    port = free_port()
    sink = start_sink(port)
    context = multiprocessing.get_context("fork")
    barrier, results = context.Barrier(args.processes + 1, timeout=600), context.Queue()
    senders = [context.Process(target=sender_process, args=(
        ids[n::args.processes], f"smtp://127.0.0.1:{port}", args.batch, args.profile if n == 0 else None, barrier,
        results)) for n in range(args.processes)]
    try:
        for process in senders:
            process.start()
        backends = [results.get(timeout=600) for _ in senders]
        barrier.wait()
        others = [sink.pid, *backends]  # the CPU the email costs outside the senders
        before = sum(map(cpu_seconds, others))
        started = time.perf_counter()
        barrier.wait()
        reports = [results.get(timeout=3600) for _ in senders]
        elapsed = time.perf_counter() - started
        outside = sum(map(cpu_seconds, others)) - before
        barrier.wait()
        for process in senders:
            process.join()
    finally:
        sink.terminate()
    times = sorted(t for report in reports for t in report[0])
    sending, outside = sum(report[1] for report in reports) / len(ids), outside / len(ids)
    print(f"{len(ids)} decision emails with board PNG after {args.moves} moves, {args.processes} process(es), "
          f"batches of {args.batch}: {len(ids) / elapsed:.0f} emails/s on the wall clock, per email (a batch's time "
          f"over its size) p50 {statistics.median(times) * 1000:.1f} ms, "
          f"p99 {times[int(len(times) * 0.99)] * 1000:.1f} ms")
    cores = os.cpu_count()
    print(f"CPU per email: {sending * 1000:.1f} ms in the senders, {outside * 1000:.1f} ms in the SMTP server and "
          f"PostgreSQL; all of it: {(sending + outside) * 1000:.1f} ms, so {cores} cores would send "
          f"{cores / (sending + outside):.0f} emails/s")


if __name__ == "__main__":
    main()
