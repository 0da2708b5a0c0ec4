"""The rows a use case that changes a game works on, as plain objects, and the writer
that puts what it changed into the database with one Core statement per table.

The game's row is read locked, with its seats and their users, in one statement
(`read_locked`). The use case changes these objects and records the rows it appends
(moves, deadlines, notifications) and the deadlines it cancels; `write` then puts them
in the database, ids returned for the workers: on PostgreSQL a write of a move's size
as one statement (each UPDATE and INSERT a data-modifying CTE, `_write_at_once`), else
one UPDATE of the games, one (executemany) UPDATE of the seats that changed, one UPDATE
cancelling deadlines and one INSERT per table of new rows. The ORM's unit of work, which
cost a third of a move's CPU, stays off this path; the other use cases may still use
ORM objects in the same session (`write` flushes them first). Statements are plain
SQLAlchemy Core, for SQLite and PostgreSQL.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from sqlalchemy import ARRAY, Integer, and_, any_, bindparam, false, insert, literal_column, select, union_all, update
from sqlalchemy.sql.selectable import CompoundSelect, Select
from sqlmodel import Session

from service.models import Absence, Deadline, Game, Move, Notification, Rating, Seat, TableMessage, User

# SQLModel sets `__table__` on a table model when the class is made; its stubs do not say so.
GAME, SEAT, USER = Game.__table__, Seat.__table__, User.__table__  # type: ignore[attr-defined]
MOVE, DEADLINE, NOTIFICATION = Move.__table__, Deadline.__table__, Notification.__table__  # type: ignore[attr-defined]
ABSENCE, RATING = Absence.__table__, Rating.__table__  # type: ignore[attr-defined]
TABLE_MESSAGE = TableMessage.__table__  # type: ignore[attr-defined]
_USER_COLUMNS = (USER.c.id, USER.c.email, USER.c.name, USER.c.timezone)
_GAME_COLUMNS, _SEAT_COLUMNS = list(GAME.c), list(SEAT.c)
# Statements are built once (building one costs more than running it); their bound
# names are not the columns' own, which SQLAlchemy keeps for SET and VALUES. A seat's
# row comes once per absence its user declared (they set the deadlines), with the
# user's rating at the game (shown in the game's answer).
_LOCKED_READ = select(*_GAME_COLUMNS, *_SEAT_COLUMNS, *_USER_COLUMNS, ABSENCE.c.first_day, ABSENCE.c.last_day,
                      RATING.c.mu, RATING.c.sigma).select_from(
    GAME.outerjoin(SEAT, SEAT.c.game_id == GAME.c.id).outerjoin(USER, USER.c.id == SEAT.c.user_id)
    .outerjoin(ABSENCE, ABSENCE.c.user_id == USER.c.id)
    .outerjoin(RATING, and_(RATING.c.user_id == USER.c.id, RATING.c.game_type == GAME.c.game_type,
                            RATING.c.games > 0))
).order_by(SEAT.c.id).with_for_update(of=GAME)
_INSERT_MOVE = insert(MOVE)
_INSERT_RETURNING_ID = {table: insert(table).returning(table.c.id, sort_by_parameter_order=True)
                        for table in (DEADLINE, NOTIFICATION)}
_CANCEL = update(DEADLINE).where(DEADLINE.c.game_id == bindparam("of_game"), DEADLINE.c.done_at.is_(None)).values(
    done_at=bindparam("now"), outcome="cancelled")
_CANCEL_SEATS = _CANCEL.where(DEADLINE.c.seat.in_(bindparam("of_seats", expanding=True)))


@lru_cache(maxsize=64)
def _update_by_id(table, names: tuple[str, ...]):
    """UPDATE of the named columns of one row (by `row_id`), values bound as `new_<name>`."""
    return update(table).where(table.c.id == bindparam("row_id")).values(
        {name: bindparam(f"new_{name}") for name in names})


class Record:
    """A row as a plain object (attributes named as its columns), remembering the
    values it was read with so that `changed` can say what to write."""

    def __init__(self, values: dict, table: Any = None):
        self.__dict__.update(values)
        self._table = table
        self._read: dict[str, Any] = dict(values) if table is not None else {}

    if TYPE_CHECKING:
        # The columns are attributes set from the row read: any name, any value.
        def __getattr__(self, name: str) -> Any: ...
        def __setattr__(self, name: str, value: Any) -> None: ...

    def changed(self) -> dict:
        """The columns whose value differs from the one read (or last written)."""
        current = self.__dict__
        return {name: current[name] for name, old in self._read.items()
                if current[name] is not old and current[name] != old}

    def written(self) -> None:
        self._read = {name: self.__dict__[name] for name in self._read}

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.__dict__.get('id')}>"


class GameRow(Record):
    """A game's row, read locked."""


