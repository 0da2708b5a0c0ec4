"""SMTP answers 451 for two minutes, then 550 for one address: a bounded number of
attempts, each temporarily refused email delivered once afterwards, and the refused
one dead and listed by `turnpost outbox`."""
from __future__ import annotations

import time
import uuid
from collections import Counter

from click.testing import CliRunner

from tests.faults.conftest import wait_for
from tests.faults.test_redis_outage import owed_rows
from workers.cli import main
from workers.compose import message_id

REFUSING_SECONDS = 120
# Retries 2, 4, 8, then 16 s apart (production: 1, 2, 4 ... minutes, at most an hour),
# so the two minutes see several attempts per row and still leave it alive.
RETRY_SECONDS, RETRY_MAX_SECONDS, MAX_ATTEMPTS = 2, 16, 16
# Attempts at 0, 2, 6, 14, 30, 46 ... 110 s: ten at most in the window.
MOST_ATTEMPTS_REFUSED = 10


def test_temporary_then_permanent_refusals(fault_stack):
    stack = fault_stack
    smtp = stack.inbox
    smtp.default_reply = "451 4.3.0 mailbox busy, try later"
    stack.env.update(MAIL_RETRY_SECONDS=str(RETRY_SECONDS), MAIL_RETRY_MAX_SECONDS=str(RETRY_MAX_SECONDS),
                     MAIL_MAX_ATTEMPTS=str(MAX_ATTEMPTS))
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
    wait_for(settled, 30 + RETRY_MAX_SECONDS, "every row sent or dead")
    rows = {r.email: r for r in owed_rows(stack.engine, everyone)}
    received = Counter(m["Message-ID"] for m in smtp.messages)
    sent = {email: received[message_id(row.message_id, stack.settings.mail_domain)] for email, row in rows.items()}
    assert all(sent[e] == 1 for e in emails)
    assert rows[bounced].dead_at is not None and sent[bounced] == 0
    # Bounded by the backoff, not a retry chain per sweep (the sweep runs every second).
    assert all(3 <= tries_while_refusing[e] <= MOST_ATTEMPTS_REFUSED for e in everyone), tries_while_refusing
    assert all(rows[e].attempts <= MOST_ATTEMPTS_REFUSED + 1 for e in emails)  # delivered before MAX_ATTEMPTS

    listing = CliRunner().invoke(main, ["outbox"],
                                 env={"DATABASE_URL": stack.settings.database_url, "SECRET_KEY": "k"}).output
    line = next(line for line in listing.splitlines() if bounced in line)
    assert line.startswith("dead") and "550" in line
