"""The whole life of Tigris games through the HTTP API, on PostgreSQL."""
import hashlib
import random

from click.testing import CliRunner
from sqlmodel import select

import engine
from service.models import Deadline, Game, Move, Seat
from tests.conftest import put_position, start_game
from tests.engine.tigris_positions import revolt_position
from workers.cli import main as cli

TIGRIS = engine.get_game("tigris")


def play_random(players, game_id, steps, rng, choose=None):
    """Let whoever is pending play a random legal move, `steps` times (or to the end);
    `choose(rng, game, entries)` picks among the legal move entries (default: uniformly)."""
    game = players[0].get(f"/api/games/{game_id}").json
    for _ in range(steps):
        if game["status"] != "active":
            break
        seat = int(rng.choice(sorted(game["pending"])))
        legal = players[seat].get(f"/api/games/{game_id}/moves/legal").json
        assert legal.get("version") == game["version"] and legal["moves"], (legal, game["pending"])
        choice = choose(rng, game, legal["moves"]) if choose else rng.choice(legal["moves"])
        body = {"text": choice["text"]} if rng.random() < 0.5 else {"move": choice["move"]}
        answer = players[seat].post(f"/api/games/{game_id}/moves", json={**body, "version": game["version"]})
        assert answer.status_code == 200, answer.json
        game = answer.json["game"]
    return game


def test_three_player_game_from_invitation_to_conflict_and_resignation(app, make_player, db, outbox):
    players, game = start_game(make_player, 3, title="Ur and Uruk", time_control={"initial_seconds": 2 * 86400})
    gid = game["id"]
    assert game["seed_hash"] and game["seed"] is None and len(game["players"]) == 3
    for p in players[1:]:
        assert outbox(p.email, "invitation"), "invitations were written to the outbox"
    first = next(iter(game["pending"]))
    assert outbox(players[int(first)].email, "your_turn")
    game = play_random(players, gid, 12, random.Random(1))

    # A revolt: seat 0 places a priest into seat 1's kingdom; seat 1 defends over HTTP.
    state = revolt_position({0: {"red": 3, "black": 3}, 1: {"red": 2, "blue": 4}, 2: {"green": 6}}, players=3)
    version = put_position(app.extensions["turnpost"]["database"], gid, state)
    answer = players[0].post(f"/api/games/{gid}/moves", json={"text": "leader priest H4", "version": version})
    assert answer.status_code == 200 and answer.json["game"]["pending"] == {"0": "support"}
    answer = players[0].post(f"/api/games/{gid}/moves",
                             json={"move": {"type": "commit_support", "count": 2}, "version": answer.json["version"]})
    defender = players[1].get(f"/api/games/{gid}").json
    assert defender["pending"] == {"1": "support"}
    assert defender["view"]["conflict"]["attacker_commit"] == 2
    legal = players[1].get(f"/api/games/{gid}/moves/legal").json
    assert [m["text"] for m in legal["moves"]] == ["support 0", "support 1", "support 2"]
    answer = players[1].post(f"/api/games/{gid}/moves", json={"text": "support 2", "version": defender["version"]})
    assert answer.status_code == 200
    resolved = [e for e in answer.json["events"] if e["type"] == "conflict_resolved"]
    assert resolved and resolved[0]["winner"] == 1  # 2+2 against 2+2: the defender holds

    # Seat 2 resigns: the game goes on, the service plays seat 2's decisions.
    game = players[2].get(f"/api/games/{gid}").json
    answer = players[2].post(f"/api/games/{gid}/resign", json={"version": game["version"]})
    assert answer.status_code == 200 and answer.json["status"] == "active"
    game = play_random(players, gid, 25, random.Random(2))

    with db() as session:
        moves = list(session.exec(select(Move).where(Move.game_id == gid).order_by(Move.seq)))
        assert [m.seq for m in moves] == list(range(1, len(moves) + 1))
        assert any(m.by_service and m.seat == 2 for m in moves)
        seats = {s.seat: s for s in session.exec(select(Seat).where(Seat.game_id == gid))}
        assert seats[2].resigned and not seats[0].resigned
        assert session.exec(select(Deadline).where(Deadline.game_id == gid, Deadline.kind == "timeout")).first()
        open_timeouts = session.exec(select(Deadline).where(
            Deadline.game_id == gid, Deadline.kind == "timeout", Deadline.done_at.is_(None))).all()
        pending = {int(s) for s in players[0].get(f"/api/games/{gid}").json["pending"]}
        assert {d.seat for d in open_timeouts} == pending - {2}


