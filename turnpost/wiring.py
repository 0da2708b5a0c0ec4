"""Which workers a web process hands its committed work to: kept above the service and
the workers, so that the service imports nothing from the workers."""
from __future__ import annotations

from flask import Flask

from workers.dispatch import CeleryDispatcher, InProcessDispatcher


def start_dispatcher(app: Flask) -> None:
    """Connect committed work to the workers: Celery when REDIS_URL is set, else
    threads in this process (the embedded default)."""
    state = app.extensions["turnpost"]
    settings = state["settings"]
    if settings.redis_url:
        state["dispatcher"] = CeleryDispatcher(settings, state["engine"])
    else:
        state["dispatcher"] = InProcessDispatcher(settings, state["engine"]).start()
