"""The Tigris game page played by clicking only: highlighted squares, a preview under
the pointer, a staged move with Undo before Send, a revolt's support on both sides."""
from tests.conftest import put_position
from tests.e2e.conftest import choose_and_send, sign_in
from tests.e2e.test_browser import emails, engine_of, put_opening, two_players_in_a_game
from tests.engine.tigris_positions import REVOLT_TILES, position


def test_a_chosen_tile_highlights_previews_stages_and_undoes(live, browser, screenshot):
    ann_ctx, ann, bob_ctx, bob, game_url, game_id = two_players_in_a_game(live, browser)
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
    assert ann.inner_text("#staged-text").startswith("You chose: ") and square in ann.inner_text("#staged-text")
    assert "black" in ann.inner_text("#staged-text")
    screenshot(ann, "staged")
    ann.click("#undo-move")
    assert not ann.is_visible("#staged") and ann.input_value("#move-form input[name=text]") == ""
    assert ann.locator(".legal-highlight").count() == highlighted  # still choosing, nothing sent

    ann.click(f"svg [data-square={square}]")
    ann.click("#move-form button:has-text('Send')")
    ann.wait_for_selector("text=Move made.")
    assert ann.get_attribute(f"svg [data-square={square}]", "data-tile") == "black"
    # The last move is marked on the board, on every player's page.
    for page in (ann, bob):
        page.goto(game_url)
        assert page.get_attribute(".board", "data-last-move") == square
        assert "last-move" in page.get_attribute(f"svg [data-square={square}]", "class").split()
        assert page.locator(".last-move-mark").count() == 1
    screenshot(bob, "last-move")
    ann_ctx.close()
    bob_ctx.close()


def test_the_other_players_page_follows_moves_without_reloading(live, browser, screenshot):
    ann_ctx, ann, bob_ctx, bob, game_url, game_id = two_players_in_a_game(live, browser)
    put_opening(live, game_id)
    ann.goto(game_url)
    bob.goto(game_url)
    bob.evaluate("window.loadedOnce = true")
    assert not bob.title().startswith("(Your turn)") and ann.title().startswith("(Your turn)")
    assert "Waiting for the other players" in bob.inner_text("#live-status")

    for color in ("black", "red"):  # Ann's two actions end her turn
        ann.click(f"[data-kind=tile][data-color={color}]")
        square = ann.get_attribute("svg [data-square].legal", "data-square")
        ann.click(f"svg [data-square={square}]")
        ann.click("#move-form button:has-text('Send')")
        ann.wait_for_selector("text=Move made.")
        bob.wait_for_selector(f"svg [data-square={square}][data-tile={color}]", timeout=6000)
    bob.wait_for_function("document.title.startsWith('(Your turn)')", timeout=6000)
    assert bob.evaluate("window.loadedOnce") is True  # updated in place, never reloaded
    assert "It is your turn" in bob.inner_text("#live-status")
    assert bob.evaluate("document.querySelector('link[rel=icon]').href").count("d9480f")  # the favicon's badge
    screenshot(bob, "your-turn")
    bob.click("[data-kind=tile][data-color=blue]")  # the swapped-in page plays as before
    assert bob.locator(".legal-highlight").count() > 0
    ann.wait_for_function("!document.title.startsWith('(Your turn)')", timeout=6000)
    ann_ctx.close()
    bob_ctx.close()


def test_the_version_endpoint_is_for_the_games_players(live, browser):
    ann_ctx, ann, bob_ctx, bob, game_url, game_id = two_players_in_a_game(live, browser)
    answer = ann.request.get(f"{game_url}/version")
    assert answer.status == 200 and answer.json()["version"] >= 1
    outsider_ctx, _ = sign_in(live, browser, f"eve-{emails()[0]}")
    answer = outsider_ctx.request.get(f"{game_url}/version")
    assert answer.status == 403 and "players" in answer.json()["message"]
    for ctx in (ann_ctx, bob_ctx, outsider_ctx):
        ctx.close()


