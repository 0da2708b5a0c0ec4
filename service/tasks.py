"""The one place where committed work is handed to the workers.

Every use case returns the notifications and deadlines it wrote; once its
transaction has committed, the web layer calls `after_commit`. With REDIS_URL set, the
notifications become Celery tasks and the deadlines enter the Redis sorted set; in the
embedded default they are handled in this process.
"""
from __future__ import annotations


def after_commit(app, notification_ids: list[int], deadlines: list[tuple[int, float]]) -> None:
    """`deadlines` are (id, due timestamp) pairs."""
    dispatcher = app.extensions["turnpost"].get("dispatcher")
    if dispatcher is not None and (notification_ids or deadlines):
        dispatcher.dispatch(notification_ids, deadlines)
