"""The link in an invitation email: it signs the invitee in (once) and opens the game.

It wraps an ordinary one-use sign-in link with the game's id under its own signature,
so it lives as long as other email links (`link_days`) while a plain sign-in link
keeps its short life: a plain link is not accepted here, nor this one there."""
from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

from service.errors import Unauthorized
from service.header_text import first_control

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
    """`target` when it is a path on this site (`/games/4?x=1`), else None. Decided by
    parsing, after refusing what browsers and parsers read differently: control
    characters (browsers drop tabs and line breaks, so `/<tab>/evil` becomes `//evil`)
    and backslashes (read as slashes). What remains must have no scheme and no host,
    and a path that starts with one slash only."""
    if not isinstance(target, str) or not target or "\\" in target or first_control(target) is not None:
        return None
    try:
        parts = urlsplit(target)
    except ValueError:  # a bracketed host that is no IPv6 address
        return None
    if parts.scheme or parts.netloc or not parts.path.startswith("/") or parts.path.startswith("//"):
        return None
    return urlunsplit(("", "", parts.path, parts.query, parts.fragment))
