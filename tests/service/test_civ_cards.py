"""Civilization: The Card Game, played to the end through the REST API with versions,
the move log exported and replayed."""
import json
import random
import re

from click.testing import CliRunner

from tests.conftest import start_game
from tests.service.test_game_life import play_random
from workers.cli import main as cli


def test_civ_cards_is_played_to_the_end_over_http(make_player, outbox, database_url, monkeypatch):
    players, game = start_game(make_player, 2, game="civ-cards")
    gid = game["id"]
    assert game["game"] == "civ-cards" and game["pending"] == {"0": "draft"}
    stale = players[0].post(f"/api/games/{gid}/moves", json={"text": "pick 1", "version": game["version"] - 1})
    assert stale.status_code == 409 and stale.json["code"] == "stale_version"
    assert players[0].get(f"/api/games/{gid}").json["version"] == game["version"]  # nothing applied
    game = play_random(players, gid, 5000, random.Random(4))
    assert game["status"] == "finished" and game["result"]["ranking"]
    assert game["result"]["reason"] == "last_technology"
    record = players[0].get(f"/api/games/{gid}/export").json
    assert len(record["moves"]) > 100
    assert all(outbox(p.email, "game_over") for p in players)
    assert outbox(players[1].email, "your_turn")

    monkeypatch.setenv("DATABASE_URL", database_url)
    monkeypatch.setenv("SECRET_KEY", "cli")
    result = CliRunner().invoke(cli, ["replay-check", str(gid)])
    assert result.exit_code == 0 and "replay to the stored snapshot" in result.output


def test_civ_cards_hands_stay_private_over_http(make_player):
    players, game = start_game(make_player, 3, game="civ-cards")
    gid = game["id"]
    game = play_random(players, gid, 40, random.Random(8))
    for seat, person in enumerate(players):
        view = person.get(f"/api/games/{gid}").json["view"]
        assert "hand" in view["players"][seat] and "deck" not in view and "rng" not in view
        assert all("hand" not in p for i, p in enumerate(view["players"]) if i != seat)
    log = players[1].get(f"/api/games/{gid}/log").json
    text = json.dumps(log)
    assert '"cards_received"' in text  # seat 1's own draws
    for entry in log["entries"]:
        if entry["seat"] != 1:
            assert entry["move"] is None
            assert all(e["type"] != "cards_received" or e["seat"] == 1 for e in entry["events"])


def test_civ_cards_decision_email_carries_the_tableaux_picture(app, make_player, outbox, db):
    from workers.compose import compose
    from workers.mail import build_message

    players, game = start_game(make_player, 3, game="civ-cards")
    [row] = outbox(players[0].email, "your_turn")
    with db() as session:
        message = build_message(compose(session, app.extensions["turnpost"]["settings"], row))
    pictures = [p for p in message.walk() if p.get_content_type() == "image/png"]
    assert len(pictures) == 1 and pictures[0].get_content().startswith(b"\x89PNG")
    assert 'src="cid:board"' in message.get_body(("html",)).get_content()
    text = message.get_body(("plain",)).get_content()
    assert "Pick a plot from the draft." in text and "pick 1" in text
    assert "Your resources: nothing" in text and "Your points: 0 VP (0 population," in text
    assert "Draft, round 1: 1. " in text and "Seat 1: 0 VP" in text  # the table in words


def test_civ_cards_game_page_draws_the_tableaux(make_player):
    players, game = start_game(make_player, 2, game="civ-cards")
    page = players[0].get(f"/games/{game['id']}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "Civilization card game tableaux" in html and 'data-slot="plot-1"' in html
    assert "pick 1" in html and "Pick a plot from the draft." in html
    # the clickable play comes with the seat's view, only to the seat owing a decision;
    # the script is on every player's page, to start when a live update brings a decision
    assert "games/civ-cards/play.js" in html and 'id="civ-context"' in html and 'data-slot="display-plot-1"' in html
    waiting = players[1].get(f"/games/{game['id']}").get_data(as_text=True)
    assert "games/civ-cards/play.js" in waiting and 'id="civ-context"' not in waiting


def test_only_civ_cards_pages_load_its_script(make_player):
    players, game = start_game(make_player, 2, game="eden", options={"allow_two": True})
    assert "games/civ-cards/play.js" not in players[0].get(f"/games/{game['id']}").get_data(as_text=True)


def test_civ_cards_team_variant_over_http(make_player):
    players, game = start_game(make_player, 4, game="civ-cards", options={"teams": "opposite"})
    assert game["view"]["options"]["teams"] == "opposite"
    game = play_random(players, game["id"], 60, random.Random(2))
    assert game["status"] == "active"
    refused = players[0].post("/api/games", json={"game": "civ-cards", "players": 3, "options": {"teams": "opposite"}})
    assert refused.status_code == 422 and "4 players" in json.dumps(refused.json)


def test_an_email_link_and_its_answer_name_the_card_the_move_acts_on(app, make_player):
    from service.action_tokens import ActionToken, make_token
    from tests.conftest import put_position
    from tests.engine.civ_cards_positions import player, position

    players, game = start_game(make_player, 2, game="civ-cards")
    version = put_position(app.extensions["turnpost"]["database"], game["id"], position(
        {0: player(hand={"walls": 1, "great-merchant": 1})}, count=2, phase="discard",
        discarding={"order": [0], "left": 1}))
    token = make_token(app.extensions["turnpost"]["settings"].secret_key,
                       ActionToken(game["id"], 0, version, "discard great-merchant"))
    page = players[0].get(f"/a/{token}").get_data(as_text=True)
    assert "discard Great Merchant" in page and "discard a card" not in page
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    done = players[0].post(f"/a/{token}", data={"csrf_token": csrf}).get_data(as_text=True)
    assert "Your move was made: discard Great Merchant." in done
