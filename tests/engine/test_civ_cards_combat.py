"""Combat: neighbours only, catapults before walls, one unit sent back per attack,
counters chosen in secret, uncountered units steal population and destroy buildings
with the right choosers, wonders never destroyed, every unit involved discarded."""
import json

import pytest

import engine
from tests.engine.civ_cards_positions import GAME, hand_of, play, player, position


def at_war(players, count=3, **kw):
    return position(players, count=count, phase="combat",
                    combat={"stage": "declare", "fronts": [], "stolen": 0}, **kw)


def test_only_seat_neighbours_may_be_attacked():
    s = at_war({0: player(hand={"swordsman": 1})}, count=4)
    targets = {m["target"] for m in GAME.legal_moves(s, 0) if m["type"] == "attack"}
    assert targets == {1, 3}
    with pytest.raises(engine.IllegalMove) as err:
        play(s, (0, "attack swordsman 2"))
    assert err.value.code == "bad_target" and "1, 3" in err.value.message
    two = at_war({0: player(hand={"swordsman": 1})}, count=2)
    assert {m["target"] for m in GAME.legal_moves(two, 0) if m["type"] == "attack"} == {1}


def test_fighting_with_no_unit_skips_combat():
    s = at_war({})
    s, events = play(s, (0, "fight"))
    assert s["combat"] is None and GAME.pending(s) == {0: "discard"}
    assert events[0]["type"] == "no_combat"


def test_an_uncountered_swordsman_steals_population_and_destroys_a_building():
    s = at_war({0: player(hand={"swordsman": 1}),
                1: player(population={1: 1, 2: 1}, buildings={1: ["granary"], 2: ["walls"]})})
    s, _ = play(s, (0, "attack swordsman 1"), (0, "fight"))
    assert GAME.pending(s) == {1: "walls"}
    s, _ = play(s, (1, "repel none"))
    assert GAME.pending(s) == {1: "counter"}
    s, _ = play(s, (1, "counter done"))
    # the defender chooses the plot the population leaves, then the building he loses
    assert GAME.pending(s) == {1: "give_population"}
    s, _ = play(s, (1, "lose population 2"))
    assert GAME.pending(s) == {1: "lose_buildings"}
    assert GAME.legal_moves(s, 1) == [{"type": "lose_buildings", "buildings": [[1, "granary"]]},
                                      {"type": "lose_buildings", "buildings": [[2, "walls"]]}]
    s, _ = play(s, (1, "lose buildings 1:granary"))
    # the attacker chooses the plot it joins
    assert GAME.pending(s) == {0: "place_population"}
    s, events = play(s, (0, "place 3"))
    assert s["players"][0]["plots"][2]["population"] == 1
    assert [p["population"] for p in s["players"][1]["plots"]] == [1, 0, 0, 0]
    assert hand_of(s, 1) == {"granary": 1} and s["players"][1]["plots"][0]["buildings"] == []
    assert s["discard"] == ["swordsman"] and s["combat"] is None
    assert GAME.pending(s) == {0: "discard"}


def test_an_axeman_counters_a_swordsman_rulebook_example():
    s = at_war({0: player(hand={"swordsman": 1}), 1: player(population={1: 2}, hand={"axeman": 1})})
    s, _ = play(s, (0, "attack swordsman 1"), (0, "fight"))
    assert {"type": "counter", "card": "axeman", "unit": 1} in GAME.legal_moves(s, 1)
    s, _ = play(s, (1, "counter axeman 1"), (1, "counter done"))
    assert s["players"][1]["plots"][0]["population"] == 2
    assert sorted(s["discard"]) == ["axeman", "swordsman"] and hand_of(s, 1) == {}


def test_a_card_counters_only_what_its_row_names():
    s = at_war({0: player(hand={"chariot": 1}), 1: player(population={1: 1}, hand={"axeman": 1, "spearman": 1})})
    s, _ = play(s, (0, "attack chariot 1"), (0, "fight"))
    assert [m for m in GAME.legal_moves(s, 1) if m["type"] == "counter"] == [
        {"type": "counter", "card": "spearman", "unit": 1}]
    with pytest.raises(engine.IllegalMove) as err:
        play(s, (1, "counter axeman 1"))
    assert err.value.code == "bad_counter"


