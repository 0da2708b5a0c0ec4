"""One test per rule and ruling of the rules digest, from hand-written positions."""
import pytest

import engine
from engine.tigris.scoring import ranking
from tests.engine.tigris_positions import GAME, cell, discarded, hand, leader_at, play, position, score

FAR = {"K11": "red", "O9": "red", "P2": "red"}


def refused(state, seat, text, code):
    before = GAME.to_json(state)
    with pytest.raises(engine.IllegalMove) as err:
        GAME.apply(state, seat, GAME.parse_move(text))
    assert err.value.code == code, err.value.message
    assert GAME.to_json(state) == before
    return err.value.message


def legal_texts(state, seat):
    return {GAME.format_move(m) for m in GAME.legal_moves(state, seat)}


# --- Leaders -----------------------------------------------------------------

def test_leader_needs_empty_land_next_to_a_face_up_temple():
    s = position(tiles={"F5": "red", **{sq: "R" for sq in ("H5", "I5", "H6", "I6")}},
                 monuments=[{"colors": ["red", "black"], "square": "H5"}])
    refused(s, 0, "leader king K8", "leader_needs_temple")
    refused(s, 0, "leader king J5", "leader_needs_temple")  # only a face-down temple there
    refused(s, 0, "leader king F5", "square_occupied")
    s, events = play(s, (0, "leader king F6"))
    assert leader_at(s, 0, "king") == "F6" and events[0]["type"] == "leader_placed"


def test_leader_may_not_join_two_kingdoms_but_may_join_leaderless_regions():
    s = position(tiles={"E5": "red", "G5": "red", "F4": "red"}, leaders={1: {"king": "D5"}, 2: {"king": "H5"}})
    message = refused(s, 0, "leader priest F5", "leader_joins_kingdoms")
    assert "two kingdoms" in message
    s, _ = play(s, (0, "leader priest F3"))  # F4's region is leaderless
    assert leader_at(s, 0, "priest") == "F3"


def test_moving_a_leader_is_a_withdrawal_then_a_placement():
    # The king alone links two halves; moving it to a square linking them again is refused.
    s = position(tiles={"E5": "red", "G5": "red", "E6": "red", "G6": "red"},
                 leaders={0: {"king": "F5"}, 1: {"trader": "D5"}, 2: {"farmer": "H5"}})
    refused(s, 0, "leader king F6", "leader_joins_kingdoms")
    refused(s, 0, "leader king F5", "same_square")
    s, events = play(s, (0, "leader king D6"))
    assert events[0]["type"] == "leader_moved" and events[0]["from"] == "F5"
    assert cell(s, "F5") == "."


def test_withdraw_returns_the_leader_to_supply():
    s = position(tiles={"E5": "red"}, leaders={0: {"king": "F5"}})
    refused(s, 0, "withdraw priest", "leader_not_on_board")
    s, _ = play(s, (0, "withdraw black"))
    assert leader_at(s, 0, "king") is None and GAME.to_json(s)["turn"]["actions_left"] == 1


# --- Tiles and scoring -------------------------------------------------------

def test_blue_only_on_river_and_other_colours_only_on_land():
    s = position(hands={0: {"blue": 1, "red": 1}})
    refused(s, 0, "tile blue F6", "farm_needs_river")
    refused(s, 0, "tile red E1", "river_needs_farm")
    refused(s, 0, "tile green F6", "tile_not_in_hand")
    s, _ = play(s, (0, "tile blue E1"))
    assert cell(s, "E1") == "b"


def test_tile_may_not_touch_three_kingdoms():
    s = position(
        tiles={"E5": "red", "G5": "red", "F4": "red"},
        leaders={0: {"king": "D5"}, 1: {"king": "H5"}, 2: {"king": "F3"}},
        hands={0: {"black": 1}},
    )
    refused(s, 0, "tile black F5", "joins_three_kingdoms")
    assert "tile black F5" not in legal_texts(s, 0)


