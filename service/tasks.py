"""The one place where committed work is handed to the workers.

Every use case returns the notifications and deadlines it wrote; once its
transaction has committed, the web layer calls `after_commit`. With REDIS_URL set, the
notifications become Celery tasks and the deadlines enter the Redis sorted set; in the
embedded default they are handled in this process.

The commit is the truth, so a hand-over that fails (Redis down) only delays the work:
the outbox sweep sends the email later and the deadline sweep reads its rows again.
The caller still gets the answer of the committed change.
"""
from __future__ import annotations

import logging

log = logging.getLogger(__name__)


def after_commit(app, notification_ids: list[int], deadlines: list[tuple[int, float]]) -> None:
    """`deadlines` are (id, due timestamp) pairs."""
    dispatcher = app.extensions["turnpost"].get("dispatcher")
    if dispatcher is None or not (notification_ids or deadlines):
        return
    try:
        dispatcher.dispatch(notification_ids, deadlines)
    except Exception:  # whatever went wrong, the commit stands and the sweeps retry
        log.exception("handing on notifications %s and deadlines %s failed; the sweeps will",
                      notification_ids, [d for d, _ in deadlines])
