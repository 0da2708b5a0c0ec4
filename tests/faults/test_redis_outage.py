"""Redis killed for 30 s in the middle of play: the site keeps answering, moves are
taken, and once Redis is back (empty) the same worker and beat processes deliver every
email once and fire the deadline that fell due meanwhile."""
from __future__ import annotations

import signal
import time
from collections import Counter
from datetime import timedelta

from sqlmodel import col, select

from service.db import transaction
from service.models import Deadline, Notification, utcnow
from tests.conftest import Player, start_game
from tests.faults.conftest import wait_for
from workers.compose import message_id
from workers.tasks import deliver_notification


def owed_rows(engine, emails: set[str]) -> list[Notification]:
    with transaction(engine) as db:
        return list(db.exec(select(Notification).where(col(Notification.email).in_(emails))))


OUTAGE_SECONDS = 30
# Moves made while Redis is down, however long a busy machine takes for them (the
# outage lasts until then): every other one writes an email to lose.
MOVES_IN_OUTAGE = 24


def worker_log(stack) -> str:
    return "".join(path.read_text(errors="replace") for path in stack.logs.glob("worker-*.log"))


def remind_soon(engine, players, game_id: int) -> int:
    """A reminder for the seat now deciding, due in two seconds (written while Redis
    is down, so only the database knows it)."""
    seat = int(next(iter(players[0].get(f"/api/games/{game_id}").json["pending"])))
    with transaction(engine) as db:
        row = Deadline(game_id=game_id, seat=seat, kind="reminder", due_at=utcnow() + timedelta(seconds=2))
        db.add(row)
        db.flush()
        assert row.id is not None, "flushed"
        return row.id


def play_one(players, game_id: int) -> int:
    """The player who owes a decision makes his first legal move; the new version."""
    game = players[0].get(f"/api/games/{game_id}").json
    seat = int(next(iter(game["pending"])))
    mover = players[seat]
    move = mover.get(f"/api/games/{game_id}/moves/legal").json["moves"][0]["move"]
    answer = mover.post(f"/api/games/{game_id}/moves", json={"move": move, "version": game["version"]})
    assert answer.status_code == 200, answer.json
    return answer.json["version"]


def test_redis_outage_refuses_nothing_and_loses_no_email(fault_stack):
    stack = fault_stack
    worker, beat = stack.worker(), stack.beat()
    make = lambda name: Player(stack.app, f"{name}-{time.monotonic_ns()}@example.org")  # noqa: E731
    players, game = start_game(make, 2)
    gid = game["id"]
    play_one(players, gid)
    emails = {p.email for p in players}
    wait_for(lambda: all(r.sent_at for r in owed_rows(stack.engine, emails)), 60, "the first emails")
    before = len(owed_rows(stack.engine, emails))

    # Redis stops while the idle worker holds a message it has not acknowledged: a task
    # held for later (a Celery ETA task, as the retries of earlier versions were; one
    # left in the queue by them is harmless, as its row is sent).
    held = deliver_notification.apply_async((owed_rows(stack.engine, emails)[0].id,), countdown=3600)
    wait_for(lambda: held.id in worker_log(stack), 30, "the worker to hold the task for later")
    time.sleep(1)
    stack.redis.kill(signal.SIGTERM)  # a stop: Redis closes its connections first
    down_until = time.monotonic() + OUTAGE_SECONDS
    client = stack.app.test_client()
    assert client.get("/sign-in").status_code == 200
    assert client.post("/api/sign-in", json={"email": "outage@example.org"}).status_code == 202
    made = 0
    while time.monotonic() < down_until - 5 or made < MOVES_IN_OUTAGE:  # a stream of moves and page views
        play_one(players, gid)
        made += 1
        assert players[0].get(f"/api/games/{gid}").status_code == 200
        assert client.get(f"/games/{gid}").status_code == 302  # to sign in: a page, not an error
        time.sleep(1)
    reminder = remind_soon(stack.engine, players, gid)  # the game now rests: it stays due
    time.sleep(max(0.0, down_until - time.monotonic()))
    assert worker.poll() is None and beat.poll() is None, "a worker process died with Redis"

    stack.redis.start()
    emails.add("outage@example.org")
    wait_for(lambda: all(r.sent_at for r in owed_rows(stack.engine, emails)), 90, "every owed email to be sent")
    assert worker.poll() is None and beat.poll() is None
    rows = owed_rows(stack.engine, emails)
    sent = Counter(m["Message-ID"] for m in stack.inbox.messages)
    times = [(r.email, sent[message_id(r.message_id, stack.settings.mail_domain)]) for r in rows]
    assert all(count == 1 for _, count in times), times
    assert any(r.email == "outage@example.org" for r in rows) and len(rows) > before + 10

    def reminder_fired():
        with transaction(stack.engine) as db:
            return db.get(Deadline, reminder).outcome == "fired"
    # The sweep rebuilds the lost mirror once beat's connection is back (its retries back off).
    wait_for(reminder_fired, 60, "the reminder due during the outage to fire")
