"""Bad input gets a clear 4xx and changes nothing."""
import time
from datetime import UTC

import pytest

from tests.conftest import start_game


@pytest.fixture
def game(make_player):
    players, game = start_game(make_player, 2)
    seat = int(next(iter(game["pending"])))
    mover = players[seat]
    return mover, players[1 - seat], mover.get(f"/api/games/{game['id']}").json


def unchanged(player, before):
    """`before` is `player`'s answer for the game before the bad request."""
    after = player.get(f"/api/games/{before['id']}").json
    assert after["version"] == before["version"] and after["view"] == before["view"]
    return after


@pytest.mark.parametrize("body,status,code", [
    ('{"text": ', 400, "bad_json"),
    ({"text": "tile red F7"}, 422, "invalid"),  # no version
    ({"text": "tile red F7", "version": "7"}, 422, "invalid"),
    ({"text": "tile red F7", "version": 1, "why": "because"}, 422, "invalid"),
    ({"text": "tile red F7", "move": {"type": "x"}, "version": 1}, 422, "invalid"),
    ({"move": "tile red F7", "version": 1}, 422, "invalid"),
    ({"text": "fly to the moon", "version": None}, 422, "invalid"),
    ({"text": "tile red\u0000", "version": 1}, 422, "invalid"),
])
def test_malformed_requests(game, body, status, code):
    mover, _, state = game
    if isinstance(body, dict) and body.get("version") == 1:
        body = {**body, "version": state["version"]}
    kwargs = {"data": body, "content_type": "application/json"} if isinstance(body, str) else {"json": body}
    answer = mover.client.post(f"/api/games/{state['id']}/moves", headers=mover.headers, **kwargs)
    assert answer.status_code == status and answer.json["code"] == code, answer.json
    assert answer.json["message"]
    unchanged(mover, state)


def test_illegal_and_unparsable_moves_name_the_rule(game):
    mover, _, state = game
    url = f"/api/games/{state['id']}/moves"
    answer = mover.post(url, json={"text": "tile blue F7", "version": state["version"]})
    assert answer.status_code == 422 and answer.json["code"] in ("farm_needs_river", "tile_not_in_hand")
    answer = mover.post(url, json={"text": "fly F7", "version": state["version"]})
    assert answer.status_code == 422 and answer.json["code"] == "parse_error" and "expected" in answer.json["message"]
    answer = mover.post(url, json={"move": {"type": "place_tile", "square": "Z9", "color": "red"},
                                   "version": state["version"]})
    assert answer.status_code == 422 and answer.json["code"] == "bad_square"
    unchanged(mover, state)


def test_not_your_decision_stale_unknown_and_too_large(game, make_player):
    mover, waiting, state = game
    gid = state["id"]
    legal = mover.get(f"/api/games/{gid}/moves/legal").json["moves"][0]["text"]
    answer = waiting.post(f"/api/games/{gid}/moves", json={"text": legal, "version": state["version"]})
    assert answer.status_code == 403 and answer.json["code"] == "not_your_turn"
    answer = mover.post(f"/api/games/{gid}/moves", json={"text": legal, "version": state["version"] - 1})
    assert answer.status_code == 409 and answer.json["current_version"] == state["version"]
    assert mover.get("/api/games/999999").status_code == 404
    answer = mover.post(f"/api/games/{gid}/moves", json={"text": "x" * 100_000, "version": state["version"]})
    assert answer.status_code == 413
    stranger = make_player("stranger")
    assert stranger.get(f"/api/games/{gid}").status_code == 403
    assert stranger.post(f"/api/games/{gid}/moves",
                         json={"text": legal, "version": state["version"]}).status_code == 403
    unchanged(mover, state)


def test_wrong_revoked_and_missing_tokens(game):
    mover, _, state = game
    url = f"/api/games/{state['id']}"
    assert mover.client.get(url).json["code"] == "unauthorized"
    assert mover.client.get(url, headers={"Authorization": "Bearer tp_nope"}).status_code == 401
    assert mover.client.get(url, headers={"Authorization": "Basic abc"}).status_code == 401
    created = mover.post("/api/tokens", json={"label": "laptop"}).json
    other = {"Authorization": f"Bearer {created['token']}"}
    assert mover.client.get(url, headers=other).status_code == 200
    assert mover.client.delete(f"/api/tokens/{created['id']}", headers=mover.headers).status_code == 204
    assert mover.client.get(url, headers=other).status_code == 401
    listed = mover.get("/api/tokens").json["tokens"]
    assert all("token" not in t for t in listed) and any(t["revoked_at"] for t in listed)


def test_a_token_revoked_by_another_process_is_refused_once_its_cache_expires(game, db, monkeypatch):
    from datetime import datetime

    from sqlalchemy import update

    from service import auth
    from service.models import ApiToken

    mover, _, state = game
    monkeypatch.setattr(auth, "TOKEN_CACHE_SECONDS", 0.3)
    created = mover.post("/api/tokens", json={"label": "phone"}).json
    other = {"Authorization": f"Bearer {created['token']}"}
    url = f"/api/games/{state['id']}"
    assert mover.client.get(url, headers=other).status_code == 200
    with db() as session:  # as the command line or another web process would
        session.exec(update(ApiToken).where(ApiToken.id == created["id"]).values(revoked_at=datetime.now(UTC)))
    time.sleep(0.4)
    assert mover.client.get(url, headers=other).status_code == 401


def test_bad_game_creation_is_refused(make_player):
    creator = make_player("creator")
    for body, code in (
        ({"game": "chess", "players": 2}, "invalid"),  # the schema lists the games
        ({"game": "tigris", "players": 5}, "bad_players"),
        ({"game": "tigris", "players": 2, "options": {"board": "moon"}}, "bad_option"),
        ({"game": "tigris", "players": 2, "invite": ["not-an-email"]}, "bad_email"),
        ({"game": "tigris", "players": 2, "invite": ["a@b.org", "c@d.org"]}, "too_many_invitations"),
        ({"game": "tigris", "players": 2, "time_control": {"initial_seconds": 864000, "cap_seconds": 86400}},
         "bad_time_control"),
    ):
        answer = creator.post("/api/games", json=body)
        assert answer.status_code == 422 and answer.json["code"] == code, (body, answer.json)
    assert creator.get("/api/me/games").json["games"] == []


def test_sign_in_requests_are_rate_limited_per_address(database_url, tmp_path):
    from service.app import create_app
    from service.config import Settings

    app = create_app(Settings(database_url=database_url, secret_key="k", redis_url=None,
                              maildir=tmp_path, sign_in_limit="3 per minute"))
    client = app.test_client()
    codes = [client.post("/api/sign-in", json={"email": f"someone{i}@example.org"}).status_code for i in range(5)]
    assert codes == [202, 202, 202, 429, 429]
    assert client.post("/api/sign-in", json={"email": "x@y.org"}).json["code"] == "rate_limited"
