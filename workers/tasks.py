"""Celery tasks. Each takes ids, is idempotent, and is safe to run twice."""
from __future__ import annotations

import smtplib
from datetime import datetime, timezone
from functools import lru_cache

from service.config import Settings
from service.db import make_engine
from workers import deadlines, delivery
from workers.app import celery
from workers.deadline_queue import DeadlineQueue
from workers.dispatch import CeleryDispatcher, deadline_queue


@lru_cache(maxsize=1)
def _runtime():
    """Per worker process: settings, database engine, mail transport (kept open)."""
    settings = Settings()
    return settings, make_engine(settings.database_url), delivery.transport_for(settings)


def _queue() -> DeadlineQueue:
    settings, _, _ = _runtime()
    return deadline_queue(settings)


@celery.task(bind=True, autoretry_for=(OSError, smtplib.SMTPException), retry_backoff=2,
             retry_backoff_max=600, retry_jitter=True, max_retries=12)
def deliver_notification(self, notification_id: int) -> str:
    settings, engine, transport = _runtime()
    return delivery.deliver(engine, settings, notification_id, transport)


@celery.task
def sweep_outbox(older_than_seconds: float = 60) -> int:
    """Re-enqueue rows left unsent (their task was lost with a killed worker)."""
    _, engine, _ = _runtime()
    ids = delivery.unsent_ids(engine, older_than_seconds)
    for notification_id in ids:
        deliver_notification.delay(notification_id)
    return len(ids)


@celery.task
def sweep_deadlines(now: float | None = None) -> int:
    """Pop due deadlines from the Redis mirror (rebuilding it from the database if
    Redis lost it) and hand each to `handle_deadline`."""
    _, engine, _ = _runtime()
    queue = _queue()
    if not queue.is_built():
        queue.rebuild(lambda: deadlines.open_deadlines(engine))
    moment = now if now is not None else datetime.now(timezone.utc).timestamp()
    due = queue.pop_due(moment)
    for deadline_id in due:
        handle_deadline.delay(deadline_id, moment)
    return len(due)


@celery.task
def handle_deadline(deadline_id: int, now: float) -> None:
    _, engine, _ = _runtime()
    work = deadlines.fire(engine, deadline_id, datetime.fromtimestamp(now, timezone.utc))
    dispatch(*work.ids)


def dispatch(notification_ids: list[int], deadline_ids: list[int]) -> None:
    """Work left by a deadline: as the web service hands it on."""
    settings, engine, _ = _runtime()
    CeleryDispatcher(settings, engine).dispatch(notification_ids, deadline_ids)


@celery.task
def send_digests() -> int:
    """Once a day (beat): write the digests and deliver them."""
    from workers.digest import write_digests

    settings, engine, _ = _runtime()
    work = write_digests(engine, settings.base_url, datetime.now(timezone.utc))
    dispatch(*work.ids)
    return len(work.notifications)
