"""The new-game page asks each game for its options (`option_choices`) and lets the game
complete the chosen ones for the number of players (`form_options`)."""
from __future__ import annotations

import re

import pytest

import engine


def _create(creator, **fields) -> dict:
    form = creator.get("/games/new").get_data(as_text=True)
    found = re.search(r'name="csrf_token" value="([^"]+)"', form)
    assert found is not None, "the form has a CSRF token"
    csrf = found.group(1)
    answer = creator.client.post("/games/new", headers=creator.headers, data={
        "csrf_token": csrf, "days_per_decision": "3", "timeout_policy": "default_move", "seat_order": "fixed",
        **fields})
    assert answer.status_code == 302, answer.get_data(as_text=True)
    game_id = int(answer.headers["Location"].rstrip("/").rsplit("/", 1)[1])
    return creator.get(f"/api/games/{game_id}").json


@pytest.mark.parametrize("game_id", engine.game_ids())
def test_the_form_offers_each_option_the_game_names(make_player, game_id):
    form = make_player("creator").get("/games/new").get_data(as_text=True)
    for name in engine.get_game(game_id).option_choices:
        assert f'name="option-{game_id}-{name}"' in form


def test_two_players_of_eden_get_the_two_player_option_which_the_form_does_not_ask(make_player):
    two = _create(make_player("creator"), game="eden", players="2")
    assert two["game"] == "eden" and two["options"]["allow_two"] is True
    three = _create(make_player("creator"), game="eden", players="3")
    assert three["options"]["allow_two"] is False


def test_a_form_without_a_game_creates_the_registrys_first(make_player):
    assert _create(make_player("creator"), players="2")["game"] == engine.game_ids()[0]


@pytest.mark.parametrize("game_id", engine.game_ids())
def test_the_form_explains_each_option_in_a_sentence_and_shows_no_raw_value(make_player, game_id):
    form = make_player("creator").get("/games/new").get_data(as_text=True)
    fieldset = re.search(rf'<fieldset class="game-options" data-game="{game_id}">(.*?)</fieldset>', form, re.S).group(1)
    shown = re.sub(r"<[^>]+>", " ", fieldset)  # the words a reader sees, without tags and their attributes
    raw = re.findall(r"\w+_\w+", shown)
    assert not raw, f"raw values shown: {raw}"
    words = engine.get_game(game_id).option_words()
    for name in engine.get_game(game_id).option_choices:
        assert words[name]["explains"].endswith(".") and words[name]["explains"] in shown.replace("&#39;", "'")
