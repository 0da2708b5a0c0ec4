"""Finding a game: the games waiting for players, joining one, and a rematch of an
ended game."""
from __future__ import annotations

from flask.views import MethodView
from flask_smorest import Blueprint

from service import play
from service.db import reading
from service.open_games import open_games
from service.schemas import GameSchema, OpenGameListSchema, ProblemSchema, VersionSchema
from service.web import current_user, db_engine, invitation_limits, present_game, run

blp = Blueprint("open_seats", __name__, url_prefix="/api", description="Open seats and rematches")
ERRORS = {401: "not signed in", 403: "not yours to do", 404: "no such game",
          409: "stale version, no open seat, already in the game, or not ended", 429: "too many invitations"}


def errors(*statuses):
    def decorate(view):
        for status in statuses:
            view = blp.alt_response(status, schema=ProblemSchema, description=ERRORS[status])(view)
        return view
    return decorate


def _present(game_id: int) -> dict:
    with reading(db_engine()) as db:
        return present_game(db, play.load_game(db, game_id), current_user(db))


@blp.route("/open-games")
class OpenGames(MethodView):
    @blp.response(200, OpenGameListSchema)
    @errors(401)
    def get(self):
        """The games waiting for players (newest first): game, options, time control, who is in
        and how many seats are open. Join one with POST /api/games/{id}/join."""
        with reading(db_engine()) as db:
            return {"games": open_games(db, current_user(db))}


@blp.route("/games/<id:game_id>/join")
class Join(MethodView):
    @blp.arguments(VersionSchema)
    @blp.response(200, GameSchema)
    @errors(401, 404, 409)
    def post(self, data, game_id):
        """Take an open seat at the version the caller saw; the game starts when every seat is
        filled. Of two joiners for the last seat one is seated, the other gets 409."""
        run(lambda db: play.join(db, game_id, current_user(db), data["version"]))
        return _present(game_id)


@blp.route("/games/<id:game_id>/rematch")
class Rematch(MethodView):
    @blp.arguments(VersionSchema)
    @blp.response(201, GameSchema)
    @errors(401, 403, 404, 409, 429)
    def post(self, data, game_id):
        """Start a new game like this ended one (a player of it only, once): same type and
        settings, the same players and bots, each one seat on; the others are invited."""
        game, _ = run(lambda db: play.rematch(db, game_id, current_user(db), data["version"],
                                              limits=invitation_limits()))
        return _present(game.id)
