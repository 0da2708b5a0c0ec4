"""The outbox relay: hands the work that web requests committed to Celery.

A request that changes a game commits its notification and deadline rows and, in the
same transaction, announces their ids on a PostgreSQL channel (`service.tasks.announce`:
a NOTIFY is delivered at the commit, and never for a transaction rolled back). The
relay LISTENs on that channel and hands what arrived since its last look to the
dispatcher in one batch (`CeleryDispatcher.dispatch`): the request never waits for the
broker, and the broker failing after a commit is the relay's concern, not the player's.

Nothing is lost when an announcement is: at its start, after every reconnection and
after a hand-over that failed, the relay catches up from the tables (the rows never
tried and the open deadlines of the last `TURNPOST_RELAY_CATCH_UP_SECONDS`, 10 minutes),
and beat's sweeps take what is older. A
row handed over twice is sent once, a deadline fired twice fires once.

One relay of a queue is active at a time: it holds a PostgreSQL advisory lock on its
listening connection, and a second relay started beside it stands by until that
connection ends (a crash, a lost host), then takes over with a catch-up.
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import threading
import time
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta

import psycopg
from psycopg import sql
from sqlalchemy import bindparam, select
from sqlalchemy.engine import Engine

from service.db import transaction
from service.models import utcnow
from service.rows import NOTIFICATION
from service.tasks import relay_channel
from workers import deadlines

log = logging.getLogger(__name__)

# How long one look at the channel waits for the first announcement.
WAIT_SECONDS = 1.0
# How often a relay standing by asks for the active relay's lock.
STANDBY_SECONDS = 2.0
# After a failed hand-over, how often the relay tries to catch up.
RETRY_SECONDS = 2.0
# Reconnection after a lost connection: waits doubling from the first to the last.
RECONNECT_SECONDS = (0.5, 5.0)
# How far back the catch-up looks (rows written, deadlines overdue): a relay down for
# longer leaves what is older to beat's sweeps.
CATCH_UP_SECONDS = float(os.environ.get("TURNPOST_RELAY_CATCH_UP_SECONDS", "600"))
# Catch-up hands deadlines on in slices of this many.
CATCH_UP_SLICE = 1000
_OUTBOX = NOTIFICATION.c
_NEVER_TRIED = select(_OUTBOX.id).where(
    _OUTBOX.created_at >= bindparam("since"), _OUTBOX.attempts == 0, _OUTBOX.sent_at.is_(None),
    _OUTBOX.dead_at.is_(None)).order_by(_OUTBOX.id)


class OutboxRelay:
    """Relays the work announced on `queue`'s channel to `dispatcher` (a CeleryDispatcher)."""

    def __init__(self, engine: Engine, queue: str, dispatcher, on_listening: Callable[[], None] | None = None,
                 catch_up_seconds: float = CATCH_UP_SECONDS):
        self.engine, self.dispatcher, self.catch_up_seconds = engine, dispatcher, catch_up_seconds
        self.channel = relay_channel(queue)
        self.lock_key = advisory_lock_key(self.channel)
        self.on_listening = on_listening
        self.behind = False  # a hand-over failed: catch up once the broker answers
        self.stopping = threading.Event()

    def run(self) -> None:
        """Listen, and reconnect after a lost connection, until `stop`."""
        pause = RECONNECT_SECONDS[0]
        while not self.stopping.is_set():
            try:
                with psycopg.connect(self._conninfo(), autocommit=True, keepalives=1, keepalives_idle=30,
                                     keepalives_interval=10, keepalives_count=3) as connection:
                    if not self._take_the_lead(connection):
                        return
                    connection.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self.channel)))
                    pause = RECONNECT_SECONDS[0]
                    # Listening first: a row committed from here on is announced, one
                    # committed before is found by the catch-up (or both: no harm).
                    self.behind = not self.catch_up()
                    log.info("relaying the work announced on %s", self.channel)
                    if self.on_listening is not None:
                        self.on_listening()
                    self._relay(connection)
            except psycopg.OperationalError as err:
                log.warning("the relay's database connection failed (%s); reconnecting in %s s", err, pause)
                self.stopping.wait(pause)
                pause = min(pause * 2, RECONNECT_SECONDS[1])

    def stop(self) -> None:
        self.stopping.set()

    def _take_the_lead(self, connection: psycopg.Connection) -> bool:
        """Wait for the queue's advisory lock on `connection` (held until it closes);
        False if the relay was stopped first."""
        said = False
        while not self.stopping.is_set():
            if connection.execute("SELECT pg_try_advisory_lock(%s)", (self.lock_key,)).fetchone() == (True,):
                return True
            if not said:
                log.info("another relay is active on %s; standing by", self.channel)
                said = True
            self.stopping.wait(STANDBY_SECONDS)
        return False

    def _conninfo(self) -> str:
        return self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)

    def _relay(self, connection: psycopg.Connection) -> None:
        last_try = time.monotonic()
        while not self.stopping.is_set():
            payloads = [n.payload for n in connection.notifies(timeout=WAIT_SECONDS, stop_after=1)]
            if payloads:  # and whatever else has come meanwhile: one batch
                payloads += [n.payload for n in connection.notifies(timeout=0)]
                self.hand_over(payloads)
            if self.behind and time.monotonic() - last_try >= RETRY_SECONDS:
                last_try = time.monotonic()
                self.behind = not self.catch_up()

    def hand_over(self, payloads: Iterable[str]) -> bool:
        """Dispatch the announced rows in one batch; False if that failed (the relay
        then catches up from the tables once it can)."""
        notification_ids: list[int] = []
        due: list[tuple[int, float]] = []
        for payload in payloads:
            notifications, announced = json.loads(payload)
            notification_ids += notifications
            due += [(deadline_id, due_at) for deadline_id, due_at in announced]
        try:
            self.dispatcher.dispatch(notification_ids, due)
        except Exception:  # noqa: BLE001 (Redis down, out of memory: the catch-up retries)
            log.exception("handing on notifications %s and deadlines %s failed; catching up later",
                          notification_ids, [d for d, _ in due])
            self.behind = True
            return False
        return True

    def catch_up(self) -> bool:
        """Hand on, from the tables, what may not have been, back to `catch_up_seconds`
        ago (older work is the sweeps'): the rows never tried that were written since
        (only while the mail queue is empty, else a row may merely wait its turn there)
        and the open deadlines not overdue since before (bots' turns only while the
        bots' queue is empty, for the same reason). False if the broker could not be
        reached."""
        try:
            since = utcnow() - timedelta(seconds=self.catch_up_seconds)
            if not self.dispatcher.mail_backlog():
                owed = never_tried_since(self.engine, since)
                if owed:
                    self.dispatcher.dispatch(owed, [])
            open_ = [(deadline_id, due_at) for deadline_id, due_at in deadlines.open_deadlines(self.engine)
                     if due_at >= since.timestamp()]
            waiting = self.dispatcher.bots_backlog() > 0
            for start in range(0, len(open_), CATCH_UP_SLICE):
                part = open_[start:start + CATCH_UP_SLICE]
                if waiting:
                    bots = deadlines.bot_turns(self.engine, [deadline_id for deadline_id, _ in part])
                    part = [entry for entry in part if entry[0] not in bots]
                self.dispatcher.dispatch([], part)
        except Exception:  # noqa: BLE001
            log.exception("the relay could not catch up; trying again in %s s", RETRY_SECONDS)
            return False
        return True


def never_tried_since(engine: Engine, since: datetime) -> list[int]:
    """The outbox rows written since `since` that no delivery has tried (a claim counts
    an attempt) and that are not sent."""
    with transaction(engine) as db:
        return list(db.connection().execute(_NEVER_TRIED, {"since": since}).scalars())


def advisory_lock_key(channel: str) -> int:
    """A stable signed 64-bit key for `channel` (the advisory lock's key space)."""
    return int.from_bytes(hashlib.blake2b(channel.encode(), digest_size=8).digest(), "big", signed=True)

