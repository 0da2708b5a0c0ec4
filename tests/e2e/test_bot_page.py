"""The new-game page seats bots: a game of one person and a bot starts at once."""
import uuid

from sqlmodel import select

from service.db import transaction
from service.models import Game, Seat
from tests.e2e.conftest import sign_in


def test_a_game_against_a_bot_from_the_new_game_page(live, browser, screenshot):
    context, page = sign_in(live, browser, f"solo-{uuid.uuid4().hex[:8]}@example.org")
    page.goto(f"{live.base}/games/new")
    page.select_option("select[name=game]", "euphrat-cards")
    page.select_option("select[name=players]", "2")
    page.select_option("select[name=bots]", "1")
    page.select_option("select[name=bot_kind]", "random")
    page.click("button:has-text('Create and invite')")
    game_id = int(page.url.rstrip("/").split("/")[-1])
    page.wait_for_selector("text=Players")
    screenshot(page, "against-a-bot")
    assert "random bot 1" in page.inner_text("table.players")
    assert "accepted" not in page.inner_text("table.players")  # an invitation's answer is for an open game
    with transaction(live.extensions["turnpost"]["database"]) as db:
        assert db.get(Game, game_id).status == "active"
        assert [s.bot for s in db.exec(select(Seat).where(Seat.game_id == game_id)) if s.bot] == ["random"]
    context.close()
