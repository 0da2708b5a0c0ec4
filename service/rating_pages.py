"""The ratings pages: a game's leaderboard and a player's page (name, games in play
and ended, ratings). Both are for signed-in readers, and name players as the game
page does, never by address."""
from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, request, url_for
from sqlmodel import col, select

import engine
from service import ratings
from service.db import reading
from service.models import Game, Seat, User
from service.web import current_user, db_engine

bp = Blueprint("rating_pages", __name__)


def _signed_in() -> User | None:
    with reading(db_engine()) as db:
        return current_user(db, required=False)


def _to_sign_in():
    return redirect(url_for("pages.sign_in", next=request.path))


@bp.get("/ratings/<game_type>")
def leaderboard(game_type):
    if _signed_in() is None:
        return _to_sign_in()
    if game_type not in engine.game_ids():
        abort(404)
    with reading(db_engine()) as db:
        board = ratings.leaderboard(db, game_type)
    games = [{"id": gid, "name": engine.game_name(gid)} for gid in engine.game_ids()]
    return render_template("pages/ratings.html", board=board, game_type=game_type,
                           game_name=engine.game_name(game_type), games=games)


@bp.get("/players/<id:user_id>")
def player_page(user_id):
    reader = _signed_in()
    if reader is None:
        return _to_sign_in()
    with reading(db_engine()) as db:
        user = db.get(User, user_id)
        if user is None:
            abort(404)
        shown, private = games_of_player(db, user_id, reader.id)
        board = ratings.ratings_of_user(db, user_id)
    for entry in board:
        entry["game_name"] = engine.game_name(entry["game"])
    return render_template("pages/player.html", name=ratings.player_name(user), ratings=board,
                           in_play=[g for g in shown if g["status"] == "active"],
                           ended=[g for g in shown if g["status"] in ("finished", "abandoned")], private=private)


def games_of_player(db, user_id: int, reader_id: int) -> tuple[list[dict], int]:
    """The player's started games the reader may open (watchable, or his own too),
    newest first, and how many others there are (counted, not shown)."""
    seated = select(col(Seat.game_id)).where(col(Seat.user_id) == user_id, col(Seat.seat).is_not(None))
    readers = set(db.exec(select(Seat.game_id).where(Seat.user_id == reader_id, Seat.status != "declined")).all())
    # sqlmodel's select is typed for up to four columns; it takes any number.
    games = db.exec(select(Game.id, Game.title, Game.game_type, Game.status,  # type: ignore[call-overload]
                           Game.spectators, Game.rated, Game.finished_at, Game.started_at)
                    .where(col(Game.id).in_(seated), col(Game.status).in_(("active", "finished", "abandoned")))
                    .order_by(col(Game.id).desc())).all()
    shown = [{"id": g.id, "title": g.title, "game_name": engine.game_name(g.game_type), "status": g.status,
              "rated": g.rated, "finished_at": g.finished_at, "started_at": g.started_at}
             for g in games if g.spectators or g.id in readers]
    return shown, len(games) - len(shown)