class SeatRow(Record):
    """A seat's row, read with its locked game."""


class UserRow(Record):
    """The columns of a seat's user that play and the game's answer read, the user's
    `absences` (first day, last day) and `rating` at the game ((mu, sigma), or None
    before his first rated game), as read with the locked game."""


class NewRow(Record):
    """A row to insert; `id` is set when it is written."""


@dataclass
class Changes:
    """What the session's transaction has changed on rows read here and not yet written."""

    records: list[Record] = field(default_factory=list)
    moves: list[dict] = field(default_factory=list)
    deadlines: list[NewRow] = field(default_factory=list)
    notifications: list[NewRow] = field(default_factory=list)
    cancelled: dict[tuple[int, datetime], set] = field(default_factory=dict)  # (game, when): seats, None for all


def changes(db: Session) -> Changes:
    found = db.info.get("changes")
    if found is None:
        found = db.info["changes"] = Changes()
    return found


_BY_ID = _LOCKED_READ.where(GAME.c.id == bindparam("game_id"))


def read_locked(db: Session, game_id: int | None = None, where=None) -> GameRow | None:
    """The game `game_id` (or the one matching `where`, a clause on the game table),
    its row locked for the transaction; its seats and their users (with their
    absences), read in the same statement, are kept in the session's info for
    `play.seats_of` and `play.users_of`."""
    db.flush()  # ORM changes made earlier in the transaction are read back
    connection = db.connection()
    if where is None:
        rows = connection.execute(_BY_ID, {"game_id": game_id}).all()
    else:
        rows = connection.execute(_LOCKED_READ.where(where)).all()
    if not rows:
        return None
    found = changes(db)
    game_columns, seat_columns = _GAME_COLUMNS, _SEAT_COLUMNS
    games, seats = len(game_columns), len(game_columns) + len(seat_columns)
    absences = seats + len(_USER_COLUMNS)
    game = GameRow({c.name: v for c, v in zip(game_columns, rows[0][:games])}, GAME)
    found.records.append(game)
    seat_rows: list[SeatRow] = []
    users: dict[int, UserRow] = {}
    for row in rows:
        if row[games] is None:
            continue  # a game without seats (outer join)
        if not seat_rows or seat_rows[-1].id != row[games]:
            seat = SeatRow({c.name: v for c, v in zip(seat_columns, row[games:seats])}, SEAT)
            seat_rows.append(seat)
            found.records.append(seat)
            if row[seats] is not None:
                rated = row[absences + 2] is not None
                users[row[seats]] = UserRow({**{c.name: v for c, v in zip(_USER_COLUMNS, row[seats:absences])},
                                             "absences": [],
                                             "rating": (row[absences + 2], row[absences + 3]) if rated else None})
        if row[absences] is not None:
            users[row[seats]].absences.append((row[absences], row[absences + 1]))
    db.info[("seats", game.id)] = seat_rows
    db.info[("seat users", game.id)] = users
    return game


def add_move(db: Session, **values) -> None:
    changes(db).moves.append(values)


def add_deadline(db: Session, **values) -> NewRow:
    row = NewRow({"id": None, "done_at": None, "outcome": None, **values})
    changes(db).deadlines.append(row)
    return row


def add_notification(db: Session, **values) -> NewRow:
    row = NewRow({"id": None, **values})
    changes(db).notifications.append(row)
    return row


def cancel_deadlines(db: Session, game_id: int, seat: int | None, now: datetime) -> None:
    """Cancel the game's open deadlines (of one seat, or with None all): those appended
    in this transaction at once, those in the database when written."""
    found = changes(db)
    for row in found.deadlines:
        if row.game_id == game_id and row.done_at is None and (seat is None or row.seat == seat):
            row.done_at, row.outcome = now, "cancelled"
    found.cancelled.setdefault((game_id, now), set()).add(seat)


