"""One test per rule and ruling of the card game's rules digest, from hand-written
positions."""
import pytest

import engine
from engine.euphrat_cards.scoring import ranking, with_jokers
from tests.engine.euphrat_cards_positions import (
    GAME,
    as_json,
    column,
    hand,
    leader_at,
    play,
    position,
    vp,
)


def refused(state, seat, text, code):
    before = as_json(state)
    with pytest.raises(engine.IllegalMove) as err:
        GAME.apply(state, seat, GAME.parse_move(text))
    assert err.value.code == code, err.value.message
    assert as_json(state) == before
    return err.value.message


def legal_texts(state, seat):
    """The seat's legal moves in text, less the standing answers it may always change."""
    return {GAME.format_move(m) for m in GAME.legal_moves(state, seat) if m["type"] != "set_answer"}


def types(events):
    return [e["type"] for e in events]


# --- Setup -------------------------------------------------------------------

def test_setup_deals_eight_cards_and_a_catastrophe_and_trims_thirty_for_two():
    s = GAME.setup(2, 7)
    data = as_json(s)
    assert all(sum(p["hand"].values()) == 8 and p["catastrophe"] for p in data["players"])
    assert len(data["removed"]) == 30 and len(data["deck"]) == 185 - 16 - 30
    assert data["columns"] == ["t"] * 8 and data["gaps"] == "......."
    untrimmed = as_json(GAME.setup(2, 7, {"two_player_trim": False}))
    assert untrimmed["removed"] == "" and len(untrimmed["deck"]) == 185 - 16
    four = as_json(GAME.setup(4, 7))
    assert len(four["deck"]) == 185 - 32 and four["unused_catastrophes"] == 0
    assert GAME.pending(s) == {data["turn"]["active"]: "action"}


def test_options_and_player_counts_are_checked():
    assert GAME.default_options() == {"two_player_trim": True, "open_scoring": False}
    for options, code in (({"colour": 1}, "bad_option"), ({"open_scoring": "yes"}, "bad_option")):
        with pytest.raises(engine.EngineError) as err:
            GAME.validate_options(options, 3)
        assert err.value.code == code and ("open_scoring" in err.value.message or "True" in err.value.message)
    for players in (1, 5, "3"):
        with pytest.raises(engine.EngineError) as err:
            GAME.setup(players, 1)
        assert err.value.code == "bad_players"


# --- Leaders -----------------------------------------------------------------

def test_leader_stands_on_a_card_of_another_colour_and_ruling_1_no_priest_on_treasure():
    s = position(columns=["tkr", "t", "t", "tG", "t", "t", "t", "t"])
    refused(s, 0, "leader king A1", "same_color")
    refused(s, 0, "leader priest A0", "priest_on_treasure")
    refused(s, 0, "leader priest A2", "same_color")
    refused(s, 0, "leader king D1", "leader_on_ship")
    refused(s, 0, "leader king A5", "no_card")
    assert "leader priest A0" not in legal_texts(s, 0) and "leader king A0" in legal_texts(s, 0)
    s, events = play(s, (0, "leader priest A1"))
    assert leader_at(s, 0, "priest") == "A1" and types(events) == ["leader_placed"]
    refused(s, 0, "leader farmer A1", "card_taken")
    refused(s, 0, "leader priest A1", "same_place")


def test_moving_and_withdrawing_a_leader_each_take_an_action():
    s = position(columns=["tk", "tb", "t", "t", "t", "t", "t", "t"], leaders={0: {"priest": "A1"}})
    s, events = play(s, (0, "leader priest B1"))
    assert events[0]["type"] == "leader_moved" and events[0]["from"] == "A1"
    refused(s, 0, "withdraw king", "leader_not_on_table")
    s, events = play(s, (0, "withdraw priest"))
    assert leader_at(s, 0, "priest") is None and as_json(s)["turn"]["active"] == 1


def test_a_leader_may_stand_on_a_gap_card():
    s = position(columns=["tbbb", "tbbb", "t", "t", "t", "t", "t", "t"], gaps="k......")
    s, _ = play(s, (0, "leader priest AB"))
    assert leader_at(s, 0, "priest") == "AB"


# --- Playing cards -----------------------------------------------------------

