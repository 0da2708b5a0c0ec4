"""The turn: collecting, buying, trading, drawing and discarding, Highest Happiness and
Culture, the end and its tie-breaks, the team variant. One test per rule, ruling and
card effect; the rulebook's own examples are marked."""
import pytest

import engine
from tests.engine.civ_cards_positions import GAME, hand_of, play, player, position, resources_of

RICH = {"food": 30, "production": 30, "commerce": 30}


def collecting(p0, **kw):
    """A state at the start of seat 0's turn, after the automatic steps."""
    s = position({0: p0}, phase="collect", **kw)
    s, events = GAME.apply(s, 0, GAME.legal_moves(s, 0)[0]) if GAME.pending(s) == {0: "collect"} else (s, [])
    return s


def test_collect_takes_plot_yields_and_asks_the_population_kind_rulebook_example():
    # "if a plot yields 1 food and 1 commerce, each population on it yields 1 food or 1 commerce"
    s = position({0: player(["coast", "hills"], population={1: 1})}, phase="collect")
    assert GAME.pending(s) == {0: "collect"}
    moves = GAME.legal_moves(s, 0)
    assert [m["population"] for m in moves] == [{"food": 1, "production": 0, "commerce": 0},
                                                 {"food": 0, "production": 0, "commerce": 1}]
    s, events = play(s, (0, "collect 0/0/1"))
    assert resources_of(s, 0) == {"food": 1, "production": 2, "commerce": 2}
    assert GAME.pending(s) == {0: "buy"}
    with pytest.raises(engine.IllegalMove) as err:
        play(position({0: player(["coast"], population={1: 1})}, phase="collect"), (0, "collect 0/1/0"))
    assert err.value.code == "bad_collect" and "1/0/0" in err.value.message


def test_collect_is_automatic_when_the_population_has_no_choice():
    s = position({0: player(["grassland", "hills"], population={1: 2}), 2: player(hand={"walls": 1})},
                 phase="discard", active=2, discarding={"order": [2], "left": 1})
    s, events = play(s, (2, "discard walls"))
    assert s["turn"] == {"number": 6, "active": 0, "phase": "buy"}
    assert resources_of(s, 0) == {"food": 4, "production": 2, "commerce": 0}
    assert [e["type"] for e in events] == ["card_discarded", "card_discarded_privately", "turn_ended",
                                           "resources_collected"]


def test_granary_adds_the_plots_printed_food_and_two_are_cumulative_rulebook_example():
    # rule 5: a plot yielding 2 food with 2 granaries yields 4 more, 6 in all
    s = collecting(player(["grassland"], buildings={1: ["granary", "granary"]}))
    assert resources_of(s, 0)["food"] == 6


def test_forge_and_market_add_their_kind_and_nothing_on_a_plot_without_it():
    s = collecting(player(["hills", "vineyard", "grassland"],
                          buildings={1: ["forge"], 2: ["market"], 3: ["market"]}))
    assert resources_of(s, 0) == {"food": 2, "production": 4, "commerce": 4}


def test_granary_adds_the_printed_yield_not_the_populations():  # ruling 1
    s = collecting(player(["grassland"], population={1: 3}, buildings={1: ["granary"]}))
    assert resources_of(s, 0)["food"] == 2 + 3 + 2


def test_technologies_and_wonders_add_flat_yields():
    s = collecting(player(["hills"], buildings={1: ["colossus"]}, technologies=["agriculture", "currency"]))
    assert resources_of(s, 0) == {"food": 1, "production": 2, "commerce": 3}


def test_unspent_resources_are_kept_from_turn_to_turn():  # ruling 2
    s = collecting(player(["hills"], resources={"commerce": 4}))
    assert resources_of(s, 0) == {"food": 0, "production": 2, "commerce": 4}


def test_the_fifth_plot_costs_15_of_any_mix_the_sixth_20_the_seventh_25_rulebook_example():
    s = position({0: player(resources={"food": 6, "production": 2, "commerce": 27})})
    s, events = play(s, (0, "plot 1 6/2/7"))
    assert len(s["players"][0]["plots"]) == 5 and s["players"][0]["plots"][4]["plot"] == "grassland"
    assert resources_of(s, 0) == {"food": 0, "production": 0, "commerce": 20}
    assert s["plot_display"] == ["coast", "hills", "vineyard"] and s["plot_deck"] == ["oasis"]
    assert GAME.view(s, 0)["players"][0]["plot_price"] == 20
    with pytest.raises(engine.IllegalMove) as err:
        play(s, (0, "plot 1 0/0/15"))
    assert err.value.code == "bad_payment" and "costs 20" in err.value.message
    s, _ = play(s, (0, "plot 2 0/0/20"))
    assert len(s["players"][0]["plots"]) == 6 and GAME.view(s, 0)["players"][0]["plot_price"] == 25


