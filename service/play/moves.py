"""Submitting a move: read it, check the version the player saw, apply it, and write
what follows (the decisions that begin, bots' and resigned seats' turns, deadlines,
notifications); and the state rebuilt from the move log."""
from __future__ import annotations

from datetime import datetime

from sqlmodel import Session

import engine
from service import rows
from service.errors import Conflict, Forbidden, Invalid
from service.models import Move, Seat, User, utcnow
from service.play.deadlines import cancel_deadlines, time_control_of, write_deadlines
from service.play.ending import finish
from service.play.records import (
    GameLike,
    Work,
    aware,
    check_decision_version,
    check_version,
    game_state,
    load_game,
    log,
    notify,
    rules,
    seat_of_user,
    seats_of,
    state_key,
)
from service.play.state_cache import states
from service.time_control import bank_after_decision


def read_move(game: GameLike, move=None, text=None) -> dict:
    game_rules = rules(game)
    if (move is None) == (text is None):
        raise Invalid("send either a move object or its text notation", code="bad_move")
    if text is not None:
        try:
            return game_rules.parse_move(text)
        except engine.MoveParseError as err:
            raise Invalid(err.message, code=err.code) from None
    _check_move_shape(move)
    return move


def _check_move_shape(move: dict) -> None:
    if not isinstance(move.get("type"), str):
        raise Invalid("a move needs a `type` that is a string (see the game's move notation)", code="bad_move")


def submit_user_move(db: Session, game_id: int, user: User, version, move: dict | None = None,
                     text: str | None = None) -> tuple[GameLike, int, list[dict], Work]:
    """A player's move (an object, or its text notation) at the version he saw (any
    version since his decision began: `check_decision_version`); returns the game, his
    seat number, the move's events and the work."""
    game = load_game(db, game_id, lock=True)
    seat = seat_of_user(db, game, user)
    if seat is None or seat.seat is None:
        raise Forbidden("you do not play in this game")
    if seat.resigned:
        raise Conflict("you have resigned from this game", code="resigned")
    played, events, work = _submit(db, game, seat.seat, read_move(game, move, text), version, False, utcnow(),
                                   per_seat=True)
    return played, seat.seat, events, work


def submit_move(db: Session, game_id: int, seat_number: int, move: dict, version,
                by_service: bool = False, now: datetime | None = None,
                email_mover: bool | None = None, per_seat: bool = False) -> tuple[GameLike, list[dict], Work]:
    """Apply `move` for `seat_number` if the game is still at `version` (`per_seat`:
    if the seat's decision still stands at `version`, see `check_decision_version`).
    `email_mover`: whether the mover gets a decision email when he still owes one
    (True: always, for a player who plays from email links; False: never, when the
    answer to his emailed reply shows the decision; None: only for a new kind of
    decision, as for a player on the game page)."""
    return _submit(db, load_game(db, game_id, lock=True), seat_number, move, version, by_service, now or utcnow(),
                   email_mover, per_seat)


def submit_move_to_locked(db: Session, game: rows.GameRow, seat_number: int, move: dict, version,
                          email_mover: bool | None = None) -> tuple[rows.GameRow, list[dict], Work]:
    """`submit_move` on a game the caller read with `load_game(lock=True)` in this
    transaction, for a use case that looks at the game before it moves: no other
    move can come between its look and its move."""
    _, events, work = _submit(db, game, seat_number, move, version, False, utcnow(), email_mover)
    return game, events, work


def _submit(db: Session, game: GameLike, seat_number: int, move: dict, version, by_service: bool, now: datetime,
            email_mover: bool | None = None, per_seat: bool = False) -> tuple[GameLike, list[dict], Work]:
    if per_seat:
        check_decision_version(db, game, seat_number, version)
    else:
        check_version(game, version)
    if game.status != "active":
        raise Conflict(f"the game is {game.status}; no moves are taken", code="game_not_active")
    work = Work()
    events = apply_move(db, game, seat_number, move, by_service, now, work, email_mover)
    rows.write(db)
    return game, events, work


