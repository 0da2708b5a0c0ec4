"""Tigris's key to the board at a phone's width: the drawing's own key would shrink to a
few pixels, so the page gives it in words and large letters instead; on a wide screen
the drawing's key stays and the words are not repeated."""
from tests.e2e.test_browser import put_opening, two_players_in_a_game


def font_size(page, selector: str) -> float:
    return page.evaluate(f"parseFloat(getComputedStyle(document.querySelector({selector!r})).fontSize)")


def test_the_key_to_the_board_is_readable_at_a_phones_width(live, browser, screenshot):
    ann_ctx, ann, bob_ctx, bob, game_url, game_id = two_players_in_a_game(live, browser)
    put_opening(live, game_id)
    phone = browser.new_context(viewport={"width": 375, "height": 740}, storage_state=ann_ctx.storage_state())
    page = phone.new_page()
    page.goto(game_url)
    assert not page.locator(".tigris-board .legend").is_visible()
    page.click(".tigris-key summary")
    key = page.inner_text(".tigris-key")
    for words in ("temple (red) tile", "priest", "settlement (black) tile", "king", "treasure taken first",
                  "catastrophe", "unification tile"):
        assert words in key
    assert font_size(page, ".tigris-key li") >= 12
    screenshot(page, "phone")
    # The drawing ends at the board's last row of labels: no empty strip where its key was.
    board = page.locator(".tigris-board").bounding_box()
    assert abs(board["height"] - board["width"] * 576 / 816) <= 2
    labels = page.evaluate("Math.max(...[...document.querySelectorAll('.tigris-board text')]"
                           ".filter(t => !t.closest('.legend')).map(t => t.getBoundingClientRect().bottom))")
    assert board["y"] + board["height"] - labels <= 20

    ann.set_viewport_size({"width": 1280, "height": 900})
    ann.goto(game_url)
    assert ann.locator(".tigris-board .legend").is_visible() and not ann.locator(".tigris-key").is_visible()
    board = ann.locator(".tigris-board").bounding_box()
    assert abs(board["height"] - board["width"] * 656 / 816) <= 2  # with its key, at full height
    for ctx in (phone, ann_ctx, bob_ctx):
        ctx.close()