def test_ruling_3_a_column_takes_at_most_eight_cards_under_its_head():
    s = position(columns=["tbbbbbbbb", "tbbbbbbb", "kbbbbbbbb", "t", "t", "t", "t", "t"], hands={0: {"red": 2}})
    refused(s, 0, "play red A", "column_full")
    refused(s, 0, "play red C", "column_full")  # a replacement head counts like the treasure
    assert "play red A" not in legal_texts(s, 0)
    s, _ = play(s, (0, "play red B"))
    assert column(s, "B") == "tbbbbbbbr"
    refused(s, 0, "play red B", "column_full")


def test_gap_card_needs_three_cards_under_both_neighbours():
    s = position(columns=["trrr", "trr", "trrr", "t", "t", "t", "t", "t"], gaps=".k.....", hands={0: {"red": 2}})
    message = refused(s, 0, "play red AB", "gap_closed")
    assert "column B" in message
    refused(s, 0, "play red CD", "gap_closed")
    s, _ = play(s, (0, "play red B"))
    refused(s, 0, "play red BC", "gap_closed")  # already holds a card
    s, events = play(s, (0, "play red AB"))
    assert as_json(s)["gaps"] == "rk....." and "kingdoms_united" in types(events)
    assert not any(e["type"] == "points_scored" for e in events)  # no VP for a gap card


def test_card_scores_for_that_colours_leader_else_the_king_and_may_fall_on_another_seat():
    s = position(
        columns=["tk", "tk", "t", "t", "t", "t", "t", "t"],
        leaders={1: {"priest": "A1"}, 2: {"king": "B0"}},
        hands={0: {"red": 1, "green": 1}, 1: {"red": 2}, 2: {"green": 1}},
    )
    s, _ = play(s, (0, "play red A"))
    assert GAME.pending(s) == {1: "score"} and legal_texts(s, 1) == {"score", "decline"}
    refused(s, 0, "play green B", "not_your_turn")
    s, events = play(s, (1, "score"))
    assert vp(s, 1) == "r" and hand(s, 1)["red"] == 1
    assert events[-1]["visible_to"] == [1]  # VP piles are hidden
    s, _ = play(s, (0, "play green B"))
    assert GAME.pending(s) == {2: "score"}  # no trader there: the king is wild
    s, _ = play(s, (2, "score"))
    assert vp(s, 2) == "g" and as_json(s)["turn"]["active"] == 1


def test_scoring_may_be_declined_and_is_asked_even_without_a_matching_card_in_hand():
    s = position(columns=["tk", "t", "t", "t", "t", "t", "t", "t"], leaders={0: {"priest": "A1"}},
                 hands={0: {"red": 2, "blue": 1}})
    s, events = play(s, (0, "play red A"))
    assert GAME.pending(s) == {0: "score"}
    s, events = play(s, (0, "decline"))
    assert vp(s, 0) == "" and hand(s, 0)["red"] == 1 and events[0]["type"] == "offer_declined"
    s2 = position(columns=["tk", "t", "t", "t", "t", "t", "t", "t"], leaders={0: {"priest": "A1"}},
                  hands={0: {"red": 1, "blue": 1}})
    s2, _ = play(s2, (0, "play red A"))  # the last red card was played: nothing to score with
    assert GAME.pending(s2) == {0: "score"}  # asked all the same: waiting must not tell the hand
    assert legal_texts(s2, 0) == {"decline"}
    refused(s2, 0, "score", "card_not_in_hand")
    s2, _ = play(s2, (0, "decline"))
    assert GAME.pending(s2) == {0: "action"}
    s3 = position(hands={0: {"red": 2}})
    s3, _ = play(s3, (0, "play red C"))  # no kingdom, no scoring
    assert GAME.pending(s3) == {0: "action"}


# --- Catastrophe -------------------------------------------------------------

def test_catastrophe_removes_a_card_and_the_cards_below_move_up():
    s = position(columns=["tkrgb", "tbbb", "tbbb", "t", "t", "t", "t", "t"], gaps=".g.....",
                 leaders={1: {"king": "A4"}})
    s, events = play(s, (0, "catastrophe A2"))
    assert column(s, "A") == "tkgb" and leader_at(s, 1, "king") == "A3"
    assert events[0] == {"type": "catastrophe_played", "seat": 0, "card": "A2", "removed": "red"}
    data = as_json(s)
    assert data["discard"]["red"] == 1 and data["discard"]["catastrophe"] == 1 and not data["players"][0]["catastrophe"]
    refused(s, 0, "catastrophe BC", "no_catastrophe")  # once per game
    s, _ = play(s, (0, "pass"), (1, "catastrophe BC"))  # gap cards may go too
    assert as_json(s)["gaps"] == "......."