def play_by_clicking(page, tool):
    """Choose a tool, click the first highlighted square, send; returns the square."""
    page.click(tool)
    square = page.get_attribute("svg [data-square].legal", "data-square")
    page.click(f"svg [data-square={square}]")
    page.click("#move-form button:has-text('Send')")
    page.wait_for_selector("text=Move made.")
    return square


def test_a_short_game_played_by_clicking_only(live, browser, screenshot):
    ann_ctx, ann, bob_ctx, bob, game_url, game_id = two_players_in_a_game(live, browser)
    # Two tiles left in the bag: the game ends when Bob's turn cannot be refilled.
    put_position(engine_of(live), game_id, position(
        players=2, tiles={"F5": "red", "K11": "red", "O9": "red", "P2": "red"}, treasures=["K11", "O9", "P2"],
        hands={0: {"red": 3, "black": 3}, 1: {"black": 3, "blue": 3}}, bag={"red": 2}))
    ann.goto(game_url)
    bob.goto(game_url)
    table = ann.inner_text("#table-state")
    assert "Round 3" in table and "2 tiles in the bag" in table and "6 of 6 monuments left" in table
    assert "Leaders in supply: farmer, king, priest, trader" in table and "Catastrophes left: 2" in table
    assert "Treasures: 0" in table and "to play" in ann.inner_text("#table-state .dynasty[data-seat='0']")

    play_by_clicking(ann, "[data-kind=tile][data-color=black]")
    play_by_clicking(ann, "[data-kind=leader][data-leader=king]")
    assert "Leaders in supply: farmer, priest, trader" in ann.inner_text("#table-state .dynasty[data-seat='0']")
    log = ann.inner_text(".log")
    assert "ROUND 3" in log.upper() and "turn is over" in log
    assert "drew 1 red" in log  # her own private draw is in her log
    bob.wait_for_selector("text=It is your turn", timeout=6000)
    assert "Round 3" in bob.inner_text("#table-state") and "drew 1 red" not in bob.inner_text(".log")
    play_by_clicking(bob, "[data-kind=tile][data-color=blue]")
    play_by_clicking(bob, "[data-kind=tile][data-color=black]")
    assert "finished" in bob.inner_text("h1")
    ann.wait_for_selector("#result", timeout=6000)
    winner = ann.inner_text("#result .winner")
    assert "won" in winner or "tie" in winner
    screenshot(ann, "finished")
    ann_ctx.close()
    bob_ctx.close()


