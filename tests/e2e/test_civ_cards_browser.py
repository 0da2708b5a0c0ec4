"""A Civilization card game turn with combat in two browsers, played by clicking only:
a plot bought (the payment chosen from buttons), a building placed on a plot, a
technology, a 3:1 trade, units committed from the hand, the defender's Walls, counter
and losses chosen in the combat dialog, the captured population placed, cards
discarded; and a draft pick and the free population's plot chosen on the table."""
from service.db import transaction
from service.models import Game
from tests.conftest import put_position
from tests.e2e.conftest import sign_in
from tests.e2e.test_browser import emails, engine_of
from tests.engine.civ_cards_positions import GAME, player, position


def send(page):
    """Send the staged move with the move form's Send; the page comes back with the new position."""
    with page.expect_navigation():
        page.click("#move-form button.send")
    assert "Move made." in page.inner_text("main"), page.inner_text("main")


def click_slot(page, slot):
    assert "legal" in page.get_attribute(f"svg [data-slot={slot}]", "class").split()
    page.click(f"svg [data-slot={slot}]")


def staged(page):
    """The move staged in the move form, in words ("You chose: ...")."""
    assert page.is_visible("#staged")
    return page.inner_text("#staged-text")


def state_of(live, game_id):
    with transaction(engine_of(live)) as db:
        return db.get(Game, game_id).state


def start(live, browser):
    ann_email, bob_email = emails()
    ann_ctx, ann = sign_in(live, browser, ann_email)
    bob_ctx, bob = sign_in(live, browser, bob_email)
    ann.goto(f"{live.base}/games/new")
    ann.select_option("select[name=game]", "civ-cards")
    ann.select_option("select[name=players]", "2")
    ann.fill("input[name=invite]", bob_email)
    ann.click("button:has-text('Create and invite')")
    game_url = ann.url
    bob.goto(game_url)
    bob.click("button:has-text('Accept the invitation')")
    bob.wait_for_selector("text=Players")
    return (ann_ctx, ann), (bob_ctx, bob), game_url, int(game_url.rstrip("/").split("/")[-1])


