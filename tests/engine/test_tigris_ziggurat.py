"""The ziggurat (option `ziggurat`), from the 2nd edition's advanced rules: "uno speciale
monumento da 5 tessere che formano una croce ... le quali non possono essere distrutte
... Allo Ziggurat si applicano tutte le altre regole previste per i monumenti. Se il
vostro re è nel regno che contiene lo Ziggurat, ricevete un cubo nel colore a vostra
scelta al termine del vostro turno.\""""
import pytest

import engine
from tests.engine.tigris_positions import GAME, cell, discarded, leader_at, play, position, score

FAR = {"K11": "red", "O9": "red", "P2": "red"}
NAMES = {0: "Ann", 1: "Bob"}
# A red cross around G5 waits for its centre. Ann's king on F4 keeps the temple E4;
# Bob's priest on I5 has only H5.
CROSS = {"G4": "red", "F5": "red", "H5": "red", "G6": "red", "E4": "red", **FAR}


def cross(options=None, **extra):
    extra.setdefault("hands", {0: {"red": 2, "black": 1}})
    return position(players=2, tiles={**CROSS, **extra.pop("tiles", {})}, treasures=list(FAR),
                    leaders={0: {"king": "F4"}, 1: {"priest": "I5"}, **extra.pop("leaders", {})},
                    options={"ziggurat": True, **(options or {})}, **extra)


def test_completing_a_cross_offers_the_ziggurat_which_replaces_the_five_tiles():
    s = cross()
    before = discarded(s)
    s, _ = play(s, (0, "tile red G5"))
    assert GAME.pending(s) == {0: "ziggurat"}
    assert GAME.legal_moves(s, 0) == [{"type": "build_ziggurat", "square": "G5"}, {"type": "decline_ziggurat"}]
    assert GAME.prompt(s, 0, NAMES) == "Your tile completed a cross of five: build the ziggurat on it, or decline."
    s, events = play(s, (0, "ziggurat G5"))
    assert [cell(s, sq) for sq in ("G5", "G4", "F5", "H5", "G6")] == ["z"] * 5
    assert discarded(s) == before + 5
    assert GAME.to_json(s)["ziggurat"] == {"square": "G5", "offer": None, "point_taken": False}
    # Ziggurat tiles support nothing: Bob's priest lost its only temple.
    assert leader_at(s, 1, "priest") is None and leader_at(s, 0, "king") == "F4"
    assert GAME.describe_event(events[0], NAMES) == "Ann built the ziggurat with its centre on G5."


def test_an_arm_tile_completes_the_cross_too():
    s = cross(tiles={"G5": "red", "F5": "."})
    s, _ = play(s, (0, "tile red F5"))
    assert [m.get("square") for m in GAME.legal_moves(s, 0)] == ["G5", None]


def test_the_king_in_its_kingdom_takes_a_point_of_his_choice_at_the_end_of_his_turn():
    s = cross(scores={0: {"red": 2, "green": 1, "black": 1}})
    s, _ = play(s, (0, "tile red G5"), (0, "ziggurat G5"), (0, "pass"))
    assert GAME.pending(s) == {0: "ziggurat_point"}
    assert [m["color"] for m in GAME.legal_moves(s, 0)] == ["red", "blue", "green", "black"]
    assert GAME.default_move(s, 0) == {"type": "take_ziggurat_point", "color": "blue"}  # the weakest
    blue = score(s, 0)["blue"]
    s, events = play(s, (0, "ziggurat point blue"))
    assert score(s, 0)["blue"] == blue + 1
    assert [e["type"] for e in events][:3] == ["ziggurat_point_taken", "points_scored", "tiles_drawn"]
    assert GAME.pending(s) == {1: "action"}
    # Bob has no king there: his turn ends without the point.
    s, events = play(s, (1, "pass"))
    assert GAME.pending(s) == {0: "action"} and not any(e["type"] == "ziggurat_point_taken" for e in events)


def test_declining_means_never_on_that_cross_and_there_is_only_one_ziggurat():
    s, events = play(cross(), (0, "tile red G5"), (0, "no ziggurat"))
    assert {"type": "ziggurat_declined", "seat": 0, "square": "G5"} in events
    assert cell(s, "G5") == "r" and GAME.pending(s) == {0: "action"}
    built = cross(tiles={"G5": "z", "G4": "z", "F5": "z", "H5": "z", "G6": "z", "E5": "red",
                         "L5": "red", "K6": "red", "M6": "red", "L7": "red"},
                  leaders={1: {"priest": "K5"}}, ziggurat={"square": "G5", "offer": None, "point_taken": False})
    s, _ = play(built, (0, "tile red L6"))
    assert GAME.pending(s) == {0: "action"}


def test_the_ziggurat_cannot_be_destroyed():
    s, _ = play(cross(), (0, "tile red G5"), (0, "ziggurat G5"))
    with pytest.raises(engine.IllegalMove) as err:
        GAME.apply(s, 0, GAME.parse_move("catastrophe H5"))
    assert err.value.code == "catastrophe_forbidden" and "the ziggurat stands there" in err.value.message


def test_a_building_on_the_cross_goes_back_beside_the_board():
    s = cross(options={"buildings": True}, tiles={"G3": "red"})
    s = GAME.from_json({**GAME.to_json(s), "buildings": {"red": "G4"}})
    s, events = play(s, (0, "tile red G5"), (0, "ziggurat G5"))
    assert GAME.to_json(s)["buildings"]["red"] is None
    assert {"type": "building_returned", "building": "library", "color": "red", "square": "G4"} in events


def test_notation_and_loading():
    assert GAME.parse_move("Ziggurat g5") == {"type": "build_ziggurat", "square": "G5"}
    assert GAME.parse_move("no ziggurat") == {"type": "decline_ziggurat"}
    assert GAME.parse_move("ziggurat point Black") == {"type": "take_ziggurat_point", "color": "black"}
    for move in ({"type": "build_ziggurat", "square": "G5"}, {"type": "take_ziggurat_point", "color": "red"}):
        assert GAME.parse_move(GAME.format_move(move)) == move
    assert GAME.describe({"type": "take_ziggurat_point", "color": "red"}) == "take the ziggurat's point in red"
    with pytest.raises(engine.IllegalMove) as err:
        position(tiles={"G5": "red", "H5": "z"}, options={"ziggurat": True})
    assert "ziggurat tiles (z) stand only where `ziggurat.square` names the centre" in err.value.message
    with pytest.raises(engine.IllegalMove) as err:
        position(tiles={"G5": "red", "H5": "z"})
    assert "only in games with the option `ziggurat`" in err.value.message
