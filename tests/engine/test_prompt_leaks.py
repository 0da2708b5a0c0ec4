"""Nothing public depends on a private fact.

Random games of every game, under several option sets, are played; at every decision
the test builds, twice, a second state that differs only in one seat's private facts:
his hand exchanged with the cards or tiles nobody has seen (the deck, the bag, the
cards removed unseen), the order in which those will be drawn and, in Eden, his mana.
Once for a seat that is not moving, once for the seat that moves; the moving seat's
variant keeps what his chosen move uses (the card or tile played, the tiles swapped,
the count committed, the mana spent or bid), so the same move is legal in both.

In both states, before the move and after it, every other seat's view and prompt,
the spectator's view, `pending` (the offers, support decisions and prompts a seat
is asked for) and the other seats' legal moves must be the same, and so must the
events the other seats and spectators see. After the move, the comparison is left out
where the rules themselves make the difference public: a draw by another seat from
the changed unseen cards or tiles, face-up tiles turned from the bag, a finished game
(which shows everything) and, in the card game, the ship points the active player
pays from his hand at the end of his turn.
"""
from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass

import pytest

import engine
from engine.core import events_for
from engine.eden.acquisition import multiplier
from engine.simulate import uniform_choice
from tests.engine.euphrat_cards_positions import purposeful_choice

NAMES: dict = {}
STEPS_CHECKED = 250  # decisions per game: enough for several offers, conflicts and turns


def _without(pool: list, taken: list) -> list:
    rest = list(pool)
    for item in taken:
        rest.remove(item)
    return rest


def _new_hand(rng: random.Random, pool: list, size: int, keep: list) -> list:
    """`size` items of the pool, `keep` among them. The rest is, in turn: as many of one
    kind as the pool allows, none of one kind (a hand with or without some colour is
    what a decision asked only on a card in hand would betray), or a uniform sample."""
    rest = _without(pool, keep)
    wanted = size - len(keep)
    kinds = sorted(set(rest), key=str)
    way = rng.randrange(3)
    if kinds and way == 0:
        kind = rng.choice(kinds)
        first = [item for item in rest if item == kind][:wanted]
        return keep + first + rng.sample(_without(rest, first), wanted - len(first))
    if kinds and way == 1:
        kind = rng.choice(kinds)
        others = [item for item in rest if item != kind]
        if len(others) >= wanted:
            return keep + rng.sample(others, wanted)
    return keep + rng.sample(rest, wanted)


def _shuffled(rng: random.Random, items: list) -> list:
    items = list(items)
    rng.shuffle(items)
    return items


CARD_CHARS = {"red": "r", "blue": "b", "green": "g", "black": "k"}


def vary_cards(data: dict, seat: int, rng: random.Random, keep: dict) -> dict:
    """Card game: the seat's hand exchanged with the deck and the cards removed unseen,
    the deck reordered; hand, deck and removed sizes stay (they are public)."""
    player = data["players"][seat]
    hand = [CARD_CHARS[c] * n for c, n in player["hand"].items()]
    pool = list("".join(hand) + data["deck"] + data["removed"])
    kept = [CARD_CHARS[c] for c, n in keep.items() for _ in range(n)]
    new_hand = _new_hand(rng, pool, sum(player["hand"].values()), kept)
    rest = _shuffled(rng, _without(pool, new_hand))
    player["hand"] = {c: new_hand.count(ch) for c, ch in CARD_CHARS.items()}
    data["deck"] = "".join(rest[:len(data["deck"])])
    data["removed"] = "".join(rest[len(data["deck"]):])
    return data


def vary_tiles(data: dict, seat: int, rng: random.Random, keep: dict) -> dict:
    """Tigris: the seat's hand exchanged with the bag (tile counts), the bag's draws
    reordered (another RNG state); hand and bag sizes stay (they are public)."""
    player = data["players"][seat]
    pool = [c for c, n in player["hand"].items() for _ in range(n)]
    pool += [c for c, n in data["bag"].items() for _ in range(n)]
    kept = [c for c, n in keep.items() for _ in range(n)]
    new_hand = _new_hand(rng, pool, sum(player["hand"].values()), kept)
    rest = _without(pool, new_hand)
    player["hand"] = {c: new_hand.count(c) for c in player["hand"]}
    data["bag"] = {c: rest.count(c) for c in data["bag"]}
    data["rng"] = rng.getrandbits(64)
    return data


def vary_eden(data: dict, seat: int, rng: random.Random, keep: dict) -> dict:
    """Eden: the seat's hand exchanged with the deck, the deck reordered, his mana
    changed (never below what he has bid and not yet paid, or what `keep` spends)."""
    player = data["players"][seat]
    pool = player["hand"] + data["deck"]
    new_hand = _new_hand(rng, pool, len(player["hand"]), list(keep.get("cards", [])))
    player["hand"] = sorted(new_hand)
    data["deck"] = _shuffled(rng, _without(pool, new_hand))
    least = max(keep.get("mana", 0), _eden_bid_owed(data, seat))
    player["mana"] = least + 5 * rng.randrange(40)
    return data


