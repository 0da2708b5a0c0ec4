"""Who is asking: personal API tokens (bearer), magic sign-in links, sessions.

API tokens are 256-bit random secrets; only their SHA-256 is stored, which is enough
for secrets that cannot be guessed (no slow hash needed). Sign-in links are signed,
expire, and carry a nonce recorded on use, so each works once.
"""
from __future__ import annotations

import hashlib
import secrets
import time

from marshmallow import ValidationError, validate
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
from sqlalchemy.orm import make_transient_to_detached
from sqlmodel import Session, select

from service.errors import Invalid, NotFound, Unauthorized
from service.models import ApiToken, SignInLink, User, utcnow

TOKEN_PREFIX = "tp_"


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


_EMAIL = validate.Email()


def normalise_email(email: str) -> str:
    """The address with its domain in lower case; Invalid if it is not an address."""
    email = (email or "").strip() if isinstance(email, str) else ""
    try:
        _EMAIL(email)
        email.encode("ascii")  # internationalised addresses are not supported
    except (ValidationError, UnicodeEncodeError):
        raise Invalid(f"{email!r} is not an email address", code="bad_email") from None
    local, _, domain = email.rpartition("@")
    return f"{local}@{domain.lower()}"


def user_for_email(db: Session, email: str) -> User:
    """The user with this email, created on first sight (a user is an email address)."""
    email = normalise_email(email)
    user = db.exec(select(User).where(User.email == email)).first()
    if user is None:
        user = User(email=email, name=email.split("@")[0][:80])
        db.add(user)
        db.flush()
    return user


def create_api_token(db: Session, user: User, label: str = "") -> tuple[ApiToken, str]:
    """A new token; the secret is returned once and never stored."""
    secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
    row = ApiToken(user_id=user.id, label=label[:80], token_hash=hash_token(secret))
    db.add(row)
    db.flush()
    return row, secret


# A token's user is kept briefly in each process (a player's requests come in bursts,
# and the lookup costs a query a request). A revoked token is refused at once by the
# process that revoked it, and by every other within TOKEN_CACHE_SECONDS.
TOKEN_CACHE_SECONDS = 5.0
TOKEN_CACHE_SIZE = 10_000
_token_users: dict[str, tuple[float, User]] = {}


def user_for_api_token(db: Session, secret: str) -> User:
    token_hash = hash_token(secret)
    cached = _token_users.get(token_hash)
    if cached is not None and cached[0] > time.monotonic():
        return db.merge(cached[1], load=False)  # a copy in this session, without a query
    user = db.exec(select(User).join(ApiToken, ApiToken.user_id == User.id).where(
        ApiToken.token_hash == token_hash, ApiToken.revoked_at.is_(None))).first()
    if user is None:
        raise Unauthorized("unknown or revoked API token", code="bad_token")
    if len(_token_users) >= TOKEN_CACHE_SIZE:
        _token_users.clear()
    snapshot = User(**user.model_dump())
    make_transient_to_detached(snapshot)
    _token_users[token_hash] = (time.monotonic() + TOKEN_CACHE_SECONDS, snapshot)
    return user


def revoke_api_token(db: Session, user: User, token_id: int) -> None:
    row = db.get(ApiToken, token_id)
    if row is None or row.user_id != user.id:
        raise NotFound(f"no token {token_id} of yours")
    row.revoked_at = row.revoked_at or utcnow()
    _token_users.pop(row.token_hash, None)


def _link_serializer(secret_key: str) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(secret_key, salt="turnpost.sign-in")


def create_sign_in_link(db: Session, user: User, secret_key: str) -> str:
    nonce = secrets.token_urlsafe(24)
    db.add(SignInLink(nonce=nonce, user_id=user.id))
    return _link_serializer(secret_key).dumps([user.id, nonce])


def peek_sign_in_link(db: Session, token: str, secret_key: str, max_minutes: int) -> User:
    """The user a sign-in link is for, without using it (for the confirm page)."""
    user_id, nonce = _read_link(token, secret_key, max_minutes)
    link = db.get(SignInLink, nonce)
    if link is None or link.user_id != user_id:
        raise Unauthorized("this sign-in link is not valid", code="bad_link")
    if link.used_at is not None:
        raise Unauthorized("this sign-in link was already used; ask for a new one", code="used_link")
    return db.get(User, user_id)


def use_sign_in_link(db: Session, token: str, secret_key: str, max_minutes: int) -> User:
    user = peek_sign_in_link(db, token, secret_key, max_minutes)
    _, nonce = _read_link(token, secret_key, max_minutes)
    db.get(SignInLink, nonce).used_at = utcnow()
    return user


def _read_link(token: str, secret_key: str, max_minutes: int) -> tuple[int, str]:
    try:
        user_id, nonce = _link_serializer(secret_key).loads(token, max_age=max_minutes * 60)
    except SignatureExpired:
        raise Unauthorized("this sign-in link has expired; ask for a new one", code="expired_link") from None
    except (BadSignature, ValueError, TypeError):
        raise Unauthorized("this sign-in link is not valid", code="bad_link") from None
    return int(user_id), str(nonce)
