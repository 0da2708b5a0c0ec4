"""Inbound mail over HTTP, for mail providers that POST each received message as raw
MIME. Each request is signed with the shared INBOUND_SECRET (HMAC-SHA256, hex, in the
`X-Turnpost-Signature: sha256=<hex>` header) over the recipient, the sender and the
body (`signed_bytes`), so no one else can inject mail, nor post a captured message to
another address. The message is stored before the answer (202), then processed as SMTP
replies are."""
from __future__ import annotations

import hashlib
import hmac

from flask import Blueprint, current_app, jsonify, request

from service.errors import BadRequest, NotFound, ServiceError, Unauthorized
from service.inbound_store import store
from service.reply_address import is_our_address
from service.web import db_engine, settings

bp = Blueprint("inbound", __name__, url_prefix="/api/inbound")


class TooLarge(ServiceError):
    status, code = 413, "too_large"


def signed_bytes(recipient: str, sender: str, raw: bytes) -> bytes:
    """What the signature covers: the `recipient` and `sender` parameters as given
    (decoded from the URL, `sender` empty when absent), each followed by a line feed,
    then the body."""
    return f"{recipient}\n{sender}\n".encode() + raw


@bp.post("/mime")
def receive_mime():
    config = settings()
    if not config.inbound_secret:
        raise NotFound("inbound mail over HTTP is not enabled here (set INBOUND_SECRET)")
    request.max_content_length = config.inbound_max_bytes
    if (request.content_length or 0) > config.inbound_max_bytes:
        raise TooLarge(f"a message may be at most {config.inbound_max_bytes} bytes")
    recipient, sender = request.args.get("recipient", ""), request.args.get("sender", "")
    if any(c in value for value in (recipient, sender) for c in "\r\n"):
        raise BadRequest("recipient and sender are single addresses: no line breaks", code="bad_address")
    raw = request.get_data(cache=False)
    expected = "sha256=" + hmac.new(config.inbound_secret.encode(), signed_bytes(recipient, sender, raw),
                                    hashlib.sha256).hexdigest()
    if not hmac.compare_digest(request.headers.get("X-Turnpost-Signature", ""), expected):
        raise Unauthorized("X-Turnpost-Signature does not match: it must be sha256=<hex HMAC-SHA256 with "
                           "INBOUND_SECRET of the recipient, a line feed, the sender, a line feed and the body>",
                           code="bad_signature")
    if not is_our_address(config.mail_domain, recipient):
        raise ServiceError(f"recipient must be one of our reply addresses (play+...@{config.mail_domain}), "
                           f"not {recipient!r}", code="bad_recipient")
    inbound_id = store(db_engine(), raw, recipient, sender)
    if inbound_id is not None:
        dispatcher = current_app.extensions["turnpost"].get("dispatcher")
        try:
            if dispatcher is not None:
                dispatcher.inbound(inbound_id)
        except Exception:  # stored: the inbound sweep processes it later
            current_app.logger.exception("inbound message %s stored but not handed on", inbound_id)
    return jsonify({"id": inbound_id, "duplicate": inbound_id is None}), 202