def test_a_civ_cards_turn_with_combat_is_played_by_clicking(live, browser, screenshot):
    (ann_ctx, ann), (bob_ctx, bob), game_url, game_id = start(live, browser)
    put_position(engine_of(live), game_id, position({
        0: player(population={1: 1}, hand={"granary": 1, "swordsman": 1, "warrior": 1},
                  resources={"food": 8, "production": 10, "commerce": 12}),
        1: player(population={1: 1, 2: 1}, buildings={3: ["walls"]}, hand={"axeman": 1}),
    }, count=2))

    # Buying: a plot for sale, paid with the first (most even) payment offered.
    ann.goto(game_url)
    assert not ann.is_visible("#decision form.choice")  # the clicks replace the page's plain buttons
    click_slot(ann, "display-plot-1")
    payments = ann.query_selector_all("#civ-play .civ-options button.civ-choice")
    assert payments[0].inner_text() == "pay 3 food, 5 production, 7 commerce" and len(payments) == 6
    ann.click("#civ-play button.civ-more")
    assert len(ann.query_selector_all("#civ-play .civ-options button.civ-choice")) > 6
    ann.click("#civ-play .civ-options button.civ-choice >> nth=0")
    assert "buy Grassland, paying 3 food, 5 production, 7 commerce" in staged(ann)
    screenshot(ann, "plot-staged")
    send(ann)
    assert len(state_of(live, game_id)["players"][0]["plots"]) == 5

    # A building from the hand onto a plot of the tableau: the plots with room light up.
    click_slot(ann, "hand-granary")
    lit = {el.get_attribute("data-slot") for el in ann.query_selector_all("svg [data-slot].legal")}
    assert lit == {f"plot-{n}" for n in range(1, 6)}
    click_slot(ann, "plot-2")
    assert "build Granary on plot 2 (Plains)" in staged(ann)
    screenshot(ann, "build-staged")
    send(ann)
    assert state_of(live, game_id)["players"][0]["plots"][1]["buildings"] == ["granary"]

    click_slot(ann, "tech-pottery")
    assert "buy the technology Pottery" in staged(ann)
    send(ann)
    ann.click("#civ-play button:has-text('3 food → 1 production')")
    send(ann)
    assert state_of(live, game_id)["players"][0]["resources"] == {"food": 2, "production": 2, "commerce": 1}
    ann.click("#civ-play button:has-text('done buying')")
    send(ann)

    # Combat: two units from the hand against the only neighbour, then fight.
    for unit in ("swordsman", "warrior"):
        click_slot(ann, f"hand-{unit}")
        assert f"(seat 1) with {unit.title()}" in staged(ann)
        send(ann)
    assert "You attack" in ann.inner_text("#civ-play .civ-combat")
    ann.click("#civ-play button:has-text('fight')")
    send(ann)

    # The defender's dialog: who attacks with what; his Walls may send one unit back.
    bob.goto(game_url)
    walls = [b.inner_text() for b in bob.query_selector_all("#civ-play .civ-combat button")]
    assert walls == ["send 1. Swordsman back", "send 2. Warrior back", "let the attack through"]
    screenshot(bob, "walls-dialog")
    bob.click("#civ-play .civ-combat button:has-text('let the attack through')")
    send(bob)
    # Then his counters, from his hand, as buttons.
    dialog = bob.inner_text("#civ-play .civ-combat")
    assert "attacks you with" in dialog and "Swordsman" in dialog and "Warrior" in dialog
    assert "(seat 0) attacks you with 1. Swordsman, 2. Warrior" in bob.inner_text("#decision > p")
    counters = [b.inner_text() for b in bob.query_selector_all("#civ-play .civ-combat button.civ-counter")]
    assert counters == ["counter with Axeman", "counter with Axeman"]  # the axeman counters either unit
    screenshot(bob, "counter-dialog")
    bob.click("#civ-play .civ-units li:nth-child(1) button.civ-counter")
    assert "counter 1. Swordsman with Axeman" in staged(bob)
    send(bob)
    assert "countered by Axeman" in bob.inner_text("#civ-play .civ-combat")
    bob.click("#civ-play .civ-combat button:has-text('counter done')")
    send(bob)
    # The uncountered warrior steals one population: Bob chooses the plot it leaves.
    click_slot(bob, "plot-2")
    assert "give up population from plot 2 (Plains)" in staged(bob)
    send(bob)

    ann.goto(game_url)
    assert "Swordsman, countered by Axeman\nWarrior" in ann.inner_text("#civ-play .civ-combat")  # revealed
    click_slot(ann, "plot-5")
    assert "place the captured population on plot 5 (Grassland)" in staged(ann)
    screenshot(ann, "place-staged")
    send(ann)
    s = state_of(live, game_id)
    assert [p["population"] for p in s["players"][0]["plots"]] == [1, 0, 0, 0, 1]
    assert [p["population"] for p in s["players"][1]["plots"]] == [1, 0, 0, 0]
    assert s["combat"] is None and s["turn"]["phase"] == "discard"

    # Drawing done, the discards are clicked in the hand.
    for _ in range(2):
        card = ann.get_attribute("svg [data-slot^=hand-].legal", "data-slot")
        click_slot(ann, card)
        assert "discard " in staged(ann)
        send(ann)
    screenshot(ann, "next-turn")
    assert state_of(live, game_id)["turn"]["active"] == 1
    ann_ctx.close()
    bob_ctx.close()


def visible_sends(page):
    return [b for b in page.query_selector_all("#decision button") if b.is_visible() and b.inner_text() == "Send"]


