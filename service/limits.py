"""Rate limits (Flask-Limiter), one limiter per application: a default limit per
client address, and a stricter one on requests that send email. Shared storage on
Redis when REDIS_URL is set; while Redis is unreachable each process counts in its
own memory instead, so an outage loosens the limits a little but refuses nobody."""
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
        # A dead Redis must not hang a request: fail fast and count in memory.
        storage_options={"socket_connect_timeout": 1, "socket_timeout": 1} if settings.redis_url else {},
        in_memory_fallback_enabled=True, swallow_errors=True,
    )
    for name in MAILING_VIEWS:
        app.view_functions[name] = limiter.limit(settings.sign_in_limit, methods=["POST"])(app.view_functions[name])
    return limiter
