"""A turn has up to two actions ("fino a due azioni"): a pass ends the turn's
remaining actions, and the end of the turn follows as after a second action."""
import pytest

import engine
from tests.engine.tigris_positions import GAME, hand, play, position, score

NAMES = {0: "Ann", 1: "Bob"}
FAR = {"K11": "red", "O9": "red", "P2": "red"}
# Ann's king on G5 (next to the temple G4) shares a kingdom with the red-black monument.
MONUMENT = {"G4": "red", "H5": "K", "I5": "K", "H6": "K", "I6": "K", **FAR}


def monument_position(**extra):
    return position(players=2, tiles=MONUMENT, monuments=[{"colors": ["red", "black"], "square": "H5"}],
                    leaders={0: {"king": "G5"}}, hands={0: {"red": 2, "black": 1}, 1: {"green": 6}},
                    **extra)


def test_pass_as_first_action_ends_the_turn_with_its_end_of_turn_steps():
    s = monument_position(treasures=list(FAR))
    assert {"type": "pass"} in GAME.legal_moves(s, 0)
    s, events = play(s, (0, "pass"))
    kinds = [e["type"] for e in events]
    assert kinds[0] == "actions_passed" and events[0]["actions_left"] == 2
    assert score(s, 0)["black"] == 1  # monument point for the king
    assert sum(hand(s, 0).values()) == 6  # refilled from 3
    assert kinds.index("points_scored") < kinds.index("tiles_drawn") < kinds.index("turn_ended")
    assert GAME.pending(s) == {1: "action"} and GAME.to_json(s)["turn"]["actions_left"] == 2
    assert GAME.describe_event(events[0], NAMES) == "Ann passed, taking no more actions this turn."


def test_pass_after_one_action_ends_the_turn():
    s = monument_position(treasures=list(FAR))
    s, _ = play(s, (0, "tile black G6"))
    assert GAME.prompt(s, 0, NAMES) == "Take your second action of round 3, or pass to end your turn."
    s, events = play(s, (0, "pass"))
    assert events[0] == {"type": "actions_passed", "seat": 0, "actions_left": 1}
    assert score(s, 0)["black"] == 2  # the tile and the monument
    assert GAME.pending(s) == {1: "action"}


def test_pass_ends_the_game_when_two_treasures_are_left():
    s = monument_position(treasures=["K11", "O9"])
    s, events = play(s, (0, "pass"))
    assert events[-1]["type"] == "game_ended" and GAME.outcome(s)["reason"] == "treasures"


def test_pass_ends_the_game_when_the_bag_cannot_refill_a_hand():
    s = monument_position(treasures=list(FAR), bag={"red": 2})
    s, events = play(s, (0, "pass"))
    assert GAME.outcome(s)["reason"] == "bag" and GAME.pending(s) == {}


def test_pass_only_for_the_turns_actions():
    s = position(players=2, tiles={"G5": "red", "I5": "red", "G4": "red", "I4": "red", **FAR},
                 treasures=list(FAR), leaders={1: {"priest": "H5"}}, hands={0: {"red": 1}})
    s, _ = play(s, (0, "leader priest H4"))
    with pytest.raises(engine.IllegalMove) as err:
        GAME.apply(s, 0, {"type": "pass"})
    assert err.value.code == "wrong_decision"
    assert {"type": "pass"} not in GAME.legal_moves(s, 0)
    with pytest.raises(engine.IllegalMove) as err:
        GAME.apply(s, 1, {"type": "pass"})
    assert err.value.code == "not_your_turn"


def test_pass_notation_and_default_move():
    assert GAME.parse_move(" PASS ") == {"type": "pass"}
    assert GAME.format_move({"type": "pass"}) == "pass"
    assert GAME.describe({"type": "pass"}) == "pass: take no more actions this turn"
    with pytest.raises(engine.MoveParseError) as err:
        GAME.parse_move("pass now")
    assert "expected `pass`" in err.value.message
    with pytest.raises(engine.IllegalMove) as err:
        GAME.apply(monument_position(treasures=list(FAR)), 0, {"type": "pass", "square": "A1"})
    assert err.value.code == "bad_move"
    s = monument_position(treasures=list(FAR))
    assert GAME.default_move(s, 0) == {"type": "pass"}
