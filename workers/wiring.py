"""Which workers a web process hands its committed work to. It is wiring of the service
to the workers, so it lives on the workers' side: the service imports nothing from the
workers (engine <- service <- workers)."""
from __future__ import annotations

from flask import Flask

from workers.dispatch import CeleryDispatcher, InProcessDispatcher


def start_dispatcher(app: Flask) -> None:
    """Connect committed work to the workers: Celery when REDIS_URL is set, else
    threads in this process (the embedded default)."""
    state = app.extensions["turnpost"]
    settings = state["settings"]
    if settings.redis_url:
        state["dispatcher"] = CeleryDispatcher(settings, state["database"])
    else:
        state["dispatcher"] = InProcessDispatcher(settings, state["database"]).start()
