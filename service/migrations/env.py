"""Alembic environment: the tables are the SQLModel models; the URL comes from the
caller (service.migrate) or from DATABASE_URL."""
from alembic import context
from sqlmodel import SQLModel

import service.models  # noqa: F401  (registers the tables)
from service.db import make_engine

config = context.config
target_metadata = SQLModel.metadata


def run_migrations() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    url = config.get_main_option("sqlalchemy.url")
    assert url is not None, "service.migrate.alembic_config sets the URL"
    engine = make_engine(url)
    with engine.connect() as connection:
        context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()


run_migrations()
