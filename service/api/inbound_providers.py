"""Inbound mail from mail providers' webhooks, in each provider's own format and
signature scheme, for hosts that cannot listen on port 25 (a PaaS):

- Mailgun's raw-MIME route (`forward("https://<host>/api/inbound/mailgun/mime")`): a
  form with `recipient`, `sender`, `body-mime` (the message as received) and
  `timestamp`, `token`, `signature`, the hex HMAC-SHA256 of timestamp + token with the
  domain's webhook signing key (MAILGUN_SIGNING_KEY). A token is accepted once: a
  replayed post is refused with 406 and stores nothing.
- Postmark's inbound webhook (`https://user:password@<host>/api/inbound/postmark`):
  JSON, authenticated by the basic-auth credentials in the URL (POSTMARK_INBOUND_AUTH,
  `user:password`); the message is its `RawEmail` when "include raw email" is on, else
  it is built from the JSON's fields.

Either way the message is stored before the answer and processed as a reply that came
by SMTP (workers.inbound)."""
from __future__ import annotations

import hashlib
import hmac
import re
import time
from email.headerregistry import Address
from email.message import EmailMessage
from email.policy import SMTP

from flask import Blueprint, current_app, jsonify, request

from service.errors import BadRequest, NotFound, ServiceError, Unauthorized
from service.inbound_store import store
from service.reply_address import is_our_address
from service.web import db_engine, settings
from service.webhook_tokens import forget, use_once

bp = Blueprint("inbound_providers", __name__, url_prefix="/api/inbound")

# Mailgun's own advice: refuse a signature whose timestamp is far from now, since the
# signature covers the timestamp and token but not the message.
MAILGUN_MAX_AGE_SECONDS = 300
MAILGUN_MAX_TOKEN_LENGTH = 200  # as kept in webhook_token
# Headers that describe the body Postmark already decoded: the message built here has
# its own.
_BODY_HEADERS = {"content-type", "content-transfer-encoding", "mime-version", "content-disposition"}


class NotOurRecipient(ServiceError):
    """An address that is not ours, answered with the status that stops the
    provider's retries (Mailgun: 406, Postmark: 403)."""
    code = "bad_recipient"

    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.status = status


class Replayed(ServiceError):
    """A signature already used: 406, the status after which Mailgun does not retry."""
    status, code = 406, "replayed_signature"


class TooLarge(ServiceError):
    status, code = 413, "too_large"


_HEADER_NAME = re.compile(r"[!-9;-~]{1,76}")  # printable ASCII without ":" (RFC 5322 field name)


@bp.url_value_preprocessor
def _allow_whole_messages(endpoint, values):
    """A provider's post carries a whole message: allow what the SMTP server allows
    (before the input guard reads the form)."""
    limit = settings().inbound_max_bytes + 64 * 1024  # the message and the provider's other fields
    request.max_content_length = request.max_form_memory_size = limit


