"""The move count migration on a database that already holds games."""
import uuid

import psycopg
import pytest
from alembic import command

from service.migrate import alembic_config, upgrade
from tests.conftest import POSTGRES


@pytest.fixture
def empty_database():
    name = f"turnpost_migration_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(f"{POSTGRES}/postgres", autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    yield f"{POSTGRES}/{name}", f"{POSTGRES.replace('postgresql://', 'postgresql+psycopg://')}/{name}"
    with psycopg.connect(f"{POSTGRES}/postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_the_move_count_migration_counts_the_moves_each_game_already_has(empty_database):
    plain, url = empty_database
    command.upgrade(alembic_config(url), "0004")
    with psycopg.connect(plain) as conn:
        conn.execute("INSERT INTO \"user\" (id, email, name, timezone, email_mode, created_at)"
                     " VALUES (1, 'a@b.c', 'a', 'UTC', 'every', now())")
        for game_id in (1, 2):
            conn.execute("INSERT INTO game (id, game_type, title, options, players, status, seat_order, spectators,"
                         " time_control,"
                         " timeout_policy, creator_id, version, created_at)"
                         " VALUES (%s, 'tigris', 't', '{}', 2, 'active', 'fixed',"
                         " false, '{}', 'skip', 1, 1, now())", (game_id,))
        for seq in (1, 2, 3):
            conn.execute("INSERT INTO move (game_id, seq, seat, move, events, by_service, created_at)"
                         " VALUES (1, %s, 0, '{}', '[]', false, now())", (seq,))
    upgrade(url)
    with psycopg.connect(plain) as conn:
        assert conn.execute("SELECT id, move_count FROM game ORDER BY id").fetchall() == [(1, 3), (2, 0)]
