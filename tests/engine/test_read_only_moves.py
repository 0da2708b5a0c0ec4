"""Tigris listings hand out shared, read-only moves: each behaves as the plain JSON dict
it equals, refuses changes, and a listing's list is the caller's own."""
import copy
import json
import pickle

import pytest

import engine
from engine.core import ReadOnlyDict

GAME = engine.get_game("tigris")


def first_listing():
    state = GAME.setup(3, 11, {})
    seat = next(iter(GAME.pending(state)))
    return state, seat, GAME.legal_moves(state, seat)


def test_listed_moves_read_as_plain_dicts():
    _, _, moves = first_listing()
    kinds = {move["type"] for move in moves}
    assert {"place_tile", "place_leader", "place_catastrophe", "swap_tiles", "pass"} <= kinds
    for move in moves:
        plain = json.loads(json.dumps(move))
        assert move == plain and repr(move) == repr(plain) and list(move) == list(plain)
        assert pickle.loads(pickle.dumps(move)) == plain
        assert copy.deepcopy(move) == plain and copy.copy(move) == plain


@pytest.mark.parametrize("change", [
    lambda move: move.__setitem__("square", "A1"),
    lambda move: move.__delitem__("type"),
    lambda move: move.update(type="pass"),
    lambda move: move.pop("type"),
    lambda move: move.popitem(),
    lambda move: move.setdefault("extra", 1),
    lambda move: move.clear(),
])
def test_listed_moves_refuse_changes(change):
    _, _, moves = first_listing()
    tile = next(move for move in moves if move["type"] == "place_tile")
    swap = next(move for move in moves if move["type"] == "swap_tiles")
    for move in (tile, swap, swap["tiles"]):
        before = dict(move)
        with pytest.raises(TypeError, match="read-only"):
            change(move)
        assert move == before
    changed = dict(tile)
    changed["square"] = "a copy's own value"
    assert changed["square"] == "a copy's own value" and tile["square"] != changed["square"]


def test_a_listing_is_the_callers_own_list():
    state, seat, moves = first_listing()
    again = GAME.legal_moves(state, seat)
    moves.clear()
    assert GAME.legal_moves(state, seat) == again and len(again) > 100


def test_read_only_dict_is_a_dict():
    move = ReadOnlyDict(type="pass")
    assert isinstance(move, dict) and move == {"type": "pass"}
    with pytest.raises(TypeError):
        move |= {"extra": 1}
