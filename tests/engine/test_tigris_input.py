"""Bad input is refused with a code and a message naming the problem; notation round-trips."""
import pytest

import engine
from engine.core import rng_below, rng_next
from engine.simulate import random_playout
from tests.engine.tigris_positions import GAME, play, position

BAD_MOVES = [
    ("not a dict", "bad_move", "JSON object"),
    ({"square": "F7"}, "unknown_move_type", "types:"),
    ({"type": "fly", "square": "F7"}, "unknown_move_type", "'fly'"),
    ({"type": "place_tile", "color": "red"}, "bad_move", "missing square"),
    ({"type": "place_tile", "color": "red", "square": "F7", "why": 1}, "bad_move", "unexpected why"),
    ({"type": "place_tile", "color": "purple", "square": "F7"}, "bad_color", "colours: red"),
    ({"type": "place_tile", "color": "red", "square": "Q7"}, "bad_square", "A1 to P11"),
    ({"type": "place_tile", "color": "red", "square": "A12"}, "bad_square", "A1 to P11"),
    ({"type": "place_tile", "color": "red", "square": 7}, "bad_square", "A1 to P11"),
    ({"type": "place_leader", "leader": "queen", "square": "F7"}, "bad_leader", "king, priest"),
    ({"type": "swap_tiles", "tiles": {"red": -1}}, "bad_move", "whole number"),
    ({"type": "swap_tiles", "tiles": ["red"]}, "bad_move", "colour -> count"),
    ({"type": "commit_support", "count": 1}, "wrong_decision", "is not open now; moves open now: `"),
]


@pytest.mark.parametrize("move,code,words", BAD_MOVES)
def test_bad_moves_are_refused_with_a_clear_code_and_nothing_changes(move, code, words):
    s = position(hands={0: {"red": 6}})
    before = GAME.to_json(s)
    with pytest.raises(engine.IllegalMove) as err:
        GAME.apply(s, 0, move)
    assert err.value.code == code and words in err.value.message
    assert GAME.to_json(s) == before


def test_wrong_seat_gets_not_your_turn():
    s = position(hands={1: {"red": 6}})
    with pytest.raises(engine.NotYourTurn) as err:
        GAME.apply(s, 1, {"type": "place_tile", "color": "red", "square": "F7"})
    assert err.value.code == "not_your_turn" and "the game waits for another player" in err.value.message
    assert GAME.legal_moves(s, 1) == [] and GAME.legal_moves(s, 7) == []


@pytest.mark.parametrize("text",
                         ["", "tile red", "fly F7", "support many", "leader king", "monument red-black", "treasure"])
def test_text_that_does_not_parse_says_what_was_expected(text):
    with pytest.raises(engine.MoveParseError) as err:
        GAME.parse_move(text)
    assert err.value.code == "parse_error" and "expected" in err.value.message


@pytest.mark.parametrize("text,move", [
    ("tile red F7", {"type": "place_tile", "color": "red", "square": "F7"}),
    ("  Leader KING g6 ", {"type": "place_leader", "leader": "king", "square": "G6"}),
    ("withdraw trader", {"type": "withdraw_leader", "leader": "trader"}),
    ("catastrophe a1", {"type": "place_catastrophe", "square": "A1"}),
    ("swap red red blue", {"type": "swap_tiles", "tiles": {"red": 2, "blue": 1}}),
    ("support 3", {"type": "commit_support", "count": 3}),
    ("war black", {"type": "choose_war", "color": "black"}),
    ("monument red-black F7", {"type": "build_monument", "monument": "red-black", "square": "F7"}),
    ("no monument", {"type": "decline_monument"}),
    ("treasure B2", {"type": "take_treasure", "square": "B2"}),
])
def test_notation_parses_and_formats_back(text, move):
    assert GAME.parse_move(text) == move
    assert GAME.parse_move(GAME.format_move(move)) == move
    assert GAME.describe(move)


def test_every_legal_move_of_a_real_game_round_trips_through_notation():
    s = GAME.setup(4, seed=3)
    seat = next(iter(GAME.pending(s)))
    for move in GAME.legal_moves(s, seat):
        assert GAME.parse_move(GAME.format_move(move)) == move


def test_bad_options_and_players_are_refused():
    with pytest.raises(engine.EngineError) as err:
        GAME.setup(3, 1, {"board": "moon"})
    assert err.value.code == "bad_option" and "standard" in err.value.message
    with pytest.raises(engine.EngineError) as err:
        GAME.setup(3, 1, {"open_tiles": "yes"})
    assert err.value.code == "bad_option"
    with pytest.raises(engine.EngineError) as err:
        GAME.setup(5, 1)
    assert err.value.code == "bad_players"
    with pytest.raises(engine.EngineError) as err:
        engine.get_game("chess")
    assert err.value.code == "unknown_game"


def test_bad_state_json_is_refused():
    data = GAME.to_json(GAME.setup(2, 1))
    for broken in ({**data, "board": data["board"][:5]}, {**data, "treasures": ["Z1"]}, {**data, "players": []}):
        with pytest.raises(engine.IllegalMove) as err:
            GAME.from_json(broken)
        assert err.value.code == "bad_state"


def test_rng_is_deterministic_and_uniform_enough():
    assert rng_next(1) == rng_next(1) and rng_next(1) != rng_next(2)
    state, counts = 42, [0] * 6
    for _ in range(6000):
        state, value = rng_below(state, 6)
        counts[value] += 1
    assert all(850 < c < 1150 for c in counts)


def test_default_move_is_legal_and_least_committal():
    s = position(tiles={"G5": "red", "I5": "red", "G4": "red", "I4": "red"}, leaders={1: {"priest": "H5"}},
                 hands={0: {"red": 3, "black": 1}, 1: {"red": 2}})
    assert GAME.default_move(s, 0) == {"type": "pass"}
    assert GAME.default_move(s, 1) is None
    s, _ = play(s, (0, "leader priest H4"))
    assert GAME.default_move(s, 0) == {"type": "commit_support", "count": 0}
    every_variant = {"buildings": True, "ziggurat": True, "open_tiles": True}
    for seed in range(20):
        for state, *_ in random_playout(GAME, 3, seed, every_variant if seed % 2 else {}):
            for seat in GAME.pending(state):
                assert GAME.default_move(state, seat) in GAME.legal_moves(state, seat)


def test_every_event_and_decision_of_random_games_has_words():
    names = {0: "Ann", 1: "Bob", 2: "Cy"}
    silent = {"tiles_drawn", "wars_ended"}
    every_variant = {"buildings": True, "ziggurat": True, "open_tiles": True}
    for seed in range(15):
        for state, seat, _move, _new, events in random_playout(GAME, 3, seed, every_variant if seed % 3 == 0 else {}):
            assert GAME.prompt(state, seat, names)
            for event in events:
                text = GAME.describe_event(event, names)
                assert (text is None) == (event["type"] in silent), event
                assert text is None or "None" not in text, (event, text)
