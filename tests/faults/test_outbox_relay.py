"""The outbox relay in trouble: a move's request publishes nothing itself; work committed
while the relay is down, while its database connection is cut, or while Redis is down
reaches the SMTP server once it recovers, with no beat sweeping behind it, each email
once."""
from __future__ import annotations

import signal
import time
from collections import Counter

from sqlalchemy import text

from service.db import transaction
from tests.conftest import Player, start_game
from tests.faults.conftest import wait_for
from tests.faults.test_redis_outage import owed_rows, play_one
from workers.app import mail_queue
from workers.compose import message_id

# Longer than any wait of the relay's (reconnection, catch-up retries) on a loaded machine.
RECOVERY_SECONDS = 90


def two_players(stack):
    make = lambda name: Player(stack.app, f"{name}-{time.monotonic_ns()}@example.org")  # noqa: E731
    players, game = start_game(make, 2)
    return players, game["id"], {p.email for p in players}


def all_sent_once(stack, emails: set[str]) -> bool:
    rows = owed_rows(stack.engine, emails)
    if not rows or not all(r.sent_at for r in rows):
        return False
    sent = Counter(m["Message-ID"] for m in stack.inbox.messages)
    counts = [sent[message_id(r.message_id, stack.settings.mail_domain)] for r in rows]
    assert all(count == 1 for count in counts), counts
    return True


def play_until_an_email_is_owed(stack, players, gid: int, emails: set[str]) -> None:
    owed = len(owed_rows(stack.engine, emails))
    while len(owed_rows(stack.engine, emails)) == owed:
        play_one(players, gid)


def test_work_committed_while_the_relay_is_down_is_handed_over_when_it_starts(fault_stack):
    stack = fault_stack
    stack.relay.kill()
    stack.relay.wait(timeout=10)
    players, gid, emails = two_players(stack)
    play_until_an_email_is_owed(stack, players, gid, emails)
    broker = stack.redis.client()
    assert broker.llen(mail_queue(stack.settings.queue)) == 0, "the request published to the broker itself"

    stack.worker()
    time.sleep(2)  # a worker with nothing handed to it sends nothing
    assert not any(r.sent_at for r in owed_rows(stack.engine, emails))
    stack.start_relay()  # its catch-up finds the rows
    wait_for(lambda: all_sent_once(stack, emails), RECOVERY_SECONDS, "the restarted relay's catch-up to send them")


def test_the_relay_reconnects_after_its_database_connection_is_cut(fault_stack):
    stack = fault_stack
    stack.worker()
    players, gid, emails = two_players(stack)
    wait_for(lambda: all_sent_once(stack, emails), RECOVERY_SECONDS, "the invitations' emails")

    with transaction(stack.engine) as db:  # as a PostgreSQL restart would
        cut = db.connection().execute(text(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND query LIKE 'LISTEN%'")).scalars().all()
    assert cut == [True]
    play_until_an_email_is_owed(stack, players, gid, emails)
    wait_for(lambda: all_sent_once(stack, emails), RECOVERY_SECONDS, "the reconnected relay to send the move's email")
    assert stack.relay.poll() is None
    assert b"reconnecting" in stack.log_of[stack.relay].read_bytes()


def test_work_committed_while_redis_is_down_is_handed_over_once_it_is_back(fault_stack):
    stack = fault_stack
    stack.worker()
    players, gid, emails = two_players(stack)
    wait_for(lambda: all_sent_once(stack, emails), RECOVERY_SECONDS, "the invitations' emails")

    stack.redis.kill(signal.SIGKILL)
    play_until_an_email_is_owed(stack, players, gid, emails)
    wait_for(lambda: b"catching up later" in stack.log_of[stack.relay].read_bytes(), RECOVERY_SECONDS,
             "the relay to find the broker down")
    stack.redis.start()  # empty: the hand-over that failed is made again from the tables
    wait_for(lambda: all_sent_once(stack, emails), RECOVERY_SECONDS, "the relay to catch up once Redis is back")
    assert stack.relay.poll() is None
