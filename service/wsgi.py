"""The WSGI entry point for gunicorn: `gunicorn service.wsgi:app`."""
from service.app import create_app, start_dispatcher
from service.config import Settings
from service.migrate import upgrade

settings = Settings()
upgrade(settings.database_url)
app = create_app(settings)
start_dispatcher(app)
