"""The embedded default, SQLite: a game played through the HTTP API from its creation
to a resignation, the move path's Core statements (`service.rows`) included."""
import random
from datetime import UTC, date, datetime, time, timedelta

import pytest
from sqlmodel import select

import engine
from service.app import create_app
from service.config import Settings
from service.db import transaction
from service.migrate import upgrade
from service.models import Absence, Deadline, Game, Move, Notification, Seat, User
from service.play import replay
from tests.conftest import start_game
from tests.service.test_game_life import play_random

TIGRIS = engine.get_game("tigris")


@pytest.fixture
def sqlite_app(tmp_path):
    url = f"sqlite:///{tmp_path / 'turnpost.db'}"
    upgrade(url)
    app = create_app(Settings(
        database_url=url, redis_url=None, smtp_url=None, base_url="http://turnpost.test", secret_key="sqlite-test",
        maildir=tmp_path / "mail", rate_limit="1000000 per minute"))
    app.config["TESTING"] = True
    yield app
    app.extensions["turnpost"]["database"].dispose()


def test_a_game_on_sqlite_keeps_its_log_deadlines_and_outbox_whole(sqlite_app):
    from tests.conftest import Player

    engine_ = sqlite_app.extensions["turnpost"]["database"]
    make = lambda name: Player(sqlite_app, f"{name}@example.org")  # noqa: E731
    players, game = start_game(make, 3, time_control={"initial_seconds": 2 * 86400})
    gid = game["id"]
    away_from, away_to = date.today() + timedelta(days=1), date.today() + timedelta(days=3)
    with transaction(engine_) as db:  # an absence, read with the locked game when deadlines are set
        user = db.exec(select(User).where(User.email == players[1].email)).one()
        db.add(Absence(user_id=user.id, first_day=away_from, last_day=away_to))
    since = datetime.now(UTC).replace(tzinfo=None)

    stale = players[0].post(f"/api/games/{gid}/moves", json={"text": "pass", "version": game["version"] - 1})
    assert stale.status_code == 409
    game = play_random(players, gid, 30, random.Random(7))
    assert game["status"] == "active"

    with transaction(engine_) as db:
        row = db.get(Game, gid)
        moves = list(db.exec(select(Move).where(Move.game_id == gid).order_by(Move.seq)))
        assert [m.seq for m in moves] == list(range(1, row.move_count + 1)) and row.move_count >= 30
        assert TIGRIS.to_json(replay(row, moves)) == row.state, "the log replays to the snapshot"
        open_timeouts = db.exec(select(Deadline.seat).where(
            Deadline.game_id == gid, Deadline.kind == "timeout", Deadline.done_at.is_(None))).all()
        assert sorted(open_timeouts) == sorted(int(s) for s in game["pending"]), "one open timeout per pending seat"
        seats = {s.seat: s for s in db.exec(select(Seat).where(Seat.game_id == gid))}
        assert all(seats[int(s)].decision_started_at is not None for s in game["pending"])
        # Seat 1's clock stops for the absence: each timeout set since runs past its last day.
        timeouts = db.exec(select(Deadline.due_at).where(
            Deadline.game_id == gid, Deadline.seat == 1, Deadline.kind == "timeout", Deadline.created_at > since)).all()
        assert timeouts and min(timeouts) >= datetime.combine(away_to + timedelta(days=1), time(0))
        turns = db.exec(select(Notification).where(Notification.game_id == gid, Notification.kind == "your_turn")).all()
        assert {n.seat for n in turns} == {0, 1, 2}

    for seat in (2, 1):
        answer = players[seat].post(f"/api/games/{gid}/resign", json={"version": game["version"]})
        assert answer.status_code == 200, answer.json
        game = answer.json
    assert game["status"] == "finished" and game["result"]["ranking"][0] == [0]
    with transaction(engine_) as db:
        assert not db.exec(select(Deadline).where(Deadline.game_id == gid, Deadline.done_at.is_(None))).all()
        over = db.exec(select(Notification.email).where(Notification.game_id == gid, Notification.kind == "game_over"))
        assert sorted(over) == sorted(p.email for p in players)