@bp.post("/mailgun/mime")
def receive_mailgun():
    config = settings()
    if not config.mailgun_signing_key:
        raise NotFound("inbound mail from Mailgun is not enabled here (set MAILGUN_SIGNING_KEY)")
    timestamp, token = request.form.get("timestamp", ""), request.form.get("token", "")
    expected = hmac.new(config.mailgun_signing_key.encode(), (timestamp + token).encode(), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(request.form.get("signature", ""), expected):
        raise Unauthorized("signature does not match: it must be the hex HMAC-SHA256 of timestamp + token with the "
                           "Mailgun webhook signing key", code="bad_signature")
    if not timestamp.isdigit() or abs(time.time() - int(timestamp)) > MAILGUN_MAX_AGE_SECONDS:
        raise Unauthorized(f"timestamp is more than {MAILGUN_MAX_AGE_SECONDS} seconds away from now",
                           code="stale_signature")
    raw = request.form.get("body-mime")
    if raw is None:
        raise BadRequest("body-mime is missing: point the route at a URL ending in /mime for the raw message",
                         code="no_message")
    if not 0 < len(token) <= MAILGUN_MAX_TOKEN_LENGTH:
        raise BadRequest(f"token must be 1 to {MAILGUN_MAX_TOKEN_LENGTH} characters (Mailgun's are 50)",
                         code="bad_token")
    if not use_once(db_engine(), token, int(timestamp), time.time(), MAILGUN_MAX_AGE_SECONDS):
        raise Replayed("this signature's token was already used: each post must carry a new timestamp and token")
    try:
        return _accept(raw.encode("utf-8", "surrogateescape"), request.form.get("recipient", ""),
                       request.form.get("sender", ""), refusal_status=406)
    except Exception:  # not stored: Mailgun's retry of this post must still be accepted
        forget(db_engine(), token)
        raise


@bp.post("/postmark")
def receive_postmark():
    config = settings()
    if not config.postmark_inbound_auth:
        raise NotFound("inbound mail from Postmark is not enabled here (set POSTMARK_INBOUND_AUTH)")
    given = request.authorization
    user, _, password = config.postmark_inbound_auth.partition(":")
    if given is None or given.type != "basic" or not (
            hmac.compare_digest(given.username or "", user) & hmac.compare_digest(given.password or "", password)):
        raise Unauthorized("the webhook URL's basic-auth user and password do not match POSTMARK_INBOUND_AUTH",
                           code="bad_credentials")
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise BadRequest("the body must be Postmark's inbound JSON object", code="bad_json")
    recipient = _text(data, "OriginalRecipient") or next(
        (_text(to, "Email") for to in data.get("ToFull") or [] if isinstance(to, dict)), "")
    raw = _text(data, "RawEmail")
    return _accept(raw.encode("utf-8", "surrogateescape") if raw else postmark_message(data),
                   recipient, _header_value(data, "Return-Path").strip().strip("<>"), refusal_status=403)


def _accept(raw: bytes, recipient: str, sender: str, refusal_status: int):
    """Store the message (once) and hand it on: 200 with its id, as both providers
    count only a 2xx as delivered."""
    config = settings()
    if any(c in value for value in (recipient, sender) for c in "\r\n"):
        raise BadRequest("recipient and sender are single addresses: no line breaks", code="bad_address")
    if not is_our_address(config.mail_domain, recipient):
        raise NotOurRecipient(f"recipient must be one of our reply addresses (play+...@{config.mail_domain}), "
                              f"not {recipient!r}", refusal_status)
    if len(raw) > config.inbound_max_bytes:
        raise TooLarge(f"a message may be at most {config.inbound_max_bytes} bytes")
    inbound_id = store(db_engine(), raw, recipient, sender)
    if inbound_id is not None:
        dispatcher = current_app.extensions["turnpost"].get("dispatcher")
        try:
            if dispatcher is not None:
                dispatcher.inbound(inbound_id)
        except Exception:  # stored: the inbound sweep processes it later
            current_app.logger.exception("inbound message %s stored but not handed on", inbound_id)
    return jsonify({"id": inbound_id, "duplicate": inbound_id is None}), 200


def _text(data: dict, name: str) -> str:
    value = data.get(name)
    return value if isinstance(value, str) else ""


def _header_value(data: dict, name: str) -> str:
    """The value of the first header `name` in Postmark's `Headers` list ('' if none)."""
    for header in data.get("Headers") or []:
        if isinstance(header, dict) and _text(header, "Name").lower() == name.lower():
            return _text(header, "Value")
    return ""


def postmark_message(data: dict) -> bytes:
    """The message Postmark parsed, built again from its JSON: the sender, the
    recipient, the subject and date, the headers it lists (Message-ID, In-Reply-To,
    Auto-Submitted, Authentication-Results...) and the text and HTML bodies. Its own
    MessageID stands in for a missing Message-ID header, so a retried post is the
    same message."""
    message = EmailMessage(policy=SMTP)
    sender = data.get("FromFull")
    if not isinstance(sender, dict):
        sender = {}
    try:
        message["From"] = Address(_text(sender, "Name"), addr_spec=_text(sender, "Email")) \
            if _text(sender, "Email") else _text(data, "From")
        message["To"] = _text(data, "To") or _text(data, "OriginalRecipient")
        message["Subject"] = _text(data, "Subject")
        if _text(data, "Date"):
            message["Date"] = _text(data, "Date")
        for header in data.get("Headers") or []:
            name, value = _text(header, "Name") if isinstance(header, dict) else "", \
                _text(header, "Value") if isinstance(header, dict) else ""
            if _HEADER_NAME.fullmatch(name) and name.lower() not in _BODY_HEADERS | {"from", "to", "subject", "date"}:
                message[name] = value
        if "Message-ID" not in message and _text(data, "MessageID"):
            message["Message-ID"] = f"<{_text(data, 'MessageID')}@postmark>"
    except (ValueError, TypeError, IndexError) as err:  # a header with a line break or no valid address
        raise BadRequest(f"a header in the JSON cannot be written into a message: {err}", code="bad_header") from None
    message.set_content(_text(data, "TextBody"))
    if _text(data, "HtmlBody"):
        message.add_alternative(_text(data, "HtmlBody"), subtype="html")
    return message.as_bytes()
