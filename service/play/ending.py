"""The end of a game: its result stored, its deadlines cancelled, everyone told."""
from __future__ import annotations

from datetime import datetime

from sqlmodel import Session

from service import ratings
from service.play.deadlines import cancel_deadlines
from service.play.records import GameLike, Work, notify, seats_of


def finish(db: Session, game: GameLike, result: dict | None, status: str, work: Work, now: datetime) -> None:
    game.status = status
    game.finished_at = now
    game.result = json_keys(result) if result is not None else None
    assert game.id is not None, "a game that ends is stored"
    cancel_deadlines(db, game.id, None, now)
    if status == "finished" and game.rated:
        ratings.rate_game(db, game, seats_of(db, game), now)
    for seat in seats_of(db, game):
        if seat.status == "accepted" and seat.bot is None:
            notify(db, work, "game_over", seat.email, seat.user_id, game, seat.seat, {"status": status})


def json_keys(value):
    """The outcome with its integer keys as strings, as JSON stores them."""
    if isinstance(value, dict):
        return {str(k): json_keys(v) for k, v in value.items()}
    if isinstance(value, list):
        return [json_keys(v) for v in value]
    return value
