"""Games with bots one user may have going at once (BOT_GAMES_PER_USER): refused past
the limit with a reason naming it, through the API, the new-game form and
`turnpost demo`, and nothing written; a game that ends frees its place."""
import random
from datetime import UTC, datetime

import pytest
from click.testing import CliRunner
from sqlmodel import col, func, select

from service.models import Deadline, Game, User
from tests.service.test_hostile_input import signed_in_client
from tests.workers.test_links_and_preferences import csrf_of


def games_of(db, email: str) -> int:
    with db() as session:
        return session.exec(select(func.count(col(Game.id))).join(User, col(User.id) == Game.creator_id)
                            .where(User.email == email)).one()


@pytest.fixture
def creators(db):
    """The addresses whose games a test made: afterwards their games are ended and
    their deadlines closed, so no bot turn is left due for another test's sweep."""
    emails = []
    yield emails
    with db() as session:
        games = session.exec(select(Game).join(User, User.id == Game.creator_id).where(User.email.in_(emails))).all()
        for game in games:
            game.status = "abandoned"
            open_deadlines = select(Deadline).where(Deadline.game_id == game.id, Deadline.done_at.is_(None))
            for deadline in session.exec(open_deadlines):
                deadline.done_at, deadline.outcome = datetime.now(UTC), "cancelled"


def test_the_api_refuses_a_game_with_bots_past_the_limit_until_one_ends(app, make_player, db, monkeypatch, creators):
    monkeypatch.setattr(app.extensions["turnpost"]["settings"], "bot_games_per_user", 2)
    player = make_player("flood")
    creators.append(player.email)
    against_bot = {"game": "tigris", "players": 2, "invite": [{"bot": "random"}]}
    first, second = (player.post("/api/games", json=against_bot) for _ in range(2))
    assert first.status_code == second.status_code == 201 and first.json["status"] == "active"
    refused = player.post("/api/games", json=against_bot)
    assert refused.status_code == 422, refused.json
    assert refused.json["code"] == "bot_game_limit"
    assert "at most 2 of your games may have bots at once" in refused.json["message"]
    assert games_of(db, player.email) == 2
    # Games without bots are not counted or limited.
    assert player.post("/api/games", json={"game": "tigris", "players": 2}).status_code == 201
    # A game that ends frees its place.
    game = player.get(f"/api/games/{first.json['id']}").json
    assert player.post(f"/api/games/{game['id']}/resign", json={"version": game["version"]}).status_code == 200
    assert player.get(f"/api/games/{game['id']}").json["status"] == "finished"
    assert player.post("/api/games", json=against_bot).status_code == 201


def test_the_new_game_form_shows_the_limit_and_creates_nothing(app, make_player, db, monkeypatch, creators):
    monkeypatch.setattr(app.extensions["turnpost"]["settings"], "bot_games_per_user", 1)
    player = make_player("form")
    creators.append(player.email)
    against_bot = {"game": "tigris", "players": 2, "invite": [{"bot": "greedy"}]}
    assert player.post("/api/games", json=against_bot).status_code == 201
    client = signed_in_client(app, player)
    form = {"csrf_token": csrf_of(client.get("/games/new").get_data(as_text=True)), "game": "tigris",
            "players": "3", "bots": "2", "bot_kind": "strong", "title": "one too many"}
    answer = client.post("/games/new", data=form)
    assert answer.status_code == 422
    assert "at most 1 of your games may have bots at once" in answer.get_data(as_text=True)
    assert games_of(db, player.email) == 1


def test_the_demo_command_keeps_the_limit(db, database_url, monkeypatch, tmp_path, creators):
    from workers.cli import main as cli

    monkeypatch.setenv("DATABASE_URL", database_url)
    monkeypatch.setenv("SECRET_KEY", "cli")
    monkeypatch.delenv("REDIS_URL", raising=False)
    monkeypatch.delenv("SMTP_URL", raising=False)
    monkeypatch.setenv("TURNPOST_MAILDIR", str(tmp_path / "mail"))
    monkeypatch.setenv("BOT_GAMES_PER_USER", "1")
    email = f"demo-limit-{random.randrange(10**9)}@example.org"
    creators.append(email)
    first = CliRunner().invoke(cli, ["demo", email, "--bots", "1", "--bot", "random"])
    assert first.exit_code == 0, first.output
    second = CliRunner().invoke(cli, ["demo", email, "--bots", "1", "--bot", "random"])
    assert second.exit_code != 0 and "at most 1 of your games may have bots at once" in second.output
    assert games_of(db, email) == 1
