"""A flood of received mail waits in a queue of its own: with the Procfile's workers
as real processes (`worker` with `mailer`, and `replies`), Redis, PostgreSQL and an
SMTP server, a deadline falling due behind 4,000 queued replies fires, and its email
goes out, while the flood is still being worked through."""
from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from datetime import timedelta

import pytest
from sqlmodel import col, func, select

from service.app import create_app
from service.config import Settings
from service.db import transaction
from service.inbound_store import store_message
from service.models import Game, InboundMail
from service.reply_address import ReplyToken, reply_address
from tests.conftest import Player
from tests.workers.conftest import running_relay
from workers.app import bots_queue, inbound_queue, mail_queue
from workers.wiring import start_dispatcher

FLOOD_MESSAGES, RECIPIENTS = 40, 100  # 4,000 stored replies, each a task
# Bounds on waits for work that takes a second or two; reached only if it never comes.
SETTLE_SECONDS = 300


def wait_for(condition, what: str, timeout: float = SETTLE_SECONDS):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture
def stack(database_url, smtp_server, redis_client, tmp_path):
    queue = f"turnpost-test-{uuid.uuid4().hex[:12]}"
    settings = Settings(database_url=database_url, redis_url="redis://127.0.0.1:6379/0", smtp_url=smtp_server.url,
                        base_url="http://turnpost.test", secret_key="flood-secret", queue=queue, maildir=tmp_path,
                        sign_in_limit="1000 per minute")
    app = create_app(settings)
    app.config["TESTING"] = True
    start_dispatcher(app)
    env = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": settings.redis_url, "SMTP_URL": smtp_server.url,
           "SECRET_KEY": "flood-secret", "BASE_URL": "http://turnpost.test", "TURNPOST_QUEUE": queue}
    processes = []

    def worker(*queues: str) -> None:
        processes.append(subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "workers.app", "worker", "--pool=solo", "-Q", ",".join(queues),
             "--loglevel=warning", "--without-gossip", "--without-mingle", "--without-heartbeat"],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))

    with running_relay(app):
        yield type("Stack", (), {"app": app, "settings": settings, "worker": staticmethod(worker),
                                 "inbox": smtp_server, "engine": app.extensions["turnpost"]["database"],
                                 "queue": queue, "redis": redis_client})()
    for process in processes:
        process.terminate()
    for process in processes:
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
    for key in redis_client.scan_iter(queue + "*"):
        redis_client.delete(key)


def flood(stack) -> list[int]:
    """4,000 stored replies, as one sender's transactions of 100 recipients would
    leave them: signed addresses of games that do not exist (processing each reads
    and parses it, then refuses it)."""
    text = "I would like to play on, here is what I think about the board.\r\n" * 600
    ids = []
    for message in range(FLOOD_MESSAGES):
        raw = (f"From: flood@example.org\r\nSubject: Re: your decision\r\nMessage-ID: <{uuid.uuid4().hex}@flood>\r\n"
               f"\r\ntile red F7\r\n{text}").encode()
        first_game = 10_000_000 + message * RECIPIENTS
        recipients = [reply_address(stack.settings.secret_key, stack.settings.mail_domain,
                                    ReplyToken(first_game + n, 0, 1, 1)) for n in range(RECIPIENTS)]
        ids += store_message(stack.engine, raw, recipients, "flood@example.org")
    return ids


def unprocessed(stack, ids: list[int]) -> int:
    with transaction(stack.engine) as db:
        return db.exec(select(func.count()).select_from(InboundMail).where(
            col(InboundMail.id).in_(ids), col(InboundMail.processed_at).is_(None))).one()


def test_a_deadline_behind_a_flood_of_inbound_mail_fires_and_mails_while_the_flood_waits(stack):
    from workers.tasks import sweep_deadlines

    ann = Player(stack.app, f"ann-{uuid.uuid4().hex[:8]}@example.org")
    bob = Player(stack.app, f"bob-{uuid.uuid4().hex[:8]}@example.org")
    game = ann.post("/api/games", json={"game": "tigris", "players": 2, "invite": [bob.email],
                                         "time_control": {"initial_seconds": 2 * 86400, "cap_seconds": 3 * 86400}}).json
    game = bob.post(f"/api/games/{game['id']}/accept", json={"version": game["version"]}).json
    seat = int(next(iter(game["pending"])))  # seats in order of joining
    late, waiting = (ann, bob)[seat], (ann, bob)[1 - seat]
    with transaction(stack.engine) as db:
        started = db.get(Game, game["id"]).started_at
    stack.worker(stack.queue, mail_queue(stack.queue))  # the Procfile's `worker` and `mailer`
    stack.worker(inbound_queue(stack.queue))  # its `replies`
    wait_for(lambda: any(m["To"] == late.email for m in stack.inbox.messages), "the first decision email")

    ids = flood(stack)
    dispatcher = stack.app.extensions["turnpost"]["dispatcher"]
    for inbound_id in ids:  # as the inbound SMTP server hands each on
        dispatcher.inbound(inbound_id)
    queued_at = time.monotonic()
    sweep_deadlines.delay((started + timedelta(hours=49)).timestamp())  # the first decision's time is up

    def deadline_mail():
        return any(m["To"] == waiting.email and "deadline passed" in m["Subject"] for m in stack.inbox.messages)

    wait_for(deadline_mail, "the deadline-passed email")
    mailed_after, left = time.monotonic() - queued_at, unprocessed(stack, ids)
    print(f"deadline email {mailed_after:.1f} s after the sweep; {left} of {len(ids)} flooded replies still waiting")
    assert left > 0, "the deadline waited for the whole flood"
    wait_for(lambda: unprocessed(stack, ids) < left, "the replies worker to work through the flood")


def test_the_procfile_runs_a_process_for_each_queue():
    from pathlib import Path

    procfile = dict(line.split(": ", 1) for line in
                    (Path(__file__).resolve().parents[2] / "Procfile").read_text().splitlines() if line)
    queues = {name: command.split("--queues=")[1].split()[0].replace("${TURNPOST_QUEUE:-turnpost}", "turnpost")
              for name, command in procfile.items() if "--queues=" in command}
    assert queues == {"worker": "turnpost", "mailer": mail_queue("turnpost"), "replies": inbound_queue("turnpost"),
                      "bots": bots_queue("turnpost")}