def test_one_send_posts_what_the_tableaux_stage_and_undo_takes_it_back(live, browser, screenshot):
    """The decision panel has one Send, the move form's, never a second one greyed out
    while nothing is chosen; a move chosen on the tableaux waits beside it with Undo, and
    a move half made (a plot's payment still to choose) shows no staged move at all."""
    (ann_ctx, ann), (bob_ctx, bob), game_url, game_id = start(live, browser)
    put_position(engine_of(live), game_id, position({
        0: player(population={1: 1}, hand={"granary": 1}, resources={"food": 8, "production": 10, "commerce": 12}),
        1: player(population={1: 1}),
    }, count=2))
    ann.goto(game_url)
    sends = visible_sends(ann)
    assert len(sends) == 1 and sends[0].is_enabled() and not ann.is_visible("#staged")
    assert ann.inner_text("#civ-hint") == "Click a highlighted card, or a button."

    click_slot(ann, "tech-pottery")
    assert staged(ann) == "You chose: buy the technology Pottery" and len(visible_sends(ann)) == 1
    assert not ann.is_visible("#civ-hint")
    ann.click("#undo-move")
    assert not ann.is_visible("#staged") and ann.input_value("#move-form input[name=text]") == ""
    click_slot(ann, "tech-pottery")  # the tableaux stay lit after Undo

    click_slot(ann, "display-plot-1")  # a payment is still to choose: the staged move gives way
    assert not ann.is_visible("#staged") and ann.input_value("#move-form input[name=text]") == ""
    assert ann.inner_text("#civ-hint").startswith("Complete the move above.")
    screenshot(ann, "half-made")
    ann.click("#civ-play .civ-options button.civ-choice >> nth=0")
    assert staged(ann).startswith("You chose: buy ") and len(visible_sends(ann)) == 1
    screenshot(ann, "staged")
    send(ann)
    assert len(state_of(live, game_id)["players"][0]["plots"]) == 5
    ann_ctx.close()
    bob_ctx.close()


def test_the_draft_and_the_free_population_are_chosen_on_the_table(live, browser, screenshot):
    (ann_ctx, ann), (bob_ctx, bob), game_url, game_id = start(live, browser)
    offered = state_of(live, game_id)["draft"]["display"]
    ann.goto(game_url)
    assert "Draft" in ann.text_content(".board svg")
    click_slot(ann, "display-plot-2")
    assert f"take {offered[1].replace('-', ' ').title()} from the draft" in staged(ann)
    screenshot(ann, "draft")
    send(ann)
    assert state_of(live, game_id)["players"][0]["plots"][-1]["plot"] == offered[1]
    while state_of(live, game_id)["turn"]["phase"] == "draft":  # Bob picks, and so on, by clicking
        page = bob if state_of(live, game_id)["draft"]["order"][0] == 1 else ann
        page.goto(game_url)
        click_slot(page, "display-plot-1")
        send(page)
    for page in (ann, bob):
        page.goto(game_url)
        click_slot(page, "plot-3")
        assert "put the free population on plot 3" in staged(page)
        send(page)
    s = state_of(live, game_id)
    assert [p["plots"][2]["population"] for p in s["players"]] == [1, 1]
    ann_ctx.close()
    bob_ctx.close()


def test_clickable_play_starts_when_a_live_update_brings_the_decision(live, browser, screenshot):
    """Bob's page is open while Ann picks; the page updates by itself and his own pick
    is then made by clicking, without a reload."""
    (ann_ctx, ann), (bob_ctx, bob), game_url, game_id = start(live, browser)
    bob.goto(game_url)
    assert not bob.is_visible("#civ-play") and "It is your turn" not in bob.inner_text("#live-status")
    ann.goto(game_url)
    click_slot(ann, "display-plot-2")
    send(ann)
    assert state_of(live, game_id)["draft"]["order"][0] == 1
    bob.wait_for_selector("#live-status:has-text('It is your turn')", timeout=10000)
    bob.wait_for_selector("#civ-play #civ-hint")
    offered = state_of(live, game_id)["draft"]["display"]
    click_slot(bob, "display-plot-1")
    assert f"take {offered[0].replace('-', ' ').title()} from the draft" in staged(bob)
    screenshot(bob, "after-live-update")
    send(bob)
    assert state_of(live, game_id)["players"][1]["plots"][-1]["plot"] == offered[0]
    ann_ctx.close()
    bob_ctx.close()


