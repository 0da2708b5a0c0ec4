"""Replays: the game as a viewer saw it at any point, rebuilt from the seed and the
move log (as `play.replay` rebuilds the snapshot). The steps are the entries of the
viewer's own log (GET /api/games/{id}/log), so a setting only its own seat may know
of (a standing answer) is neither a step nor shown; the view is always
`view(state, seat)` of the viewer's seat, or the spectators' one."""
from __future__ import annotations

from collections.abc import Iterator

from sqlmodel import Session

from service import play

# The log's own rules of what a viewer may see of a move, used as they are.
from service.api.games import _hidden_setting, _log_entry, _moves
from service.errors import Forbidden, NotFound
from service.models import Game, Move, User


def viewer_of(db: Session, game: Game, user: User | None) -> int | None:
    """The reader's seat number, None for a spectator; Forbidden for a stranger."""
    seat = play.seat_of_user(db, game, user)
    if seat is None and not game.spectators:
        raise Forbidden("this game has no spectators", code="no_spectators")
    return seat.seat if seat is not None else None


def steps(game: Game, moves: list[Move], viewer: int | None) -> Iterator[dict]:
    """Every step of the viewer's replay, from 0 (the start) on, each played from the
    one before: {step, steps, entry, state}; `seen` adds what the viewer saw there."""
    rules = play.rules(game)
    shown = [not _hidden_setting(move, viewer, game, rules) for move in moves]
    count = sum(shown)
    assert game.seed is not None, "a game replayed has started"
    state = rules.setup(game.players, game.seed, game.options)
    yield {"step": 0, "steps": count, "entry": None, "state": state}
    step = 0
    for move, visible in zip(moves, shown):
        state, _ = rules.apply(state, move.seat, move.move)
        if visible:
            step += 1
            yield {"step": step, "steps": count, "entry": {**_log_entry(move, viewer, game), "seq": step},
                   "state": state}


def seen(game: Game, found: dict, viewer: int | None) -> dict:
    """A step with what the viewer saw there: who was pending, and his view."""
    rules = play.rules(game)
    return {**found, "pending": {str(k): v for k, v in rules.pending(found["state"]).items()},
            "view": rules.view(found["state"], viewer)}


def step_for(db: Session, game_id: int, user: User | None, step: int) -> dict:
    """One step of the reader's replay (NotFound past his log's end)."""
    game = play.load_game(db, game_id)
    viewer = viewer_of(db, game, user)
    if game.seed is None:
        raise NotFound("the game has not started: there is nothing to replay", code="not_started")
    for found in steps(game, _moves(db, game), viewer):
        if found["step"] == step:
            return seen(game, found, viewer)
    count = found["steps"]
    raise NotFound(f"your log of this game has {count} entries: steps go from 0 (the start) to {count}",
                   code="no_such_step")
