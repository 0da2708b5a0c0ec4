"""Secrets are not kept where they need not be: answers that show a new API token or
hold a live sign-in link say `Cache-Control: no-store`, and the outbox keeps a
sign-in email's nonce and issue time, not the link, which is built again, the same,
when the email is composed."""
from __future__ import annotations

import re
import time
import uuid

import pytest
from itsdangerous import SignatureExpired, TimestampSigner, URLSafeTimedSerializer
from sqlmodel import col, select

from service.auth import create_sign_in_link, sign_in_token
from service.invitation_links import invitation_token
from service.models import Notification
from tests.service.test_hostile_input import signed_in_client
from tests.workers.test_links_and_preferences import csrf_of
from workers.compose import compose


def test_a_new_api_token_is_answered_with_no_store(make_player):
    player = make_player("tokens")
    created = player.post("/api/tokens", json={"label": "cli"})
    assert created.status_code == 201 and created.json["token"].startswith("tp_")
    assert created.headers["Cache-Control"] == "no-store"


def test_the_tokens_page_is_answered_with_no_store(app, make_player):
    client = signed_in_client(app, make_player("tokens"))
    page = client.get("/tokens")
    assert page.headers["Cache-Control"] == "no-store"
    created = client.post("/tokens", data={"csrf_token": csrf_of(page.get_data(as_text=True)), "label": "laptop"})
    assert created.status_code == 200 and "tp_" in created.get_data(as_text=True)
    assert created.headers["Cache-Control"] == "no-store"


def sign_in_row(app, db, email: str) -> Notification:
    assert app.test_client().post("/api/sign-in", json={"email": email}).status_code == 202
    with db() as session:
        return session.exec(select(Notification).where(Notification.email == email)
                            .order_by(col(Notification.id).desc())).first()


def test_the_outbox_keeps_no_sign_in_link_and_the_email_still_carries_a_working_one(app, db):
    settings = app.extensions["turnpost"]["settings"]
    email = f"kept-{uuid.uuid4().hex[:8]}@example.org"
    row = sign_in_row(app, db, email)
    assert set(row.payload) == {"nonce", "issued_at", "valid_minutes"}
    assert "sign-in/" not in str(row.payload) and "http" not in str(row.payload)
    with db() as session:
        first = compose(session, settings, session.get(Notification, row.id))
        again = compose(session, settings, session.get(Notification, row.id))
    url = re.search(r"http://turnpost\.test(/sign-in/\S+)", first.text).group(1)
    assert url in again.text, "composed again (a retry), the email carries the same link"
    _, issued_at = URLSafeTimedSerializer(settings.secret_key, salt="turnpost.sign-in").loads(
        url.rsplit("/", 1)[1], return_timestamp=True)
    assert abs(issued_at.timestamp() - row.payload["issued_at"]) < 1, "the link expires as when it was asked for"
    browser = app.test_client()
    confirm = browser.get(url)
    assert confirm.status_code == 200 and confirm.headers["Cache-Control"] == "no-store"
    signed_in = browser.post(url, data={"csrf_token": csrf_of(confirm.get_data(as_text=True))})
    assert signed_in.status_code == 302 and browser.get("/").status_code == 200


def test_a_rebuilt_link_expires_with_its_issue_time():
    token = sign_in_token("k", "nonce", int(time.time()) - 3600)
    serializer = URLSafeTimedSerializer("k", salt="turnpost.sign-in", signer=TimestampSigner)
    assert serializer.loads(token, max_age=7200) == "nonce"
    with pytest.raises(SignatureExpired):  # issued an hour ago, valid for 30 minutes
        serializer.loads(token, max_age=1800)


def test_a_row_written_with_the_link_itself_still_composes(app, db):
    settings = app.extensions["turnpost"]["settings"]
    with db() as session:
        row = Notification(kind="sign_in", email=f"old-{uuid.uuid4().hex[:8]}@example.org",
                           payload={"sign_in_url": "http://turnpost.test/sign-in/old", "valid_minutes": 30},
                           message_id=f"<{uuid.uuid4().hex}@turnpost>")
        session.add(row)
        session.flush()
        assert "http://turnpost.test/sign-in/old" in compose(session, settings, row).text


def test_the_invitation_confirm_page_is_answered_with_no_store(app, db, make_player):
    settings = app.extensions["turnpost"]["settings"]
    creator = make_player("creator")
    game = creator.post("/api/games", json={"game": "tigris", "players": 2}).json
    with db() as session:
        token = invitation_token(settings.secret_key, create_sign_in_link(session, creator.email, settings.secret_key),
                                 game["id"])
    page = app.test_client().get(f"/join/{token}")
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