def test_population_costs_6_then_8_then_10_food():  # ruling 3
    s = position({0: player(population={1: 1}, resources={"food": 24})})
    s, events = play(s, (0, "population 2"), (0, "population 2"), (0, "population 3"))
    assert [e["paid"] for e in events] == [6, 8, 10]
    assert resources_of(s, 0)["food"] == 0 and s["players"][0]["plots"][1]["population"] == 2
    assert s["population"] == 48 - 4


def test_population_bought_is_priced_by_what_the_player_owns_now():  # ruling 3, after a loss
    s = position({0: player(population={1: 3}, resources={"food": 20})})
    s, events = play(s, (0, "population 1"))
    assert events[0]["paid"] == 10


def test_a_plot_holds_one_building_a_second_with_3_population():
    s = position({0: player(population={2: 3}, hand={"granary": 2, "walls": 2}, resources=RICH)})
    s, _ = play(s, (0, "build granary 1"), (0, "build granary 2"), (0, "build walls 2"))
    with pytest.raises(engine.IllegalMove) as err:
        play(s, (0, "build walls 1"))
    assert err.value.code == "plot_full" and "3 population" in err.value.message


def test_engineering_allows_a_second_building_but_never_a_third():  # ruling 6
    s = position({0: player(population={1: 3}, hand={"walls": 3}, resources=RICH, technologies=["engineering"])})
    s, _ = play(s, (0, "build walls 1"), (0, "build walls 1"))
    with pytest.raises(engine.IllegalMove) as err:
        play(s, (0, "build walls 1"))
    assert err.value.code == "plot_full"


def test_a_plot_that_loses_population_keeps_its_buildings():  # rule 4
    s = position({0: player(population={1: 1}, buildings={1: ["granary", "walls"]}, resources=RICH, hand={"forge": 1})})
    assert len(s["players"][0]["plots"][0]["buildings"]) == 2
    with pytest.raises(engine.IllegalMove):
        play(s, (0, "build forge 1"))
    s, _ = play(s, (0, "scrap 1 walls"))
    with pytest.raises(engine.IllegalMove):  # one population: room for one again
        play(s, (0, "build forge 1"))
    s, _ = play(s, (0, "scrap 1 granary"), (0, "build forge 1"))
    assert s["players"][0]["plots"][0]["buildings"] == ["forge"]
    assert s["discard"] == ["walls", "granary"]


SCRAP = {"type": "scrap", "plot": 1, "card": "granary"}


# Seed 003: buildings stand until a combat removes them "o – in qualsiasi momento il loro
# possessore desideri – quando volontariamente distrutte ... per liberare spazio per un
# altro edificio o meraviglia": room is made for a building, and buildings are placed
# while buying, so scrapping is a buying move; elsewhere it is refused, changing nothing.
def test_scrapping_is_a_buying_move_refused_while_collecting_discarding_or_defending():
    collecting = position({0: player(["coast", "hills"], population={1: 1}, buildings={1: ["granary"]})},
                          phase="collect")
    discarding = position({2: player(buildings={1: ["granary"]}, hand={"walls": 1})}, phase="discard", active=2,
                          discarding={"order": [2], "left": 1})
    defending = position({1: player(population={1: 1}, buildings={1: ["granary"]})}, phase="combat",
                         combat={"stage": "counter", "fronts": [{"defender": 1, "units": ["swordsman"]}]})
    for s, seat in ((collecting, 0), (discarding, 2), (defending, 1)):
        assert SCRAP not in GAME.legal_moves(s, seat)
        with pytest.raises(engine.IllegalMove) as err:
            play(s, (seat, "scrap 1 granary"))
        assert err.value.code == "wrong_decision"
    buying = position({0: player(buildings={1: ["granary"]})})
    assert SCRAP in GAME.legal_moves(buying, 0)
    assert play(buying, (0, "scrap 1 granary"))[0]["players"][0]["plots"][0]["buildings"] == []


