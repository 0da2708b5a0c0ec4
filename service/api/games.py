"""Games: create, invite, answer, read, play, leave, export."""
from __future__ import annotations

from flask import jsonify, request
from flask.views import MethodView
from flask_smorest import Blueprint
from sqlmodel import col, select

import engine
from service import play, table_talk
from service.db import reading
from service.errors import Conflict, Forbidden
from service.models import Game, Move, Seat
from service.plain_dump import json_answer
from service.schemas import (
    CreateGameSchema,
    ExportSchema,
    GameListSchema,
    GameSchema,
    InviteSchema,
    LegalMovesSchema,
    LogSchema,
    MoveResultSchema,
    MoveSchema,
    ProblemSchema,
    VersionSchema,
    WaitingQuerySchema,
)
from service.web import current_user, db_engine, invitation_limits, present_game, run

blp = Blueprint("games", __name__, url_prefix="/api", description="Games and moves")
ERRORS = {401: "not signed in", 403: "not yours to do", 404: "no such game", 409: "stale version or wrong state",
          422: "invalid input or illegal move", 429: "too many invitations"}


def errors(*statuses):
    def decorate(view):
        for status in statuses:
            view = blp.alt_response(status, schema=ProblemSchema, description=ERRORS[status])(view)
        return view
    return decorate


def _present(game_id: int) -> dict:
    with reading(db_engine()) as db:
        return present_game(db, play.load_game(db, game_id), current_user(db))


def _user_then(usecase):
    """Run `usecase(db, user, ...)` with the requesting user, in one transaction."""
    def call(db, *args, **kwargs):
        return usecase(db, *args[:1], current_user(db), *args[1:], **kwargs)
    return call


@blp.route("/games")
class Games(MethodView):
    @blp.arguments(CreateGameSchema)
    @blp.response(201, GameSchema)
    @errors(401, 422, 429)
    def post(self, data):
        """Create a game; the creator takes the first seat and may invite others, and leave
        `open_seats` for anyone to join (see /api/open-games)."""
        def create(db):
            user = current_user(db)
            return play.create_game(
                db, user, data["game"], data["players"], data["options"], data["invite"],
                data["seat_order"], data["spectators"], data["time_control"], data["timeout_policy"], data["title"],
                limits=invitation_limits(), rated=data["rated"], open_seats=data["open_seats"],
            )
        game, _ = run(create)
        return _present(game.id)


@blp.route("/games/<id:game_id>")
class GameResource(MethodView):
    @blp.response(200, GameSchema)
    @errors(401, 403, 404)
    def get(self, game_id):
        """The game as the caller may see it: his view, who is pending, the version."""
        with reading(db_engine()) as db:
            user = current_user(db)
            game = play.load_game(db, game_id)
            if play.seat_of_user(db, game, user) is None and not game.spectators:
                raise Forbidden("this game has no spectators", code="no_spectators")
            return present_game(db, game, user)


@blp.route("/games/<id:game_id>/invitations")
class Invitations(MethodView):
    @blp.arguments(InviteSchema)
    @blp.response(200, GameSchema)
    @errors(401, 403, 404, 409, 422, 429)
    def post(self, data, game_id):
        """Invite a player by email (the creator only, before the start)."""
        run(_user_then(play.invite), game_id, data["email"], data["version"], limits=invitation_limits())
        return _present(game_id)


def _respond(accept: bool):
    def view(data, game_id):
        run(_user_then(play.respond), game_id, accept, data["version"])
        return _present(game_id)
    return view


@blp.route("/games/<id:game_id>/accept")
class Accept(MethodView):
    @blp.arguments(VersionSchema)
    @blp.response(200, GameSchema)
    @errors(401, 403, 404, 409)
    def post(self, data, game_id):
        """Accept an invitation; the game starts when every seat is filled."""
        return _respond(True)(data, game_id)


@blp.route("/games/<id:game_id>/decline")
class Decline(MethodView):
    @blp.arguments(VersionSchema)
    @blp.response(200, GameSchema)
    @errors(401, 403, 404, 409)
    def post(self, data, game_id):
        """Decline an invitation."""
        return _respond(False)(data, game_id)


@blp.route("/games/<id:game_id>/moves/legal")
class LegalMoves(MethodView):
    @blp.response(200, LegalMovesSchema)
    @errors(401, 403, 404)
    def get(self, game_id):
        """The caller's legal moves now (empty when he owes no decision)."""
        with reading(db_engine()) as db:
            user = current_user(db)
            game = play.load_game(db, game_id)
            seat = play.seat_of_user(db, game, user)
            if seat is None or seat.seat is None:
                raise Forbidden("you do not play in this game")
            if game.status != "active":
                return {"version": game.version, "pending": None, "moves": []}
            rules, state = play.rules(game), play.game_state(game)
            # Hundreds of plain dicts: sent as they are (the schema documents them) rather
            # than walked field by field by the serializer.
            return jsonify({
                "version": game.version,
                "pending": rules.pending(state).get(seat.seat),
                "moves": [
                    {"move": m, "text": rules.format_move(m), "description": rules.describe(m)}
                    for m in rules.legal_moves(state, seat.seat)
                ],
            })


