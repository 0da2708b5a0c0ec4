"""Random simulation: on every step of 300 seeded Eden games, Eden's own invariants
hold (events are the documented ones, forged moves are refused, mana never goes
negative, tiles and cards are conserved, views hide what they must, games end both
ways). The contract every game keeps is checked by tests/engine/test_conformance.py."""
import json
import random

import pytest

import engine
from engine.simulate import random_playout
from tests.engine.eden_positions import GAME, tiles_accounted

SENTINEL = 4242  # a mana no real game reaches, planted to catch leaks
GAMES_PER_BATCH = 25
BATCHES = {2: 2, 3: 5, 4: 5}  # 300 games
EVENT_TYPES = {
    "acquisition_declined", "acquisition_settled", "attacker_joined", "bid_made", "card_bought",
    "card_drawn", "card_received", "card_sold", "game_ended", "income_received", "land_cultivated",
    "land_irrigated", "tile_contested", "contest_withdrawn", "turn_ended",
}  # as documented in docs/games/eden.md
FORGERIES = (
    {"type": "irrigate", "square": "H9"},
    {"type": "cultivate", "card": "K99", "squares": ["A1"]},
    {"type": "bid", "amount": 7},
    {"type": "contest", "square": "Z0"},
    {"type": "sell", "card": "A1"},
)


def check_state(data: dict) -> None:
    assert all(p["mana"] >= 0 for p in data["players"]), "mana went negative"
    assert tiles_accounted(data) == [{"1/2": 16, "3/4": 8}] * len(data["players"]), "tiles not conserved"
    cards = data["deck"] + data["discard"] + data["market"] + [c for p in data["players"] for c in p["hand"]]
    assert len(cards) == len(set(cards)) == 66, "cards not conserved"


def check_step(state, seat, move, rng: random.Random) -> None:
    check_state(GAME.to_json(state))
    legal = GAME.legal_moves(state, seat)
    for other in rng.sample(legal, min(2, len(legal))):
        _, events = GAME.apply(state, seat, other)
        assert {e["type"] for e in events} <= EVENT_TYPES
    with pytest.raises(engine.IllegalMove):
        GAME.apply(state, seat, FORGERIES[rng.randrange(len(FORGERIES))])


def check_views(state) -> None:
    data = GAME.to_json(state)
    seats = range(len(data["players"]))
    for planted_seat in seats:
        planted = json.loads(json.dumps(data))
        planted["players"][planted_seat]["mana"] = SENTINEL
        leaky = GAME.from_json(planted)
        assert GAME.pending(leaky) == GAME.pending(state)
        for seat in [None, *seats]:
            view = GAME.view(leaky, seat)
            text = json.dumps(view)
            assert (str(SENTINEL) in text) == (seat == planted_seat), f"seat {seat} sees seat {planted_seat}'s mana"
            assert "rng" not in view and "deck" not in view
            for other, player in enumerate(view["players"]):
                assert ("hand" in player) == (other == seat)


def play_and_check(players: int, seed: int) -> None:
    rng = random.Random(seed)
    history = []
    options = {"allow_two": players == 2}
    try:
        new_state = None
        for step, (state, seat, move, new_state, _events) in enumerate(random_playout(GAME, players, seed, options)):
            history.append((seat, move))
            if step % 3 == 0:
                check_step(state, seat, move, rng)
            if step % 60 == 0:
                check_views(state)
        check_state(GAME.to_json(new_state))
        assert GAME.outcome(new_state) is not None and GAME.pending(new_state) == {}
    except Exception:
        print(f"players={players} seed={seed} moves to reproduce:")
        print(json.dumps(history))
        raise


@pytest.mark.parametrize("players,batch", [(p, b) for p, n in BATCHES.items() for b in range(n)])
def test_random_games_keep_every_invariant(players, batch):
    for seed in range(batch * GAMES_PER_BATCH, (batch + 1) * GAMES_PER_BATCH):
        play_and_check(players, seed)


def test_random_games_end_both_ways():
    reasons = set()
    for seed in range(40):
        *_, (_, _, _, final, _) = random_playout(GAME, 3, seed)
        reasons.add(GAME.outcome(final)["reason"])
    assert reasons == {"twenty_points", "no_play"}
