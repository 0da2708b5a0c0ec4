"""gunicorn's settings for the web service (`gunicorn --config python:service.gunicorn_config`,
the Procfile's `web`): the master checks the schema before it starts any worker.

Every worker also refuses an out-of-date schema when it imports `workers.wsgi`, and
gunicorn's master stops when a worker fails to boot; but with several workers failing
at once its shutdown can trip over the next failure (a traceback and exit code 1, the
message buried). Checked here, once, the master exits at once with the message, and
no worker is started."""
from __future__ import annotations


def on_starting(server) -> None:
    """Raise SchemaOutOfDate (a RuntimeError: gunicorn prints it and exits with code 1)."""
    from service.config import Settings
    from service.migrate import check_current

    check_current(Settings().database_url)
