"""SMTP answers 451 for a while, then 550 for one address: a bounded number of
attempts, each temporarily refused email delivered once afterwards, and the refused
one dead and listed by `turnpost outbox`."""
from __future__ import annotations

import time
import uuid
from collections import Counter

from click.testing import CliRunner

from service.cli import main
from tests.faults.conftest import wait_for
from tests.faults.test_redis_outage import owed_rows

REFUSING_SECONDS = 10


def test_temporary_then_permanent_refusals(fault_stack, database_url):
    stack = fault_stack
    smtp = stack.inbox
    smtp.default_reply = "451 4.3.0 mailbox busy, try later"
    emails = [f"busy{n}-{uuid.uuid4().hex[:6]}@example.org" for n in range(3)]
    bounced = f"gone-{uuid.uuid4().hex[:6]}@example.org"
    stack.worker(), stack.beat()
    client = stack.app.test_client()
    for email in [*emails, bounced]:
        assert client.post("/api/sign-in", json={"email": email}).status_code == 202
    wait_for(lambda: smtp.tries, 60, "the worker's first attempt")  # it may start slowly on a busy machine
    time.sleep(REFUSING_SECONDS)
    tries_while_refusing = Counter(address for address, _ in smtp.tries)
    assert smtp.messages == []
    smtp.replies[bounced] = "550 5.1.1 no such mailbox"
    smtp.default_reply = "250 OK"

    everyone = {*emails, bounced}
    settled = lambda: all(r.sent_at or r.dead_at for r in owed_rows(stack.engine, everyone))  # noqa: E731
    wait_for(settled, 30, "every row sent or dead")
    rows = {r.email: r for r in owed_rows(stack.engine, everyone)}
    sent = Counter(m["Message-ID"] for m in smtp.messages)
    assert all(sent[rows[e].message_id] == 1 for e in emails)
    assert rows[bounced].dead_at is not None and sent[rows[bounced].message_id] == 0
    # Attempts 1, 2, 4, 4 s apart: at most five in ten seconds, not a retry chain per sweep.
    assert all(1 <= tries_while_refusing[e] <= 5 for e in everyone), tries_while_refusing
    assert sum(tries_while_refusing.values()) > len(everyone)  # and they were retried
    assert all(r.attempts <= 8 for r in rows.values())

    listing = CliRunner().invoke(main, ["outbox"],
                                 env={"DATABASE_URL": database_url, "SECRET_KEY": "k"}).output
    line = next(line for line in listing.splitlines() if bounced in line)
    assert line.startswith("dead") and "550" in line
