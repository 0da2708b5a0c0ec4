"""Getting in: the invitation email's link signs the invitee in once and opens the
game; after signing in the person is back on the page he was heading to (this site
only); "keep me signed in" keeps the session cookie for 30 days."""
import time

from sqlmodel import select

from service.db import transaction
from service.models import Notification
from tests.e2e.conftest import sign_in
from tests.e2e.test_browser import emails, engine_of
from workers.compose import compose, sign_in_url


def latest(live, email, kind):
    with transaction(engine_of(live)) as db:
        row = db.exec(select(Notification).where(Notification.email == email, Notification.kind == kind)
                      .order_by(Notification.id.desc())).first()
        return compose(db, live.extensions["turnpost"]["settings"], row) if kind == "invitation" else row


def test_the_invitation_link_signs_the_invitee_in_once_and_opens_the_game(live, browser, screenshot):
    ann_email, carl_email = emails()
    ann_ctx, ann = sign_in(live, browser, ann_email)
    ann.goto(f"{live.base}/games/new")
    ann.fill("input[name=title]", "Invitation cup")
    ann.select_option("select[name=players]", "2")
    ann.fill("input[name=invite]", carl_email)
    ann.click("button:has-text('Create and invite')")
    game_url = ann.url
    mail = latest(live, carl_email, "invitation")
    link = next(word for word in mail.text.split() if "/join/" in word)

    carl_ctx = browser.new_context()
    carl = carl_ctx.new_page()
    carl.goto(link)
    assert "Invitation cup" in carl.inner_text("main") and carl_email in carl.inner_text("button[type=submit]")
    screenshot(carl, "confirm")
    carl.click("button[type=submit]")
    carl.wait_for_selector("button:has-text('Accept the invitation')")
    assert carl.url == game_url
    carl.click("button:has-text('Accept the invitation')")
    carl.wait_for_selector("text=Your hand")

    other = browser.new_context().new_page()
    other.goto(link)  # used once already
    assert "cannot be used" in other.inner_text("h1") and "already used" in other.inner_text("main")
    plain = other.request.post(link.replace("/join/", "/sign-in/"))  # not a plain sign-in link either
    assert plain.status in (400, 401)
    ann_ctx.close()
    carl_ctx.close()


def sign_in_from_form(live, page, email, remember=False):
    page.fill("input[name=email]", email)
    page.click("button[type=submit]")
    page.wait_for_selector("text=A sign-in link is on its way")
    page.goto(sign_in_url(live.extensions["turnpost"]["settings"], latest(live, email, "sign_in").payload))
    if remember:
        page.check("input[name=remember]")
    page.click("button[type=submit]")


def test_after_signing_in_the_person_is_back_where_he_was_heading(live, browser):
    ann_email, bob_email = emails()
    ann_ctx, ann = sign_in(live, browser, ann_email)
    ann.goto(f"{live.base}/games/new")
    ann.select_option("select[name=players]", "2")
    ann.click("button:has-text('Create and invite')")
    game_url = ann.url

    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(f"{live.base}/tokens")  # a page that needs a sign-in
    assert "/sign-in" in page.url
    sign_in_from_form(live, page, bob_email)
    page.wait_for_selector("h1:has-text('API tokens')")

    elsewhere = browser.new_context()
    page = elsewhere.new_page()
    page.goto(f"{live.base}/sign-in?next=//evil.example/steal")
    sign_in_from_form(live, page, bob_email)
    page.wait_for_selector("h1:has-text('My games')")  # another site is never a destination
    assert page.url.startswith(live.base)
    for c in (ann_ctx, ctx, elsewhere):
        c.close()
    assert game_url


def test_keep_me_signed_in_keeps_the_session_for_30_days(live, browser):
    ann_email, bob_email = emails()
    for email, remember in ((ann_email, True), (bob_email, False)):
        ctx = browser.new_context()
        page = ctx.new_page()
        page.goto(f"{live.base}/sign-in")
        sign_in_from_form(live, page, email, remember=remember)
        page.wait_for_selector("h1:has-text('My games')")
        cookie = next(c for c in ctx.cookies() if c["name"] == "session")
        if remember:
            assert 29 * 86400 < cookie["expires"] - time.time() <= 30 * 86400 + 60
        else:
            assert cookie["expires"] == -1  # ends with the browser
        ctx.close()
