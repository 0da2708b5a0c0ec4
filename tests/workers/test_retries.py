"""Email retries are outbox rows, not task chains: one attempt in flight per row,
counted even when composing fails; bounded exponential backoff; a permanent failure
or the last attempt leaves the row dead, listed by `turnpost outbox`."""
from __future__ import annotations

import dataclasses
import time
import uuid
from datetime import timedelta

import pytest
from aiosmtpd.controller import Controller
from click.testing import CliRunner

from service.db import transaction
from service.models import Notification, utcnow
from tests.workers.conftest import Inbox, free_port
from workers.cli import main
from workers.delivery import deliver, retry_delay, unsent_ids
from workers.mail import SmtpSender


class MoodyServer(Inbox):
    """An SMTP server that answers RCPT with the reply set for the address."""

    def __init__(self):
        super().__init__()
        self.default_reply = "250 OK"
        self.replies: dict[str, str] = {}
        self.tries: list[str] = []

    async def handle_MAIL(self, server, session, envelope, address, mail_options):
        envelope.mail_from = address
        return "250 OK"

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if not self.tries or self.tries[-1][1] is not envelope:  # one per transaction
            self.tries.append((address, envelope))
        reply = self.replies.get(address, self.default_reply)
        if reply.startswith("250"):
            envelope.rcpt_tos.append(address)
        return reply


@pytest.fixture
def moody():
    server = MoodyServer()
    controller = Controller(server, hostname="127.0.0.1", port=free_port())
    controller.start()
    server.sender = SmtpSender(f"smtp://127.0.0.1:{controller.port}", timeout=5)
    yield server
    server.sender.close()
    controller.stop()


@pytest.fixture
def settings(app):
    return dataclasses.replace(app.extensions["turnpost"]["settings"], mail_max_attempts=3,
                               mail_retry_seconds=0.2, mail_retry_max_seconds=0.5)


def sign_in_row(engine, email: str, **fields) -> int:
    with transaction(engine) as db:
        row = Notification(kind="sign_in", email=email, message_id=f"<{uuid.uuid4().hex}@t>",
                           payload={"sign_in_url": "http://turnpost.test/s", "valid_minutes": 15}, **fields)
        db.add(row)
        db.flush()
        assert row.id is not None, "flushed"
        return row.id


def row(engine, notification_id) -> Notification:
    with transaction(engine) as db:
        found = db.get(Notification, notification_id)
    assert found is not None
    return found


def wait_until(moment) -> None:
    time.sleep(max(0.0, (moment - utcnow()).total_seconds()) + 0.05)


def test_temporary_failures_back_off_then_the_row_dies(app, settings, moody):
    engine = app.extensions["turnpost"]["database"]
    # Waits of seconds, so "not due yet" holds on a loaded machine; the test waits for each to pass.
    settings = dataclasses.replace(settings, mail_retry_seconds=2, mail_retry_max_seconds=3)
    email = f"busy-{uuid.uuid4().hex[:8]}@example.org"
    moody.replies[email] = "451 4.3.0 try again later"
    rid = sign_in_row(engine, email)
    assert deliver(engine, settings, rid, moody.sender) == "retry"
    first = row(engine, rid)
    assert first.attempts == 1 and first.claimed_until is None and "451" in first.last_error
    assert first.next_attempt_at > utcnow()
    # Not due yet: a second task (a sweep, a duplicate) tries nothing.
    assert deliver(engine, settings, rid, moody.sender) == "not_due"
    assert rid not in set(unsent_ids(engine, older_than_seconds=0))
    assert [a for a, _ in moody.tries].count(email) == 1
    wait_until(first.next_attempt_at)
    assert rid in set(unsent_ids(engine, older_than_seconds=0))
    assert deliver(engine, settings, rid, moody.sender) == "retry"
    second = row(engine, rid)
    assert (second.next_attempt_at - first.next_attempt_at).total_seconds() >= 3  # the wait grew, up to its cap
    wait_until(second.next_attempt_at)
    assert deliver(engine, settings, rid, moody.sender) == "dead"
    dead = row(engine, rid)
    assert dead.attempts == 3 and dead.dead_at is not None and dead.sent_at is None
    assert deliver(engine, settings, rid, moody.sender) == "dead"
    assert rid not in set(unsent_ids(engine, older_than_seconds=0))
    assert [a for a, _ in moody.tries].count(email) == 3 and moody.messages == []
    assert [retry_delay(settings, n) for n in (1, 2, 3, 9)] == [2, 3, 3, 3]  # doubling, capped


