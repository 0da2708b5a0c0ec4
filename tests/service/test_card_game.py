"""Euphrat & Tigris: the card game, played to the end through the REST API."""
import random

from tests.conftest import start_game
from tests.service.test_game_life import play_random


def test_a_card_game_is_played_to_the_end_over_http(make_player, outbox):
    players, game = start_game(make_player, 2, game="euphrat-cards")
    gid = game["id"]
    assert game["game"] == "euphrat-cards" and "hand" in game["view"]["players"][game["your_seat"]]
    game = play_random(players, gid, 5000, random.Random(3))
    assert game["status"] == "finished" and game["result"]["ranking"]
    record = players[0].get(f"/api/games/{gid}/export").json
    assert len(record["moves"]) > 100
    assert all(outbox(p.email, "game_over") for p in players)
    assert outbox(players[1].email, "your_turn")
