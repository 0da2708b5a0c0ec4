"""The use cases of play, each one database transaction: create a game, invite,
answer an invitation (the game starts when every seat is filled), submit a move,
resign, vote to abandon, and time out a seat.

Every use case that changes a game checks the version the caller saw (stale: 409),
bumps it, and returns the ids of the notifications and deadlines it wrote, so the
caller can hand them to the workers after the commit (`service.tasks.after_commit`).

One module per family of use cases: records (loading and checking, shared),
deadlines, ending, moves, joining and leaving."""
from service.play.deadlines import time_control_of
from service.play.ending import json_keys
from service.play.joining import InvitationLimits, cancel, create_game, invite, join, rematch, respond
from service.play.leaving import resign, time_out, vote_abandon
from service.play.moves import last_move_seq, read_move, replay, submit_move, submit_move_to_locked, submit_user_move
from service.play.records import (
    TIMEOUT_POLICIES,
    GameLike,
    Work,
    check_version,
    decision_is_current,
    game_state,
    load_game,
    load_user,
    notify,
    rules,
    seat_of_user,
    seats_of,
    users_of,
)

__all__ = [
    "InvitationLimits",
    "GameLike",
    "TIMEOUT_POLICIES",
    "Work",
    "cancel",
    "check_version",
    "create_game",
    "decision_is_current",
    "game_state",
    "invite",
    "join",
    "json_keys",
    "last_move_seq",
    "load_game",
    "load_user",
    "notify",
    "read_move",
    "rematch",
    "replay",
    "resign",
    "respond",
    "rules",
    "seat_of_user",
    "seats_of",
    "submit_move",
    "submit_move_to_locked",
    "submit_user_move",
    "time_control_of",
    "time_out",
    "users_of",
    "vote_abandon",
]
