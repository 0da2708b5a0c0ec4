"""The move path's writer (`service.rows`): what a use case records reaches the
database as it would have through the ORM, including a deadline appended and then
cancelled in the same transaction."""
from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import select

from service import rows
from service.models import Deadline, Game, Move, Notification, Seat
from tests.conftest import start_game


@pytest.fixture(params=["at once", "statement by statement"])
def writer(request, monkeypatch):
    """Both ways `rows.write` writes on PostgreSQL: a small write in one statement, a
    large one (or any on SQLite) one statement per table."""
    if request.param == "statement by statement":
        monkeypatch.setattr(rows, "_fits_one_statement", lambda changed, found: False)
    return request.param


def test_the_writer_stores_changes_and_cancellations_in_order(app, make_player, db, writer):
    _, game = start_game(make_player, 2)
    gid, now = game["id"], datetime.now(UTC)
    deciding = int(next(iter(game["pending"])))
    with db() as session:
        before = {d.id for d in session.exec(
            select(Deadline).where(Deadline.game_id == gid, Deadline.done_at.is_(None)))}
        assert before, "the deciding player has deadlines"
        record = rows.read_locked(session, gid)
        seats = session.info[("seats", gid)]
        record.version += 1
        seats[0].last_seen_seq, seats[1].bank_seconds = 7, 1234.5
        doomed = rows.add_deadline(session, game_id=gid, seat=deciding, kind="reminder",
                                   due_at=now + timedelta(hours=1))
        rows.cancel_deadlines(session, gid, deciding, now)  # the seat's open ones, the one above included
        kept = rows.add_deadline(session, game_id=gid, seat=deciding, kind="timeout", due_at=now + timedelta(days=1))
        other = rows.add_deadline(session, game_id=gid, seat=1 - deciding, kind="timeout", due_at=now)
        rows.write(session)
        assert doomed.id and kept.id
    with db() as session:
        assert session.get(Game, gid).version == game["version"] + 1
        stored = {s.id: s for s in session.exec(select(Seat).where(Seat.game_id == gid))}
        assert stored[seats[0].id].last_seen_seq == 7 and stored[seats[1].id].bank_seconds == 1234.5
        deadlines = {d.id: d for d in session.exec(select(Deadline).where(Deadline.game_id == gid))}
        assert deadlines[doomed.id].outcome == "cancelled" and deadlines[doomed.id].done_at is not None
        assert deadlines[kept.id].done_at is None, "a deadline appended after the cancellation stays open"
        assert {deadlines[i].seat for i in before} == {deciding}
        assert all(deadlines[i].outcome == "cancelled" for i in before)
        assert deadlines[other.id].done_at is None, "another seat's deadline is not cancelled"


def test_a_cancellation_of_every_deadline_and_rows_of_each_kind_get_their_ids(app, make_player, db, writer):
    _, game = start_game(make_player, 2)
    gid, now = game["id"], datetime.now(UTC)
    with db() as session:
        rows.read_locked(session, gid)
        rows.cancel_deadlines(session, gid, None, now)
        new = [rows.add_deadline(session, game_id=gid, seat=seat, kind="timeout", due_at=now + timedelta(hours=seat))
               for seat in (1, 0, 1)]
        told = [rows.add_notification(session, kind="your_turn", email=f"p{n}@example.com", user_id=None, game_id=gid,
                                      seat=n, payload={"n": n}, message_id=f"<{n}.{gid}@test>") for n in range(3)]
        rows.add_move(session, game_id=gid, seq=99, seat=0, move={"type": "pass"}, events=[], by_service=True)
        rows.write(session)
    with db() as session:
        stored = {d.id: d for d in session.exec(select(Deadline).where(Deadline.game_id == gid))}
        assert [(stored[d.id].seat, stored[d.id].due_at) for d in new] == [(d.seat, d.due_at) for d in new], \
            "each row has the id of its own stored row"
        assert all(d.done_at is None for d in stored.values() if d.id in {n.id for n in new})
        assert all(d.outcome == "cancelled" for d in stored.values() if d.id not in {n.id for n in new})
        notes = {n.id: n for n in session.exec(select(Notification).where(Notification.game_id == gid))}
        assert [notes[n.id].payload for n in told] == [{"n": 0}, {"n": 1}, {"n": 2}]
        assert all(notes[n.id].created_at is not None and notes[n.id].attempts == 0 for n in told)
        logged = session.exec(select(Move).where(Move.game_id == gid, Move.seq == 99)).one()
        assert logged.move == {"type": "pass"} and logged.created_at is not None


def test_two_records_of_one_row_are_written_in_order(app, make_player, db):
    """A game read locked twice in one transaction: its later record's values stand."""
    _, game = start_game(make_player, 2)
    gid = game["id"]
    with db() as session:
        first = rows.read_locked(session, gid)
        second = rows.read_locked(session, gid)
        first.title, second.title = "first", "second"
        rows.write(session)
    with db() as session:
        assert session.get(Game, gid).title == "second"