def write(db: Session) -> None:
    """Write what the transaction changed: ORM objects first, then the records."""
    db.flush()
    found = db.info.get("changes")
    if found is None:
        return
    changed = [(record, values) for record in found.records if (values := record.changed())]
    if not (changed or found.cancelled or found.moves or found.deadlines or found.notifications):
        return  # nothing since the last write: not even the session's connection is asked for
    connection = db.connection()
    if connection.dialect.name == "postgresql" and _fits_one_statement(changed, found):
        _write_at_once(connection, changed, found)
    else:
        _write_each(connection, changed, found)
    for record, _ in changed:
        record.written()
    found.cancelled.clear()
    found.moves.clear()
    found.deadlines.clear()
    found.notifications.clear()


def _write_each(connection, changed: list[tuple[Record, dict]], found: Changes) -> None:
    """One statement per table (an executemany for several rows), for any database."""
    _update(connection, GAME, [(record, values) for record, values in changed if record._table is GAME])
    _update(connection, SEAT, [(record, values) for record, values in changed if record._table is not GAME])
    for (game_id, now), which in found.cancelled.items():
        if None in which:
            connection.execute(_CANCEL, {"of_game": game_id, "now": now})
        else:
            connection.execute(_CANCEL_SEATS, {"of_game": game_id, "now": now, "of_seats": sorted(which)})
    if found.moves:
        connection.execute(_INSERT_MOVE, found.moves)
    for table, rows in ((DEADLINE, found.deadlines), (NOTIFICATION, found.notifications)):
        _insert_returning_ids(connection, table, rows)


# A write this small goes to PostgreSQL as one statement (see `_write_at_once`); a larger
# one (a game's end, many invitations) statement by statement. The bound keeps the
# statements built and cached for the shapes that occur few.
_AT_ONCE = {"records": 8, "moves": 4, "rows": 12}


def _fits_one_statement(changed: list[tuple[Record, dict]], found: Changes) -> bool:
    # Two cancellations of one game's deadlines, or two records of one row (a game read
    # locked twice), would update a row twice in one statement: PostgreSQL does not say
    # which of the two wins, where statement by statement the later one does.
    if len({(record._table.name, record.id) for record, _ in changed}) < len(changed):
        return False
    return len(changed) <= _AT_ONCE["records"] and len(found.cancelled) <= 1 and \
        len(found.moves) <= _AT_ONCE["moves"] and len(found.deadlines) + len(found.notifications) <= _AT_ONCE["rows"]


def _write_at_once(connection, changed: list[tuple[Record, dict]], found: Changes) -> None:
    """Everything in one statement, each update and insert a data-modifying CTE: one
    round trip instead of one per table, and a move's writes cost about a third of the
    CPU they cost statement by statement (each statement's trip through SQLAlchemy and
    psycopg costs more than PostgreSQL's work). The CTEs all see the rows as they were
    before the statement, as the statements in `_write_each` do: a cancellation never
    meets the deadlines inserted with it, and no two CTEs change one row."""
    parameters: dict[str, Any] = {}
    updates = []
    for number, (record, values) in enumerate(changed):
        names = tuple(sorted(values))
        updates.append((record._table, names))
        parameters[f"u{number}_id"] = record.id
        parameters.update({f"u{number}_{name}": getattr(record, name) for name in names})
    cancel = None
    for (game_id, now), which in found.cancelled.items():
        cancel = None not in which
        parameters.update(c_game=game_id, c_now=now)
        if cancel:
            parameters["c_seats"] = sorted(which)
    inserts = []
    appended: tuple[tuple[str, Any, list], ...] = (
        ("m", MOVE, found.moves), ("d", DEADLINE, found.deadlines), ("n", NOTIFICATION, found.notifications))
    for prefix, table, rows in appended:
        shapes = []
        for number, row in enumerate(rows):
            values = _with_defaults(table, row if isinstance(row, dict) else _insert_values(row))
            shapes.append(tuple(values))
            parameters.update({f"{prefix}{number}_{name}": value for name, value in values.items()})
        inserts.append((table, tuple(shapes)))
    sql, converters = _statement_at_once(connection.dialect, tuple(updates), cancel, tuple(inserts))
    for name, convert in converters.items():
        parameters[name] = convert(parameters[name])
    ids: dict[str, list[int]] = {"deadline": [], "notification": []}
    for kind, row_id in connection.exec_driver_sql(sql, parameters):
        ids[kind].append(row_id)
    # A sequence gives a multi-row INSERT's rows rising ids in the rows' order (what
    # SQLAlchemy's own insertmanyvalues counts on for PostgreSQL): sorted, they pair up.
    for rows, kind in ((found.deadlines, "deadline"), (found.notifications, "notification")):
        for row, row_id in zip(rows, sorted(ids[kind])):
            row.id = row_id


