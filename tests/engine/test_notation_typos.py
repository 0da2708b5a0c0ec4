"""Every game's text notation tells a typo from a refused move (as python-chess keeps
parse errors apart from illegal moves): a word that names no colour, leader, square,
card or resource is a MoveParseError naming the word, never a move handed to the
rules; and every legal move, written out, reads back."""
from __future__ import annotations

import itertools

import pytest

import engine
from engine.simulate import random_playout

TYPOS = {
    "tigris": {"leader kng G6": "kng", "tile purple F7": "purple", "tile red Z9": "Z9", "catastrophe F12": "F12",
               "war pink": "pink", "swap red pink": "pink", "monument red-red F7": "red-red",
               "withdraw kingg": "kingg", "take gold": "gold", "ziggurat point teal": "teal"},
    "euphrat-cards": {"leader kng C2": "kng", "play purple C": "purple", "play red Z": "Z",
                      "catastrophe Z9": "Z9", "conflict pink": "pink", "ship red-blue": "red-blue",
                      "treasure Q": "Q", "answer score maybe": "maybe", "answer gold ask": "gold"},
    "eden": {"irrigate H9": "H9", "cultivate K99 A1 A2": "K99", "cultivate K1 A1 Z2": "Z2", "buy A1": "A1",
             "sell K0": "K0", "contest Q1": "Q1", "with A0": "A0"},
    "civ-cards": {"research fooo": "fooo", "build swordsmann 1": "swordsmann", "trade gold food": "gold",
                  "cash fooo food": "fooo", "give wood 2": "wood", "counter fooo 1": "fooo",
                  "lose buildings 1:fooo": "fooo"},
}


def test_a_parse_error_is_no_illegal_move():
    assert not issubclass(engine.MoveParseError, engine.IllegalMove)
    assert not issubclass(engine.IllegalMove, engine.MoveParseError)


@pytest.mark.parametrize("game_id,text,word", [(g, t, w) for g, typos in TYPOS.items() for t, w in typos.items()])
def test_a_misspelt_word_is_a_parse_error_naming_it(game_id, text, word):
    with pytest.raises(engine.MoveParseError) as raised:
        engine.get_game(game_id).parse_move(text)
    assert f"'{word}' is not" in raised.value.message, raised.value.message


def test_every_game_has_typos_covered():
    assert set(TYPOS) == set(engine.game_ids())


@pytest.mark.parametrize("game_id", engine.game_ids())
def test_every_legal_move_written_out_reads_back(game_id):
    """Over random games, each legal move's text parses to the same move."""
    rules = engine.get_game(game_id)
    options = {"allow_two": True} if game_id == "eden" else {}
    for state, seat, _, _, _ in itertools.islice(random_playout(rules, 2, seed=11, options=options), 120):
        for move in rules.legal_moves(state, seat):
            assert rules.parse_move(rules.format_move(move)) == move
