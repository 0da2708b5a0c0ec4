"""Firing deadlines: the database holds them (truth); each due one is handled by the
`time_out` use case, which re-checks under the game's row lock that it still applies,
so a deadline delivered twice fires once."""
from __future__ import annotations

from datetime import datetime
from typing import cast

from sqlalchemy.engine import Engine
from sqlmodel import col, select

from service.db import transaction
from service.models import Deadline
from service.play import Work, time_out


def open_deadlines(engine: Engine, due_before: datetime | None = None) -> list[tuple[int, float]]:
    """(id, due timestamp) of every deadline not yet fired or cancelled (and due
    before `due_before`, when given)."""
    query = select(col(Deadline.id), col(Deadline.due_at)).where(col(Deadline.done_at).is_(None))
    if due_before is not None:
        query = query.where(Deadline.due_at < due_before)
    with transaction(engine) as db:
        return [(cast(int, deadline_id), due.timestamp()) for deadline_id, due in db.exec(query)]  # ids: never None


def due_ids(engine: Engine, now: datetime, limit: int = 500) -> list[int]:
    with transaction(engine) as db:
        return cast(list[int], list(db.exec(select(Deadline.id).where(  # ids: never None
            col(Deadline.done_at).is_(None), col(Deadline.due_at) <= now).order_by(col(Deadline.due_at)).limit(limit))))


def fire(engine: Engine, deadline_id: int, now: datetime, bot: str | None = None) -> Work:
    """`bot`: the kind that plays a bot seat's turn instead of its own."""
    with transaction(engine) as db:
        _, work = time_out(db, deadline_id, now, bot)
    return work


def bot_turns(engine: Engine, deadline_ids: list[int]) -> set[int]:
    """Those of the deadlines that are bot seats' turns (for the bots' queue)."""
    if not deadline_ids:
        return set()
    with transaction(engine) as db:
        return cast(set[int], set(db.exec(select(col(Deadline.id))  # ids: never None
                                          .where(col(Deadline.id).in_(deadline_ids), col(Deadline.kind) == "bot"))))
