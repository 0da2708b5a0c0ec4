"""Hand-written card-game positions for tests: name what lies where, get a state."""
from __future__ import annotations

import random
from collections import Counter

import engine
from engine.euphrat_cards.cards import CATASTROPHES, COLORS, DECK_COUNTS, TOTAL_CARDS, TREASURES
from engine.simulate import random_playout

GAME = engine.get_game("euphrat-cards")


SHIP_CHARS = {"blue-red": "R", "blue-green": "G", "blue-black": "K"}


def position(
    columns: list[str] | None = None,
    gaps: str = ".......",
    leaders: dict[int, dict[str, str]] | None = None,
    hands: dict[int, dict[str, int]] | None = None,
    vp: dict[int, str] | None = None,
    players: int = 3,
    active: int = 0,
    actions_left: int = 2,
    deck: str = "rbgk" * 10,
    options: dict | None = None,
    **extra,
):
    """A state from the parts a test cares about; columns default to 8 lone treasures."""
    data = {
        "game": "euphrat-cards",
        "options": {"two_player_trim": True, "open_scoring": False, **(options or {})},
        "columns": columns or ["t"] * 8,
        "gaps": gaps,
        "ships": extra.pop("ships", None) or [
            name for name, ch in SHIP_CHARS.items() if not any(ch in col for col in columns or [])
        ],
        "players": [
            {
                "leaders": (leaders or {}).get(seat, {}),
                "hand": (hands or {}).get(seat, {}),
                "catastrophe": extra.get("catastrophes", {}).get(seat, True),
                "vp": (vp or {}).get(seat, ""),
            }
            for seat in range(players)
        ],
        "deck": deck,
        "removed": "",
        "unused_catastrophes": 4 - players,
        "discard": {},
        "rng": 12345,
        "turn": {"number": 5, "active": active, "actions_left": actions_left},
        "conflict": extra.pop("conflict", None),
        "union": extra.pop("union", None),
        "offers": extra.pop("offers", []),
        "finished": None,
    }
    set_aside_the_rest(data)
    return GAME.from_json(data)


def set_aside_the_rest(data: dict) -> None:
    """Put every card the position does not place elsewhere out of the game, so that
    the 200 cards are conserved: civilization cards with those removed unseen (after
    any the test put there), treasures and catastrophe cards in the discard."""
    chars = "".join(
        [*data["columns"], data["gaps"].replace(".", ""), data["deck"], data["removed"]]
        + [p["vp"] for p in data["players"]]
    )
    held = {color: sum(p["hand"].get(color, 0) for p in data["players"]) for color in COLORS}
    conflict = data["conflict"] or {}
    if conflict:
        color = "red" if conflict["kind"] == "internal" else conflict["color"]
        held[color] += (conflict["attacker_commit"] or 0) + (conflict["defender_commit"] or 0)
    for color, total in zip(COLORS, DECK_COUNTS):
        char = "k" if color == "black" else color[0]
        data["removed"] += char * (total - chars.count(char) - held[color] - data["discard"].get(color, 0))
    data["discard"]["treasure"] = TREASURES - chars.count("t")
    data["discard"]["catastrophe"] = (
        CATASTROPHES - data["unused_catastrophes"] - sum(p["catastrophe"] for p in data["players"])
    )


# Uniformly random players can reach a position the rules never end (a full table, no
# catastrophe left, no red card in any hand and no hand holding a colour of a ship on
# the table: no card can leave a hand again; see test_a_dead_table_does_not_end_the_game).
# Simulated players therefore play like people
# who want the game to go on: they keep red cards for conflicts and commit one at a
# time, they would rather place leaders than fill the table and like to lengthen a run
# of one colour toward a ship (ships keep paying points), they take the rewards they
# are offered, and seldom stop being asked about offers. Every move type keeps a chance.
# So played, 1,050 seeded games (2-4 players, with and without the 2-player trim) all ended.
MOVE_WEIGHTS = {
    "play_card": 1, "place_leader": 4, "play_catastrophe": 0.5, "withdraw_leader": 0.2, "pass": 0.1,
    "score": 30, "build_ship": 10, "swap_treasure": 10, "decline": 1,
}
RUN_BONUS = 5  # weight factor for a card that matches the bottom card of its column


def purposeful_choice(rng: random.Random, state, moves: list[dict]) -> dict:
    """A random move: each type weighs as MOVE_WEIGHTS says (others 0.2), shared by its moves."""
    if moves[0]["type"] == "commit_support":
        commits = [m for m in moves if m["type"] == "commit_support"]
        return commits[min(1, len(commits) - 1)]
    kept = [m for m in moves if not (m["type"] == "play_card" and m["color"] == "red")]
    moves = kept or moves
    counts = Counter(m["type"] for m in moves)
    return rng.choices(moves, [_weight(state, m) / counts[m["type"]] for m in moves])[0]


def _weight(state, move: dict) -> float:
    if move["type"] == "set_answer":  # standing declines, rarely, and back to asking
        return 0.05 if move["answer"] == "decline" else 1
    if move["type"] == "play_card" and len(move["place"]) == 1:
        column = state.columns["ABCDEFGH".index(move["place"])]
        if len(column) > 1 and column[-1] == COLORS.index(move["color"]):
            return MOVE_WEIGHTS["play_card"] * RUN_BONUS
    return MOVE_WEIGHTS.get(move["type"], 0.2)


def playout(players: int, seed: int, options: dict | None = None, max_steps: int = 3000):
    """random_playout with purposeful players; a game longer than `max_steps` raises."""
    return random_playout(GAME, players, seed, options, max_steps=max_steps, choose=purposeful_choice)


def play(state, *moves):
    """Apply (seat, text) moves in order; returns the final state and all events."""
    events = []
    for seat, text in moves:
        state, new = GAME.apply(state, seat, GAME.parse_move(text))
        events.extend(new)
    return state, events


def as_json(state) -> dict:
    return GAME.to_json(state)


def column(state, letter: str) -> str:
    return as_json(state)["columns"]["ABCDEFGH".index(letter)]


def leader_at(state, seat: int, leader: str):
    return as_json(state)["players"][seat]["leaders"][leader]


def vp(state, seat: int) -> str:
    return as_json(state)["players"][seat]["vp"]


def hand(state, seat: int) -> dict:
    return as_json(state)["players"][seat]["hand"]


def cards_accounted(data: dict) -> int:
    """Every one of the 200 cards, wherever it is (committed ones lie before their players)."""
    players = data["players"]
    conflict = data["conflict"] or {}
    committed = (conflict.get("attacker_commit") or 0) + (conflict.get("defender_commit") or 0)
    return (
        committed +
        len(data["deck"]) + len(data["removed"])
        + sum(sum(p["hand"].values()) + len(p["vp"]) + p["catastrophe"] for p in players)
        + sum(len(col) for col in data["columns"]) + sum(ch != "." for ch in data["gaps"])
        + sum(data["discard"].values()) + data["unused_catastrophes"] + len(data["ships"])
    )


__all__ = ["TOTAL_CARDS"]
