"""Replies that come by a mail provider's webhook, each in the provider's own format
and signature scheme, written here as the providers document them: Mailgun's raw-MIME
route (a form with body-mime, signed with HMAC-SHA256 of timestamp + token) and
Postmark's inbound JSON (basic auth in the webhook URL; RawEmail or the parsed
fields). Through the real endpoint into the same processing as SMTP replies."""
from __future__ import annotations

import base64
import hashlib
import hmac
import time
import uuid

import pytest

from tests.workers.mail_players import reply, reply_address_of, text_of
from tests.workers.test_inbound import game_row, latest_to, mail, two_actions, two_player_game  # noqa: F401

SIGNING_KEY = "key-3ax6xnjp29jd6fds4gc373sgvjxteol0"  # the shape of Mailgun's signing keys
POSTMARK_AUTH = "postmark:correct-horse-battery"


@pytest.fixture
def providers(app):
    settings = app.extensions["turnpost"]["settings"]
    settings.mailgun_signing_key, settings.postmark_inbound_auth = SIGNING_KEY, POSTMARK_AUTH
    yield app.test_client()
    settings.mailgun_signing_key = settings.postmark_inbound_auth = None


def mailgun_form(raw: bytes, recipient: str, sender: str, key: str = SIGNING_KEY, timestamp: int | None = None):
    """What a Mailgun route posts to a URL ending in "mime"."""
    stamp = str(int(time.time()) if timestamp is None else timestamp)
    token = uuid.uuid4().hex + uuid.uuid4().hex[:18]  # 50 characters
    return {
        "recipient": recipient, "sender": sender, "from": sender, "subject": "Re: your decision",
        "body-mime": raw.decode("utf-8"), "timestamp": stamp, "token": token,
        "signature": hmac.new(key.encode(), (stamp + token).encode(), hashlib.sha256).hexdigest(),
    }


def post_mailgun(client, form):
    return client.post("/api/inbound/mailgun/mime", data=form, content_type="multipart/form-data")


def postmark_json(message, recipient: str, raw: bool = False) -> dict:
    """Postmark's inbound JSON for `message` (a reply as a mail client wrote it)."""
    sender = str(message["From"])
    data = {
        "FromName": "", "MessageStream": "inbound", "From": sender,
        "FromFull": {"Email": sender, "Name": "", "MailboxHash": ""},
        "To": recipient, "ToFull": [{"Email": recipient, "Name": "", "MailboxHash": hash_of(recipient)}],
        "Cc": "", "CcFull": [], "Bcc": "", "BccFull": [], "OriginalRecipient": recipient,
        "Subject": str(message["Subject"]), "MessageID": str(uuid.uuid4()), "ReplyTo": "",
        "MailboxHash": hash_of(recipient), "Date": "Thu, 26 Nov 2026 16:59:01 +0100",
        "TextBody": message.get_body(("plain",)).get_content(), "HtmlBody": "", "StrippedTextReply": "", "Tag": "",
        "Headers": [
            {"Name": "Return-Path", "Value": f"<{sender}>"},
            {"Name": "X-Spam-Status", "Value": "No"},
            {"Name": "Message-ID", "Value": str(message["Message-ID"])},
            {"Name": "In-Reply-To", "Value": str(message["In-Reply-To"])},
            {"Name": "References", "Value": str(message["References"])},
            {"Name": "MIME-Version", "Value": "1.0"},
        ],
        "Attachments": [],
    }
    if raw:
        data["RawEmail"] = message.as_string()
    return data


def hash_of(address: str) -> str:
    """What Postmark calls the mailbox hash: the part after "+" in the local part."""
    return address.split("+")[1].split("@")[0]


def basic(credentials: str) -> dict:
    return {"Authorization": "Basic " + base64.b64encode(credentials.encode()).decode()}


def test_mailgun_raw_mime_route_is_signed_and_plays_the_reply(make_player, providers, mail):
    (ann, _), game_id = two_player_game(make_player, mail)
    turn_mail = latest_to(mail, ann)
    first, _ = two_actions(mail, game_id)
    version = game_row(mail, game_id).version
    recipient = reply_address_of(turn_mail)
    raw = reply(turn_mail, first, ann.email).as_bytes()

    wrong_key = mailgun_form(raw, recipient, ann.email, key="key-of-someone-else")
    assert post_mailgun(providers, wrong_key).status_code == 401
    old = post_mailgun(providers, mailgun_form(raw, recipient, ann.email, timestamp=int(time.time()) - 3600))
    assert old.status_code == 401 and old.json["code"] == "stale_signature"
    forged = mailgun_form(raw, recipient, ann.email)
    forged["signature"] = forged["signature"][::-1]
    assert post_mailgun(providers, forged).status_code == 401
    elsewhere = post_mailgun(providers, mailgun_form(raw, "someone@example.org", ann.email))
    assert elsewhere.status_code == 406  # Mailgun does not try again
    assert mail.inbound_rows(recipient) == []

    answer = post_mailgun(providers, mailgun_form(raw, recipient, ann.email))
    assert answer.status_code == 200 and answer.json["duplicate"] is False
    assert post_mailgun(providers, mailgun_form(raw, recipient, ann.email)).json["duplicate"] is True
    assert [row.envelope_from for row in mail.inbound_rows(recipient)] == [ann.email]
    mail.handle(answer.json["id"])  # no dispatcher in this app: processed as a worker would
    assert game_row(mail, game_id).version == version + 1
    assert text_of(latest_to(mail, ann)).startswith("Applied:")


