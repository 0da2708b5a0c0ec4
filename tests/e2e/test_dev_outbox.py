"""The embedded service as a newcomer meets it: mail caught in the local outbox page,
shown as HTML with its picture, and a reply typed there is a move."""
from __future__ import annotations

import socket
import threading
import time

import pytest
from werkzeug.serving import make_server

import engine
from service.app import create_app
from service.config import Settings
from service.db import transaction
from service.models import Game
from tests.conftest import Player
from tests.workers.conftest import free_port
from workers.inbound_smtp import start_inbound_smtp
from workers.wiring import start_dispatcher


@pytest.fixture
def embedded(database_url, tmp_path):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    settings = Settings(database_url=database_url, base_url=base, secret_key="outbox-secret", redis_url=None,
                        smtp_url=None, maildir=tmp_path / "mail", dev_mode=True, sign_in_limit="1000 per minute",
                        inbound_smtp_port=free_port())
    app = create_app(settings)
    start_dispatcher(app)
    state = app.extensions["turnpost"]
    inbound = start_inbound_smtp(settings, state["database"], state["dispatcher"].inbound, "127.0.0.1",
                                 settings.inbound_smtp_port)
    server = make_server("127.0.0.1", port, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    app.base = base
    yield app
    server.shutdown()
    inbound.stop()
    state["dispatcher"].stop()


def test_a_reply_typed_in_the_local_outbox_is_a_move(embedded, browser, screenshot):
    ann, bob = Player(embedded, "ann-outbox@example.org"), Player(embedded, "bob-outbox@example.org")
    game = ann.post("/api/games",
                    json={"game": "tigris", "players": 2, "invite": [bob.email], "title": "Outbox game"}).json
    bob.post(f"/api/games/{game['id']}/accept", json={"version": game["version"]})
    with transaction(embedded.extensions["turnpost"]["database"]) as db:
        row = db.get(Game, game["id"])
        rules = engine.get_game("tigris")
        state = rules.from_json(row.state)
        version = row.version
    seat = next(iter(rules.pending(state)))
    move = rules.format_move(next(m for m in rules.legal_moves(state, seat) if m["type"] == "place_tile"))
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    page.goto(f"{embedded.base}/dev/mail")
    for _ in range(50):  # the mail thread delivers just after the commit
        if page.locator("summary", has_text="your decision").count():
            break
        time.sleep(0.1)
        page.reload()
    turn = page.locator("details.panel", has=page.locator("summary", has_text="your decision")).first
    if turn.get_attribute("open") is None:
        turn.locator(":scope > summary").click()
    frame = turn.frame_locator("iframe")
    assert frame.locator("img[alt^='The board']").count() == 1  # the HTML email, with its picture
    assert frame.locator("text=Moves open now").count() == 1
    screenshot(page, "turn-email")
    turn.evaluate("details => { details.open = true; }")  # however many emails came before it
    turn.locator("textarea[name=body]").fill(move)
    turn.locator("button", has_text="Send reply").click()
    page.wait_for_url("**/dev/mail?replied=*")
    for _ in range(50):
        with transaction(embedded.extensions["turnpost"]["database"]) as db:
            if db.get(Game, game["id"]).version == version + 1:
                break
        time.sleep(0.1)
    else:
        raise AssertionError("the reply typed in the outbox was not applied")
    for _ in range(50):
        page.reload()
        if page.locator("summary", has_text="Re:").count():
            break
        time.sleep(0.1)
    answer = page.locator("details.panel", has=page.locator("summary", has_text="Re:")).first
    if answer.get_attribute("open") is None:
        answer.locator(":scope > summary").click()
    assert answer.frame_locator("iframe").locator("text=Applied:").count() == 1
    screenshot(page, "answer")
    page.set_viewport_size({"width": 375, "height": 740})  # the outbox on a phone: nothing wider than it
    screenshot(page, "phone")
    wide = page.evaluate("""() => [...document.querySelectorAll('body *')]
        .filter(e => e.getBoundingClientRect().right > 376).map(e => e.tagName + '.' + e.className)""")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375, wide
