"""No response to one seat ever holds another seat's hand (planted sentinels)."""
import json

from service.models import Game

from tests.conftest import start_game

SCORE_SENTINELS = {0: 7391801, 1: 7391802, 2: 7391803}  # scores are hidden too
HAND_SENTINELS = {0: 8462901, 1: 8462921, 2: 8462941}  # spaced: hand_size (public) is value + 1


def test_no_response_leaks_another_seats_hand(make_player, db):
    players, game = start_game(make_player, 3, spectators=True)
    gid = game["id"]
    with db() as session:
        row = session.get(Game, gid)
        state = json.loads(json.dumps(row.state))
        active = state["turn"]["active"]
        sentinels = {}
        for seat in range(3):
            state["players"][seat]["score"] = {"black": SCORE_SENTINELS[seat]}
            sentinels[seat] = [SCORE_SENTINELS[seat]]
            if seat != active:  # the active seat's own legal swaps would count up to it
                state["players"][seat]["hand"] = {"red": HAND_SENTINELS[seat], "blue": 1}
                sentinels[seat].append(HAND_SENTINELS[seat])
        row.state = state
        row.version += 1
    spectator = make_player("watcher")
    for seat, player in enumerate(players + [spectator]):
        version = player.get(f"/api/games/{gid}").json["version"]
        responses = [
            player.get(f"/api/games/{gid}"),
            player.get(f"/api/games/{gid}/moves/legal"),
            player.get(f"/api/games/{gid}/log"),
            player.get("/api/me/games"),
            player.post(f"/api/games/{gid}/moves", json={"text": "tile red A1", "version": version}),
            player.post(f"/api/games/{gid}/moves", json={"text": "tile red A1", "version": version - 1}),
            player.post(f"/api/games/{gid}/moves", json={"text": "nonsense", "version": version}),
        ]
        text = " ".join(r.get_data(as_text=True) for r in responses)
        for other, values in sentinels.items():
            for value in values:
                assert (str(value) in text) == (other == seat), f"seat {seat} saw seat {other}'s {value}"
    assert spectator.get(f"/api/games/{gid}").json["your_seat"] is None


def test_swapped_tiles_stay_private_in_the_log(make_player):
    players, game = start_game(make_player, 2)
    gid = game["id"]
    seat = int(next(iter(game["pending"])))
    swap = next(m for m in players[seat].get(f"/api/games/{gid}/moves/legal").json["moves"] if m["move"]["type"] == "swap_tiles")
    players[seat].post(f"/api/games/{gid}/moves", json={"move": swap["move"], "version": game["version"]})
    mine = players[seat].get(f"/api/games/{gid}/log").json["entries"][-1]
    theirs = players[1 - seat].get(f"/api/games/{gid}/log").json["entries"][-1]
    assert mine["move"] == swap["move"] and theirs["move"] is None
    assert any(e["type"] == "tiles_received" for e in mine["events"])
    assert not any(e["type"] == "tiles_received" for e in theirs["events"])
    assert any(e["type"] == "tiles_swapped" for e in theirs["events"])
