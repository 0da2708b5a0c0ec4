"""The rules pages: one per game, an index, options shown as set in a game, and the
links to them from the game page and the new-game page."""
from __future__ import annotations

import re

import pytest

import engine
from tests.conftest import start_game
from tests.service.test_hostile_input import signed_in_client

HTML = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}


def test_the_index_lists_every_game_with_a_link(app):
    page = app.test_client().get("/rules")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    for game_id in engine.game_ids():
        assert f'href="/rules/{game_id}"' in text
        assert engine.game_name(game_id).replace("&", "&amp;") in text


@pytest.mark.parametrize("game_id", engine.game_ids())
def test_each_rules_page_explains_every_option_and_the_moves(app, game_id):
    page = app.test_client().get(f"/rules/{game_id}")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    for heading in ("The aim", "A turn", "The end", "Options"):
        assert f"<h2>{heading}</h2>" in text
    for name in engine.get_game(game_id).default_options():
        assert f'id="option-{name}"' in text, name
    # Every example typed on the page is a move the game's own notation reads.
    examples = re.findall(r"<td><code>([^<]+)</code></td></tr>", text)
    assert examples
    rules = engine.get_game(game_id)
    for example in examples:
        assert rules.parse_move(example.replace("&amp;", "&"))["type"], example


@pytest.mark.parametrize("game_id", ["eden", "civ-cards"])
def test_reconstructed_card_data_is_said_on_the_rules_page(app, game_id):
    text = app.test_client().get(f"/rules/{game_id}").get_data(as_text=True)
    assert "Provisional" in text and "reconstruction" in text


def test_an_unknown_game_has_no_rules_page(app):
    page = app.test_client().get("/rules/chess", headers=HTML)
    assert page.status_code == 404
    assert "text/html" in page.content_type
    assert "no rules for &#39;chess&#39;" in page.get_data(as_text=True)


def test_opened_from_a_game_the_page_shows_the_options_of_that_game(app, make_player):
    people, game = start_game(make_player, 3, options={"open_scoring": True, "board": "advanced"})
    page = signed_in_client(app, people[0]).get(f"/rules/tigris?game={game['id']}")
    text = page.get_data(as_text=True)
    assert f"in game {game['id']}" in text
    row = text[text.index('id="option-open_scoring"'):]
    row = row[:row.index("</tr>")]
    assert '<td class="in-game">on</td>' in row
    board = text[text.index('id="option-board"'):]
    assert '<td class="in-game">advanced</td>' in board[:board.index("</tr>")]


def test_a_game_the_visitor_may_not_open_shows_no_options(app, make_player):
    people, game = start_game(make_player, 3, options={"open_scoring": True})
    stranger = make_player("stranger")
    text = signed_in_client(app, stranger).get(f"/rules/tigris?game={game['id']}").get_data(as_text=True)
    assert "in game" not in text and 'class="in-game"' not in text
    # Another game's id is ignored, as is a game of other rules.
    text = signed_in_client(app, people[0]).get(f"/rules/eden?game={game['id']}").get_data(as_text=True)
    assert 'class="in-game"' not in text


def test_the_game_page_and_the_new_game_page_link_the_rules(app, make_player):
    people, game = start_game(make_player, 2, game="euphrat-cards")
    client = signed_in_client(app, people[0])
    page = client.get(f"/games/{game['id']}").get_data(as_text=True)
    assert f'href="/rules/euphrat-cards?game={game["id"]}"' in page
    form = client.get("/games/new").get_data(as_text=True)
    for game_id in engine.game_ids():
        assert f'href="/rules/{game_id}"' in form


def test_a_decision_email_links_the_rules_in_both_parts(app, make_player, outbox, db):
    from workers.compose import compose
    from workers.mail import build_message

    players, game = start_game(make_player, 3, game="eden")
    seat = int(next(iter(game["pending"])))
    [row] = outbox(players[seat].email, "your_turn")
    with db() as session:
        message = build_message(compose(session, app.extensions["turnpost"]["settings"], row))
    link = f"http://turnpost.test/rules/eden?game={game['id']}"
    assert link in message.get_body(("plain",)).get_content()
    assert f'href="{link}"' in message.get_body(("html",)).get_content()


def test_an_unknown_page_is_an_html_page_for_a_browser_and_json_for_the_api(app):
    client = app.test_client()
    page = client.get("/games", headers=HTML)
    assert page.status_code == 404 and "text/html" in page.content_type
    assert "<h1>Page not found</h1>" in page.get_data(as_text=True)
    api = client.get("/api/nothing-here", headers=HTML)
    assert api.status_code == 404 and api.json["code"] == "not_found"
    for accept in ("application/json", "*/*"):  # a script's fetch or curl
        machine = client.get("/games", headers={"Accept": accept})
        assert machine.status_code == 404 and machine.json["code"] == "not_found"


def test_a_game_anyone_signed_in_may_watch_needs_a_sign_in_to_watch(app, make_player):
    people, game = start_game(make_player, 2, spectators=True)
    gid = game["id"]
    visitor = app.test_client().get(f"/games/{gid}", headers=HTML)
    assert visitor.status_code == 302 and "/sign-in" in visitor.headers["Location"]
    assert app.test_client().get(f"/games/{gid}/version").status_code == 403
    watcher = signed_in_client(app, make_player("watcher"))
    assert watcher.get(f"/games/{gid}").status_code == 200
    assert watcher.get(f"/games/{gid}/version").status_code == 200
    # The rules page shows a game's options to those who may watch it only.
    assert 'class="in-game"' not in app.test_client().get(f"/rules/tigris?game={gid}").get_data(as_text=True)
    assert 'class="in-game"' in watcher.get(f"/rules/tigris?game={gid}").get_data(as_text=True)


@pytest.mark.parametrize("dev_mode", [True, False])
def test_the_sign_in_page_points_to_the_local_outbox_in_development_mode(app, dev_mode):
    import dataclasses

    from service.app import create_app
    from tests.service.test_hostile_input import csrf_of

    settings = dataclasses.replace(app.extensions["turnpost"]["settings"], dev_mode=dev_mode)
    local = create_app(settings)
    local.config["TESTING"] = True
    client = local.test_client()
    token = csrf_of(client.get("/sign-in").get_data(as_text=True))
    page = client.post("/sign-in", data={"csrf_token": token, "email": "newcomer@example.org"}, follow_redirects=True)
    text = page.get_data(as_text=True)
    assert "A sign-in link is on its way" in text
    assert ('<a href="/dev/mail">/dev/mail</a>' in text) == dev_mode
