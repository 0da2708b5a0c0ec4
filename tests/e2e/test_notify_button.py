"""The "Notify me when it is my turn" button sits in the players panel, styled as the
page's other buttons, on a desktop and at a phone's width, and stays after the page
follows a move by itself."""
from tests.e2e.test_browser import put_opening, two_players_in_a_game

IN_PLAYERS_PANEL = "document.querySelector('#notify-me').closest('.panel').querySelector('h2').textContent"


def check_button(page):
    button = page.locator("#notify-me")
    assert button.is_visible()
    assert page.evaluate(IN_PLAYERS_PANEL) == "Players"
    looks = ("['borderRadius', 'borderTopColor', 'paddingLeft', 'backgroundColor']"
             ".map(k => getComputedStyle(document.querySelector('%s'))[k]).join()")
    assert page.evaluate(looks % "#notify-me") == page.evaluate(
        looks % "#leave form button:not(.danger)")  # as Vote to abandon
    box, panel = button.bounding_box(), page.locator("#notify-me >> xpath=ancestor::div[@class='panel']").bounding_box()
    assert panel["x"] <= box["x"] and box["x"] + box["width"] <= panel["x"] + panel["width"]
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_the_notify_button_is_in_the_players_panel(live, browser, screenshot):
    ann_ctx, ann, bob_ctx, bob, game_url, game_id = two_players_in_a_game(live, browser)
    put_opening(live, game_id)
    assert bob.evaluate("Notification.permission") == "default"  # the browser may still ask
    bob.goto(game_url)
    check_button(bob)
    bob.locator("#notify-me").scroll_into_view_if_needed()
    screenshot(bob, "desktop")

    phone = browser.new_context(viewport={"width": 375, "height": 740}, storage_state=bob_ctx.storage_state())
    small = phone.new_page()
    small.goto(game_url)
    check_button(small)
    small.locator("#notify-me").scroll_into_view_if_needed()
    screenshot(small, "phone")

    ann.goto(game_url)  # Ann's move: Bob's page swaps in the new content by itself
    ann.click("[data-kind=tile][data-color=black]")
    square = ann.get_attribute("svg [data-square].legal", "data-square")
    ann.click(f"svg [data-square={square}]")
    ann.click("#move-form button:has-text('Send')")
    ann.wait_for_selector("text=Move made.")
    bob.wait_for_selector(f"svg [data-square={square}][data-tile=black]", timeout=6000)
    check_button(bob)
    for ctx in (phone, ann_ctx, bob_ctx):
        ctx.close()
