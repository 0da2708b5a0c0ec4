"""Bad input is refused with a code and a message naming the problem, and nothing
changes; the text notation round-trips; views hide what they must; default moves are
legal; hand-written states are checked."""
import pytest

import engine
from engine.simulate import random_playout
from tests.engine.civ_cards_positions import GAME, play, player, position

BAD_MOVES = [
    ("not a dict", "bad_move", "JSON object"),
    ({"plot": 1}, "unknown_move_type", "types:"),
    ({"type": "fly"}, "unknown_move_type", "'fly'"),
    ({"type": "build", "card": "walls"}, "bad_move", "missing plot"),
    ({"type": "end_buying", "why": 1}, "bad_move", "unexpected why"),
    ({"type": "build", "card": "walls", "plot": 9}, "bad_plot", "1 to 4"),
    ({"type": "build", "card": ["walls"], "plot": 1}, "not_in_hand", "you hold: walls"),
    ({"type": "build", "card": "walls", "plot": True}, "bad_plot", "1 to 4"),
    ({"type": "research", "card": "astronomy"}, "bad_tech", "on display: pottery"),
    ({"type": "research", "card": "pottery"}, "cannot_afford", "4 commerce; you hold 1"),
    ({"type": "buy_plot", "slot": 4, "pay": {}}, "bad_slot", "1 to 3"),
    ({"type": "buy_plot", "slot": 1, "pay": {"gold": 15}}, "bad_payment", "food, production"),
    ({"type": "buy_plot", "slot": 1, "pay": {"food": 15}}, "cannot_afford", "you hold 1"),
    ({"type": "buy_population", "plot": 1}, "cannot_afford", "6 food"),
    ({"type": "cash", "card": "walls", "resource": "food"}, "not_in_hand", "bonus"),
    ({"type": "scrap", "plot": 1, "card": "granary"}, "bad_building", "holds nothing"),
    ({"type": "give", "resource": "food", "count": 1}, "no_teammate", "team variant"),
    ({"type": "fight"}, "wrong_decision", "`fight` is not open now; moves open now: `done`"),
    ({"type": "discard", "card": "walls"}, "wrong_decision", "is not open now; moves open now: `"),
]


@pytest.mark.parametrize("move,code,words", BAD_MOVES)
def test_bad_moves_are_refused_with_a_clear_code_and_nothing_changes(move, code, words):
    s = position({0: player(hand={"walls": 1}, resources={"food": 1, "production": 1, "commerce": 1})})
    before = GAME.to_json(s)
    with pytest.raises(engine.IllegalMove) as err:
        GAME.apply(s, 0, move)
    assert err.value.code == code and words in err.value.message, err.value.message
    assert GAME.to_json(s) == before


def test_wrong_seat_gets_not_your_turn():
    s = position()
    with pytest.raises(engine.NotYourTurn) as err:
        GAME.apply(s, 1, {"type": "end_buying"})
    assert err.value.code == "not_your_turn" and "the game waits for another player" in err.value.message
    assert GAME.legal_moves(s, 1) == [] and GAME.legal_moves(s, 7) == []


@pytest.mark.parametrize("text", ["", "pick", "fly 1", "plot 1 5/5", "plot x 5/5/5", "repel maybe",
                                  "counter axeman", "lose population", "lose buildings 1", "lose it",
                                  "place", "build walls"])
def test_text_that_does_not_parse_says_what_was_expected(text):
    with pytest.raises(engine.MoveParseError) as err:
        GAME.parse_move(text)
    assert err.value.code == "parse_error" and "expected" in err.value.message


