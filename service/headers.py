"""Security headers on every answer (flask-talisman): no framing by other sites, a
content security policy that runs only our own scripts, no referrer (links in emails
carry tokens), and over HTTPS a Secure session cookie and HSTS."""
from __future__ import annotations

from flask import Flask
from flask_talisman import Talisman

POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    # The drawn boards are inline SVG with their own <style>; styles cannot run code.
    "style-src": "'self' 'unsafe-inline'",
    "img-src": "'self' data:",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}
# flask-smorest's Swagger UI page starts itself with an inline script.
SWAGGER_POLICY = {**POLICY, "script-src": "'self' 'unsafe-inline'"}


def install_headers(app: Flask, base_url: str) -> None:
    https = base_url.startswith("https://")
    talisman = Talisman(
        app, force_https=False, strict_transport_security=https, session_cookie_secure=https,
        frame_options="DENY", content_security_policy=POLICY, referrer_policy="no-referrer",
    )
    swagger = app.view_functions.get("api-docs.openapi_swagger_ui")
    if swagger is not None:
        def swagger_ui(*args, **kwargs):  # a plain function: talisman marks it with its options
            return swagger(*args, **kwargs)
        app.view_functions["api-docs.openapi_swagger_ui"] = talisman(content_security_policy=SWAGGER_POLICY)(swagger_ui)
