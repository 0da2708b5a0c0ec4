"""The card game played by clicking: a card onto a column, a leader onto a card, a
free ship built, a conflict fought with the choice buttons; the side panel, the key to
the drawing, why a tool is greyed out, and the page legible at 1280 and 375 pixels."""
from service.db import transaction
from service.models import Game
from tests.conftest import put_position
from tests.e2e.conftest import sign_in
from tests.e2e.test_browser import emails, engine_of
from tests.engine.euphrat_cards_positions import position

# Every visible text node whose letters show smaller than 12 CSS pixels: its computed font
# size, times the drawing's scale for text inside an SVG (a table drawn smaller than its
# own size shrinks its words); and whether the page scrolls sideways.
SMALL_TEXT = """() => {
  const small = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode, el = node.parentElement;
    if (!node.textContent.trim() || !el || el.closest("title, desc, script, style")) continue;
    if (!el.checkVisibility({checkOpacity: true, checkVisibilityCSS: true})) continue;
    let size = parseFloat(getComputedStyle(el).fontSize);
    if (el instanceof SVGElement) { const m = el.getScreenCTM(); size *= Math.hypot(m.a, m.b); }
    if (size < 11.95) small.push(node.textContent.trim().slice(0, 40) + " @ " + size.toFixed(1) + "px");
  }
  return small;
}"""
SIDEWAYS = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"


def start_two_player_game(live, browser):
    """ann creates a two-player card game, bob accepts: (contexts, pages, game url, game id)."""
    ann_email, bob_email = emails()
    ann_ctx, ann = sign_in(live, browser, ann_email)
    bob_ctx, bob = sign_in(live, browser, bob_email)
    ann.goto(f"{live.base}/games/new")
    ann.select_option("select[name=game]", "euphrat-cards")
    ann.select_option("select[name=players]", "2")
    ann.fill("input[name=invite]", bob_email)
    ann.click("button:has-text('Create and invite')")
    game_url = ann.url
    game_id = int(game_url.rstrip("/").split("/")[-1])
    bob.goto(game_url)
    bob.click("button:has-text('Accept the invitation')")
    bob.wait_for_selector("text=Players")
    return (ann_ctx, bob_ctx), (ann, bob), game_url, game_id


def deciding(pages, game_url):
    """The page of the player who owes a decision now (each page reloaded)."""
    found = []
    for page in pages:
        page.goto(game_url)
        if page.locator("#decision").count():
            found.append(page)
    assert len(found) == 1, f"{len(found)} pages show a decision"
    return found[0]


def choose(page, description: str) -> None:
    """Click the choice button that reads `description`; where choices are staged (a
    Send button appears), send it; then the move is made."""
    page.click(f"#decision form.choice button:has-text('{description}')")
    page.wait_for_load_state()
    if page.locator("#staged").is_visible():
        page.click("#move-form button:has-text('Send')")
    page.wait_for_selector("text=Move made.")


def seat_of(page, live, game_id: int) -> int:
    with transaction(engine_of(live)) as db:
        game = db.get(Game, game_id)
        assert game is not None and game.state is not None, "a started game"
        return game.state["turn"]["active"]


def test_a_card_game_turn_played_by_clicking_only(live, browser, screenshot):
    (ann_ctx, bob_ctx), (ann, bob), game_url, game_id = start_two_player_game(live, browser)
    with transaction(engine_of(live)) as db:
        active = db.get(Game, game_id).state["turn"]["active"]
    page = deciding((ann, bob), game_url)
    table = page.inner_text("#table-state")
    assert "Leaders in supply: farmer, king, priest, trader" in table and "Catastrophe: in hand" in table
    assert "Victory cards: 0" in table and "cards in the deck" in table
    page.click(".legend summary")
    assert "the priest red" in page.inner_text(".legend")
    # Only treasures (red) lie on the table: the priest has nowhere to stand, and says so.
    assert page.is_disabled("[data-kind=leader][data-leader=priest]")
    why = page.get_attribute("[data-kind=leader][data-leader=priest]", "title")
    assert why.startswith("A priest stands on a blue, green or black card") and "none is free now" in why
    assert "priest: a priest stands on" in page.inner_text(".why-not")
    assert not page.is_disabled("[data-kind=leader][data-leader=king]")
    # A colour held says what its cards do; one not held (the deal is drawn) says why it is greyed out.
    titles = {color: page.get_attribute(f"[data-kind=hand-card][data-color={color}]", "title")
              for color in ("red", "blue", "green", "black")}
    words = {"red": "Red temple: the priest's", "blue": "Blue farm: the farmer's", "green": "Green market: the trader",
             "black": "Black settlement: the king's"}
    for color, title in titles.items():
        held = not page.is_disabled(f"[data-kind=hand-card][data-color={color}]")
        assert title.startswith(words[color] if held else f"You hold no {color} card"), (color, title)
    assert page.inner_text("#decision > p").startswith("Your turn, 2 actions left:")
    assert "treasure" in page.text_content("svg [data-slot=A0] title")
    page.click("svg [data-slot=A0]")  # no tool chosen: a tap reads the card, as a phone shows no tooltip
    assert page.inner_text("#card-text").startswith("A0, treasure: a red card with a treasure")

    color = next(b.get_attribute("data-color") for b in page.query_selector_all("[data-kind=hand-card]")
                 if not b.is_disabled())
    page.click(f"[data-kind=hand-card][data-color={color}]")
    slot = page.get_attribute("svg [data-slot].legal", "data-slot")
    page.click(f"svg [data-slot={slot}]")
    assert page.is_visible("#staged")
    screenshot(page, "staged-card")
    page.click("#move-form button:has-text('Send')")
    page.wait_for_selector("text=Move made.")
    assert page.get_attribute(f"svg [data-slot={slot}]", "data-card") == color

    page.click("[data-kind=leader][data-leader=king]")
    target = page.get_attribute("svg [data-slot].legal", "data-slot")
    page.click(f"svg [data-slot={target}]")
    page.click("#move-form button:has-text('Send')")
    page.wait_for_selector("text=Move made.")
    assert page.get_attribute(f"svg [data-slot={target}]", "data-leader") == "king"
    assert "king " + target in page.inner_text("#table-state")
    assert "played a " + color + " card on column" in page.inner_text(".log")
    screenshot(page, "after-turn")

    # A fourth blue card in column D: the free ships are the choices, clicked on the table.
    put_position(engine_of(live), game_id, position(
        players=2, active=active, columns=["t", "t", "t", "tbbb", "tG", "t", "t", "t"], hands={active: {"blue": 1}}))
    page.goto(game_url)
    page.click("[data-kind=hand-card][data-color=blue]")
    page.click("svg [data-slot=D4]")
    page.click("#move-form button:has-text('Send')")
    page.wait_for_selector("text=Move made.")
    page.wait_for_selector("[data-kind=ship][aria-pressed=true]")  # the only tool, chosen by the page's script
    free = {el.get_attribute("data-free-ship") for el in page.query_selector_all("svg [data-free-ship].legal")}
    assert free == {"blue-red", "blue-black"}
    page.click("svg [data-free-ship=blue-black]")
    assert page.is_visible("#staged") and page.input_value("#move-form input[name=text]") == "ship blue-black"
    screenshot(page, "staged-ship")
    page.click("#move-form button:has-text('Send')")
    page.wait_for_selector("text=Move made.")
    assert page.get_attribute("svg [data-slot=D1]", "data-ship") == "blue-black"
    assert "ships to build: blue-red" in page.inner_text("#table-state")
    ann_ctx.close()
    bob_ctx.close()


