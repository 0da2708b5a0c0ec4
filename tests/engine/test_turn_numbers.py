"""Prompts, the end-of-turn sentence and the board's title number a player's turns as
rounds (a player's n-th turn is in round n), not by the game-wide turn counter."""
import re
from html import unescape

import pytest

import engine
from engine.eden import drawing as eden_drawing
from engine.tigris import drawing as tigris_drawing

NAMES = {0: "Ann", 1: "Bob", 2: "Cy"}
TITLE = re.compile(r"<title[^>]*>([^<]*)</title>")


def three_rounds_of_passes(game_id: str, drawing) -> tuple[dict[int, list[tuple[str, str]]], list[str | None]]:
    """A 3-player game in which everyone passes for three rounds: each seat's board title
    and prompt at the start of its turns, and the sentences that end the turns."""
    game = engine.get_game(game_id)
    s = game.setup(players=3, seed=11, options={})
    starts: dict[int, list[tuple[str, str]]] = {0: [], 1: [], 2: []}
    endings = []
    for _ in range(9):
        (seat,) = game.pending(s)
        found = TITLE.search(drawing.board_svg(game.view(s, seat)))
        assert found is not None, "the board has a title"
        title = unescape(found.group(1))
        starts[seat].append((title, game.prompt(s, seat, NAMES)))
        s, events = game.apply(s, seat, {"type": "pass"})
        endings += [game.describe_event(e, NAMES) for e in events if e["type"] == "turn_ended"]
    return starts, endings


@pytest.mark.parametrize("game_id, drawing, board, prompt", [
    ("tigris", tigris_drawing, "Tigris & Euphrates board", "Take your first action of round {n}, or pass"),
    ("eden", eden_drawing, "Eden board", "Round {n}: play 1 or 2 irrigation cards"),
])
def test_a_players_first_turns_are_numbered_1_2_3(game_id, drawing, board, prompt):
    starts, endings = three_rounds_of_passes(game_id, drawing)
    for seat in range(3):
        titles, prompts = zip(*starts[seat])
        assert list(titles) == [f"{board}, round {n}" for n in (1, 2, 3)]
        for n, text in zip((1, 2, 3), prompts):
            assert text.startswith(prompt.format(n=n))
    assert sorted(endings) == sorted(f"{NAMES[seat]}'s turn in round {n} is over."
                                     for seat in range(3) for n in (1, 2, 3))
