"""Leaving a game: resigning, voting to abandon, and a seat timed out by its deadline."""
from __future__ import annotations

from datetime import datetime

from sqlmodel import Session, select

from service import rows
from service.errors import Conflict, Forbidden
from service.models import Deadline, Seat, User, utcnow
from service.play.deadlines import cancel_deadlines
from service.play.ending import finish
from service.play.moves import apply_move, every_decision_begins_again, play_bot, play_for_resigned
from service.play.records import (
    GameLike,
    Work,
    check_version,
    game_state,
    load_game,
    notify,
    rules,
    seat_of_user,
    seats_of,
)


def _active_seat(db: Session, game: GameLike, user: User, version) -> Seat:
    """The user's seat in a game he plays, checked in this order: a stranger is
    refused before the version is compared (he may not learn it), then a stale version,
    then a game that is not under way."""
    seat = seat_of_user(db, game, user)
    if seat is None or seat.seat is None:
        raise Forbidden("you do not play in this game")
    check_version(game, version)
    if game.status != "active":
        raise Conflict(f"the game is {game.status}", code="game_not_active")
    return seat


def resign(db: Session, game_id: int, user: User, version, now: datetime | None = None) -> tuple[rows.GameRow, Work]:
    """The player leaves: ranked last; with two players left the game ends, else the
    service plays the seat's default moves so the others can finish."""
    now = now or utcnow()
    game = load_game(db, game_id, lock=True)
    seat = _active_seat(db, game, user, version)
    if seat.resigned:
        raise Conflict("you have already resigned", code="already_resigned")
    work = Work()
    _resign_seat(db, game, seat, work, now)
    rows.write(db)
    return game, work


def _resign_seat(db: Session, game: GameLike, seat: Seat, work: Work, now: datetime) -> None:
    seat.resigned = True
    game.version += 1
    every_decision_begins_again(db, game)
    seats = [s for s in seats_of(db, game) if s.seat is not None]
    still_playing = [s for s in seats if not s.resigned]
    if len(still_playing) <= 1:
        resigned_last = [[s.seat] for s in seats if s.resigned]
        result = {"reason": "resignation", "ranking": [[s.seat for s in still_playing], *resigned_last]}
        finish(db, game, result, "finished", work, now)
        return
    assert game.id is not None, "a game under way is stored"
    cancel_deadlines(db, game.id, seat.seat, now)
    play_for_resigned(db, game, work, now)


def vote_abandon(db: Session, game_id: int, user: User, version, now: datetime | None = None
                 ) -> tuple[rows.GameRow, Work]:
    """A vote to abandon; when every player still in the game has voted, it ends
    without a result (the seed is revealed as for any ended game)."""
    now = now or utcnow()
    game = load_game(db, game_id, lock=True)
    seat = _active_seat(db, game, user, version)
    seat.abandon_vote = True
    game.version += 1
    every_decision_begins_again(db, game)
    work = Work()
    if all(s.abandon_vote or s.resigned for s in seats_of(db, game) if s.seat is not None):
        finish(db, game, None, "abandoned", work, now)
    rows.write(db)
    return game, work


def time_out(db: Session, deadline_id: int, now: datetime, bot: str | None = None) -> tuple[rows.GameRow | None, Work]:
    """A timeout deadline came due: apply the game's policy if it is still current.
    Idempotent: a deadline already done, or a seat no longer deciding, changes nothing.
    `bot` names the kind that plays a bot seat's turn instead of its own (a search cut short)."""
    of_deadline = select(Deadline.game_id).where(Deadline.id == deadline_id).scalar_subquery()
    game = rows.read_locked(db, where=rows.GAME.c.id == of_deadline)
    if game is None:
        return None, Work()
    # Read under the game's lock: a move that cancelled the deadline has committed by now.
    deadline = db.get(Deadline, deadline_id, populate_existing=True)
    assert deadline is not None, "the game was found through this deadline"
    work = Work()
    if deadline.done_at is not None or game.status != "active":
        return game, work
    deadline.done_at, deadline.outcome = now, "fired"  # written before any cancellation (`rows.write`)
    game_rules = rules(game)
    state = game_state(game)
    if deadline.seat not in game_rules.pending(state):
        return game, work
    seat = next(s for s in seats_of(db, game) if s.seat == deadline.seat)
    assert seat.seat is not None, "the seat owes a decision"
    if deadline.kind == "bot":
        if seat.bot is not None:
            play_bot(db, game, seat.seat, bot or seat.bot, now, work)
        rows.write(db)
        return game, work
    if deadline.kind == "reminder":
        notify(db, work, "reminder", seat.email, seat.user_id, game, seat.seat, {"version": game.version})
        rows.write(db)
        return game, work
    for other in seats_of(db, game):
        if other.status == "accepted" and other.seat != seat.seat and other.bot is None:
            notify(db, work, "deadline_passed", other.email, other.user_id, game, other.seat,
                    {"late_seat": seat.seat, "policy": game.timeout_policy})
    if game.timeout_policy == "forfeit":
        _resign_seat(db, game, seat, work, now)
    elif game.timeout_policy == "bot":
        from service.bots import STAND_IN

        play_bot(db, game, seat.seat, STAND_IN, now, work)
    else:  # skip and default_move both play the engine's least committal move (a pass where there is one)
        # The deadline covered the whole decision (e.g. both actions of a turn).
        while game.status == "active" and seat.seat in game_rules.pending(state):
            move = game_rules.default_move(state, seat.seat)
            assert move is not None, "a seat that owes a decision has a legal move"
            apply_move(db, game, seat.seat, move, True, now, work)
            state = game_state(game)
    rows.write(db)
    return game, work
