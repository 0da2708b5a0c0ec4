"""Replays: the game as a viewer saw it at any point, rebuilt from the seed and the
move log (as `play.replay` rebuilds the snapshot). The steps are the entries of the
viewer's own log (GET /api/games/{id}/log), so a setting only its own seat may know
of (a standing answer) is neither a step nor shown; the view is always
`view(state, seat)` of the viewer's seat, or the spectators' one."""
from __future__ import annotations

from sqlmodel import Session

from service import play
from service.errors import Forbidden, NotFound
from service.models import User
# The log's own rules of what a viewer may see of a move, used as they are.
from service.api.games import _hidden_setting, _log_entry, _moves


def step_for(db: Session, game_id: int, user: User | None, step: int) -> dict:
    game = play.load_game(db, game_id)
    seat = play.seat_of_user(db, game, user)
    if seat is None and not game.spectators:
        raise Forbidden("this game has no spectators", code="no_spectators")
    if game.seed is None:
        raise NotFound("the game has not started: there is nothing to replay", code="not_started")
    viewer = seat.seat if seat is not None else None
    rules = play.rules(game)
    moves = _moves(db, game)
    shown = [index for index, move in enumerate(moves) if not _hidden_setting(move, viewer, game, rules)]
    if not 0 <= step <= len(shown):
        raise NotFound(f"your log of this game has {len(shown)} entries: steps go from 0 (the start) "
                       f"to {len(shown)}", code="no_such_step")
    played = moves[:shown[step - 1] + 1] if step else []
    state = play.replay(game, played)
    return {
        "step": step, "steps": len(shown),
        "entry": {**_log_entry(played[-1], viewer, game), "seq": step} if played else None,
        "pending": {str(k): v for k, v in rules.pending(state).items()},
        "view": rules.view(state, viewer),
    }
