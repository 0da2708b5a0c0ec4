"""The page following the game by itself never throws away what the player is doing:
a staged move, a chosen tool or typed text wait until sent or undone (sending an
outdated move says so and changes nothing), and the log stays where it was read."""
from tests.e2e.test_browser import put_opening, two_players_in_a_game

SHORT_LOG = ".log { max-height: 2.5rem; }"  # a log that scrolls after a move or two


def send_text(page, game_url, text):
    page.goto(game_url)
    page.fill("#move-form input[name=text]", text)
    page.click("#move-form button:has-text('Send')")
    page.wait_for_selector("text=Move made.")


def test_a_live_update_keeps_the_staged_move_typed_text_and_log_position(live, browser, screenshot):
    ann_ctx, ann, bob_ctx, bob, game_url, game_id = two_players_in_a_game(live, browser)
    put_opening(live, game_id)
    other_tab = ann_ctx.new_page()  # Ann plays from a second tab meanwhile
    bob.goto(game_url)
    bob.add_style_tag(content=SHORT_LOG)

    ann.goto(game_url)
    ann.click("[data-kind=tile][data-color=black]")
    square = ann.get_attribute("svg [data-square].legal", "data-square")
    ann.click(f"svg [data-square={square}]")
    send_text(other_tab, game_url, f"tile black {square}")  # the staged move is taken
    ann.wait_for_selector("#show-update", timeout=6000)
    assert ann.is_visible("#staged") and ann.input_value("#move-form input[name=text]") == f"tile black {square}"
    assert ann.get_attribute("[data-kind=tile][data-color=black]", "aria-pressed") == "true"
    assert "moved on" in ann.inner_text("#live-status")
    screenshot(ann, "staged-kept")
    ann.click("#move-form button:has-text('Send')")
    ann.wait_for_selector("text=The game changed since you loaded this page")
    assert "Nothing was changed" in ann.inner_text("p.flash")
    assert ann.get_attribute(f"svg [data-square={square}]", "data-tile") == "black"
    assert "1 action left" in ann.inner_text("#table-state")  # her other tab's move only

    bob.wait_for_selector(f"svg [data-square={square}][data-tile=black]", timeout=6000)
    bob.evaluate("document.querySelector('#live .log').scrollTop = 0")  # reading from the top
    assert bob.evaluate("(l => l.scrollHeight > l.clientHeight)(document.querySelector('#live .log'))")

    ann.fill("#move-form input[name=text]", "tile red C3")  # typed, not sent
    send_text(other_tab, game_url, "tile red B11")
    ann.wait_for_selector("#show-update", timeout=6000)
    assert ann.input_value("#move-form input[name=text]") == "tile red C3"
    bob.wait_for_selector("text=It is your turn", timeout=6000)
    assert bob.evaluate("document.querySelector('#live .log').scrollTop") == 0  # still where he read
    assert "red temple on B11" in bob.inner_text("#live .log")  # the new content is in

    ann.fill("#move-form input[name=text]", "")  # nothing left to keep: the update shows
    ann.wait_for_selector("text=Waiting for the other players", timeout=6000)
    assert ann.locator("#show-update").count() == 0
    assert ann.get_attribute("svg [data-square=B11]", "data-tile") == "red"
    screenshot(ann, "updated")
    ann_ctx.close()
    bob_ctx.close()
