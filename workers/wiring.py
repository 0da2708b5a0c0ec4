"""Which workers a web process hands its committed work to. It is wiring of the service
to the workers, so it lives on the workers' side: the service imports nothing from the
workers (engine <- service <- workers)."""
from __future__ import annotations

from flask import Flask

from service.tasks import relay_channel
from workers.dispatch import CeleryDispatcher, InProcessDispatcher


def start_dispatcher(app: Flask) -> None:
    """Connect committed work to the workers: with REDIS_URL on PostgreSQL, announced
    to the outbox relay (`turnpost relay`), which hands it to Celery; with REDIS_URL on
    SQLite, to Celery after the commit; else to threads in this process (the embedded
    default)."""
    state = app.extensions["turnpost"]
    settings = state["settings"]
    if settings.redis_url:
        state["dispatcher"] = CeleryDispatcher(settings, state["database"])
        if state["database"].dialect.name == "postgresql":
            state["relay_channel"] = relay_channel(settings.queue)
    else:
        state["dispatcher"] = InProcessDispatcher(settings, state["database"]).start()