@blp.route("/games/<id:game_id>/moves")
class Moves(MethodView):
    @blp.arguments(MoveSchema)
    @blp.response(200, MoveResultSchema)
    @errors(401, 403, 404, 409, 422)
    def post(self, data, game_id):
        """Submit a move (JSON or text notation) at the version the client saw (any since the
        caller's current decision began: a simultaneous choice by another seat leaves it current).
        With `Prefer: return=minimal` the answer is only the new version."""
        minimal = _prefers_minimal()

        def submit(db):
            user = current_user(db)
            game, seat, events, work = play.submit_user_move(
                db, game_id, user, data["version"], data.get("move"), data.get("text"))
            # The answer is read in the same transaction: what this move produced.
            return game, engine.events_for(events, seat), None if minimal else present_game(db, game, user), work
        game, events, presented, _ = run(submit)
        if minimal:
            answer = jsonify({"version": game.version})
            answer.headers["Preference-Applied"] = "return=minimal"
            return answer
        # Dumped plainly (what MoveResultSchema documents; see service/plain_dump.py).
        return json_answer(MoveResultSchema, {"version": game.version, "events": events, "game": presented})


def _prefers_minimal() -> bool:
    """Whether the request's Prefer header (RFC 7240) asks for return=minimal."""
    preferences = request.headers.get("Prefer", "").replace(";", ",").split(",")
    return any(p.strip().replace(" ", "").lower() == "return=minimal" for p in preferences)


@blp.route("/games/<id:game_id>/log")
class Log(MethodView):
    @blp.response(200, LogSchema)
    @errors(401, 403, 404)
    def get(self, game_id):
        """The moves and events the caller may see, oldest first."""
        with reading(db_engine()) as db:
            user = current_user(db)
            game = play.load_game(db, game_id)
            seat = play.seat_of_user(db, game, user)
            if seat is None and not game.spectators:
                raise Forbidden("this game has no spectators", code="no_spectators")
            viewer = seat.seat if seat else None
            rules = play.rules(game)
            shown = [m for m in _moves(db, game) if not _hidden_setting(m, viewer, game, rules)]
            # Entries are numbered in the caller's log, so a hidden one leaves no gap.
            return {"entries": [{**_log_entry(m, viewer, game), "seq": n} for n, m in enumerate(shown, start=1)]}


def _moves(db, game: Game) -> list[Move]:
    return list(db.exec(select(Move).where(col(Move.game_id) == game.id).order_by(col(Move.seq))))


def _hidden_setting(row: Move, viewer: int | None, game: Game, rules) -> bool:
    """A setting move (a standing answer) that only its own seat may know of, while
    the game goes on: it changed nothing the viewer sees."""
    if row.seat == viewer or game.status in ("finished", "abandoned"):
        return False
    return row.move.get("type") in rules.setting_moves and not engine.events_for(row.events, viewer)


def _log_entry(row: Move, viewer: int | None, game: Game) -> dict:
    # A move can hold hidden facts (which tiles were swapped): only its player sees it
    # until the game is over.
    over = game.status in ("finished", "abandoned")
    return {
        "seq": row.seq, "seat": row.seat, "by_service": row.by_service, "created_at": row.created_at,
        "move": row.move if over or row.seat == viewer else None,
        "events": row.events if over else engine.events_for(row.events, viewer),
    }


@blp.route("/games/<id:game_id>/resign")
class Resign(MethodView):
    @blp.arguments(VersionSchema)
    @blp.response(200, GameSchema)
    @errors(401, 403, 404, 409)
    def post(self, data, game_id):
        """Leave the game: ranked last; the service plays the seat's default moves."""
        run(_user_then(play.resign), game_id, data["version"])
        return _present(game_id)


@blp.route("/games/<id:game_id>/abandon")
class Abandon(MethodView):
    @blp.arguments(VersionSchema)
    @blp.response(200, GameSchema)
    @errors(401, 403, 404, 409)
    def post(self, data, game_id):
        """Vote to abandon; the game ends without result once every player voted."""
        run(_user_then(play.vote_abandon), game_id, data["version"])
        return _present(game_id)


@blp.route("/games/<id:game_id>/cancel")
class Cancel(MethodView):
    @blp.arguments(VersionSchema)
    @blp.response(200, GameSchema)
    @errors(401, 403, 404, 409)
    def post(self, data, game_id):
        """Call off a game that has not started (its creator only); it ends abandoned, unplayed."""
        run(_user_then(play.cancel), game_id, data["version"])
        return _present(game_id)


@blp.route("/games/<id:game_id>/export")
class Export(MethodView):
    @blp.response(200, ExportSchema)
    @errors(401, 403, 404, 409)
    def get(self, game_id):
        """The full record of an ended game: seed, moves, events, final state."""
        with reading(db_engine()) as db:
            user = current_user(db)
            game = play.load_game(db, game_id)
            if play.seat_of_user(db, game, user) is None and not game.spectators:
                raise Forbidden("this game has no spectators", code="no_spectators")
            if game.status not in ("finished", "abandoned"):
                raise Conflict("the record is published when the game has ended", code="game_not_ended")
            return {
                "game": present_game(db, game, user), "seed": str(game.seed),
                "moves": [_log_entry(m, None, game) for m in _moves(db, game)], "final_state": game.state,
                "messages": table_talk.messages_of(db, game),
            }


@blp.route("/me/games")
class MyGames(MethodView):
    @blp.arguments(WaitingQuerySchema, location="query")
    @blp.response(200, GameListSchema)
    @errors(401)
    def get(self, query):
        """The caller's games; with waiting=1 only those waiting on him."""
        with reading(db_engine()) as db:
            user = current_user(db)
            seats = db.exec(select(Seat).where(Seat.user_id == user.id, Seat.status != "declined"))
            games = [present_game(db, db.get(Game, s.game_id), user) for s in seats]
        if query["waiting"]:
            games = [g for g in games if g["your_seat"] is not None and str(g["your_seat"]) in (g["pending"] or {})]
        games.sort(key=lambda g: g["id"], reverse=True)
        return {"games": games}
