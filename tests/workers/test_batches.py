"""Deliveries in batches: one statement claims the batch, then each row is composed, sent
and marked on its own, so a refused recipient fails only its own row, and a sender killed
mid-batch loses nothing and sends again at most the one email it was sending."""
from __future__ import annotations

import dataclasses
import os
import signal
import time
import uuid
from collections import Counter
from datetime import timedelta

from sqlalchemy import event
from sqlmodel import select

from service.config import Settings
from service.db import make_engine, transaction
from service.migrate import upgrade
from service.models import Notification, User, utcnow
from tests.workers.test_end_to_end import STALL_SECONDS, stack, wait_while_progressing  # noqa: F401  (fixtures)
from tests.workers.test_retries import moody, row, settings, sign_in_row  # noqa: F401  (fixtures)
from workers.app import mail_queue
from workers.compose import message_id
from workers.delivery import MaildirTransport, deliver_many, unsent_ids
from workers.dispatch import MAIL_BATCH
from workers.mail import SmtpSender


def test_a_refused_recipient_fails_only_its_own_row(app, settings, moody):  # noqa: F811
    engine = app.extensions["turnpost"]["database"]
    # A retry far off: the second batch below finds the refused row not yet due, however slow the machine.
    settings = dataclasses.replace(settings, mail_retry_seconds=600, mail_retry_max_seconds=600)
    tag = uuid.uuid4().hex[:8]
    emails = [f"batch{n}-{tag}@example.org" for n in range(5)]
    moody.replies[emails[1]] = "550 5.1.1 no such user"
    moody.replies[emails[3]] = "451 4.3.0 try again later"
    with transaction(engine) as db:
        db.add(User(email=emails[1], name="Gone"))
    ids = [sign_in_row(engine, email) for email in emails]
    missing = max(ids) + 1000
    outcomes = deliver_many(engine, settings, [*ids, missing], moody.sender)
    assert outcomes == {ids[0]: "sent", ids[1]: "dead", ids[2]: "sent", ids[3]: "retry", ids[4]: "sent",
                        missing: "missing"}
    assert sorted(m["To"] for m in moody.messages) == sorted(emails[n] for n in (0, 2, 4))
    assert [row(engine, rid).attempts for rid in ids] == [1] * 5
    assert "550" in row(engine, ids[1]).last_error and row(engine, ids[3]).next_attempt_at is not None
    with transaction(engine) as db:  # the refused address takes no more game mail
        assert db.exec(select(User).where(User.email == emails[1])).one().bouncing_since is not None
    # The same batch again (a task run twice): nothing sent again, nothing tried early.
    again = deliver_many(engine, settings, ids, moody.sender)
    assert again == {ids[0]: "already_sent", ids[1]: "dead", ids[2]: "already_sent", ids[3]: "not_due",
                     ids[4]: "already_sent"}
    assert len(moody.messages) == 3


