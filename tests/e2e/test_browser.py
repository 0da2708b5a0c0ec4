"""Two players in two browsers: invitation, moves, a revolt defended from the
defender's own page, and an email link opened, confirmed and applied."""
import re
import uuid

from sqlmodel import select

from service.db import transaction
from service.models import Game, Notification, Seat, User
from tests.conftest import put_position
from tests.e2e.conftest import choose_and_send, sign_in
from tests.engine.tigris_positions import position, revolt_position
from workers.compose import compose


def emails():
    tag = uuid.uuid4().hex[:8]
    return f"ann-{tag}@example.org", f"bob-{tag}@example.org"


def engine_of(live):
    return live.extensions["turnpost"]["database"]


def test_two_players_create_join_and_fight_a_revolt(live, browser, screenshot):
    ann_email, bob_email = emails()
    ann_ctx, ann = sign_in(live, browser, ann_email)
    bob_ctx, bob = sign_in(live, browser, bob_email)
    with transaction(engine_of(live)) as db:  # user text on pages stays text
        db.exec(select(User).where(User.email == ann_email)).one().name = "<script>alert(1)</script>"

    ann.goto(f"{live.base}/games/new")
    ann.fill("input[name=title]", "Uruk <b>cup</b>")
    ann.select_option("select[name=players]", "2")
    ann.fill("input[name=invite]", bob_email)
    ann.click("button:has-text('Create and invite')")
    game_url = ann.url
    game_id = int(game_url.rstrip("/").split("/")[-1])
    assert "Uruk <b>cup</b>" in ann.inner_text("h1")  # shown as text, not markup

    bob.goto(game_url)
    bob.click("button:has-text('Accept the invitation')")
    bob.wait_for_selector("text=Players")
    screenshot(bob, "joined")
    assert "<script>alert(1)</script>" in bob.inner_text("table.players")

    # A turn each, played by clicking: a leader, then a tile, on highlighted squares.
    put_position(engine_of(live), game_id, position(
        players=2, tiles={"F5": "red", "K8": "red", "K11": "red", "O9": "red", "P2": "red"},
        treasures=["K11", "O9", "P2"], hands={0: {"red": 3, "black": 3}, 1: {"red": 3, "green": 3}}))
    for page, leader, color in ((ann, "king", "black"), (bob, "trader", "green")):
        page.goto(game_url)
        square = click_to_play(page, f"[data-kind=leader][data-leader={leader}]")
        assert page.get_attribute(f"svg [data-square={square}]", "data-leader") == leader
        square = click_to_play(page, f"[data-kind=tile][data-color={color}]")
        assert page.get_attribute(f"svg [data-square={square}]", "data-tile") == color
        screenshot(page, f"clicked-{leader}")
    board = {el.get_attribute("data-square"): el.get_attribute("data-tile")
             for el in bob.query_selector_all("svg [data-tile]")}
    with transaction(engine_of(live)) as db:
        rows = db.get(Game, game_id).state["board"]
    expected = {f"{'ABCDEFGHIJKLMNOP'[c]}{r + 1}": {"r": "red", "b": "blue", "g": "green", "k": "black"}[ch]
                for r, line in enumerate(rows) for c, ch in enumerate(line) if ch in "rbgk"}
    assert board == expected  # the drawn board is the stored board

    # A revolt position: Ann (seat 0) to act, Bob's priest on H5.
    put_position(engine_of(live), game_id, revolt_position({0: {"red": 3, "black": 3}, 1: {"red": 2, "blue": 4}}))
    ann.goto(game_url)
    ann.fill("#move-form input[name=text]", "leader priest H4")
    ann.click("#move-form button[type=submit]")
    ann.wait_for_selector("text=Move made.")
    choose_and_send(ann, "commit 2 supporters")
    screenshot(ann, "attacked")

    bob.goto(game_url)
    assert "You defend" in bob.inner_text("#decision")
    choose_and_send(bob, "commit 2 supporters")
    screenshot(bob, "defended")
    assert "won the red revolt" in bob.inner_text(".log")
    page_text = bob.content()
    assert "<script>alert(1)</script>" not in page_text and "&lt;script&gt;" in page_text
    ann_ctx.close()
    bob_ctx.close()