@pytest.mark.parametrize("text,move", [
    ("pick 2", {"type": "pick_plot", "slot": 2}),
    ("settle 3", {"type": "settle", "plot": 3}),
    ("discard great-wall", {"type": "discard", "card": "great-wall"}),
    ("collect 1/0/2", {"type": "collect", "population": {"food": 1, "production": 0, "commerce": 2}}),
    (" Plot 2  6/2/7", {"type": "buy_plot", "slot": 2, "pay": {"food": 6, "production": 2, "commerce": 7}}),
    ("population 1", {"type": "buy_population", "plot": 1}),
    ("build Granary 4", {"type": "build", "card": "granary", "plot": 4}),
    ("research the-wheel", {"type": "research", "card": "the-wheel"}),
    ("trade commerce production", {"type": "trade", "give": "commerce", "get": "production"}),
    ("cash caravan food", {"type": "cash", "card": "caravan", "resource": "food"}),
    ("scrap 2 walls", {"type": "scrap", "plot": 2, "card": "walls"}),
    ("give food 3", {"type": "give", "resource": "food", "count": 3}),
    ("done", {"type": "end_buying"}),
    ("attack swordsman 1", {"type": "attack", "card": "swordsman", "target": 1}),
    ("fight", {"type": "fight"}),
    ("catapult 2", {"type": "return_walls", "plot": 2}),
    ("repel 2", {"type": "repel", "unit": 2}),
    ("repel none", {"type": "repel", "unit": None}),
    ("counter axeman 1", {"type": "counter", "card": "axeman", "unit": 1}),
    ("counter done", {"type": "end_counters"}),
    ("lose population 1 1 3", {"type": "give_population", "plots": [1, 1, 3]}),
    ("lose buildings 1:walls 2:granary", {"type": "lose_buildings", "buildings": [[1, "walls"], [2, "granary"]]}),
    ("place 1 2", {"type": "place_population", "plots": [1, 2]}),
])
def test_text_notation_parses_and_formats_back(text, move):
    assert GAME.parse_move(text) == move
    assert GAME.parse_move(GAME.format_move(move)) == move
    assert GAME.describe(move)


def test_every_legal_move_of_a_game_round_trips_through_text():
    kinds = set()
    for seed in (5, 6):
        for state, seat, move, *_ in random_playout(GAME, 3, seed):
            legal = GAME.legal_moves(state, seat)
            for one in legal[:40] + legal[-40:]:
                assert GAME.parse_move(GAME.format_move(one)) == one
                kinds.add(one["type"])
    assert {"pick_plot", "settle", "discard", "buy_plot", "end_buying", "attack", "fight", "end_counters"} <= kinds


def test_describe_names_no_card_discarded_or_countered():
    assert "walls" not in GAME.describe({"type": "discard", "card": "walls"})
    assert "axeman" not in GAME.describe({"type": "counter", "card": "axeman", "unit": 1})


def test_default_move_is_legal_and_least_committal():
    for state, seat, *_ in random_playout(GAME, 4, 11):
        for owing, kind in GAME.pending(state).items():
            default = GAME.default_move(state, owing)
            assert default in GAME.legal_moves(state, owing)
            if kind == "buy":
                assert default == {"type": "end_buying"}
            if kind == "counter":
                assert default == {"type": "end_counters"}
    assert GAME.default_move(position(), 1) is None


def test_view_hides_hands_decks_and_rng_and_adds_figures():
    s = position({0: player(hand={"walls": 2}), 1: player(hand={"swordsman": 1}, population={1: 2})})
    view = GAME.view(s, 0)
    assert view["players"][0]["hand"] == {"walls": 2}
    assert "hand" not in view["players"][1] and view["players"][1]["hand_size"] == 1
    assert "deck" not in view and view["deck_size"] == 11 and "rng" not in view
    assert "tech_deck" not in view and view["tech_deck_size"] == 2 and "discard" not in view
    assert view["players"][1]["figures"] == {"vp": 2, "technologies": 0, "population": 2, "wonders": 0}
    assert view["players"][0]["plot_price"] == 15 and view["players"][1]["population_price"] == 8
    assert view["players"][0]["happiness"] == 0 and view["seat"] == 0 and view["pending"] == {"0": "buy"}
    spectator = GAME.view(s, None)
    assert all("hand" not in p for p in spectator["players"])


