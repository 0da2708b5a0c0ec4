"""Loading a hand-written state checks what it can and says what is wrong."""
import pytest

import engine
from tests.engine.tigris_positions import GAME, position

FAR = {"K11": "red", "O9": "red", "P2": "red"}


def data(**kwargs):
    return GAME.to_json(position(tiles={"G5": "red", **FAR}, treasures=list(FAR), **kwargs))


def refused(data, words):
    with pytest.raises(engine.IllegalMove) as err:
        GAME.from_json(data)
    assert err.value.code == "bad_state"
    assert words in err.value.message, err.value.message


def test_a_started_game_and_a_sound_position_load():
    start = GAME.to_json(GAME.setup(4, seed=3))
    assert GAME.to_json(GAME.from_json(start)) == start
    assert GAME.to_json(GAME.from_json(data(leaders={0: {"king": "G6"}}))) == data(leaders={0: {"king": "G6"}})


def test_a_leader_where_no_leader_may_stand():
    good = data(leaders={0: {"king": "G6"}})
    bad = {**good, "players": [{**good["players"][0], "leaders": {"king": "J6"}}, *good["players"][1:]]}
    refused(bad, "seat 0's king on J6 has no face-up temple next to it")
    river = {**good, "players": [{**good["players"][0], "leaders": {"king": "A4"}}, *good["players"][1:]]}
    refused(river, "leader king on an occupied or river square A4")
    unknown = {**good, "players": [{**good["players"][0], "leaders": {"queen": "G6"}}, *good["players"][1:]]}
    refused(unknown, "unknown leader 'queen'")


def test_tiles_are_conserved_per_colour():
    good = data()
    refused({**good, "bag": {**good["bag"], "green": 31}},
            "31 green tiles on the board, in hands, in the bag and face up; the game has 30")
    refused({**good, "discarded": good["discarded"] + 1}, "tiles are not conserved")
    assert GAME.from_json({**good, "discarded": good["discarded"]})


def test_hands_hold_at_most_six_tiles():
    good = data()
    refused({**good, "players": [{**good["players"][0], "hand": {"red": 7}}, *good["players"][1:]]},
            "seat 0 holds 7 tiles; a hand has at most 6")


def test_face_down_tiles_belong_to_a_built_monument_of_their_colour():
    block = {sq: "K" for sq in ("H5", "I5", "H6", "I6")}
    with pytest.raises(engine.IllegalMove) as err:
        position(tiles={"G5": "red", "J5": "K"})
    assert "the face-down tile on J5 is under no monument" in err.value.message
    good = GAME.to_json(position(tiles={"G5": "red", **block},
                                 monuments=[{"colors": ["red", "black"], "square": "H5"}]))
    refused({**good, "monuments": [{"colors": ["blue", "red"], "square": "H5"}]},
            "needs four face-down tiles of one of its colours")
    refused({**good, "monuments": [{"colors": ["red", "purple"], "square": "H5"}]},
            "no monument has colours 'red-purple'")


def test_treasures_lie_on_temples_and_are_not_more_than_the_board_has():
    good = data()
    refused({**good, "treasures": ["G6"]}, "the treasure on G6 lies on no temple")
    taken = [{**p, "treasures": 4} for p in good["players"]]
    refused({**good, "players": taken}, "3 treasures on the board and 12 taken; the board has 10")


def test_catastrophes_on_the_board_were_played_by_someone():
    good = data()
    board = list(good["board"])
    board[9] = "x" + board[9][1:]
    refused({**good, "board": board}, "1 catastrophes on the board but the players have used only 0")
    played = [{**good["players"][0], "catastrophes": 1}, *good["players"][1:]]
    assert GAME.from_json({**good, "board": board, "players": played})


def test_turn_and_conflict_must_fit_the_position():
    good = data(leaders={1: {"priest": "G6"}})
    refused({**good, "turn": {**good["turn"], "active": 3}}, "turn.active is 3; seats are 0 to 2")
    conflict = {"kind": "revolt", "color": "red", "attacker": 0, "defender": 1, "attacker_leader": "F5",
                "defender_leader": "G6", "attacker_commit": None, "defender_commit": None}
    refused({**good, "conflict": conflict}, "the attacker's leader is not on F5")
    refused({**good, "conflict": {**conflict, "kind": "duel"}}, "conflict.kind is 'revolt' or 'war'")



def with_leader(data, seat, leader, square):
    players = [dict(p) for p in data["players"]]
    players[seat]["leaders"] = {**players[seat]["leaders"], leader: square}
    return {**data, "players": players}


def test_two_leaders_of_one_colour_in_one_kingdom_only_while_they_fight():
    # G5 is a temple with leaders on both sides: one kingdom.
    kings = with_leader(data(leaders={0: {"king": "G6"}}), 1, "king", "G4")
    refused(kings, "seat 1's king on G4 and seat 0's king on G6 stand in one kingdom")
    priests = with_leader(data(leaders={0: {"king": "G6", "priest": "H5"}}), 1, "priest", "F5")
    refused(priests, "seat 1's priest on F5 and seat 0's priest on H5 stand in one kingdom")
    revolt = {"kind": "revolt", "color": "black", "attacker": 1, "defender": 0, "attacker_leader": "G4",
              "defender_leader": "G6", "attacker_commit": None, "defender_commit": None}
    assert GAME.pending(GAME.from_json({**kings, "conflict": revolt})) == {1: "support"}
    assert GAME.from_json(with_leader(data(leaders={0: {"king": "G6"}}), 1, "priest", "G4"))
