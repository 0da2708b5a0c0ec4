"""Addresses are checked and normalised where they come in: one that could never be
sent to is refused with 422 and writes nothing; case does not make a second user."""
from __future__ import annotations

import uuid

import pytest
from sqlmodel import select

from service.auth import user_for_email
from service.models import Notification, User
from tests.workers.test_links_and_preferences import csrf_of


@pytest.mark.parametrize("address", [
    '"a\u000bb"@example.com', "no-at-sign", "a@localhost", "a@b", "é@example.org", "a..b@example.org",
    "a@example.org\r\nBcc: victim@example.org",
])
def test_unsendable_addresses_are_refused_at_the_edge(app, db, address):
    client = app.test_client()
    answer = client.post("/api/sign-in", json={"email": address})
    assert answer.status_code == 422 and answer.json["code"] == "bad_email", answer.json
    assert "not an email address" in answer.json["message"]
    csrf = csrf_of(client.get("/sign-in").get_data(as_text=True))
    page = client.post("/sign-in", data={"email": address, "csrf_token": csrf})
    assert page.status_code == 422 and "not an email address" in page.get_data(as_text=True)
    with db() as session:
        assert session.exec(select(Notification).where(Notification.email == address)).first() is None
        assert session.exec(select(User).where(User.email == address)).first() is None


def test_case_does_not_make_a_second_user_or_seat(app, db, make_player):
    local = f"Bob-{uuid.uuid4().hex[:8]}"
    with db() as session:
        first = user_for_email(session, f"{local}@Example.ORG").id
        assert user_for_email(session, f"{local.lower()}@example.org").id == first
        assert session.get(User, first).email == f"{local.lower()}@example.org"
    creator = make_player("creator")
    created = creator.post("/api/games",
                           json={"game": "tigris", "players": 3, "invite": [f"{local.upper()}@EXAMPLE.org"]})
    assert created.status_code == 201, created.json
    again = creator.post(f"/api/games/{created.json['id']}/invitations",
                         json={"email": f"{local}@example.org", "version": created.json["version"]})
    assert again.status_code == 409 and again.json["code"] == "already_invited"
    emails = [p["email"] for p in creator.get(f"/api/games/{created.json['id']}").json["players"]]
    assert emails.count(f"{local.lower()}@example.org") == 1


def test_an_old_mixed_case_account_beside_its_lower_case_twin_stays_apart(app, db):
    """Written before addresses were stored in lower case, `Bob@x` beside `bob@x` is
    kept as it was (docs/reliability.md): signing in by email reaches the lower-case
    account; the old one keeps its games, reached by its API tokens and sessions."""
    from service.auth import create_api_token

    local = f"Bob-{uuid.uuid4().hex[:8]}"
    with db() as session:
        old = User(email=f"{local}@example.org")  # as stored before the lower-case rule
        session.add(old)
        session.flush()
        _, old_token = create_api_token(session, old, "before")
        twin = user_for_email(session, f"{local}@example.org")
        assert twin.id != old.id and twin.email == f"{local.lower()}@example.org"
    mine = app.test_client().post("/api/games", json={"game": "tigris", "players": 2},
                                  headers={"Authorization": f"Bearer {old_token}"})
    assert mine.status_code == 201 and mine.json["players"][0]["email"] == f"{local}@example.org"
    assert app.test_client().post("/api/sign-in", json={"email": f"{local}@example.org"}).status_code == 202
    with db() as session:
        spellings = [f"{local}@example.org", twin.email]
        [link] = session.exec(select(Notification).where(Notification.kind == "sign_in",
                                                         Notification.email.in_(spellings))).all()
    assert link.email == twin.email
