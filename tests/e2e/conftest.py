"""A live turnpost server on a free port and Debian's headless Chromium, driven by
Playwright (never a downloaded browser). Screenshots go to test-artifacts/."""
from __future__ import annotations

import os
import shutil
import socket
import threading
from pathlib import Path

import pytest
from sqlmodel import select
from werkzeug.serving import make_server

from service.app import create_app
from service.config import Settings
from service.db import transaction
from service.models import Notification
from workers.compose import sign_in_url

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROMIUM_FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="session")
def live(database_url, tmp_path_factory):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    app = create_app(Settings(database_url=database_url, base_url=base, secret_key="browser-secret",
                              maildir=tmp_path_factory.mktemp("mail"), sign_in_limit="1000 per minute",
                              sign_in_address_limit="1000 per minute", redis_url=None))
    server = make_server("127.0.0.1", port, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    app.base = base
    yield app
    server.shutdown()


@pytest.fixture(scope="session")
def browser():
    if not shutil.which(CHROMIUM) and not Path(CHROMIUM).exists():
        pytest.fail(f"MISSING: Chromium at {CHROMIUM} (Debian package chromium; `make test` installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield browser
        browser.close()


@pytest.fixture
def screenshot(request):
    ARTIFACTS.mkdir(exist_ok=True)

    def take(page, name):
        page.screenshot(path=str(ARTIFACTS / f"{request.node.name}-{name}.png"), full_page=True)
    return take


def sign_in(live, browser, email):
    """A browser context signed in as `email` through the emailed link."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{live.base}/sign-in")
    page.fill("input[name=email]", email)
    page.click("button[type=submit]")
    page.wait_for_selector("text=A sign-in link is on its way")
    with transaction(live.extensions["turnpost"]["database"]) as db:
        row = db.exec(select(Notification).where(Notification.email == email, Notification.kind == "sign_in")
                      .order_by(Notification.id.desc())).first()
    page.goto(sign_in_url(live.extensions["turnpost"]["settings"], row.payload))
    page.click("button[type=submit]")  # the link's page asks before it signs in
    page.wait_for_selector("h1:has-text('My games')")
    return context, page


def choose_and_send(page, description):
    """Click the choice button with `description` (it stages the move, with Send and
    Undo), check what is staged, and send it."""
    page.click(f"#decision form.choice button:has-text('{description}')")
    assert page.inner_text("#staged-text").startswith(f"You chose: {description}")
    page.click("#move-form button:has-text('Send')")
    page.wait_for_selector("text=Move made.")


def game_against_a_bot(live, page, game_id):
    """A two-player game of `game_id` that `page`'s player creates against a bot, started
    at once: its page's URL."""
    page.goto(f"{live.base}/games/new")
    page.select_option("select[name=game]", game_id)
    page.select_option("select[name=players]", "2")
    page.select_option("select[name=bots]", "1")
    page.click("button:has-text('Create and invite')")
    page.wait_for_selector("#live")
    return page.url
