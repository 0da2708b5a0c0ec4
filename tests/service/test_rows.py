"""The move path's writer (`service.rows`): what a use case records reaches the
database as it would have through the ORM, including a deadline appended and then
cancelled in the same transaction."""
from datetime import UTC, datetime, timedelta

from sqlmodel import select

from service import rows
from service.models import Deadline, Game, Seat
from tests.conftest import start_game


def test_the_writer_stores_changes_and_cancellations_in_order(app, make_player, db):
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
