"""Celery tasks. Each takes ids, is idempotent, and is safe to run twice."""
from __future__ import annotations

import itertools
import logging
import os
import time
from datetime import UTC, datetime, timedelta
from functools import lru_cache

from celery.exceptions import SoftTimeLimitExceeded
from celery.signals import worker_init, worker_process_init

from service import inbound_store
from service.bots import CUT_SHORT_STAND_IN
from service.config import Settings
from service.db import make_engine
from workers import deadlines, delivery, inbound, warm_up
from workers.app import BOT_HARD_SECONDS, BOT_SOFT_SECONDS, celery, mail_queue
from workers.dispatch import MAIL_BATCH, CeleryDispatcher
from workers.relay_check import exit_unless_relay_usable

log = logging.getLogger(__name__)
DEADLINE_BATCH = 20
# How long a bot turn's tries are remembered: far longer than any wait for a worker.
BOT_TRIES_SECONDS = 86400
# How long a row may wait for its first delivery before the outbox sweep sends it.
OUTBOX_GRACE_SECONDS = float(os.environ.get("TURNPOST_OUTBOX_GRACE_SECONDS", "60"))


@lru_cache(maxsize=1)
def _runtime():
    """Per worker process: settings, database engine, mail transport (kept open)."""
    settings = Settings()
    return settings, make_engine(settings.database_url), delivery.transport_for(settings)


def _delivers_mail(app) -> bool:
    return mail_queue(app.conf.task_default_queue) in app.amqp.queues.consume_from


@worker_init.connect
def _ready_before_fork(sender, **_):
    """A worker that delivers mail checks its relay (one that cannot be used ends the
    worker, saying why: workers/relay_check.py), then draws each game once in its main
    process, so that the processes it forks start with the drawings ready
    (workers/warm_up.py)."""
    if _delivers_mail(sender.app):
        exit_unless_relay_usable(Settings())
        warm_up.draw_every_game()


@worker_process_init.connect
def _ready_process(**_):
    """Each new process opens its connections before its first task. A setting that
    cannot work is left for the first task to report: a process that died here would
    only be started again, and again."""
    try:
        settings, engine, transport = _runtime()
    except Exception:  # noqa: BLE001
        log.exception("the worker's settings could not be applied at start")
        return
    if _delivers_mail(celery):
        from workers.picture_cache import cache_for

        warm_up.open_connections(engine, transport, cache_for(settings))
    else:
        warm_up.open_connections(engine)


@celery.task
def deliver_notifications(notification_ids: list[int]) -> list[str]:
    """One attempt at each of a batch of rows (workers/delivery.py); a failure is
    recorded on its row, whose retry the sweep starts when it is due (no retry chains
    of Celery tasks). What happened to each, in order."""
    settings, engine, transport = _runtime()
    outcomes = delivery.deliver_many(engine, settings, notification_ids, transport)
    return [outcomes[notification_id] for notification_id in notification_ids]


@celery.task
def deliver_notification(notification_id: int) -> str:
    """One row: the task published before deliveries went in batches, still taken
    from the queue."""
    settings, engine, transport = _runtime()
    return delivery.deliver(engine, settings, notification_id, transport)


@celery.task
def sweep_outbox(older_than_seconds: float = OUTBOX_GRACE_SECONDS) -> int:
    """Re-enqueue rows left unsent (their task was lost with a killed worker). Only
    once the mail queue is empty: before that an unsent row may merely be waiting its
    turn, and enqueueing it again would feed the backlog it waits in."""
    _, engine, _ = _runtime()
    if _dispatcher().mail_backlog():
        return 0
    count, unsent = 0, delivery.unsent_ids(engine, older_than_seconds)
    while batch := list(itertools.islice(unsent, MAIL_BATCH)):
        deliver_notifications.delay(batch)
        count += len(batch)
    return count


# A reply's processing is bounded by the parse budget (workers/mime_budget.py) and
# takes well under a second; past the soft limit the message is marked failed.
INBOUND_SOFT_SECONDS, INBOUND_HARD_SECONDS = 60, 90


@celery.task(bind=True, autoretry_for=(OSError,), retry_backoff=2, retry_backoff_max=300, max_retries=8,
             soft_time_limit=INBOUND_SOFT_SECONDS, time_limit=INBOUND_HARD_SECONDS)
def process_inbound(self, inbound_id: int) -> None:
    """Turn a stored reply into moves and an answer (once; a second run finds it done)."""
    settings, engine, _ = _runtime()
    dispatch(*inbound.process(engine, settings, inbound_id).ids)


@celery.task
def sweep_inbound(older_than_seconds: float = 60) -> int:
    """Hand on again the replies whose task was lost: only once the inbound queue is
    empty (before that a reply may merely wait its turn), and each marked as handed
    on, so no sweep enqueues one again while it may still be waiting."""
    _, engine, _ = _runtime()
    if _dispatcher().inbound_backlog():
        return 0
    ids = inbound_store.claim_lost(engine, older_than_seconds)
    for inbound_id in ids:
        process_inbound.delay(inbound_id)
    return len(ids)


