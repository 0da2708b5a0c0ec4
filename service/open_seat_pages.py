"""The open games page (the games waiting for players, each with a Join button) and
the forms that join a game and ask for a rematch. Forms carry CSRF tokens and the
game's version."""
from __future__ import annotations

from types import SimpleNamespace

from flask import Blueprint, flash, redirect, render_template, request, url_for

import engine
from service import play
from service.db import reading
from service.errors import ServiceError, Unauthorized
from service.open_games import open_games
from service.pages import _require_user, to_sign_in
from service.web import current_user, db_engine, invitation_limits, run

bp = Blueprint("open_seat_pages", __name__)
bp.register_error_handler(Unauthorized, to_sign_in)  # a signed-out visitor is sent to sign in, as on the other pages
STALE = "The game changed since you loaded this page; here it is as it is now. Nothing was changed."


@bp.get("/open-games")
def open_games_page():
    _require_user()
    with reading(db_engine()) as db:
        games = open_games(db, current_user(db))
    about = {g["id"]: {"name": engine.game_name(g["game_type"]),
                       "days": play.time_control_of(SimpleNamespace(time_control=g["time_control"])).initial_seconds
                       / 86400} for g in games}
    return render_template("pages/open_games.html", games=games, about=about)


def _form_version() -> int | None:
    text = request.form.get("version", "")
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 10 else None


@bp.post("/games/<id:game_id>/join")
def join(game_id):
    user = _require_user()
    version = _form_version()
    if version is None:
        flash("The form lost the game's version; reload the page.", "error")
        return redirect(url_for("open_seat_pages.open_games_page"))
    try:
        run(lambda db: play.join(db, game_id, play.load_user(db, user.id), version))
    except ServiceError as err:
        flash(STALE if err.code == "stale_version" else err.message, "error")
        return redirect(url_for("open_seat_pages.open_games_page"))
    flash("You have a seat; the game starts when every seat is filled.")
    return redirect(url_for("pages.game_page", game_id=game_id))


@bp.post("/games/<id:game_id>/rematch")
def rematch(game_id):
    user = _require_user()
    version = _form_version()
    if version is None:
        flash("The form lost the game's version; reload the page.", "error")
        return redirect(url_for("pages.game_page", game_id=game_id))
    try:
        game, _ = run(lambda db: play.rematch(db, game_id, play.load_user(db, user.id), version,
                                              limits=invitation_limits()))
    except ServiceError as err:
        flash(STALE if err.code == "stale_version" else err.message, "error")
        return redirect(url_for("pages.game_page", game_id=game_id))
    flash("The rematch is set up; the other players are invited by email.")
    return redirect(url_for("pages.game_page", game_id=game.id))
