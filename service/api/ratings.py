"""Ratings: each game's leaderboard and a player's ratings."""
from __future__ import annotations

from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields

import engine
from service import ratings
from service.db import reading
from service.errors import NotFound
from service.models import User
from service.schemas import ProblemSchema
from service.web import current_user, db_engine

blp = Blueprint("ratings", __name__, url_prefix="/api", description="Ratings and players")


class RatingSchema(Schema):
    place = fields.Integer(metadata={"description": "1 is the best rated (leaderboard only)"})
    player = fields.Integer(metadata={"description": "the player's id (his page: /players/{id})"})
    name = fields.String()
    game = fields.String(metadata={"description": "the game's id"})
    rating = fields.Integer(metadata={"description": "the shown rating: the ordinal mu - 3 sigma, rounded"})
    mu = fields.Float(metadata={"description": "the Plackett-Luce model's estimate of the player's skill"})
    sigma = fields.Float(metadata={"description": "its uncertainty (falls as the player plays rated games)"})
    games = fields.Integer(metadata={"description": "rated games played to the end"})


class LeaderboardSchema(Schema):
    game = fields.String()
    ratings = fields.List(fields.Nested(RatingSchema))


class PlayerRatingsSchema(Schema):
    player = fields.Integer()
    name = fields.String()
    ratings = fields.List(fields.Nested(RatingSchema))


@blp.route("/ratings/<game_type>")
class Leaderboard(MethodView):
    @blp.response(200, LeaderboardSchema)
    @blp.alt_response(401, schema=ProblemSchema, description="not signed in")
    @blp.alt_response(404, schema=ProblemSchema, description="no such game")
    def get(self, game_type):
        """A game's rated players, best first (rated games played to the end)."""
        with reading(db_engine()) as db:
            current_user(db)
            if game_type not in engine.game_ids():
                raise NotFound(f"no game {game_type!r}; the games are {', '.join(engine.game_ids())}")
            return {"game": game_type, "ratings": ratings.leaderboard(db, game_type)}


@blp.route("/players/<id:user_id>/ratings")
class PlayerRatings(MethodView):
    @blp.response(200, PlayerRatingsSchema)
    @blp.alt_response(401, schema=ProblemSchema, description="not signed in")
    @blp.alt_response(404, schema=ProblemSchema, description="no such player")
    def get(self, user_id):
        """A player's ratings, one per game he has played rated."""
        with reading(db_engine()) as db:
            current_user(db)
            user = db.get(User, user_id)
            if user is None:
                raise NotFound(f"no player {user_id}")
            return {"player": user.id, "name": ratings.player_name(user),
                    "ratings": ratings.ratings_of_user(db, user_id)}
