"""The move's answer, written without marshmallow (service/plain_dump.py), is what its
schema would dump, for every game and through a whole game (deadlines, the result)."""
import json
import random

import pytest

from service import plain_dump
from service.schemas import GameSchema
from tests.conftest import start_game
from tests.service.test_game_life import play_random


@pytest.fixture
def dumps(monkeypatch):
    """Every plain dump made, with what it dumped."""
    made = []

    def recorded(schema_class, data):
        dumped = original(schema_class, data)
        made.append((schema_class, data, dumped))
        return dumped
    original = plain_dump.plain_dump
    monkeypatch.setattr(plain_dump, "plain_dump", recorded)
    return made


def _check(app, made):
    assert made, "the moves were answered by the plain dump"
    for schema_class, data, dumped in list(made):  # answer_body dumps (and records) again
        assert dumped == schema_class().dump(data)
        # The text too: as Flask writes the schema's dump (keys that are numbers as strings).
        assert json.loads(plain_dump.answer_body(schema_class, data)) == json.loads(app.json.dumps(dumped))


def test_a_tigris_game_to_its_end_is_answered_as_its_schema_dumps_it(app, make_player, dumps):
    players, game = start_game(make_player, 2, time_control={"initial_seconds": 86400})
    game = play_random(players, game["id"], 2000, random.Random(3))
    assert game["status"] == "finished" and game["finished_at"] and game["seed"]
    assert any(p["deadline"] for _, data, _ in dumps for p in data["game"]["player_list"])
    _check(app, dumps)


@pytest.mark.parametrize("game_type", ["euphrat-cards", "eden", "civ-cards"])
def test_the_other_games_moves_are_answered_as_their_schema_dumps_them(app, make_player, dumps, game_type):
    players, game = start_game(make_player, 3, game=game_type)
    play_random(players, game["id"], 30, random.Random(5))
    _check(app, dumps)


def test_a_schema_with_a_field_it_does_not_know_is_refused():
    from marshmallow import Schema, fields

    class Odd(Schema):
        when = fields.Date()

    with pytest.raises(TypeError, match="Odd.when"):
        plain_dump.plain_dump(Odd, {"when": None})
    assert plain_dump.plain_dump(GameSchema, {"game_type": "tigris", "id": 1}) == {"game": "tigris", "id": 1}