def test_buildings_and_wonders_cost_production_and_come_from_the_hand():
    s = position({0: player(hand={"pyramids": 1}, resources={"production": 9})})
    with pytest.raises(engine.IllegalMove) as err:
        play(s, (0, "build pyramids 1"))
    assert err.value.code == "cannot_afford" and "10 production" in err.value.message
    with pytest.raises(engine.IllegalMove) as err:
        play(s, (0, "build granary 1"))
    assert err.value.code == "not_in_hand" and "pyramids" in err.value.message


def test_technologies_only_from_the_three_on_display_which_refill():
    s = position({0: player(resources={"commerce": 20})})
    s, _ = play(s, (0, "research pottery"), (0, "research engineering"))
    assert s["tech_display"] == ["mysticism", "agriculture", "writing"] and s["tech_deck"] == []
    assert s["players"][0]["technologies"] == ["pottery", "engineering"] and resources_of(s, 0)["commerce"] == 7
    with pytest.raises(engine.IllegalMove) as err:
        play(s, (0, "research astronomy"))
    assert err.value.code == "bad_tech" and "mysticism" in err.value.message


def test_the_technology_display_holds_as_many_as_remain_when_its_deck_is_empty():
    # "Ci sono sempre 3 tecnologie a faccia in su ... (o tante quante ne rimangono, se meno di 3)"
    s = position({0: player(resources={"commerce": 20})}, tech_deck=[])
    s, _ = play(s, (0, "research pottery"))
    assert s["tech_display"] == ["agriculture", "engineering"] and GAME.pending(s) == {0: "buy"}


def test_a_bought_plot_is_replaced_from_its_deck_and_not_when_the_deck_is_empty():
    s = position({0: player(resources={"food": 40})}, plot_deck=["coast"])
    s, _ = play(s, (0, "plot 2 15/0/0"))
    assert s["plot_display"] == ["grassland", "coast", "vineyard"] and s["plot_deck"] == []
    s, _ = play(s, (0, "plot 1 20/0/0"))
    assert s["plot_display"] == ["coast", "vineyard"]
    assert [p["plot"] for p in s["players"][0]["plots"]][4:] == ["hills", "grassland"]


def test_trade_three_of_one_kind_for_one_of_another_rulebook_example():
    s = position({0: player(resources={"commerce": 3})})
    s, events = play(s, (0, "trade commerce production"))
    assert resources_of(s, 0) == {"food": 0, "production": 1, "commerce": 0}
    for bad, code in (("trade commerce production", "cannot_afford"), ("trade food food", "bad_trade"),
                      ({"type": "trade", "give": "gold", "get": "food"}, "bad_resource")):
        with pytest.raises(engine.IllegalMove) as err:
            play(position({0: player(resources={"food": 3})}), (0, bad))
        assert err.value.code == code
    with pytest.raises(engine.MoveParseError):  # in text, a misspelt resource is a typo
        GAME.parse_move("trade gold food")


def test_trade_only_in_ones_own_turn():
    s = position({1: player(resources={"food": 3})})
    with pytest.raises(engine.NotYourTurn):
        play(s, (1, "trade food commerce"))


TRADE = {"type": "trade", "give": "food", "get": "commerce"}


def _traded_and_still_owed(s, seat: int, kind: str):
    """Seat trades 3 food for 1 commerce and still owes the same decision."""
    assert TRADE in GAME.legal_moves(s, seat)
    s, events = play(s, (seat, "trade food commerce"))
    assert [e["type"] for e in events] == ["traded"]
    assert resources_of(s, seat)["food"] == 0 and resources_of(s, seat)["commerce"] == 1
    assert GAME.pending(s) == {seat: kind}
    return s


# Seed 003: "In qualsiasi momento durante il turno di gioco è possibile scambiare 3 carte
# risorsa di un tipo con 1 carta di un altro tipo": in every step of one's own turn.
def test_trade_while_collecting():
    s = position({0: player(["coast", "hills"], population={1: 1}, resources={"food": 3})}, phase="collect")
    s = _traded_and_still_owed(s, 0, "collect")
    s, _ = play(s, (0, "collect 0/0/1"))
    assert resources_of(s, 0) == {"food": 1, "production": 2, "commerce": 3}


def test_trade_before_declaring_an_attack():
    s = position({0: player(resources={"food": 3}, hand={"swordsman": 1})}, phase="combat",
                 combat={"stage": "declare", "fronts": [], "stolen": 0})
    _traded_and_still_owed(s, 0, "attack")


