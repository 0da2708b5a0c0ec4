"""The pages and game.js work under the content security policy: a real browser
reports no violation on the sign-in, new-game and game pages."""
import uuid

from tests.conftest import Player, start_game
from tests.e2e.conftest import sign_in


def test_no_page_breaks_the_content_security_policy(live, browser):
    players, game = start_game(lambda name: Player(live, f"csp-{name}-{uuid.uuid4().hex[:8]}@example.org"), 2)
    mover = players[int(next(iter(game["pending"])))]
    context, page = sign_in(live, browser, mover.email)
    violations = []
    page.on("console", lambda message: "Content Security Policy" in message.text and violations.append(message.text))
    for path in ("/games/new", f"/games/{game['id']}", "/sign-in"):
        page.goto(f"{live.base}{path}")
        page.wait_for_load_state("load")
        if path.startswith("/games/") and path != "/games/new":
            page.wait_for_selector("svg [data-square]")  # the drawn board, with its inline style
            page.click("[data-kind=leader]")  # game.js runs: the legal squares light up
            page.wait_for_selector("svg .legal")
    assert violations == []
    context.close()