def apply_move(db: Session, game: GameLike, seat_number: int, move: dict, by_service: bool,
           now: datetime, work: Work, email_mover: bool | None = None) -> list[dict]:
    game_rules = rules(game)
    state = previous = game_state(game)
    before = game_rules.pending(state)
    if seat_number not in before:
        raise Forbidden("this is not your decision now", code="not_your_turn")
    try:
        state, events = game_rules.apply(state, seat_number, move)
    except engine.IllegalMove as err:
        raise Invalid(err.message, code=err.code) from None
    except (TypeError, KeyError, ValueError, AttributeError) as err:
        # A field of the wrong JSON type (a list for a colour) that the engine's
        # checks did not expect; the engine is left as it was (it never mutates).
        log.warning("move %r for game %s refused by a %s: %s", move, game.id, type(err).__name__, err)
        raise Invalid("the move's fields do not fit the game's move notation (see its docs): "
                      f"{sorted(move)}", code="bad_move") from None
    game.move_count += 1
    rows.add_move(db, game_id=game.id, seq=game.move_count, seat=seat_number, move=move, events=events,
                  by_service=by_service)
    game.state = game_rules.to_json(state)
    if isinstance(game, rows.GameRow):
        game.parsed_state = (game.state, state)
    if not unnoticed_setting(game_rules, move, events, seat_number, before, game_rules.pending(state)):
        game.version += 1
    # For the next request on this game (kept even if this transaction rolls back: the
    # entry is served only for a row that holds this very JSON).
    states.put(state_key(game), game.state, state)
    decisions_began(db, game, previous, state, before, seat_number)
    decisions_changed(db, game, before, state, work, now, mover=(seat_number, email_mover))
    play_for_resigned(db, game, work, now)
    return events


def unnoticed_setting(game_rules, move: dict, events: list[dict], seat: int, before: dict, after: dict) -> bool:
    """Whether `move` is a setting (the card game's standing answer) that the other
    seats must not notice: every event is the mover's own and nobody's decision
    changed. It keeps the game's version, so no other page reloads and no other
    player's move goes stale; the move log shows it to the mover alone."""
    if move.get("type") not in game_rules.setting_moves:
        return False
    return before == after and all(event.get("visible_to") == [seat] for event in events)


def decisions_began(db: Session, game: GameLike, previous, state, before: dict, mover: int) -> None:
    """Note the version at which each seat's decision began: for the mover, a seat that
    newly owes one or owes another kind, and a seat whose open moves the move changed
    (compared only in simultaneous decisions, where another seat stays pending)."""
    game_rules = rules(game)
    after = game_rules.pending(state)
    for seat in seats_of(db, game):
        kind = after.get(seat.seat) if seat.seat is not None else None
        if kind is None:
            if seat.decision_version is not None:
                seat.decision_version = None
            continue
        assert seat.seat is not None, "its decision was found by its number"
        stands = seat.seat != mover and before.get(seat.seat) == kind and seat.decision_version is not None \
            and game_rules.legal_moves(previous, seat.seat) == game_rules.legal_moves(state, seat.seat)
        if not stands and seat.decision_version != game.version:
            seat.decision_version = game.version


def every_decision_begins_again(db: Session, game: GameLike) -> None:
    """After a change outside the moves (a resignation, an abandon vote), every open
    decision counts from the new version: a move sent before it is stale."""
    for seat in seats_of(db, game):
        if seat.decision_version is not None:
            seat.decision_version = game.version


def last_move_seq(db: Session, game: GameLike) -> int:
    """The move log's last sequence number."""
    return game.move_count


