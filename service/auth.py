"""Who is asking: personal API tokens (bearer), magic sign-in links, sessions.

API tokens are 256-bit random secrets; only their SHA-256 is stored, which is enough
for secrets that cannot be guessed (no slow hash needed). Sign-in links are signed,
expire, and carry a nonce recorded on use, so each works once.
"""
from __future__ import annotations

import hashlib
import secrets
import time
import unicodedata

from email_validator import EmailNotValidError, validate_email
from itsdangerous import BadSignature, SignatureExpired, TimestampSigner, URLSafeTimedSerializer
from sqlalchemy.orm import make_transient_to_detached
from sqlmodel import Session, col, select, update

from service.errors import Invalid, NotFound, Unauthorized
from service.header_text import header_problem
from service.models import ApiToken, SignInLink, User, WebSession, utcnow

TOKEN_PREFIX = "tp_"


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def normalise_email(email: str) -> str:
    """The address as stored, all in lower case (so Bob@x and bob@x are one user), or
    Invalid saying why it is not one we can send to. Checked by email-validator: no
    quoted local parts, no internationalised addresses, a domain with a dot outside
    the reserved names (the .test domain is allowed for test set-ups); the domain's
    DNS is not asked."""
    text = email.strip() if isinstance(email, str) else ""
    problem = header_problem(text)
    if problem:  # the address goes into the To header of every email to it
        raise Invalid(f"{text!r} is not an email address we can send to: {problem}", code="bad_email")
    try:
        checked = validate_email(text, check_deliverability=False, allow_smtputf8=False, test_environment=True)
    except EmailNotValidError as err:
        raise Invalid(f"{text!r} is not an email address we can send to: {err}", code="bad_email") from None
    return checked.normalized.lower()


def address_limit_key(email: str) -> str:
    """The mailbox an address reaches, as limits count it: the stored form (Unicode
    compatibility forms such as a fullwidth letter or dot and the domain's IDNA form
    resolved, lower case) without a plus tag, so `flood@ｅx.test`, `flood@ex。test` and
    `flood+x@ex.test` all count as `flood@ex.test`. An address that will be refused
    anyway is counted under its NFKC, case-folded form."""
    try:
        address = normalise_email(email)
    except Invalid:
        address = unicodedata.normalize("NFKC", email if isinstance(email, str) else "").strip().casefold()
    local, at, domain = address.rpartition("@")
    return f"{local.split('+', 1)[0]}@{domain}" if at else address


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
    assert user.id is not None, "a stored user"
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
    user = db.exec(select(User).join(ApiToken, col(ApiToken.user_id) == col(User.id)).where(
        col(ApiToken.token_hash) == token_hash, col(ApiToken.revoked_at).is_(None))).first()
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


def start_session(db: Session, user: User) -> str:
    """A new browser session; its secret goes into the (signed) cookie."""
    secret = secrets.token_urlsafe(32)
    assert user.id is not None, "a stored user"
    db.add(WebSession(user_id=user.id, token_hash=hash_token(secret)))
    return secret


def user_for_session(db: Session, secret: str) -> User | None:
    return db.exec(select(User).join(WebSession, col(WebSession.user_id) == col(User.id)).where(
        col(WebSession.token_hash) == hash_token(secret), col(WebSession.revoked_at).is_(None))).first()


def end_sessions(db: Session, secret: str, everywhere: bool = False) -> None:
    """Revoke this session, or with `everywhere` every session of its user."""
    row = db.exec(select(WebSession).where(WebSession.token_hash == hash_token(secret))).first()
    if row is None:
        return
    which = col(WebSession.user_id) == row.user_id if everywhere else col(WebSession.id) == row.id
    db.exec(update(WebSession).where(which, col(WebSession.revoked_at).is_(None)).values(revoked_at=utcnow()))


def _link_serializer(secret_key: str) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(secret_key, salt="turnpost.sign-in")


class _SignedAt(TimestampSigner):
    """A timestamp signer that signs with a given issue time, so a link is built
    again exactly, expiry included, from its nonce and that time."""

    def __init__(self, *args, issued_at: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.issued_at = issued_at

    def get_timestamp(self) -> int:
        return self.issued_at


def sign_in_token(secret_key: str, nonce: str, issued_at: int) -> str:
    """The token of the sign-in link with this nonce, issued at `issued_at` (Unix
    seconds). The outbox keeps only the nonce and the time (the link is a secret that
    signs its holder in; the nonce is worthless without the secret key)."""
    return URLSafeTimedSerializer(secret_key, salt="turnpost.sign-in", signer=_SignedAt,
                                  signer_kwargs={"issued_at": issued_at}).dumps(nonce)


def record_sign_in_link(db: Session, email: str) -> tuple[str, int]:
    """A new link for the (normalised) address: its nonce and issue time. Nobody is
    looked up or created before the link is used, so asking costs the same for known
    and unknown addresses."""
    nonce = secrets.token_urlsafe(24)
    db.add(SignInLink(nonce=nonce, email=email))
    return nonce, int(time.time())


def create_sign_in_link(db: Session, email: str, secret_key: str) -> str:
    """A new link's token for the (normalised) address (`record_sign_in_link`)."""
    return sign_in_token(secret_key, *record_sign_in_link(db, email))


def peek_sign_in_link(db: Session, token: str, secret_key: str, max_minutes: int) -> str:
    """The address a sign-in link is for, without using it (for the confirm page)."""
    link = db.get(SignInLink, _read_link(token, secret_key, max_minutes))
    if link is None or link.email is None:
        raise Unauthorized("this sign-in link is not valid", code="bad_link")
    if link.used_at is not None:
        raise Unauthorized("this sign-in link was already used; ask for a new one", code="used_link")
    return link.email


def use_sign_in_link(db: Session, token: str, secret_key: str, max_minutes: int) -> User:
    """The link's user (created now if the address is new), once: marking the link
    used is one conditional UPDATE, so of two requests racing with the same link only
    one gets a session."""
    nonce = _read_link(token, secret_key, max_minutes)
    email = db.exec(update(SignInLink).where(col(SignInLink.nonce) == nonce, col(SignInLink.used_at).is_(None))
                    .values(used_at=utcnow()).returning(col(SignInLink.email))).first()
    if email is None or email[0] is None:
        peek_sign_in_link(db, token, secret_key, max_minutes)  # raises the reason
        raise Unauthorized("this sign-in link was already used; ask for a new one", code="used_link")
    return user_for_email(db, email[0])


def _read_link(token: str, secret_key: str, max_minutes: int) -> str:
    """The link's nonce."""
    try:
        nonce = _link_serializer(secret_key).loads(token, max_age=max_minutes * 60)
    except SignatureExpired:
        raise Unauthorized("this sign-in link has expired; ask for a new one", code="expired_link") from None
    except (BadSignature, ValueError, TypeError):
        raise Unauthorized("this sign-in link is not valid", code="bad_link") from None
    if not isinstance(nonce, str):
        raise Unauthorized("this sign-in link is not valid", code="bad_link")
    return nonce
