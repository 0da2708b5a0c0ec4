"""How the web service hands committed work on: to Celery and the Redis deadline
mirror when REDIS_URL is set, else to threads inside the web process."""
from __future__ import annotations

import itertools
import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

from service import inbound_store
from workers import deadlines, delivery, inbound

log = logging.getLogger(__name__)
# The most notifications one delivery task takes: a batch is claimed in one statement
# and sent over one connection; more per task would keep a backlog from spreading
# over the mailer's processes.
MAIL_BATCH = 20


class CeleryDispatcher:
    """Delivery tasks for Celery workers; deadlines into the Redis mirror."""

    def __init__(self, settings, engine):
        from workers.app import configure

        configure(settings)
        self.settings, self.engine = settings, engine
        self.queue = deadline_queue(settings)

    def dispatch(self, notification_ids: list[int], due: list[tuple[int, float]]) -> None:
        """Deliver the notifications; mirror the (deadline id, due timestamp) pairs,
        and hand those already due to a worker at once rather than at the next sweep
        (the mirrored copy fires as a no-op if that worker was first); a bot's turn goes
        to the bots' queue. The tasks and the mirror's ZADD go to Redis in one pipeline
        (kombu's publish batch, see `workers.broker`)."""
        from workers.app import celery
        from workers.tasks import deliver_notifications, handle_deadlines, play_bot

        ready = due_now(due)
        bots = deadlines.bot_turns(self.engine, ready)
        ready = [deadline_id for deadline_id in ready if deadline_id not in bots]
        if notification_ids or ready or bots:
            with celery.producer_or_acquire() as producer, producer.batch():
                channel = producer.channel
                channel.open_batch = None  # kombu opens the batch at the first publish
                for start in range(0, len(notification_ids), MAIL_BATCH):
                    deliver_notifications.apply_async((notification_ids[start:start + MAIL_BATCH],),
                                                      producer=producer)
                if ready:
                    handle_deadlines.apply_async((ready,), producer=producer)
                for deadline_id in bots:
                    play_bot.apply_async((deadline_id,), producer=producer)
                batch = getattr(channel, "open_batch", None)
                if batch is not None:
                    # A bot's turn, in the same pipeline as its task, needs no mirror: a
                    # second copy would only queue it twice (recover_deadlines takes a lost one).
                    self.queue.add_many([entry for entry in due if entry[0] not in bots], batch.pipeline)
                    due = []
        self.queue.add_many(due)

    def inbound(self, inbound_id: int) -> None:
        """Process a stored reply (a lost task is made up by the inbound sweep)."""
        from workers.tasks import process_inbound

        process_inbound.delay(inbound_id)

    def mail_backlog(self) -> int:
        """How many delivery tasks wait in the mail queue."""
        from workers.app import mail_queue

        return self.queue.client.llen(mail_queue(self.settings.queue))

    def inbound_backlog(self) -> int:
        """How many received replies wait in the inbound queue."""
        from workers.app import inbound_queue

        return self.queue.client.llen(inbound_queue(self.settings.queue))

    def bots_backlog(self) -> int:
        """How many bots' turns wait in the bots' queue."""
        from workers.app import bots_queue

        return self.queue.client.llen(bots_queue(self.settings.queue))


def due_now(due: list[tuple[int, float]]) -> list[int]:
    """The ids of the deadlines (id, due timestamp) already due."""
    now = time.time()
    return [deadline_id for deadline_id, due_at in due if due_at <= now]


def deadline_queue(settings):
    import redis

    from workers.deadline_queue import DeadlineQueue

    client = redis.Redis.from_url(settings.redis_url, socket_connect_timeout=2, socket_timeout=5)
    return DeadlineQueue(client, prefix=settings.queue + ":")


class InProcessDispatcher:
    """The embedded default: deliveries on a worker thread right after the commit, and
    a sweeper thread that fires due deadlines and retries unsent mail."""

    def __init__(self, settings, engine, interval: float = 5.0):
        self.settings, self.engine, self.interval = settings, engine, interval
        self.transport = delivery.transport_for(settings)
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="turnpost-mail")
        # Deadlines due at once (bots' turns) fire here, apart from the mail.
        self.turns = ThreadPoolExecutor(max_workers=1, thread_name_prefix="turnpost-turns")
        self.stopping = threading.Event()
        self._waiting, self._counting = 0, threading.Lock()

    def dispatch(self, notification_ids: list[int], due: list[tuple[int, float]]) -> None:
        # Later deadlines need no hand-over: the sweeper reads them from the database.
        for start in range(0, len(notification_ids), MAIL_BATCH):
            self._submit(notification_ids[start:start + MAIL_BATCH])
        for deadline_id in due_now(due):
            self.turns.submit(self._fire, deadline_id)

    def _fire(self, deadline_id: int) -> None:
        try:
            self.dispatch(*deadlines.fire(self.engine, deadline_id, datetime.now(UTC)).ids)
        except Exception:  # the sweeper fires it again
            log.exception("firing deadline %s failed", deadline_id)

    def inbound(self, inbound_id: int) -> None:
        """Process a stored reply on the mail thread, then deliver its answer."""
        self.pool.submit(self._process_inbound, inbound_id)

    def _process_inbound(self, inbound_id: int) -> None:
        try:
            self.dispatch(*inbound.process(self.engine, self.settings, inbound_id).ids)
        except Exception:  # the sweeper retries it
            log.exception("processing inbound message %s failed", inbound_id)

    def mail_backlog(self) -> int:
        """How many deliveries wait for the mail thread or are under way."""
        return self._waiting

    def _submit(self, notification_ids: list[int]) -> None:
        with self._counting:
            self._waiting += len(notification_ids)
        self.pool.submit(self._deliver, notification_ids)

    def _deliver(self, notification_ids: list[int]) -> None:
        try:
            delivery.deliver_many(self.engine, self.settings, notification_ids, self.transport)
        except Exception:  # the sweeper retries them
            log.exception("delivering notifications %s failed", notification_ids)
        finally:
            with self._counting:
                self._waiting -= len(notification_ids)

    def sweep_once(self, now: datetime | None = None) -> None:
        now = now or datetime.now(UTC)
        for deadline_id in deadlines.due_ids(self.engine, now):
            self.dispatch(*deadlines.fire(self.engine, deadline_id, now).ids)
        # As in the Celery sweep: only once the deliveries have drained, else a row
        # merely waiting its turn would be queued again behind itself.
        if not self.mail_backlog():
            unsent = delivery.unsent_ids(self.engine, older_than_seconds=60)
            while batch := list(itertools.islice(unsent, MAIL_BATCH)):
                self._submit(batch)
            for inbound_id in inbound_store.claim_lost(self.engine, older_than_seconds=60):
                self.inbound(inbound_id)

    def start(self) -> InProcessDispatcher:
        def loop():
            while not self.stopping.wait(self.interval):
                try:
                    self.sweep_once()
                except Exception:
                    log.exception("deadline sweep failed")

        threading.Thread(target=loop, name="turnpost-sweeper", daemon=True).start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        self.turns.shutdown(wait=True)
        self.pool.shutdown(wait=True)