def test_a_game_played_to_the_end_reveals_its_seed_and_replays(make_player, db, outbox, database_url, monkeypatch):
    players, game = start_game(make_player, 2)
    gid = game["id"]
    assert players[0].get(f"/api/games/{gid}/export").status_code == 409
    game = play_random(players, gid, 2000, random.Random(7))
    assert game["status"] == "finished" and game["result"]["ranking"]
    assert hashlib.sha256(game["seed"].encode()).hexdigest() == game["seed_hash"]
    record = players[1].get(f"/api/games/{gid}/export").json
    assert record["seed"] == game["seed"] and len(record["moves"]) > 100
    assert all(outbox(p.email, "game_over") for p in players)
    late = players[0].post(f"/api/games/{gid}/moves", json={"text": "support 0", "version": game["version"]})
    assert late.status_code == 409 and late.json["code"] == "game_not_active"

    monkeypatch.setenv("DATABASE_URL", database_url)
    monkeypatch.setenv("SECRET_KEY", "cli")
    result = CliRunner().invoke(cli, ["replay-check", str(gid)])
    assert result.exit_code == 0 and "replay to the stored snapshot" in result.output
    with db() as session:
        game_row = session.get(Game, gid)  # a tampered snapshot is caught
        game_row.state = {**game_row.state, "rng": game_row.state["rng"] + 1}
    result = CliRunner().invoke(cli, ["replay-check", str(gid)])
    assert result.exit_code != 0 and "differs" in result.output


def test_abandon_needs_every_players_vote(make_player):
    players, game = start_game(make_player, 2)
    gid = game["id"]
    game = players[0].post(f"/api/games/{gid}/abandon", json={"version": game["version"]}).json
    assert game["status"] == "active"
    game = players[1].post(f"/api/games/{gid}/abandon", json={"version": game["version"]}).json
    assert game["status"] == "abandoned" and game["seed"] is not None and game["result"] is None


def test_waiting_games_and_token_commands(make_player, database_url, monkeypatch):
    players, game = start_game(make_player, 2)
    waiting_seat = int(next(iter(game["pending"])))
    for seat, p in enumerate(players):
        listed = [g["id"] for g in p.get("/api/me/games?waiting=1").json["games"]]
        assert (game["id"] in listed) == (seat == waiting_seat)
        assert game["id"] in [g["id"] for g in p.get("/api/me/games").json["games"]]
    monkeypatch.setenv("DATABASE_URL", database_url)
    monkeypatch.setenv("SECRET_KEY", "cli")
    result = CliRunner().invoke(cli, ["token", "create", players[0].email])
    assert result.exit_code == 0
    token = result.output.strip()
    answer = players[0].client.get("/api/me/games", headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 200 and answer.json["games"]


def test_tigris_variants_are_created_and_played_over_http(make_player):
    players, game = start_game(make_player, 2, options={"buildings": True, "ziggurat": True, "open_tiles": True,
                                                        "board": "advanced"})
    assert game["options"]["buildings"] is True and game["options"]["ziggurat"] is True
    assert sum(game["view"]["display"].values()) == 6
    assert game["view"]["buildings"] == {"red": None, "blue": None, "green": None, "black": None}
    assert game["view"]["ziggurat"] == {"square": None, "offer": None, "point_taken": False}
    game = play_random(players, game["id"], 20, random.Random(3))
    assert game["status"] in ("active", "finished")
    refused = players[0].post("/api/games", json={"game": "tigris", "players": 2, "options": {"buildings": "yes"}})
    assert refused.status_code == 422 and refused.json["code"] == "bad_option"


def test_the_new_game_page_creates_tigris_games_with_the_ticked_variants(make_player):
    import re

    creator = make_player("creator")
    form = creator.get("/games/new").get_data(as_text=True)
    assert all(f'name="option-tigris-{name}"' in form
               for name in ("buildings", "ziggurat", "open_tiles", "english_variant"))
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', form).group(1)
    answer = creator.client.post("/games/new", headers=creator.headers, data={
        "csrf_token": csrf, "game": "tigris", "players": "2", "option-tigris-board": "advanced",
        "option-tigris-buildings": "on", "option-tigris-open_tiles": "on", "days_per_decision": "3",
        "timeout_policy": "default_move", "seat_order": "fixed"})
    assert answer.status_code == 302
    game_id = int(answer.headers["Location"].rstrip("/").rsplit("/", 1)[1])
    options = creator.get(f"/api/games/{game_id}").json["options"]
    assert (options["board"], options["buildings"], options["open_tiles"], options["ziggurat"]) == (
        "advanced", True, True, False)


def test_a_move_with_prefer_return_minimal_answers_only_the_new_version(make_player):
    players, game = start_game(make_player, 2)
    gid, seat = game["id"], int(next(iter(game["pending"])))
    mover = players[seat]
    move = mover.get(f"/api/games/{gid}/moves/legal").json["moves"][0]["move"]
    minimal = {**mover.headers, "Prefer": "handling=lenient, return=minimal"}
    answer = mover.client.post(f"/api/games/{gid}/moves", json={"move": move, "version": game["version"]},
                               headers=minimal)
    assert answer.status_code == 200 and answer.json == {"version": game["version"] + 1}
    assert answer.headers["Preference-Applied"] == "return=minimal"
    assert mover.get(f"/api/games/{gid}/log").json["entries"][-1]["move"] == move
    stale = mover.client.post(f"/api/games/{gid}/moves", json={"move": move, "version": game["version"]},
                              headers=minimal)
    assert stale.status_code == 409 and stale.json["current_version"] == game["version"] + 1
