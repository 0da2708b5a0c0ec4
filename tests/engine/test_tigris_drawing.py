"""The Tigris board drawing, read back from its SVG as a browser test or the page's
script would: by the data attributes of the squares."""
import xml.etree.ElementTree as ET

import pytest

import engine
from engine.tigris.drawing import HEIGHT, WIDTH, board_svg
from tests.engine.tigris_views import BOARDS, COLUMNS, name, start_temples, take_first, tigris_view

SVG = "{http://www.w3.org/2000/svg}"
ALL_SQUARES = {f"{c}{r}" for c in COLUMNS for r in range(1, 12)}


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def squares(svg: str) -> dict[str, ET.Element]:
    found = [el for el in parse(svg).iter() if "data-square" in el.attrib]
    by_name = {el.attrib["data-square"]: el for el in found}
    assert len(by_name) == len(found), "a square is drawn twice"
    return by_name


def letters(square: ET.Element) -> set[str | None]:
    return {el.text for el in square.iter(f"{SVG}text")}


def text_alternative(svg: str) -> tuple[str | None, str | None]:
    root = parse(svg)
    title, desc = root.find(f"{SVG}title"), root.find(f"{SVG}desc")
    assert title is not None and desc is not None, "the drawing has a title and a description"
    return title.text, desc.text


def test_the_svg_has_the_documented_size_and_176_squares():
    svg = board_svg(tigris_view())
    root = parse(svg)
    assert root.tag == f"{SVG}svg"
    assert (root.get("width"), root.get("height")) == (str(WIDTH), str(HEIGHT)) == ("816", "656")
    assert root.get("viewBox") == f"0 0 {WIDTH} {HEIGHT}"
    drawn = squares(svg)
    assert set(drawn) == ALL_SQUARES
    assert all("square" in el.get("class").split() for el in drawn.values())


@pytest.mark.parametrize("board", ["standard", "advanced"])
def test_river_and_take_first_squares_follow_the_board_map(board):
    drawn = squares(board_svg(tigris_view(board=board)))
    river = {name(r, c) for r, c in BOARDS[board]["river"]}
    assert {sq for sq, el in drawn.items() if el.get("data-terrain") == "river"} == river
    assert {sq for sq, el in drawn.items() if el.get("data-take-first") == "true"} == set(take_first(board))


def test_a_red_tile_placed_at_f7_shows_there_and_nowhere_else_new():
    before = squares(board_svg(tigris_view()))
    after = squares(board_svg(tigris_view(tiles={"F7": "red"})))
    assert "data-tile" not in before["F7"].attrib
    assert after["F7"].get("data-tile") == "red"
    assert "T" in letters(after["F7"])
    changed = {sq for sq in ALL_SQUARES if before[sq].attrib != after[sq].attrib}
    assert changed == {"F7"}


def test_every_tile_colour_carries_its_letter():
    view = tigris_view(tiles={"E5": "red", "D4": "blue", "F5": "green", "G7": "black"})
    drawn = squares(board_svg(view))
    for square, color, letter in [("E5", "red", "T"), ("D4", "blue", "F"),
                                  ("F5", "green", "M"), ("G7", "black", "S")]:
        assert drawn[square].get("data-tile") == color
        assert "data-face-down" not in drawn[square].attrib
        assert letter in letters(drawn[square])


def test_starting_temples_hold_treasures_and_take_first_ones_are_marked():
    view = tigris_view()
    drawn = squares(board_svg(view))
    assert {sq for sq, el in drawn.items() if el.get("data-treasure") == "true"} == set(start_temples())
    assert all(drawn[sq].get("data-tile") == "red" for sq in start_temples())
    _, desc = text_alternative(board_svg(view))
    for square in take_first():
        assert f"{square} (taken first)" in desc
    assert "K1," in desc and "K1 (taken first)" not in desc


def test_a_taken_treasure_leaves_its_temple_bare():
    view = tigris_view(treasures=["K1"])
    drawn = squares(board_svg(view))
    assert drawn["K1"].get("data-treasure") == "true"
    assert "data-treasure" not in drawn["B2"].attrib and drawn["B2"].get("data-tile") == "red"


def test_leaders_stand_where_stated_with_dynasty_seat_and_role_letter():
    view = tigris_view(leaders={0: {"king": "G6", "priest": "E6"}, 2: {"trader": "J9"}})
    drawn = squares(board_svg(view))
    expected = {"G6": ("king", "0", "archer", "K"), "E6": ("priest", "0", "archer", "P"),
                "J9": ("trader", "2", "pot", "T")}
    for square, (role, seat, dynasty, letter) in expected.items():
        el = drawn[square]
        assert (el.get("data-leader"), el.get("data-seat"), el.get("data-dynasty")) == (role, seat, dynasty)
        assert letter in letters(el)
    assert sum("data-leader" in el.attrib for el in drawn.values()) == 3