@celery.task
def sweep_deadlines(now: float | None = None) -> int:
    """Pop due deadlines from the Redis mirror (rebuilding it from the database if
    Redis lost it) and hand them, in small batches, to `handle_deadlines`."""
    _, engine, _ = _runtime()
    queue = _dispatcher().queue
    if not queue.is_built():
        queue.rebuild(lambda: deadlines.open_deadlines(engine))
    popped = queue.pop_due(now if now is not None else time.time())
    bots = deadlines.bot_turns(engine, popped)
    for deadline_id in bots:
        play_bot.delay(deadline_id, now)
    due = [deadline_id for deadline_id in popped if deadline_id not in bots]
    # Small batches: fewer tasks to pass around, and still spread over the processes.
    for start in range(0, len(due), DEADLINE_BATCH):
        handle_deadlines.delay(due[start:start + DEADLINE_BATCH], now)
    return len(popped)


@celery.task
def recover_deadlines(older_than_seconds: float = 60, now: float | None = None) -> int:
    """Mirror again the deadlines still open long after they were due: popped by a
    sweeper that died before handing them on. Firing one twice changes nothing."""
    _, engine, _ = _runtime()
    cutoff = (datetime.fromtimestamp(now if now is not None else time.time(), UTC)
              - timedelta(seconds=older_than_seconds))
    lost = deadlines.open_deadlines(engine, due_before=cutoff)
    if _dispatcher().bots_backlog():
        # A bot's turn may merely be waiting in the bots' queue: mirroring it again
        # would queue it twice. Lost ones are taken once the queue has drained.
        waiting = deadlines.bot_turns(engine, [deadline_id for deadline_id, _ in lost])
        lost = [(deadline_id, due_at) for deadline_id, due_at in lost if deadline_id not in waiting]
    _dispatcher().queue.add_many(lost)
    return len(lost)


@celery.task
def handle_deadlines(deadline_ids: list[int], now: float | None = None) -> None:
    """Fire each deadline, in a transaction of its own, at `now` (a test's clock) or
    else at the moment it is handled. Run again after a crash, it fires only the rest."""
    _, engine, _ = _runtime()
    for deadline_id in deadline_ids:
        moment = datetime.fromtimestamp(now if now is not None else time.time(), UTC)
        dispatch(*deadlines.fire(engine, deadline_id, moment).ids)


@celery.task(soft_time_limit=BOT_SOFT_SECONDS, time_limit=BOT_HARD_SECONDS)
def play_bot(deadline_id: int, now: float | None = None) -> None:
    """A bot seat's turn (a deadline of kind `bot`), within the bots' CPU budget. A
    search cut short by the soft time limit leaves the turn to the random bot, and so
    does a turn tried before that never finished (its process killed, or the hard time
    limit hit): a turn is never lost, and never kills process after process."""
    _, engine, _ = _runtime()
    moment = datetime.fromtimestamp(now if now is not None else time.time(), UTC)
    try:
        stand_in = CUT_SHORT_STAND_IN if _tried_before(deadline_id) else None
        work = deadlines.fire(engine, deadline_id, moment, stand_in)
    except SoftTimeLimitExceeded:  # raised in the search, most likely; its transaction was rolled back
        log.warning("bot turn %s took over %s s; the %s bot plays it",
                    deadline_id, BOT_SOFT_SECONDS, CUT_SHORT_STAND_IN)
        work = deadlines.fire(engine, deadline_id, moment, CUT_SHORT_STAND_IN)
    dispatch(*work.ids)


def _tried_before(deadline_id: int) -> bool:
    """Count a try of a bot's turn; whether one was made before."""
    key = f"{_dispatcher().settings.queue}:bot-turn-tries:{deadline_id}"
    with _dispatcher().queue.client.pipeline() as pipe:
        tries, _ = pipe.incr(key).expire(key, BOT_TRIES_SECONDS).execute()
    return tries > 1


@lru_cache(maxsize=1)
def _dispatcher() -> CeleryDispatcher:
    settings, engine, _ = _runtime()
    return CeleryDispatcher(settings, engine)


def dispatch(notification_ids: list[int], due: list[tuple[int, float]]) -> None:
    """Work left by a deadline: as the web service hands it on."""
    _dispatcher().dispatch(notification_ids, due)


@celery.task
def send_digests() -> int:
    """Once a day (beat): write the digests and deliver them."""
    from workers.digest import write_digests

    settings, engine, _ = _runtime()
    work = write_digests(engine, settings.base_url, datetime.now(UTC))
    dispatch(*work.ids)
    return len(work.notifications)