def test_a_short_game_with_a_revolt_played_by_clicking_only(live, browser, screenshot):
    ann_email, bob_email = emails()
    ann_ctx, ann, bob_ctx, bob, game_url, game_id = two_players_in_a_game(live, browser, ann_email, bob_email)
    # Bob's priest on H5 between two temples, H4 free for Ann's priest; the bag holds
    # just the refills of Ann's turn, so the game ends when Bob's cannot be refilled.
    put_position(engine_of(live), game_id, position(
        players=2, tiles=REVOLT_TILES, treasures=["K11", "O9", "P2"], leaders={1: {"priest": "H5"}},
        hands={0: {"red": 3, "black": 3}, 1: {"red": 2, "blue": 4}}, bag={"red": 4}))
    ann.goto(game_url)
    bob.goto(game_url)

    ann.click("[data-kind=leader][data-leader=priest]")
    assert "legal" in ann.get_attribute("svg [data-square=H4]", "class")
    ann.click("svg [data-square=H4]")
    ann.click("#move-form button:has-text('Send')")
    ann.wait_for_selector("text=Move made.")
    assert "You attack in a red revolt" in ann.inner_text("#decision")
    screenshot(ann, "revolt-attacker")
    # A choice stages its move: nothing is sent before Send, and Undo takes it back.
    ann.click("#decision form.choice button:has-text('commit 1 supporter')")
    assert ann.inner_text("#staged-text") == "You chose: commit 1 supporter"
    assert ann.get_attribute("#decision form.choice button:has-text('commit 1 supporter')", "aria-pressed") == "true"
    screenshot(ann, "choice-staged")
    ann.click("#undo-move")
    assert not ann.is_visible("#staged") and ann.input_value("#move-form input[name=text]") == ""
    assert "You attack in a red revolt" in ann.inner_text("#decision")  # still owed: nothing was sent
    # A game's own control stages a move it built the same way.
    text = ann.get_attribute("#decision form.choice:has(button:has-text('commit 2 supporters')) input[name=text]",
                             "value")
    ann.evaluate("([text]) => window.turnpostStage(text, 'two of my supporters')", [text])
    assert ann.inner_text("#staged-text") == "You chose: two of my supporters"
    assert ann.input_value("#move-form input[name=text]") == text
    ann.click("#undo-move")
    choose_and_send(ann, "commit 2 supporters")

    bob.wait_for_selector("#decision >> text=You defend in a red revolt", timeout=6000)  # followed live
    assert "plus 2 committed" in bob.inner_text("#decision")
    screenshot(bob, "revolt-defender")
    choose_and_send(bob, "commit 1 supporter")
    assert "won the red revolt 4 to 3" in bob.inner_text(".log")
    assert bob.get_attribute("svg [data-square=H5]", "data-leader") is None  # his priest went home

    ann.wait_for_selector("#decision >> text=Take your second action of round 3", timeout=6000)
    assert ann.get_attribute("svg [data-square=H4]", "data-leader") == "priest"
    play_by_clicking(ann, "[data-kind=tile][data-color=black]")
    screenshot(ann, "after-revolt")
    bob.wait_for_selector("text=It is your turn", timeout=6000)
    play_by_clicking(bob, "[data-kind=tile][data-color=blue]")
    play_by_clicking(bob, "[data-kind=tile][data-color=blue]")
    assert "finished" in bob.inner_text("h1") and "bag ran out of tiles" in bob.inner_text(".log")
    ann.wait_for_selector("#result", timeout=6000)
    assert ann.inner_text("#result .winner") == f"{ann_email.split('@')[0]} won."
    # The result comes first, with each place and its score, and the players' table
    # gives each one's place instead of the invitation's answer.
    assert ann.get_attribute("aside > .panel >> nth=0", "id") == "result"
    places = ann.inner_text("#result ol.final-ranking").split("\n")
    assert [line.split(" — ")[0] for line in places] == [ann_email.split("@")[0], bob_email.split("@")[0]]
    assert all(" — colours from weakest: " in line for line in places), places
    players = ann.inner_text("table.players")
    assert "place 1" in players and "place 2" in players and "accepted" not in players
    assert "seat 0" in players and "seat 1" in players  # the legend names the dynasties by seat
    screenshot(ann, "finished")
    ann_ctx.close()
    bob_ctx.close()


def test_the_squares_a_tool_may_go_to_are_buttons_named_by_their_move(live, browser, screenshot):
    """With a tool chosen, each highlighted square is reached with the keyboard as a
    button named by the move it makes, and Enter stages that move; the others are not."""
    ann_ctx, ann, bob_ctx, bob, game_url, game_id = two_players_in_a_game(live, browser)
    put_opening(live, game_id)
    ann.goto(game_url)
    ann.click("[data-kind=tile][data-color=black]")
    square = ann.get_attribute("svg [data-square].legal", "data-square")
    name = ann.get_attribute(f"svg [data-square={square}]", "aria-label")
    assert name and square in name and "black" in name
    button = ann.get_by_role("button", name=name, exact=True)
    assert button.count() == 1
    assert ann.get_by_role("button", name=square, exact=True).count() == 0  # not named by the square alone
    assert ann.locator("svg [data-square]:not(.legal)[role=button]").count() == 0
    button.focus()
    ann.keyboard.press("Enter")
    assert ann.inner_text("#staged-text") == f"You chose: {name}"
    ann.click("[data-kind=tile][data-color=black]")  # the tool put down: no square is a button
    assert ann.locator("svg [data-square][role=button]").count() == 0
    ann_ctx.close()
    bob_ctx.close()
