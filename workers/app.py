"""The Celery application, configured from the service's settings (REDIS_URL)."""
from __future__ import annotations

import os

from celery import Celery
from celery.schedules import crontab

BROKER = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
QUEUE = os.environ.get("TURNPOST_QUEUE", "turnpost")
# How often beat sweeps the outbox for email still owed (seconds).
OUTBOX_SWEEP_SECONDS = float(os.environ.get("TURNPOST_OUTBOX_SWEEP_SECONDS", "30"))
DEADLINE_SWEEP_SECONDS = 0.5
# The CPU a bot's turn may take: past the soft limit its search is cut short and the
# random bot plays the turn; past the hard limit its process is killed.
BOT_SOFT_SECONDS = float(os.environ.get("TURNPOST_BOT_SOFT_SECONDS", "20"))
BOT_HARD_SECONDS = float(os.environ.get("TURNPOST_BOT_HARD_SECONDS", str(BOT_SOFT_SECONDS + 10)))


def mail_queue(queue: str) -> str:
    """Email delivery has a queue of its own, so a backlog of mail never delays a
    deadline (Procfile: `worker` takes `<queue>`, `mailer` takes `<queue>.mail`)."""
    return queue + ".mail"


def inbound_queue(queue: str) -> str:
    """Received replies have a queue of their own too, so a flood of inbound mail
    never delays a deadline or a turn email (Procfile: `replies` takes `<queue>.inbound`)."""
    return queue + ".inbound"


def bots_queue(queue: str) -> str:
    """Bots' turns have a queue of their own, so that bots searching never delay a
    deadline or an email (Procfile: `bots` takes `<queue>.bots`)."""
    return queue + ".bots"


def _route(name, args, kwargs, options, task=None, **kw):
    # Read at each call: `configure` may change the queue after the router was built.
    if name in ("workers.tasks.deliver_notifications", "workers.tasks.deliver_notification"):
        return {"queue": mail_queue(celery.conf.task_default_queue)}
    if name == "workers.tasks.process_inbound":
        return {"queue": inbound_queue(celery.conf.task_default_queue)}
    if name == "workers.tasks.play_bot":
        return {"queue": bots_queue(celery.conf.task_default_queue)}
    return None


# A sweep not started within this long (or its period, if longer) is dropped.
SWEEP_EXPIRES_SECONDS = 5.0


def _every(seconds: float, task: str) -> dict:
    """A beat entry whose tasks expire: while the workers are behind, sweeps are
    dropped rather than piled up (a later one does the work), so a backlog holds at most
    a few seconds' worth. Not the bare period: a worker busy for a moment still sweeps."""
    return {"task": task, "schedule": seconds, "options": {"expires": max(seconds, SWEEP_EXPIRES_SECONDS)}}


celery = Celery("turnpost", broker=BROKER, include=["workers.tasks"])
celery.conf.update(
    # Redis with a repair that keeps a worker alive when Redis goes away (workers/broker.py).
    broker_transport="workers.broker:Transport",
    broker_transport_options={"socket_connect_timeout": 2},
    broker_connection_retry=True,
    broker_connection_max_retries=None,  # a worker waits for Redis for as long as it takes
    # A web request publishing into a dead broker gives up quickly: the outbox sweep
    # sends the email once Redis is back.
    task_publish_retry_policy={"max_retries": 1, "interval_start": 0, "interval_step": 0.5, "interval_max": 0.5},
    task_acks_late=True,  # a task counts as done only when it has finished
    task_reject_on_worker_lost=True,  # a worker killed mid-task gives the task back
    worker_prefetch_multiplier=1,
    task_default_queue=QUEUE,
    task_routes=(_route,),
    task_ignore_result=True,
    broker_connection_retry_on_startup=True,
    beat_schedule={
        # Twice a second: a deadline fires at most half a second after it is due.
        "sweep-deadlines": _every(DEADLINE_SWEEP_SECONDS, "workers.tasks.sweep_deadlines"),
        "sweep-outbox": _every(OUTBOX_SWEEP_SECONDS, "workers.tasks.sweep_outbox"),
        "sweep-inbound": _every(30.0, "workers.tasks.sweep_inbound"),
        "recover-deadlines": _every(30.0, "workers.tasks.recover_deadlines"),
        # A digest left waiting a day is written by the next day's run.
        "daily-digest": {"task": "workers.tasks.send_digests", "schedule": crontab(hour=6, minute=0),
                         "options": {"expires": 86400}},
    },
)
app = celery  # `celery -A workers.app worker`


def configure(settings) -> None:
    """Point the app at the settings' broker and queue (the web process does this)."""
    if celery.conf.broker_url != settings.redis_url:
        celery.conf.broker_url = settings.redis_url
        celery._after_fork()  # drop connections to the former broker
    celery.conf.task_default_queue = settings.queue