def test_tile_scores_for_same_colour_leader_else_king_else_nobody():
    s = position(
        tiles={"E5": "red", "E10": "red"},
        leaders={1: {"king": "D5", "trader": "F5"}, 2: {"king": "D10"}},
        hands={0: {"green": 2, "blue": 0, "black": 2}},
    )
    s, _ = play(s, (0, "tile green E4"), (0, "tile black F6"))
    assert score(s, 1) == {"red": 0, "blue": 0, "green": 1, "black": 1}
    s = position(hands={0: {"green": 1}})
    s, events = play(s, (0, "tile green F6"))
    assert not [e for e in events if e["type"] == "points_scored"]


def test_ruling_2_tile_joining_one_kingdom_and_leaderless_regions_scores():
    s = position(tiles={"E5": "red", "G5": "black"}, leaders={1: {"king": "D5"}}, hands={0: {"black": 1}})
    s, events = play(s, (0, "tile black F5"))
    assert score(s, 1)["black"] == 1 and not any(e["type"] == "kingdoms_united" for e in events)


# --- Catastrophes and swaps --------------------------------------------------

def test_catastrophe_destroys_a_tile_and_sends_stranded_leaders_home():
    s = position(tiles={"E5": "red", "F6": "green"}, leaders={1: {"king": "F5"}}, catastrophes={0: 1})
    before = discarded(s)
    s, events = play(s, (0, "catastrophe E5"))
    assert cell(s, "E5") == "x" and leader_at(s, 1, "king") is None
    assert discarded(s) == before + 1
    assert [e["type"] for e in events][:2] == ["catastrophe_placed", "leader_returned"]
    refused(s, 0, "catastrophe A1", "no_catastrophe_left")
    s, _ = play(position(), (0, "catastrophe E1"))  # river squares are allowed
    assert cell(s, "E1") == "x"


def test_catastrophe_never_on_leader_treasure_monument_or_catastrophe():
    s = position(tiles={"E5": "red", "I5": "x", **FAR, **{sq: "R" for sq in ("G5", "H5", "G6", "H6")}},
                 monuments=[{"colors": ["red", "black"], "square": "G5"}], catastrophes={1: 1},
                 treasures=["E5"], leaders={1: {"king": "F5"}})
    for square in ("E5", "F5", "G5", "I5"):
        refused(s, 0, f"catastrophe {square}", "catastrophe_forbidden")


def test_swap_discards_and_draws_the_same_number_and_ruling_5():
    s = position(hands={0: {"red": 2, "green": 4}})
    refused(s, 0, "swap red red red", "bad_swap")
    with pytest.raises(engine.IllegalMove) as err:
        GAME.apply(s, 0, {"type": "swap_tiles", "tiles": {"catastrophe": 1}})
    assert err.value.code == "bad_color"  # catastrophes are not hand tiles
    before = discarded(s)
    s, events = play(s, (0, "swap red green"))
    assert sum(hand(s, 0).values()) == 6 and discarded(s) == before + 2


def test_a_swap_is_told_with_its_count_in_words():
    s, events = play(position(hands={0: {"red": 2}}), (0, "swap red"))
    assert GAME.describe_event(events[0], {0: "Ann"}) == "Ann swapped 1 tile."
    s, events = play(position(hands={0: {"red": 2}}), (0, "swap red red"))
    assert GAME.describe_event(events[0], {0: "Ann"}) == "Ann swapped 2 tiles."


# --- Revolts -----------------------------------------------------------------

def test_revolt_shared_temple_counts_for_both_and_winner_scores_red():
    s = position(tiles={"F5": "red", "F3": "red"}, leaders={1: {"priest": "G5"}}, hands={0: {"red": 1}})
    s, _ = play(s, (0, "leader priest E5"), (0, "support 1"), (1, "support 0"))
    assert leader_at(s, 1, "priest") is None and score(s, 0)["red"] == 1


def test_ruling_3_lost_revolt_may_be_retried_on_the_same_square():
    s = position(tiles={"F5": "red", "H5": "red"}, leaders={1: {"priest": "G5"}})
    s, _ = play(s, (0, "leader priest E5"), (0, "support 0"), (1, "support 0"))
    assert leader_at(s, 0, "priest") is None
    assert GAME.pending(s) == {0: "action"}
    s, _ = play(s, (0, "leader priest E5"))
    assert GAME.pending(s) == {0: "support"}