def test_a_conflict_fought_with_the_choice_buttons(live, browser, screenshot):
    """An internal conflict by clicking only: a priest placed into a kingdom with a
    priest, both sides commit with the choice buttons (naming cards and conflict), the
    turn ended with its button."""
    contexts, pages, game_url, game_id = start_two_player_game(live, browser)
    put_position(engine_of(live), game_id, position(
        players=2, active=0, columns=["tbg", "t", "t", "t", "t", "t", "t", "t"],
        leaders={1: {"priest": "A1"}}, hands={0: {"red": 2, "green": 2}, 1: {"red": 3, "black": 1}}))
    attacker = deciding(pages, game_url)
    attacker.click("[data-kind=leader][data-leader=priest]")
    attacker.click("svg [data-slot=A2]")
    attacker.click("#move-form button:has-text('Send')")
    attacker.wait_for_selector("text=Move made.")
    prompt = attacker.inner_text("#decision > p")
    assert prompt.startswith("You attack in the internal red conflict"), prompt
    choose(attacker, "commit 1 red card to the red conflict")
    defender = deciding(pages, game_url)
    assert defender is not attacker and "(with the 1 card committed)" in defender.inner_text("#decision > p")
    screenshot(defender, "defending")
    choose(defender, "commit 2 red cards to the red conflict")
    attacker = deciding(pages, game_url)
    log = attacker.inner_text(".log")
    assert "won the internal red conflict" in log and "commits 1 red supporter as the attacker" in log
    assert attacker.inner_text("#decision > p").startswith("Your turn, 1 action left:")
    choose(attacker, "end the turn")
    log = attacker.inner_text(".log")
    # One line a draw: the reader's own in colours, the other's as a count.
    drawn = [line for line in log.splitlines() if " drew " in line]
    assert len(drawn) == 2 and len({line.split(" drew ")[0] for line in drawn}) == 2, drawn
    assert sum(" red card" in line for line in drawn) == 1 and sum(" drew 6 cards." in line for line in drawn) == 1
    for context in contexts:
        context.close()


def test_the_card_game_page_is_legible_at_1280_and_375_pixels(live, browser, screenshot):
    """No visible word under 12 pixels (the table's words counted at the size they are
    drawn), no sideways scroll of the page, cards at least 32 pixels wide on a phone."""
    contexts, pages, game_url, game_id = start_two_player_game(live, browser)
    put_position(engine_of(live), game_id, position(
        players=2, active=0, columns=["tkrg", "tbkr", "trrbG", "t", "trkk", "t", "tggg", "tbb"], gaps="..k....",
        leaders={0: {"king": "A2", "trader": "CD"}, 1: {"priest": "B1", "farmer": "E3"}},
        hands={0: {"red": 2, "blue": 2, "green": 2, "black": 2}, 1: {"red": 3, "black": 1}}))
    mover = deciding(pages, game_url)
    waiting = next(page for page in pages if page is not mover)
    assert "red temple: the priest's colour" in mover.inner_text(".card-texts")
    for width in (1280, 375):
        for who, page in (("mover", mover), ("waiting", waiting)):
            page.set_viewport_size({"width": width, "height": 900})
            page.goto(game_url)
            page.click(".legend summary")
            assert page.evaluate(SMALL_TEXT) == [], (who, width)
            assert page.evaluate(SIDEWAYS) <= 0, (who, width)
            card = page.locator("svg [data-slot=A1] rect").first.bounding_box()
            assert card["width"] >= 32, (who, width, card)
            screenshot(page, f"{who}-{width}px")
    for context in contexts:
        context.close()
