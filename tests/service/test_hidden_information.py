"""No response to one seat ever holds another seat's hand (planted sentinels)."""
import json

from service.models import Game
from tests.conftest import start_game

SCORE_SENTINELS = {0: 7391801, 1: 7391802, 2: 7391803}  # scores are hidden too
# Hands hold at most 6 tiles, so a hand cannot carry a sentinel: a seat's hand is set
# to two different contents (tiles traded with the bag, so tiles stay conserved) and
# every other reader's responses must be the same for both.
HANDS = ({"red": 6}, {"black": 3, "green": 3})


def _plant(db, gid: int, version: int, hand_seat: int | None = None, hand: dict | None = None) -> None:
    """Score sentinels for every seat and, optionally, `hand` for `hand_seat`."""
    with db() as session:
        row = session.get(Game, gid)
        assert row is not None
        state = json.loads(json.dumps(row.state))
        for seat in range(3):
            state["players"][seat]["score"] = {"black": SCORE_SENTINELS[seat]}
        if hand_seat is not None:
            assert hand is not None, "a hand is planted with its seat"
            player = state["players"][hand_seat]
            for color in ("red", "blue", "green", "black"):
                state["bag"][color] += player["hand"].get(color, 0) - hand.get(color, 0)
            player["hand"] = dict(hand)
        row.state = state
        row.version = version


def _responses(player, gid: int, version: int) -> str:
    answers = [
        player.get(f"/api/games/{gid}"),
        player.get(f"/api/games/{gid}/moves/legal"),
        player.get(f"/api/games/{gid}/log"),
        player.get("/api/me/games"),
        player.post(f"/api/games/{gid}/moves", json={"text": "tile red A4", "version": version}),  # a river: refused
        # Stale for every seat: older than the version where the pending seat's decision
        # began (a move at any version since then is current: check_decision_version).
        player.post(f"/api/games/{gid}/moves", json={"text": "tile red A1", "version": version - 2}),
        player.post(f"/api/games/{gid}/moves", json={"text": "nonsense", "version": version}),
    ]
    assert answers[5].status_code in (403, 409), "the stale move is refused (a watcher may not move at all)"
    return " ".join(r.get_data(as_text=True) for r in answers)


def test_no_response_leaks_another_seats_hand_or_score(make_player, db):
    players, game = start_game(make_player, 3, spectators=True)
    gid, version = game["id"], game["version"] + 1
    readers = dict(enumerate(players))
    readers[None] = make_player("watcher")
    _plant(db, gid, version)
    for seat, player in readers.items():
        text = _responses(player, gid, version)
        for other, value in SCORE_SENTINELS.items():
            assert (str(value) in text) == (other == seat), f"seat {seat} saw seat {other}'s score"
    for hand_seat in range(3):
        seen = []
        for hand in HANDS:
            _plant(db, gid, version, hand_seat, hand)
            seen.append({seat: _responses(player, gid, version) for seat, player in readers.items()})
        for seat in readers:
            same = seen[0][seat] == seen[1][seat]
            assert same == (seat != hand_seat), f"seat {seat}'s responses depend on seat {hand_seat}'s hand"
    assert readers[None].get(f"/api/games/{gid}").json["your_seat"] is None


def test_swapped_tiles_stay_private_in_the_log(make_player):
    players, game = start_game(make_player, 2)
    gid = game["id"]
    seat = int(next(iter(game["pending"])))
    swap = next(m for m in players[seat].get(f"/api/games/{gid}/moves/legal").json["moves"]
                if m["move"]["type"] == "swap_tiles")
    players[seat].post(f"/api/games/{gid}/moves", json={"move": swap["move"], "version": game["version"]})
    mine = players[seat].get(f"/api/games/{gid}/log").json["entries"][-1]
    theirs = players[1 - seat].get(f"/api/games/{gid}/log").json["entries"][-1]
    assert mine["move"] == swap["move"] and theirs["move"] is None
    assert any(e["type"] == "tiles_received" for e in mine["events"])
    assert not any(e["type"] == "tiles_received" for e in theirs["events"])
    assert any(e["type"] == "tiles_swapped" for e in theirs["events"])