def test_counters_are_chosen_in_secret_and_asked_whatever_the_hand_holds():
    s = at_war({0: player(hand={"swordsman": 2}), 1: player(population={1: 1}, hand={"axeman": 1}),
                2: player(population={1: 1})})
    s, _ = play(s, (0, "attack swordsman 1"), (0, "attack swordsman 2"), (0, "fight"))
    assert GAME.pending(s) == {1: "counter", 2: "counter"}  # seat 2 holds nothing, yet is asked
    s, events = play(s, (1, "counter axeman 1"))
    assert events[0]["visible_to"] == [1]
    for seat in (None, 0, 2):
        view = GAME.view(s, seat)
        assert "axeman" not in json.dumps(view)
        assert view["players"][1]["hand_size"] == 1
    assert GAME.view(s, 1)["combat"]["fronts"][0]["counters"] == [["axeman", 0]]
    s, _ = play(s, (1, "counter done"))
    assert "axeman" not in json.dumps(GAME.view(s, 2))
    s, events = play(s, (2, "counter done"))
    revealed = [e for e in events if e["type"] == "counters_revealed"]
    assert revealed[0]["counters"] == [["axeman", 1]] and "visible_to" not in revealed[0]
    assert revealed[1]["steal"] == 1


def test_catapults_return_walls_to_hand_before_walls_act():
    s = at_war({0: player(hand={"catapult": 1, "swordsman": 1}),
                1: player(population={1: 1}, buildings={2: ["walls"]})})
    s, events = play(s, (0, "attack catapult 1"), (0, "attack swordsman 1"), (0, "fight"))
    assert hand_of(s, 1) == {"walls": 1} and s["players"][1]["plots"][1]["buildings"] == []
    assert GAME.pending(s) == {1: "counter"}  # no walls left to send a unit back


def test_with_more_walls_than_catapults_the_defender_chooses_which_returns():
    s = at_war({0: player(hand={"catapult": 1, "swordsman": 1}),
                1: player(buildings={2: ["walls"], 3: ["walls"]})})
    s, _ = play(s, (0, "attack catapult 1"), (0, "attack swordsman 1"), (0, "fight"))
    assert GAME.pending(s) == {1: "catapult"}
    assert GAME.legal_moves(s, 1) == [{"type": "return_walls", "plot": 2}, {"type": "return_walls", "plot": 3}]
    s, _ = play(s, (1, "catapult 3"))
    assert s["players"][1]["plots"][1]["buildings"] == ["walls"] and hand_of(s, 1) == {"walls": 1}
    assert GAME.pending(s) == {1: "walls"}  # the Walls left still act


def test_walls_send_one_unit_back_to_the_attackers_hand_only_one_per_attack():
    s = at_war({0: player(hand={"swordsman": 2}),
                1: player(population={1: 2}, buildings={1: ["walls"], 2: ["great-wall"]})})
    s, _ = play(s, (0, "attack swordsman 1"), (0, "attack swordsman 1"), (0, "fight"))
    assert GAME.legal_moves(s, 1) == [{"type": "repel", "unit": 1}, {"type": "repel", "unit": 2},
                                      {"type": "repel", "unit": None}]
    s, events = play(s, (1, "repel 2"))
    assert hand_of(s, 0) == {"swordsman": 1}
    assert GAME.pending(s) == {1: "counter"}  # Walls and Great Wall together send back one unit only
    s, _ = play(s, (1, "counter done"), (0, "place 1"))
    assert s["discard"] == ["swordsman"] and hand_of(s, 0)["swordsman"] == 1  # then 4 drawn


def test_the_great_wall_is_not_returned_by_catapults_and_acts_as_walls():
    s = at_war({0: player(hand={"catapult": 1}), 1: player(buildings={1: ["great-wall"]})})
    s, _ = play(s, (0, "attack catapult 1"), (0, "fight"))
    assert s["players"][1]["plots"][0]["buildings"] == ["great-wall"] and GAME.pending(s) == {1: "walls"}


def test_a_catapult_returns_the_walls_and_the_great_wall_left_still_sends_a_unit_back():
    # "tutti i giocatori in difesa cui rimangono mura o la Grande Muraglia possono costringere
    # il giocatore attaccante a ritirare una unità attaccante"
    s = at_war({0: player(hand={"catapult": 1, "swordsman": 1}),
                1: player(population={1: 1}, buildings={1: ["walls"], 2: ["great-wall"]})})
    s, _ = play(s, (0, "attack catapult 1"), (0, "attack swordsman 1"), (0, "fight"))
    assert hand_of(s, 1) == {"walls": 1} and GAME.pending(s) == {1: "walls"}
    s, _ = play(s, (1, "repel 2"), (1, "counter done"))
    assert hand_of(s, 0)["swordsman"] == 1 and s["players"][1]["plots"][0]["population"] == 1  # then 4 drawn
    assert s["players"][1]["plots"][1]["buildings"] == ["great-wall"] and s["discard"] == ["catapult"]


