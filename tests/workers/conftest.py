"""Real services for the worker tests: an aiosmtpd server in this process and the
local Redis, each test with its own key prefix."""
from __future__ import annotations

import os
import socket
import threading
import uuid
from contextlib import contextmanager
from email import message_from_bytes
from email.policy import default

import pytest
import redis
from aiosmtpd.controller import Controller

REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


class Inbox:
    """Collects every message the SMTP server accepted."""

    def __init__(self):
        self.messages = []

    async def handle_DATA(self, server, session, envelope):
        self.messages.append(message_from_bytes(envelope.content, policy=default))
        return "250 Message accepted for delivery"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def smtp_server():
    inbox = Inbox()
    inbox.port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=inbox.port)
    controller.start()
    inbox.url = f"smtp://127.0.0.1:{inbox.port}"
    inbox.controller = controller
    yield inbox
    inbox.controller.stop()


@pytest.fixture
def redis_client():
    client = redis.Redis.from_url(REDIS_URL)
    try:
        client.ping()
    except redis.ConnectionError as exc:
        pytest.fail(f"MISSING: Redis at {REDIS_URL} is needed by the worker tests ({exc})")
    yield client
    client.close()


@pytest.fixture
def key_prefix(redis_client):
    prefix = f"test:{uuid.uuid4().hex}:"
    yield prefix
    for key in redis_client.scan_iter(prefix + "*"):
        redis_client.delete(key)


@contextmanager
def running_relay(app):
    """The outbox relay on a thread of this process (`turnpost relay`'s loop), listening
    before the test goes on, so the app's committed work reaches Celery as in production.
    It catches up on nothing: the rows other tests left owed in the database stay theirs."""
    from workers.outbox_relay import OutboxRelay

    state = app.extensions["turnpost"]
    listening = threading.Event()
    relay = OutboxRelay(state["database"], state["settings"].queue, state["dispatcher"], on_listening=listening.set,
                        catch_up_seconds=0)
    thread = threading.Thread(target=relay.run, name="outbox-relay", daemon=True)
    thread.start()
    try:
        assert listening.wait(60), "the outbox relay did not start listening"
        yield relay
    finally:
        relay.stop()
        thread.join(timeout=30)
