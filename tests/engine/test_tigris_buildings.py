"""Civilization buildings (option `buildings`), from the 2nd edition's advanced rules:
"una ininterrotta linea verticale o orizzontale di tre o più tessere dello stesso
colore", moved only to a longer line, 2 points instead of 1 in its kingdom, counted in
conflicts but never removed, no catastrophe on it, back beside the board when flipped."""
import pytest

import engine
from tests.engine.tigris_positions import GAME, cell, play, position, score

FAR = {"K11": "red", "O9": "red", "P2": "red"}
NAMES = {0: "Ann", 1: "Bob", 2: "Cy"}
# Ann's king on D11 next to the temple D10; E10 and F10 settlements in its kingdom.
KINGDOM = {"D10": "red", "E10": "black", "F10": "black", **FAR}


def kingdom(**extra):
    extra.setdefault("hands", {0: {"black": 3, "red": 1}})
    return position(tiles={**KINGDOM, **extra.pop("tiles", {})}, treasures=list(FAR),
                    leaders={0: {"king": "D11"}, **extra.pop("leaders", {})},
                    options={"buildings": True}, **extra)


def buildings(state):
    return GAME.to_json(state)["buildings"]


def squares(state, seat=0):
    return [m.get("square") for m in GAME.legal_moves(state, seat)]


def test_a_line_of_three_offers_the_building_on_any_of_its_tiles():
    s, events = play(kingdom(), (0, "tile black G10"))
    assert GAME.pending(s) == {0: "building"}
    assert squares(s) == ["E10", "F10", "G10", None]  # None: decline
    assert GAME.prompt(s, 0, NAMES).startswith("Your tile is part of a line of three or more: put the palace")
    s, events = play(s, (0, "building F10"))
    assert buildings(s)["black"] == "F10" and GAME.pending(s) == {0: "action"}
    assert GAME.describe_event(events[0], NAMES) == "Ann put the palace (black) on F10."


def test_rulebook_example_6_three_tiles_not_in_a_line_get_no_building():
    """Example 6: "Il tris di mercati verdi (C) non è allineato e non può contenere la
    Sala del Mercato": three green tiles in an L offer nothing; the same three in a
    horizontal (A) or vertical (B) line offer the building."""
    hands = {0: {"green": 2}}
    ell, _ = play(kingdom(tiles={"G10": "green", "H10": "green"}, hands=hands), (0, "tile green H11"))
    assert GAME.pending(ell) == {0: "action"} and buildings(ell)["green"] is None
    across, _ = play(kingdom(tiles={"G10": "green", "H10": "green"}, hands=hands), (0, "tile green I10"))
    assert GAME.pending(across) == {0: "building"} and squares(across) == ["G10", "H10", "I10", None]
    down, _ = play(kingdom(tiles={"C9": "green", "C10": "green"}, hands=hands), (0, "tile green C11"))
    assert GAME.pending(down) == {0: "building"} and squares(down) == ["C9", "C10", "C11", None]


def test_a_tile_in_the_buildings_kingdom_scores_two():
    s, _ = play(kingdom(), (0, "tile black G10"))
    assert score(s, 0)["black"] == 1  # no palace yet
    s, _ = play(s, (0, "building F10"), (0, "tile black H10"))
    assert score(s, 0)["black"] == 3
    # The line is now 4 long, but the palace already stands on it: nothing to move.
    assert GAME.pending(s) != {0: "building"}


def test_the_building_moves_only_to_a_strictly_longer_line():
    s = kingdom(tiles={"G10": "black", "B6": "black", "C6": "black", "B5": "red"},
                hands={0: {"black": 3}}, bag={"red": 20, "blue": 20, "green": 20, "black": 10})
    s = GAME.from_json({**GAME.to_json(s), "buildings": {"black": "F10"}})
    s, _ = play(s, (0, "tile black D6"))  # 3 long, as the palace's line: no choice
    assert GAME.pending(s) == {0: "action"}
    s, events = play(s, (0, "tile black E6"))  # 4 long: it may move
    assert squares(s) == ["B6", "C6", "D6", "E6", None]
    s, events = play(s, (0, "building C6"))
    assert buildings(s)["black"] == "C6"
    assert GAME.describe_event(events[0], NAMES) == "Ann put the palace (black) on C6, moving it from F10."