def vary_civ(data: dict, seat: int, rng: random.Random, keep: dict) -> dict:
    """Civilization: the seat's hand exchanged with the play deck, the deck reordered;
    the counters he has chosen but not yet revealed stay in his hand."""
    player = data["players"][seat]
    pool = [card for card, n in player["hand"].items() for _ in range(n)] + data["deck"]
    kept = [card for card, n in keep.items() for _ in range(n)]
    kept += [card for card, _ in _hidden_counters(data, seat)]
    new_hand = _new_hand(rng, pool, sum(player["hand"].values()), kept)
    player["hand"] = {card: new_hand.count(card) for card in sorted(set(new_hand))}
    data["deck"] = _shuffled(rng, _without(pool, new_hand))
    return data


def _hidden_counters(data: dict, seat: int) -> list:
    fight = data["combat"]
    if fight is None or fight["stage"] not in ("declare", "catapult", "walls", "counter"):
        return []
    return [counter for front in fight["fronts"] if front["defender"] == seat for counter in front["counters"]]


def _eden_bid_owed(data: dict, seat: int) -> int:
    """Mana the seat must keep: his standing bid, which the other side may accept."""
    a = data["acquisition"]
    if not a or not a["bids"]:
        return 0
    last_bidder = a["attacker"] if len(a["bids"]) % 2 else a["defender"]
    if last_bidder != seat:
        return 0
    state = engine.get_game("eden").from_json(data)
    return a["bids"][-1] * multiplier(state, state.acquisition, seat)


# What a move takes from its seat's hand (and purse), so a variant keeps it.

def tigris_uses(game, state, seat: int, move: dict) -> dict:
    data = game.to_json(state)
    if move["type"] == "place_tile":
        return {move["color"]: 1}
    if move["type"] == "swap_tiles":
        return dict(move["tiles"])
    if move["type"] == "commit_support":
        conflict = data["conflict"]
        return {"red" if conflict["kind"] == "revolt" else conflict["color"]: move["count"]}
    return {}


def cards_uses(game, state, seat: int, move: dict) -> dict:
    data = game.to_json(state)
    if move["type"] == "play_card":
        return {move["color"]: 1}
    if move["type"] == "commit_support":
        conflict = data["conflict"]
        return {"red" if conflict["kind"] == "internal" else conflict["color"]: move["count"]}
    offer = next((o for o in data["offers"] if o["seat"] == seat), None)
    if move["type"] == "score":
        assert offer is not None, "a seat scores an offer made to it"
        return {offer["color"]: 1}
    if move["type"] == "swap_treasure":
        return {"red": 1}
    return {}


def eden_uses(game, state, seat: int, move: dict) -> dict:
    cards = [move["card"]] if move["type"] in ("cultivate", "sell") else []
    if move["type"] == "irrigate":
        cards = [move["square"]]  # the irrigation card is named after its square
    if move["type"] == "bid":
        return {"cards": cards, "mana": move["amount"] * multiplier(state, state.acquisition, seat)}
    after, _ = game.apply(state, seat, move)
    spent = game.to_json(state)["players"][seat]["mana"] - game.to_json(after)["players"][seat]["mana"]
    return {"cards": cards, "mana": max(spent, 0)}


def civ_uses(game, state, seat: int, move: dict) -> dict:
    if move["type"] in ("discard", "build", "cash", "attack", "counter"):
        return {move["card"]: 1}
    return {}


@dataclass(frozen=True)
class Spec:
    vary: Callable
    uses: Callable
    draws: frozenset  # events of cards or tiles drawn into one seat's hand ("seat")
    reveals: frozenset  # events that turn unseen cards or tiles face up
    choose: Callable


GAMES = {
    "tigris": Spec(vary_tiles, tigris_uses, frozenset({"tiles_drawn"}), frozenset({"display_refilled"}),
                   uniform_choice),
    "euphrat-cards": Spec(vary_cards, cards_uses, frozenset({"cards_drawn"}), frozenset(), purposeful_choice),
    "eden": Spec(vary_eden, eden_uses, frozenset({"card_drawn"}), frozenset(), uniform_choice),
    "civ-cards": Spec(vary_civ, civ_uses, frozenset({"cards_drawn"}), frozenset({"deck_reshuffled"}),
                      uniform_choice),
}


