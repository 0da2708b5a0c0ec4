"""An Eden turn in two browsers: a card played on the board by clicking, an
acquisition contested by clicking, the bidding done with the page's bid control and
its accept button, and a cultivation card turned by clicking its square again."""
from service.db import transaction
from service.models import Game
from tests.conftest import put_position
from tests.e2e.conftest import sign_in
from tests.e2e.test_browser import emails, engine_of
from tests.engine.eden_positions import position


def play_typed_or_clicked(page):
    page.click("#move-form button[type=submit]")
    page.wait_for_selector("text=Move made.")


def click_and_send(page, selector: str):
    """Click a choice or the bid control's button: where the page stages moves (Send and
    Undo), the move waits, staged, for Send; else the click posts it."""
    staging = page.evaluate("typeof window.turnpostStage === 'function'")
    if staging:
        page.click(selector)
        assert page.locator("#staged").is_visible()
        selector = "#move-form button.send"
    with page.expect_navigation():
        page.click(selector)
    page.wait_for_selector("text=Move made.")


SMALL_TEXT = """(within) => {
  // Every visible element with text of its own whose letters show under 12 px (an SVG's
  // letters scaled as the drawing is), as "tag: text (size)".
  const small = [];
  for (const element of document.querySelectorAll(within)) {
    if (!element.getClientRects().length) continue;
    const own = [...element.childNodes].filter(n => n.nodeType === 3 && n.textContent.trim()).length;
    if (!own) continue;
    let size = parseFloat(getComputedStyle(element).fontSize);
    const svg = element.closest("svg");
    if (svg && svg.viewBox.baseVal && svg.viewBox.baseVal.width) {
      size *= svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    }
    if (size < 12) small.push(`${element.tagName}: ${element.textContent.trim().slice(0, 30)} (${size.toFixed(1)})`);
  }
  return small;
}"""
EDEN_PARTS = ".board svg text, #decision *, .eden-unplayable *, .eden-card-texts *, .hand-cards *"


def bid_with_the_control(page, amount: int, points: int):
    page.fill("#eden-bid-amount", str(amount))
    assert page.inner_text("#eden-bid-cost") == f"{amount} x {points} = {amount * points}"
    click_and_send(page, "#eden-bid-button")


