"""Bot seats in service games: created through the API, played by firing their
deadlines (as the workers do), only through what their seat sees, never emailed."""
import json
import random
from datetime import UTC, datetime

import pytest
from sqlmodel import select

import engine
import engine.bots
from service.models import Deadline, Game, Move, Notification, Seat
from tests.engine.euphrat_cards_positions import purposeful_choice
from workers import deadlines


def fire_due(db_engine) -> int:
    """Fire every due deadline (bots' turns) until none is left, as the sweeper does."""
    fired = 0
    while True:
        due = deadlines.due_ids(db_engine, datetime.now(UTC))
        if not due:
            return fired
        for deadline_id in due:
            deadlines.fire(db_engine, deadline_id, datetime.now(UTC))
            fired += 1


def _state(db_engine, gid):
    from service.db import transaction

    with transaction(db_engine) as session:
        game = session.get(Game, gid)
        return engine.get_game(game.game_type).from_json(game.state)


def play_human(player, gid, rng, db_engine, limit=2000, choose=None, until_move=None) -> dict:
    """The human plays random legal moves (or as `choose` picks); bots answer in
    between; to the end."""
    game = player.get(f"/api/games/{gid}").json
    for _ in range(limit):
        fire_due(db_engine)
        game = player.get(f"/api/games/{gid}").json
        if game["status"] != "active" or until_move and game["version"] > until_move:
            return game
        assert str(game["your_seat"]) in game["pending"], "only the human can be waited for"
        legal = [entry["move"] for entry in player.get(f"/api/games/{gid}/moves/legal").json["moves"]]
        move = choose(rng, _state(db_engine, gid), legal) if choose else rng.choice(legal)
        answer = player.post(f"/api/games/{gid}/moves", json={"move": move, "version": game["version"]})
        assert answer.status_code == 200, answer.json
    raise AssertionError("the game did not end")


# A card player who never moves toward the end can reach a table the rules never end
# (docs/games/euphrat-cards.md, "A dead table"): there the human plays with a purpose.
@pytest.mark.parametrize("game_type,kinds", [("tigris", ["greedy"]), ("euphrat-cards", ["greedy"])])
def test_bot_seats_play_to_the_end_and_only_humans_get_email(app, make_player, db, outbox, game_type, kinds):
    human = make_player("solo")
    created = human.post("/api/games", json={
        "game": game_type, "players": 1 + len(kinds), "invite": [{"bot": k} for k in kinds]})
    assert created.status_code == 201, created.json
    game = created.json
    assert game["status"] == "active", "a game of one person and bots starts at once"
    assert game["timeout_policy"] == "bot"
    assert [p["bot"] for p in game["players"]].count(None) == 1
    assert all(p["email"] is None for p in game["players"] if p["bot"])
    engine_ = app.extensions["turnpost"]["database"]
    # A card game takes the greedy bot long; its first 150 decisions show the same.
    choose, until = (purposeful_choice, 150) if game_type == "euphrat-cards" else (None, None)
    final = play_human(human, game["id"], random.Random(3), engine_, choose=choose, until_move=until)
    assert until or final["status"] == "finished" and final["result"]["ranking"]
    with db() as session:
        seats = list(session.exec(select(Seat).where(Seat.game_id == game["id"])))
        bot_seats = {s.seat for s in seats if s.bot}
        moves = list(session.exec(select(Move).where(Move.game_id == game["id"])))
        assert bot_seats and {m.seat for m in moves if m.by_service} == bot_seats
        assert all(m.by_service for m in moves if m.seat in bot_seats)
        mail = list(session.exec(select(Notification).where(Notification.game_id == game["id"])))
        assert {n.email for n in mail} == {human.email}, "bots get no email"
        bot_turns = list(session.exec(select(Deadline).where(Deadline.game_id == game["id"], Deadline.kind == "bot")))
        assert bot_turns and all(d.done_at is not None for d in bot_turns)
    assert outbox(human.email, "your_turn") and (until or outbox(human.email, "game_over"))


def test_a_bad_bot_seat_is_refused_and_nothing_is_created(make_player, db):
    human = make_player("solo")
    for seat in ({"bot": "clever"}, {"bot": "greedy", "level": 3}, {"robot": "greedy"}, 7):
        answer = human.post("/api/games", json={"game": "tigris", "players": 2, "invite": [seat]})
        assert answer.status_code == 422, answer.json
        assert "bot" in json.dumps(answer.json)
    too_many = human.post("/api/games", json={"game": "tigris", "players": 2, "invite": [{"bot": "random"}] * 2})
    assert too_many.status_code == 422 and too_many.json["code"] == "too_many_invitations"
    with db() as session:
        assert not session.exec(select(Game).where(Game.creator_id == _user_id(session, human.email))).first()


def _user_id(session, email):
    from service.models import User

    return session.exec(select(User.id).where(User.email == email)).first()


