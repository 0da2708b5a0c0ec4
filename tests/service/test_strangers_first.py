"""Someone who is not in a game is refused (403) before the version he sent is looked
at: he never gets 409 with the game's current version, through the API or the pages."""
from __future__ import annotations

import pytest

from service.db import transaction
from service.models import Game
from tests.conftest import start_game
from tests.service.test_hostile_input import signed_in_client
from tests.workers.test_links_and_preferences import csrf_of

STALE = 12345


@pytest.mark.parametrize("action", ["resign", "abandon"])
def test_a_stranger_to_a_started_game_gets_403_without_its_version(make_player, action):
    _, game = start_game(make_player, 2)
    stranger = make_player("stranger")
    answer = stranger.post(f"/api/games/{game['id']}/{action}", json={"version": STALE})
    assert answer.status_code == 403, answer.json
    assert "current_version" not in answer.json and str(game["version"]) not in answer.json["message"]


@pytest.mark.parametrize("action", ["accept", "decline"])
def test_a_stranger_to_an_open_game_gets_403_without_its_version(make_player, action):
    creator, stranger = make_player("creator"), make_player("stranger")
    invite = [make_player("guest").email]
    game = creator.post("/api/games", json={"game": "tigris", "players": 3, "invite": invite}).json
    answer = stranger.post(f"/api/games/{game['id']}/{action}", json={"version": STALE})
    assert answer.status_code == 403, answer.json
    assert "current_version" not in answer.json


def test_only_the_creator_learns_the_version_when_inviting(make_player):
    creator, stranger = make_player("creator"), make_player("stranger")
    game = creator.post("/api/games", json={"game": "tigris", "players": 3}).json
    answer = stranger.post(f"/api/games/{game['id']}/invitations", json={"email": "x@ex.test", "version": STALE})
    assert answer.status_code == 403 and "current_version" not in answer.json, answer.json
    stale = creator.post(f"/api/games/{game['id']}/invitations", json={"email": "x@ex.test", "version": STALE})
    assert stale.status_code == 409 and stale.json["current_version"] == game["version"]


@pytest.mark.parametrize("path, form", [("resign", {}), ("abandon", {}), ("respond", {"answer": "accept"}),
                                        ("invite", {"email": "x@ex.test"}), ("cancel", {})])
def test_the_pages_tell_a_stranger_it_is_not_his_game_not_that_it_changed(app, make_player, path, form):
    _, game = start_game(make_player, 2)
    stranger = make_player("stranger")
    client = signed_in_client(app, stranger)
    csrf = csrf_of(client.get("/games/new").get_data(as_text=True))
    answer = client.post(f"/games/{game['id']}/{path}", data={"csrf_token": csrf, "version": str(STALE), **form},
                         follow_redirects=True)
    text = answer.get_data(as_text=True)
    assert "The game changed since you loaded this page" not in text and "version" not in text.lower(), text[:2000]
    with transaction(app.extensions["turnpost"]["database"]) as db:
        assert db.get(Game, game["id"]).version == game["version"]
