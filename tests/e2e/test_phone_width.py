"""At a phone's width (375 px) the pages fit: nothing wider than the screen, the board
scaled down, the side panel below it."""
from tests.e2e.test_browser import put_opening, two_players_in_a_game


def fits(page):
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_the_pages_fit_a_phone(live, browser, screenshot):
    ann_ctx, ann, bob_ctx, bob, game_url, game_id = two_players_in_a_game(live, browser)
    put_opening(live, game_id)
    phone = browser.new_context(viewport={"width": 375, "height": 740}, storage_state=ann_ctx.storage_state())
    page = phone.new_page()
    for path, name in ((game_url, "game"), (f"{live.base}/", "my-games"), (f"{live.base}/games/new", "new-game"),
                       (f"{live.base}/tokens", "tokens")):
        page.goto(path)
        screenshot(page, name)
        assert fits(page), f"{name} is wider than the phone"
    page.goto(game_url)
    board = page.locator(".board svg").bounding_box()
    panel = page.locator("#decision").bounding_box()
    assert board["width"] <= 375 and panel["y"] >= board["y"] + board["height"]  # the panel comes below
    page.click("[data-kind=tile][data-color=black]")
    assert page.locator(".legal-highlight").count() > 0
    for ctx in (phone, ann_ctx, bob_ctx):
        ctx.close()