def test_catastrophe_spares_leader_cards_and_ships():
    s = position(columns=["tkG", "t", "t", "t", "t", "t", "t", "t"], leaders={1: {"priest": "A1"}})
    refused(s, 0, "catastrophe A1", "catastrophe_forbidden")
    refused(s, 0, "catastrophe A2", "catastrophe_forbidden")
    refused(s, 0, "catastrophe A3", "catastrophe_forbidden")


def test_ruling_2_catastrophe_may_remove_a_treasure_and_the_next_card_becomes_head():
    s = position(columns=["tkrr", "t", "t", "t", "t", "t", "t", "t"], hands={0: {"red": 1}})
    s, events = play(s, (0, "catastrophe A0"))
    assert column(s, "A") == "krr" and events[0]["removed"] == "treasure"
    assert as_json(s)["discard"]["treasure"] == 1
    assert "play red AB" not in legal_texts(s, 0)  # only 2 cards under the new head


# --- Internal conflicts ------------------------------------------------------

def test_internal_conflict_gives_plus_one_to_a_leader_on_a_red_card():
    s = position(
        columns=["tb", "t", "t", "t", "t", "t", "t", "t"],
        leaders={1: {"king": "A1"}}, hands={0: {"red": 1}, 1: {"red": 3}},
    )
    s, events = play(s, (0, "leader king A0"))  # the treasure is a red card
    assert GAME.pending(s) == {0: "support"} and events[-1]["type"] == "conflict_started"
    s, _ = play(s, (0, "support 0"))
    assert GAME.pending(s) == {1: "support"}
    assert GAME.view(s, 1)["conflict"]["attacker_commit"] == 0  # the defender sees it
    s, events = play(s, (1, "support 0"))
    resolved = next(e for e in events if e["type"] == "conflict_resolved")
    assert (resolved["attacker_strength"], resolved["defender_strength"]) == (1, 0)
    assert leader_at(s, 1, "king") is None and leader_at(s, 0, "king") == "A0"
    assert GAME.pending(s) == {0: "score"}  # no red card played: one from hand may score
    s, _ = play(s, (0, "score"))
    assert vp(s, 0) == "r"


def test_internal_conflict_tie_goes_to_the_defender_who_takes_one_red_card():
    s = position(
        columns=["tb", "tk", "t", "t", "t", "t", "t", "t"],
        leaders={1: {"trader": "A0"}}, hands={0: {"red": 3}, 1: {"red": 3}},
    )
    s, _ = play(s, (0, "leader trader A1"), (0, "support 3"), (1, "support 2"))
    assert leader_at(s, 0, "trader") is None and leader_at(s, 1, "trader") == "A0"
    assert vp(s, 1) == "r" and as_json(s)["discard"]["red"] == 4
    assert GAME.pending(s) == {0: "action"}


def test_support_is_limited_to_cards_in_hand():
    s = position(columns=["tb", "t", "t", "t", "t", "t", "t", "t"], leaders={1: {"king": "A1"}}, hands={0: {"red": 1}})
    s, _ = play(s, (0, "leader king A0"))
    refused(s, 0, "support 2", "bad_support")
    assert legal_texts(s, 0) == {"support 0", "support 1"}


# --- External conflicts ------------------------------------------------------

def split_position(**changes):
    """Kingdom A-B (joined by a green gap card) holds seat 1's king and trader;
    column C holds seat 0's king and trader. A card in BC unites them."""
    args = dict(
        columns=["tkbb", "trrbg", "tbbr", "t", "t", "t", "t", "t"], gaps="g......",
        leaders={1: {"king": "A0", "trader": "B1"}, 0: {"king": "C0", "trader": "C1"}},
        hands={0: {"green": 5, "blue": 1}, 1: {"green": 0}}, players=2,
    )
    args.update(changes)
    return position(**args)


