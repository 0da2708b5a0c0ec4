"""What bots know of Euphrat & Tigris, the card game: filling in the unseen cards
(other hands, the deck, the cards set aside, the face-down union card and the
hidden victory piles), and valuing a position by the weakest colour of the victory
pile (treasures as jokers), the leaders on the table and the conflict under way."""
from __future__ import annotations

import math
import random

from engine.bots.knowledge import GenericKnowledge, rank_value
from engine.euphrat_cards.cards import COLORS, DECK_COUNTS, TREASURES
from engine.euphrat_cards.conflicts import base_strength, support_color
from engine.euphrat_cards.scoring import pile_colors, with_jokers
from engine.euphrat_cards.state import from_json
from engine.euphrat_cards.table import color_places, place_span
from engine.registry import get_game

CIVILIZATION = "rbgk"
SORTED_WEIGHTS = (3.0, 1.5, 0.75, 0.4)
LEADER_ON_TABLE = 1.5
KINGDOM_CARD = 0.2  # per card of the leader's colour in its region
KINGDOM_CARD_CAP = 6
CARD_IN_HAND = 0.05
CATASTROPHE_LEFT = 0.3
CONFLICT_STAKE = 2.5


def _seen_cards(view: dict, seat: int) -> tuple[list[int], int]:
    """Civilization cards per colour, and treasures, that the seat can place."""
    civ, treasures = [0, 0, 0, 0], 0
    visible_piles = "".join(
        p.get("vp") or (p.get("vp_top") or "" if other == seat else "") for other, p in enumerate(view["players"])
    )
    for ch in "".join(view["columns"]) + view["gaps"] + visible_piles:
        if ch in CIVILIZATION:
            civ[CIVILIZATION.index(ch)] += 1
        elif ch == "t":
            treasures += 1
    for color, n in view["players"][seat]["hand"].items():
        civ[COLORS.index(color)] += n
    for color in COLORS:
        civ[COLORS.index(color)] += view["discard"][color]
    conflict = view.get("conflict")
    if conflict:  # cards committed to a conflict are public, and out of every hand
        color = "red" if conflict["kind"] == "internal" else conflict["color"]
        civ[COLORS.index(color)] += (conflict.get("attacker_commit") or 0) + (conflict.get("defender_commit") or 0)
    return civ, treasures + view["discard"]["treasure"]


def determinise(view: dict, seat: int, rng: random.Random):
    """A full state the seat's view could come from: the unseen treasures spread over
    the hidden places of the victory piles, the unseen civilization cards dealt at
    random to everything else hidden."""
    seen_civ, seen_treasures = _seen_cards(view, seat)
    civ = [c for color, n in enumerate(DECK_COUNTS) for c in [CIVILIZATION[color]] * max(0, n - seen_civ[color])]
    rng.shuffle(civ)
    piles = [_hidden_pile_size(p, other == seat) for other, p in enumerate(view["players"])]
    slots = [(other, i) for other, size in enumerate(piles) for i in range(size)]
    treasure_slots = set(rng.sample(slots, min(len(slots), max(0, TREASURES - seen_treasures))))

    def take(count: int) -> str:
        nonlocal civ
        taken, civ = civ[:count], civ[count:]
        # Pad if the view's counts and the accounting ever disagree: sizes must match.
        return "".join(taken) + "".join(rng.choice(CIVILIZATION) for _ in range(count - len(taken)))

    data = {k: v for k, v in view.items() if k not in ("seat", "pending", "deck_size", "removed_size")}
    if "?" in view["gaps"]:
        data["gaps"] = view["gaps"].replace("?", take(1))
    players = []
    for other, player in enumerate(view["players"]):
        player = dict(player)
        if other != seat:
            hand = take(player.pop("hand_size"))
            player["hand"] = {color: hand.count(ch) for color, ch in zip(COLORS, CIVILIZATION)}
        if "vp" not in player:
            hidden = "".join("t" if (other, i) in treasure_slots else take(1) for i in range(piles[other]))
            player["vp"] = hidden + (player.get("vp_top") or "" if other == seat else "")
        player.pop("vp_top", None)
        player.pop("vp_count", None)
        players.append(player)
    data["players"] = players
    data["deck"] = take(view["deck_size"])
    data["removed"] = take(view["removed_size"])
    data["rng"] = rng.getrandbits(64)
    return from_json(data)


def _hidden_pile_size(player: dict, own: bool) -> int:
    if "vp" in player:
        return 0
    return player["vp_count"] - (1 if own and player.get("vp_top") else 0)


def seat_value(s, seat: int) -> float:
    counts, treasures = pile_colors(s.vp[seat])
    totals = sorted(with_jokers(counts, treasures))
    value = sum(w * t for w, t in zip(SORTED_WEIGHTS, totals))
    for color, place in enumerate(s.leaders[seat]):
        if place < 0:
            continue
        supporters = len(color_places(s, place_span(s, place), color))
        value += LEADER_ON_TABLE + KINGDOM_CARD * min(supporters, KINGDOM_CARD_CAP)
    value += CARD_IN_HAND * sum(s.hands[seat]) + CATASTROPHE_LEFT * s.catastrophes[seat]
    return value + _conflict_value(s, seat)


def _conflict_value(s, seat: int) -> float:
    conflict = s.conflict
    if conflict is None or seat not in (conflict["attacker"], conflict["defender"]):
        return 0.0
    paid_in = support_color(conflict)
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


class CardGameKnowledge(GenericKnowledge):
    has_evaluation = True

    def determinise(self, view, seat, rng):
        return determinise(view, seat, rng)

    def evaluate(self, state, seat: int) -> float:
        outcome = self.game.outcome(state)
        if outcome is not None:
            return 1000.0 * rank_value(outcome, seat)
        others = [seat_value(state, other) for other in range(state.players) if other != seat]
        return seat_value(state, seat) - sum(others) / len(others)


KNOWLEDGE = CardGameKnowledge(get_game("euphrat-cards"))