def test_ruling_3_withdraw_before_placing_the_joining_tile_avoids_war():
    s = position(tiles={"E5": "red", "G5": "red", "H3": "red"},
                 leaders={0: {"king": "D5"}, 1: {"king": "H5", "trader": "H4"}}, hands={0: {"black": 1}})
    s, events = play(s, (0, "withdraw king"), (0, "tile black F5"))
    assert not any(e["type"] == "kingdoms_united" for e in events)


# --- Wars --------------------------------------------------------------------

def war_position(active=0, **extra):
    # Left kingdom (seat 1 king, 2 settlements) and right kingdom (seat 2 king, 1 settlement).
    return position(
        active=active,
        tiles={"C5": "red", "D5": "black", "E5": "black", "G5": "black", "H5": "red", **FAR},
        treasures=list(FAR),
        leaders={1: {"king": "C6"}, 2: {"king": "H6"}},
        hands={active: {"red": 2, "black": 1}, 1: {"black": 2}, 2: {"black": 3}},
        bag={"red": 30, "blue": 20, "green": 20, "black": 15},
        **extra,
    )


def test_war_attacker_is_first_involved_player_clockwise_when_active_is_not_involved():
    s, events = play(war_position(active=0), (0, "tile red F5"))
    started = next(e for e in events if e["type"] == "war_started")
    assert (started["attacker"], started["defender"]) == (1, 2)
    assert GAME.pending(s) == {1: "support"}


def test_ruling_1_unification_tile_and_leaderless_regions_belong_to_neither_side():
    s = war_position(active=0)
    data = {key: value for key, value in GAME.to_json(s).items() if key != "discarded"}
    s = GAME.from_json({**data, "board": GAME.to_json(position(tiles={
        "C5": "red", "D5": "black", "E5": "black", "G5": "black", "H5": "red", "F4": "black", "F3": "black", **FAR,
    }))["board"]})
    s, events = play(s, (0, "tile black F5"), (1, "support 0"), (2, "support 0"))
    resolved = next(e for e in events if e["type"] == "conflict_resolved")
    # F5 (the unifying settlement) and F4/F3 (leaderless, touching it) count for nobody.
    assert (resolved["attacker_strength"], resolved["defender_strength"]) == (2, 1)
    assert resolved["winner"] == 1 and resolved["removed"] == ["G5"]
    assert score(s, 1)["black"] == 2 and cell(s, "F5") == "k" and cell(s, "F4") == "k"


def test_committed_tiles_score_nothing_and_leave_the_game():
    start = war_position(active=0)
    s, _ = play(start, (0, "tile red F5"), (1, "support 0"), (2, "support 3"))
    assert leader_at(s, 1, "king") is None and score(s, 2)["black"] == 3  # leader + D5 + E5
    assert discarded(s) == discarded(start) + 5


def test_priest_war_keeps_temples_with_treasure_or_next_to_another_leader():
    s = position(
        tiles={"B5": "red", "C5": "red", "D5": "red", "E4": "red", "G5": "red", "H5": "red", **FAR},
        treasures=["B5", *FAR],
        leaders={1: {"priest": "E5"}, 0: {"king": "D6"}, 2: {"priest": "H6"}},
        hands={0: {"black": 1}},
    )
    s, events = play(s, (0, "tile black F5"), (1, "support 0"), (2, "support 0"))
    resolved = next(e for e in events if e["type"] == "conflict_resolved")
    assert resolved["winner"] == 1  # attacker: 4 temples (B5 C5 D5 E4) against 2
    s2 = position(
        tiles={"B5": "red", "C5": "red", "D5": "red", "E4": "red", "G5": "red", "H5": "red", **FAR},
        treasures=["B5", *FAR],
        leaders={2: {"priest": "E5"}, 0: {"king": "D6"}, 1: {"priest": "H6"}},
        hands={0: {"black": 1}, 1: {"red": 5}},
    )
    s2, events = play(s2, (0, "tile black F5"), (1, "support 5"), (2, "support 0"))
    resolved = next(e for e in events if e["type"] == "conflict_resolved")
    assert resolved["winner"] == 1
    # B5 holds a treasure, D5 touches seat 0's king: both stay; C5 and E4 go.
    assert sorted(resolved["removed"]) == ["C5", "E4"]
    assert cell(s2, "B5") == "r" and cell(s2, "D5") == "r"
    assert score(s2, 1)["red"] == 3


