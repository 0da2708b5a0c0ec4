"""A digest of everything the Tigris engine says over ~90 seeded random games: every
pending map, listing, event, view (each seat's and the spectator's), state and outcome.
Two versions of the engine play the same games alike when their digests are equal.

    .venv/bin/python bench/tigris_digest.py [--seeds 3] [--expect HEX]

Each game is also replayed without listings or views, and once more from each state
reloaded from its JSON (no cached facts): both must reach the same states, so facts
cached on a state can never change a game. Prints the digest; exits 1 if it differs
from --expect or a replay disagrees. The games: 2, 3 and 4 players, each option set
below, seeds 0 to --seeds - 1; the moves are chosen by `random.Random(seed)`.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sys

# This script shares its folder with bench/engine.py: keep the folder off the path.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _HERE]

import engine  # noqa: E402

OPTION_SETS: tuple[dict, ...] = (
    {},
    {"board": "advanced"},
    {"english_variant": True},
    {"open_scoring": True},
    {"buildings": True},
    {"ziggurat": True},
    {"open_tiles": True},
    {"buildings": True, "ziggurat": True},
    {"board": "advanced", "english_variant": True, "open_tiles": True},
    {"board": "advanced", "english_variant": True, "open_scoring": True,
     "buildings": True, "ziggurat": True, "open_tiles": True},
)


def _dump(value) -> bytes:
    # Key order kept (not sorted): a listing's order decides the random games.
    return json.dumps(value, separators=(",", ":")).encode()


def play(game, players: int, seed: int, options: dict, digest) -> list[tuple[int, dict]]:
    """One random game, fed into `digest`; returns its (seat, move) list."""
    chooser = random.Random(seed)
    state = game.setup(players, seed, options)
    played: list[tuple[int, dict]] = []
    while True:
        pending = game.pending(state)
        digest.update(_dump({str(s): k for s, k in pending.items()}))
        digest.update(_dump(game.to_json(state)))
        for seat in (None, *range(players)):
            digest.update(_dump(game.view(state, seat)))
        outcome = game.outcome(state)
        if outcome is not None:
            digest.update(_dump(outcome))
            return played
        listings = {seat: game.legal_moves(state, seat) for seat in range(players)}
        for seat in range(players):
            digest.update(_dump(listings[seat]))
        seat = chooser.choice(sorted(pending))
        move = chooser.choice(listings[seat])
        state, events = game.apply(state, seat, move)
        digest.update(_dump(events))
        played.append((seat, move))


def replay_agrees(game, players: int, seed: int, options: dict, played: list) -> bool:
    """The moves applied bare, and applied to states reloaded from JSON, reach the
    same states and events."""
    bare = reloaded = game.setup(players, seed, options)
    for seat, move in played:
        bare, events = game.apply(bare, seat, move)
        reloaded, reloaded_events = game.apply(game.from_json(game.to_json(reloaded)), seat, move)
        if events != reloaded_events or game.to_json(bare) != game.to_json(reloaded):
            return False
    return game.outcome(bare) == game.outcome(reloaded) is not None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3, help="games per player count and option set")
    parser.add_argument("--expect", help="the digest the games must give")
    args = parser.parse_args()
    game = engine.get_game("tigris")
    digest = hashlib.sha256()
    count = 0
    for options in OPTION_SETS:
        for players in (2, 3, 4):
            for seed in range(args.seeds):
                played = play(game, players, seed, options, digest)
                if not replay_agrees(game, players, seed, options, played):
                    print(f"replay differs: {players} players, seed {seed}, options {options}")
                    sys.exit(1)
                count += 1
    print(f"{count} games: {digest.hexdigest()}")
    if args.expect and args.expect != digest.hexdigest():
        print(f"expected {args.expect}")
        sys.exit(1)


if __name__ == "__main__":
    main()