def click_to_play(page, tool):
    """Choose a tool, click the first highlighted square, play; returns the square."""
    page.click(tool)
    square = page.get_attribute("svg [data-square].legal", "data-square")
    assert square, "no square was highlighted"
    page.click(f"svg [data-square={square}]")
    assert page.input_value("#move-form input[name=text]").endswith(square)
    page.click("#move-form button[type=submit]")
    page.wait_for_selector("text=Move made.")
    return square


def test_a_stale_page_says_so_and_changes_nothing(live, browser):
    ann_ctx, ann, bob_ctx, bob, game_url, game_id = two_players_in_a_game(live, browser)
    with transaction(engine_of(live)) as db:
        row = db.get(Game, game_id)
        row.state = {**row.state, "turn": {**row.state["turn"], "active": 0}}
        row.version += 1
    ann.goto(game_url)
    with transaction(engine_of(live)) as db:
        row = db.get(Game, game_id)
        row.version += 1  # after the page was loaded, a move changed the decision Ann owes
        seat = db.exec(select(Seat).where(Seat.game_id == game_id, Seat.seat == 0)).one()
        seat.decision_version = row.version
        version, state = row.version, row.state
    ann.fill("#move-form input[name=text]", "swap " + next(c for c, n in state["players"][0]["hand"].items() if n))
    ann.click("#move-form button[type=submit]")
    ann.wait_for_selector("text=The game changed since you loaded this page")
    with transaction(engine_of(live)) as db:
        assert db.get(Game, game_id).version == version and db.get(Game, game_id).state == state
    ann_ctx.close()
    bob_ctx.close()


def start_two_player_game(live, ann, bob, bob_email):
    ann.goto(f"{live.base}/games/new")
    ann.select_option("select[name=players]", "2")
    ann.fill("input[name=invite]", bob_email)
    ann.click("button:has-text('Create and invite')")
    game_url = ann.url
    bob.goto(game_url)
    bob.click("button:has-text('Accept the invitation')")
    bob.wait_for_selector("text=Players")
    return game_url, int(game_url.rstrip("/").split("/")[-1])



def put_opening(live, game_id):
    """A quiet position for page tests: the four start temples, Ann (seat 0) to act
    holding 3 red and 3 black, Bob holding 6 blue."""
    put_position(engine_of(live), game_id, position(
        players=2, tiles={"F5": "red", "K11": "red", "O9": "red", "P2": "red"}, treasures=["K11", "O9", "P2"],
        hands={0: {"red": 3, "black": 3}, 1: {"blue": 6}}))

def two_players_in_a_game(live, browser, ann_email=None, bob_email=None):
    """Ann and Bob signed in, each in a browser context of their own, in a two-player
    Tigris game Ann created and Bob joined: (ann_ctx, ann, bob_ctx, bob, game_url, game_id)."""
    if ann_email is None:
        ann_email, bob_email = emails()
    ann_ctx, ann = sign_in(live, browser, ann_email)
    bob_ctx, bob = sign_in(live, browser, bob_email)
    game_url, game_id = start_two_player_game(live, ann, bob, bob_email)
    return ann_ctx, ann, bob_ctx, bob, game_url, game_id


def test_an_email_link_is_opened_confirmed_and_applied(live, browser, screenshot):
    ann_email, bob_email = emails()
    ann_ctx, ann, bob_ctx, bob, game_url, game_id = two_players_in_a_game(live, browser, ann_email, bob_email)
    put_position(engine_of(live), game_id, revolt_position({0: {"red": 3}, 1: {"red": 2}}))
    ann.goto(game_url)
    ann.fill("#move-form input[name=text]", "leader priest H4")
    ann.click("#move-form button[type=submit]")
    choose_and_send(ann, "commit 0 supporters")
    with transaction(engine_of(live)) as db:
        row = db.exec(select(Notification).where(Notification.email == bob_email, Notification.kind == "your_turn")
                      .order_by(Notification.id.desc())).first()
        mail = compose(db, live.extensions["turnpost"]["settings"], row)
        version = db.get(Game, game_id).version
    link = re.search(r"commit 1 supporter: (\S+)", mail.text).group(1)
    bob.goto(link)
    screenshot(bob, "confirm")
    with transaction(engine_of(live)) as db:
        assert db.get(Game, game_id).version == version  # opening the link changed nothing
    bob.click("button:has-text('Confirm')")
    bob.wait_for_selector("text=Your move was made")
    with transaction(engine_of(live)) as db:
        assert db.get(Game, game_id).version > version
    bob.goto(link)
    assert "out of date" in bob.inner_text("h1")
    ann_ctx.close()
    bob_ctx.close()
