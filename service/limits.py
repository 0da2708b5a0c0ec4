"""Rate limits (Flask-Limiter), one limiter per application: a default limit per
client address, and a stricter one on requests that send email. Shared storage on
Redis when REDIS_URL is set."""
from __future__ import annotations

from flask import Flask
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

# Views that send an email to an address given by the caller.
MAILING_VIEWS = ("accounts.SignIn", "pages.sign_in")


def install_limits(app: Flask, settings) -> Limiter:
    limiter = Limiter(
        get_remote_address, app=app, default_limits=[settings.rate_limit],
        storage_uri=settings.redis_url or "memory://", key_prefix="turnpost-limit",
    )
    for name in MAILING_VIEWS:
        app.view_functions[name] = limiter.limit(settings.sign_in_limit, methods=["POST"])(app.view_functions[name])
    return limiter