def test_conflict_that_splits_the_kingdom_makes_the_next_conflict_vanish():
    s = split_position()
    s, events = play(s, (0, "play blue BC"))
    assert GAME.pending(s) == {0: "conflict_order"}
    assert legal_texts(s, 0) == {"conflict green", "conflict black"}
    assert GAME.view(s, 1)["gaps"] == "g?....."  # the union card lies face down
    s, events = play(s, (0, "conflict green"), (0, "support 5"), (1, "support 0"))
    resolved = next(e for e in events if e["type"] == "conflict_resolved")
    assert (resolved["attacker_strength"], resolved["defender_strength"]) == (5, 2)
    assert sorted(resolved["cards_taken"]) == ["AB", "B4"]
    assert as_json(s)["gaps"] == ".b....." and column(s, "B") == "trrb"
    assert leader_at(s, 1, "trader") is None and leader_at(s, 1, "king") == "A0"
    assert {"type": "conflicts_vanished", "colors": ["black"]} in events
    assert vp(s, 0) == "ggg" and as_json(s)["discard"]["green"] == 4
    # Seat 0's trader now shares a kingdom with treasures A0 and C0: he is asked to swap,
    # holding no red card, so he may only decline.
    assert GAME.pending(s) == {0: "treasure"} and legal_texts(s, 0) == {"decline"}
    s, _ = play(s, (0, "decline"))
    assert GAME.pending(s) == {0: "action"} and as_json(s)["union"] is None


def test_external_strength_counts_the_original_kingdom_and_the_loser_keeps_treasures_and_leader_cards():
    s = position(
        columns=["trrr", "trrk", "t", "t", "t", "t", "t", "t"],
        leaders={0: {"king": "A1"}, 1: {"king": "B1", "farmer": "B0"}, 2: {}},
        hands={0: {"red": 1}},
    )
    s, events = play(s, (0, "play red AB"), (0, "support 0"), (1, "support 0"))
    resolved = next(e for e in events if e["type"] == "conflict_resolved")
    # Kings fight with black cards: A holds none, B holds one (B3).
    assert (resolved["attacker_strength"], resolved["defender_strength"]) == (0, 1)
    assert resolved["winner"] == 1 and leader_at(s, 0, "king") is None
    assert resolved["cards_taken"] == []  # A holds no black card
    assert GAME.pending(s) == {1: "score"} and legal_texts(s, 1) == {"decline"}  # asked, holding no black


def test_external_red_conflict_spares_treasures_and_cards_bearing_leaders():
    s = position(
        columns=["tkbk", "tbrrr", "t", "t", "t", "t", "t", "t"],
        leaders={0: {"priest": "A1", "king": "A2"}, 1: {"priest": "B1", "farmer": "B2"}},
        hands={0: {"red": 3, "blue": 1}, 1: {"red": 0}}, players=2,
    )
    s, events = play(s, (0, "play blue AB"), (0, "support 3"), (1, "support 0"))
    resolved = next(e for e in events if e["type"] == "conflict_resolved")
    # Attacker: treasure A0 + 3 committed; defender: treasure B0, B2, B3, B4.
    assert (resolved["attacker_strength"], resolved["defender_strength"]) == (4, 4)
    assert resolved["winner"] == 1  # tie: the defender
    assert resolved["cards_taken"] == []  # A holds only its treasure and cards bearing leaders
    assert vp(s, 1) == "r" and leader_at(s, 0, "priest") is None


def test_external_winner_takes_the_losers_colour_cards_and_holes_close_upward():
    s = position(
        columns=["tkbkbg", "tgbb", "t", "t", "t", "t", "t", "t"],
        leaders={1: {"farmer": "A1", "king": "A5"}, 0: {"farmer": "B1"}},
        hands={0: {"blue": 2, "green": 1}}, players=2,
    )
    s, events = play(s, (0, "play green AB"), (0, "support 2"), (1, "support 0"))
    resolved = next(e for e in events if e["type"] == "conflict_resolved")
    assert (resolved["attacker_strength"], resolved["defender_strength"]) == (4, 2)
    assert column(s, "A") == "tkkg" and leader_at(s, 1, "king") == "A3"
    assert vp(s, 0) == "bbb" and as_json(s)["discard"]["blue"] == 1


def test_attacker_is_the_active_player_if_involved_else_the_first_clockwise():
    s = position(
        columns=["tbbb", "tbbb", "t", "t", "t", "t", "t", "t"],
        leaders={3: {"king": "A1"}, 2: {"king": "B1"}, 0: {}},
        hands={0: {"red": 1}}, players=4,
    )
    s, events = play(s, (0, "play red AB"))
    started = next(e for e in events if e["type"] == "conflict_started")
    assert (started["attacker"], started["defender"]) == (2, 3)
    assert GAME.pending(s) == {2: "support"}