def test_each_dynasty_has_its_own_symbol():
    view = tigris_view(players=4, leaders={s: {"king": sq} for s, sq in enumerate(["E6", "G6", "I6", "K6"])})
    drawn = squares(board_svg(view))

    def symbol(square: str) -> bytes:
        group = next(el for el in drawn[square].iter(f"{SVG}g") if el.get("transform"))
        return b"".join(ET.tostring(child) for child in group)

    assert len({symbol(sq) for sq in ["E6", "G6", "I6", "K6"]}) == 4


def test_monument_covers_its_block_with_face_down_tiles():
    view = tigris_view(face_down={"G9": "red", "H9": "red", "G10": "red", "H10": "red"},
                       monuments=[("red", "black", "G9")])
    svg = board_svg(view)
    drawn = squares(svg)
    for square in ["G9", "H9", "G10", "H10"]:
        assert drawn[square].get("data-monument") == "red-black"
        assert drawn[square].get("data-tile") == "red"
        assert drawn[square].get("data-face-down") == "true"
    assert sum("data-monument" in el.attrib for el in drawn.values()) == 4
    monument = [el for el in parse(svg).iter() if el.get("class") == "monument"]
    assert len(monument) == 1 and monument[0].get("data-at") == "G9"
    assert {"T", "S"} <= letters(monument[0])
    assert "Monument red-black on G9, H9, G10, H10." in text_alternative(svg)[1]


def test_a_monument_must_fit_on_the_board():
    with pytest.raises(ValueError):
        board_svg(tigris_view(monuments=[("red", "black", "P5")]))


def test_catastrophes_and_the_unification_tile():
    view = tigris_view(tiles={"H7": "blue"}, catastrophes=["J3", "K1"], unification=("H7", 1))
    svg = board_svg(view)
    drawn = squares(svg)
    assert {sq for sq, el in drawn.items() if el.get("data-catastrophe") == "true"} == {"J3", "K1"}
    assert "data-tile" not in drawn["K1"].attrib
    assert drawn["H7"].get("data-unification") == "1" and drawn["H7"].get("data-tile") == "blue"
    assert sum("data-unification" in el.attrib for el in drawn.values()) == 1
    desc = text_alternative(svg)[1]
    assert "Catastrophes: K1, J3." in desc and "Unification tile of seat 1 at H7." in desc


def test_the_shared_unification_tile_is_drawn_as_nobodys():
    view = tigris_view(tiles={"H7": "blue"}, unification=("H7", 1))
    view["options"]["unification_tiles"] = "shared"
    svg = board_svg(view)
    assert squares(svg)["H7"].get("data-unification") == "shared"
    assert "Unification tile shared at H7." in text_alternative(svg)[1] and "seat 1" not in text_alternative(svg)[1]
    game = engine.get_game("tigris")
    assert game.validate_options({"unification_tiles": "shared"}, 3)["unification_tiles"] == "shared"
    with pytest.raises(engine.EngineError, match="unification_tiles takes one of"):
        game.validate_options({"unification_tiles": "many"}, 3)


def test_highlight_marks_the_legal_squares_only():
    drawn = squares(board_svg(tigris_view(), highlight=["D5", "C6"]))
    legal = {sq for sq, el in drawn.items() if "legal" in el.get("class").split()}
    assert legal == {"D5", "C6"}
    assert not any("legal" in el.get("class") for el in squares(board_svg(tigris_view())).values())


def test_the_text_alternative_lists_the_board():
    view = tigris_view(tiles={"F7": "red", "D4": "blue", "E5": "green", "G7": "black"},
                       leaders={1: {"farmer": "L6"}})
    title, desc = text_alternative(board_svg(view))
    assert title == "Tigris & Euphrates board, round 1"
    temples = ", ".join(sorted(start_temples() + ["F7"], key=lambda s: (int(s[1:]), s[0])))
    assert f"Red temples (T): {temples}." in desc
    assert "Blue farms (F): D4." in desc
    assert "Green markets (M): E5." in desc
    assert "Black settlements (S): G7." in desc
    assert "Bull farmer (F, seat 1) at L6." in desc


def test_strings_from_the_view_are_escaped():
    hostile = '<script>alert("x")</script>&'
    view = tigris_view(dynasties=[hostile, "bull", "pot"], leaders={0: {"king": "G6"}},
                       face_down={"G9": "red", "H9": "red", "G10": "red", "H10": "red"},
                       monuments=[('red"><script>', "black", "G9")])
    svg = board_svg(view)
    assert "<script" not in svg
    drawn = squares(svg)  # still well-formed XML
    assert drawn["G6"].get("data-dynasty") == hostile
    assert drawn["G9"].get("data-monument") == 'red"><script>-black'


@pytest.mark.parametrize("broken", [
    {"board": ["." * 16] * 10},
    {"board": ["." * 15] * 11},
    {"board": ["?" + "." * 15] + ["." * 16] * 10},
    {"treasures": ["Q1"]},
    {"treasures": ["A12"]},
    {"options": {"board": "moon"}},
])
def test_a_malformed_view_is_refused(broken):
    with pytest.raises(ValueError):
        board_svg({**tigris_view(), **broken})


