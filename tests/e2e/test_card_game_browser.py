"""The card game played by clicking: a card onto a column, a leader onto a card, a
free ship built; the side panel and the key to the drawing."""
from service.db import transaction
from service.models import Game
from tests.conftest import put_position
from tests.e2e.conftest import sign_in
from tests.e2e.test_browser import emails, engine_of
from tests.engine.euphrat_cards_positions import position


def test_a_card_game_turn_played_by_clicking_only(live, browser, screenshot):
    ann_email, bob_email = emails()
    ann_ctx, ann = sign_in(live, browser, ann_email)
    bob_ctx, bob = sign_in(live, browser, bob_email)
    ann.goto(f"{live.base}/games/new")
    ann.select_option("select[name=game]", "euphrat-cards")
    ann.select_option("select[name=players]", "2")
    ann.fill("input[name=invite]", bob_email)
    ann.click("button:has-text('Create and invite')")
    game_url = ann.url
    game_id = int(game_url.rstrip("/").split("/")[-1])
    bob.goto(game_url)
    bob.click("button:has-text('Accept the invitation')")
    bob.wait_for_selector("text=Players")
    with transaction(engine_of(live)) as db:
        active = db.get(Game, game_id).state["turn"]["active"]
    page = None
    for candidate in (ann, bob):
        candidate.goto(game_url)
        if candidate.locator("#decision").count():
            page = candidate
    assert page is not None, f"seat {active} has no decision on the page"
    table = page.inner_text("#table-state")
    assert "Leaders in supply: farmer, king, priest, trader" in table and "Catastrophe: in hand" in table
    assert "Victory cards: 0" in table and "cards in the deck" in table
    page.click(".legend summary")
    assert "Bu bull" in page.inner_text(".legend")

    color = next(b.get_attribute("data-color") for b in page.query_selector_all("[data-kind=hand-card]")
                 if not b.is_disabled())
    page.click(f"[data-kind=hand-card][data-color={color}]")
    slot = page.get_attribute("svg [data-slot].legal", "data-slot")
    page.click(f"svg [data-slot={slot}]")
    assert page.is_visible("#staged")
    screenshot(page, "staged-card")
    page.click("#move-form button:has-text('Send')")
    page.wait_for_selector("text=Move made.")
    assert page.get_attribute(f"svg [data-slot={slot}]", "data-card") == color

    page.click("[data-kind=leader][data-leader=king]")
    target = page.get_attribute("svg [data-slot].legal", "data-slot")
    page.click(f"svg [data-slot={target}]")
    page.click("#move-form button:has-text('Send')")
    page.wait_for_selector("text=Move made.")
    assert page.get_attribute(f"svg [data-slot={target}]", "data-leader") == "king"
    assert "king " + target in page.inner_text("#table-state")
    assert "played a " + color + " card on column" in page.inner_text(".log")
    screenshot(page, "after-turn")

    # A fourth blue card in column D: the free ships are the choices, clicked on the table.
    put_position(engine_of(live), game_id, position(
        players=2, active=active, columns=["t", "t", "t", "tbbb", "tG", "t", "t", "t"], hands={active: {"blue": 1}}))
    page.goto(game_url)
    page.click("[data-kind=hand-card][data-color=blue]")
    page.click("svg [data-slot=D4]")
    page.click("#move-form button:has-text('Send')")
    page.wait_for_selector("text=Move made.")
    assert page.get_attribute("[data-kind=ship]", "aria-pressed") == "true"  # the only tool, chosen
    free = {el.get_attribute("data-free-ship") for el in page.query_selector_all("svg [data-free-ship].legal")}
    assert free == {"blue-red", "blue-black"}
    page.click("svg [data-free-ship=blue-black]")
    assert page.is_visible("#staged") and page.input_value("#move-form input[name=text]") == "ship blue-black"
    screenshot(page, "staged-ship")
    page.click("#move-form button:has-text('Send')")
    page.wait_for_selector("text=Move made.")
    assert page.get_attribute("svg [data-slot=D1]", "data-ship") == "blue-black"
    assert "ships to build: blue-red" in page.inner_text("#table-state")
    ann_ctx.close()
    bob_ctx.close()
