"""The WSGI entry point for gunicorn: `gunicorn --config python:service.gunicorn_config
workers.wsgi:app` (the Procfile's `web`). The schema must be up to date already
(`turnpost db upgrade`, the Procfile's `release`): every worker process imports this
module, so migrating here would run the migrations in each, at once. The master checks
it before starting workers (service/gunicorn_config.py); each worker checks again, for
a schema changed under a running service."""
from service.app import create_app
from service.config import Settings
from service.migrate import check_current
from workers.wiring import start_dispatcher

settings = Settings()
check_current(settings.database_url)
app = create_app(settings)
start_dispatcher(app)
