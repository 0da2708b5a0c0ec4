"""From the game page: invite another player or cancel before the start; resign or
vote to abandon during the game; each form carries the version (stale -> says so)."""
from sqlmodel import select

from service.db import transaction
from service.models import Game, Seat
from tests.e2e.conftest import sign_in
from tests.e2e.test_browser import emails, engine_of


def test_the_creator_invites_a_missing_player_then_the_game_starts(live, browser, screenshot):
    ann_email, bob_email = emails()
    ann_ctx, ann = sign_in(live, browser, ann_email)
    bob_ctx, bob = sign_in(live, browser, bob_email)
    ann.goto(f"{live.base}/games/new")
    ann.select_option("select[name=players]", "2")
    ann.click("button:has-text('Create and invite')")  # nobody invited yet
    game_url = ann.url
    assert "1 of 2 seats taken" in ann.inner_text("main")
    ann.fill(".invite input[name=email]", bob_email)
    ann.click(".invite button:has-text('Invite')")
    ann.wait_for_selector(f"text={bob_email} is invited")
    screenshot(ann, "invited")
    bob.goto(game_url)
    bob.click("button:has-text('Accept the invitation')")
    bob.wait_for_selector("text=Your hand")
    assert ann.locator("button:has-text('Cancel the game')").count() == 0 or "active" in bob.inner_text("h1")
    ann_ctx.close()
    bob_ctx.close()


def test_the_creator_cancels_an_open_game_and_a_stale_form_changes_nothing(live, browser):
    ann_email, _ = emails()
    ann_ctx, ann = sign_in(live, browser, ann_email)
    ann.goto(f"{live.base}/games/new")
    ann.select_option("select[name=players]", "2")
    ann.click("button:has-text('Create and invite')")
    game_id = int(ann.url.rstrip("/").split("/")[-1])
    with transaction(engine_of(live)) as db:
        db.get(Game, game_id).version += 1  # changed after the page was drawn
    ann.click("button:has-text('Cancel the game')")
    ann.wait_for_selector("text=The game changed since you loaded this page")
    with transaction(engine_of(live)) as db:
        assert db.get(Game, game_id).status == "open"
    ann.click("button:has-text('Cancel the game')")
    ann.wait_for_selector("text=The game is cancelled.")
    assert "abandoned" in ann.inner_text("h1")
    ann_ctx.close()


def test_players_vote_to_abandon_and_resign_from_the_page(live, browser, screenshot):
    ann_email, bob_email = emails()
    carl_email = f"carl-{ann_email}"
    contexts = [sign_in(live, browser, e) for e in (ann_email, bob_email, carl_email)]
    (ann_ctx, ann), (bob_ctx, bob), (carl_ctx, carl) = contexts
    ann.goto(f"{live.base}/games/new")
    ann.select_option("select[name=players]", "3")
    ann.fill("input[name=invite]", f"{bob_email} {carl_email}")
    ann.click("button:has-text('Create and invite')")
    game_url = ann.url
    game_id = int(game_url.rstrip("/").split("/")[-1])
    for page in (bob, carl):
        page.goto(game_url)
        page.click("button:has-text('Accept the invitation')")
        page.wait_for_selector("text=Players")
    ann.goto(game_url)
    ann.click("button:has-text('Vote to abandon')")
    ann.wait_for_selector("text=Your vote to abandon is counted")
    assert "You voted to abandon (1 of 3 votes)" in ann.inner_text("#leave")
    carl.goto(game_url)
    carl.click("#leave summary")
    carl.click("button:has-text('Resign now')")
    carl.wait_for_selector("text=You resigned from the game.")
    assert "resigned" in carl.inner_text("table.players")
    bob.goto(game_url)
    screenshot(bob, "before-vote")
    bob.click("button:has-text('Vote to abandon (1 voted)')")
    bob.wait_for_selector("text=Your vote to abandon is counted")
    assert "abandoned" in bob.inner_text("h1")  # Ann and Bob are every player still in the game
    with transaction(engine_of(live)) as db:
        assert db.get(Game, game_id).status == "abandoned"
        assert db.exec(select(Seat).where(Seat.game_id == game_id, Seat.email == carl_email)).one().resigned
    for ctx, _ in contexts:
        ctx.close()


def test_a_game_waiting_for_players_gives_its_panels_the_width_and_the_invitee_the_reason(live, browser,
                                                                                          screenshot):
    """Before the start there is no board: the panels start at the page's left edge
    instead of beside an empty column; the invitee is told that accepting lets him write
    to the table (he is no spectator)."""
    ann_email, bob_email = emails()
    ann_ctx, ann = sign_in(live, browser, ann_email)
    bob_ctx, bob = sign_in(live, browser, bob_email)
    ann.goto(f"{live.base}/games/new")
    ann.select_option("select[name=game]", "eden")
    ann.select_option("select[name=players]", "3")
    ann.fill("input[name=invite]", bob_email)
    ann.click("button:has-text('Create and invite')")
    game_url = ann.url
    ann.set_viewport_size({"width": 1280, "height": 900})
    ann.goto(game_url)
    screenshot(ann, "creator")
    waiting = ann.locator(".panel:has(h2:text-is('Waiting for players'))").bounding_box()
    heading = ann.locator("h1").bounding_box()
    assert ann.locator(".board").count() == 0 and abs(waiting["x"] - heading["x"]) <= 2
    players = ann.locator(".panel:has(h2:text-is('Players'))").bounding_box()
    assert players["y"] < waiting["y"] + waiting["height"]  # beside it, not below
    assert ann.locator("#table-talk").bounding_box()["y"] >= waiting["y"] + waiting["height"] + 8
    bob.goto(game_url)
    talk = bob.inner_text("#table-talk")
    assert "Accept the invitation to write to the table" in talk and "Spectators" not in talk
    screenshot(bob, "invitee")
    ann_ctx.close()
    bob_ctx.close()
