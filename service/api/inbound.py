"""Inbound mail over HTTP, for mail providers that POST each received message as raw
MIME. The body is signed with the shared INBOUND_SECRET (HMAC-SHA256, hex, in the
`X-Turnpost-Signature: sha256=<hex>` header), so no one else can inject mail. The
message is stored before the answer (202), then processed as SMTP replies are."""
from __future__ import annotations

import hashlib
import hmac

from flask import Blueprint, current_app, jsonify, request

from service.errors import NotFound, ServiceError, Unauthorized
from service.reply_address import is_our_address
from service.web import db_engine, settings
from workers.inbound_store import store

bp = Blueprint("inbound", __name__, url_prefix="/api/inbound")


class TooLarge(ServiceError):
    status, code = 413, "too_large"


@bp.post("/mime")
def receive_mime():
    config = settings()
    if not config.inbound_secret:
        raise NotFound("inbound mail over HTTP is not enabled here (set INBOUND_SECRET)")
    request.max_content_length = config.inbound_max_bytes
    if (request.content_length or 0) > config.inbound_max_bytes:
        raise TooLarge(f"a message may be at most {config.inbound_max_bytes} bytes")
    raw = request.get_data(cache=False)
    expected = "sha256=" + hmac.new(config.inbound_secret.encode(), raw, hashlib.sha256).hexdigest()
    if not hmac.compare_digest(request.headers.get("X-Turnpost-Signature", ""), expected):
        raise Unauthorized("the body's X-Turnpost-Signature (sha256=<hex HMAC of the body>) does not match",
                           code="bad_signature")
    recipient = request.args.get("recipient", "")
    if not is_our_address(config.mail_domain, recipient):
        raise ServiceError(f"recipient must be one of our reply addresses (play+...@{config.mail_domain}), "
                           f"not {recipient!r}", code="bad_recipient")
    inbound_id = store(db_engine(), raw, recipient, request.args.get("sender", ""))
    if inbound_id is not None:
        dispatcher = current_app.extensions["turnpost"].get("dispatcher")
        try:
            if dispatcher is not None:
                dispatcher.inbound(inbound_id)
        except Exception:  # stored: the inbound sweep processes it later
            current_app.logger.exception("inbound message %s stored but not handed on", inbound_id)
    return jsonify({"id": inbound_id, "duplicate": inbound_id is None}), 202
