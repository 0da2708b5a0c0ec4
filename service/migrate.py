"""Bringing a database's schema up to date with the Alembic migrations.

Migrations run once, before the web processes start (`turnpost db upgrade`, the
Procfile's `release`), never on import. On PostgreSQL they also hold an advisory lock,
so two upgrades started together run one after the other instead of racing."""
from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

from service.db import make_engine
from service.resources import MIGRATIONS

MIGRATION_LOCK = 0x7475726E  # the advisory lock's key ("turn")


def alembic_config(database_url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", database_url)
    return config


def upgrade(database_url: str) -> None:
    if database_url.startswith("sqlite:///"):
        Path(database_url[len("sqlite:///"):]).parent.mkdir(parents=True, exist_ok=True)
    config = alembic_config(database_url)
    engine = make_engine(database_url)
    try:
        with engine.connect() as connection:
            locking = connection.dialect.name == "postgresql"
            if locking:
                connection.exec_driver_sql(f"SELECT pg_advisory_lock({MIGRATION_LOCK})")
                connection.commit()  # the lock belongs to the connection, not this transaction
            config.attributes["connection"] = connection
            try:
                command.upgrade(config, "head")
                connection.commit()
            finally:
                if locking:
                    connection.exec_driver_sql(f"SELECT pg_advisory_unlock({MIGRATION_LOCK})")
                    connection.commit()
    finally:
        engine.dispose()


class SchemaOutOfDate(RuntimeError):
    pass


def check_current(database_url: str) -> None:
    """Raise SchemaOutOfDate unless the database is at the newest migration."""
    head = ScriptDirectory.from_config(alembic_config(database_url)).get_current_head()
    engine = make_engine(database_url)
    try:
        with engine.connect() as connection:
            current = MigrationContext.configure(connection).get_current_revision()
    finally:
        engine.dispose()
    if current != head:
        raise SchemaOutOfDate(f"the database schema is at {current or 'nothing'}, not {head}: "
                              "run `turnpost db upgrade` before starting the web service")