def test_winner_with_no_committed_cards_may_score_from_hand():
    s = position(
        columns=["tkkk", "tkbb", "t", "t", "t", "t", "t", "t"],
        leaders={0: {"farmer": "A1"}, 1: {"farmer": "B1"}},
        hands={0: {"red": 1}, 1: {"blue": 2}}, players=2,
    )
    s, events = play(s, (0, "play red AB"), (0, "support 0"), (1, "support 0"))
    assert GAME.pending(s) == {1: "score"}
    s, _ = play(s, (1, "score"))
    assert vp(s, 1) == "b" and GAME.pending(s) == {0: "action"}


# --- Trader ------------------------------------------------------------------

def test_trader_swaps_a_treasure_for_a_red_card_after_a_union():
    s = position(
        columns=["tkkk", "tbbb", "t", "t", "t", "t", "t", "t"],
        leaders={1: {"trader": "A1"}}, hands={0: {"black": 1}, 1: {"red": 1}},
    )
    s, events = play(s, (0, "play black AB"))
    assert GAME.pending(s) == {1: "treasure"}  # another seat's decision
    assert legal_texts(s, 1) == {"treasure A", "treasure B", "decline"}
    refused(s, 1, "treasure C", "bad_treasure")
    s, events = play(s, (1, "treasure B"))
    assert column(s, "B") == "rbbb" and vp(s, 1) == "t" and hand(s, 1)["red"] == 0
    assert GAME.pending(s) == {0: "action"}


def test_no_treasure_swap_without_two_treasures_and_only_decline_without_a_red_card():
    s = position(columns=["tkkk", "rbbb", "t", "t", "t", "t", "t", "t"], leaders={0: {"trader": "A1"}},
                 hands={0: {"black": 1, "red": 1}})
    s, _ = play(s, (0, "play black AB"))
    assert GAME.pending(s) == {0: "action"}
    s = position(columns=["tkkk", "tbbb", "t", "t", "t", "t", "t", "t"], leaders={0: {"trader": "A1"}},
                 hands={0: {"black": 1}})
    s, _ = play(s, (0, "play black AB"))
    assert GAME.pending(s) == {0: "treasure"} and legal_texts(s, 0) == {"decline"}
    refused(s, 0, "treasure A", "card_not_in_hand")


# --- Ships -------------------------------------------------------------------

def test_four_green_cards_build_only_the_blue_green_ship_and_leaders_on_them_return():
    s = position(
        columns=["t", "t", "t", "tkggg", "t", "t", "t", "t"],
        leaders={1: {"farmer": "D3"}}, hands={0: {"green": 1}},
    )
    s, _ = play(s, (0, "play green D"))
    assert GAME.pending(s) == {0: "ship"}
    assert legal_texts(s, 0) == {"ship blue-green", "decline"}
    refused(s, 0, "ship blue-red", "bad_ship")
    s, events = play(s, (0, "ship blue-green"))
    assert column(s, "D") == "tkG" and as_json(s)["ships"] == ["blue-red", "blue-black"]
    assert leader_at(s, 1, "farmer") is None and as_json(s)["discard"]["green"] == 4
    assert "ship_built" in types(events)


def test_four_blue_cards_may_build_any_free_ship_and_the_scorer_decides_at_once():
    s = position(
        columns=["t", "t", "t", "tbbb", "tG", "t", "t", "t"],
        leaders={1: {"king": "D0"}}, hands={0: {"blue": 1}, 1: {"blue": 1}}, ships=["blue-red", "blue-black"],
    )
    s, _ = play(s, (0, "play blue D"))
    assert GAME.pending(s) == {1: "score", 0: "ship"}  # two seats decide at once
    assert legal_texts(s, 0) == {"ship blue-red", "ship blue-black", "decline"}
    s, _ = play(s, (0, "ship blue-black"), (1, "decline"))
    assert column(s, "D") == "tK" and GAME.pending(s) == {0: "action"}


def test_ship_scores_each_own_leader_of_its_colours_at_turn_end_without_king_wildcard():
    s = position(
        columns=["t", "t", "t", "tkG", "t", "t", "t", "t"],
        leaders={0: {"trader": "D1", "king": "D0"}},
        hands={0: {"green": 1, "red": 3}}, deck="rrrrrrrrrrrrrrrrrrrr",
    )
    s, events = play(s, (0, "pass"))
    assert vp(s, 0) == "g"  # trader scores green; the king has no black and is not wild
    scored = [e for e in events if e["type"] == "points_scored"]
    assert len(scored) == 1 and scored[0]["reason"] == "ship (trader)"


