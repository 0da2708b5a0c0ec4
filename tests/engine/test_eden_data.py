"""Eden's printed data (cultivation cards, dots per level, tile split) lives in one
file, engine/eden/data.json: a copy of the engine with a second, different file plays
whole random games, and names its cards, with no code change."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import engine

ENGINE_DIR = Path(engine.__file__).parent
# 12 cultivation cards of other names and shapes (a pentomino among them), other dots
# per level, and 18 tiles 1/2 and 6 tiles 3/4 a colour.
SHAPES = ([[0, 0], [1, 0]], [[0, 0], [1, 0], [1, 1]], [[0, 0], [1, 0], [2, 0], [2, 1], [2, 2]],
          [[0, 0], [1, 0], [0, 1], [1, 1]], [[0, 0], [1, 0], [2, 0]], [[0, 0], [0, 1], [1, 1], [1, 2]])
OTHER_DATA = {
    "provisional": False,
    "note": "A second data file for tests.",
    "cultivation_cards": [{"name": f"P{n + 1}", "shape": f"shape-{n % 6}", "cells": SHAPES[n % 6]} for n in range(12)],
    "levels": {"1": {"white": 1, "red": 0}, "2": {"white": 2, "red": 0}, "3": {"white": 2, "red": 2},
               "4": {"white": 3, "red": 2}},
    "tiles_per_color": {"1/2": 18, "3/4": 6},
}

PLAY = """
import json, sys
import engine
from engine.simulate import random_playout

assert engine.__file__.startswith(sys.argv[1]), engine.__file__
game = engine.get_game("eden")
ended = []
for players, seed in ((2, 1), (3, 2), (4, 3), (3, 4)):
    state, cultivated = None, 0
    for _state, _seat, _move, state, events in random_playout(game, players, seed, {"allow_two": players == 2}):
        data = game.to_json(state)
        assert game.to_json(game.from_json(data)) == data
        cultivated += sum(1 for e in events if e["type"] == "land_cultivated")
    data = game.to_json(state)
    cards = data["deck"] + data["discard"] + data["market"] + [c for p in data["players"] for c in p["hand"]]
    cells = " ".join(data["board"]).split()
    tiles = [sum(1 for c in cells if c[0] == "rybp"[seat]) + sum(p["supply"].values())
             for seat, p in enumerate(data["players"])]
    ended.append({"outcome": game.outcome(state), "cards": sorted(set(cards)), "count": len(cards), "tiles": tiles,
                  "cultivated": cultivated})
try:
    game.apply(game.setup(3, 1), 0, {"type": "sell", "card": "K1"})
except engine.IllegalMove as refusal:
    message = refusal.message
print(json.dumps({"ended": ended, "provisional": game.provisional, "description": game.description,
                  "refusal": message}))
"""


def test_a_second_different_data_file_plays_with_no_code_change(tmp_path):
    shutil.copytree(ENGINE_DIR, tmp_path / "engine", ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "engine" / "eden" / "data.json").write_text(json.dumps(OTHER_DATA))
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    run = subprocess.run([sys.executable, "-c", PLAY, str(tmp_path)], cwd=tmp_path, env=env,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    assert not result["provisional"] and "provisional" not in result["description"]
    cultivation = [f"P{n}" for n in range(1, 13)]
    for game in result["ended"]:
        assert game["outcome"] is not None
        assert game["count"] == 49 + 12 and set(cultivation) <= set(game["cards"])  # every card kept
        assert game["tiles"] == [24] * len(game["tiles"])  # 18 + 6 tiles a colour, none lost
        assert game["cultivated"] > 0  # the new shapes were played
    assert result["refusal"] == "'K1' is not a cultivation card; they are " + ", ".join(cultivation)