def test_a_bot_sees_only_its_seats_view(app, make_player, db, monkeypatch):
    """The human's hand is set two ways (the same size, the bag making up the
    difference); everything the bots are handed is recorded, and must be the same."""
    monkeypatch.setattr(engine.bots.mcts.StrongBot, "__init__", _cheap_strong)
    seen = [_bot_inputs(app, make_player, db, monkeypatch, hand) for hand in
            ({"red": 6, "blue": 0, "green": 0, "black": 0}, {"red": 0, "blue": 0, "green": 3, "black": 3})]
    assert seen[0], "the bots were asked to move"
    # Before any draw from the bag (whose make-up differs), the inputs are the same.
    assert seen[0][0] == seen[1][0], "a bot's input depends on another seat's hand"


def _bot_inputs(app, make_player, db, monkeypatch, hand: dict) -> list[str]:
    human = make_player("solo")
    game = human.post("/api/games",
                      json={"game": "tigris", "players": 3, "invite": [{"bot": "greedy"}, {"bot": "strong"}]}).json
    with db() as session:
        row = session.get(Game, game["id"])
        state = engine.get_game("tigris").to_json(engine.get_game("tigris").setup(3, 5, row.options))
        human_seat = next(s.seat for s in session.exec(select(Seat).where(Seat.game_id == game["id"])) if not s.bot)
        held = state["players"][human_seat]["hand"]
        for color in held:  # the bag takes back what the hand gives up, and gives what it gains
            state["bag"][color] += held[color] - hand[color]
        state["players"][human_seat]["hand"] = dict(hand)
        bot_seat = (human_seat + 1) % 3  # a bot to move first, with the deadline a bot's turn gets
        state["turn"]["active"] = bot_seat
        row.state, row.version = state, row.version + 1
        session.add(Deadline(game_id=row.id, seat=bot_seat, kind="bot", due_at=datetime.now(UTC)))
    shown = []
    real_choose = engine.bots.base.Bot.choose

    def recording_choose(self, view, moves):
        shown.append(json.dumps([view, moves], sort_keys=True))
        return real_choose(self, view, moves)

    monkeypatch.setattr(engine.bots.base.Bot, "choose", recording_choose)
    fire_due(app.extensions["turnpost"]["database"])
    monkeypatch.setattr(engine.bots.base.Bot, "choose", real_choose)
    return shown


_strong_init = engine.bots.mcts.StrongBot.__init__


def _cheap_strong(self, game, seed, knowledge, **budget):
    _strong_init(self, game, seed, knowledge, iterations=20)


def test_demo_command_starts_a_game_against_bots_and_mails_a_sign_in_link(db, database_url, monkeypatch, tmp_path):
    from click.testing import CliRunner

    from workers.cli import main as cli

    monkeypatch.setenv("DATABASE_URL", database_url)
    monkeypatch.setenv("SECRET_KEY", "cli")
    monkeypatch.delenv("REDIS_URL", raising=False)
    monkeypatch.delenv("SMTP_URL", raising=False)
    monkeypatch.setenv("TURNPOST_MAILDIR", str(tmp_path / "mail"))
    email = f"demo-{random.randrange(10**9)}@example.org"
    result = CliRunner().invoke(cli, ["demo", email, "--game", "euphrat-cards", "--bots", "1", "--bot", "random"])
    assert result.exit_code == 0, result.output
    game_id = int(result.output.split()[1])
    with db() as session:
        game = session.get(Game, game_id)
        seats = list(session.exec(select(Seat).where(Seat.game_id == game_id)))
        assert game.status == "active" and game.game_type == "euphrat-cards"
        assert game.title == "Euphrat & Tigris: the card game against a random bot"
        assert sorted(s.bot or "" for s in seats) == ["", "random"] and any(s.email == email for s in seats)
        sign_in = session.exec(
            select(Notification).where(Notification.email == email, Notification.kind == "sign_in")).first()
        assert sign_in is not None and sign_in.sent_at is not None
    assert any(tmp_path.rglob("*")), "the sign-in email is in the local mailbox"
    bad = CliRunner().invoke(cli, ["demo", email, "--game", "chess"])
    assert bad.exit_code != 0 and "unknown game" in bad.output


def test_a_late_players_decision_is_made_by_a_bot_under_the_default_policy(app, make_player, db, outbox):
    from tests.conftest import start_game

    players, game = start_game(make_player, 2)
    assert game["timeout_policy"] == "bot"
    late = int(next(iter(game["pending"])))
    engine_ = app.extensions["turnpost"]["database"]
    with db() as session:
        timeout = session.exec(select(Deadline).where(
            Deadline.game_id == game["id"], Deadline.seat == late, Deadline.kind == "timeout")).one()
    deadlines.fire(engine_, timeout.id, timeout.due_at)
    after = players[0].get(f"/api/games/{game['id']}").json
    assert str(late) not in after["pending"] and after["version"] > game["version"]
    with db() as session:
        played = list(session.exec(select(Move).where(Move.game_id == game["id"], Move.seat == late)))
    assert len(played) >= 2 and all(m.by_service for m in played), "the whole turn"
    notice = outbox(players[1 - late].email, "deadline_passed")
    assert notice and notice[-1].payload["policy"] == "bot"
