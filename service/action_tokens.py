"""Signed action tokens for the links in emails.

A token names a game, a seat, the game's version when the email was written and,
for one-click choices, the move. It expires, and it is single-use without any
bookkeeping: a move applies only at the version it names, and applying it bumps the
version, so the same token can never apply twice.
"""
from __future__ import annotations

from dataclasses import dataclass

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

SALT = "turnpost.action-link"


@dataclass(frozen=True)
class ActionToken:
    game_id: int
    seat: int
    version: int
    move: str | None  # text notation; None for a link to the move page


class TokenRejected(Exception):
    """Why a token cannot be used: `reason` is 'expired' or 'invalid'."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def _serializer(secret: str) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(secret, salt=SALT)


def make_token(secret: str, token: ActionToken) -> str:
    return _serializer(secret).dumps([token.game_id, token.seat, token.version, token.move])


def read_token(secret: str, text: str, max_age_seconds: int) -> ActionToken:
    try:
        game_id, seat, version, move = _serializer(secret).loads(text, max_age=max_age_seconds)
    except SignatureExpired:
        raise TokenRejected("expired") from None
    except (BadSignature, ValueError, TypeError):
        raise TokenRejected("invalid") from None
    return ActionToken(int(game_id), int(seat), int(version), move)
