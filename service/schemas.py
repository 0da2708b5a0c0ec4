"""Request and response schemas of the REST API (marshmallow, documented in OpenAPI
by flask-smorest). Unknown fields are refused."""
from __future__ import annotations

from marshmallow import RAISE, Schema, ValidationError, fields, pre_load, validate, validates_schema

from engine import game_ids
from engine.bots import BOT_KINDS
from service.header_text import header_problem


def _has_nul(value) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_has_nul(k) or _has_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_nul(v) for v in value)
    return False


def header_safe(value: str) -> None:
    """A marshmallow validator for text that can reach an email header: no control
    characters, no encoded words. (Addresses are checked, with the same rule, where
    they are normalised: service/auth.py.)"""
    problem = header_problem(value)
    if problem:
        raise ValidationError(f"this text goes into email headers: {problem}")


class StrictSchema(Schema):
    """Input schemas: unknown fields and NUL characters (which no text column can
    store) are refused."""

    class Meta:
        unknown = RAISE

    @pre_load
    def refuse_nul(self, data, **_):
        if _has_nul(data):
            raise ValidationError("text may not contain NUL characters", "_schema")
        return data


class ProblemSchema(Schema):
    code = fields.String(required=True)
    message = fields.String(required=True)
    current_version = fields.Integer()
    errors = fields.Dict()


class VersionSchema(StrictSchema):
    version = fields.Integer(required=True, strict=True, metadata={"description": "the game version the client saw"})


class TimeControlSchema(StrictSchema):
    initial_seconds = fields.Integer(strict=True, validate=validate.Range(min=60, max=90 * 86400))
    extension_seconds = fields.Integer(strict=True, validate=validate.Range(min=0, max=30 * 86400))
    cap_seconds = fields.Integer(strict=True, validate=validate.Range(min=60, max=365 * 86400))
    quiet_hours = fields.List(fields.Integer(strict=True, validate=validate.Range(min=0, max=23)),
                              validate=validate.Length(equal=2))
    reminder_offsets = fields.List(fields.Integer(strict=True, validate=validate.Range(min=60, max=365 * 86400)),
                                   validate=validate.Length(max=5))


