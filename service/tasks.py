"""The one place where committed work is handed to the workers.

Every use case returns the notifications and deadlines it wrote. With REDIS_URL set on
PostgreSQL, the transaction that wrote them also announces them on a channel
(`announce`: PostgreSQL's NOTIFY, delivered at the commit and only if it commits), and
the outbox relay (`turnpost relay`, workers/outbox_relay.py) hands them to Celery: the
request never speaks to the broker. Otherwise, once the transaction has committed, the
web layer calls `after_commit`, which hands them to the dispatcher (in the embedded
default, threads of this process).

The commit is the truth, so a hand-over that fails (Redis down, the relay down) only
delays the work: the outbox sweep sends the email later and the deadline sweep reads
its rows again. The caller still gets the answer of the committed change.
"""
from __future__ import annotations

import json
import logging

from sqlalchemy import bindparam, func, select
from sqlmodel import Session

from service.db import transaction

log = logging.getLogger(__name__)

# PostgreSQL refuses a NOTIFY payload of 8,000 bytes or more: a larger announcement is
# made in parts of at most this many ids (about 4,400 bytes) and deadlines (about 3,000).
NOTIFICATIONS_PER_PART, DEADLINES_PER_PART = 400, 100
_NOTIFY = select(func.pg_notify(bindparam("channel"), bindparam("payload")))


def relay_channel(queue: str) -> str:
    """The channel on which the work of `queue`'s deployment is announced."""
    return f"{queue}:work"


def relayed(app) -> str | None:
    """The channel, when the outbox relay hands this app's work on (else None)."""
    return app.extensions["turnpost"].get("relay_channel")


def announce(db: Session, channel: str, notification_ids: list[int], deadlines: list[tuple[int, float]]) -> None:
    """Tell the relay, in the transaction that wrote them, which rows it commits."""
    parts = max(-(-len(notification_ids) // NOTIFICATIONS_PER_PART), -(-len(deadlines) // DEADLINES_PER_PART))
    for part in range(parts):
        payload = json.dumps([notification_ids[part * NOTIFICATIONS_PER_PART:(part + 1) * NOTIFICATIONS_PER_PART],
                              deadlines[part * DEADLINES_PER_PART:(part + 1) * DEADLINES_PER_PART]],
                             separators=(",", ":"))
        db.connection().execute(_NOTIFY, {"channel": channel, "payload": payload})


def after_commit(app, notification_ids: list[int], deadlines: list[tuple[int, float]]) -> None:
    """`deadlines` are (id, due timestamp) pairs. Under a relay, work committed without
    its announcement is announced now."""
    channel = relayed(app)
    if channel is not None:
        try:
            with transaction(app.extensions["turnpost"]["database"]) as db:
                announce(db, channel, notification_ids, deadlines)
        except Exception:  # the commit stands and the sweeps retry
            log.exception("announcing notifications %s and deadlines %s failed; the sweeps will",
                          notification_ids, [d for d, _ in deadlines])
        return
    dispatcher = app.extensions["turnpost"].get("dispatcher")
    if dispatcher is None or not (notification_ids or deadlines):
        return
    try:
        dispatcher.dispatch(notification_ids, deadlines)
    except Exception:  # whatever went wrong, the commit stands and the sweeps retry
        log.exception("handing on notifications %s and deadlines %s failed; the sweeps will",
                      notification_ids, [d for d, _ in deadlines])