def test_a_sender_killed_mid_batch_loses_nothing_and_repeats_one_email(app, settings, moody):  # noqa: F811
    engine = app.extensions["turnpost"]["database"]
    settings = dataclasses.replace(settings, mail_claim_seconds=5)  # outlasts the child's work on a loaded machine
    tag = uuid.uuid4().hex[:8]
    ids = [sign_in_row(engine, f"kill{n}-{tag}@example.org") for n in range(5)]
    url = f"smtp://127.0.0.1:{moody.sender.port}"
    child = os.fork()
    if child == 0:  # the sender, killed once the server accepted its third email, before marking it sent
        try:
            engine.dispose(close=False)  # the parent's connections stay the parent's
            deliver_many(engine, settings, ids, DyingTransport(SmtpSender(url, timeout=5), accepted_before_death=3))
        finally:
            os._exit(1)  # never reached when killed; never back into pytest otherwise
    _, status = os.waitpid(child, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    assert [row(engine, rid).sent_at is not None for rid in ids] == [True, True, False, False, False]
    assert set(unsent_ids(engine, older_than_seconds=0)).isdisjoint(ids)  # held while the claim lasts
    claimed_until = max(row(engine, rid).claimed_until for rid in ids[2:])
    time.sleep(max(0.0, (claimed_until - utcnow()).total_seconds()) + 0.1)
    left = [rid for rid in unsent_ids(engine, older_than_seconds=0) if rid in ids]
    assert left == ids[2:]
    assert deliver_many(engine, settings, left, moody.sender) == {rid: "sent" for rid in left}
    received = Counter(m["Message-ID"] for m in moody.messages)
    sent = [message_id(row(engine, rid).message_id, settings.mail_domain) for rid in ids]
    assert received == Counter({**{mid: 1 for mid in sent}, sent[2]: 2})  # one duplicate, the email in flight


class DyingTransport:
    """Sends through `sender`, and kills its own process right after the server accepted
    the `accepted_before_death`-th message."""

    def __init__(self, sender: SmtpSender, accepted_before_death: int):
        self.sender, self.left = sender, accepted_before_death

    def send(self, message, envelope_from: str | None = None) -> None:
        self.sender.send(message, envelope_from)
        self.left -= 1
        if self.left == 0:
            os.kill(os.getpid(), signal.SIGKILL)


def test_the_batch_is_claimed_in_one_statement(app, settings, moody):  # noqa: F811
    engine = app.extensions["turnpost"]["database"]
    tag = uuid.uuid4().hex[:8]
    ids = [sign_in_row(engine, f"claim{n}-{tag}@example.org") for n in range(4)]
    claims = []

    def count(conn, cursor, statement, parameters, context, executemany):
        if statement.lstrip().upper().startswith("UPDATE NOTIFICATION") and "attempts" in statement:
            claims.append(statement)

    event.listen(engine, "before_cursor_execute", count)
    try:
        assert deliver_many(engine, settings, ids, moody.sender) == {rid: "sent" for rid in ids}
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert len(claims) == 1
    with transaction(engine) as db:
        assert all(db.get(Notification, rid).sent_at is not None for rid in ids)


def test_the_dispatcher_publishes_one_task_per_batch_and_a_worker_sends_each_email_once(stack):  # noqa: F811
    from service.api.accounts import request_sign_in

    ids = []
    with transaction(stack.engine) as db:
        for n in range(MAIL_BATCH * 2 + 5):
            _, work = request_sign_in(db, f"dispatch{n}-{uuid.uuid4().hex[:6]}@example.org", 30)
            ids.extend(work.ids[0])
    stack.app.extensions["turnpost"]["dispatcher"].dispatch(ids, [])
    queue = mail_queue(stack.settings.queue)
    assert stack.redis.llen(queue) == 3  # 20, 20 and 5 rows
    with stack.worker():
        wait_while_progressing(lambda: stack.redis.llen(queue) == 0 and all(
            row(stack.engine, rid).sent_at for rid in ids), lambda: len(stack.inbox.messages), STALL_SECONDS,
            what="every row sent")
    received = Counter(m["Message-ID"] for m in stack.inbox.messages)
    assert [received[message_id(row(stack.engine, rid).message_id, stack.settings.mail_domain)]
            for rid in ids] == [1] * len(ids)


def test_a_batch_on_sqlite_the_embedded_default(tmp_path):
    url = f"sqlite:///{tmp_path / 'turnpost.db'}"
    upgrade(url)
    engine = make_engine(url)
    settings = Settings(database_url=url, redis_url=None, smtp_url=None, secret_key="sqlite-test",
                        maildir=tmp_path / "mail")
    ids = [sign_in_row(engine, f"lite{n}@example.org") for n in range(3)]
    ids.append(sign_in_row(engine, "held@example.org", claimed_until=utcnow() + timedelta(minutes=5), attempts=1))
    transport = MaildirTransport(settings.maildir)
    missing = max(ids) + 1
    assert deliver_many(engine, settings, [*ids, missing], transport) == {
        ids[0]: "sent", ids[1]: "sent", ids[2]: "sent", ids[3]: "in_flight", missing: "missing"}
    assert deliver_many(engine, settings, ids[:1], transport) == {ids[0]: "already_sent"}
    assert sorted(message["To"] for message in transport.box) == [f"lite{n}@example.org" for n in range(3)]
    engine.dispose()
