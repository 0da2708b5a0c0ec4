"""Input built to break the service gets a clear 4xx saying what was wrong, before
any sign-in check where it can, and changes nothing."""
from __future__ import annotations

import pytest

from service.db import transaction
from service.models import Game
from tests.conftest import start_game
from tests.workers.test_links_and_preferences import csrf_of


@pytest.fixture(scope="module")
def game(app):
    import uuid

    from tests.conftest import Player

    make = lambda name: Player(app, f"{name}-{uuid.uuid4().hex[:8]}@example.org")  # noqa: E731
    players, game = start_game(make, 2)
    mover = players[int(next(iter(game["pending"])))]
    return mover, mover.get(f"/api/games/{game['id']}").json  # the game as the mover sees it


def unchanged(mover, game):
    now = mover.get(f"/api/games/{game['id']}").json
    assert now["version"] == game["version"] and now["view"] == game["view"]


def test_json_nested_thirty_thousand_deep_is_refused_before_sign_in(app):
    body = "[" * 30000 + "]" * 30000
    answer = app.test_client().post("/api/games", data=body, content_type="application/json")
    assert answer.status_code == 422 and answer.json["code"] == "too_deep", answer.json
    assert "nested" in answer.json["message"]


def test_a_five_thousand_digit_number_is_refused(game):
    mover, state = game
    answer = mover.client.post(f"/api/games/{state['id']}/moves", headers=mover.headers,
                               data='{"text": "x", "version": ' + "9" * 5000 + "}", content_type="application/json")
    assert answer.status_code == 422 and answer.json["code"] == "bad_number", answer.json
    unchanged(mover, state)


@pytest.mark.parametrize("body", [b'{"text": "\xff", "version": 1}', b'{"text": "a\xc3", "version": 1}',
                                  b'\xef\xbb{"version": 1}', b'{"version": 1, "text": "\xed\xa0\x80"}'])
def test_a_json_body_that_is_not_utf8_gets_400_saying_so(game, body):
    mover, state = game
    answer = mover.client.post(f"/api/games/{state['id']}/moves", headers=mover.headers, data=body,
                               content_type="application/json")
    assert answer.status_code == 400 and answer.json["code"] == "bad_encoding", answer.json
    assert "not valid UTF-8" in answer.json["message"]
    unchanged(mover, state)


@pytest.mark.parametrize("field", ["type", "color", "leader", "square"])
@pytest.mark.parametrize("value", [["red"], {"a": 1}, [[["x"]]], {"": []}])
def test_a_move_field_of_the_wrong_json_type_is_refused(game, field, value):
    mover, state = game
    move = {"type": "place_tile", "color": "red", "square": "F7", "leader": "king", field: value}
    answer = mover.post(f"/api/games/{state['id']}/moves", json={"move": move, "version": state["version"]})
    assert answer.status_code == 422, answer.json
    assert answer.json["message"]
    unchanged(mover, state)


def test_huge_reminder_offsets_are_refused(game):
    mover, _ = game
    body = {"game": "tigris", "players": 2, "time_control": {"reminder_offsets": [10**12]}}
    answer = mover.post("/api/games", json=body)
    assert answer.status_code == 422 and "reminder_offsets" in str(answer.json["errors"]), answer.json


@pytest.mark.parametrize("days", ["inf", "-inf", "nan", "1e9", "0", "-3", "0.0001", "x"])
def test_the_new_game_form_refuses_days_out_of_range(app, game, days):
    mover, _ = game
    client = signed_in_client(app, mover)
    page = client.get("/games/new")
    form = {"csrf_token": csrf_of(page.get_data(as_text=True)), "game": "tigris", "players": "2",
            "days_per_decision": days, "title": f"days {days}"}
    answer = client.post("/games/new", data=form)
    assert answer.status_code == 422, answer.status_code
    assert "days per decision" in answer.get_data(as_text=True)
    with transaction(app.extensions["turnpost"]["database"]) as db:
        from sqlmodel import select

        assert db.exec(select(Game).where(Game.title == f"days {days}")).first() is None


def test_nul_in_a_form_title_is_refused(app, game):
    mover, _ = game
    client = signed_in_client(app, mover)
    form = {"csrf_token": csrf_of(client.get("/games/new").get_data(as_text=True)), "game": "tigris",
            "players": "2", "days_per_decision": "3", "title": "a\x00b"}
    answer = client.post("/games/new", data=form)
    assert answer.status_code == 422 and "NUL" in answer.get_data(as_text=True)


def signed_in_client(app, player):
    from service.auth import start_session, user_for_email

    client = app.test_client()
    with transaction(app.extensions["turnpost"]["database"]) as db:
        secret = start_session(db, user_for_email(db, player.email))
    with client.session_transaction() as session:
        session["sid"] = secret
    return client