def test_a_replayed_mailgun_post_is_refused_and_stores_nothing(make_player, providers, mail):
    """The signature covers the timestamp and token, not the message: a captured post
    sent again, as it was or with another message under it, is refused."""
    (ann, _), game_id = two_player_game(make_player, mail)
    turn_mail = latest_to(mail, ann)
    first, _ = two_actions(mail, game_id)
    recipient = reply_address_of(turn_mail)
    form = mailgun_form(reply(turn_mail, first, ann.email).as_bytes(), recipient, ann.email)
    assert post_mailgun(providers, form).status_code == 200
    stored = mail.inbound_rows(recipient)

    again = post_mailgun(providers, form)
    assert again.status_code == 406 and again.json["code"] == "replayed_signature", again.json
    other_move = reply(turn_mail, "pass", ann.email).as_bytes().decode()
    swapped = post_mailgun(providers, dict(form, **{"body-mime": other_move}))
    assert swapped.status_code == 406 and swapped.json["code"] == "replayed_signature"
    assert mail.inbound_rows(recipient) == stored
    assert len(stored) == 1


def test_a_mailgun_post_refused_before_storing_can_be_retried_with_its_signature(make_player, providers, mail):
    """A post that stored nothing (here: too large) does not use up its token: the
    provider's retry with the same signature is judged again."""
    (ann, _), _ = two_player_game(make_player, mail)
    turn_mail = latest_to(mail, ann)
    recipient = reply_address_of(turn_mail)
    settings = mail.app.extensions["turnpost"]["settings"]
    form = mailgun_form(reply(turn_mail, "pass", ann.email).as_bytes(), recipient, ann.email)
    limit, settings.inbound_max_bytes = settings.inbound_max_bytes, 100
    try:
        assert post_mailgun(providers, form).status_code == 413
    finally:
        settings.inbound_max_bytes = limit
    assert post_mailgun(providers, form).status_code == 200
    assert post_mailgun(providers, form).json["code"] == "replayed_signature"


def test_used_mailgun_tokens_are_kept_on_sqlite_until_too_old_to_pass(tmp_path):
    """The embedded SQLite default keeps used tokens too; a token is pruned once its
    timestamp is older than the signature's age limit, as no post carrying it passes."""
    from sqlmodel import select

    from service.db import make_engine
    from service.migrate import upgrade
    from service.models import WebhookToken
    from service.webhook_tokens import use_once

    url = f"sqlite:///{tmp_path / 'turnpost.db'}"
    upgrade(url)
    db_engine = make_engine(url)
    now = time.time()
    try:
        assert use_once(db_engine, "a" * 50, int(now), now, 300)
        assert not use_once(db_engine, "a" * 50, int(now), now, 300)
        later = now + 301
        assert use_once(db_engine, "b" * 50, int(later), later, 300)
        with db_engine.connect() as connection:
            assert [row.token for row in connection.execute(select(WebhookToken))] == ["b" * 50]
    finally:
        db_engine.dispose()


@pytest.mark.parametrize("raw", [False, True], ids=["parsed_fields", "raw_email"])
def test_postmark_inbound_json_with_basic_auth_plays_the_reply_in_its_thread(raw, make_player, providers, mail):
    (ann, _), game_id = two_player_game(make_player, mail)
    turn_mail = latest_to(mail, ann)
    first, _ = two_actions(mail, game_id)
    version = game_row(mail, game_id).version
    recipient = reply_address_of(turn_mail)
    message = reply(turn_mail, first, ann.email)
    data = postmark_json(message, recipient, raw=raw)

    assert providers.post("/api/inbound/postmark", json=data).status_code == 401
    assert providers.post("/api/inbound/postmark", json=data, headers=basic("postmark:guess")).status_code == 401
    other = dict(data, OriginalRecipient="someone@example.org", RawEmail=None)
    assert providers.post("/api/inbound/postmark", json=other, headers=basic(POSTMARK_AUTH)).status_code == 403
    assert mail.inbound_rows(recipient) == []

    answer = providers.post("/api/inbound/postmark", json=data, headers=basic(POSTMARK_AUTH))
    assert answer.status_code == 200 and answer.json["duplicate"] is False
    again = providers.post("/api/inbound/postmark", json=data, headers=basic(POSTMARK_AUTH))  # Postmark's retry
    assert again.json["duplicate"] is True
    mail.handle(answer.json["id"])
    assert game_row(mail, game_id).version == version + 1
    answered = latest_to(mail, ann)
    assert text_of(answered).startswith("Applied:") and answered["In-Reply-To"] == message["Message-ID"]
    assert [row.envelope_from for row in mail.inbound_rows(recipient)] == [ann.email]


def test_postmark_fields_that_cannot_be_a_header_are_refused_and_nothing_is_stored(make_player, providers, mail):
    (ann, _), game_id = two_player_game(make_player, mail)
    turn_mail = latest_to(mail, ann)
    recipient = reply_address_of(turn_mail)
    data = postmark_json(reply(turn_mail, "pass", ann.email), recipient)
    data["Headers"].append({"Name": "X-Injected", "Value": "yes\r\nBcc: victim@example.org"})
    answer = providers.post("/api/inbound/postmark", json=data, headers=basic(POSTMARK_AUTH))
    assert answer.status_code == 400 and answer.json["code"] == "bad_header"
    assert mail.inbound_rows(recipient) == []


def test_provider_webhooks_are_off_until_configured(app):
    client = app.test_client()
    assert client.post("/api/inbound/mailgun/mime", data={}).status_code == 404
    assert client.post("/api/inbound/postmark", json={}).status_code == 404
