"""An Eden turn in two browsers: a card played on the board by clicking, an
acquisition contested by clicking, the bidding answered with the page's buttons, and a
cultivation card turned by clicking its square again."""
from service.db import transaction
from service.models import Game
from tests.conftest import put_position
from tests.e2e.conftest import choose_and_send, sign_in
from tests.e2e.test_browser import emails, engine_of
from tests.engine.eden_positions import position


def play_typed_or_clicked(page):
    page.click("#move-form button[type=submit]")
    page.wait_for_selector("text=Move made.")


def test_an_eden_turn_with_an_acquisition_is_played_by_clicking(live, browser, screenshot):
    ann_email, bob_email = emails()
    ann_ctx, ann = sign_in(live, browser, ann_email)
    bob_ctx, bob = sign_in(live, browser, bob_email)
    ann.goto(f"{live.base}/games/new")
    ann.select_option("select[name=game]", "eden")
    described = ann.inner_text("fieldset[data-game=eden]")
    assert "Eden (Gal Zuckerman)" in described and "provisional" in described
    ann.select_option("select[name=players]", "2")
    ann.fill("input[name=invite]", bob_email)
    ann.click("button:has-text('Create and invite')")
    game_url = ann.url
    game_id = int(game_url.rstrip("/").split("/")[-1])
    bob.goto(game_url)
    bob.click("button:has-text('Accept the invitation')")
    bob.wait_for_selector("text=Players")

    put_position(engine_of(live), game_id, position(
        {"C4": "y1", "A1": "r1", "B1": "r1", "A2": "r1"}, hands={0: ["B4", "K3"], 1: ["G7"]},
        mana={0: 100, 1: 100}, players=2))
    ann.goto(game_url)
    assert "Your mana: 100" in ann.inner_text("aside")
    assert ann.inner_text(".hand-cards").split("\n") == ["B4", "K3 (L tromino)"]
    ann.click(".tool[data-card=B4]")
    assert ann.get_attribute("svg [data-square].legal", "data-square") == "B4"
    ann.click("svg [data-square=B4]")
    assert ann.input_value("#move-form input[name=text]") == "irrigate B4"
    play_typed_or_clicked(ann)

    ann.click(".tool[data-kind=contest]")
    ann.click("svg [data-square=C4]")
    assert ann.input_value("#move-form input[name=text]") == "contest C4"
    play_typed_or_clicked(ann)
    assert ann.get_attribute("svg [data-square=C4]", "data-acquisition") == "defend"
    choose_and_send(ann, "bid 10 mana per point")
    screenshot(ann, "opened")

    bob.goto(game_url)
    assert "bids 10 mana per point" in bob.inner_text("#decision")
    choose_and_send(bob, "bid 15 mana per point")
    ann.goto(game_url)
    choose_and_send(ann, "accept the bid")
    screenshot(ann, "accepted")
    assert ann.get_attribute("svg [data-square=B4]", "data-color") == "yellow"
    assert "Your mana: 115" in ann.inner_text("aside")
    with transaction(engine_of(live)) as db:
        assert db.get(Game, game_id).state["board"][3].split()[1:3] == ["y1", "y1"]

    # Next turn of Ann's: the L tromino K3 over A1 A2 B1, chosen by clicking A1 until it fits.
    put_position(engine_of(live), game_id, position(
        {"A1": "r1", "B1": "r1", "A2": "r1", "B2": "r1"}, hands={0: ["K3"], 1: ["G7"]}, players=2))
    ann.goto(game_url)
    ann.click(".tool[data-card=K3]")
    seen = set()
    for _ in range(4):
        ann.click("svg [data-square=A1]")
        seen.add(ann.input_value("#move-form input[name=text]"))
    assert len(seen) == 3 and all(text.startswith("cultivate K3 ") for text in seen)  # 3 placements hold A1
    while ann.input_value("#move-form input[name=text]") != "cultivate K3 A1 B1 A2":
        ann.click("svg [data-square=A1]")
    assert {el.get_attribute("data-square") for el in ann.query_selector_all("svg .chosen")} == {"A1", "B1", "A2"}
    play_typed_or_clicked(ann)
    assert [ann.get_attribute(f"svg [data-square={sq}]", "data-level")
            for sq in ("A1", "B1", "A2", "B2")] == ["2", "2", "2", "1"]
    ann_ctx.close()
    bob_ctx.close()
