"""Table talk, private notes, a player's talk preferences, and replays."""
from __future__ import annotations

from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate
from sqlmodel import select

from service import replay, table_talk
from service.db import reading
from service.models import User
from service.schemas import LogEntrySchema, ProblemSchema, StrictSchema, TableMessageSchema
from service.web import current_user, db_engine, run

blp = Blueprint("talk", __name__, url_prefix="/api", description="Table talk, private notes and replays")
ERRORS = {401: "not signed in", 403: "not yours to do", 404: "no such game or step", 422: "invalid input",
          429: "too many messages"}


def errors(*statuses):
    def decorate(view):
        for status in statuses:
            view = blp.alt_response(status, schema=ProblemSchema, description=ERRORS[status])(view)
        return view
    return decorate


class SayRequestSchema(StrictSchema):
    text = fields.String(required=True, metadata={
        "description": f"plain text, 1 to {table_talk.MAX_MESSAGE_CHARS} characters; shown as typed, never as markup"})
    version = fields.Integer(strict=True, metadata={
        "description": "accepted and ignored: a message changes nothing in the game, so it needs no game version"})


class TableSchema(Schema):
    messages = fields.List(fields.Nested(TableMessageSchema))
    can_write = fields.Boolean(metadata={"description": "whether the caller is a player (spectators only read)"})
    muted = fields.Boolean(metadata={"description": "whether the caller muted the table"})


class AfterQuerySchema(StrictSchema):
    after = fields.Integer(load_default=0, validate=validate.Range(min=0), metadata={
        "description": "only messages with a larger id (for polling)"})


class MuteSchema(StrictSchema):
    muted = fields.Boolean(required=True, metadata={
        "description": "true: no table talk reaches you by email and the page folds the table away"})


class NoteRequestSchema(StrictSchema):
    text = fields.String(required=True, metadata={
        "description": f"0 to {table_talk.MAX_NOTE_CHARS} characters; an empty text clears the notes"})


class NoteSchema(Schema):
    text = fields.String()
    updated_at = fields.DateTime(allow_none=True)


class PreferencesSchema(Schema):
    email_mode = fields.String(metadata={"description": "game emails: every (decision), digest, off"})
    talk_mail = fields.String(metadata={"description": "table talk by email: immediately, next (with the next "
                                                        "decision email or digest), never"})


class PreferencesRequestSchema(StrictSchema):
    email_mode = fields.String(validate=validate.OneOf(["every", "digest", "off"]))
    talk_mail = fields.String(validate=validate.OneOf(list(table_talk.TALK_MAIL_MODES)))


class ReplayStepSchema(Schema):
    step = fields.Integer(metadata={"description": "0 is the start; n the position after entry n of the caller's log"})
    steps = fields.Integer(metadata={"description": "the last step (the entries in the caller's log)"})
    entry = fields.Nested(LogEntrySchema, allow_none=True,
                          metadata={"description": "the log entry that led here (as GET .../log)"})
    pending = fields.Dict(keys=fields.String(), values=fields.String(), allow_none=True)
    view = fields.Dict(metadata={"description": "the game as the caller's seat saw it then (spectators: public)"})


@blp.route("/games/<id:game_id>/messages")
class Messages(MethodView):
    @blp.arguments(AfterQuerySchema, location="query")
    @blp.response(200, TableSchema)
    @errors(401, 403, 404)
    def get(self, query, game_id):
        """The table talk, oldest first (players and, where allowed, spectators)."""
        with reading(db_engine()) as db:
            return table_talk.table_for(db, game_id, current_user(db), query["after"])

    @blp.arguments(SayRequestSchema)
    @blp.response(201, TableMessageSchema)
    @errors(401, 403, 404, 422, 429)
    def post(self, data, game_id):
        """Write to the table (players only). No game version is needed: a message
        changes nothing in the game."""
        def say(db):
            message, work = table_talk.say(db, game_id, current_user(db), data["text"], "api")
            return table_talk.message_dicts(db, table_talk.play.load_game(db, game_id), [message])[0], work
        return run(say)[0]


@blp.route("/games/<id:game_id>/mute")
class Mute(MethodView):
    @blp.arguments(MuteSchema)
    @blp.response(200, MuteSchema)
    @errors(401, 403, 404, 422)
    def put(self, data, game_id):
        """Mute (or unmute) the table of one game for yourself."""
        run(lambda db: table_talk.set_muted(db, game_id, current_user(db), data["muted"]))
        return {"muted": data["muted"]}


@blp.route("/games/<id:game_id>/notes")
class Notes(MethodView):
    @blp.response(200, NoteSchema)
    @errors(401, 403, 404)
    def get(self, game_id):
        """Your private notes on the game: shown to your seat only, never in any email."""
        with reading(db_engine()) as db:
            return table_talk.note_of(db, game_id, current_user(db))

    @blp.arguments(NoteRequestSchema)
    @blp.response(200, NoteSchema)
    @errors(401, 403, 404, 422, 429)
    def put(self, data, game_id):
        """Replace your private notes on the game."""
        return run(lambda db: table_talk.save_note(db, game_id, current_user(db), data["text"]))


@blp.route("/me/preferences")
class Preferences(MethodView):
    @blp.response(200, PreferencesSchema)
    @errors(401)
    def get(self):
        """How game emails and table talk reach you."""
        with reading(db_engine()) as db:
            return _preferences(db, current_user(db))

    @blp.arguments(PreferencesRequestSchema)
    @blp.response(200, PreferencesSchema)
    @errors(401, 422)
    def put(self, data):
        """Change how game emails and table talk reach you (fields left out stay)."""
        def save(db):
            user = current_user(db)
            if "talk_mail" in data:
                table_talk.set_talk_mail(db, user, data["talk_mail"])
            if "email_mode" in data:
                db.get(User, user.id).email_mode = data["email_mode"]
            db.flush()
            return _preferences(db, user)
        return run(save)


def _preferences(db, user) -> dict:
    # Read from the row: the user of a bearer token may be a copy its cache keeps.
    email_mode, talk_mail = db.exec(select(User.email_mode, User.talk_mail).where(User.id == user.id)).one()
    return {"email_mode": email_mode, "talk_mail": talk_mail}


@blp.route("/games/<id:game_id>/history/<int:version>")
class History(MethodView):
    @blp.response(200, ReplayStepSchema)
    @errors(401, 403, 404)
    def get(self, game_id, version):
        """The game as the caller saw it after `version` entries of his log (0: the
        start), rebuilt by replaying the move log from the seed."""
        with reading(db_engine()) as db:
            return replay.step_for(db, game_id, current_user(db), version)