def _insert_values(row: NewRow) -> dict:
    return {name: value for name, value in row.__dict__.items() if not name.startswith("_") and name != "id"}


def _with_defaults(table, values: dict) -> dict:
    """`values` with the table's Python-side column defaults (a row's creation time):
    SQLAlchemy fills these in for an INSERT of its own, but not for one inside a CTE."""
    missing = {}
    for column in _defaulted_columns(table):
        if column.name not in values:
            default = column.default
            missing[column.name] = default.arg(None) if default.is_callable else default.arg
    return {**values, **missing}


@lru_cache(maxsize=8)
def _defaulted_columns(table) -> tuple:
    return tuple(column for column in table.c if column.default is not None and column.default.is_scalar
                 or column.default is not None and column.default.is_callable)


@lru_cache(maxsize=128)
def _statement_at_once(dialect, updates: tuple, cancel: bool | None, inserts: tuple) -> tuple[str, dict]:
    """The SQL of `_write_at_once` for one shape of write, and the bound values'
    converters (a JSON column's serializer), by bound name. `updates`: (table, column
    names) per changed row; `cancel`: None, False (all the game's open deadlines) or
    True (those of the seats `c_seats`); `inserts`: (table, column names per row).
    Bound names: `u<n>_<column>`, `c_game`, `c_now`, `c_seats`, `<m|d|n><row>_<column>`.

    Compiled here once per shape and run as the driver's SQL: SQLAlchemy does not keep
    the compiled form of a statement whose CTEs change rows, and compiling it anew for
    every move cost more than the round trips it saves."""
    ctes = []
    for number, (table, names) in enumerate(updates):
        ctes.append(update(table).where(table.c.id == bindparam(f"u{number}_id"))
                    .values({name: bindparam(f"u{number}_{name}", type_=table.c[name].type) for name in names})
                    .cte(f"u{number}"))
    if cancel is not None:
        cancelling = update(DEADLINE).where(DEADLINE.c.game_id == bindparam("c_game"), DEADLINE.c.done_at.is_(None))
        if cancel:
            cancelling = cancelling.where(DEADLINE.c.seat == any_(bindparam("c_seats", type_=ARRAY(Integer))))
        ctes.append(cancelling.values(done_at=bindparam("c_now", type_=DEADLINE.c.done_at.type),
                                      outcome=literal_column("'cancelled'")).cte("c"))
    returned = []
    for (table, shapes), prefix in zip(inserts, "mdn"):
        if not shapes:
            continue
        rows = [{name: bindparam(f"{prefix}{number}_{name}", type_=table.c[name].type) for name in names}
                for number, names in enumerate(shapes)]
        inserting = insert(table).values(rows)
        if table is MOVE:
            ctes.append(inserting.cte(prefix))
        else:
            inserted = inserting.returning(table.c.id).cte(prefix)
            ctes.append(inserted)
            returned.append(select(literal_column(f"'{table.name}'").label("kind"), inserted.c.id))
    main: Select | CompoundSelect
    if not returned:
        main = select(literal_column("'none'").label("kind"), literal_column("0").label("id")).where(false())
    else:
        main = returned[0] if len(returned) == 1 else union_all(*returned)
    compiled = main.add_cte(*ctes).compile(dialect=dialect)
    converters = {name: convert for name, bound in compiled.binds.items()
                  if (convert := bound.type.dialect_impl(dialect).bind_processor(dialect)) is not None}
    return str(compiled), converters


def _update(connection, table, changed: list[tuple[Record, dict]]) -> None:
    """One UPDATE for the changed rows of `table` (executemany when more than one)."""
    if not changed:
        return
    names = tuple(sorted({name for _, values in changed for name in values}))
    parameters = [{"row_id": row.id, **{f"new_{name}": getattr(row, name) for name in names}} for row, _ in changed]
    connection.execute(_update_by_id(table, names), parameters if len(parameters) > 1 else parameters[0])


def _insert_returning_ids(connection, table, rows: list[NewRow]) -> None:
    if not rows:
        return
    values = [{name: value for name, value in row.__dict__.items() if not name.startswith("_") and name != "id"}
              for row in rows]
    ids = connection.execute(_INSERT_RETURNING_ID[table], values).scalars().all()
    for row, row_id in zip(rows, ids):
        row.id = row_id