def test_trade_while_discarding_at_the_end_of_the_turn():
    s = position({2: player(hand={"walls": 1}, resources={"food": 3})}, phase="discard", active=2,
                 discarding={"order": [2], "left": 1})
    s = _traded_and_still_owed(s, 2, "discard")
    s, _ = play(s, (2, "discard walls"))
    assert s["turn"]["active"] == 0


def test_no_trade_in_the_set_up_discard_nor_as_a_defender():
    s = position({0: player(hand={"walls": 1}, resources={"food": 3})}, phase="opening_discard",
                 discarding={"order": [0], "left": 2})
    assert TRADE not in GAME.legal_moves(s, 0)
    with pytest.raises(engine.IllegalMove) as err:
        play(s, (0, "trade food commerce"))
    assert err.value.code == "wrong_decision"
    s = position({1: player(population={1: 1}, resources={"food": 3})}, phase="combat",
                 combat={"stage": "counter", "fronts": [{"defender": 1, "units": ["swordsman"]}]})
    assert GAME.pending(s) == {1: "counter"} and TRADE not in GAME.legal_moves(s, 1)
    with pytest.raises(engine.IllegalMove) as err:
        play(s, (1, "trade food commerce"))
    assert err.value.code == "wrong_decision"


def test_a_bonus_card_is_spent_as_its_kind_and_a_wild_one_as_one_chosen_kind_never_split():
    s = position({0: player(hand={"wheat": 1, "caravan": 1})})
    s, events = play(s, (0, "cash wheat food"), (0, "cash caravan production"))
    assert resources_of(s, 0) == {"food": 2, "production": 2, "commerce": 0}
    assert hand_of(s, 0) == {} and s["discard"] == ["wheat", "caravan"]
    with pytest.raises(engine.IllegalMove) as err:
        play(position({0: player(hand={"wheat": 1})}), (0, "cash wheat commerce"))
    assert err.value.code == "bad_resource" and "food only" in err.value.message
    moves = GAME.legal_moves(position({0: player(hand={"caravan": 1})}), 0)
    assert [m["resource"] for m in moves if m["type"] == "cash"] == ["food", "production", "commerce"]


def test_draw_4_discard_2():
    s = position({0: player(hand={"walls": 1})}, phase="buy")
    s, events = play(s, (0, "done"), (0, "fight"))
    assert sum(hand_of(s, 0).values()) == 5 and GAME.pending(s) == {0: "discard"}
    s, _ = play(s, (0, "discard warrior"), (0, "discard walls"))
    assert sum(hand_of(s, 0).values()) == 3 and s["turn"]["active"] == 1
    assert s["discard"] == ["warrior", "walls"]


def test_pottery_and_astronomy_draw_one_more_each_before_the_discard():  # rule 3
    s = position({0: player(technologies=["pottery", "astronomy"])})
    s, _ = play(s, (0, "done"), (0, "fight"))
    assert sum(hand_of(s, 0).values()) == 6 and s["discarding"]["left"] == 2


def test_a_wonder_that_draws_more_draws_before_the_discard():
    # "Ciò può tuttavia esser alterato da certe tecnologie ed edifici"
    s = position({0: player(buildings={1: ["great-library"]})})
    s, _ = play(s, (0, "done"), (0, "fight"))
    assert sum(hand_of(s, 0).values()) == 5 and s["discarding"]["left"] == 2


def test_highest_culture_with_pottery_draws_6_and_discards_3():
    s = position({0: player(technologies=["literature", "pottery"])}, awards={"highest-culture": 0})
    s, _ = play(s, (0, "done"), (0, "fight"))
    assert sum(hand_of(s, 0).values()) == 6 and s["discarding"]["left"] == 3


def test_highest_culture_draws_5_and_discards_3():
    s = position({0: player(technologies=["literature"])}, awards={"highest-culture": 0})
    s, _ = play(s, (0, "done"), (0, "fight"))
    assert sum(hand_of(s, 0).values()) == 5 and s["discarding"]["left"] == 3


def test_the_deck_is_reshuffled_from_the_discards_when_it_runs_out():
    s = position(deck=["walls"], discard=["wheat", "stone", "silk"])
    s, events = play(s, (0, "done"), (0, "fight"))
    assert sum(hand_of(s, 0).values()) == 4 and s["discard"] == [] and s["deck"] == []
    assert any(e["type"] == "deck_reshuffled" for e in events)