def test_an_eden_turn_with_an_acquisition_is_played_by_clicking(live, browser, screenshot):
    ann_email, bob_email = emails()
    ann_ctx, ann = sign_in(live, browser, ann_email)
    bob_ctx, bob = sign_in(live, browser, bob_email)
    ann.goto(f"{live.base}/games/new")
    ann.select_option("select[name=game]", "eden")
    described = ann.inner_text("fieldset[data-game=eden]")
    assert "Eden (Gal Zuckerman)" in described and "provisional" in described
    ann.select_option("select[name=players]", "2")
    ann.fill("input[name=invite]", bob_email)
    ann.click("button:has-text('Create and invite')")
    game_url = ann.url
    game_id = int(game_url.rstrip("/").split("/")[-1])
    bob.goto(game_url)
    bob.click("button:has-text('Accept the invitation')")
    bob.wait_for_selector("text=Players")

    put_position(engine_of(live), game_id, position(
        {"C4": "y1", "A1": "r1", "B1": "r1", "A2": "r1"}, hands={0: ["B4", "K3"], 1: ["G7"]},
        mana={0: 100, 1: 100}, players=2))
    ann.goto(game_url)
    assert "Your mana: 100" in ann.inner_text("aside")
    assert ann.inner_text(".hand-cards").split("\n") == ["irrigation card B4", "cultivation card 3 (L tromino)"]
    assert ann.inner_text(".tool[data-card=K3]") == "cultivation card 3 (L tromino)"
    ann.click(".eden-card-texts summary")  # a card's text, by a tap
    assert "lay its shape" in ann.inner_text(".eden-card-texts")
    ann.click(".tool[data-card=B4]")
    assert ann.get_attribute("svg [data-square].legal", "data-square") == "B4"
    ann.click("svg [data-square=B4]")
    assert ann.input_value("#move-form input[name=text]") == "irrigate B4"
    play_typed_or_clicked(ann)

    ann.click(".tool[data-kind=contest]")
    ann.click("svg [data-square=C4]")
    assert ann.input_value("#move-form input[name=text]") == "contest C4"
    play_typed_or_clicked(ann)
    assert ann.get_attribute("svg [data-square=C4]", "data-acquisition") == "defend"
    # One control for the bid, not a button per amount; an amount off the steps is not sent.
    assert ann.locator("#decision button:has-text('mana per point')").count() == 0
    assert ann.get_attribute("#eden-bid-amount", "min") == "10" and ann.get_attribute("#eden-bid-amount", "step") == "5"
    ann.fill("#eden-bid-amount", "12")
    assert "in steps of 5" in ann.inner_text("#eden-bid-cost")
    ann.click("#eden-bid-button")
    assert ann.locator("#staged").is_hidden()
    with transaction(engine_of(live)) as db:
        assert db.get(Game, game_id).state["acquisition"]["bids"] == []
    bid_with_the_control(ann, 10, 1)
    screenshot(ann, "opened")

    bob.goto(game_url)
    decision = bob.inner_text("#decision")
    assert "bids 10 mana per point for your C4. Accept:" in decision
    assert "pays you 10 x 1 = 10 mana and takes C4" in decision
    assert bob.get_attribute("#eden-bid-amount", "min") == "15"
    screenshot(bob, "bidding")
    assert bob.evaluate(SMALL_TEXT, EDEN_PARTS) == []
    bob.set_viewport_size({"width": 375, "height": 800})
    screenshot(bob, "bidding-375")
    assert bob.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert bob.evaluate(SMALL_TEXT, ".board svg text") == []  # the drawing's letters stay readable on a phone
    assert bob.locator("svg [data-square=A1] rect").first.bounding_box()["width"] >= 32
    bob.set_viewport_size({"width": 1280, "height": 900})
    bid_with_the_control(bob, 20, 1)
    ann.goto(game_url)
    assert "pays you 20 x 1 = 20 mana and takes B4" in ann.inner_text("#decision")
    click_and_send(ann, "button:has-text('accept the bid')")
    screenshot(ann, "accepted")
    assert ann.get_attribute("svg [data-square=B4]", "data-color") == "yellow"
    assert "Your mana: 120" in ann.inner_text("aside")
    with transaction(engine_of(live)) as db:
        assert db.get(Game, game_id).state["board"][3].split()[1:3] == ["y1", "y1"]

    # Next turn of Ann's: the L tromino K3 over A1 A2 B1, chosen by clicking A1 until it fits.
    put_position(engine_of(live), game_id, position(
        {"A1": "r1", "B1": "r1", "A2": "r1", "B2": "r1"}, hands={0: ["K3", "A1"], 1: ["G7"]}, players=2))
    ann.goto(game_url)
    assert "No play now for irrigation card A1: A1 already holds a tile" in ann.inner_text(".eden-unplayable")
    assert ann.is_disabled(".tool[data-card=A1]")
    screenshot(ann, "hand-notes")
    ann.click(".tool[data-card=K3]")
    seen = set()
    for _ in range(4):
        ann.click("svg [data-square=A1]")
        seen.add(ann.input_value("#move-form input[name=text]"))
    assert len(seen) == 3 and all(text.startswith("cultivate card 3 ") for text in seen)  # 3 placements hold A1
    while ann.input_value("#move-form input[name=text]") != "cultivate card 3 A1 B1 A2":
        ann.click("svg [data-square=A1]")
    assert {el.get_attribute("data-square") for el in ann.query_selector_all("svg .chosen")} == {"A1", "B1", "A2"}
    play_typed_or_clicked(ann)
    assert [ann.get_attribute(f"svg [data-square={sq}]", "data-level")
            for sq in ("A1", "B1", "A2", "B2")] == ["2", "2", "2", "1"]
    ann_ctx.close()
    bob_ctx.close()


def box(page, selector: str) -> dict:
    found = page.locator(selector).bounding_box()
    assert found, selector
    return found


