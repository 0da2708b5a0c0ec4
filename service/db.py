"""The database: engine creation, SQLite tuning, and transactions.

SQLite (the embedded default) runs in WAL mode, and every transaction starts with
BEGIN IMMEDIATE, so concurrent writers queue on the busy timeout instead of failing
half-way. PostgreSQL (production, CI) locks the game row with SELECT ... FOR UPDATE.
"""
from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager

import orjson
from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine
from sqlmodel import Session


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection, _record):
            dbapi_connection.isolation_level = None  # we issue BEGIN ourselves
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA busy_timeout=30000")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        @event.listens_for(engine, "begin")
        def _begin(connection):
            # Writers take the write lock up front; readers (see `reading`) do not.
            readonly = connection.get_execution_options().get("readonly", False)
            connection.exec_driver_sql("BEGIN" if readonly else "BEGIN IMMEDIATE")

        return engine
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://"):]
    return create_engine(url, pool_size=10, max_overflow=20, pool_pre_ping=True,
                         json_serializer=dump_json, json_deserializer=orjson.loads)


def dump_json(value) -> str:
    """JSON columns' text by orjson (a game's state is written with every move), keys
    that are not strings written as strings as the standard library does; what orjson
    refuses (an integer beyond 64 bits) by the standard library."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(value)


@contextmanager
def transaction(engine: Engine) -> Iterator[Session]:
    """One unit of work: commit at the end, roll back on any error. Rows recorded
    through `service.rows` and not yet written are written before the commit."""
    from service.rows import write

    with Session(engine, expire_on_commit=False) as session:
        with session.begin():
            yield session
            write(session)


@contextmanager
def reading(engine: Engine) -> Iterator[Session]:
    """A read-only unit of work (no write lock on SQLite)."""
    with Session(engine.execution_options(readonly=True), expire_on_commit=False) as session:
        with session.begin():
            yield session