def public(game, state, hidden_seat: int, players: int) -> dict:
    """Everything seats other than `hidden_seat` (and spectators) may learn."""
    others = [s for s in range(players) if s != hidden_seat]
    return {
        "pending": game.pending(state),
        "views": {str(s): game.view(state, s) for s in [None, *others]},
        "prompts": {s: game.prompt(state, s, NAMES) for s in others},
        "legal": {s: game.legal_moves(state, s) for s in others},
    }


def _rules_reveal(game_id: str, spec: Spec, data: dict, after: dict, events: list, hidden: int) -> bool:
    """Whether the rules make the move's outcome depend on the hidden seat's facts in
    the open (see the module's docstring)."""
    if after.get("finished"):
        return True
    if any(e["type"] in spec.reveals for e in events):
        return True
    if any(e["type"] in spec.draws and e["seat"] != hidden for e in events):
        return True
    # At the end of his own turn a card player pays ship points from his hand in the
    # open (the rules make it public whether he holds that colour).
    return game_id == "euphrat-cards" and data["turn"]["active"] == hidden and (
        after["turn"]["number"] != data["turn"]["number"]
    )


def compare(game_id: str, game, state, seat: int, move: dict, hidden: int, rng: random.Random) -> None:
    """A variant of `state` with `hidden`'s private facts changed shows the same public
    facts before and after `seat` plays `move`."""
    spec = GAMES[game_id]
    data = game.to_json(state)
    players = len(data["players"])
    keep = spec.uses(game, state, seat, move) if hidden == seat else {}
    other = game.from_json(spec.vary(json.loads(json.dumps(data)), hidden, rng, keep))
    where = f"{game_id} {data['options']}, seat {hidden}'s private facts changed, turn {data['turn']}"
    assert public(game, other, hidden, players) == public(game, state, hidden, players), where

    after, events = game.apply(state, seat, move)
    after_data = game.to_json(after)
    if _rules_reveal(game_id, spec, data, after_data, events, hidden):
        return
    other_after, other_events = game.apply(other, seat, move)
    where += f", after seat {seat} played {move}"
    assert public(game, other_after, hidden, players) == public(game, after, hidden, players), where
    for viewer in [None, *(s for s in range(players) if s != hidden)]:
        assert events_for(other_events, viewer) == events_for(events, viewer), where


def play_and_check(game_id: str, players: int, seed: int, options: dict) -> int:
    game = engine.get_game(game_id)
    choose = GAMES[game_id].choose
    chooser, rng = random.Random(seed), random.Random(seed + 1)
    state = game.setup(players, seed, options)
    for step in range(STEPS_CHECKED):
        if game.outcome(state) is not None:
            return step
        seat = chooser.choice(sorted(game.pending(state)))
        move = choose(chooser, state, game.legal_moves(state, seat))
        compare(game_id, game, state, seat, move, rng.choice([s for s in range(players) if s != seat]), rng)
        compare(game_id, game, state, seat, move, seat, rng)
        state, _ = game.apply(state, seat, move)
    return STEPS_CHECKED


CASES = [
    *[("tigris", players, seed, {}) for players, seed in [(2, 1), (3, 2), (4, 3)]],
    ("tigris", 3, 4, {"open_tiles": True}),
    ("tigris", 4, 5, {"open_tiles": True, "open_scoring": True}),
    ("tigris", 3, 6, {"english_variant": True}),
    ("tigris", 2, 7, {"english_variant": True, "board": "advanced"}),
    ("tigris", 3, 8, {"buildings": True}),
    ("tigris", 4, 9, {"ziggurat": True}),
    ("tigris", 3, 10, {"buildings": True, "ziggurat": True, "open_tiles": True, "english_variant": True}),
    *[("euphrat-cards", players, seed, {}) for players, seed in [(2, 1), (3, 2), (4, 3)]],
    ("euphrat-cards", 2, 4, {"two_player_trim": False}),
    ("euphrat-cards", 3, 5, {"open_scoring": True}),
    ("euphrat-cards", 4, 6, {"open_scoring": True}),
    *[("euphrat-cards", players, seed, {}) for players, seed in [(2, 7), (3, 8), (4, 9), (3, 10), (4, 11)]],
    ("eden", 2, 1, {"allow_two": True}),
    ("eden", 3, 2, {}),
    ("eden", 4, 3, {}),
    ("civ-cards", 2, 1, {}),
    ("civ-cards", 3, 2, {"culture_threshold_rule": "more_than_2", "happiness_discounts_wonders": False}),
    ("civ-cards", 4, 3, {}),
    ("civ-cards", 4, 4, {"teams": "opposite"}),
    ("civ-cards", 4, 5, {"teams": "adjacent"}),
]


@pytest.mark.parametrize("game_id,players,seed,options", CASES)
def test_no_public_fact_depends_on_a_seats_private_facts(game_id, players, seed, options):
    assert play_and_check(game_id, players, seed, options) > 50