def test_a_bad_highlight_square_is_refused():
    with pytest.raises(ValueError):
        board_svg(tigris_view(), highlight=["<b>"])


def test_the_drawing_is_deterministic_and_leaves_the_view_alone():
    view = tigris_view(tiles={"F7": "red"}, leaders={0: {"king": "G6"}})
    copy = {**view, "board": list(view["board"])}
    assert board_svg(view, highlight=["D5"]) == board_svg(view, highlight=["D5"])
    assert view == copy


def test_a_spectator_view_draws_without_a_seat():
    svg = board_svg(tigris_view(seat=None))
    assert "(you)" not in svg and len(squares(svg)) == 176


def test_the_leaders_in_a_conflict_are_marked():
    view = tigris_view(leaders={0: {"priest": "H4"}, 1: {"priest": "H6"}})
    view["conflict"] = {"kind": "revolt", "color": "red", "attacker": 0, "defender": 1,
                        "attacker_leader": "H4", "defender_leader": "H6",
                        "attacker_commit": 2, "defender_commit": None}
    svg = board_svg(view)
    drawn = squares(svg)
    assert drawn["H4"].get("data-conflict") == "attacker" and drawn["H6"].get("data-conflict") == "defender"
    assert sum("data-conflict" in el.attrib for el in drawn.values()) == 2
    assert "Revolt in red: seat 0 at H4 attacks seat 1 at H6." in text_alternative(svg)[1]


def test_civilization_buildings_stand_on_their_tiles():
    view = {**tigris_view(tiles={"E10": "black", "F10": "black", "G10": "black"}),
            "buildings": {"black": "F10", "red": None, "blue": None, "green": None}}
    svg = board_svg(view)
    drawn = squares(svg)
    assert {sq for sq, el in drawn.items() if el.get("data-building")} == {"F10"}
    assert drawn["F10"].get("data-building") == "black" and drawn["F10"].get("data-tile") == "black"
    assert "The palace (black) stands on F10." in text_alternative(svg)[1]
    # Without the option the view has no buildings and nothing is drawn for them.
    assert not any(el.get("data-building") for el in squares(board_svg(tigris_view())).values())


def test_the_ziggurat_shows_its_five_tiles_and_the_tower_on_the_centre():
    view = {**tigris_view(tiles={"G5": "z", "G4": "z", "F5": "z", "H5": "z", "G6": "z"}),
            "ziggurat": {"square": "G5", "offer": None, "point_taken": False}}
    svg = board_svg(view)
    drawn = squares(svg)
    assert {sq: el.get("data-ziggurat") for sq, el in drawn.items() if el.get("data-ziggurat")} == {
        "G5": "tower", "G4": "true", "F5": "true", "H5": "true", "G6": "true"}
    assert "Z" in letters(drawn["F5"])
    assert "The ziggurat stands on G4, F5, G5, H5, G6, its tower on G5." in text_alternative(svg)[1]


def test_open_tiles_show_the_display_in_a_row_under_the_key():
    view = {**tigris_view(), "display": {"red": 2, "blue": 0, "green": 3, "black": 1}}
    svg = board_svg(view)
    root = parse(svg)
    assert (root.get("height"), root.get("viewBox")) == (str(HEIGHT + 40), f"0 0 {WIDTH} {HEIGHT + 40}")
    shown = [el.get("data-display-tile") for el in root.iter() if el.get("data-display-tile")]
    assert shown == ["red", "red", "green", "green", "green", "black"]
    assert "Face up beside the board: 2 red, 3 green, 1 black." in text_alternative(svg)[1]
    assert parse(board_svg(tigris_view())).get("height") == str(HEIGHT)  # no display, no row


def test_the_text_board_shows_every_kind_of_square_where_it_stands():
    from engine.tigris.drawing import board_text

    view = tigris_view(tiles={"C3": "blue", "D3": "black"}, face_down={"F5": "green", "G5": "green", "F6": "red",
                                                                         "G6": "red"},
                       monuments=[("green", "red", "F5")], catastrophes=["H8"],
                       leaders={0: {"king": "C2"}, 2: {"trader": "P11"}}, unification=("E3", 1))
    text = board_text(view)
    grid = {line[:2].strip(): line[4:] for line in text.splitlines()[1:12]}
    cell = lambda square: grid[square[1:]][3 * "ABCDEFGHIJKLMNOP".index(square[0]):][:2]  # noqa: E731
    assert text.splitlines()[0] == "    " + "  ".join("ABCDEFGHIJKLMNOP")
    assert [cell(s) for s in ("C2", "C3", "D3", "E3", "F5", "H8", "P11")] == ["K0", "b ", "k ", "u ", "g#", "x ", "T2"]
    for square in start_temples("standard"):
        assert cell(square) == "r*", square  # a starting temple and its treasure
    assert cell("E1") == "~ " and cell("A1") == ". "
    assert "Monument green-red on F5 (2x2)." in text and "u unification tile" in text
    assert "Seats: 0 archer (you), 1 bull, 2 pot." in text
