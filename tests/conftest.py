"""Fixtures shared by every suite: a PostgreSQL database per test process, the
service on it, and players with API tokens."""
from __future__ import annotations

import os
import re
import uuid
from contextlib import contextmanager

import psycopg
import pytest
from sqlmodel import col, select

import engine
from service.app import create_app
from service.auth import create_api_token, user_for_email
from service.config import Settings
from service.db import transaction
from service.migrate import upgrade
from service.models import Game, Notification, Seat

POSTGRES = os.environ.get("TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432")


@pytest.fixture(scope="session")
def worker_id(request) -> str:
    """xdist's name for this test process ("gw0", ...), or "master" without xdist
    (`-p no:xdist`), where xdist's own fixture of this name is missing."""
    return getattr(request.config, "workerinput", {}).get("workerid", "master")


@contextmanager
def new_database(name: str):
    """A database of the given name on the test PostgreSQL, migrated; its URL. Dropped
    at the end, connections still open to it or not."""
    try:
        admin = psycopg.connect(f"{POSTGRES}/postgres", autocommit=True)
    except psycopg.OperationalError as exc:
        pytest.fail(f"MISSING: PostgreSQL at {POSTGRES} is needed by the service tests ({exc})")
    with admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            url = f"{POSTGRES.replace('postgresql://', 'postgresql+psycopg://')}/{name}"
            upgrade(url)
            yield url
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def database_url(worker_id):
    with new_database(f"turnpost_test_{worker_id}_{os.getpid()}") as url:
        yield url


@pytest.fixture(scope="session")
def app(database_url, tmp_path_factory):
    settings = Settings(
        database_url=database_url, redis_url=None, smtp_url=None, base_url="http://turnpost.test",
        secret_key="test-secret-key", maildir=tmp_path_factory.mktemp("mail"), sign_in_limit="1000 per minute",
        sign_in_address_limit="1000 per minute",
        rate_limit="1000000 per minute",
    )
    app = create_app(settings)
    app.config["TESTING"] = True
    return app


@pytest.fixture
def db(app):
    """A transaction on the test database, for setting up and checking."""
    return lambda: transaction(app.extensions["turnpost"]["database"])


class Player:
    """A user with an API token, talking to the API through the test client."""

    def __init__(self, app, email: str):
        self.client = app.test_client()
        self.email = email
        with transaction(app.extensions["turnpost"]["database"]) as session:
            _, self.token = create_api_token(session, user_for_email(session, email), "tests")
        self.headers = {"Authorization": f"Bearer {self.token}"}

    def get(self, path, **kw):
        return self.client.get(path, headers=self.headers, **kw)

    def post(self, path, json=None, **kw):
        return self.client.post(path, json=json, headers=self.headers, **kw)


@pytest.fixture
def make_player(app):
    def make(name: str = "player") -> Player:
        return Player(app, f"{name}-{uuid.uuid4().hex[:10]}@example.org")
    return make


@pytest.fixture
def outbox(db):
    def rows(email: str, kind: str | None = None) -> list[Notification]:
        with db() as session:
            query = select(Notification).where(Notification.email == email).order_by(col(Notification.id))
            if kind:
                query = query.where(Notification.kind == kind)
            return list(session.exec(query))
    return rows


def start_game(make_player, players: int = 3, **create) -> tuple[list[Player], dict]:
    """A started game of `players` players; returns them in seat order and the game."""
    people = [make_player(f"p{i}") for i in range(players)]
    body = {"game": "tigris", "players": players, "invite": [p.email for p in people[1:]], **create}
    created = people[0].post("/api/games", json=body)
    assert created.status_code == 201, created.json
    game = created.json
    for person in people[1:]:
        game = person.post(f"/api/games/{game['id']}/accept", json={"version": game["version"]}).json
    assert game["status"] == "active", game
    by_seat = sorted(people, key=lambda p: p.get(f"/api/games/{game['id']}").json["your_seat"])
    return by_seat, people[0].get(f"/api/games/{game['id']}").json


def put_position(db_engine, game_id: int, state) -> int:
    """Test-only: store a hand-written position in a game (as a bug report would)
    and bump its version; returns the new version."""
    with transaction(db_engine) as db:
        game = db.get(Game, game_id)
        assert game is not None
        rules = engine.get_game(game.game_type)
        game.state = rules.to_json(state)
        game.version += 1
        pending = rules.pending(state)
        for seat in db.exec(select(Seat).where(Seat.game_id == game_id)):  # every decision in it begins now
            seat.decision_version = game.version if seat.seat in pending else None
        return game.version


TOKEN_LIKE = re.compile(r"https?://\S+|[A-Za-z0-9_.=-]{16,}")


def without_tokens(text: str) -> str:
    """The text with its links and signed tokens blanked: a check that a short name
    ("K2", "135") is absent must not trip on the random letters of a signature."""
    return TOKEN_LIKE.sub(" ", text)

