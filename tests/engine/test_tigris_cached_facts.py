"""Facts a Tigris state carries over from the one before it (regions, kingdoms, the
squares next to temples, how many kingdoms touch each square, the board's strings)
equal the facts worked out afresh from its cells, on every step of random games with
every option."""
import pytest

import engine
from engine.simulate import random_playout
from engine.tigris.moves import _temple_neighbors
from engine.tigris.regions import kingdoms_touching, regions
from engine.tigris.state import LEADER, board_strings

GAME = engine.get_game("tigris")
OPTION_SETS = [
    {},
    {"board": "advanced", "english_variant": True},
    {"buildings": True, "ziggurat": True, "open_tiles": True},
]


def facts(state) -> dict:
    """The state's region facts in a form that does not depend on region ids."""
    reg = regions(state)
    groups = [(group, leaders) for group, leaders in zip(reg.members, reg.leaders) if group]
    for rid, (group, leaders) in enumerate(zip(reg.members, reg.leaders)):
        assert all(reg.labels[sq] == rid for sq in group)
        assert sorted(leaders) == sorted(sq for sq in group if state.cells[sq] >= LEADER)
    labelled = sorted(sq for group, _ in groups for sq in group)
    assert labelled == sorted(sq for sq, label in enumerate(reg.labels) if label >= 0)
    return {
        "regions": sorted(sorted(group) for group, _ in groups),
        "kingdoms": sorted(sorted(group) for group, leaders in groups if leaders),
        "temple_neighbors": list(_temple_neighbors(state)),
        "kingdoms_touching": list(kingdoms_touching(state)),
        "board": board_strings(state),
    }


@pytest.mark.parametrize("options", OPTION_SETS, ids=["standard", "advanced-english", "variants"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_carried_facts_equal_fresh_ones(players, options):
    steps = 0
    for seed in range(3):
        for state, seat, move, new_state, events in random_playout(GAME, players, seed, options):
            GAME.legal_moves(state, seat)  # the listing reads (and caches) the facts first
            carried = facts(new_state)
            assert carried == facts(GAME.from_json(GAME.to_json(new_state))), (seed, move)
            steps += 1
    assert steps > 300
