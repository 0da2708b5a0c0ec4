"""The card game played by clicking: a card onto a column, a leader onto a card; the
side panel and the key to the drawing."""
from service.db import transaction
from service.models import Game

from tests.e2e.conftest import sign_in
from tests.e2e.test_browser import emails, engine_of


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
    ann_ctx.close()
    bob_ctx.close()
