"""Numbers and sizes typed into the pages' forms are checked as text before anything
is built from them: a clear form error (422), never a 500 or a list of millions."""
from __future__ import annotations

import uuid

import pytest
from sqlmodel import select

from service.models import Game, Move
from tests.conftest import start_game
from tests.service.test_hostile_input import signed_in_client
from tests.workers.test_links_and_preferences import csrf_of


def new_game_form(client, **fields) -> dict:
    return {"csrf_token": csrf_of(client.get("/games/new").get_data(as_text=True)), "game": "tigris",
            "players": "2", "title": f"sizes {uuid.uuid4().hex[:8]}", **fields}


@pytest.mark.parametrize("field, value, says", [
    ("bots", "99999999999999999999", "bots must be a whole number from 0 to 7"),
    ("bots", "5000000", "bots must be a whole number from 0 to 7"),
    ("bots", "9" * 5000, "bots must be a whole number from 0 to 7"),
    ("bots", "-1", "bots must be a whole number from 0 to 7"),
    ("bots", "1e3", "bots must be a whole number from 0 to 7"),
    ("bots", "²", "bots must be a whole number from 0 to 7"),
    ("players", "99999999999999999999", "players must be a whole number from 2 to 8"),
    ("players", "1", "players must be a whole number from 2 to 8"),
    ("players", "x", "players must be a whole number from 2 to 8"),
    ("option-tigris-board", "9" * 30, "board must be one of standard, advanced"),
])
def test_the_new_game_form_refuses_sizes_out_of_range(app, make_player, db, field, value, says):
    client = signed_in_client(app, make_player("creator"))
    form = new_game_form(client, **{field: value})
    answer = client.post("/games/new", data=form)
    assert answer.status_code == 422, answer.status_code
    assert says in answer.get_data(as_text=True)
    with db() as session:
        assert session.exec(select(Game).where(Game.title == form["title"])).first() is None


def test_more_bots_and_invitations_than_seats_are_refused_before_building_them(app, make_player, db):
    client = signed_in_client(app, make_player("creator"))
    form = new_game_form(client, bots="3", invite="a@ex.test b@ex.test")
    answer = client.post("/games/new", data=form)
    assert answer.status_code == 422 and "room for 1 invitations and bots, not 5" in answer.get_data(as_text=True)


def test_a_game_against_bots_is_still_made_from_the_form(app, make_player, db):
    client = signed_in_client(app, make_player("creator"))
    form = new_game_form(client, bots="1", bot_kind="random")
    answer = client.post("/games/new", data=form)
    assert answer.status_code == 302, answer.get_data(as_text=True)[:500]
    with db() as session:
        game = session.exec(select(Game).where(Game.title == form["title"])).one()
        assert game.status == "active"


def test_a_move_typed_longer_than_the_api_allows_is_refused(app, make_player, db):
    players, game = start_game(make_player, 2)
    mover = next(p for p in players if str(p.get(f"/api/games/{game['id']}").json["your_seat"]) in game["pending"])
    client = signed_in_client(app, mover)
    page = client.get(f"/games/{game['id']}")
    answer = client.post(f"/games/{game['id']}/move", data={
        "csrf_token": csrf_of(page.get_data(as_text=True)), "version": str(game["version"]), "text": "x" * 5000},
        follow_redirects=True)
    assert "A move is at most 200 characters" in answer.get_data(as_text=True)
    with db() as session:
        assert session.exec(select(Move).where(Move.game_id == game["id"])).all() == []
