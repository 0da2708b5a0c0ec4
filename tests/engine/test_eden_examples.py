"""Every worked example and stated rule of the Eden rulebook (seed 004, Italian), as
positions set by hand."""
import pytest

import engine
from tests.engine.eden_positions import GAME, as_json, cell, hand, mana, play, position, supply


def settled(events):
    return next(e for e in events if e["type"] == "acquisition_settled")


def test_setup_deals_six_cards_and_100_mana_and_seat_0_starts():
    s = GAME.setup(3, 11)
    data = as_json(s)
    assert [len(p["hand"]) for p in data["players"]] == [6, 6, 6]
    assert [p["mana"] for p in data["players"]] == [100, 100, 100]
    assert len(data["deck"]) == 66 - 18 and GAME.pending(s) == {0: "action"}
    assert all(p["supply"] == {"1/2": 16, "3/4": 8} for p in data["players"])


def test_income_is_5_mana_per_red_dot():
    s = position({"A1": "r2", "B1": "r4", "C1": "y3"}, active=2)  # red: 1 + 3 red dots
    s, events = play(s, (2, "pass"))
    assert mana(s, 0) == 100 + 20
    assert {"type": "income_received", "seat": 0, "amount": 20} in events


def test_irrigation_places_a_level_1_tile_and_discards_the_card():
    s = position(hands={0: ["D4", "K1"]})
    s, events = play(s, (0, "irrigate D4"))
    assert cell(s, "D4") == "r1" and hand(s, 0) == ["K1"] and "D4" in as_json(s)["discard"]
    assert supply(s, 0) == {"1/2": 15, "3/4": 8}


def test_two_irrigation_cards_in_one_turn_but_not_three():
    s = position(hands={0: ["A1", "B1", "C1"]})
    s, _ = play(s, (0, "irrigate A1"), (0, "irrigate B1"))
    with pytest.raises(engine.IllegalMove, match="two irrigation cards"):
        GAME.apply(s, 0, {"type": "irrigate", "square": "C1"})


def test_a_cultivation_card_is_the_turns_only_card():
    s = position({"A2": "r1", "B2": "r1"}, hands={0: ["A1", "K1"]})
    s1, _ = play(s, (0, "irrigate A1"))
    with pytest.raises(engine.IllegalMove, match="only card"):
        GAME.apply(s1, 0, GAME.parse_move("cultivate K1 A2 B2"))
    s2, _ = play(s, (0, "cultivate K1 A2 B2"))
    with pytest.raises(engine.IllegalMove, match="cultivation card was played"):
        GAME.apply(s2, 0, GAME.parse_move("irrigate A1"))


def test_cultivation_raises_only_the_lowest_tiles_and_costs_10_each():
    # The rulebook's example: a 4-square card over tiles of different levels; only
    # the two lowest rise, for 20 mana.
    s = position({"A1": "r1", "B1": "r2", "C1": "r1", "D1": "r2"}, hands={0: ["K4"]})
    s, events = play(s, (0, "cultivate K4 A1 B1 C1 D1"))
    assert [cell(s, sq) for sq in ("A1", "B1", "C1", "D1")] == ["r2", "r2", "r2", "r2"]
    assert mana(s, 0) == 80
    assert events[-1]["raised"] == ["A1", "C1"] and events[-1]["cost"] == 20


def test_cultivation_shapes_turn_but_do_not_mirror():
    # K9 is the L tetromino: A1 A2 A3 B3. Turned a quarter it fits; its mirror (the J) does not.
    s = position({"A1": "r1", "B1": "r1", "C1": "r1", "A2": "r1", "B3": "r1", "B2": "r1", "A3": "r1"},
                 hands={0: ["K9"]})
    play(s, (0, "cultivate K9 A1 A2 A3 B3"))
    play(s, (0, "cultivate K9 A1 B1 C1 A2"))  # turned a quarter
    with pytest.raises(engine.IllegalMove, match="not mirrored"):
        GAME.apply(s, 0, GAME.parse_move("cultivate K9 B1 B2 B3 A3"))  # the J


def test_the_cultivated_area_holds_only_the_players_own_tiles():
    s = position({"A1": "r1", "B1": "y1"}, hands={0: ["K1"]})
    with pytest.raises(engine.IllegalMove, match="one of your tiles"):
        GAME.apply(s, 0, GAME.parse_move("cultivate K1 A1 B1"))


def test_level_2_is_replaced_by_a_level_3_tile_and_level_3_turns_over():
    s = position({"A1": "r2", "B1": "r2"}, hands={0: ["K1"]})
    s, _ = play(s, (0, "cultivate K1 A1 B1"))
    assert cell(s, "A1") == "r3" and supply(s, 0) == {"1/2": 16, "3/4": 6}
    s = position({"A1": "r3", "B1": "r3"}, hands={0: ["K1"]})
    s, _ = play(s, (0, "cultivate K1 A1 B1"))
    assert cell(s, "A1") == "r4" and supply(s, 0) == {"1/2": 16, "3/4": 6}