def play_for_resigned(db: Session, game: GameLike, work: Work, now: datetime) -> None:
    """Seats whose players resigned are played by the stand-in bot (one move here;
    `apply_move` comes back here for the next)."""
    from service.bots import STAND_IN, bot_move

    resigned = {s.seat for s in seats_of(db, game) if s.resigned}
    if game.status != "active" or not resigned:
        return
    game_rules = rules(game)
    state = game_state(game)
    due = [s for s in game_rules.pending(state) if s in resigned]
    assert game.id is not None, "a game under way is stored"
    if due:
        apply_move(db, game, due[0], bot_move(game.game_type, game.id, state, due[0], STAND_IN), True, now, work)


def decisions_changed(db: Session, game: GameLike, before: dict, state, work: Work, now: datetime,
                       mover: tuple[int, bool | None] = (-1, None)) -> None:
    """Charge clocks of seats that decided, start clocks and write deadlines for
    seats that newly owe a decision, email every seat that owes a new kind of
    decision (a war right after one's own tile, say), and finish the game if it ended.
    `mover` is the seat that moved and whether it gets an email (see `submit_move`)."""
    game_rules = rules(game)
    after = game_rules.pending(state)
    seats = {s.seat: s for s in seats_of(db, game) if s.seat is not None}
    tc = time_control_of(game)
    assert game.id is not None, "a game under way is stored"
    for number in set(before) - set(after):
        seat = seats[number]
        if seat.decision_started_at is not None:
            used = (now - aware(seat.decision_started_at)).total_seconds()
            seat.bank_seconds = bank_after_decision(seat.bank_seconds, used, tc)
            seat.decision_started_at = None
        cancel_deadlines(db, game.id, number, now)
    last_seq = last_move_seq(db, game)
    mover_seat, email_mover = mover
    for number in sorted(after):
        seat, new = seats[number], number not in before
        emailed = new or before[number] != after[number]
        if number == mover_seat and email_mover is not None:
            emailed = email_mover
        if seat.bot is not None:
            emailed = False  # a bot never gets email
            if new:
                _bot_turn(db, game, seat, now, work)
        elif seat.resigned:
            emailed = False
        elif new:
            write_deadlines(db, game, seat, now, tc, work)
        if emailed:
            notify(db, work, "your_turn", seat.email, seat.user_id, game, number,
                    {"since_seq": seat.last_seen_seq, "upto_seq": last_seq, "version": game.version})
            seat.last_seen_seq = last_seq
        if new:  # set after the reads above, so the seat's row is written once
            seat.decision_started_at = now
    outcome = game_rules.outcome(state)
    if outcome is not None:
        finish(db, game, outcome, "finished", work, now)


def _bot_turn(db: Session, game: GameLike, seat: Seat, now: datetime, work: Work) -> None:
    """A bot seat owes a decision: a deadline due at once, which a worker fires by
    letting the bot play (`time_out`); no email."""
    work.deadlines.append(rows.add_deadline(db, game_id=game.id, seat=seat.seat, kind="bot", due_at=now))


def play_bot(db: Session, game: GameLike, seat_number: int, kind: str, now: datetime, work: Work) -> None:
    """Moves by a bot of `kind` for the seat while it owes a decision, each through
    the move path of a person's (applied to the current version, logged, telling the
    humans who come to owe a decision). The caller holds the game's row lock, so the
    version the bot decided on cannot go stale under it."""
    from service.bots import bot_move

    game_rules = rules(game)
    state = game_state(game)
    assert game.id is not None, "a game under way is stored"
    while game.status == "active" and seat_number in game_rules.pending(state):
        move = bot_move(game.game_type, game.id, state, seat_number, kind)
        apply_move(db, game, seat_number, move, True, now, work)
        state = game_state(game)


def replay(game: GameLike, moves: list[Move]):
    """The state rebuilt from the seed and the move log."""
    game_rules = rules(game)
    assert game.seed is not None, "a game that started has its seed"
    state = game_rules.setup(game.players, game.seed, game.options)
    for row in moves:
        state, _ = game_rules.apply(state, row.seat, row.move)
    return state
