"""Replays show each seat no more than it saw, at every step of a finished 4-player
game of each type. The games are played to their end with random moves, written into
a started game's log as the service writes moves; then, for every seat and the
spectator, every step of the replay is the view that seat had at that point, and
(the sentinel method of tests/engine/test_prompt_leaks.py) the same view comes out
when any other seat's private facts at that point are changed. A finished game's
last step shows what the rules reveal at the end. Through the API: the steps, the
caller's log entries, and the refusals."""
from __future__ import annotations

import json
import random

import pytest

import engine
from engine.simulate import random_playout, uniform_choice
from service import replay
from service.db import reading, transaction
from service.models import Game, Move
from service.play import json_keys
from tests.conftest import start_game
from tests.engine.test_prompt_leaks import GAMES

SEEDS = {"tigris": 3, "euphrat-cards": 1, "eden": 2, "civ-cards": 3}  # games that end in 185 to 560 moves


def finish_by_random_play(app, game_id: int) -> list[tuple]:
    """Play the started game to its end from its own seed, writing the log, the final
    state and the result as the service does; returns the (state, seat, move) steps."""
    db_engine = app.extensions["turnpost"]["database"]
    with transaction(db_engine) as db:
        game = db.get(Game, game_id)
        assert game is not None and game.id is not None and game.seed is not None, "a started game"
        rules = engine.get_game(game.game_type)
        choose = GAMES[game.game_type].choose if game.game_type == "euphrat-cards" else uniform_choice
        played = list(random_playout(rules, game.players, game.seed, game.options, choose=choose))
        for seq, (_, seat, move, _, events) in enumerate(played, start=1):
            db.add(Move(game_id=game.id, seq=seq, seat=seat, move=move, events=events))
        final = played[-1][3]
        game.state, game.move_count = rules.to_json(final), len(played)
        game.status, game.result, game.version = "finished", json_keys(rules.outcome(final)), game.version + 1
    return [(state, seat, move) for state, seat, move, _, _ in played] + [(final, None, None)]


def check_every_step(app, game_id: int, positions: list[tuple], viewer: int | None, rng: random.Random) -> None:
    db_engine = app.extensions["turnpost"]["database"]
    with reading(db_engine) as db:
        game = db.get(Game, game_id)
        assert game is not None
        table = Move.__table__  # type: ignore[attr-defined]  # SQLModel sets it on a table model
        rows = list(db.exec(table.select().where(Move.game_id == game_id).order_by(Move.seq)))
        moves = [Move(**row._mapping) for row in rows]
    rules, spec = engine.get_game(game.game_type), GAMES[game.game_type]
    found = [replay.seen(game, step, viewer) for step in replay.steps(game, moves, viewer)]
    assert [f["step"] for f in found] == list(range(len(positions)))
    for (state, _, _), step in zip(positions, found):
        where = f"{game.game_type}, seat {viewer}, step {step['step']}"
        assert step["view"] == rules.view(state, viewer), where  # what that seat saw then
        if rules.outcome(state) is not None:
            continue  # the end: the rules reveal everything
        data = rules.to_json(state)
        for hidden in range(game.players):
            if hidden == viewer:
                continue
            varied = rules.from_json(spec.vary(json.loads(json.dumps(data)), hidden, rng, {}))
            assert rules.view(varied, viewer) == step["view"], where + f", seat {hidden}'s private facts changed"


@pytest.mark.parametrize("game_id", sorted(SEEDS))
def test_replays_of_a_finished_four_player_game_show_each_seat_no_more_than_it_saw(app, make_player, game_id):
    players, game = start_game(make_player, 4, game=game_id, spectators=True)
    positions = finish_by_random_play(app, game["id"])
    rng = random.Random(SEEDS[game_id])
    for viewer in [None, 0, 1, 2, 3]:
        check_every_step(app, game["id"], positions, viewer, rng)
    # Through the API, the same steps: the first, one in the middle, the last.
    last = len(positions) - 1
    for seat, person in enumerate(players):
        for step in (0, last // 2, last):
            answer = person.get(f"/api/games/{game['id']}/history/{step}")
            assert answer.status_code == 200, answer.json
            assert answer.json["view"] == engine.get_game(game_id).view(positions[step][0], seat)
            assert answer.json["steps"] == last and "state" not in answer.json
    watcher = make_player("watcher").get(f"/api/games/{game['id']}/history/{last // 2}")
    assert watcher.json["view"] == engine.get_game(game_id).view(positions[last // 2][0], None)


def test_replay_steps_follow_the_callers_log_and_refuse_what_is_not_there(app, make_player):
    players, game = start_game(make_player, 2)
    gid = game["id"]
    start = players[0].get(f"/api/games/{gid}/history/0").json
    assert start["step"] == 0 and start["steps"] == 0 and start["entry"] is None
    rules = engine.get_game("tigris")
    with reading(app.extensions["turnpost"]["database"]) as db:
        state = rules.from_json(db.get(Game, gid).state)
    assert start["view"] == rules.view(state, 0)
    seat = min(rules.pending(state))
    move = rules.legal_moves(state, seat)[0]
    players[seat].post(f"/api/games/{gid}/moves", json={"version": game["version"], "move": move})
    one = players[1 - seat].get(f"/api/games/{gid}/history/1").json
    log = players[1 - seat].get(f"/api/games/{gid}/log").json["entries"]
    assert one["entry"] == log[0] and one["steps"] == 1
    assert one["view"] == rules.view(rules.apply(state, seat, move)[0], 1 - seat)
    past = players[0].get(f"/api/games/{gid}/history/2")
    assert past.status_code == 404 and past.json["code"] == "no_such_step"
    assert "0 (the start) to 1" in past.json["message"]
    assert make_player("stranger").get(f"/api/games/{gid}/history/0").status_code == 403
    unstarted = players[0].post("/api/games", json={"game": "tigris", "players": 2}).json
    assert players[0].get(f"/api/games/{unstarted['id']}/history/0").json["code"] == "not_started"


def test_the_replay_page_steps_show_the_board_and_the_entry(app, make_player):
    from tests.service.test_hostile_input import signed_in_client

    players, game = start_game(make_player, 2)
    gid = game["id"]
    rules = engine.get_game("tigris")
    with reading(app.extensions["turnpost"]["database"]) as db:
        state = rules.from_json(db.get(Game, gid).state)
    seat = min(rules.pending(state))
    move = next(m for m in rules.legal_moves(state, seat) if m["type"] == "place_tile")
    players[seat].post(f"/api/games/{gid}/moves", json={"version": game["version"], "move": move})
    client = signed_in_client(app, players[seat])
    page = client.get(f"/games/{gid}").get_data(as_text=True)
    assert 'id="replay"' in page and 'data-step="1"' in page
    fragment = client.get(f"/games/{gid}/replay/1").get_data(as_text=True)
    assert "Step 1 of 1" in fragment and "<svg" in fragment and f"on {move['square']}" in fragment
    assert client.get(f"/games/{gid}/replay/5").status_code == 404
