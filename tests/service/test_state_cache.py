"""The per-process cache of game states: bounded, and never serving a state for a row
that holds anything but the JSON it was built from."""
import engine
from service.models import Game
from service.play.state_cache import StateCache, states
from tests.conftest import start_game

TIGRIS = engine.get_game("tigris")


def test_the_least_recently_used_entry_goes_first():
    cache = StateCache(capacity=3)
    for game_id in range(3):
        cache.put((game_id, 1, 0), {"n": game_id}, f"state {game_id}")
    assert cache.get((0, 1, 0), {"n": 0}) == "state 0"  # now the most recently used
    cache.put((3, 1, 0), {"n": 3}, "state 3")
    assert len(cache) == 3
    assert cache.get((1, 1, 0), {"n": 1}) is None
    assert [cache.get((g, 1, 0), {"n": g}) for g in (0, 2, 3)] == ["state 0", "state 2", "state 3"]


def test_a_state_is_served_only_for_the_json_it_was_built_from():
    cache = StateCache()
    cache.put((7, 4, 9), {"rng": 1}, "built from rng 1")
    assert cache.get((7, 4, 9), {"rng": 1}) == "built from rng 1"  # equal, read anew
    assert cache.get((7, 4, 9), {"rng": 2}) is None


def test_a_move_leaves_its_state_for_the_next_request_and_a_rewritten_row_is_read_anew(make_player, db):
    players, game = start_game(make_player, 2)
    gid, seat = game["id"], int(next(iter(game["pending"])))
    move = players[seat].get(f"/api/games/{gid}/moves/legal").json["moves"][0]["move"]
    moved = players[seat].post(f"/api/games/{gid}/moves", json={"move": move, "version": game["version"]}).json
    with db() as session:
        row = session.get(Game, gid)
        key, stored = (gid, row.version, row.move_count), row.state
    assert moved["version"] == key[1] and states.get(key, stored) is not None

    # The row rewritten under the same version and move count (by hand, as a repair would).
    changed = {**stored, "turn": {**stored["turn"], "active": 1 - stored["turn"]["active"]}}
    with db() as session:
        session.get(Game, gid).state = changed
    shown = players[0].get(f"/api/games/{gid}").json
    assert shown["pending"] == {str(changed["turn"]["active"]): "action"} != game["pending"]
    assert TIGRIS.pending(states.get(key, changed)) == {changed["turn"]["active"]: "action"}
