"""Rate limits (Flask-Limiter), one limiter per application: a default limit per
client address, and stricter ones on asking for a sign-in link, shared by the API and
the page: per client address, and per email address asked for (so no one address can
be flooded from many machines). Shared storage on Redis when REDIS_URL is set; while
Redis is unreachable each process counts in its own memory instead, so an outage
loosens the limits a little but refuses nobody."""
from __future__ import annotations

import hashlib

from flask import Flask, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

# Views that send an email to an address given by the caller.
MAILING_VIEWS = ("accounts.SignIn", "pages.sign_in")
# Views that write table talk or notes, limited per player.
TALK_VIEWS = ("talk.Messages", "talk.Notes", "talk_pages.post_message", "talk_pages.save_notes")


def asked_address() -> str:
    """The mailbox a sign-in request asks for, however the address is spelt
    (`service.auth.address_limit_key`)."""
    from service.auth import address_limit_key

    body = request.get_json(silent=True) if request.is_json else request.form
    email = body.get("email") if isinstance(body, dict) else None  # a form is a dict too (MultiDict)
    return address_limit_key(email) if isinstance(email, str) else ""


def caller() -> str:
    """Who writes: a digest of the bearer token or of the signed session, else the
    client address (the limit is per player, not per shared address)."""
    from flask import session

    secret = request.headers.get("Authorization", "") or session.get("sid", "")
    return "caller:" + hashlib.sha256(secret.encode()).hexdigest() if secret else get_remote_address()


def install_limits(app: Flask, settings) -> Limiter:
    limiter = Limiter(
        get_remote_address, app=app, default_limits=[settings.rate_limit],
        storage_uri=settings.redis_url or "memory://", key_prefix="turnpost-limit",
        # A dead Redis must not hang a request: fail fast and count in memory.
        storage_options={"socket_connect_timeout": 1, "socket_timeout": 1} if settings.redis_url else {},
        in_memory_fallback_enabled=True, swallow_errors=True,
    )
    per_client = limiter.shared_limit(settings.sign_in_limit, scope="sign-in", methods=["POST"])
    per_address = limiter.shared_limit(settings.sign_in_address_limit, scope="sign-in-address",
                                       key_func=asked_address, methods=["POST"])
    # The limiter's decorator is typed for async views too; these views are sync and stay so.
    for name in MAILING_VIEWS:
        app.view_functions[name] = per_address(per_client(app.view_functions[name]))  # type: ignore[assignment]
    per_writer = limiter.shared_limit(settings.talk_limit, scope="talk", key_func=caller, methods=["POST", "PUT"])
    for name in TALK_VIEWS:
        app.view_functions[name] = per_writer(app.view_functions[name])  # type: ignore[assignment]
    return limiter
