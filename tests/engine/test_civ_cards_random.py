"""Random simulation: on every step of hundreds of seeded games Civilization's own
invariants hold (cards conserved, no negative resources or population, events are the
documented ones, forged moves refused, views hide hands and decks), and every game
ends. The contract every game keeps is checked by tests/engine/test_conformance.py."""
import json
import random

import pytest

import engine
from engine.simulate import random_playout
from tests.engine.civ_cards_positions import GAME, cards_accounted, table_counts

SENTINEL = "great-library"  # planted in one hand to catch leaks into other seats' views
TOTALS = table_counts()
GAMES_PER_BATCH = 25
BATCHES = {2: 4, 3: 4, 4: 4}  # 100 games per player count
EVENT_TYPES = {
    "award_changed", "bonus_played", "building_scrapped", "buildings_destroyed", "built", "buying_ended",
    "card_discarded", "card_discarded_privately", "cards_drawn", "cards_received", "combat_ended",
    "combat_started", "counter_chosen", "counters_done", "counters_revealed", "deck_reshuffled", "game_ended",
    "no_combat", "plot_bought", "plot_picked", "population_bought", "population_placed", "population_settled",
    "population_stolen", "resources_collected", "resources_given", "technology_bought", "traded", "turn_ended",
    "unit_committed", "unit_repelled", "walls_held", "walls_returned",
}  # as documented in docs/games/civ-cards.md
FORGERIES = (
    {"type": "pick_plot", "slot": 9},
    {"type": "settle", "plot": 0},
    {"type": "discard", "card": "tank"},
    {"type": "build", "card": "tank", "plot": 1},
    {"type": "attack", "card": "tank", "target": 1},
    {"type": "repel", "unit": 99},
    {"type": "counter", "card": "tank", "unit": 1},
    {"type": "place_population", "plots": [99]},
)


def check_invariants(state) -> None:
    assert cards_accounted(state) == TOTALS, "cards not conserved"
    for player in state["players"]:
        assert min(player["resources"].values()) >= 0, "negative resources"
        assert all(plot["population"] >= 0 for plot in player["plots"])
    assert state["population"] >= 0


def check_step(state, seat, move, events, rng: random.Random, deep: bool) -> None:
    before = GAME.to_json(state)
    check_invariants(before)
    assert {e["type"] for e in events} <= EVENT_TYPES
    if deep:
        with pytest.raises(engine.IllegalMove):
            GAME.apply(state, seat, FORGERIES[rng.randrange(len(FORGERIES))])


def check_views(state) -> None:
    data = GAME.to_json(state)
    seats = range(len(data["players"]))
    for planted_seat in seats:
        planted = json.loads(json.dumps(data))
        planted["players"][planted_seat]["hand"] = {SENTINEL: 7}
        leaky = GAME.from_json(planted)
        for seat in [None, *seats]:
            view = GAME.view(leaky, seat)
            text = json.dumps(view)
            assert "rng" not in view and "deck" not in view and "tech_deck" not in view
            if seat != planted_seat:
                assert '"great-library": 7' not in text, f"seat {seat} sees seat {planted_seat}'s hand"
                assert view["players"][planted_seat]["hand_size"] == 7
            else:
                assert view["players"][seat]["hand"] == {SENTINEL: 7}


def play_and_check(players: int, seed: int, options: dict | None = None) -> int:
    rng = random.Random(seed)
    history = []
    new_state = None
    try:
        for step, (state, seat, move, new_state, events) in enumerate(random_playout(GAME, players, seed, options)):
            history.append((seat, move))
            check_step(state, seat, move, events, rng, deep=step % 7 == 0)
            if step % 97 == 0:
                check_views(state)
        check_invariants(GAME.to_json(new_state))
        assert GAME.outcome(new_state) is not None and GAME.pending(new_state) == {}
    except Exception:
        print(f"players={players} seed={seed} moves to reproduce:")
        print(json.dumps(history))
        raise
    return len(history)


@pytest.mark.parametrize("players,batch", [(p, b) for p, n in BATCHES.items() for b in range(n)])
def test_random_games_keep_every_invariant_and_end(players, batch):
    for seed in range(batch * GAMES_PER_BATCH, (batch + 1) * GAMES_PER_BATCH):
        assert play_and_check(players, seed) > 50


@pytest.mark.parametrize("options", [
    {"teams": "opposite"}, {"teams": "adjacent"}, {"happiness_discounts_wonders": False},
    {"culture_threshold_rule": "more_than_2"},
])
def test_random_games_with_options(options):
    for seed in range(5):
        play_and_check(4, 2000 + seed, options)
