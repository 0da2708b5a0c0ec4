"""Open tiles (option `open_tiles`), from the older edition's variant: "si scoprono 6
tessere ... Il giocatore è libero di scegliere se prendere ogni propria tessera dalla
riserva o pescarla dal sacchetto ... Ogni volta che il numero di tessere della riserva
scende al di sotto del 6, le tessere mancanti verranno rimpiazzate"; the game ends when
a hand cannot be completed."""
import pytest

import engine
from tests.engine.tigris_positions import GAME, hand, play, position

FAR = {"K11": "red", "O9": "red", "P2": "red"}
NAMES = {0: "Ann", 1: "Bob"}
DISPLAY = {"red": 2, "blue": 1, "green": 3}


def open_position(**extra):
    extra.setdefault("hands", {0: {"red": 1, "black": 5}, 1: {"green": 6}})
    extra.setdefault("display", DISPLAY)
    return position(players=2, tiles={"G5": "red", **FAR}, treasures=list(FAR),
                    options={"open_tiles": True}, **extra)


def test_setup_turns_six_tiles_face_up_after_the_hands():
    s = GAME.setup(3, 5, {"open_tiles": True})
    data = GAME.to_json(s)
    assert sum(data["display"].values()) == 6 and all(sum(p["hand"].values()) == 6 for p in data["players"])
    assert sum(data["bag"].values()) == 153 - 10 - 18 - 6
    assert GAME.view(s, None)["display"] == data["display"]  # public
    assert "display" not in GAME.to_json(GAME.setup(3, 5))


def test_the_refill_is_taken_tile_by_tile_from_the_display_or_the_bag():
    s, _ = play(open_position(), (0, "tile black H5"), (0, "tile black H6"))
    assert GAME.pending(s) == {0: "draw"}
    assert GAME.legal_moves(s, 0) == [
        {"type": "take_display_tile", "color": "red"}, {"type": "take_display_tile", "color": "blue"},
        {"type": "take_display_tile", "color": "green"},
        {"type": "draw_blind", "count": 1}, {"type": "draw_blind", "count": 2}]
    assert GAME.prompt(s, 0,
                       NAMES) == "Draw 2 tiles: take a face-up tile (2 red, 1 blue, 3 green) or draw from the bag."
    s, events = play(s, (0, "take blue"))
    assert hand(s, 0)["blue"] == 1
    assert events[0] == {"type": "display_tile_taken", "seat": 0, "color": "blue"}
    refilled = events[1]
    assert refilled["type"] == "display_refilled" and sum(refilled["tiles"].values()) == 1
    assert sum(GAME.to_json(s)["display"].values()) == 6  # refilled at once
    assert GAME.describe_event(events[0], NAMES) == "Ann took the face-up blue farm."
    s, events = play(s, (0, "blind 1"))
    received = next(e for e in events if e["type"] == "tiles_received")
    assert received["visible_to"] == [0]  # a blind draw stays hidden
    assert sum(hand(s, 0).values()) == 6
    assert GAME.pending(s) == {1: "action"} and GAME.to_json(s)["draws"] is None


def test_every_short_hand_refills_in_order_active_first():
    s = open_position(hands={0: {"red": 1, "black": 2}, 1: {"green": 5}})
    s, _ = play(s, (0, "tile black H5"), (0, "pass"))
    assert GAME.to_json(s)["draws"] == {"seats": [{"seat": 0, "owed": 4}, {"seat": 1, "owed": 1}], "end_of_turn": True}
    s, _ = play(s, (0, "blind 4"))
    assert GAME.pending(s) == {1: "draw"}
    s, _ = play(s, (1, "take green"))
    assert hand(s, 1)["green"] == 6 and GAME.pending(s) == {1: "action"}


def test_a_swap_draws_at_once_and_the_turn_goes_on():
    s, _ = play(open_position(), (0, "swap black black"))
    assert GAME.pending(s) == {0: "draw"}
    s, _ = play(s, (0, "take red"), (0, "take red"))
    assert hand(s, 0) == {"red": 3, "blue": 0, "green": 0, "black": 3}
    assert GAME.pending(s) == {0: "action"} and GAME.to_json(s)["turn"]["actions_left"] == 1


def test_an_empty_display_leaves_only_the_bag_and_an_empty_bag_only_the_display():
    s, events = play(open_position(display={}), (0, "swap black"))
    assert GAME.pending(s) == {0: "action"} and sum(hand(s, 0).values()) == 6
    assert any(e["type"] == "tiles_received" for e in events)
    s, _ = play(open_position(bag={"red": 0}), (0, "swap black"))
    assert GAME.legal_moves(s, 0) == [{"type": "take_display_tile", "color": c} for c in ("red", "blue", "green")]
    with pytest.raises(engine.IllegalMove) as err:
        GAME.apply(s, 0, {"type": "draw_blind", "count": 1})
    assert err.value.code == "bad_draw" and "draw 1 to 0 tiles" in err.value.message
    with pytest.raises(engine.IllegalMove) as err:
        GAME.apply(s, 0, {"type": "take_display_tile", "color": "black"})
    assert err.value.code == "bad_draw" and "the display shows 2 red, 1 blue, 3 green" in err.value.message


def test_the_game_ends_when_a_hand_cannot_be_completed_from_bag_and_display():
    s, events = play(open_position(bag={"red": 1}, display={"green": 1}), (0, "swap black black"))
    assert GAME.pending(s) == {0: "draw"}  # 2 owed, 1 in the bag and 1 face up: enough
    s, events = play(open_position(bag={"red": 1}, display={"green": 1}), (0, "swap black black black"))
    assert GAME.outcome(s)["reason"] == "bag"


def test_notation_and_loading():
    assert GAME.parse_move("take Red") == {"type": "take_display_tile", "color": "red"}
    assert GAME.parse_move("blind 3") == {"type": "draw_blind", "count": 3}
    assert GAME.format_move({"type": "draw_blind", "count": 3}) == "blind 3"
    assert GAME.describe({"type": "draw_blind", "count": 1}) == "draw 1 tile from the bag"
    assert GAME.describe({"type": "take_display_tile", "color": "green"}) == "take the face-up green market"
    with pytest.raises(engine.IllegalMove) as err:
        open_position(display={"red": 7})
    assert "the display shows 7 tiles; it holds at most 6" in err.value.message
    with pytest.raises(engine.IllegalMove) as err:
        position(display={"red": 1})
    assert "only in games with the option `open_tiles`" in err.value.message
