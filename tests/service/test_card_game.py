"""Euphrat & Tigris: the card game, played to the end through the REST API."""
import random
import re
from types import SimpleNamespace

from engine.euphrat_cards.cards import CHAR_CARDS
from tests.conftest import start_game
from tests.engine.euphrat_cards_positions import purposeful_choice
from tests.service.test_game_life import play_random


def purposeful(rng, game, entries):
    """The engine tests' purposeful player (uniformly random ones can reach a table the
    rules never end), reading the public table from the game's view."""
    table = SimpleNamespace(columns=[[CHAR_CARDS[ch] for ch in col] for col in game["view"]["columns"]])
    moves = [entry["move"] for entry in entries]
    return entries[moves.index(purposeful_choice(rng, table, moves))]


def test_a_card_game_is_played_to_the_end_over_http(make_player, outbox):
    players, game = start_game(make_player, 2, game="euphrat-cards")
    gid = game["id"]
    assert game["game"] == "euphrat-cards" and "hand" in game["view"]["players"][game["your_seat"]]
    game = play_random(players, gid, 3000, random.Random(3), purposeful)
    assert game["status"] == "finished" and game["result"]["ranking"]
    record = players[0].get(f"/api/games/{gid}/export").json
    assert len(record["moves"]) > 100
    assert all(outbox(p.email, "game_over") for p in players)
    assert outbox(players[1].email, "your_turn")


def test_a_card_game_decision_email_carries_its_picture(app, make_player, outbox, db):
    from workers.compose import compose
    from workers.mail import build_message

    players, game = start_game(make_player, 3, game="euphrat-cards")
    seat = int(next(iter(game["pending"])))
    [row] = outbox(players[seat].email, "your_turn")
    with db() as session:
        message = build_message(compose(session, app.extensions["turnpost"]["settings"], row))
    pictures = [p for p in message.walk() if p.get_content_type() == "image/png"]
    assert len(pictures) == 1 and pictures[0].get_content().startswith(b"\x89PNG")
    html = message.get_body(("html",)).get_content()
    assert 'src="cid:board"' in html
    text = message.get_body(("plain",)).get_content()
    assert "Your turn, 2 actions left: play a card from your hand" in text
    # the table in short lines, in both parts (the picture is small on a phone): every column,
    # its treasure first, once
    for part in (text, html):
        lines = [line.removeprefix("<p>").removesuffix("</p>") for line in part.splitlines()]
        assert [line for line in lines if line[:3] in {f"{c}: " for c in "ABCDEFGH"}] == \
            [f"{c}: treasure" for c in "ABCDEFGH"]
        assert "The table, each column from its head down:" in part and "Ships to build: blue-red" in part


def test_a_standing_answer_goes_unnoticed_by_the_other_seats_and_spectators(make_player, outbox):
    players, game = start_game(make_player, 3, game="euphrat-cards", spectators=True)
    gid, version = game["id"], game["version"]
    seat = int(next(iter(game["pending"])))
    others = [p for s, p in enumerate(players) if s != seat] + [make_player("watcher")]

    def observed(player):
        page = player.get(f"/games/{gid}").get_data(as_text=True)
        page = re.sub(r'name="csrf_token" value="[^"]*"', "", page)  # signed with the second it was made in
        return (player.get(f"/api/games/{gid}").json, player.get(f"/api/games/{gid}/log").json,
                page, len(outbox(player.email)))

    before = [observed(p) for p in others]
    setting = {"type": "set_answer", "offer": "score", "answer": "decline"}
    answer = players[seat].post(f"/api/games/{gid}/moves", json={"move": setting, "version": version})
    assert answer.status_code == 200 and answer.json["version"] == version
    mine = players[seat].get(f"/api/games/{gid}/log").json["entries"]
    assert mine[-1]["move"] == setting and [e["type"] for e in mine[-1]["events"]] == ["answer_set"]
    assert [observed(p) for p in others] == before
    # The game goes on at the version everyone saw.
    move = players[seat].get(f"/api/games/{gid}/moves/legal").json["moves"][0]["move"]
    assert players[seat].post(f"/api/games/{gid}/moves", json={"move": move, "version": version}).status_code == 200
    logs = [p.get(f"/api/games/{gid}/log").json["entries"] for p in others]
    assert all([e["seq"] for e in log] == list(range(1, len(log) + 1)) for log in logs)


def test_a_full_table_is_ended_by_the_players_vote_from_the_page_and_the_api(app, make_player):
    from tests.conftest import put_position
    from tests.engine.euphrat_cards_positions import position
    from tests.service.test_hostile_input import signed_in_client

    players, game = start_game(make_player, 2, game="euphrat-cards")
    gid = game["id"]
    dead = position(columns=["tbgkbgkbg"] * 8, gaps="bgkbgkb", players=2, deck="kkkk",
                    hands={0: {"blue": 3, "green": 3, "black": 2}, 1: {"blue": 2, "green": 2, "black": 4}},
                    leaders={0: {"farmer": "A2"}, 1: {"priest": "H1"}}, catastrophes={0: False, 1: False})
    version = put_position(app.extensions["turnpost"]["database"], gid, dead)
    page = signed_in_client(app, players[0]).get(f"/games/{gid}").get_data(as_text=True)
    assert "No card can be played to the table again" in page
    assert "propose to end the game as it stands" in page  # a button of its own
    answer = players[0].post(f"/api/games/{gid}/moves", json={"move": {"type": "propose_end"}, "version": version})
    assert answer.status_code == 200, answer.json
    seen = players[1].get(f"/api/games/{gid}").json
    assert seen["pending"] == {"1": "end_vote"} and seen["view"]["table_full"] is True
    other = signed_in_client(app, players[1]).get(f"/games/{gid}").get_data(as_text=True)
    assert "agree to end the game as it stands" in other and "refuse to end the game" in other
    done = players[1].post(f"/api/games/{gid}/moves", json={"move": {"type": "agree_end"}, "version": seen["version"]})
    assert done.status_code == 200, done.json
    final = players[0].get(f"/api/games/{gid}").json
    assert final["status"] == "finished" and final["result"]["reason"] == "agreed"
