"""Random simulation (OpenSpiel's random_sim_test is the model): on every step of
hundreds of seeded games, Tigris' own invariants hold: tiles are conserved, forged
moves are refused, no view shows another seat's hand, every variant is reached. The
contract every game keeps is checked by tests/engine/test_conformance.py."""
import json
import random

import pytest

import engine
from engine.simulate import random_playout
from engine.tigris.state import TOTAL_TILES

GAME = engine.get_game("tigris")
SENTINEL = 4242  # a hand count no real hand reaches, planted to catch leaks
GAMES_PER_BATCH = 20
BATCHES = {2: 4, 3: 5, 4: 4}  # 80 + 100 + 80 games


def tiles_accounted(data: dict) -> int:
    on_board = sum(ch in "rbgkRBGK" for row in data["board"] for ch in row)
    in_hands = sum(sum(p["hand"].values()) for p in data["players"])
    face_up = sum((data.get("display") or {}).values())  # option open_tiles
    return sum(data["bag"].values()) + in_hands + on_board + face_up + data["discarded"]


def check_step(state, seat, move, new_state, rng: random.Random) -> None:
    before = GAME.to_json(state)
    assert tiles_accounted(before) == TOTAL_TILES, "tiles not conserved"
    legal = GAME.legal_moves(state, seat)
    forged = (dict(move, type="place_tile", color="red", square="A1") if move.get("type") != "place_tile"
              else dict(move, square="Z99"))
    if forged not in legal:
        with pytest.raises(engine.IllegalMove):
            GAME.apply(state, seat, forged)


def check_views(state) -> None:
    data = GAME.to_json(state)
    for planted_seat in range(len(data["players"])):
        # hand_size (public) becomes SENTINEL + 1; the sentinel itself must not show.
        # No game reaches such a hand, so it is planted past from_json's checks.
        leaky = GAME.from_json(data)
        leaky.hands[planted_seat] = [SENTINEL, 1, 0, 0]
        for seat in [None, *range(len(data["players"]))]:
            text = json.dumps(GAME.view(leaky, seat))
            assert (str(SENTINEL) in text) == (seat == planted_seat), f"seat {seat} sees seat {planted_seat}'s hand"
            assert "rng" not in json.loads(text)


@pytest.mark.parametrize("players,batch", [(p, b) for p, n in BATCHES.items() for b in range(n)])
def test_random_games_keep_every_invariant(players, batch):
    play_checked_games(players, range(batch * GAMES_PER_BATCH, (batch + 1) * GAMES_PER_BATCH), {})


# Each variant, and all of them together, in games of every size, with the advanced
# board and the English variant mixed in; and an event each must have produced in its
# games (random games seldom build a ziggurat: see the test after this one).
VARIANTS = {
    "buildings": ({"buildings": True}, "building_placed"),
    "ziggurat": ({"ziggurat": True}, "game_ended"),
    "open_tiles": ({"open_tiles": True}, "display_tile_taken"),
    "all three": ({"buildings": True, "ziggurat": True, "open_tiles": True}, "building_placed"),
}


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_with_each_variant_keep_every_invariant(variant, players):
    seen = set()
    options, expected = VARIANTS[variant]
    for seed in range(6):
        mixed = {**options, "board": ("standard", "advanced")[seed % 2], "english_variant": seed % 3 == 0}
        seen |= play_checked_games(players, [1000 + seed], mixed)
    assert expected in seen


def _with_built_ziggurat(seed: int):
    """A fresh 3-player game with the ziggurat built on H5 and seat 0's king next to
    it (by the temple J5): random play then meets the ziggurat's rules, which a random
    game seldom builds."""
    data = GAME.to_json(GAME.setup(3, seed, {"ziggurat": True}))
    del data["discarded"]  # derived: the five tiles under the ziggurat left the game
    rows = [list(row) for row in data["board"]]
    for name, char in (("H5", "z"), ("H4", "z"), ("H6", "z"), ("G5", "z"), ("I5", "z"), ("J5", "r")):
        rows[int(name[1:]) - 1]["ABCDEFGHIJKLMNOP".index(name[0])] = char
    data["board"] = ["".join(row) for row in rows]
    data["bag"]["red"] -= 6
    data["ziggurat"]["square"] = "H5"
    data["players"][0]["leaders"]["king"] = "J6"
    return GAME.from_json(data)


def test_random_games_from_a_built_ziggurat_keep_every_invariant():
    seen = set()
    for seed in range(6):
        state, chooser, rng = _with_built_ziggurat(seed), random.Random(seed), random.Random(seed)
        while GAME.outcome(state) is None:
            seat = chooser.choice(sorted(GAME.pending(state)))
            move = chooser.choice(GAME.legal_moves(state, seat))
            new_state, events = GAME.apply(state, seat, move)
            check_step(state, seat, move, new_state, rng)
            seen.update(e["type"] for e in events)
            state = new_state
        assert tiles_accounted(GAME.to_json(state)) == TOTAL_TILES
    assert "ziggurat_point_taken" in seen


def play_checked_games(players: int, seeds, options: dict) -> set[str]:
    """Play the seeded random games, checking every step; the event types seen."""
    seen: set[str] = set()
    for seed in seeds:
        rng = random.Random(seed)
        history = []
        try:
            for step, (state, seat, move, new_state, events) in enumerate(random_playout(GAME, players, seed, options)):
                seen.update(e["type"] for e in events)
                history.append((seat, move))
                check_step(state, seat, move, new_state, rng)
                if step % 25 == 0:
                    check_views(state)
            final = GAME.to_json(new_state)
            assert tiles_accounted(final) == TOTAL_TILES
            assert GAME.outcome(new_state) is not None and GAME.pending(new_state) == {}
        except Exception:
            print(f"players={players} seed={seed} options={options} moves to reproduce:")
            print(json.dumps(history))
            raise
    return seen