def test_wars_are_re_evaluated_and_the_active_player_orders_the_rest():
    s = position(
        tiles={"F5": "red", "G5": "black", "H5": "green", "J5": "green", "K5": "red", "K4": "black", **FAR},
        treasures=list(FAR),
        leaders={1: {"king": "F6", "trader": "F4"}, 2: {"king": "L5", "trader": "K6"}},
        hands={0: {"red": 1}},
    )
    s, _ = play(s, (0, "tile red I5"))
    assert GAME.pending(s) == {0: "war_order"}
    assert legal_texts(s, 0) == {"war green", "war black"}
    s, events = play(s, (0, "war black"), (1, "support 0"), (2, "support 0"))
    # Black war: seat 1 has G5, seat 2 has K4: tie, defender (2) wins and G5 goes.
    assert leader_at(s, 1, "king") is None and cell(s, "G5") == "."
    # The left side fell apart: F4's trader no longer reaches the unified kingdom.
    assert not any(e["type"] == "war_started" and e["color"] == "green" for e in events)
    assert GAME.to_json(s)["wars"] is None and GAME.pending(s) == {0: "action"}


def test_english_variant_limits_commitments():
    s = position(
        tiles={"F4": "red", "H4": "red", "G3": "red", "F5": "red", "H5": "red"},
        leaders={1: {"priest": "G4"}},
        hands={0: {"red": 4}, 1: {"red": 4}},
        options={"english_variant": True},
    )
    s, _ = play(s, (0, "leader priest G5"))  # 2 temples (F5, H5) against G4's 3
    assert {m["count"] for m in GAME.legal_moves(s, 0)} == {0, 2, 3, 4}  # must then exceed 3
    refused(s, 0, "support 1", "bad_support")
    s, _ = play(s, (0, "support 3"))
    assert {m["count"] for m in GAME.legal_moves(s, 1)} == {0, 2}  # exactly to the tie


# --- Monuments ---------------------------------------------------------------

def test_monument_choice_of_square_and_decline_means_never():
    s = position(
        tiles={"E5": "black", "F5": "black", "E6": "black", "G5": "black", "G6": "black", **FAR},
        treasures=list(FAR), hands={0: {"black": 2}},
    )
    s, _ = play(s, (0, "tile black F6"))
    squares = {m["square"] for m in GAME.legal_moves(s, 0) if m["type"] == "build_monument"}
    assert squares == {"E5", "F5"}
    s, events = play(s, (0, "no monument"))
    assert GAME.pending(s) == {0: "action"} and cell(s, "F6") == "k"


def test_no_monument_offered_when_none_of_that_colour_is_left():
    pairs = ((["red", "black"], "A10"), (["blue", "black"], "C10"), (["green", "black"], "E10"))
    built = [{"colors": pair, "square": sq} for pair, sq in pairs]
    s = position(
        tiles={"E5": "black", "F5": "black", "E6": "black", **FAR,
               **{sq: "K" for sq in ("A10", "B10", "A11", "B11", "C10", "D10", "C11", "D11", "E10", "F10", "E11",
                                     "F11")}},
        treasures=list(FAR), hands={0: {"black": 1}}, monuments=built,
        bag={"red": 30, "blue": 20, "green": 20, "black": 10},
    )
    s, _ = play(s, (0, "tile black F6"))
    assert GAME.pending(s) == {0: "action"}


def test_king_scores_monument_points_only_from_black():
    s = position(
        tiles={"G5": "G", "H5": "G", "G6": "G", "H6": "G", "F5": "red", **FAR},
        treasures=list(FAR), monuments=[{"colors": ["green", "blue"], "square": "G5"}],
        leaders={0: {"king": "F6", "trader": "F4"}}, actions_left=1, hands={0: {"red": 1}},
    )
    s, _ = play(s, (0, "swap red"))
    assert score(s, 0) == {"red": 0, "blue": 0, "green": 1, "black": 0}