def test_state_json_rejects_nonsense_with_bad_state():
    data = GAME.to_json(position())
    for change in (
        {"players": [player()]},
        {"players": [player(plots=["moon"]), player(), player()]},
        {"players": [player(hand={"tank": 1}), player(), player()]},
        {"players": [player(resources={"food": -1}), player(), player()]},
        {"deck": ["grassland"]},
        {"turn": {"number": 1, "active": 0, "phase": "nap"}},
        {"awards": {"highest-happiness": 7}},
        {"table": "other"},
        {"phase": "combat", "combat": {"stage": "siege", "fronts": []}},
        {"combat": {"stage": "walls", "fronts": [{"defender": 0, "units": ["warrior"]}]}},
        {"combat": {"stage": "walls", "fronts": [{"defender": 1, "units": ["walls"]}]}},
    ):
        with pytest.raises(engine.IllegalMove) as err:
            GAME.from_json({**data, **change})
        assert err.value.code == "bad_state"


def test_a_minimal_hand_written_state_is_filled_in():
    s = GAME.from_json({"players": [{"plots": [{"plot": "grassland"}]}, {}],
                        "tech_display": ["pottery"], "turn": {"phase": "buy"}})
    assert s["population"] == 48 and s["awards"] == {"highest-happiness": None, "highest-culture": None}
    assert GAME.pending(s) == {0: "buy"}
    s, _ = play(s, (0, "done"), (0, "fight"))  # nothing to draw: the turn passes at once
    assert s["turn"]["active"] == 1 and GAME.pending(s) == {1: "buy"}


def test_a_hand_written_combat_is_filled_in():
    s = position({1: player(population={1: 1})}, phase="combat",
                 combat={"stage": "counter", "fronts": [{"defender": 1, "units": ["swordsman"]}]})
    assert GAME.pending(s) == {1: "counter"}
    s, events = play(s, (1, "counter done"))
    assert events[-1]["type"] == "population_stolen" and GAME.pending(s) == {0: "place_population"}


@pytest.mark.parametrize("change,message", [
    ({"turn": {"phase": "discard"}}, "phase 'discard' needs its 'discarding' record"),
    ({"turn": {"phase": "opening_discard"}}, "phase 'opening_discard' needs its 'discarding' record"),
    ({"turn": {"phase": "draft"}}, "phase 'draft' needs its 'draft' record"),
    ({"turn": {"phase": "settle"}}, "phase 'settle' needs its 'settle' record"),
    ({"awards": {"highest-wealth": 1}}, "not award cards"),
    ({"turn": {"phase": "combat"}, "combat": {"stage": "walls", "fronts": [
        {"defender": 1, "units": ["swordsman"], "repelled": 3}]}}, "by index 0 to 0"),
    ({"turn": {"phase": "combat"}, "combat": {"stage": "counter", "fronts": [
        {"defender": 1, "units": ["swordsman"], "counters": [["axeman", 1]]}]}}, "by index 0 to 0"),
])
def test_a_hand_written_state_missing_its_phase_record_or_naming_no_card_is_refused(change, message):
    data = GAME.to_json(position())
    with pytest.raises(engine.IllegalMove, match=message) as err:
        GAME.from_json({**data, **change})
    assert err.value.code == "bad_state"


def test_a_hand_written_combat_phase_without_its_record_starts_at_the_declaration():
    data = GAME.to_json(position({0: player(hand={"warrior": 1})}))
    s = GAME.from_json({**data, "turn": {"number": 5, "active": 0, "phase": "combat"}})
    assert GAME.pending(s) == {0: "attack"} and {"type": "fight"} in GAME.legal_moves(s, 0)


def test_bad_options_and_player_counts_are_refused():
    for options in ({"teams": "mixed"}, {"happiness_discounts_wonders": "yes"}, {"colour": 1}):
        with pytest.raises(engine.EngineError) as err:
            GAME.setup(4, 1, options)
        assert err.value.code == "bad_option"
    for players in (1, 5, True):
        with pytest.raises(engine.EngineError) as err:
            GAME.setup(players, 1)
        assert err.value.code == "bad_players"