def test_a_ship_breaks_a_run_and_counts_as_one_card():
    s = position(columns=["t", "t", "t", "tgggGgg", "t", "t", "t", "t"], hands={0: {"green": 2}})
    s, _ = play(s, (0, "play green D"))
    assert GAME.pending(s) == {0: "action"}


# --- End of turn and game ----------------------------------------------------

def test_everyone_refills_to_eight_active_first_then_clockwise():
    s = position(hands={0: {"red": 3}, 1: {"red": 8}, 2: {"blue": 5}}, active=2, actions_left=1, deck="rbgk" * 5)
    s, events = play(s, (2, "pass"))
    drawn = [(e["seat"], e["count"]) for e in events if e["type"] == "cards_drawn"]
    assert drawn == [(2, 3), (0, 5)]
    assert sum(hand(s, 0).values()) == 8 and hand(s, 2) == {"red": 1, "blue": 6, "green": 1, "black": 0}
    assert as_json(s)["turn"]["active"] == 0 and as_json(s)["turn"]["actions_left"] == 2


def test_game_ends_after_a_turn_in_which_a_player_cannot_refill():
    s = position(hands={0: {"red": 6}, 1: {"red": 8}, 2: {"red": 8}}, deck="r")
    s, events = play(s, (0, "pass"))
    assert GAME.outcome(s)["reason"] == "deck" and GAME.pending(s) == {}
    assert events[-1]["type"] == "game_ended"
    refused(s, 0, "pass", "game_over")


def test_game_ends_at_the_end_of_a_turn_with_only_one_treasure_left():
    s = position(columns=["t", "t", "k", "k", "k", "k", "k", "k"], hands={0: {"red": 8}, 1: {"red": 8}, 2: {"red": 8}})
    s, _ = play(s, (0, "catastrophe A0"))
    assert GAME.outcome(s) is None  # only at the end of the turn
    s, events = play(s, (0, "pass"))
    assert GAME.outcome(s)["reason"] == "treasures"
    assert GAME.describe_event(events[-1], {}).startswith(
        "The game ended: only one treasure card or none is left on the table."
    )


def test_game_ends_as_well_with_no_treasure_left():
    s = position(columns=["t", "k", "k", "k", "k", "k", "k", "k"], hands={0: {"red": 8}, 1: {"red": 8}, 2: {"red": 8}})
    s, _ = play(s, (0, "catastrophe A0"), (0, "pass"))
    assert "t" not in "".join(as_json(s)["columns"]) and GAME.outcome(s)["reason"] == "treasures"


def test_a_dead_table_does_not_end_the_game():
    """Every column full, every gap filled, no catastrophe left, no red card in hand and
    no ship on the table: no card can leave a hand, nobody needs to draw, and the
    rulebook names no end for it."""
    s = position(
        columns=["tbgkbgkbg"] * 8, gaps="bgkbgkb", players=2, deck="kkkk",
        hands={0: {"blue": 3, "green": 3, "black": 2}, 1: {"blue": 2, "green": 2, "black": 4}},
        leaders={0: {"farmer": "A2"}, 1: {"priest": "H1"}}, catastrophes={0: False, 1: False},
    )
    assert not [m for m in GAME.legal_moves(s, 0) if m["type"] in ("play_card", "play_catastrophe")]
    s, events = play(s, (0, "leader priest B1"), (0, "support 0"), (1, "support 0"))
    assert "conflict_resolved" in types(events)
    for _ in range(6):  # whatever is asked, the least committal answer
        seat = next(iter(GAME.pending(s)))
        s, _ = GAME.apply(s, seat, GAME.default_move(s, seat))
    assert as_json(s)["turn"]["number"] > 7
    assert GAME.outcome(s) is None and len(as_json(s)["deck"]) == 4


def test_a_full_table_with_a_ship_in_a_colour_a_hand_holds_is_not_dead():
    """Every gap filled makes the table one kingdom: a leader of the ship's colour
    anywhere stands beside it, and ship points take a card from hand at every end of
    its owner's turn, which he draws again from the deck."""
    s = position(
        columns=["tbgkbgkbR"] + ["tbgkbgkbg"] * 7, gaps="bgkbgkb", players=2, deck="kkkk",
        hands={0: {"blue": 3, "green": 3, "black": 2}, 1: {"blue": 2, "green": 2, "black": 4}},
        leaders={0: {"farmer": "H2"}}, catastrophes={0: False, 1: False},
    )
    assert not [m for m in GAME.legal_moves(s, 0) if m["type"] in ("play_card", "play_catastrophe")]
    s, events = play(s, (0, "pass"))
    assert as_json(s)["players"][0]["vp"] == "b" and len(as_json(s)["deck"]) == 3
    assert [e["seat"] for e in events if e["type"] == "cards_drawn"] == [0]