def test_declining_leaves_the_building_aside():
    s, events = play(kingdom(), (0, "tile black G10"), (0, "no building"))
    assert buildings(s)["black"] is None
    assert {"type": "building_declined", "seat": 0, "square": "G10"} in events
    assert GAME.default_move(play(kingdom(), (0, "tile black G10"))[0], 0) == {"type": "decline_building"}


def test_no_catastrophe_on_a_building():
    s = GAME.from_json({**GAME.to_json(kingdom(tiles={"G10": "black"})), "buildings": {"black": "F10"}})
    with pytest.raises(engine.IllegalMove) as err:
        GAME.apply(s, 0, GAME.parse_move("catastrophe F10"))
    assert err.value.code == "catastrophe_forbidden" and "a building stands there" in err.value.message
    assert "F10" not in [m.get("square") for m in GAME.legal_moves(s, 0) if m["type"] == "place_catastrophe"]


def test_the_tile_under_a_building_counts_in_a_war_but_is_never_removed():
    # Bob's king (H11, temple H10) with settlements I10 J10 L10 and the palace on J10,
    # Ann's king (D11) with E10 F10: Ann's tile on G10 unites them, 2 against 3.
    s = kingdom(tiles={"H10": "red", "I10": "black", "J10": "black", "K10": "red", "L10": "black"},
                leaders={1: {"king": "H11"}}, hands={0: {"red": 1, "black": 2}, 1: {"black": 1}})
    s = GAME.from_json({**GAME.to_json(s), "buildings": {"black": "J10"}})
    s, events = play(s, (0, "tile red G10"), (0, "support 2"), (1, "support 0"))
    resolved = next(e for e in events if e["type"] == "conflict_resolved")
    assert resolved["winner"] == 0 and (resolved["attacker_strength"], resolved["defender_strength"]) == (4, 3)
    assert resolved["removed"] == ["I10", "L10"]  # J10 under the palace stays
    assert cell(s, "J10") == "k" and buildings(s)["black"] == "J10"
    assert score(s, 0)["black"] == 3  # the leader and the two removed tiles


def test_a_monument_flipping_the_building_sends_it_back():
    s = kingdom(tiles={"E11": "black"}, hands={0: {"black": 1}})
    s = GAME.from_json({**GAME.to_json(s), "buildings": {"black": "E10"}})
    s, _ = play(s, (0, "tile black F11"))
    assert GAME.pending(s) == {0: "monument"}
    s, events = play(s, (0, "monument red-black E10"))
    assert buildings(s)["black"] is None
    assert {"type": "building_returned", "building": "palace", "color": "black", "square": "E10"} in events
    assert GAME.pending(s) == {0: "action"}


def test_notation_option_and_loading():
    assert GAME.parse_move("building f7") == {"type": "place_building", "square": "F7"}
    assert GAME.parse_move("no building") == {"type": "decline_building"}
    assert GAME.format_move({"type": "place_building", "square": "F7"}) == "building F7"
    assert GAME.describe({"type": "decline_building"}) == "place no building"
    assert GAME.validate_options({"buildings": True}, 3)["buildings"] is True
    assert "buildings" not in GAME.to_json(GAME.setup(3, 1))
    with pytest.raises(engine.IllegalMove) as err:
        GAME.from_json({**GAME.to_json(kingdom()), "buildings": {"black": "D10"}})
    assert "the palace on D10 needs a face-up black tile under it" in err.value.message
    with pytest.raises(engine.IllegalMove) as err:
        GAME.from_json({**GAME.to_json(position()), "buildings": {"black": "D10"}})
    assert "only in games with the option `buildings`" in err.value.message


def test_buildings_are_public_in_every_view():
    s = GAME.from_json({**GAME.to_json(kingdom(tiles={"G10": "black"})), "buildings": {"black": "F10"}})
    for seat in (None, 0, 1):
        assert GAME.view(s, seat)["buildings"]["black"] == "F10"
