"""At a phone's width (375 px) every page fits: nothing wider than the screen, the
header on one line, the board in a box of its own that scrolls with squares big enough
to tap, the side panel below it."""
import re

from sqlmodel import select

import engine
from service.db import transaction
from service.models import Notification
from tests.e2e.conftest import game_against_a_bot, sign_in
from tests.e2e.test_browser import emails, engine_of, put_opening, two_players_in_a_game
from workers.compose import compose, sign_in_url

PHONE = {"width": 375, "height": 740}


def fits(page):
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def check_fits(page, url, name, screenshot):
    page.goto(url)
    screenshot(page, name)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert fits(page), f"{name} ({url}) is {width} px wide, wider than the phone"


def latest_mail(live, email, kind):
    with transaction(engine_of(live)) as db:
        row = db.exec(select(Notification).where(Notification.email == email, Notification.kind == kind)
                      .order_by(Notification.id.desc())).first()
        return compose(db, live.extensions["turnpost"]["settings"], row) if row else None


def test_the_pages_fit_a_phone(live, browser, screenshot):
    ann_email, bob_email = emails()
    ann_ctx, ann, bob_ctx, bob, game_url, game_id = two_players_in_a_game(live, browser, ann_email, bob_email)
    mail = latest_mail(live, ann_email, "your_turn") or latest_mail(live, bob_email, "your_turn")
    action_link = re.search(rf"{re.escape(live.base)}/a/\S+", mail.text).group(0)
    put_opening(live, game_id)
    phone = browser.new_context(viewport=PHONE, storage_state=ann_ctx.storage_state())
    page = phone.new_page()
    page.goto(f"{live.base}/")
    my_page = live.base + page.get_attribute("header a:has-text('My page')", "href")
    pages = [(game_url, "game"), (f"{live.base}/", "my-games"), (f"{live.base}/games/new", "new-game"),
             (f"{live.base}/open-games", "open-games"), (f"{live.base}/ratings/tigris", "ratings"),
             (my_page, "player"), (f"{live.base}/tokens", "tokens"), (f"{live.base}/preferences", "preferences"),
             (f"{live.base}/rules", "rules"), (action_link, "confirm")]
    pages += [(f"{live.base}/rules/{game}", f"rules-{game}") for game in engine.game_ids()]
    for url, name in pages:
        check_fits(page, url, name, screenshot)

    page.goto(game_url)
    header = page.locator("header.site").bounding_box()
    assert header["height"] < 56, f"the header takes {header['height']} px: more than one line"
    board = page.locator(".board .board-box").bounding_box()
    panel = page.locator("#decision").bounding_box()
    assert board["width"] <= 375 and panel["y"] >= board["y"] + board["height"]  # the panel comes below
    square = page.locator("svg [data-square=A1] rect").first.bounding_box()
    assert square["width"] >= 32 and square["height"] >= 32, f"a square is {square['width']} px at 375 px"
    page.click("[data-kind=tile][data-color=black]")
    assert page.locator(".legal-highlight").count() > 0
    # The board scrolls in its own box: a square beyond the screen's edge is scrolled to and staged.
    assert page.evaluate("(box => box.scrollWidth > box.clientWidth)(document.querySelector('.board .board-box'))")
    page.click("svg [data-square=P1].legal")
    assert page.input_value("#move-form input[name=text]").endswith("P1")
    page.click("#move-form button:has-text('Send')")
    page.wait_for_selector("text=Move made.")
    page.click("#replay button[data-go=first]")  # the replay's board, fetched into the page
    page.wait_for_selector(".replay-board svg")
    screenshot(page, "replay")
    assert fits(page), "the game page with its replay is wider than the phone"
    page.click("header details.account summary")  # the menu opens over the page, which still fits
    assert page.is_visible("header >> text=Sign out everywhere") and fits(page)
    screenshot(page, "menu")

    signed_out = browser.new_context(viewport=PHONE)
    stranger = signed_out.new_page()
    check_fits(stranger, f"{live.base}/sign-in", "sign-in", screenshot)
    stranger.fill("input[name=email]", ann_email)
    stranger.click("button[type=submit]")
    stranger.wait_for_selector("text=A sign-in link is on its way")
    assert fits(stranger)
    with transaction(engine_of(live)) as db:
        row = db.exec(select(Notification).where(Notification.email == ann_email, Notification.kind == "sign_in")
                      .order_by(Notification.id.desc())).first()
    check_fits(stranger, sign_in_url(live.extensions["turnpost"]["settings"], row.payload), "sign-in-link",
               screenshot)
    for ctx in (phone, signed_out, ann_ctx, bob_ctx):
        ctx.close()


def test_every_games_page_fits_a_phone(live, browser, screenshot):
    ann_email, _ = emails()
    ann_ctx, ann = sign_in(live, browser, ann_email)
    urls = {game: game_against_a_bot(live, ann, game) for game in engine.game_ids()}
    phone = browser.new_context(viewport=PHONE, storage_state=ann_ctx.storage_state())
    page = phone.new_page()
    for game, url in urls.items():
        check_fits(page, url, f"game-{game}", screenshot)
        assert page.locator("header.site").bounding_box()["height"] < 56
    phone.close()
    ann_ctx.close()
