"""A hostile pass over every API operation and every form: JSON nested 31 to 30,000
deep (arrays, objects, both mixed, unclosed; as the body and in each field), numbers
of 5,000 digits, NUL characters, lists and objects where text is expected,
broken UTF-8, the wrong content type; signed in and not. No answer is a 5xx."""
from __future__ import annotations

import re

import pytest

from service.auth import start_session, user_for_email
from service.db import transaction
from service.input_guard import MAX_JSON_DEPTH
from service.preference_links import preferences_token
from tests.conftest import start_game
from tests.workers.test_links_and_preferences import csrf_of

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
    with transaction(app.extensions["turnpost"]["database"]) as db:
        secret = start_session(db, user_for_email(db, players[0].email))
    with client.session_transaction() as session:
        session["sid"] = secret
    return players[0], client, game


def api_operations(app, game_id: int):
    """Every operation of the OpenAPI document: its method, its URL (ids filled in
    with the game's) and the fields of its JSON body (["x"] for one without)."""
    spec = app.test_client().get("/api/openapi.json").json
    for path, operations in spec["paths"].items():
        url = re.sub(r"\{[a-z_]+\}", str(game_id), path)
        for method, operation in operations.items():
            if method not in ("get", "post", "put", "patch", "delete"):
                continue
            body = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {})
            ref = body.get("$ref", "").rsplit("/", 1)[-1]
            yield method, url, list(spec["components"]["schemas"].get(ref, {}).get("properties", {})) or ["x"]


def test_no_api_operation_answers_5xx_to_hostile_bodies(app, world):
    player, _, game = world
    failures = []
    for method, url, fields in api_operations(app, game["id"]):
        for headers in (player.headers, {}):
            for kwargs in hostile_bodies(fields):
                answer = app.test_client().open(url, method=method.upper(), headers=headers, **kwargs)
                if answer.status_code >= 500:
                    failures.append((method, url, str(kwargs)[:80], answer.status_code))
    assert failures == []


# Nesting just within the guard's limit (so the body reaches the views), just past it,
# and far past it; as arrays, objects, both mixed, and left unclosed.
DEPTHS = (MAX_JSON_DEPTH - 1, MAX_JSON_DEPTH + 1, 100, 1_000, 30_000)
SHAPES = {
    "arrays": lambda d: "[" * d + "1" + "]" * d,
    "objects": lambda d: '{"a": ' * d + "1" + "}" * d,
    "mixed": lambda d: '[{"a": ' * (d // 2) + '"x"' + "}]" * (d // 2),
    "unclosed": lambda d: '[{"a": "]}", "b": ' * d,
}


def deep_bodies(fields: list[str]):
    """JSON text nested `DEPTHS` deep in every shape: as the whole body, and as the
    value of each field (one level under the body, beside the other fields)."""
    for depth in DEPTHS:
        for shape, nest in SHAPES.items():
            yield f"{shape} {depth} deep", nest(depth)
            for name in fields:
                others = "".join(f', "{other}": "x"' for other in fields if other != name)
                yield f"{shape} {depth} deep in {name}", f'{{"{name}": {nest(depth - 1)}{others}}}'


def test_no_api_operation_or_form_answers_5xx_to_deeply_nested_json(app, world):
    player, client, game = world
    failures = []
    targets = [(method, url, fields, headers) for method, url, fields in api_operations(app, game["id"])
               for headers in (player.headers, {})]
    targets += [("post", path, fields, {}) for path, fields in form_fields(app, game["id"]).items()]
    for method, url, fields, headers in targets:
        caller = client if not headers and not url.startswith("/api/") else app.test_client()
        for what, body in deep_bodies(fields):
            answer = caller.open(url, method=method.upper(), headers=headers, data=body,
                                 content_type="application/json")
            if answer.status_code >= 500:
                failures.append((method, url, what, answer.status_code))
    assert failures == []


def test_no_form_answers_5xx_to_deeply_nested_text(app, world):
    player, client, game = world
    failures = []
    for path, fields in form_fields(app, game["id"]).items():
        for depth in DEPTHS:
            for shape, nest in SHAPES.items():
                csrf = csrf_of(client.get("/games/new").get_data(as_text=True))
                answer = client.post(path, data={**{name: nest(depth) for name in fields}, "csrf_token": csrf})
                if answer.status_code >= 500:
                    failures.append((path, f"{shape} {depth} deep", answer.status_code))
                if path == "/sign-out":
                    sign_in_again(app, client, player)
    assert failures == []


def sign_in_again(app, client, player) -> None:
    """A new session for the world's client after a form signed it out."""
    with client.session_transaction() as session:
        with transaction(app.extensions["turnpost"]["database"]) as db:
            session["sid"] = start_session(db, user_for_email(db, player.email))


def form_fields(app, gid: int) -> dict[str, list[str]]:
    """Every form the pages post, by path, with its fields."""
    token = preferences_token(app.extensions["turnpost"]["settings"].secret_key, 1)
    return {
        "/sign-in": ["email"], "/games/new": ["game", "players", "days_per_decision", "invite", "title", "board",
                                             "seat_order", "timeout_policy"],
        f"/games/{gid}/move": ["version", "text"], f"/games/{gid}/respond": ["version", "answer"],
        f"/preferences/{token}": ["email_mode"], f"/unsubscribe/{token}": ["x"],
        f"/games/{gid}/resign": ["version"], f"/games/{gid}/abandon": ["version"],
        f"/games/{gid}/invite": ["version", "email"], f"/games/{gid}/cancel": ["version"],
        "/tokens": ["label"], "/tokens/1/revoke": ["x"],
        "/a/not-a-token": ["x"], "/sign-in/not-a-token": ["x"], "/join/not-a-token": ["x"],
        "/sign-out": ["everywhere"],
    }


def test_no_form_answers_5xx_to_hostile_fields(app, world):
    player, client, game = world
    forms = form_fields(app, game["id"])
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
                    sign_in_again(app, client, player)
    assert failures == []
    with app.test_client() as anonymous:
        for query in ("?next=%00", "?waiting=%00", "?waiting=" + "9" * 5000):
            assert anonymous.get(f"/sign-in{query}").status_code < 500
            assert anonymous.get(f"/api/me/games{query}").status_code < 500