def test_final_ranking_weakest_colour_then_the_next_with_treasures_as_jokers():
    assert with_jokers([0, 3, 1, 5], 3) == [2, 3, 2, 5]
    s = position(columns=["k"] + ["t"] * 7, vp={0: "rrbbggkk", 1: "rrrbbggkt", 2: "kkggbbrr", 3: "rbbbbbbgk"},
                 players=4)
    result = ranking(s)
    assert result["ranking"] == [[1], [0, 2], [3]]  # ruling 5: a full tie shares a place
    assert result["scores"][1]["with_treasures"] == {"red": 3, "blue": 2, "green": 2, "black": 2}
    s = position(vp={0: "rrggbbbkkk", 1: "rrgggbbkkkkk"}, players=2)
    assert ranking(s)["ranking"] == [[1], [0]]  # (2,2,3,3) vs (2,2,3,5): the fourth colour decides


def test_outcome_reveals_every_vp_pile():
    s = position(hands={0: {"red": 6}}, vp={1: "kkr"}, deck="")
    s, _ = play(s, (0, "pass"))
    assert GAME.view(s, 0)["players"][1]["vp"] == "kkr"


# --- Standing answers --------------------------------------------------------

def test_a_standing_decline_answers_score_offers_unasked_whatever_the_hand():
    for reds in (0, 2):
        s = position(
            columns=["tk", "t", "t", "t", "t", "t", "t", "t"], leaders={1: {"priest": "A1"}},
            hands={0: {"red": 8}, 1: {"red": reds, "blue": 8 - reds}, 2: {"green": 8}}, active=1,
        )
        s, events = play(s, (1, "answer score decline"))
        assert events == [{"type": "answer_set", "seat": 1, "offer": "score", "answer": "decline", "visible_to": [1]}]
        assert as_json(s)["turn"]["actions_left"] == 2  # no action spent
        assert GAME.view(s, 1)["players"][1]["answers"] == {"score": "decline", "treasure": "ask"}
        assert all("answers" not in GAME.view(s, seat)["players"][1] for seat in (None, 0, 2))
        s, _ = play(s, (1, "pass"), (2, "pass"), (0, "play red A"))
        assert GAME.pending(s) == {0: "action"}  # not asked, with or without a red card
        assert hand(s, 1)["red"] == reds and vp(s, 1) == ""


def test_a_standing_answer_set_while_asked_answers_that_offer_and_ask_restores_asking():
    s = position(
        columns=["tk", "t", "t", "t", "t", "t", "t", "t"], leaders={0: {"priest": "A1"}}, hands={0: {"red": 3}},
    )
    s, _ = play(s, (0, "play red A"))
    assert GAME.pending(s) == {0: "score"}
    assert {"answer score decline", "answer treasure decline"} <= {GAME.format_move(m) for m in GAME.legal_moves(s, 0)}
    s, events = play(s, (0, "answer score decline"))
    assert [e["type"] for e in events] == ["answer_set", "offer_declined"]
    assert GAME.pending(s) == {0: "action"} and vp(s, 0) == ""
    s, _ = play(s, (0, "answer score ask"), (0, "play red A"))
    assert GAME.pending(s) == {0: "score"}


def test_a_standing_decline_answers_treasure_offers_and_bad_answers_are_refused():
    s = position(columns=["tkkk", "tbbb", "t", "t", "t", "t", "t", "t"], leaders={0: {"trader": "A1"}},
                 hands={0: {"black": 1, "red": 1}})
    for typo in ("answer treasure accept", "answer ship decline"):  # in text, a word outside the notation
        with pytest.raises(engine.MoveParseError):
            GAME.parse_move(typo)
    for forged in ({"offer": ["score"], "answer": "decline"}, {"offer": "score", "answer": {"x": 1}},
                   {"offer": "treasure", "answer": "accept"}, {"offer": "ship", "answer": "decline"}):
        with pytest.raises(engine.IllegalMove) as err:
            GAME.apply(s, 0, {"type": "set_answer", **forged})
        assert err.value.code == "bad_answer"
    refused(s, 1, "answer score decline", "not_your_turn")  # only with a decision owed
    s, events = play(s, (0, "answer treasure decline"), (0, "play black AB"))
    assert GAME.pending(s) == {0: "action"} and {"type": "offer_declined", "seat": 0, "offer": "treasure"} in events
    assert GAME.describe(GAME.parse_move("answer treasure decline")) == (
        "from now on, decline every treasure offer without asking me"
    )


