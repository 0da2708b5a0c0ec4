"""No visible text on a game's page is smaller than 12 px, at a desktop's width and at
a phone's: every text node's font size as drawn (an SVG's text scaled as its drawing
is), each failure named by its element and words."""
import pytest

import engine
from tests.e2e.conftest import game_against_a_bot, sign_in
from tests.e2e.test_browser import emails

SMALLEST_PX = 12

# Each visible text node: the element holding it, its drawn font size in px, its words.
TEXT_SIZES = """() => {
  const nameOf = (element) => !element ? "the page" : element.tagName.toLowerCase() +
    (element.id ? "#" + element.id : "") +
    (element.getAttribute("class") ? "." + element.getAttribute("class").trim().split(/\\s+/).join(".") : "");
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const words = node.textContent.trim();
    const element = node.parentElement;
    if (!words || !element || element.closest("script, style, title, desc, noscript, template")) continue;
    if (!element.checkVisibility({checkOpacity: true, checkVisibilityCSS: true})) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const box = range.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    let size = parseFloat(getComputedStyle(element).fontSize);
    if (element instanceof SVGElement) {
      const ctm = element.getScreenCTM();
      if (ctm) size *= Math.hypot(ctm.a, ctm.b);
    }
    found.push({element: nameOf(element), within: nameOf(element.parentElement.closest("[id], [class]")),
                drawn: Boolean(element.closest("svg")), size: Math.round(size * 10) / 10, words: words.slice(0, 40)});
  }
  return found;
}"""


def small_text(page, drawn=True):
    """Each visible text under 12 px, named; `drawn=False` leaves out the drawings' words."""
    return [f"{t['element']} in {t['within']}: {t['size']} px {t['words']!r}"
            for t in page.evaluate(TEXT_SIZES) if t["size"] < SMALLEST_PX - 0.05 and (drawn or not t["drawn"])]


@pytest.fixture(scope="module")
def games_page(live, browser):
    """A page of each game, against a bot, as its creator sees it, at a given width."""
    ann_email, _ = emails()
    ann_ctx, ann = sign_in(live, browser, ann_email)
    urls = {game: game_against_a_bot(live, ann, game) for game in engine.game_ids()}
    contexts = []

    def at(game, width):
        context = browser.new_context(viewport={"width": width, "height": 900}, storage_state=ann_ctx.storage_state())
        contexts.append(context)
        page = context.new_page()
        page.goto(urls[game])
        page.wait_for_selector("#live")
        return page
    yield at
    for context in [*contexts, ann_ctx]:
        context.close()


# The game's own drawing, not the shared page, draws these words small.
@pytest.mark.parametrize("game", engine.game_ids())
def test_no_text_on_a_games_page_is_under_12_px_at_a_desktops_width(games_page, game, screenshot):
    page = games_page(game, 1280)
    screenshot(page, "1280")
    small = small_text(page)
    assert not small, f"{game} at 1280 px, text under 12 px:\n" + "\n".join(small)


@pytest.mark.parametrize("game", engine.game_ids())
def test_no_words_on_a_games_page_are_under_12_px_on_a_phone(games_page, game, screenshot):
    """On a phone the drawing scrolls in its box at no less than 70% of its drawn size
    (tests/e2e/test_phone_width.py), and a player zooms it as he likes; the words around
    it are the page's."""
    page = games_page(game, 375)
    screenshot(page, "375")
    small = small_text(page, drawn=False)
    assert not small, f"{game} at 375 px, text under 12 px:\n" + "\n".join(small)
