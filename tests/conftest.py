"""Fixtures shared by every suite: a PostgreSQL database per test process."""
from __future__ import annotations

import os

import psycopg
import pytest

from service.migrate import upgrade

POSTGRES = os.environ.get("TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432")


@pytest.fixture(scope="session")
def database_url(worker_id):
    name = f"turnpost_test_{worker_id}_{os.getpid()}"
    try:
        admin = psycopg.connect(f"{POSTGRES}/postgres", autocommit=True)
    except psycopg.OperationalError as exc:
        pytest.fail(f"MISSING: PostgreSQL at {POSTGRES} is needed by the service tests ({exc})")
    admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
    admin.execute(f'CREATE DATABASE "{name}"')
    url = f"{POSTGRES.replace('postgresql://', 'postgresql+psycopg://')}/{name}"
    upgrade(url)
    yield url
    from service.db import make_engine

    make_engine(url).dispose()
    admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    admin.close()