def test_selling_pays_10_per_square_and_the_card_goes_face_up_to_the_market():
    s = position(hands={0: ["K2"]})
    s, _ = play(s, (0, "sell K2"))
    assert mana(s, 0) == 130 and as_json(s)["market"] == ["K2"] and "K2" not in as_json(s)["discard"]


def test_a_three_square_card_costs_40_to_buy_and_may_be_played_at_once():
    s = position({"A1": "r1", "B1": "r1", "C1": "r1"}, market=["K2"])
    s, _ = play(s, (0, "buy K2"))
    assert mana(s, 0) == 60 and hand(s, 0) == ["K2"]
    s, _ = play(s, (0, "cultivate K2 A1 B1 C1"))
    assert cell(s, "B1") == "r2" and mana(s, 0) == 30


def test_a_card_bought_after_a_card_was_played_waits_for_a_later_turn():
    s = position({"A2": "r1", "B2": "r1"}, hands={0: ["A1"]}, market=["K1"])
    s, _ = play(s, (0, "irrigate A1"), (0, "buy K1"))
    assert not any(m["type"] == "cultivate" for m in GAME.legal_moves(s, 0))


def test_selling_and_buying_are_allowed_after_passing_on_cards():
    s = position(hands={0: ["K1"]}, market=["K2"])
    moves = GAME.legal_moves(s, 0)
    assert {"type": "sell", "card": "K1"} in moves and {"type": "buy", "card": "K2"} in moves


def test_draw_one_card_when_holding_fewer_than_5():
    s = position(hands={0: ["A1", "B1", "C1", "D1"]}, deck=["E5", "K3"])
    s, _ = play(s, (0, "irrigate A1"), (0, "irrigate B1"), (0, "pass"))
    assert hand(s, 0) == ["C1", "D1", "E5"]  # two played, only one replaced
    s = position(hands={0: ["A1", "B1", "C1", "D1", "E1"]}, deck=["E5"])
    s, _ = play(s, (0, "pass"))
    assert len(hand(s, 0)) == 5 and as_json(s)["deck"] == ["E5"]


def test_acquisition_example_1_bids_10_15_25():
    s = position({"C4": "y1"}, hands={0: ["B4"]})
    s, _ = play(s, (0, "irrigate B4"))
    assert GAME.pending(s) == {0: "acquire"}
    s, _ = play(s, (0, "contest C4"), (0, "bid 10"))
    assert GAME.pending(s) == {1: "bid"}
    s, _ = play(s, (1, "bid 15"))
    assert GAME.pending(s) == {0: "bid"}
    s, events = play(s, (0, "bid 25"), (1, "accept"))
    assert mana(s, 0) == 75 and mana(s, 1) == 125
    assert cell(s, "C4") == "r1" and cell(s, "B4") == "r1"
    assert supply(s, 1) == {"1/2": 16, "3/4": 8} and supply(s, 0) == {"1/2": 14, "3/4": 8}
    assert events[-1] == {
        "type": "acquisition_settled", "seat": 1, "winner": 0, "bid": 25, "paid": 25, "squares": ["C4"],
    }
    assert GAME.pending(s) == {0: "action"}


def example_2_position():
    # Red attacks with two level-1 tiles (2 points) against three blue tiles worth 4.
    return position({"B2": "r1", "C3": "b2", "D3": "b1", "D4": "b1"}, hands={0: ["C2"]},
                    mana={0: 200, 2: 200})


@pytest.mark.parametrize("bids,winner,paid", [
    (["bid 20"], 0, 80),
    (["bid 20", "bid 25"], 2, 50),
    (["bid 20", "bid 25", "bid 30"], 0, 120),
    (["bid 20", "bid 25", "bid 30", "bid 35"], 2, 70),
])
def test_acquisition_example_2_multipliers(bids, winner, paid):
    s = example_2_position()
    s, _ = play(s, (0, "irrigate C2"), (0, "with B2"), (0, "contest C3"), (0, "contest D3"), (0, "contest D4"))
    seats = [0, 2, 0, 2]
    s, _ = play(s, *[(seats[i], text) for i, text in enumerate(bids)])
    loser = 2 if winner == 0 else 0
    s, events = play(s, (loser, "accept"))
    assert settled(events)["paid"] == paid
    assert mana(s, winner) == 200 - paid and mana(s, loser) == 200 + paid
    taken = ["C3", "D3", "D4"] if winner == 0 else ["C2", "B2"]
    letter = "r" if winner == 0 else "b"
    assert all(cell(s, sq)[0] == letter for sq in taken)
    assert cell(s, "C3")[1] == "2"  # same levels


def test_attacking_a_three_point_tile_from_a_one_point_tile_costs_the_attacker_triple():
    s = position({"C4": "y3"}, hands={0: ["B4"]})
    s, _ = play(s, (0, "irrigate B4"), (0, "contest C4"), (0, "bid 10"))
    assert s.acquisition["bids"] == [10]
    s, events = play(s, (1, "bid 15"), (0, "accept"))
    assert settled(events)["paid"] == 15  # the defender pays x1
    s2 = position({"C4": "y3"}, hands={0: ["B4"]})
    s2, events = play(s2, (0, "irrigate B4"), (0, "contest C4"), (0, "bid 10"), (1, "accept"))
    assert settled(events)["paid"] == 30 and cell(s2, "C4") == "r3"


