"""The games waiting for players: those created with open seats that anyone signed
in may join, newest first."""
from __future__ import annotations

from sqlmodel import Session, col, select

from service.models import Game, User
from service.web import present_game

MAX_LISTED = 100  # the newest; an older game waiting this long is rarely joined


def open_games(db: Session, user: User) -> list[dict]:
    """Each game still open with an open seat, as `user` may see it (names, not
    addresses, unless he is in it), with its open seats and whether he is in it."""
    games = db.exec(select(Game).where(Game.status == "open", Game.open_seats > 0)
                    .order_by(col(Game.created_at).desc(), col(Game.id).desc()).limit(MAX_LISTED)).all()
    listed = []
    for game in games:
        shown = present_game(db, game, user)
        shown["seats"] = game.players
        shown["you_are_in"] = any(p["email"] is not None for p in shown["player_list"])
        listed.append(shown)
    return listed