def test_an_attack_on_both_neighbours_is_two_attacks_each_repelling_one_unit():
    # three players: both others sit next to the attacker; "per ciascun attacco il difensore
    # può cacciare solo una unità"; the attacker places all the population he captures
    s = at_war({0: player(hand={"warrior": 4}), 1: player(population={1: 2}, buildings={2: ["walls"]}),
                2: player(population={3: 2}, buildings={4: ["walls"]})})
    s, _ = play(s, *[(0, f"attack warrior {target}") for target in (1, 1, 2, 2)], (0, "fight"))
    assert GAME.pending(s) == {1: "walls", 2: "walls"}
    s, _ = play(s, (1, "repel 1"), (2, "repel 2"))
    assert hand_of(s, 0) == {"warrior": 2} and GAME.pending(s) == {1: "counter", 2: "counter"}
    s, _ = play(s, (1, "counter done"), (2, "counter done"))
    assert GAME.pending(s) == {0: "place_population"} and s["combat"]["stolen"] == 2
    s, _ = play(s, (0, "place 2 4"))
    assert [p["population"] for p in s["players"][0]["plots"]] == [0, 1, 0, 1]
    assert [p["population"] for p in s["players"][1]["plots"]] == [1, 0, 0, 0]
    assert [p["population"] for p in s["players"][2]["plots"]] == [0, 0, 1, 0]
    assert s["discard"] == ["warrior", "warrior"]


def test_countered_units_have_no_effect_and_the_others_act():
    s = at_war({0: player(hand={"swordsman": 1, "archer": 1}),
                1: player(population={1: 2}, buildings={2: ["granary"]}, hand={"axeman": 1})})
    s, _ = play(s, (0, "attack swordsman 1"), (0, "attack archer 1"), (0, "fight"), (1, "counter axeman 1"))
    s, events = play(s, (1, "counter done"))
    revealed = next(e for e in events if e["type"] == "counters_revealed")
    assert revealed["steal"] == 0 and revealed["destroy"] == 1  # only the archer acts
    assert s["players"][1]["plots"][0]["population"] == 2 and hand_of(s, 1) == {"granary": 1}
    assert sorted(s["discard"]) == ["archer", "axeman", "swordsman"] and s["combat"] is None


def test_wonders_are_never_destroyed_and_units_do_what_they_can():
    s = at_war({0: player(hand={"swordsman": 2}), 1: player(population={1: 1}, buildings={1: ["pyramids"]})})
    s, events = play(s, (0, "attack swordsman 1"), (0, "attack swordsman 1"), (0, "fight"), (1, "counter done"))
    revealed = next(e for e in events if e["type"] == "counters_revealed")
    assert revealed["steal"] == 1 and revealed["destroy"] == 0  # two would steal 2 and destroy 2
    s, _ = play(s, (0, "place 2"))
    assert s["players"][1]["plots"][0] == {"plot": "grassland", "population": 0, "buildings": ["pyramids"]}
    assert s["discard"] == ["swordsman", "swordsman"]


def test_stolen_population_leaves_a_plot_that_keeps_its_two_buildings():  # rule 4
    s = at_war({0: player(hand={"war-elephant": 1}),
                1: player(population={1: 3}, buildings={1: ["granary", "temple"]})})
    s, _ = play(s, (0, "attack war-elephant 1"), (0, "fight"), (1, "counter done"), (0, "place 1 2"))
    assert s["players"][1]["plots"][0] == {"plot": "grassland", "population": 1, "buildings": ["granary", "temple"]}
    assert [p["population"] for p in s["players"][0]["plots"]] == [1, 1, 0, 0]


def test_losing_a_building_in_combat_passes_the_award_on_or_takes_it_back():
    s = at_war({0: player(hand={"archer": 1}), 1: player(buildings={1: ["temple"], 2: ["temple"]}),
                2: player(technologies=["masonry"])}, awards={"highest-happiness": 1})
    s, events = play(s, (0, "attack archer 1"), (0, "fight"), (1, "counter done"),
                     (1, "lose buildings 2:temple"))
    assert s["awards"]["highest-happiness"] is None  # nobody else has 2
    s = at_war({0: player(hand={"archer": 1}), 1: player(buildings={1: ["temple"], 2: ["temple"]}),
                2: player(technologies=["masonry", "monarchy"])}, awards={"highest-happiness": 1})
    s, events = play(s, (0, "attack archer 1"), (0, "fight"), (1, "counter done"),
                     (1, "lose buildings 1:temple"))
    assert s["awards"]["highest-happiness"] == 2