def two_player_game_with_k3_in_hand(live, browser):
    """Ann creates a 2-player Eden game through the page, Bob accepts, and Ann holds
    irrigation card B4 and cultivation card 3 (an L tromino)."""
    ann_email, bob_email = emails()
    ann_ctx, ann = sign_in(live, browser, ann_email)
    ann.goto(f"{live.base}/games/new")
    ann.select_option("select[name=game]", "eden")
    ann.select_option("select[name=players]", "2")
    ann.fill("input[name=invite]", bob_email)
    ann.click("button:has-text('Create and invite')")
    game_url = ann.url
    game_id = int(game_url.rstrip("/").split("/")[-1])
    bob_ctx, bob = sign_in(live, browser, bob_email)
    bob.goto(game_url)
    bob.click("button:has-text('Accept the invitation')")
    bob.wait_for_selector("text=Players")
    put_position(engine_of(live), game_id, position(
        {"C4": "y1", "A1": "r1"}, hands={0: ["B4", "K3"], 1: ["G7"]}, mana={0: 100, 1: 100}, players=2))
    return ann_email, bob_email, ann_ctx, bob_ctx, ann, game_url


def test_the_panels_sit_beside_the_garden_on_a_desktop_and_below_it_on_a_phone(live, browser, screenshot):
    """At 1280 px the garden (taller than wide, shown at most 1.3 times its drawn width)
    leaves no wide empty strip: the decision and the hand stand beside it, side by side.
    At 375 px the panels come below the garden, as on every game's page."""
    ann_email, bob_email, ann_ctx, bob_ctx, ann, game_url = two_player_game_with_k3_in_hand(live, browser)

    ann.set_viewport_size({"width": 1280, "height": 900})
    ann.goto(game_url)
    screenshot(ann, "1280px")
    board, decision = box(ann, ".board svg"), box(ann, "#decision")
    hand = box(ann, ".panel:has(h2:text-is('Your hand'))")
    players = box(ann, ".panel:has(h2:text-is('Players'))")
    for panel in (decision, hand, players):  # beside the garden, not below it
        assert panel["x"] >= board["x"] + board["width"] and panel["y"] < board["y"] + board["height"]
    assert decision["x"] - (board["x"] + board["width"]) <= 40  # no wide empty strip beside the garden
    assert players["x"] >= decision["x"] + decision["width"]  # the panels in two columns
    # The garden names players by colour: the page says whose each colour is.
    colours = ann.inner_text("#eden-colours").split("\n")[1:]
    assert colours == [f"red: {ann_email.split('@')[0]} (you)", f"yellow: {bob_email.split('@')[0]}"]
    assert board["width"] >= 496  # the garden at no less than its drawn size

    ann.set_viewport_size({"width": 375, "height": 800})
    ann.goto(game_url)
    screenshot(ann, "375px")
    board, decision = box(ann, ".board svg"), box(ann, "#decision")
    assert decision["y"] >= board["y"] + board["height"]
    assert ann.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    ann_ctx.close()
    bob_ctx.close()


CONTRAST = """(selector) => {
  // The contrast ratio (WCAG) of an element's words against the white panel, its
  // opacity and its ancestors' taken into account.
  const el = document.querySelector(selector);
  let opacity = 1;
  for (let node = el; node; node = node.parentElement) opacity *= parseFloat(getComputedStyle(node).opacity);
  const [r, g, b] = getComputedStyle(el).color.match(/[\\d.]+/g).map(Number);
  const mixed = [r, g, b].map(c => c * opacity + 255 * (1 - opacity));
  const lum = cs => cs.map(c => c / 255).map(c => c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)
    .reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
  return (1 + 0.05) / (lum(mixed) + 0.05);
}"""


def test_a_card_with_no_play_now_stays_readable_among_the_tools(live, browser, screenshot):
    """A tool without a move now (a cultivation card whose shape the garden cannot take)
    is greyed, not faded: its words keep a contrast of 4.5 to 1 against the panel."""
    ann_email, bob_email, ann_ctx, bob_ctx, ann, game_url = two_player_game_with_k3_in_hand(live, browser)
    ann.goto(game_url)
    assert ann.is_disabled(".tool[data-card=K3]") and "No play now for cultivation card 3" in ann.inner_text("aside")
    screenshot(ann, "no-play")
    assert ann.evaluate(CONTRAST, ".tool[data-card=K3]") >= 4.5
    ann_ctx.close()
    bob_ctx.close()
