"""The rules pages: an index of the games and each game's rules, whose text lives in
the game's own folder (templates/games/<game id>/rules.html). Opened from a game
(`?game=<id>`), a rules page also says which options are on in that game."""
from __future__ import annotations

from flask import Blueprint, abort, render_template, request
from jinja2 import TemplateNotFound

import engine
from service import play
from service.db import reading
from service.errors import NotFound
from service.web import current_user, db_engine

bp = Blueprint("rules", __name__)


@bp.get("/rules")
def rules_index():
    games = [{"id": gid, "name": engine.game_name(gid)} for gid in engine.game_ids()]
    return render_template("pages/rules_index.html", games=games)


@bp.get("/rules/<game_id>")
def rules_page(game_id: str):
    if game_id not in engine.game_ids():
        abort(404, f"no rules for {game_id!r}; the games are {', '.join(engine.game_ids())}")
    rules = engine.get_game(game_id)
    try:
        return render_template(
            "pages/rules.html", game_id=game_id, game_name=engine.game_name(game_id),
            rules_text=f"games/{game_id}/rules.html", default_options=rules.default_options(),
            players=(rules.min_players, rules.max_players), played=_played_game(game_id))
    except TemplateNotFound:
        abort(404, f"the rules of {engine.game_name(game_id)} are not written yet")


def _played_game(game_id: str) -> dict | None:
    """The game named by `?game=`, with its options, when it is a game of these rules
    that the visitor may open (a player of it, or anyone signed in when it has spectators)."""
    wanted = request.args.get("game", "")
    if not wanted.isdigit() or not 1 <= int(wanted) < 2**31:
        return None
    with reading(db_engine()) as db:
        try:
            game = play.load_game(db, int(wanted))
        except NotFound:
            return None
        if game.game_type != game_id:
            return None
        user = current_user(db, required=False)
        if play.seat_of_user(db, game, user) is None and (not game.spectators or user is None):
            return None
        return {"id": game.id, "title": game.title, "options": dict(game.options or {})}