def test_a_temporary_failure_then_success_sends_once(app, settings, moody):
    engine = app.extensions["turnpost"]["database"]
    email = f"later-{uuid.uuid4().hex[:8]}@example.org"
    moody.replies[email] = "451 4.3.0 try again later"
    rid = sign_in_row(engine, email)
    assert deliver(engine, settings, rid, moody.sender) == "retry"
    del moody.replies[email]
    wait_until(row(engine, rid).next_attempt_at)
    assert deliver(engine, settings, rid, moody.sender) == "sent"
    assert deliver(engine, settings, rid, moody.sender) == "already_sent"
    assert [m["To"] for m in moody.messages] == [email]


def test_a_permanent_refusal_is_never_retried(app, settings, moody):
    engine = app.extensions["turnpost"]["database"]
    email = f"gone-{uuid.uuid4().hex[:8]}@example.org"
    moody.replies[email] = "550 5.1.1 no such user"
    rid = sign_in_row(engine, email)
    assert deliver(engine, settings, rid, moody.sender) == "dead"
    assert row(engine, rid).attempts == 1 and "550" in row(engine, rid).last_error
    assert rid not in set(unsent_ids(engine, older_than_seconds=0))


def test_one_delivery_in_flight_per_row(app, settings, moody):
    engine = app.extensions["turnpost"]["database"]
    rid = sign_in_row(engine, f"held-{uuid.uuid4().hex[:8]}@example.org",
                      claimed_until=utcnow() + timedelta(minutes=5), attempts=1)
    assert deliver(engine, settings, rid, moody.sender) == "in_flight"
    assert row(engine, rid).attempts == 1 and moody.tries == []
    assert rid not in set(unsent_ids(engine, older_than_seconds=0))
    # A claim left by a worker killed mid-delivery expires, and the row is taken again.
    with transaction(engine) as db:
        db.get(Notification, rid).claimed_until = utcnow() - timedelta(seconds=1)
    assert rid in set(unsent_ids(engine, older_than_seconds=0))
    assert deliver(engine, settings, rid, moody.sender) == "sent"


def test_attempts_count_when_composing_fails(app, settings, moody):
    engine = app.extensions["turnpost"]["database"]
    with transaction(engine) as db:
        broken = Notification(kind="sign_in", email=f"broken-{uuid.uuid4().hex[:8]}@example.org",
                              message_id=f"<{uuid.uuid4().hex}@t>", payload={})  # no link to compose
        db.add(broken)
        db.flush()
        rid = broken.id
    assert deliver(engine, settings, rid, moody.sender) == "retry"
    assert row(engine, rid).attempts == 1 and "KeyError" in row(engine, rid).last_error
    # An address of its own: tests/service/test_addresses.py checks that none like it is ever stored.
    unsendable = sign_in_row(engine, f'"a\u000bb-{uuid.uuid4().hex[:8]}"@example.com')
    assert deliver(engine, settings, unsendable, moody.sender) == "dead"
    assert row(engine, unsendable).attempts == 1


def test_the_outbox_command_lists_dead_and_retrying_rows_newest_first(app, settings, moody, database_url):
    engine = app.extensions["turnpost"]["database"]
    rids = []
    for name in ("older", "bounce"):
        email = f"{name}-{uuid.uuid4().hex[:8]}@example.org"
        moody.replies[email] = "550 5.1.1 no such user"
        rids.append(sign_in_row(engine, email))
        deliver(engine, settings, rids[-1], moody.sender)
    older, rid = rids
    result = CliRunner().invoke(main, ["outbox", "--limit", "1"],
                                env={"DATABASE_URL": database_url, "SECRET_KEY": "k"})
    assert result.exit_code == 0, result.output
    assert "dead:" in result.output.splitlines()[0]
    line = next(line for line in result.output.splitlines() if f"#{rid} " in line)
    assert line.startswith("dead") and email in line and "1 attempts" in line and "550" in line
    assert f"#{older} " not in result.output  # one row per state: the one that died last
