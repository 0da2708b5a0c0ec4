"""Email benchmark: decision emails per second for one worker process, each fully
composed from the database (decision summary, links, board picture as PNG) and
accepted by a local SMTP server (aiosmtpd, in a second process). Each game first
plays `--moves` random moves, so the boards and the news are those of a game in play.

    .venv/bin/python bench/mail.py [--emails 300] [--moves 100]

Needs the local PostgreSQL. Creates and drops its own database.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _HERE]
sys.path.insert(0, os.path.dirname(_HERE))

from sqlmodel import func, select  # noqa: E402

from bench.common import free_port, fresh_database, start_sink, two_player_games  # noqa: E402
from service.config import Settings  # noqa: E402
from service.db import make_engine, transaction  # noqa: E402
from service.models import Game, Notification  # noqa: E402
from service.play import game_state, rules, submit_move  # noqa: E402
from workers.delivery import deliver  # noqa: E402
from workers.mail import SmtpSender  # noqa: E402

DB = "turnpost_bench_mail"


def play_random_moves(engine, game_id: int, moves: int, rng: random.Random) -> None:
    """`moves` uniformly random legal moves through the service, in one transaction."""
    with transaction(engine) as db:
        for _ in range(moves):
            game = db.get(Game, game_id)
            state = game_state(game)
            if rules(game).outcome(state) is not None:
                return
            seat = min(rules(game).pending(state))
            move = rng.choice(rules(game).legal_moves(state, seat))
            submit_move(db, game_id, seat, move, game.version)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--emails", type=int, default=300)
    parser.add_argument("--moves", type=int, default=100, help="random moves played in each game first")
    args = parser.parse_args()
    url = fresh_database(DB)
    table = two_player_games(url, args.emails, pairs=args.emails)
    engine = make_engine(url)
    for game_id, *_ in table:
        play_random_moves(engine, game_id, args.moves, random.Random(game_id))
    with transaction(engine) as db:  # the decision each game owes now: one email per game
        ids = list(db.exec(select(func.max(Notification.id)).where(
            Notification.kind == "your_turn").group_by(Notification.game_id)))
    port = free_port()
    sink = start_sink(port)
    settings = Settings(database_url=url, smtp_url=f"smtp://127.0.0.1:{port}", secret_key="bench", redis_url=None)
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
    print(f"{len(ids)} decision emails with board PNG after {args.moves} moves, one process: {len(ids) / elapsed:.0f} emails/s, "
          f"p50 {statistics.median(times) * 1000:.1f} ms, p99 {times[int(len(times) * 0.99)] * 1000:.1f} ms")


if __name__ == "__main__":
    main()
