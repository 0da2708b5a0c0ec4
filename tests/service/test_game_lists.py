"""My games names each game as players know it, its opponents and whom it waits for
until when; the game page says each seat's clock in words."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlmodel import select

import engine
from service.db import transaction
from service.models import Deadline, Game
from service.pages import seat_clocks
from tests.conftest import Player
from tests.service.test_hostile_input import signed_in_client


def test_my_games_names_the_game_its_opponents_and_whose_turn_until_when(app):
    ann, bob = Player(app, "ann-lists@example.org"), Player(app, "bob-lists@example.org")
    game = ann.post("/api/games", json={"game": "tigris", "players": 2, "invite": [bob.email]}).json
    bob.post(f"/api/games/{game['id']}/accept", json={"version": game["version"]})
    with transaction(app.extensions["turnpost"]["database"]) as db:
        row = db.get(Game, game["id"])
        waits_for = int(next(iter(engine.get_game("tigris").pending(engine.get_game("tigris").from_json(row.state)))))
        due = db.exec(select(Deadline).where(Deadline.game_id == row.id, Deadline.kind == "timeout",
                                              Deadline.done_at.is_(None))).one().due_at
    client = signed_in_client(app, ann)
    page = client.get("/").get_data(as_text=True)
    row_html = page[page.index(f"/games/{game['id']}\""):].split("</tr>")[0]
    assert 'Tigris &amp; Euphrates</a>' in row_html  # the title it gets by default: the game's name
    assert "bob-lists" in row_html and "ann-lists" not in row_html.split("</td>", 1)[1]
    who = "you" if waits_for == 0 else "bob-lists"
    assert f"{who}, until {due:%a %d %b %H:%M} UTC" in row_html


def test_a_seats_clock_is_its_time_left_while_it_decides_and_else_its_bank():
    now = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)

    class SeatRow:
        def __init__(self, seat, bank):
            self.seat, self.bank_seconds = seat, bank

    data = {"pending": {"0": "action"}, "player_list": [
        {"seat": 0, "deadline": now + timedelta(days=2, hours=5), "resigned": False, "bot": None},
        {"seat": 1, "deadline": None, "resigned": False, "bot": None},
        {"seat": 2, "deadline": None, "resigned": False, "bot": "greedy"}]}
    clocks = seat_clocks(data, [SeatRow(0, 3 * 86400), SeatRow(1, 4 * 86400 + 3600), SeatRow(2, 86400)], now)
    assert clocks == {0: "2 days and 5 hours left, until Thu 03 Jan 17:00 UTC", 1: "4 days and 1 hour in the bank"}
