"""The link in an invitation email: it signs the invitee in (once) and opens the game.

It wraps an ordinary one-use sign-in link with the game's id under its own signature,
so it lives as long as other email links (`link_days`) while a plain sign-in link
keeps its short life: a plain link is not accepted here, nor this one there."""
from __future__ import annotations

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

from service.errors import Unauthorized

SALT = "turnpost.invitation"


def invitation_token(secret_key: str, sign_in_token: str, game_id: int) -> str:
    return URLSafeTimedSerializer(secret_key, salt=SALT).dumps([sign_in_token, game_id])


def read_invitation(secret_key: str, token: str, max_age_seconds: int) -> tuple[str, int]:
    """(the sign-in token inside, the game's id); Unauthorized when expired or forged."""
    try:
        sign_in_token, game_id = URLSafeTimedSerializer(secret_key, salt=SALT).loads(token, max_age=max_age_seconds)
    except SignatureExpired:
        raise Unauthorized("this invitation link has expired; sign in to see the game", code="expired_link") from None
    except (BadSignature, ValueError, TypeError):
        raise Unauthorized("this invitation link is not valid", code="bad_link") from None
    return str(sign_in_token), int(game_id)


def safe_next(target: str | None) -> str | None:
    """`target` when it is a path on this site (`/games/4`), else None: never another
    host, scheme or protocol-relative `//host`."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return None
    return target
