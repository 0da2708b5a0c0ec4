"""What bots know of Tigris & Euphrates: filling in the unseen tiles, and valuing a
position by the weakest-colour score (with treasures), kingdom strength and the
conflicts under way."""
from __future__ import annotations

import math
import random

from engine.bots.knowledge import GenericKnowledge, rank_value
from engine.core import EngineError
from engine.registry import get_game
from engine.tigris.board import SQUARE_NAMES
from engine.tigris.conflicts import base_strength
from engine.tigris.regions import adjacent_temples, regions
from engine.tigris.scoring import final_colors
from engine.tigris.state import BLUE, COLORS, EMPTY, FACE_UP, RED, TILE_COUNTS, from_json

# Weights of the colour totals sorted weakest first: the game compares the weakest.
SORTED_WEIGHTS = (3.0, 1.5, 0.75, 0.4)
LEADER_ON_BOARD = 1.5
KINGDOM_TILE = 0.25  # per tile of the leader's colour in its kingdom (war support)
KINGDOM_TILE_CAP = 6
TEMPLE_NEXT_TO_LEADER = 0.3  # revolt support
TILE_IN_HAND = 0.05
CATASTROPHE_LEFT = 0.3
CONFLICT_STAKE = 2.5
TILE_PLAYOUT_SHARE = 0.8


def unseen_tiles(view: dict, seat: int) -> list[int]:
    """Tiles per colour the seat cannot see: in the bag, other hands or discarded."""
    counts = list(TILE_COUNTS)
    for row in view["board"]:
        for ch in row:
            lower = ch.lower()
            if lower in "rbgk":
                counts["rbgk".index(lower)] -= 1
    hand = view["players"][seat]["hand"]
    return [max(0, n - hand.get(color, 0)) for n, color in zip(counts, COLORS)]


def determinise(view: dict, seat: int, rng: random.Random):
    """A full state the seat's view could come from: the unseen tiles dealt at random
    to the other hands and the bag (the rest discarded), unknown scores taken equal
    to the seat's own, and a fresh random draw order."""
    pool = [color for color, n in enumerate(unseen_tiles(view, seat)) for _ in range(n)]
    rng.shuffle(pool)
    data = {k: v for k, v in view.items() if k not in ("seat", "pending", "take_first", "bag_size")}
    own_score = view["players"][seat]["score"]
    players = []
    for other, player in enumerate(view["players"]):
        player = dict(player)
        if other != seat:
            size = player.pop("hand_size")
            hand, pool = pool[:size], pool[size:]
            player["hand"] = {COLORS[c]: hand.count(c) for c in range(4)}
            if player.get("score") is None:
                player["score"] = dict(own_score)
        players.append(player)
    bag, pool = pool[:view["bag_size"]], pool[view["bag_size"]:]
    data["players"] = players
    data["bag"] = {COLORS[c]: bag.count(c) for c in range(4)}
    data["discarded"] = len(pool)
    data["rng"] = rng.getrandbits(64)
    return from_json(data)


def seat_value(s, seat: int) -> float:
    """How well `seat` stands, from its own score and pieces (not relative)."""
    totals = sorted(final_colors(s.scores[seat], s.treasure_counts[seat]))
    value = sum(w * t for w, t in zip(SORTED_WEIGHTS, totals))
    reg, cells = regions(s), s.cells
    for color, sq in enumerate(s.leaders[seat]):
        if sq < 0:
            continue
        tile = FACE_UP + color
        supporters = sum(1 for member in reg.members[reg.labels[sq]] if cells[member] == tile)
        value += (LEADER_ON_BOARD + KINGDOM_TILE * min(supporters, KINGDOM_TILE_CAP)
                  + TEMPLE_NEXT_TO_LEADER * adjacent_temples(cells, sq))
    value += TILE_IN_HAND * sum(s.hands[seat]) + CATASTROPHE_LEFT * s.catastrophes[seat]
    return value + _conflict_value(s, seat)


def _conflict_value(s, seat: int) -> float:
    """A conflict under way: its expected gain or loss, from both sides' strength on
    the board plus what each has committed (or could still commit)."""
    conflict = s.conflict
    if conflict is None or seat not in (conflict["attacker"], conflict["defender"]):
        return 0.0
    paid_in = RED if conflict["kind"] == "revolt" else conflict["color"]
    strength = {}
    for side in ("attacker", "defender"):
        committed = conflict[side + "_commit"]
        strength[side] = base_strength(s, side) + (
            s.hands[conflict[side]][paid_in] if committed is None else committed
        )
    margin = strength["attacker"] - strength["defender"] - 0.5  # the defender wins ties
    attacker_wins = 1 / (1 + math.exp(-1.5 * margin))
    mine = attacker_wins if seat == conflict["attacker"] else 1 - attacker_wins
    return CONFLICT_STAKE * (2 * mine - 1)


class TigrisKnowledge(GenericKnowledge):
    has_evaluation = True

    def determinise(self, view, seat, rng):
        return determinise(view, seat, rng)

    def evaluate(self, state, seat: int) -> float:
        outcome = self.game.outcome(state)
        if outcome is not None:
            return 1000.0 * rank_value(outcome, seat)
        others = [seat_value(state, other) for other in range(state.players) if other != seat]
        return seat_value(state, seat) - sum(others) / len(others)

    def playout_step(self, state, seat: int, rng: random.Random):
        """Mostly a tile placed at random (drawn directly, which is far cheaper than
        listing every move); otherwise any listed move but swaps and catastrophes,
        which as random moves are mostly noise."""
        if self.game.pending(state).get(seat) == "action" and rng.random() < TILE_PLAYOUT_SHARE:
            placed = _random_tile(self.game, state, seat, rng)
            if placed is not None:
                return placed
        moves = self.game.legal_moves(state, seat)
        plain = [m for m in moves if m["type"] not in ("swap_tiles", "place_catastrophe")]
        state, _ = self.game.apply(state, seat, rng.choice(plain or moves))
        return state


def _random_tile(game, state, seat: int, rng: random.Random):
    """The state after a random tile from the hand on a random empty square of its
    terrain, or None if the try was refused (e.g. it would join three kingdoms)."""
    hand = state.hands[seat]
    if not sum(hand):
        return None
    color = rng.choices(range(4), weights=hand)[0]
    river = state.board_map.river
    wants_river = color == BLUE
    squares = [sq for sq, code in enumerate(state.cells) if code == EMPTY and river[sq] == wants_river]
    if not squares:
        return None
    try:
        after, _ = game.apply(state, seat,
                              {"type": "place_tile", "color": COLORS[color],
                               "square": SQUARE_NAMES[rng.choice(squares)]})
    except EngineError:
        return None
    return after


KNOWLEDGE = TigrisKnowledge(get_game("tigris"))
