"""Inbound benchmark: emailed replies processed per second by one worker process.
Each reply is a real MIME message (a top-posted reply with the quoted turn email)
already stored as received; processing reads it, checks its address and sender,
strips the quote, applies the move at the version it names, and writes the answer to
the outbox (received -> move committed -> answer queued). Storing the messages (the
inbound SMTP server's or the HTTP endpoint's work, before it says the message was
received) happens before the timer starts and is not timed. Delivery is measured by
bench/mail.py.

    .venv/bin/python bench/inbound.py [--replies 500]

Needs the local PostgreSQL. Creates and drops its own database.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import uuid
from email.message import EmailMessage
from typing import cast

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _HERE]
sys.path.insert(0, os.path.dirname(_HERE))

import psycopg  # noqa: E402
from sqlalchemy import event  # noqa: E402
from sqlmodel import select  # noqa: E402

from bench.common import ADMIN, fresh_database, two_player_games  # noqa: E402
from service.config import Settings  # noqa: E402
from service.db import make_engine, transaction  # noqa: E402
from service.inbound_store import store  # noqa: E402
from service.models import Game, InboundMail, User  # noqa: E402
from service.play import game_state, rules  # noqa: E402
from service.reply_address import ReplyToken, reply_address  # noqa: E402
from workers.inbound import process  # noqa: E402

DB = "turnpost_bench_inbound"
QUOTE = "\n".join(f"> line {n} of the turn email, with the moves open now and the links" for n in range(40))


def reply_for(settings, engine, game_id: int) -> tuple[str, bytes]:
    """The first mover's reply with a legal tile placement, as a mail client sends it."""
    with transaction(engine) as db:
        game = db.get(Game, game_id)
        assert game is not None and game.id is not None
        game_rules, state = rules(game), game_state(game)
        seat = next(iter(game_rules.pending(state)))
        move = next(m for m in game_rules.legal_moves(state, seat) if m["type"] == "place_tile")
        from service.play import seats_of

        player = next(s for s in seats_of(db, game) if s.seat == seat)
        user = db.get(User, player.user_id)
        assert user is not None and user.id is not None
        address = reply_address(settings.secret_key, settings.mail_domain,
                                ReplyToken(game.id, seat, user.id, game.version))
        message = EmailMessage()
        message["From"], message["To"] = user.email, address
        message["Subject"] = f"Re: {game.title}: your decision"
        message["Message-ID"] = f"<{uuid.uuid4().hex}@client.bench>"
        message.set_content(f"{game_rules.format_move(move)}\n\nOn Tue, 24 Nov 2026, turnpost wrote:\n{QUOTE}\n")
        return address, message.as_bytes()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replies", type=int, default=500)
    args = parser.parse_args()
    url = fresh_database(DB)
    settings = Settings(database_url=url, redis_url=None, smtp_url=None, secret_key="bench-secret")
    engine = make_engine(url)
    games = two_player_games(url, args.replies, pairs=args.replies)
    stored = [store(engine, raw, address, "") for address, raw in (reply_for(settings, engine, g[0]) for g in games)]
    assert None not in stored, "every reply is new, so stored"
    ids = cast(list[int], stored)
    times, statements = [], []
    event.listen(engine, "before_cursor_execute", lambda *_: statements.append(1))
    start, cpu_start = time.perf_counter(), time.process_time()
    for inbound_id in ids:
        began = time.perf_counter()
        process(engine, settings, inbound_id)
        times.append(time.perf_counter() - began)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    with transaction(engine) as db:
        outcomes = list(db.exec(select(InboundMail.outcome)))
    applied = outcomes.count("applied")
    times.sort()
    print(f"{len(ids)} replies in {elapsed:.2f} s: {len(ids) / elapsed:.0f} replies/s, "
          f"p50 {statistics.median(times) * 1000:.1f} ms, p99 {times[int(len(times) * 0.99) - 1] * 1000:.1f} ms; "
          f"{applied} applied; {len(statements) / len(ids):.1f} statements a reply; "
          f"{cpu / len(ids) * 1000:.1f} ms of this process's CPU a reply")
    assert applied == len(ids), f"not every reply was applied: {set(outcomes)}"
    engine.dispose()
    with psycopg.connect(ADMIN, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{DB}" WITH (FORCE)')


if __name__ == "__main__":
    main()
