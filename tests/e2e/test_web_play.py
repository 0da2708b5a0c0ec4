"""The Tigris game page played by clicking only: highlighted squares, a preview under
the pointer, a staged move with Undo before Send."""
from tests.conftest import put_position
from tests.e2e.conftest import sign_in
from tests.e2e.test_browser import emails, engine_of, start_two_player_game
from tests.engine.tigris_positions import position


def test_a_chosen_tile_highlights_previews_stages_and_undoes(live, browser, screenshot):
    ann_email, bob_email = emails()
    ann_ctx, ann = sign_in(live, browser, ann_email)
    bob_ctx, bob = sign_in(live, browser, bob_email)
    game_url, game_id = start_two_player_game(live, ann, bob, bob_email)
    put_position(engine_of(live), game_id, position(
        players=2, tiles={"F5": "red", "K8": "red"}, hands={0: {"red": 3, "black": 3}, 1: {"blue": 6}}))
    ann.goto(game_url)
    assert ann.locator(".legal-highlight").count() == 0
    ann.click("[data-kind=tile][data-color=black]")
    highlighted = ann.locator(".legal-highlight").count()
    assert highlighted == ann.locator("svg [data-square].legal").count() > 0
    square = ann.get_attribute("svg [data-square].legal", "data-square")
    ann.hover(f"svg [data-square={square}]")
    assert ann.locator(".play-overlay g[opacity='0.55']").count() == 1  # the piece under the pointer
    screenshot(ann, "preview")

    ann.click(f"svg [data-square={square}]")
    assert ann.is_visible("#staged") and ann.input_value("#move-form input[name=text]").endswith(square)
    assert "black" in ann.inner_text("#chosen-move") and square in ann.inner_text("#chosen-move")
    screenshot(ann, "staged")
    ann.click("#undo-move")
    assert not ann.is_visible("#staged") and ann.input_value("#move-form input[name=text]") == ""
    assert ann.locator(".legal-highlight").count() == highlighted  # still choosing, nothing sent

    ann.click(f"svg [data-square={square}]")
    ann.click("#move-form button:has-text('Send')")
    ann.wait_for_selector("text=Move made.")
    assert ann.get_attribute(f"svg [data-square={square}]", "data-tile") == "black"
    ann_ctx.close()
    bob_ctx.close()