def dead_table(players=2, hands=None, catastrophes=None, **kw):
    """The dead table above: every column and gap full, no catastrophe left, and no card
    in any hand that could leave it (no red card, no ship on the table)."""
    held = hands or {0: {"blue": 3, "green": 3, "black": 2}, 1: {"blue": 2, "green": 2, "black": 4},
                     2: {"blue": 4, "green": 2, "black": 2}}
    return position(columns=["tbgkbgkbg"] * 8, gaps="bgkbgkb", players=players, deck="kkkk",
                    hands={seat: held[seat] for seat in range(players)},
                    leaders={0: {"farmer": "A2"}, 1: {"priest": "H1"}},
                    catastrophes=catastrophes or {seat: False for seat in range(players)}, **kw)


def test_a_full_table_is_said_in_every_view_whatever_the_hands_hold():
    s = dead_table()
    assert all(GAME.view(s, seat)["table_full"] for seat in (0, 1, None))
    # A red card in a hand may still leave it (an internal conflict): the table is full all the
    # same, so the view tells nobody what a hand holds.
    red = dead_table(hands={0: {"red": 1, "blue": 3, "green": 2, "black": 2}, 1: {"blue": 2, "green": 2, "black": 4}})
    assert GAME.view(red, 1)["table_full"] and {"type": "propose_end"} in GAME.legal_moves(red, 0)
    assert not GAME.view(position(), 0)["table_full"]
    one_catastrophe = dead_table(catastrophes={0: True, 1: False})
    assert not GAME.view(one_catastrophe, None)["table_full"]
    assert {"type": "propose_end"} not in GAME.legal_moves(one_catastrophe, 0)
    refused(one_catastrophe, 0, "propose end", "table_not_full")


def test_the_players_end_a_dead_table_by_unanimous_agreement_with_the_normal_scoring():
    s = dead_table(players=3, vp={0: "rbgk", 1: "rrbbggk", 2: "bgk"})
    s, events = play(s, (0, "propose end"))
    assert types(events) == ["end_proposed"]
    assert GAME.pending(s) == {1: "end_vote", 2: "end_vote"}  # the proposer waits; no action was spent
    assert as_json(s)["turn"]["actions_left"] == 2
    assert legal_texts(s, 1) == {"agree end", "refuse end"}
    s, events = play(s, (1, "agree end"))
    assert GAME.outcome(s) is None and GAME.pending(s) == {2: "end_vote"}
    s, events = play(s, (2, "agree end"))
    assert types(events)[-1] == "game_ended"
    outcome = GAME.outcome(s)
    assert outcome["reason"] == "agreed" and outcome == {"reason": "agreed", **ranking(s)}
    assert outcome["ranking"][0] == [1]  # weakest colours 1, 1, 0 (red missing for seat 2)


def test_one_refusal_and_the_game_goes_on_and_one_proposal_per_turn():
    s = dead_table()
    s, _ = play(s, (0, "propose end"))
    s, events = play(s, (1, "refuse end"))
    assert types(events) == ["end_refused"] and GAME.pending(s) == {0: "action"}
    assert {"type": "propose_end"} not in GAME.legal_moves(s, 0)
    refused(s, 0, "propose end", "end_already_proposed")
    s, _ = play(s, (0, "pass"))
    assert GAME.pending(s) == {1: "action"} and {"type": "propose_end"} in GAME.legal_moves(s, 1)
    assert GAME.default_move(play(s, (1, "propose end"))[0], 0) == {"type": "refuse_end"}


def test_the_vote_round_trips_through_json_and_its_words():
    s, _ = play(dead_table(), (0, "propose end"))
    again = GAME.from_json(GAME.to_json(s))
    assert GAME.to_json(again) == GAME.to_json(s) and GAME.pending(again) == {1: "end_vote"}
    for text in ("propose end", "agree end", "refuse end"):
        assert GAME.format_move(GAME.parse_move(text)) == text
