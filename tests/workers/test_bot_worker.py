"""Bot seats on the production path: a real Celery worker process plays the bots'
turns (handed over at once, not at the next sweep), the human gets his emails over
SMTP, the bots none."""
from __future__ import annotations

import uuid

from sqlmodel import select

from service.db import transaction
from service.models import Game, Move, Seat
from tests.conftest import Player
from tests.workers.test_end_to_end import mails_to, settle, stack, wait_for  # noqa: F401 (stack: a fixture)


def game_row(stack, game_id) -> Game:
    with transaction(stack.engine) as db:
        game = db.get(Game, game_id)
    assert game is not None
    return game


def test_a_worker_plays_the_bots_to_the_end_and_emails_only_the_human(stack):
    solo = Player(stack.app, f"solo-{uuid.uuid4().hex[:8]}@example.org")
    title = f"against bots {uuid.uuid4().hex[:8]}"
    with stack.worker():
        game = solo.post("/api/games", json={
            "game": "tigris", "players": 3, "title": title, "invite": [{"bot": "random"}, {"bot": "greedy"}]}).json
        gid = game["id"]
        assert game["status"] == "active"
        # The bots play until the human owes a decision, and he is told by email.
        mine = str(game["your_seat"])
        wait_for(lambda: mine in solo.get(f"/api/games/{gid}").json["pending"], what="the human's turn")
        wait_for(lambda: [m for m in mails_to(stack.inbox, solo.email) if m["Subject"] == f"{title}: your decision"],
                 what="the decision email")
        game = solo.get(f"/api/games/{gid}").json
        legal = solo.get(f"/api/games/{gid}/moves/legal").json["moves"]
        tile = next(m for m in legal if m["move"]["type"] == "place_tile")
        assert solo.post(f"/api/games/{gid}/moves",
                         json={"move": tile["move"], "version": game["version"]}).status_code == 200
        # He leaves: the stand-in plays his seat, the worker the bots', to the end.
        game = solo.get(f"/api/games/{gid}").json
        assert solo.post(f"/api/games/{gid}/resign", json={"version": game["version"]}).status_code == 200
        wait_for(lambda: game_row(stack, gid).status == "finished", timeout=240, what="the bots to finish the game")
        settle(stack, gid)
    assert {m["To"] for m in stack.inbox.messages if title in m["Subject"]} == {solo.email}
    assert [m for m in mails_to(stack.inbox, solo.email) if m["Subject"] == f"{title}: game over"]
    with transaction(stack.engine) as db:
        bots = {s.seat for s in db.exec(select(Seat).where(Seat.game_id == gid)) if s.bot}
        moves = list(db.exec(select(Move).where(Move.game_id == gid)))
    assert bots <= {m.seat for m in moves} and len(moves) > 100
