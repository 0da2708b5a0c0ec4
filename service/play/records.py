"""Loading a game and its seats, checking versions, and the work a use case leaves
for the workers (notifications, deadlines): what every use case of play shares."""
from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass, field
from typing import Literal, TypeAlias, overload

from sqlmodel import Session, col, select

import engine
from service import rows
from service.errors import NotFound, Stale
from service.models import Game, Seat, User, aware
from service.play.state_cache import states

TIMEOUT_POLICIES = ("bot", "default_move", "skip", "forfeit")


log = logging.getLogger(__name__)


@dataclass
class Work:
    """What a transaction left for the workers: notifications and deadlines."""

    notifications: list[rows.NewRow] = field(default_factory=list)
    deadlines: list[rows.NewRow] = field(default_factory=list)

    @property
    def ids(self) -> tuple[list[int], list[tuple[int, float]]]:
        """The notification ids, and each deadline's (id, due timestamp), once written
        (`rows.write`)."""
        if any(row.id is None for row in [*self.notifications, *self.deadlines]):
            raise RuntimeError("the work's rows are not written yet (rows.write)")
        return [n.id for n in self.notifications], [(d.id, aware(d.due_at).timestamp()) for d in self.deadlines]


# A game as the use cases read it: an ORM row, or the locked record (`load_game(lock=True)`).
GameLike: TypeAlias = Game | rows.GameRow


@overload
def load_game(db: Session, game_id: int, lock: Literal[False] = False) -> Game: ...
@overload
def load_game(db: Session, game_id: int, lock: Literal[True]) -> rows.GameRow: ...
@overload
def load_game(db: Session, game_id: int, lock: bool) -> GameLike: ...
def load_game(db: Session, game_id: int, lock: bool = False) -> GameLike:
    """The game. With `lock`, for a use case that changes it: its row locked for the
    transaction and read as a plain record, with its seats and their users read in the
    same statement (see `seats_of`); `rows.write` writes what the use case changed."""
    game: GameLike | None
    if lock:
        game = rows.read_locked(db, game_id)
    else:
        game = db.exec(select(Game).where(Game.id == game_id)).first()
    if game is None:
        raise NotFound(f"no game {game_id}")
    return game


def load_user(db: Session, user_id: int) -> User:
    user = db.get(User, user_id)
    if user is None:
        raise NotFound(f"no user {user_id}")
    return user


def seats_of(db: Session, game: GameLike) -> list[Seat]:
    """The game's seats, read once per transaction and kept, so changes made to them
    are seen (`forget_seats` after adding one): records read with the locked game
    (`rows.read_locked`), else ORM rows read here. Their users come in the same query
    (see `users_of`)."""
    key = ("seats", game.id)
    if key not in db.info:
        found = db.exec(select(Seat, User).outerjoin(User, col(User.id) == Seat.user_id)
                        .where(Seat.game_id == game.id).order_by(col(Seat.id))
                        .execution_options(populate_existing=True)).all()
        db.info[key] = [seat for seat, _ in found]
        db.info[("seat users", game.id)] = {user.id: user for _, user in found if user is not None}
    return db.info[key]


def users_of(db: Session, game: GameLike) -> dict:
    """The users of the game's seats by id, read with the seats."""
    seats_of(db, game)
    return db.info[("seat users", game.id)]


def forget_seats(db: Session, game: GameLike) -> None:
    db.info.pop(("seats", game.id), None)
    db.info.pop(("seat users", game.id), None)


def seat_of_user(db: Session, game: GameLike, user: User | None) -> Seat | None:
    """The user's seat; none once he declined (he is then a stranger to the game)."""
    if user is None:
        return None
    return next((s for s in seats_of(db, game) if s.user_id == user.id and s.status != "declined"), None)


def check_version(game: GameLike, version) -> None:
    if not isinstance(version, int) or isinstance(version, bool) or version != game.version:
        raise Stale(
            f"the game has changed: it is at version {game.version}, not {version!r}",
            current_version=game.version,
        )


def decision_is_current(db: Session, game: GameLike, seat_number: int, version) -> bool:
    """Whether `version` is one at which the seat's current decision stood: from the
    version where it began up to the game's. A move by another seat that left this
    seat's decision as it was (a simultaneous choice) does not make it stale; the
    seat's own move does, so one decision is never applied twice. A seat that owes
    nothing, or whose decision's start is unknown, needs the game's own version."""
    if not isinstance(version, int) or isinstance(version, bool) or game.status != "active":
        return version == game.version and not isinstance(version, bool)
    if version != game.version:
        # The seats read with the locked game come from before any wait for its lock
        # (PostgreSQL re-reads only the locked row): read them as committed now.
        forget_seats(db, game)
    seat = next((s for s in seats_of(db, game) if s.seat == seat_number), None)
    began = seat.decision_version if seat is not None else None
    if began is None or seat_number not in rules(game).pending(game_state(game)):
        return version == game.version
    return began <= version <= game.version


def check_decision_version(db: Session, game: GameLike, seat_number: int, version) -> None:
    """Conflict (409) unless the seat's decision still stands at `version`."""
    if not decision_is_current(db, game, seat_number, version):
        raise Stale(f"the game has changed: it is at version {game.version}, not {version!r}, and your "
                    "decision is not the one you saw", current_version=game.version)


def rules(game: GameLike) -> engine.Game:
    return engine.get_game(game.game_type)


def game_state(game: GameLike):
    parsed = getattr(game, "parsed_state", None)  # a record keeps the state its last move made
    if parsed is not None and parsed[0] is game.state:
        return parsed[1]
    assert game.state is not None, "a game has a state once it started"
    key = state_key(game)
    state = states.get(key, game.state)
    if state is None:
        state = rules(game).from_json(game.state)
        states.put(key, game.state, state)
    return state


def state_key(game: GameLike) -> tuple:
    """A setting move (see `moves.unnoticed_setting`) keeps the version: the move count
    tells its state from the one before."""
    return game.id, game.version, game.move_count


def notify(db: Session, work: Work, kind: str, email: str, user_id=None, game: GameLike | None = None,
            seat: int | None = None, payload: dict | None = None) -> rows.NewRow:
    """An outbox row, written by `rows.write` (at the latest before the commit)."""
    row = rows.add_notification(
        db, kind=kind, email=email, user_id=user_id, game_id=game.id if game else None, seat=seat,
        payload=payload or {}, message_id=f"<{uuid.uuid4().hex}@turnpost>",
    )
    work.notifications.append(row)
    return row

