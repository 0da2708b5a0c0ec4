"""Migrations run once, before the web processes: importing the WSGI module never
migrates (it refuses to start on an old schema), and upgrades started together on
PostgreSQL run one after the other instead of racing."""
from __future__ import annotations

import os
import subprocess
import sys
import uuid

import psycopg
import pytest

from tests.conftest import POSTGRES


@pytest.fixture
def empty_database():
    name = f"turnpost_empty_{uuid.uuid4().hex[:10]}"
    admin = psycopg.connect(f"{POSTGRES}/postgres", autocommit=True)
    admin.execute(f'CREATE DATABASE "{name}"')
    yield f"{POSTGRES}/{name}"
    admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    admin.close()


def tables(url: str) -> set[str]:
    with psycopg.connect(url) as connection:
        return {r[0] for r in connection.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")}


def python(code: str, url: str) -> subprocess.Popen:
    env = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": "k", "REDIS_URL": "",
           "TURNPOST_INSTANCE": os.environ.get("PYTEST_TMP", "/tmp") + f"/turnpost-{uuid.uuid4().hex[:8]}"}
    return subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def test_the_wsgi_module_refuses_an_old_schema_and_migrates_nothing(empty_database):
    process = python("import turnpost.wsgi", empty_database)
    _, err = process.communicate(timeout=60)
    assert process.returncode != 0 and b"run `turnpost db upgrade`" in err
    assert tables(empty_database) == set()


def test_upgrades_started_together_do_not_race(empty_database):
    upgrade = "import os; from service.migrate import upgrade; upgrade(os.environ['DATABASE_URL'])"
    processes = [python(upgrade, empty_database) for _ in range(4)]
    results = [(p.wait(timeout=120), p.stderr.read().decode()[-500:]) for p in processes]
    assert [code for code, _ in results] == [0] * 4, results
    assert {"user", "game", "notification", "alembic_version"} <= tables(empty_database)
    process = python("import turnpost.wsgi", empty_database)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 0, err.decode()[-800:]


def test_the_release_phase_migrates_before_the_web_processes():
    from pathlib import Path

    procfile = (Path(__file__).resolve().parents[2] / "Procfile").read_text().splitlines()
    assert procfile[0] == "release: turnpost db upgrade"