# --- Treasures ---------------------------------------------------------------

def test_ruling_4_treasures_go_to_the_trader_owner_in_another_players_turn():
    s = position(
        tiles={"E5": "red", "G5": "red", **FAR}, treasures=["E5", "G5", *FAR],
        leaders={2: {"trader": "E6"}}, hands={0: {"black": 1}},
    )
    s, _ = play(s, (0, "tile black F5"))
    assert GAME.pending(s) == {2: "treasure"}
    assert legal_texts(s, 2) == {"treasure E5", "treasure G5"}
    refused(s, 0, "tile black A5", "not_your_turn")
    s, _ = play(s, (2, "treasure G5"))
    assert GAME.to_json(s)["players"][2]["treasures"] == 1 and GAME.pending(s) == {0: "action"}


# --- End of turn and game ----------------------------------------------------

def test_ruling_6_refill_active_first_then_clockwise_and_bag_exhaustion_ends():
    s = position(actions_left=1, active=1, hands={0: {"red": 3}, 1: {"red": 4}, 2: {"red": 6}},
                 bag={"red": 3, "blue": 0, "green": 0, "black": 0}, tiles=FAR, treasures=list(FAR))
    s, events = play(s, (1, "tile red F6"))
    drawn = [(e["seat"], e["count"]) for e in events if e["type"] == "tiles_drawn"]
    assert drawn == [(1, 3)]  # seat 1 first takes the last 3; seat 0 cannot refill
    assert GAME.outcome(s)["reason"] == "bag" and GAME.pending(s) == {}
    refused(s, 0, "tile red A5", "game_over")


def test_game_ends_at_end_of_turn_with_two_treasures_left():
    s = position(actions_left=1, tiles={"K11": "red", "O9": "red"}, treasures=["K11", "O9"], hands={0: {"red": 1}})
    s, events = play(s, (0, "tile red F6"))
    assert GAME.outcome(s)["reason"] == "treasures" and events[-1]["type"] == "game_ended"
    # The rulebook: "restano soltanto uno o due tesori sul tabellone".
    assert GAME.describe_event(events[-1], {}) == "The game ended: only one or two treasures are left on the board."


def test_full_tie_shares_a_place():
    s = position(scores={0: {"red": 3, "blue": 3, "green": 3, "black": 4},
                         1: {"red": 3, "blue": 4, "green": 3, "black": 3}, 2: {"red": 1}})
    assert ranking(s)["ranking"] == [[0, 1], [2]]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_for_two_to_four_players(players):
    s = GAME.setup(players, seed=5)
    data = GAME.to_json(s)
    assert len(data["players"]) == players and all(sum(p["hand"].values()) == 6 for p in data["players"])
    assert len(data["treasures"]) == 10 and sum(data["bag"].values()) == 153 - 10 - 6 * players
    assert GAME.pending(s) == {data["turn"]["active"]: "action"}
    advanced = GAME.to_json(GAME.setup(players, seed=5, options={"board": "advanced"}))
    assert len(advanced["treasures"]) == 14


def test_view_hides_scores_unless_open_scoring_or_finished():
    s = position(scores={1: {"red": 5}})
    assert GAME.view(s, 0)["players"][1]["score"] is None and GAME.view(s, 1)["players"][1]["score"]["red"] == 5
    s = position(scores={1: {"red": 5}}, options={"open_scoring": True})
    assert GAME.view(s, 0)["players"][1]["score"]["red"] == 5
    s, events = play(position(tiles={"K11": "red"}, treasures=["K11"], scores={1: {"red": 5}}, actions_left=1,
                              hands={0: {"red": 1}}), (0, "tile red F6"))
    assert GAME.view(s, 0)["players"][1]["score"]["red"] == 5
    s, events = play(position(hands={0: {"red": 1}}, leaders={1: {"king": "F5"}}, tiles={"E5": "red"}),
                     (0, "tile red E6"))
    private = [e for e in events if e["type"] == "points_scored"]
    assert private and private[0]["visible_to"] == [1]
    assert not engine.events_for(events, 0) or all(e["type"] != "points_scored" for e in engine.events_for(events, 0))
