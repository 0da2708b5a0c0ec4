"""The limits per address count the mailbox, however the address is spelt: Unicode
compatibility forms (fullwidth letters and dots, the ideographic full stop), upper
case and plus tags all reach one inbox, so they share one count."""
from __future__ import annotations

import uuid

import pytest
from sqlmodel import select

from service.app import create_app
from service.auth import address_limit_key
from service.config import Settings
from service.models import Notification


@pytest.mark.parametrize("spelling", ["flood@ex.test", "FLOOD@EX.TEST", "flood@ｅx.test", "flood@ex。test",
                                      "flood@ex．test", "flood+x@ex.test", "Flood+a+b@Ex.Test", "ｆlood@ex.test",
                                      " flood@ex.test "])
def test_every_spelling_of_one_mailbox_has_one_key(spelling):
    assert address_limit_key(spelling) == "flood@ex.test"


def test_other_mailboxes_have_other_keys():
    assert len({address_limit_key(a) for a in ["flood@ex.test", "flood2@ex.test", "flood@ex2.test"]}) == 3


@pytest.fixture
def limited_app(database_url, tmp_path):
    settings = Settings(database_url=database_url, redis_url=None, smtp_url=None, base_url="http://turnpost.test",
                        secret_key="test-secret-key", maildir=tmp_path / "mail", sign_in_limit="1000 per minute",
                        sign_in_address_limit="5 per hour", rate_limit="1000000 per minute")
    app = create_app(settings)
    app.config["TESTING"] = True
    return app


def test_the_sign_in_limit_per_address_counts_every_spelling_of_it(limited_app, db):
    local = f"flood{uuid.uuid4().hex[:8]}"
    client = limited_app.test_client()
    for _ in range(5):
        assert client.post("/api/sign-in", json={"email": f"{local}@ex.test"}).status_code == 202
    for spelling in (f"{local}@ｅx.test", f"{local}@ex。test", f"{local.upper()}@EX.TEST", f"{local}+x@ex.test",
                     f"{local}@ex．test"):
        answer = client.post("/api/sign-in", json={"email": spelling})
        assert answer.status_code == 429, (spelling, answer.status_code)
    with db() as session:
        sent = session.exec(select(Notification).where(Notification.email.startswith(local))).all()
    assert len(sent) == 5 and {row.email for row in sent} == {f"{local}@ex.test"}


def test_an_invitation_limit_counts_plus_tags_and_spellings(make_player):
    target = f"target{uuid.uuid4().hex[:8]}"
    limit = 3  # invitations_per_recipient in the test app
    for n in range(limit):
        creator = make_player(f"creator{n}")
        answer = creator.post("/api/games", json={"game": "tigris", "players": 2, "invite": [f"{target}@ex.test"]})
        assert answer.status_code == 201, answer.json
    for spelling in (f"{target}+x@ex.test", f"{target}@ｅx.test", f"{target.upper()}+y@EX。test"):
        creator = make_player("another")
        answer = creator.post("/api/games", json={"game": "tigris", "players": 2, "invite": [spelling]})
        assert answer.status_code == 429 and answer.json["code"] == "invitation_limit", (spelling, answer.json)
        game = creator.post("/api/games", json={"game": "tigris", "players": 2}).json
        invited = creator.post(f"/api/games/{game['id']}/invitations",
                               json={"email": spelling, "version": game["version"]})
        assert invited.status_code == 429, (spelling, invited.json)


def test_a_plus_tag_with_like_wildcards_counts_only_its_own_mailbox(make_player):
    """`%` and `_` are allowed in addresses: counting `a_b+x` must not count `aXb`."""
    suffix = uuid.uuid4().hex[:8]
    for n in range(3):
        creator = make_player(f"wild{n}")
        assert creator.post("/api/games", json={"game": "tigris", "players": 2,
                                                "invite": [f"aXb{suffix}+t@ex.test"]}).status_code == 201
    creator = make_player("wild")
    answer = creator.post("/api/games", json={"game": "tigris", "players": 2, "invite": [f"a_b{suffix}+x@ex.test"]})
    assert answer.status_code == 201, answer.json
