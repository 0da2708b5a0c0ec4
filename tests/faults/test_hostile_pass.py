"""A hostile pass over every API operation and every form: bodies nested 30,000 deep,
numbers of 5,000 digits, NUL characters, lists and objects where text is expected,
broken UTF-8, the wrong content type; signed in and not. No answer is a 5xx."""
from __future__ import annotations

import json
import re
import uuid

import pytest

from service.auth import start_session, user_for_email
from service.db import transaction
from tests.conftest import start_game
from tests.workers.test_links_and_preferences import csrf_of
from workers.compose import preferences_token

DEEP = "[" * 30000 + "]" * 30000
VALUES = [None, True, -1, 10**30, 1.5e308, "", "\x00", "x" * 5000, "ü\u202e\ud7ff", [], {}, [[[[["x"]]]]],
          {"type": ["place_tile"]}, {"a": {"b": {"c": {"d": [1, {"e": None}]}}}}]
RAW_BODIES = [DEEP, '{"version": ' + "9" * 5000 + "}", b"\xff\xfe\x00{", "{", "[]", "null", '"text"', "1e999999"]


def hostile_bodies(fields: list[str]):
    for raw in RAW_BODIES:
        yield {"data": raw, "content_type": "application/json"}
    for value in VALUES:
        yield {"json": {name: value for name in fields}}
        yield {"json": {**{name: "x" for name in fields}, "extra": value}}
    yield {"data": {name: "x\x00" for name in fields}}  # a form where JSON is expected


@pytest.fixture
def world(app, make_player):
    players, game = start_game(make_player, 2)
    client = app.test_client()
    with transaction(app.extensions["turnpost"]["engine"]) as db:
        secret = start_session(db, user_for_email(db, players[0].email))
    with client.session_transaction() as session:
        session["sid"] = secret
    return players[0], client, game


def test_no_api_operation_answers_5xx_to_hostile_bodies(app, world):
    player, _, game = world
    spec = app.test_client().get("/api/openapi.json").json
    failures = []
    for path, operations in spec["paths"].items():
        url = re.sub(r"\{[a-z_]+\}", str(game["id"]), path)
        for method, operation in operations.items():
            if method not in ("get", "post", "put", "patch", "delete"):
                continue
            body = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {})
            ref = body.get("$ref", "").rsplit("/", 1)[-1]
            fields = list(spec["components"]["schemas"].get(ref, {}).get("properties", {})) or ["x"]
            for headers in (player.headers, {}):
                for kwargs in hostile_bodies(fields):
                    answer = app.test_client().open(url, method=method.upper(), headers=headers, **kwargs)
                    if answer.status_code >= 500:
                        failures.append((method, url, str(kwargs)[:80], answer.status_code))
    assert failures == []


def test_no_form_answers_5xx_to_hostile_fields(app, world):
    player, client, game = world
    gid, settings = game["id"], app.extensions["turnpost"]["settings"]
    token = preferences_token(settings.secret_key, 1)
    forms = {
        "/sign-in": ["email"], "/games/new": ["game", "players", "days_per_decision", "invite", "title", "board",
                                             "seat_order", "timeout_policy"],
        f"/games/{gid}/move": ["version", "text"], f"/games/{gid}/respond": ["version", "answer"],
        f"/preferences/{token}": ["email_mode"], f"/unsubscribe/{token}": ["x"],
        "/a/not-a-token": ["x"], "/sign-in/not-a-token": ["x"], "/sign-out": ["everywhere"],
    }
    values = ["\x00", "x" * 70000, "inf", "-1e999", "9" * 5000, "", "ü\u202e", "1" * 30, "nan"]
    failures = []
    for path, fields in forms.items():
        for value in values:
            csrf = csrf_of(client.get("/games/new").get_data(as_text=True))
            for data in ({name: value for name in fields}, {**{name: value for name in fields}, "csrf_token": csrf}):
                answer = client.post(path, data=data)
                if answer.status_code >= 500:
                    failures.append((path, repr(value)[:20], answer.status_code))
                if path == "/sign-out" and "csrf_token" in data:
                    with client.session_transaction() as session:  # signed out: sign in again
                        with transaction(app.extensions["turnpost"]["engine"]) as db:
                            session["sid"] = start_session(db, user_for_email(db, player.email))
    assert failures == []
    with app.test_client() as anonymous:
        for query in ("?next=%00", "?waiting=%00", "?waiting=" + "9" * 5000):
            assert anonymous.get(f"/sign-in{query}").status_code < 500
            assert anonymous.get(f"/api/me/games{query}").status_code < 500