def test_a_live_update_waits_while_a_move_is_staged_on_the_tableaux(live, browser, screenshot):
    """A move staged from the tableaux waits in the page's move form: a live update is
    then held back and offered, and the staged move stays."""
    import engine

    (ann_ctx, ann), (bob_ctx, bob), game_url, game_id = start(live, browser)
    ann.goto(game_url)
    click_slot(ann, "display-plot-2")
    chosen = staged(ann)
    assert chosen.startswith("You chose: take")
    rules = engine.get_game("civ-cards")
    put_position(engine_of(live), game_id, rules.from_json(state_of(live, game_id)))  # a new version
    ann.wait_for_selector("#show-update", timeout=6000)  # polled every 2 s (static/live.js)
    assert "moved on" in ann.inner_text("#live-status") and staged(ann) == chosen
    screenshot(ann, "update-held")
    ann_ctx.close()
    bob_ctx.close()


# The rendered size of every visible text: an SVG text's font size times the drawing's
# scale on the screen, an HTML text's computed font size.
TEXT_SIZES = """() => {
  const sizes = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || !el || el.closest("script, style, title, desc, [hidden]")) continue;
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (!box.width || !box.height || style.visibility === "hidden" || style.display === "none") continue;
    const scale = el instanceof SVGElement && el.getScreenCTM() ? el.getScreenCTM().a : 1;
    sizes.push([Math.round(parseFloat(style.fontSize) * scale * 10) / 10, node.textContent.trim().slice(0, 40)]);
  }
  return sizes;
}"""


def test_the_civ_page_is_legible_on_a_desktop_and_a_phone(live, browser, screenshot):
    """No text under 12 px at 1280 or 375 px wide, and no page wider than a phone: the
    tableaux keep their size and scroll inside their own box."""
    (ann_ctx, ann), (bob_ctx, bob), game_url, game_id = start(live, browser)
    put_position(engine_of(live), game_id, position({
        0: player(population={1: 1}, buildings={2: ["granary", "walls"]}, technologies=["pottery", "writing"],
                  hand={"granary": 1, "swordsman": 2, "great-merchant": 1, "hanging-gardens": 1},
                  resources={"food": 8, "production": 10, "commerce": 12}),
        1: player(population={1: 1, 2: 1}, buildings={3: ["walls"]}, hand={"axeman": 1}),
    }, count=2))
    for width in (1280, 375):
        context = browser.new_context(viewport={"width": width, "height": 900}, storage_state=ann_ctx.storage_state())
        page = context.new_page()
        page.goto(game_url)
        screenshot(page, f"{width}px")
        small = [(size, text) for size, text in page.evaluate(TEXT_SIZES) if size < 12]
        assert not small, f"text under 12 px at {width} px: {small[:8]}"
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), f"wider than {width} px"
        page.click("svg [data-slot=hand-swordsman]")  # not lit while buying: its text says why
        assert page.inner_text(".civ-card-text") == (
            "Swordsman. Unit (melee): in attack, takes 1 population and destroys 1 building; in defence, counters "
            "Archer. Not open now: units are played in combat, after buying.")
        context.close()
    ann_ctx.close()
    bob_ctx.close()


