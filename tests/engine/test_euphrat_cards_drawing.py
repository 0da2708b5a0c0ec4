"""The card game's table drawing: structure and data attributes of the SVG."""
from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

import engine
from engine.euphrat_cards.drawing import HEIGHT, TEXT, WIDTH, board_svg
from tests.engine.euphrat_cards_positions import playout, position

GAME = engine.get_game("euphrat-cards")
SVG = "{http://www.w3.org/2000/svg}"
COLUMNS = ["tkrg", "tbkr", "trrbG", "t", "trkk", "t", "gggg", "rbb"]


def draw(highlight=None, seat=0, **placed) -> ET.Element:
    placed.setdefault("columns", COLUMNS)
    return ET.fromstring(board_svg(GAME.view(position(**placed), seat), highlight=highlight))


def slots(root: ET.Element) -> dict[str, ET.Element]:
    return {slot: el for el in root.iter() if (slot := el.get("data-slot"))}


def test_root_is_an_image_of_the_documented_size():
    root = draw()
    assert root.get("role") == "img"
    assert (root.get("width"), root.get("height")) == (str(WIDTH), str(HEIGHT))
    assert root.get("viewBox") == f"0 0 {WIDTH} {HEIGHT}"
    assert root.find(f"{SVG}title").text


def test_every_card_and_next_free_place_is_a_slot():
    table = slots(draw())
    cards = [name for name, el in table.items() if el.get("data-empty") is None]
    assert len(cards) == sum(map(len, COLUMNS))
    assert table["A0"].get("data-card") == "treasure"
    assert table["A1"].get("data-card") == "black"
    assert table["C4"].get("data-card") == "ship"
    assert table["C4"].get("data-ship") == "blue-green"
    assert table["A4"].get("data-empty") == "1"
    assert "A5" not in table
    assert {"AB", "GH"} <= set(table)


def test_gap_cards_and_face_down_gap_cards():
    assert slots(draw(gaps="..k...."))["CD"].get("data-card") == "black"
    union = {"gap": "CD", "colors": []}
    hidden = slots(draw(gaps="..k....", union=union, seat=1))["CD"]
    assert hidden.get("data-card") == "hidden"


def test_leaders_carry_role_and_seat():
    table = slots(draw(gaps="..k....", leaders={0: {"king": "C0"}, 2: {"farmer": "CD"}}))
    assert (table["C0"].get("data-leader"), table["C0"].get("data-seat")) == ("king", "0")
    assert (table["CD"].get("data-leader"), table["CD"].get("data-seat")) == ("farmer", "2")


def test_free_ships_are_drawn():
    root = draw(ships=["blue-red", "blue-black"])
    free = [el.get("data-free-ship") for el in root.iter() if el.get("data-free-ship")]
    assert free == ["blue-red", "blue-black"]


def test_highlight_marks_slots_and_a_column_s_next_free_slot():
    table = slots(draw(highlight=["D", "a2", "EF"]))
    assert table["D1"].get("class") == "legal"
    assert table["A2"].get("class") == "legal"
    assert table["EF"].get("class") == "legal"
    assert table["D0"].get("class") is None


def test_desc_lists_the_table():
    desc = draw(leaders={1: {"priest": "B2"}}).find(f"{SVG}desc").text
    assert "Column A: treasure A0, black A1, red A2, green A3." in desc
    assert "black B2 with the bull priest (seat 1)" in desc
    assert "blue-green ship C4" in desc


@pytest.mark.parametrize("seed", [1, 2])
def test_random_games_render(seed):
    for step, (_, _, _, state, _) in enumerate(playout(2 + seed, seed)):
        if step % 20 == 0:
            root = ET.fromstring(board_svg(GAME.view(state, step % (2 + seed))))
            assert len(slots(root)) >= 8 + 7


def test_text_from_the_view_is_escaped():
    view = GAME.view(position(columns=COLUMNS, leaders={0: {"king": "A2"}}), 0)
    view["players"][0]["dynasty"] = "<i>&x"
    root = ET.fromstring(board_svg(view))
    assert "the <i>&x king" in root.find(f"{SVG}desc").text


def test_no_card_slot_claims_to_be_a_tigris_square():
    assert not [el for el in draw().iter() if el.get("data-square")]


def test_every_word_is_drawn_at_least_text_size():
    """The page shows the table at about 0.7 of its size at 1280 pixels: 18 units stay 12 pixels."""
    root = draw(gaps="..k....", leaders={0: {"king": "C0"}, 1: {"farmer": "CD"}, 2: {"trader": "A1"}})
    sizes = [float(el.get("font-size")) for el in root.iter(f"{SVG}text")]
    assert sizes and min(sizes) >= TEXT >= 18


def test_each_card_says_what_it_is_and_does_when_pointed_at():
    table = slots(draw(leaders={1: {"priest": "B1"}}))
    title = table["B1"].find(f"{SVG}title").text
    assert title == ("B1, blue farm: the farmer's colour; four blue cards at a column's bottom may become any "
                     "free ship. The bull priest (seat 1) stands on it.")
    assert table["A0"].find(f"{SVG}title").text.startswith("A0, treasure: a red card with a treasure")
    assert table["C4"].find(f"{SVG}title").text.startswith("C4, blue-green ship: at the end of your turn")
    assert table["A4"].find(f"{SVG}title").text == "A4: free"


def test_leaders_are_discs_with_their_dynasty_emblem_and_a_key_names_the_dynasties():
    root = draw(seat=1, leaders={0: {"king": "A2"}, 1: {"priest": "B1"}})
    king = slots(root)["A2"]
    assert [c.get("fill") for c in king.iter(f"{SVG}circle")][0] == "#262626"  # the king is black
    assert not [t for t in king.iter(f"{SVG}text") if t.text in ("K", "Bw")]  # no tiny letters
    words = [t.text for t in root.iter(f"{SVG}text")]
    assert {"Leaders:", "bow", "bull, you", "pot"} <= set(words)
