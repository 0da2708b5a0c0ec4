"""The page behind an email's move link: the position it acts on, a plain warning
when the signed-in person is not the link's seat, and who won after the last move."""
from service.action_tokens import ActionToken, make_token
from service.db import transaction
from service.models import Game
from tests.conftest import put_position
from tests.e2e.test_browser import emails, engine_of, two_players_in_a_game
from tests.engine.tigris_positions import position


def link(live, game_id, seat, version, move):
    return f"{live.base}/a/{make_token('browser-secret', ActionToken(game_id, seat, version, move))}"


def test_the_confirm_page_shows_the_board_warns_another_person_and_done_names_the_winner(live, browser, screenshot):
    ann_email, bob_email = emails()
    ann_ctx, ann, bob_ctx, bob, game_url, game_id = two_players_in_a_game(live, browser, ann_email, bob_email)
    # Bob (seat 1) to play his last action; the bag is empty, so the game ends with it.
    version = put_position(engine_of(live), game_id, position(
        players=2, active=1, actions_left=1, tiles={"F5": "red", "K11": "red", "O9": "red", "P2": "red"},
        treasures=["K11", "O9", "P2"], leaders={1: {"king": "F6"}},
        hands={0: {"red": 3}, 1: {"black": 3}}, bag={"red": 0}))
    url = link(live, game_id, 1, version, "tile black G6")

    ann.goto(url)  # Ann holds Bob's link
    warning = ann.inner_text("#not-your-seat")
    assert f"signed in as {ann_email}" in warning and "belongs to bob-" in warning
    assert ann.locator(".board svg [data-square=F6][data-leader=king]").count() == 1  # the position itself
    screenshot(ann, "someone-else")

    bob.goto(url)
    assert bob.locator("#not-your-seat").count() == 0
    assert bob.locator(".board svg [data-square=F5][data-tile=red]").count() == 1
    assert "black settlement on G6" in bob.inner_text("main")
    screenshot(bob, "confirm")
    bob.click("button:has-text('Confirm')")
    bob.wait_for_selector("h1:has-text('Done')")
    text = bob.inner_text("main")
    assert "The game is over." in text and "bob-" in text and "won" in text
    with transaction(engine_of(live)) as db:
        assert db.get(Game, game_id).status == "finished"
    screenshot(bob, "done")
    ann_ctx.close()
    bob_ctx.close()
