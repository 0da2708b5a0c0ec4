"""Many submits of the same version at once: exactly one wins, on PostgreSQL."""
import threading

from sqlmodel import select

import engine
from service.models import Game, Move
from service.play import replay
from tests.conftest import start_game


def test_simultaneous_submits_with_one_version_accept_exactly_one(make_player, db):
    players, game = start_game(make_player, 2)
    gid = game["id"]
    for _round in range(3):
        seat = int(next(iter(game["pending"])))
        legal = players[seat].get(f"/api/games/{gid}/moves/legal").json["moves"]
        barrier = threading.Barrier(16)
        answers = []

        def submit(i, legal=legal, game=game, seat=seat, barrier=barrier, answers=answers):
            body = {"move": legal[i % len(legal)]["move"], "version": game["version"]}
            client = players[seat].client.application.test_client()
            barrier.wait()
            answers.append(client.post(f"/api/games/{gid}/moves", json=body, headers=players[seat].headers))

        threads = [threading.Thread(target=submit, args=(i,)) for i in range(16)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        codes = sorted(a.status_code for a in answers)
        assert codes == [200] + [409] * 15, codes
        stale = next(a for a in answers if a.status_code == 409).json
        assert stale["code"] == "stale_version" and stale["current_version"] == game["version"] + 1
        game = players[0].get(f"/api/games/{gid}").json

    with db() as session:
        row = session.get(Game, gid)
        moves = list(session.exec(select(Move).where(Move.game_id == gid).order_by(Move.seq)))
        assert [m.seq for m in moves] == [1, 2, 3]
        assert engine.get_game("tigris").to_json(replay(row, moves)) == row.state