def test_highest_happiness_needs_2_and_saves_1_commerce_and_1_production():
    s = position({0: player(hand={"temple": 2, "walls": 1}, resources=RICH, technologies=[])})
    s, events = play(s, (0, "build temple 1"))
    assert s["awards"]["highest-happiness"] is None
    s, events = play(s, (0, "build temple 2"))
    assert s["awards"]["highest-happiness"] == 0 and events[0]["paid"] == 4
    s, events = play(s, (0, "build walls 3"), (0, "research pottery"))
    assert [e["paid"] for e in events if "paid" in e] == [2, 3]


def test_happiness_discount_on_wonders_is_an_option():  # ruling 4
    for option, paid in ((True, 9), (False, 10)):
        s = position({0: player(hand={"pyramids": 1}, resources=RICH)}, awards={"highest-happiness": 0},
                     options={"happiness_discounts_wonders": option})
        s, events = play(s, (0, "build pyramids 1"))
        assert events[0]["paid"] == paid


def test_an_award_stays_with_its_holder_on_a_tie_and_moves_when_exceeded():  # ruling 7
    s = position({0: player(technologies=["masonry", "monarchy"]),
                  1: player(hand={"temple": 1, "colosseum": 1}, resources=RICH)},
                 awards={"highest-happiness": 0}, active=1)
    s, events = play(s, (1, "build colosseum 1"))
    assert s["awards"]["highest-happiness"] == 0
    s, events = play(s, (1, "build temple 2"))
    assert s["awards"]["highest-happiness"] == 1
    assert events[-1] == {"type": "award_changed", "award": "highest-happiness", "seat": 1, "previous": 0, "score": 3}


def test_a_holder_below_the_minimum_keeps_the_award_unless_a_combat_took_it():
    s = position({0: player(buildings={1: ["temple"], 2: ["temple"]})}, awards={"highest-happiness": 0})
    s, _ = play(s, (0, "scrap 1 temple"))
    assert s["awards"]["highest-happiness"] == 0


def test_once_held_an_award_moves_to_whoever_exceeds_the_holder_even_below_the_minimum():
    s = position({0: player(buildings={1: ["temple"], 2: ["temple"]}),
                  1: player(hand={"temple": 1}, resources=RICH)}, awards={"highest-happiness": 0})
    s, _ = play(s, (0, "scrap 1 temple"), (0, "scrap 2 temple"))
    assert s["awards"]["highest-happiness"] == 0  # holding 0 happiness
    s = GAME.from_json({**GAME.to_json(s), "turn": {"number": 6, "active": 1, "phase": "buy"}})
    s, events = play(s, (1, "build temple 1"))
    assert s["awards"]["highest-happiness"] == 1


def test_when_two_others_exceed_the_holder_with_the_same_score_nobody_holds_the_award():
    s = position({0: player(hand={"archer": 1}, technologies=["masonry", "monarchy"]),
                  1: player(buildings={1: ["colosseum"]}, technologies=["masonry"]),
                  2: player(technologies=["masonry", "monarchy"])},
                 awards={"highest-happiness": 1}, phase="combat", combat={"stage": "declare", "fronts": []})
    s, events = play(s, (0, "attack archer 1"), (0, "fight"), (1, "counter done"))
    assert s["players"][1]["plots"][0]["buildings"] == [] and s["awards"]["highest-happiness"] is None


def test_an_unheld_award_goes_to_nobody_while_the_highest_score_is_shared():
    # "assegnate al giocatore che ... abbia il maggior punteggio"; then to whoever exceeds
    s = position({0: player(hand={"temple": 2}, resources=RICH, technologies=["masonry"]),
                  1: player(technologies=["masonry", "monarchy"])})
    s, _ = play(s, (0, "build temple 1"))
    assert s["awards"]["highest-happiness"] is None  # 2 against 2
    s, _ = play(s, (0, "build temple 2"))
    assert s["awards"]["highest-happiness"] == 0


def test_culture_threshold_option_more_than_2():
    for rule, holder in (("at_least_2", 0), ("more_than_2", None)):
        s = position({0: player(hand={"library": 1}, resources=RICH)}, options={"culture_threshold_rule": rule})
        s, _ = play(s, (0, "build library 1"))
        assert s["awards"]["highest-culture"] == holder


