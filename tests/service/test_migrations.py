"""Migrations run once, before the web processes: importing the WSGI module never
migrates (it refuses to start on an old schema), and upgrades started together on
PostgreSQL run one after the other instead of racing."""
from __future__ import annotations

import os
import shlex
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
    process = python("import workers.wsgi", empty_database)
    _, err = process.communicate(timeout=60)
    assert process.returncode != 0 and b"run `turnpost db upgrade`" in err
    assert tables(empty_database) == set()


def test_upgrades_started_together_do_not_race(empty_database):
    upgrade = "import os; from service.migrate import upgrade; upgrade(os.environ['DATABASE_URL'])"
    processes = [python(upgrade, empty_database) for _ in range(4)]
    results = [(p.wait(timeout=120), p.stderr.read().decode()[-500:]) for p in processes]
    assert [code for code, _ in results] == [0] * 4, results
    assert {"user", "game", "notification", "alembic_version"} <= tables(empty_database)
    process = python("import workers.wsgi", empty_database)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 0, err.decode()[-800:]


def test_the_release_phase_migrates_before_the_web_processes():
    from pathlib import Path

    procfile = (Path(__file__).resolve().parents[2] / "Procfile").read_text().splitlines()
    assert procfile[0] == "release: turnpost db upgrade"


def procfile_web(port: int) -> list[str]:
    """The Procfile's web command, run with this Python, on `port`."""
    from pathlib import Path

    procfile = (Path(__file__).resolve().parents[2] / "Procfile").read_text().splitlines()
    command = next(line for line in procfile if line.startswith("web:")).removeprefix("web:")
    words = shlex.split(command.replace("${PORT:-8000}", str(port)))
    assert words[0] == "gunicorn", words
    return [sys.executable, "-m", "gunicorn", *words[1:]]


def test_gunicorn_stops_with_the_message_when_the_schema_is_behind(empty_database):
    """The master checks the schema before it starts any worker and exits with the
    message, instead of starting workers that each fail."""
    from alembic import command
    from alembic.script import ScriptDirectory

    from service.migrate import alembic_config
    from tests.workers.conftest import free_port

    config = alembic_config(empty_database.replace("postgresql://", "postgresql+psycopg://"))
    script = ScriptDirectory.from_config(config)
    command.upgrade(config, script.get_revision(script.get_current_head()).down_revision)  # one behind
    env = {**os.environ, "DATABASE_URL": empty_database, "SECRET_KEY": "k", "REDIS_URL": ""}
    process = subprocess.Popen(procfile_web(free_port()), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        _, err = process.communicate(timeout=120)
    finally:
        process.kill()
    assert process.returncode not in (0, None), err.decode()[-2000:]
    assert b"run `turnpost db upgrade`" in err, err.decode()[-2000:]
    assert b"Booting worker" not in err and b"Traceback" not in err, err.decode()[-2000:]
    with psycopg.connect(empty_database) as connection:
        version = connection.execute("SELECT version_num FROM alembic_version").fetchone()[0]
    assert version != script.get_current_head(), "nothing was migrated on the way"


def test_gunicorn_serves_once_the_schema_is_up_to_date(empty_database, tmp_path):
    import time
    import urllib.request

    from service.migrate import upgrade
    from tests.workers.conftest import free_port

    upgrade(empty_database)
    port = free_port()
    env = {**os.environ, "DATABASE_URL": empty_database, "SECRET_KEY": "k", "REDIS_URL": "",
           "TURNPOST_INSTANCE": str(tmp_path)}
    process = subprocess.Popen(procfile_web(port), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline, status = time.monotonic() + 120, None
        while status is None and time.monotonic() < deadline and process.poll() is None:
            try:
                status = urllib.request.urlopen(f"http://127.0.0.1:{port}/sign-in", timeout=5).status
            except OSError:
                time.sleep(0.5)
        assert status == 200, process.stderr.read().decode()[-2000:] if process.poll() is not None else "no answer"
    finally:
        process.terminate()
        process.wait(timeout=60)
