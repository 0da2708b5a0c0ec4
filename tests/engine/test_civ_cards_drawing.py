"""The Civilization card game's drawing: size, slots in the game's notation, the
viewer's hand only, highlights, combat fronts, the table in words with each card's
rules text, and malformed views refused."""
import xml.etree.ElementTree as ET

import pytest

from engine.civ_cards.drawing import board_svg, board_text, size
from tests.engine.civ_cards_positions import GAME, player, position

SVG = "{http://www.w3.org/2000/svg}"


def draw(state, seat=0, highlight=None) -> ET.Element:
    return ET.fromstring(board_svg(GAME.view(state, seat), highlight=highlight))


def slots(root: ET.Element) -> dict[str, ET.Element]:
    return {slot: el for el in root.iter() if (slot := el.get("data-slot"))}


def texts(root: ET.Element) -> str:
    return " ".join(el.text or "" for el in root.iter(f"{SVG}text"))


def test_root_is_an_image_of_the_size_the_view_needs():
    s = position()
    root = draw(s)
    width, height = size(GAME.view(s, 0))
    assert root.get("role") == "img" and root.find(f"{SVG}title").text
    assert (root.get("width"), root.get("height")) == (str(width), str(height))
    assert width == 2 * 16 + 6 * (114 + 8) - 8  # six cards a row, whatever the view
    many = position({1: player(plots=["grassland"] * 9)})
    assert size(GAME.view(many, 0)) == (width, height + 100 + 8)  # the plots past six wrap onto a second row
    with_hand = position({0: player(hand={card: 1 for card in ("walls", "wheat", "stone", "silk", "gold", "iron")})})
    assert size(GAME.view(with_hand, 0))[1] == height + 24 + 2 * 40  # six cards in hand: two rows


def test_every_card_carries_its_name_and_rules_text_and_no_text_is_under_12_pixels():
    s = position({0: player(hand={"swordsman": 1}, buildings={2: ["granary"]})})
    root = draw(s)
    titles = {el.get("data-card"): el.find(f"{SVG}title").text for el in root.iter() if el.get("data-card")}
    assert titles["swordsman"] == ("Swordsman. Unit (melee): in attack, takes 1 population and destroys 1 building; "
                                   "in defence, counters Archer.")
    assert titles["pottery"].startswith("Pottery. Technology, costs 4 commerce: draw 1 more card")
    assert titles["grassland"].startswith("Grassland. Plot: yields 2 food each turn")
    assert min(float(el.get("font-size")) for el in root.iter(f"{SVG}text")) >= 12


def test_displays_own_plots_and_hand_are_slots_others_plots_are_not():
    s = position({0: player(hand={"walls": 2, "caravan": 1}), 1: player(hand={"great-library": 1})})
    table = slots(draw(s))
    assert set(table) == {"display-plot-1", "display-plot-2", "display-plot-3", "tech-pottery", "tech-agriculture",
                          "tech-engineering", "plot-1", "plot-2", "plot-3", "plot-4", "hand-walls", "hand-caravan"}
    assert "Walls x2" in texts(draw(s)) and "Great Library" not in texts(draw(s))
    assert "hand-great-library" in slots(draw(s, seat=1)) and "Walls x2" not in texts(draw(s, seat=1))
    assert not any(name.startswith("hand-") for name in slots(draw(s, seat=None)))


def test_highlight_marks_slots_as_legal():
    s = position()
    root = draw(s, highlight=["tech-pottery", "plot-2"])
    marked = {name for name, el in slots(root).items() if el.get("class") == "legal"}
    assert marked == {"tech-pottery", "plot-2"}


def test_plots_show_yield_population_buildings_and_the_fronts_of_a_combat():
    s = position({1: player(population={2: 3}, buildings={2: ["granary", "walls"]})}, phase="combat",
                 combat={"stage": "walls", "fronts": [{"defender": 1, "units": ["swordsman", "catapult"],
                         "repelled": None, "catapults": 0, "walls_done": False, "counters": [],
                         "counters_done": False, "steal": 0, "destroy": 0, "population_done": False,
                         "buildings_done": False}], "stolen": 0})
    words = texts(draw(s))
    assert "1 food 1 production population 3 Granary Walls" in words
    assert "attack on seat 1: 1. Swordsman, 2. Catapult" in words


def test_same_view_same_text_and_malformed_views_are_refused():
    view = GAME.view(position(), 0)
    assert board_svg(view) == board_svg(view)
    with pytest.raises(ValueError):
        board_svg({"players": "nonsense"})


def _viewed_after(moves: int, seat: int = 0) -> dict:
    import random
    state, rng = GAME.setup(3, 4, {}), random.Random(4)
    for _ in range(moves):
        acting = min(GAME.pending(state))
        state, _ = GAME.apply(state, acting, rng.choice(GAME.legal_moves(state, acting)))
    return GAME.view(state, seat)


@pytest.mark.parametrize("moves", [0, 150, 400])
def test_the_email_picture_painted_from_pieces_equals_the_whole_drawing(moves):
    from PIL import ImageChops

    from service import pictures
    from tests.test_pictures import image_pixels

    view = _viewed_after(moves)
    whole = image_pixels(pictures.render(board_svg(view)))
    layered = image_pixels(pictures.board_image("civ-cards", view))
    assert whole.size == layered.size == size(view)
    assert max(high for _, high in ImageChops.difference(whole, layered).getextrema()) <= 1


def test_the_draft_plots_are_drawn_as_the_display_numbered_as_picks():
    s = GAME.setup(3, 7)
    root = draw(s, seat=s["draft"]["order"][0])
    offered = [name for name in slots(root) if name.startswith("display-plot-")]
    assert offered == [f"display-plot-{i + 1}" for i in range(len(s["draft"]["display"]))]
    words = texts(root)
    assert "Draft" in words and "Draft round 1" in words and "For sale" not in words


def test_the_table_in_words_names_what_the_picture_shows_and_no_other_hand():
    s = position({0: player(hand={"walls": 2}), 1: player(hand={"great-library": 1}, population={2: 3},
                                                         buildings={2: ["granary"]})})
    text = board_text(GAME.view(s, 0))
    assert text.startswith("Plots for sale: 1. ")
    assert "Technologies on display: Pottery (4 commerce" in text
    assert "Seat 0 (you): " in text and "Cards in hand: 2 Walls." in text
    assert "2. Plains (1 food, 1 production; population 3, Granary)" in " ".join(text.split())
    assert "Great Library" not in text and "Seat 1: " in text and "Cards in hand: 1." in text
    assert all(len(line) <= 78 for line in text.splitlines())
    assert "Great Library" in board_text(GAME.view(s, 1)) and "Walls" not in board_text(GAME.view(s, 1))
