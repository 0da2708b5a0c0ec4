"""A seat's deadline rows: its time control, the rows written when a decision begins
(in the player's time zone and around his absences) and cancelled when it ends."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import bindparam
from sqlmodel import Session, select

from service import rows
from service.models import Seat
from service.play.records import GameLike, Work, users_of
from service.time_control import TimeControl, deadline_for, reminder_times


def time_control_args(data: dict) -> dict:
    args = {k: data[k] for k in ("initial_seconds", "extension_seconds", "cap_seconds") if k in data}
    if data.get("quiet_hours"):
        args["quiet_hours"] = tuple(data["quiet_hours"])
    if data.get("reminder_offsets"):
        args["reminder_offsets"] = tuple(data["reminder_offsets"])
    return args


def time_control_of(game: GameLike) -> TimeControl:
    return TimeControl(**time_control_args(game.time_control))


def write_deadlines(db: Session, game: GameLike, seat: Seat, now: datetime, tc: TimeControl, work: Work) -> None:
    timezone, absences = _timezone_and_absences(db, game, seat.user_id)
    due = deadline_for(now, seat.bank_seconds, tc, timezone, absences)
    for kind, when in [*(("reminder", t) for t in reminder_times(now, due, tc)), ("timeout", due)]:
        work.deadlines.append(rows.add_deadline(db, game_id=game.id, seat=seat.seat, kind=kind, due_at=when))


_TIMEZONE_AND_ABSENCES = select(rows.USER.c.timezone, rows.ABSENCE.c.first_day, rows.ABSENCE.c.last_day).select_from(
    rows.USER.outerjoin(rows.ABSENCE, rows.ABSENCE.c.user_id == rows.USER.c.id)
).where(rows.USER.c.id == bindparam("user_id"))


def _timezone_and_absences(db: Session, game: GameLike, user_id: int | None) -> tuple[str, list]:
    """The player's timezone and declared absences (first day, last day): read with
    the locked game (`rows.read_locked`), else in one query."""
    if user_id is None:
        return "UTC", []
    user = users_of(db, game).get(user_id)
    if isinstance(user, rows.UserRow):
        return user.timezone, user.absences
    found = db.connection().execute(_TIMEZONE_AND_ABSENCES, {"user_id": user_id}).all()
    return (found[0][0] if found else "UTC"), [(first, last) for _, first, last in found if first is not None]


def cancel_deadlines(db: Session, game_id: int, seat: int | None, now: datetime) -> None:
    rows.cancel_deadlines(db, game_id, seat, now)
