"""Random simulation: on every step of hundreds of seeded games with purposeful
players, the card game's own invariants hold (events are the documented ones, forged
moves are refused, cards are conserved, views hide what they must), and every game
ends. The contract every game keeps is checked by tests/engine/test_conformance.py."""
import json
import random

import pytest

import engine
from tests.engine.euphrat_cards_positions import GAME, TOTAL_CARDS, cards_accounted, playout

GAMES_PER_BATCH = 13
MOVE_CAP = 3000  # purposeful random games take a few hundred moves; none may run on
BATCHES = {2: 4, 3: 4, 4: 4}  # 52 games per player count
EVENT_TYPES = {
    "answer_set", "card_played", "card_revealed", "cards_drawn", "cards_received", "catastrophe_played",
    "conflict_chosen", "conflict_resolved", "conflict_started", "conflicts_vanished", "game_ended",
    "kingdoms_united", "leader_moved", "leader_placed", "leader_returned", "leader_withdrawn",
    "offer_declined", "points_scored", "ship_built", "support_committed", "treasure_swapped",
    "turn_ended", "turn_passed",
}  # as documented in docs/games/euphrat-cards.md
FORGERIES = (
    {"type": "play_card", "color": "red", "place": "Z"},
    {"type": "place_leader", "leader": "king", "card": "A9"},
    {"type": "commit_support", "count": 99},
    {"type": "build_ship", "ship": "blue-blue"},
    {"type": "swap_treasure", "column": "Q"},
    {"type": "choose_conflict", "color": "purple"},
)


def check_step(state, seat, move, rng: random.Random) -> None:
    assert cards_accounted(GAME.to_json(state)) == TOTAL_CARDS, "cards not conserved"
    legal = GAME.legal_moves(state, seat)
    for other in rng.sample(legal, min(2, len(legal))):
        _, events = GAME.apply(state, seat, other)
        assert {e["type"] for e in events} <= EVENT_TYPES
    forged = FORGERIES[rng.randrange(len(FORGERIES))]  # never legal: bad values
    with pytest.raises(engine.IllegalMove):
        GAME.apply(state, seat, forged)


def other_hand(data: dict, seat: int) -> dict:
    """The state with `seat`'s hand exchanged for as many cards from the bottom of the deck."""
    changed = json.loads(json.dumps(data))
    player = changed["players"][seat]
    size = sum(player["hand"].values())
    pool = changed["deck"] + "".join(("k" if c == "black" else c[0]) * n for c, n in player["hand"].items())
    changed["deck"], taken = pool[:len(pool) - size], pool[len(pool) - size:]
    player["hand"] = {c: taken.count("k" if c == "black" else c[0]) for c in player["hand"]}
    return changed


def check_views(state) -> None:
    data = GAME.to_json(state)
    seats = range(len(data["players"]))
    for changed_seat in seats:
        changed = GAME.from_json(other_hand(data, changed_seat))
        for seat in [None, *seats]:
            view = GAME.view(state, seat)
            if seat != changed_seat:
                assert GAME.view(changed, seat) == view, f"seat {seat} sees seat {changed_seat}'s hand"
            assert "rng" not in view and "deck" not in view and "removed" not in view
            for other, player in enumerate(view["players"]):
                if other == seat:
                    assert "hand" in player
                else:
                    assert "hand" not in player and "hand_size" in player
                if data["options"]["open_scoring"]:
                    assert "vp" in player
                else:
                    assert "vp" not in player and ("vp_top" in player) == (other == seat)


def play_and_check(players: int, seed: int, options: dict | None = None) -> None:
    rng = random.Random(seed)
    history = []
    try:
        new_state = None
        try:
            for step, (state, seat, move, new_state, _events) in enumerate(playout(players, seed, options, MOVE_CAP)):
                history.append((seat, move))
                check_step(state, seat, move, rng)
                if step % 40 == 0:
                    check_views(state)
        except RuntimeError as ended_not:
            raise AssertionError(str(ended_not)) from None
        final = GAME.to_json(new_state)
        assert cards_accounted(final) == TOTAL_CARDS
        assert GAME.outcome(new_state) is not None and GAME.pending(new_state) == {}
    except Exception:
        print(f"players={players} seed={seed} moves to reproduce:")
        print(json.dumps(history))
        raise


@pytest.mark.parametrize("players,batch", [(p, b) for p, n in BATCHES.items() for b in range(n)])
def test_random_games_keep_every_invariant(players, batch):
    for seed in range(batch * GAMES_PER_BATCH, (batch + 1) * GAMES_PER_BATCH):
        play_and_check(players, seed)


@pytest.mark.parametrize("options", [{"open_scoring": True}, {"two_player_trim": False}])
def test_random_games_with_options(options):
    for seed in range(5):
        play_and_check(2 if "two_player_trim" in options else 3, 1000 + seed, options)
