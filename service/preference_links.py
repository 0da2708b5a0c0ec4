"""The signed token in a player's preferences and unsubscribe links: his user id, signed
with the secret key; it does not expire, so a link in an old email still works."""
from __future__ import annotations

from itsdangerous import URLSafeSerializer

PREFERENCES_SALT = "turnpost.preferences"


def preferences_token(secret_key: str, user_id: int) -> str:
    return URLSafeSerializer(secret_key, salt=PREFERENCES_SALT).dumps(user_id)


def read_preferences_token(secret_key: str, token: str) -> int:
    return int(URLSafeSerializer(secret_key, salt=PREFERENCES_SALT).loads(token))
