"""Eden through the service: created, played to the end over the REST API with
versions, an acquisition bid over HTTP, the move log exported and replayed, the
decision email with hand, mana and bid links."""
import random

from click.testing import CliRunner

import engine
from tests.conftest import put_position, start_game, without_tokens
from tests.engine.eden_positions import position
from tests.service.test_game_life import play_random
from tests.workers.mail_players import text_of
from workers.cli import main as cli

EDEN = engine.get_game("eden")


def test_an_eden_game_is_played_to_the_end_over_http(app, db, make_player, outbox, database_url, monkeypatch):
    players, game = start_game(make_player, 3, game="eden")
    gid = game["id"]
    me = game["view"]["players"][game["your_seat"]]
    assert game["game"] == "eden" and "hand" in me and me["mana"] == 100
    assert all("mana" not in p for s, p in enumerate(game["view"]["players"]) if s != game["your_seat"])
    first_email = outbox_text(app, db, outbox(players[0].email, "your_turn"))
    assert "end the turn" in first_email and "Your mana: 100" in first_email and "Your points: 0" in first_email
    stale = players[0].post(f"/api/games/{gid}/moves", json={"text": "pass", "version": game["version"] - 1})
    assert stale.status_code == 409
    game = play_random(players, gid, 5000, random.Random(3))
    assert game["status"] == "finished" and game["result"]["ranking"]
    record = players[0].get(f"/api/games/{gid}/export").json
    assert len(record["moves"]) > 100
    assert all(outbox(p.email, "game_over") for p in players)
    winner_points = game["result"]["scores"][str(game["result"]["ranking"][0][0])]
    over_email = outbox_text(app, db, outbox(players[1].email, "game_over"))
    assert f"{winner_points} points" in over_email
    assert ("is over. A player reached 20 fertility points." in over_email
            or "is over. A full round passed with no card to play." in over_email), over_email[:300]
    page = players[0].get(f"/games/{gid}").get_data(as_text=True)
    assert 'class="end-reason">A player reached 20 fertility points.' in page \
        or 'class="end-reason">A full round passed with no card to play.' in page

    monkeypatch.setenv("DATABASE_URL", database_url)
    monkeypatch.setenv("SECRET_KEY", "cli")
    result = CliRunner().invoke(cli, ["replay-check", str(gid)])
    assert result.exit_code == 0 and "replay to the stored snapshot" in result.output


def test_an_acquisition_is_bid_over_http_between_two_seats(app, make_player):
    players, game = start_game(make_player, 3, game="eden")
    gid = game["id"]
    state = position({"C4": "y1"}, hands={0: ["B4", "A7"]}, mana={0: 100, 1: 100})
    version = put_position(app.extensions["turnpost"]["database"], gid, state)
    for seat, text in ((0, "irrigate B4"), (0, "contest C4"), (0, "bid 10")):
        answer = players[seat].post(f"/api/games/{gid}/moves", json={"text": text, "version": version})
        assert answer.status_code == 200, answer.json
        version = answer.json["game"]["version"]
    game = players[2].get(f"/api/games/{gid}").json
    assert game["pending"] == {"1": "bid"}
    wrong = players[0].post(f"/api/games/{gid}/moves", json={"text": "accept", "version": version})
    assert wrong.status_code == 403
    unpayable = players[1].post(f"/api/games/{gid}/moves", json={"text": "bid 105", "version": version})
    assert unpayable.status_code == 422 and unpayable.json["code"] == "bid_unpayable"
    raised = players[1].post(f"/api/games/{gid}/moves", json={"text": "bid 15", "version": version})
    version = raised.json["game"]["version"]
    accepted = players[0].post(f"/api/games/{gid}/moves", json={"move": {"type": "accept"}, "version": version})
    assert accepted.status_code == 200
    view = accepted.json["game"]["view"]
    assert view["players"][0]["mana"] == 115 and view["board"][3].split()[1:3] == ["y1", "y1"]


def test_the_eden_decision_email_shows_hand_mana_picture_and_one_bid_line(app, make_player, outbox, db):
    from workers.compose import compose
    from workers.mail import build_message

    players, game = start_game(make_player, 3, game="eden")
    gid = game["id"]
    state = position({"C4": "y1"}, hands={0: ["B4", "A7"], 1: ["K2", "E5"]}, mana={1: 135})
    version = put_position(app.extensions["turnpost"]["database"], gid, state)
    for text in ("irrigate B4", "contest C4", "bid 10"):
        version = players[0].post(f"/api/games/{gid}/moves",
                                  json={"text": text, "version": version}).json["game"]["version"]
    row = outbox(players[1].email, "your_turn")[-1]
    with db() as session:
        message = build_message(compose(session, app.extensions["turnpost"]["settings"], row))
    text = message.get_body(("plain",)).get_content()
    assert "Your hand: irrigation card E5; cultivation card 2 (I tromino)" in text and "Your mana: 135" in text
    assert "accept the bid: http" in text and "K2" not in without_tokens(text)
    # One line for the bid (135 mana, x1 point: up to 135, in steps of 5), not a link per amount.
    assert 'Bid N: reply "bid N", N from 15 to 135 in steps of 5; if the other side accepts you pay N x 1 mana' in text
    assert "bid 15 mana per point" not in text and "bid 20 mana per point" not in text
    assert "pays you 10 x 1 = 10 mana and takes C4" in text
    pictures = [p for p in message.walk() if p.get_content_type() == "image/png"]
    assert len(pictures) == 1 and pictures[0].get_content().startswith(b"\x89PNG")
    others = message.get_body(("html",)).get_content()
    assert "135" not in without_tokens(outbox_text(app, db, outbox(players[0].email, "your_turn")))
    assert 'src="cid:board"' in others


