"""A rated game made on the new-game page: once it ends, the game page shows each
player's rating beside the name, the name leads to the player's page, and that to
the game's leaderboard."""
import uuid

from openskill.models import PlackettLuce

from service import play
from service.auth import user_for_email
from service.db import transaction
from tests.e2e.conftest import sign_in


def test_ratings_on_the_game_page_player_page_and_leaderboard(live, browser, screenshot):
    creator, rival = (f"{who}-{uuid.uuid4().hex[:8]}@example.org" for who in ("rated", "rival"))
    context, page = sign_in(live, browser, creator)
    page.goto(f"{live.base}/games/new")
    page.select_option("select[name=players]", "2")
    page.fill("input[name=invite]", rival)
    page.check("input[name=rated]")
    page.click("button:has-text('Create and invite')")
    game_id = int(page.url.rstrip("/").split("/")[-1])
    engine = live.extensions["turnpost"]["database"]
    with transaction(engine) as db:  # the rival accepts, then resigns: the creator wins
        user = user_for_email(db, rival)
        game, _ = play.respond(db, game_id, user, True, play.load_game(db, game_id).version)
    with transaction(engine) as db:
        play.resign(db, game_id, user_for_email(db, rival), play.load_game(db, game_id).version)
    model = PlackettLuce()
    won, lost = (round(team[0].ordinal()) for team in model.rate([[model.rating()], [model.rating()]], ranks=[1, 2]))

    page.goto(f"{live.base}/games/{game_id}")
    players = page.inner_text("table.players")
    assert f"({won})" in players and f"({lost})" in players
    screenshot(page, "game-page")
    page.click(f"table.players a:has-text('{rival.split('@')[0]}')")
    page.wait_for_selector("h2:has-text('Ratings')")
    assert page.inner_text("table.ratings td.rating") == str(lost)
    screenshot(page, "player-page")
    page.click("table.ratings a")
    page.wait_for_selector("table.leaderboard")
    rows = page.inner_text("table.leaderboard")
    assert creator.split("@")[0] in rows and rival.split("@")[0] in rows and str(won) in rows
    screenshot(page, "leaderboard")
    context.close()