def lose_both_temples(others, awards):
    """Seat 1 (2 happiness, 2 culture from two Temples) loses both to two Archers of seat 0."""
    s = at_war({0: player(hand={"archer": 2}), 1: player(buildings={1: ["temple"], 2: ["temple"]}), **others},
               count=max(others) + 1, awards=awards)
    s, events = play(s, (0, "attack archer 1"), (0, "attack archer 1"), (0, "fight"), (1, "counter done"))
    assert s["players"][1]["plots"][0]["buildings"] == s["players"][1]["plots"][1]["buildings"] == []
    return s, events


BOTH_HELD_BY_1 = {"highest-happiness": 1, "highest-culture": 1}


def test_a_holder_beaten_below_the_minimum_loses_the_awards_when_nobody_else_reaches_it():
    # seat 2 has 1 happiness and 1 culture: more than the holder's 0, less than the 2 needed
    s, events = lose_both_temples({2: player(technologies=["masonry", "mysticism"])}, BOTH_HELD_BY_1)
    assert s["awards"] == {"highest-happiness": None, "highest-culture": None}
    assert {(e["award"], e["seat"]) for e in events if e["type"] == "award_changed"} == {
        ("highest-happiness", None), ("highest-culture", None)}


def test_a_holder_beaten_in_combat_hands_the_awards_to_the_one_player_reaching_the_minimum():
    s, _ = lose_both_temples({2: player(technologies=["masonry", "monarchy", "mysticism", "writing"]),
                              3: player(technologies=["philosophy"])}, BOTH_HELD_BY_1)
    assert s["awards"] == {"highest-happiness": 2, "highest-culture": 2}


def test_a_tie_for_the_highest_score_after_combat_gives_the_awards_to_nobody():
    both = player(technologies=["masonry", "monarchy", "mysticism", "writing"])
    s, _ = lose_both_temples({2: both, 3: both}, BOTH_HELD_BY_1)
    assert s["awards"] == {"highest-happiness": None, "highest-culture": None}


def test_a_holder_still_at_the_minimum_after_combat_keeps_the_awards_on_a_tie():
    s = at_war({0: player(hand={"archer": 1}),
                1: player(buildings={1: ["temple"], 2: ["temple"]}, technologies=["masonry", "mysticism"]),
                2: player(technologies=["masonry", "monarchy", "mysticism", "writing"])}, awards=BOTH_HELD_BY_1)
    s, _ = play(s, (0, "attack archer 1"), (0, "fight"), (1, "counter done"), (1, "lose buildings 1:temple"))
    assert s["awards"] == BOTH_HELD_BY_1  # 2 against 2: nobody exceeds the holder


def test_combat_answers_are_checked():
    s = at_war({0: player(hand={"swordsman": 1}), 1: player(population={1: 1, 2: 1})})
    s, _ = play(s, (0, "attack swordsman 1"), (0, "fight"), (1, "counter done"))
    for bad in ("lose population 1 1", "lose population 3", {"type": "give_population", "plots": "x"}):
        with pytest.raises(engine.IllegalMove) as err:
            play(s, (1, bad))
        assert err.value.code == "bad_plots"
    with pytest.raises(engine.NotYourTurn):
        play(s, (0, "place 1"))


def test_the_prompt_says_who_attacks_whom_with_what():
    s = at_war({0: player(hand={"swordsman": 1, "archer": 1}), 1: player(population={1: 1})})
    names = {0: "Ann", 1: "Bob", 2: "Cy"}
    assert GAME.prompt(s, 0, names).startswith("Commit units")  # nothing committed yet
    s, _ = play(s, (0, "attack swordsman 1"), (0, "attack archer 1"))
    assert GAME.prompt(s, 0, names).startswith("You attack Bob (seat 1) with 1. Swordsman, 2. Archer. Commit")
    s, _ = play(s, (0, "fight"))
    assert GAME.prompt(s, 1, names).startswith("Ann (seat 0) attacks you with 1. Swordsman, 2. Archer. Counter")
    assert GAME.prompt(s, 2, names) == ""  # not a defender
