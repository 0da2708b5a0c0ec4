"""Loading a hand-written card-game state refuses a position no game could reach and
says what is wrong."""
import pytest

import engine
from tests.engine.euphrat_cards_positions import GAME, as_json, position


def refused(data: dict, words: str) -> None:
    with pytest.raises(engine.IllegalMove) as err:
        GAME.from_json(data)
    assert err.value.code == "bad_state"
    assert words in err.value.message, err.value.message


def test_a_started_game_and_a_sound_position_load():
    start = as_json(GAME.setup(3, 11))
    assert as_json(GAME.from_json(start)) == start
    sound = as_json(position(columns=["tkrg", "tbbb", "tbbb", "t", "t", "t", "t", "t"], gaps="r......",
                             leaders={0: {"trader": "A1"}, 1: {"king": "B1"}}))
    assert as_json(GAME.from_json(sound)) == sound


def test_the_turn_names_a_seat_and_at_most_two_actions():
    data = as_json(position(players=3))
    refused({**data, "turn": {**data["turn"], "active": 3}}, "turn.active is 3; seats are 0 to 2")
    refused({**data, "turn": {**data["turn"], "active": -1}}, "turn.active is -1; seats are 0 to 2")
    refused({**data, "turn": {**data["turn"], "actions_left": 3}}, "turn.actions_left is 3; it is 0, 1 or 2")


def test_a_hand_holds_at_most_eight_cards():
    data = as_json(position(hands={0: {"red": 5, "blue": 3}}))
    data["players"][0]["hand"]["blue"] = 4
    data["removed"] = data["removed"].replace("b", "", 1)
    refused(data, "seat 0 holds 9 cards; a hand holds at most 8")


def test_a_column_holds_at_most_eight_cards_under_its_head_and_treasures_only_at_its_head():
    data = as_json(position(columns=["t" + "b" * 8] + ["t"] * 7))
    data["columns"][0] += "b"
    data["removed"] = data["removed"].replace("b", "", 1)
    refused(data, "column A holds 9 cards under its head; at most 8")
    data = as_json(position(columns=["tb"] + ["t"] * 7))
    data["columns"][0] = "bt"
    refused(data, "column A holds a treasure at A1; a treasure is only ever a column's head")
    assert GAME.from_json(as_json(position(columns=["t" + "b" * 8, "", "krr"] + ["t"] * 5)))


def test_two_leaders_of_one_colour_share_a_kingdom_only_while_they_fight():
    data = as_json(position(columns=["tbbb", "tbbb"] + ["t"] * 6, gaps="r......",
                            leaders={0: {"king": "A1"}, 1: {"trader": "B2"}}))
    data["players"][1]["leaders"] = {"king": "B2"}
    refused(data, "seat 0's king on A1 and seat 1's king on B2 stand in one kingdom")
    data["union"] = {"gap": "AB", "colors": ["black"]}
    assert GAME.from_json(data)  # the union's black conflict is still to be fought


def test_a_conflict_names_seats_and_the_leaders_where_they_stand():
    data = as_json(position(columns=["tb", "tb"] + ["t"] * 6, leaders={0: {"king": "A1"}, 1: {"trader": "A0"}}))
    data["players"][1]["leaders"] = {"king": "A0"}
    conflict = {
        "kind": "internal", "color": "black", "attacker": 0, "defender": 1, "attacker_leader": "A1",
        "defender_leader": "A0", "attacker_commit": None, "defender_commit": None,
    }
    assert GAME.from_json({**data, "conflict": conflict})
    refused({**data, "conflict": {**conflict, "kind": "war"}}, "conflict.kind is 'internal' or 'external'")
    refused({**data, "conflict": {**conflict, "defender": 5}}, "conflict.defender is seat 5; seats are 0 to 2")
    refused({**data, "conflict": {**conflict, "defender_leader": "B0"}},
            "the defender's leader is not on B0: the defender (seat 1) needs its king there")
    early = {**data, "removed": data["removed"].replace("r", "", 1), "conflict": {**conflict, "defender_commit": 1}}
    refused(early, "the defender commits only after the attacker")
    refused({**data, "conflict": {**conflict, "kind": "external"}},
            "an external conflict is fought only during a union")


def test_a_union_names_a_filled_gap_and_offers_name_seats_and_known_kinds():
    data = as_json(position(columns=["tbbb", "tbbb"] + ["t"] * 6))
    refused({**data, "union": {"gap": "AB", "colors": []}}, "the union's gap AB holds no card")
    refused({**data, "union": {"gap": "ZZ", "colors": []}}, "union.gap 'ZZ' names no gap (AB to GH)")
    score = {"kind": "score", "seat": 1, "color": "red", "reason": "card"}
    assert GAME.from_json({**data, "offers": [score]})
    refused({**data, "offers": [{**score, "seat": 7}]}, "an offer to seat 7; seats are 0 to 2")
    refused({**data, "offers": [{**score, "kind": "bribe"}]}, "an offer of kind 'bribe'; kinds: score, ship, treasure")
    refused({**data, "finished": {"reason": "boredom"}}, "finished.reason is 'boredom'; one of: deck, treasures")