def test_the_game_ends_at_once_when_the_last_technology_is_bought():  # ruling 8
    s = position({0: player(resources={"commerce": 9}, population={1: 1}), 1: player(population={1: 3})},
                 tech_deck=[], tech_display=["engineering"])
    s, events = play(s, (0, "research engineering"))
    assert GAME.pending(s) == {} and events[-1]["type"] == "game_ended"
    outcome = GAME.outcome(s)
    assert outcome["reason"] == "last_technology" and outcome["ranking"] == [[1], [0], [2]]
    assert outcome["scores"][0] == {"vp": 2, "technologies": 1, "population": 1, "wonders": 0}
    with pytest.raises(engine.IllegalMove) as err:
        GAME.apply(s, 0, {"type": "end_buying"})
    assert err.value.code == "game_over"


def _ended(p0, p1):
    s = position({0: {**p0, "resources": {"commerce": 9}}, 1: p1}, count=2,
                 tech_deck=[], tech_display=["engineering"])
    s, _ = play(s, (0, "research engineering"))
    return GAME.outcome(s)["ranking"]


def test_tie_breaks_technologies_then_population_then_shared():
    # each side has 3 VP once seat 0 buys its technology; VP are population, technologies
    # and wonders, so with those two equal the wonders are too and the tie is shared
    assert _ended(player(population={1: 2}), player(technologies=["pottery", "writing"], population={1: 1})) == [[1],
                                                                                                                 [0]]
    assert _ended(player(technologies=["pottery"], buildings={1: ["pyramids"]}),
                  player(technologies=["writing", "mining"], population={1: 1})) == [[1], [0]]
    assert _ended(player(technologies=["pottery"], population={1: 1}),
                  player(technologies=["writing", "mining"], population={1: 1})) == [[0, 1]]


def test_team_variant_needs_4_players_and_teammates_give_resources():
    with pytest.raises(engine.EngineError) as err:
        GAME.setup(3, 1, {"teams": "opposite"})
    assert err.value.code == "bad_option"
    s = position({0: player(resources={"food": 4})}, count=4, options={"teams": "opposite"})
    s, events = play(s, (0, "give food 3"))
    assert resources_of(s, 0)["food"] == 1 and resources_of(s, 2)["food"] == 3
    moves = GAME.legal_moves(s, 0)
    assert {"type": "give", "resource": "food", "count": 1} in moves
    with pytest.raises(engine.IllegalMove) as err:
        play(position({0: player(resources={"food": 4})}), (0, "give food 1"))
    assert err.value.code == "no_teammate"


# Seed 003: "I compagni di squadra possono scambiare carte risorsa tra di loro durante i
# loro turni": in every step of the giver's own turn, as the 3:1 trade.
def test_teammates_give_resources_at_any_moment_of_their_own_turn():
    s = position({2: player(hand={"walls": 1}, resources={"food": 2})}, count=4, options={"teams": "adjacent"},
                 phase="discard", active=2, discarding={"order": [2], "left": 1})
    assert {"type": "give", "resource": "food", "count": 2} in GAME.legal_moves(s, 2)
    s, events = play(s, (2, "give food 2"))
    assert resources_of(s, 3)["food"] == 2 and GAME.pending(s) == {2: "discard"}
    s = position({1: player(population={1: 1}, resources={"food": 3})}, count=4, options={"teams": "opposite"},
                 phase="combat", combat={"stage": "counter", "fronts": [{"defender": 1, "units": ["swordsman"]}]})
    assert not [m for m in GAME.legal_moves(s, 1) if m["type"] == "give"]  # a defender: not his turn
    with pytest.raises(engine.IllegalMove) as err:
        play(s, (1, "give food 1"))
    assert err.value.code == "wrong_decision"


def test_team_variant_ranks_teams_by_summed_figures():
    s = position({0: player(resources={"commerce": 9}), 1: player(population={1: 2}), 3: player(population={1: 1})},
                 count=4, options={"teams": "adjacent"}, tech_deck=[], tech_display=["engineering"])
    s, _ = play(s, (0, "research engineering"))
    assert GAME.outcome(s)["ranking"] == [[0, 1], [2, 3]]
    s2 = GAME.from_json({**GAME.to_json(s), "options": {**s["options"], "teams": "opposite"}})
    assert GAME.outcome(s2)["ranking"] == [[1, 3], [0, 2]]
