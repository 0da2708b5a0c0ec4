"""The outbox relay's hand-over on the real PostgreSQL and Redis: what a transaction
announces reaches the mail queue at its commit and not before (nor ever, if it rolls
back), and one too large for one NOTIFY is made in parts that all arrive."""
from __future__ import annotations

import base64
import json
import logging
import threading
import time
import uuid

import pytest
from sqlmodel import select, update

from service.app import create_app
from service.config import Settings
from service.db import transaction
from service.models import Notification, utcnow
from service.tasks import announce, relayed
from tests.workers.conftest import REDIS_URL, running_relay
from workers.app import mail_queue
from workers.outbox_relay import OutboxRelay
from workers.wiring import start_dispatcher


@pytest.fixture
def relayed_app(database_url, redis_client, tmp_path):
    queue = f"turnpost-test-{uuid.uuid4().hex[:12]}"
    app = create_app(Settings(database_url=database_url, redis_url=REDIS_URL, secret_key="relay-secret",
                              queue=queue, maildir=tmp_path))
    start_dispatcher(app)
    yield app
    with transaction(app.extensions["turnpost"]["database"]) as db:  # no later test's sweep sends them
        db.exec(update(Notification).where(Notification.id.in_(app.extensions.get("test rows", [])))
                .values(dead_at=utcnow(), last_error="a test's row"))
    for key in redis_client.scan_iter(queue + "*"):
        redis_client.delete(key)
    redis_client.delete(queue)


def queued_notification_ids(redis_client, queue: str) -> set[int]:
    """The notification ids in the mail queue's tasks (one id or a list of them per task)."""
    found: set[int] = set()
    for raw in redis_client.lrange(mail_queue(queue), 0, -1):
        args = json.loads(base64.b64decode(json.loads(raw)["body"]))[0]
        for arg in args:
            found.update(arg if isinstance(arg, list) else [arg])
    return found


def owed_rows(app, count: int) -> list[int]:
    with transaction(app.extensions["turnpost"]["database"]) as db:
        rows = [Notification(kind="sign_in", email=f"relay{n}@example.org", payload={},
                             message_id=f"<relay-{uuid.uuid4().hex}@t>") for n in range(count)]
        db.add_all(rows)
        db.flush()
        ids = [row.id for row in rows if row.id is not None]  # flushed: every row has its id
    app.extensions.setdefault("test rows", []).extend(ids)
    return ids


def wait_for(condition, what: str, timeout: float = 30.0):
    give_up = time.monotonic() + timeout
    while time.monotonic() < give_up:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def test_what_a_transaction_announces_is_handed_over_at_its_commit(relayed_app, redis_client):
    app, queue = relayed_app, relayed_app.extensions["turnpost"]["settings"].queue
    channel = relayed(app)
    assert channel == f"{queue}:work"
    with running_relay(app):
        ids = owed_rows(app, 3)
        with pytest.raises(RuntimeError), transaction(app.extensions["turnpost"]["database"]) as db:
            announce(db, channel, [ids[0]], [])
            raise RuntimeError("rolled back")
        with transaction(app.extensions["turnpost"]["database"]) as db:
            announce(db, channel, ids[1:], [])
            time.sleep(1)  # the relay looks every second: not before the commit
            assert not queued_notification_ids(redis_client, queue) & set(ids)
        wait_for(lambda: queued_notification_ids(redis_client, queue) & set(ids) == set(ids[1:]), "the hand-over")


def test_an_announcement_too_large_for_one_notify_arrives_in_parts(relayed_app, redis_client):
    app, queue = relayed_app, relayed_app.extensions["turnpost"]["settings"].queue
    with running_relay(app):
        ids = owed_rows(app, 2000)
        assert len(json.dumps([ids, []])) > 8000  # PostgreSQL refuses a payload this long
        with transaction(app.extensions["turnpost"]["database"]) as db:
            announce(db, relayed(app), ids, [])
        wait_for(lambda: set(ids) <= queued_notification_ids(redis_client, queue), "every part")
    with transaction(app.extensions["turnpost"]["database"]) as db:  # left to no worker: not sent
        assert not db.exec(select(Notification).where(Notification.id.in_(ids),
                                                      Notification.sent_at.is_not(None))).first()


def test_a_second_relay_stands_by_until_the_active_ones_connection_ends(relayed_app, redis_client, caplog):
    caplog.set_level(logging.INFO, logger="workers.outbox_relay")
    app, queue = relayed_app, relayed_app.extensions["turnpost"]["settings"].queue
    state = app.extensions["turnpost"]
    second_listening = threading.Event()
    second = OutboxRelay(state["database"], queue, state["dispatcher"], on_listening=second_listening.set,
                         catch_up_seconds=0)
    standby = threading.Thread(target=second.run, name="standby-relay", daemon=True)
    try:
        with running_relay(app):
            standby.start()
            wait_for(lambda: "another relay is active" in caplog.text, "the second relay to stand by")
            ids = owed_rows(app, 2)
            with transaction(state["database"]) as db:
                announce(db, relayed(app), ids, [])
            wait_for(lambda: set(ids) <= queued_notification_ids(redis_client, queue), "the hand-over")
            assert not second_listening.is_set()  # only the active relay listens, so hands over
        # The active relay stopped and closed its connection: the second takes over.
        assert second_listening.wait(30), "the standing-by relay did not take over"
        later = owed_rows(app, 1)
        with transaction(state["database"]) as db:
            announce(db, relayed(app), later, [])
        wait_for(lambda: set(later) <= queued_notification_ids(redis_client, queue), "the second's hand-over")
    finally:
        second.stop()
        standby.join(timeout=30)

