"""Eden's board drawing: the SVG says what lies where (data attributes, text
alternative), shows nothing private of other seats, and the email picture painted from
cached pieces equals the whole drawing."""
import io
import xml.etree.ElementTree as ET

import pytest
from PIL import Image, ImageChops

from engine.eden import drawing
from service import pictures
from tests.engine.eden_positions import GAME, play, position
from tests.test_pictures import image_pixels

SVG = "{http://www.w3.org/2000/svg}"


def acquisition_view(seat=1):
    s = position({"C4": "y2", "A1": "r3", "G7": "b4"}, hands={0: ["B4"], 1: ["K2"]}, mana={1: 4321},
                 market=["K5"])
    s, _ = play(s, (0, "irrigate B4"), (0, "contest C4"), (0, "bid 10"))
    return GAME.view(s, seat)


def squares(svg: str) -> dict[str, dict]:
    root = ET.fromstring(svg)
    return {square: dict(g.attrib) for g in root.iter(f"{SVG}g") if (square := g.get("data-square"))}


def test_every_square_is_drawn_with_its_tile_and_the_acquisition_marked():
    svg = drawing.board_svg(acquisition_view(), highlight=["d5"])
    found = squares(svg)
    assert len(found) == 49
    assert found["A1"]["data-color"] == "red" and found["A1"]["data-level"] == "3"
    assert found["C4"]["data-acquisition"] == "defend" and found["B4"]["data-acquisition"] == "attack"
    assert "data-color" not in found["D4"] and found["D5"]["class"] == "square legal"
    assert "Market: card 5 (O tetromino)" in svg and "Eden board, round 3" in svg
    assert "provisional" not in svg and "K5" not in svg  # an id reads like a square; the data note is the rules page's
    desc = ET.fromstring(svg).find(f"{SVG}desc").text
    assert "yellow: C4 level 2" in desc and "against C4" in desc


def test_the_drawing_shows_only_the_viewers_mana():
    assert "4321 mana" in drawing.board_svg(acquisition_view(seat=1))
    for seat in (None, 0, 2):
        assert "4321" not in drawing.board_svg(acquisition_view(seat=seat))


@pytest.mark.parametrize("change,message", [
    (lambda v: v["board"].pop(), "7 rows"),
    (lambda v: v["board"].__setitem__(0, "q1 .. .. .. .. .. .."), "unknown board cell"),
])
def test_a_malformed_view_raises_value_error(change, message):
    view = acquisition_view()
    change(view)
    with pytest.raises(ValueError, match=message):
        drawing.board_svg(view)
    with pytest.raises(ValueError, match="not a square"):
        drawing.board_svg(acquisition_view(), highlight=["H9"])


@pytest.mark.parametrize("seat", [None, 0, 1])
def test_the_email_picture_painted_from_pieces_equals_the_whole_drawing(seat):
    view = acquisition_view(seat)
    whole = image_pixels(pictures.render(drawing.board_svg(view)))
    layered = image_pixels(pictures.board_image("eden", view))
    assert max(high for _, high in ImageChops.difference(whole, layered).getextrema()) <= 1
    png = Image.open(io.BytesIO(pictures.board_png("eden", view)))
    drawn = ET.fromstring(drawing.board_svg(view))
    assert png.size == (drawing.WIDTH, int(drawn.get("height"))) and png.mode == "P"


def test_the_key_stays_readable_at_a_phones_width_and_counts_what_the_market_cannot_show():
    market = ["K4", "K9", "K13", "K1", "K5", "K2", "K17", "K10", "K11"]
    view = GAME.view(position({}, market=market, players=4), 0)
    root = ET.fromstring(drawing.board_svg(view))
    texts = [(t.text, float(t.get("font-size"))) for t in root.iter(f"{SVG}text")]
    assert min(size for _, size in texts) * 0.7 >= 12  # a phone shows the drawing at about 0.7
    lines = [text for text, _ in texts if text.startswith(("Market", "card", "Deck"))]
    assert lines[0] == "Market: card 4 (I tetromino)," and lines[-1] == f"Deck: {view['deck_size']} cards"
    assert lines[-2].endswith("and 5 more") and all(len(line) <= 46 for line in lines)
    assert len(lines) == 1 + drawing.MARKET_LINES


def test_the_drawing_is_as_tall_as_its_key_needs():
    two = ET.fromstring(drawing.board_svg(GAME.view(position({}, players=2), 0)))
    market = ["K4", "K9", "K13", "K1", "K5", "K2", "K17", "K10", "K11"]
    four = ET.fromstring(drawing.board_svg(GAME.view(position({}, players=4, market=market), 0)))
    assert int(two.get("height")) == drawing.HEIGHT - 4 * drawing.KEY_LINE  # two players fewer, one market line
    assert int(four.get("height")) == drawing.HEIGHT