class Invitee(fields.Field):
    """A seat to fill: a player's email, or {"bot": kind} for a bot."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, str):
            if not 1 <= len(value) <= 254:
                raise ValidationError("an email is 1 to 254 characters")
            return value
        if isinstance(value, dict) and set(value) == {"bot"} and value["bot"] in BOT_KINDS:
            return {"bot": value["bot"]}
        raise ValidationError(f'each seat is an email or {{"bot": kind}} with kind one of {", ".join(BOT_KINDS)}')


class CreateGameSchema(StrictSchema):
    game = fields.String(required=True, validate=validate.OneOf(game_ids()), metadata={"description": "the game's id"})
    players = fields.Integer(required=True, strict=True, validate=validate.Range(min=2, max=8))
    title = fields.String(load_default="", validate=[validate.Length(max=120), header_safe])
    options = fields.Dict(keys=fields.String(), load_default=dict)
    invite = fields.List(
        Invitee(metadata={"description": 'an email, or {"bot": "random" | "greedy" | "strong"}',
                          "oneOf": [{"type": "string", "maxLength": 254},
                                    {"type": "object",
                                     "properties": {"bot": {"type": "string", "enum": list(BOT_KINDS)}},
                                     "required": ["bot"], "additionalProperties": False}]}),
        load_default=list, validate=validate.Length(max=7),
        metadata={"description": "the other seats: players' emails, or bots"},
    )
    seat_order = fields.String(load_default="fixed", validate=validate.OneOf(["fixed", "random"]))
    spectators = fields.Boolean(load_default=False)
    time_control = fields.Nested(TimeControlSchema, load_default=dict)
    timeout_policy = fields.String(load_default="bot",
                                   validate=validate.OneOf(["bot", "default_move", "skip", "forfeit"]))
    rated = fields.Boolean(load_default=False, metadata={
        "description": "its end updates the players' ratings at this game; people only: refused with bot seats"})
    open_seats = fields.Integer(
        load_default=0, strict=True, validate=validate.Range(min=0, max=7),
        metadata={"description": "seats left for anyone to join from the open games list "
                                 "(at most the seats not taken by the creator, invitations and bots)"})


class InviteSchema(VersionSchema):
    email = fields.String(required=True, validate=validate.Length(min=3, max=254))


class MoveSchema(VersionSchema):
    move = fields.Dict(keys=fields.String(), metadata={"description": "the move as JSON (see the game's docs)"})
    text = fields.String(validate=validate.Length(min=1, max=200),
                         metadata={"description": "or the move in text notation"})

    @validates_schema
    def one_of_move_or_text(self, data, **_):
        if ("move" in data) == ("text" in data):
            raise ValidationError("send exactly one of move or text", "_schema")


class PlayerSchema(Schema):
    seat = fields.Integer(allow_none=True)
    name = fields.String()
    email = fields.String(allow_none=True, metadata={
        "description": "the player's address, shown to the game's players only (null to others)"})
    status = fields.String()
    bot = fields.String(allow_none=True, metadata={"description": "the kind of bot playing the seat, if a bot does"})
    resigned = fields.Boolean()
    deadline = fields.DateTime(allow_none=True)
    player = fields.Integer(allow_none=True, metadata={"description": "the player's id (his page: /players/{id})"})
    rating = fields.Integer(allow_none=True, metadata={
        "description": "the player's rating at this game (ordinal, rounded), if he has played it rated"})


class GameSchema(Schema):
    id = fields.Integer()
    game = fields.String(attribute="game_type")
    title = fields.String()
    status = fields.String()
    version = fields.Integer()
    players = fields.List(fields.Nested(PlayerSchema), attribute="player_list")
    options = fields.Dict()
    time_control = fields.Dict()
    timeout_policy = fields.String()
    rated = fields.Boolean()
    seat_order = fields.String()
    spectators = fields.Boolean()
    your_seat = fields.Integer(allow_none=True)
    pending = fields.Dict(keys=fields.String(), values=fields.String(), allow_none=True)
    view = fields.Dict(allow_none=True)
    seed_hash = fields.String(allow_none=True)
    seed = fields.String(allow_none=True)
    result = fields.Dict(allow_none=True)
    created_at = fields.DateTime()
    started_at = fields.DateTime(allow_none=True)
    finished_at = fields.DateTime(allow_none=True)
    open_seats = fields.Integer(metadata={"description": "seats anyone may still join before the start"})
    rematch_id = fields.Integer(allow_none=True, metadata={"description": "the rematch started from this ended game"})


class GameListSchema(Schema):
    games = fields.List(fields.Nested(GameSchema))


class OpenGameSchema(GameSchema):
    seats = fields.Integer(metadata={"description": "the number of players the game is for"})
    you_are_in = fields.Boolean(metadata={"description": "whether the caller already has a seat or invitation"})


class OpenGameListSchema(Schema):
    games = fields.List(fields.Nested(OpenGameSchema))


class WaitingQuerySchema(StrictSchema):
    waiting = fields.Boolean(load_default=False)


class LegalMoveSchema(Schema):
    move = fields.Dict()
    text = fields.String()
    description = fields.String()


class LegalMovesSchema(Schema):
    version = fields.Integer()
    pending = fields.String(allow_none=True)
    moves = fields.List(fields.Nested(LegalMoveSchema))


class MoveResultSchema(Schema):
    version = fields.Integer()
    events = fields.List(fields.Dict())
    game = fields.Nested(GameSchema)


class LogEntrySchema(Schema):
    seq = fields.Integer()
    seat = fields.Integer()
    by_service = fields.Boolean()
    move = fields.Dict(allow_none=True)
    events = fields.List(fields.Dict())
    created_at = fields.DateTime()


class LogSchema(Schema):
    entries = fields.List(fields.Nested(LogEntrySchema))


class TableMessageSchema(Schema):
    id = fields.Integer()
    seat = fields.Integer(allow_none=True, metadata={"description": "the writer's seat (none before the start)"})
    name = fields.String(metadata={"description": "the writer's name"})
    text = fields.String()
    via = fields.String(metadata={"description": "page, api or email"})
    created_at = fields.DateTime()


class ExportSchema(Schema):
    game = fields.Nested(GameSchema)
    seed = fields.String()
    moves = fields.List(fields.Nested(LogEntrySchema))
    final_state = fields.Dict(allow_none=True)
    messages = fields.List(fields.Nested(TableMessageSchema), metadata={"description": "the table talk"})


class SignInRequestSchema(StrictSchema):
    email = fields.String(required=True, validate=validate.Length(min=3, max=254))


class TokenCreateSchema(StrictSchema):
    label = fields.String(load_default="", validate=validate.Length(max=80))


class TokenSchema(Schema):
    id = fields.Integer()
    label = fields.String()
    created_at = fields.DateTime()
    revoked_at = fields.DateTime(allow_none=True)
    token = fields.String(metadata={"description": "the secret, shown only once"})


class TokenListSchema(Schema):
    tokens = fields.List(fields.Nested(TokenSchema))
