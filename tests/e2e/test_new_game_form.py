"""The new-game form: games by their names, each game's options, the API's settings,
and what was typed kept when the form comes back with an error."""
from service.db import transaction
from service.models import Game
from tests.e2e.conftest import sign_in
from tests.e2e.test_browser import emails, engine_of


def test_the_form_keeps_what_was_typed_and_creates_with_every_setting(live, browser, screenshot):
    ann_email, bob_email = emails()
    ann_ctx, ann = sign_in(live, browser, ann_email)
    ann.goto(f"{live.base}/games/new")
    labels = ann.locator("select[name=game] option").all_inner_texts()
    assert "Tigris & Euphrates" in labels and "Euphrat & Tigris: the card game" in labels
    assert not ann.is_visible("fieldset[data-game=euphrat-cards]")  # only the chosen game's options
    ann.fill("input[name=title]", "Friday game")
    ann.select_option("select[name=players]", "2")
    ann.fill("input[name=invite]", bob_email)
    ann.check("input[name=option-tigris-open_scoring]")
    ann.select_option("select[name=option-tigris-board]", "advanced")
    ann.check("input[name=spectators]")
    ann.select_option("select[name=seat_order]", "random")
    ann.select_option("select[name=timeout_policy]", "forfeit")
    ann.fill("input[name=days_per_decision]", "two")
    ann.click("button:has-text('Create and invite')")
    ann.wait_for_selector("text=days per decision must be a number of days from 0.001 to 90, not 'two'")
    screenshot(ann, "kept")
    assert ann.input_value("input[name=title]") == "Friday game" and ann.input_value("input[name=invite]") == bob_email
    assert ann.is_checked("input[name=option-tigris-open_scoring]") and ann.is_checked("input[name=spectators]")
    assert ann.input_value("select[name=option-tigris-board]") == "advanced"
    assert ann.input_value("select[name=seat_order]") == "random" and ann.input_value("select[name=players]") == "2"

    ann.fill("input[name=days_per_decision]", "2")
    ann.fill("input[name=extra_days]", "0.5")
    ann.fill("input[name=max_days]", "5")
    ann.click("button:has-text('Create and invite')")
    ann.wait_for_selector("h1:has-text('Friday game')")
    game_id = int(ann.url.rstrip("/").split("/")[-1])
    with transaction(engine_of(live)) as db:
        game = db.get(Game, game_id)
        assert game.options["open_scoring"] is True and game.options["board"] == "advanced"
        assert game.spectators and game.seat_order == "random" and game.timeout_policy == "forfeit"
        assert game.time_control == {"initial_seconds": 2 * 86400, "extension_seconds": 43200, "cap_seconds": 5 * 86400}
    ann_ctx.close()


def test_the_card_games_options_are_offered_when_it_is_chosen(live, browser):
    ann_email, _ = emails()
    ann_ctx, ann = sign_in(live, browser, ann_email)
    ann.goto(f"{live.base}/games/new")
    ann.select_option("select[name=game]", "euphrat-cards")
    assert ann.is_visible("input[name=option-euphrat-cards-open_scoring]")
    assert not ann.is_visible("select[name=option-tigris-board]")
    ann.select_option("select[name=players]", "2")
    ann.click("button:has-text('Create and invite')")
    game_id = int(ann.url.rstrip("/").split("/")[-1])
    with transaction(engine_of(live)) as db:
        game = db.get(Game, game_id)
        assert game.game_type == "euphrat-cards" and game.options == {"two_player_trim": True, "open_scoring": False}
    ann_ctx.close()