def test_a_newcomer_reads_the_cards_and_the_reasons_and_plays_by_clicking(live, browser, screenshot):
    """A tapped card shows its rules text; a pick, a free population and a discard are
    made by clicks, and the discard says why it is owed."""
    (ann_ctx, ann), (bob_ctx, bob), game_url, game_id = start(live, browser)
    offered = state_of(live, game_id)["draft"]["display"]
    ann.goto(game_url)
    assert ann.inner_text(".civ-card-text") == "Point at or tap a card to read what it does."
    ann.click("svg [data-slot=plot-1]")  # a plot of her own: nothing to do with it now but read it
    own = state_of(live, game_id)["players"][0]["plots"][0]["plot"]
    assert ann.inner_text(".civ-card-text").startswith(f"{GAME.table.name(own)}. Plot: yields ")
    click_slot(ann, "display-plot-2")
    send(ann)
    assert state_of(live, game_id)["players"][0]["plots"][-1]["plot"] == offered[1]
    while state_of(live, game_id)["turn"]["phase"] == "draft":
        page = bob if state_of(live, game_id)["draft"]["order"][0] == 1 else ann
        page.goto(game_url)
        click_slot(page, "display-plot-1")
        send(page)
    for page in (ann, bob):
        page.goto(game_url)
        click_slot(page, "plot-1")
        send(page)
    s = state_of(live, game_id)
    assert s["turn"]["phase"] == "opening_discard" and [p["plots"][0]["population"] for p in s["players"]] == [1, 1]
    page = (ann, bob)[s["discarding"]["order"][0]]
    page.goto(game_url)
    assert "Before the first turn each player discards 2 cards of those dealt (2 still to discard" in page.inner_text(
        "#decision")
    card = page.get_attribute("svg [data-slot^=hand-].legal", "data-slot")
    click_slot(page, card)
    assert staged(page).startswith("You chose: discard ")
    panel = page.inner_text(".panel:has(h2:text-is('Your hand'))")  # it names the cards as the table does
    held = state_of(live, game_id)["players"][s["discarding"]["order"][0]]["hand"]
    assert all(f"{n} {GAME.table.name(card)}" in panel for card, n in held.items()), panel
    screenshot(page, "opening-discard")
    send(page)
    assert "(this is the last one)" in page.inner_text("#decision")
    assert state_of(live, game_id)["discarding"]["left"] == 1
    ann_ctx.close()
    bob_ctx.close()



CARD_OVERFLOWS = """() => {
  // Every line of a card's words that runs past the card's edge, as "name: line".
  const out = [];
  for (const card of document.querySelectorAll(".board svg [data-card]")) {
    const edge = card.querySelector("rect").getBBox();
    for (const text of card.querySelectorAll("text")) {
      const box = text.getBBox();
      if (box.x + box.width > edge.x + edge.width - 2) out.push(card.dataset.card + ": " + text.textContent);
    }
  }
  return out;
}"""


def test_the_longest_card_names_stay_inside_their_cards(live, browser, screenshot):
    """A name too wide for a card of the top row ("Bronze Working") takes two lines
    rather than run past the card's edge; the other cards keep theirs on one."""
    (ann_ctx, ann), (bob_ctx, bob), game_url, game_id = start(live, browser)
    put_position(engine_of(live), game_id, position({
        0: player(population={1: 1}, buildings={2: ["hanging-gardens"]},
                  hand={"hanging-gardens": 2, "great-merchant": 1, "great-library": 1}),
        1: player(population={1: 1}),
    }, count=2, tech_display=["bronze-working", "mathematics", "engineering"]))
    ann.set_viewport_size({"width": 1280, "height": 900})
    ann.goto(game_url)
    screenshot(ann, "long-names")
    assert ann.evaluate(CARD_OVERFLOWS) == []
    names = [t.text_content() for t in ann.query_selector_all("svg [data-slot=tech-bronze-working] text")]
    assert names[:2] == ["Bronze", "Working"]
    # The line of a tapped card's text is as wide as the tableaux, and a gap parts the
    # board from the table talk below it.
    tableaux, line = ann.locator(".board svg").bounding_box(), ann.locator(".civ-card-text").bounding_box()
    assert abs(line["x"] + line["width"] - (tableaux["x"] + tableaux["width"])) <= 2
    talk = ann.locator("#table-talk").bounding_box()
    assert talk["y"] - (line["y"] + line["height"]) >= 12
    ann_ctx.close()
    bob_ctx.close()