def outbox_text(app, db, rows) -> str:
    from workers.compose import compose
    from workers.mail import build_message

    with db() as session:
        return " ".join(
            text_of(build_message(compose(session, app.extensions["turnpost"]["settings"], row)))
            for row in rows
        )


MANA_SENTINELS = {0: 7391801, 1: 7391802, 2: 7391803}


def test_no_response_leaks_another_seats_mana_or_drawn_card(app, make_player):
    players, game = start_game(make_player, 3, game="eden", spectators=True)
    gid = game["id"]
    state = position(hands={0: ["A1", "B1", "C1", "D1"]}, mana=MANA_SENTINELS)
    version = put_position(app.extensions["turnpost"]["database"], gid, state)
    answer = players[0].post(f"/api/games/{gid}/moves", json={"text": "pass", "version": version})
    assert answer.status_code == 200
    mine = players[0].get(f"/api/games/{gid}/log").json["entries"][-1]
    theirs = players[1].get(f"/api/games/{gid}/log").json["entries"][-1]
    assert {"type": "card_received", "seat": 0, "card": "E1"} in mine["events"]
    assert not any(e["type"] == "card_received" for e in theirs["events"]) and "E1" not in str(theirs)
    assert any(e["type"] == "card_drawn" for e in theirs["events"])
    spectator = make_player("watcher")
    for seat, player in enumerate(players + [spectator]):
        version = player.get(f"/api/games/{gid}").json["version"]
        responses = [
            player.get(f"/api/games/{gid}"),
            player.get(f"/api/games/{gid}/moves/legal"),
            player.get(f"/api/games/{gid}/log"),
            player.get("/api/me/games"),
            player.post(f"/api/games/{gid}/moves", json={"text": "bid 5", "version": version}),
            player.post(f"/api/games/{gid}/moves", json={"text": "nonsense", "version": version}),
        ]
        text = " ".join(r.get_data(as_text=True) for r in responses)
        for other, value in MANA_SENTINELS.items():
            assert (str(value) in text) == (other == seat), f"seat {seat} saw seat {other}'s mana"


def test_the_game_page_draws_each_cultivation_card_of_the_hand_with_its_shape(app, make_player):
    players, game = start_game(make_player, 3, game="eden")
    put_position(app.extensions["turnpost"]["database"], game["id"],
                 position({}, hands={0: ["B4", "K3", "K5"], 1: ["K2"]}, market=["K4"]))
    html = players[0].get(f"/games/{game['id']}").get_data(as_text=True)
    hand = html.split('<ul class="hand-cards">', 1)[1].split("</ul>", 1)[0]
    assert [item.rsplit("<span>", 1)[1].split("</span>")[0] for item in hand.split("<li>")[1:]] == \
        ["irrigation card B4", "cultivation card 3 (L tromino)", "cultivation card 5 (O tetromino)"]
    assert hand.count("<svg") == 2 and hand.count("<rect") == 3 + 4  # an L of 3 squares, an O of 4
    assert "K2" not in hand  # another seat's card
    assert "Market: card 4 (I tetromino)" in html  # the board's key names the market's shapes
    before_moves = html.split('id="legal-moves"')[0].replace('data-card="K3"', "")
    assert "K3" not in without_tokens(before_moves)  # ids only in data


def test_the_plain_text_email_draws_the_garden_as_a_grid(app, make_player, outbox, db):
    players, game = start_game(make_player, 3, game="eden")
    gid = game["id"]
    version = put_position(app.extensions["turnpost"]["database"], gid,
                           position({"C4": "y1", "D5": "r3"}, hands={0: ["B4", "A7"], 1: ["E5"]}))
    players[0].post(f"/api/games/{gid}/moves", json={"text": "pass", "version": version})
    text = outbox_text(app, db, outbox(players[1].email, "your_turn")[-1:])
    assert "    A   B   C   D   E   F   G\n" in text
    assert "\n 4  .   .   y1  .   .   .   .\n" in text and "\n 5  .   .   .   r3  .   .   .\n" in text
    assert "r red, y yellow (you), b blue." in text