def test_the_attack_comes_right_after_the_tile_or_never():
    s = position({"C4": "y1"}, hands={0: ["B4", "A1"]})
    s, _ = play(s, (0, "irrigate B4"), (0, "decline"))
    assert GAME.pending(s) == {0: "action"}
    assert not any(m["type"] == "contest" for m in GAME.legal_moves(s, 0))
    with pytest.raises(engine.IllegalMove, match="`contest C4` is not open now; moves open now: `irrigate SQUARE`"):
        GAME.apply(s, 0, {"type": "contest", "square": "C4"})


def test_two_irrigation_cards_give_two_acquisitions():
    s = position({"C4": "y1", "C6": "b1"}, hands={0: ["B4", "B6"]})
    s, _ = play(s, (0, "irrigate B4"), (0, "contest C4"), (0, "bid 10"), (1, "accept"))
    s, _ = play(s, (0, "irrigate B6"))
    assert GAME.pending(s) == {0: "acquire"}
    s, _ = play(s, (0, "contest C6"), (0, "bid 10"), (2, "accept"))
    assert cell(s, "C4") == "r1" and cell(s, "C6") == "r1"


def test_only_one_opponent_at_a_time():
    # The new tile touches yellow and blue: red chooses one.
    s = position({"C4": "y1", "B5": "b1"}, hands={0: ["B4"]})
    s, _ = play(s, (0, "irrigate B4"), (0, "contest C4"))
    with pytest.raises(engine.IllegalMove, match="same opponent"):
        GAME.apply(s, 0, GAME.parse_move("contest B5"))


def test_a_chain_of_tiles_may_be_contested_and_one_left_out():
    # Page 9: red attacks A, then B, C, D chained to it; E could be attacked but is not.
    tiles = {"C4": "y1", "D4": "y2", "D5": "y1", "E5": "y1", "C5": "y1"}
    s = position(tiles, hands={0: ["B4"]})
    s, _ = play(s, (0, "irrigate B4"), (0, "contest C4"), (0, "contest D4"), (0, "contest D5"),
                (0, "contest E5"))
    assert {"type": "contest", "square": "C5"} in GAME.legal_moves(s, 0)
    s, events = play(s, (0, "bid 10"), (1, "accept"))
    assert settled(events)["paid"] == 50 and cell(s, "C5") == "y1"
    assert [cell(s, sq) for sq in ("C4", "D4", "D5", "E5")] == ["r1", "r2", "r1", "r1"]


def test_the_second_attacking_tile_touches_the_new_tile():
    s = position({"C4": "y1", "A4": "r1", "A5": "r1"}, hands={0: ["B4"]})
    s, _ = play(s, (0, "irrigate B4"))
    with pytest.raises(engine.IllegalMove, match="next to the new tile"):
        GAME.apply(s, 0, GAME.parse_move("with A5"))
    s, _ = play(s, (0, "with A4"), (0, "contest C4"), (0, "bid 10"), (1, "bid 15"), (0, "accept"))
    assert cell(s, "A4") == "y1" and cell(s, "B4") == "y1" and mana(s, 0) == 130


def test_twenty_fertility_points_win_at_once():
    tiles = {f"{c}{r}": "r4" for c in "AB" for r in (1, 2)}  # 16 points
    tiles.update({"C1": "r1", "C2": "r1", "C3": "r1"})  # 19
    s = position(tiles, hands={0: ["D1", "D2"]})
    s, events = play(s, (0, "irrigate D1"))
    assert GAME.outcome(s)["reason"] == "twenty_points" and GAME.outcome(s)["ranking"][0] == [0]
    assert GAME.pending(s) == {} and events[-1]["type"] == "game_ended"


def test_twenty_points_may_come_in_another_players_turn():
    # Yellow has 19 points; red attacks him, yellow outbids and takes red's tile.
    tiles = {f"{c}{r}": "y4" for c in "EF" for r in (1, 2)}
    tiles.update({"G1": "y1", "G2": "y1", "C4": "y1"})
    s = position(tiles, hands={0: ["B4"]})
    s, _ = play(s, (0, "irrigate B4"), (0, "contest C4"), (0, "bid 10"), (1, "bid 15"))
    assert GAME.outcome(s) is None
    s, events = play(s, (0, "accept"))
    assert cell(s, "B4") == "y1"
    assert GAME.outcome(s)["ranking"][0] == [1] and GAME.outcome(s)["scores"][1] == 20
    assert GAME.pending(s) == {}


def test_mana_has_no_value_at_the_end():
    s = position({"A1": "r1"}, mana={0: 0, 1: 900}, idle_turns=2, deck=[])
    s, _ = play(s, (0, "pass"))
    assert GAME.outcome(s)["ranking"] == [[0], [1, 2]]
