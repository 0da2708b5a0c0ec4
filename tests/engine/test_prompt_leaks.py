"""Nothing public depends on a private fact. In random games, at every decision, a second
state is built that differs only in one other seat's private facts (his hand, exchanged
with the unseen cards or tiles, and the order in which they will be drawn); every other
seat's view and prompt, the spectator's view, `pending` and the other seats' legal moves
must be the same in both, and so must everything public after the acting seat's move
(a prompt that exists only because of what a hand holds shows up there).
"""
from __future__ import annotations

import json
import random

import pytest

import engine
from engine.core import events_for
from engine.simulate import uniform_choice
from tests.engine.euphrat_cards_positions import purposeful_choice

NAMES: dict = {}
STEPS_CHECKED = 250  # decisions per game: enough for several offers, conflicts and turns


def _shuffled(rng: random.Random, items: list) -> list:
    items = list(items)
    rng.shuffle(items)
    return items


def _new_hand(rng: random.Random, pool: list[str], size: int) -> list[str]:
    """`size` items of the pool: half the time as many of one kind as the pool allows
    (a hand without some colour is what an offer made only on a card in hand would
    betray), else a uniform sample."""
    if pool and rng.random() < 0.5:
        kind = rng.choice(sorted(set(pool)))
        first = [item for item in pool if item == kind][:size]
        rest = list(pool)
        for item in first:
            rest.remove(item)
        return first + rng.sample(rest, size - len(first))
    return rng.sample(pool, size)


def _without(pool: list[str], taken: list[str]) -> list[str]:
    rest = list(pool)
    for item in taken:
        rest.remove(item)
    return rest


CARD_CHARS = {"red": "r", "blue": "b", "green": "g", "black": "k"}


def vary_cards(data: dict, seat: int, rng: random.Random) -> dict:
    """The seat's hand exchanged with the deck and the cards removed unseen, the deck
    reordered; hand size, deck size and removed size stay as they are (they are public)."""
    player = data["players"][seat]
    hand = [CARD_CHARS[c] * n for c, n in player["hand"].items()]
    pool = list("".join(hand) + data["deck"] + data["removed"])
    new_hand = _new_hand(rng, pool, sum(player["hand"].values()))
    rest = _shuffled(rng, _without(pool, new_hand))
    player["hand"] = {c: new_hand.count(ch) for c, ch in CARD_CHARS.items()}
    data["deck"] = "".join(rest[:len(data["deck"])])
    data["removed"] = "".join(rest[len(data["deck"]):])
    return data


def vary_tiles(data: dict, seat: int, rng: random.Random) -> dict:
    """The seat's hand exchanged with the bag (tile counts), the bag's draws reordered
    (another RNG state); hand size and bag size stay as they are (they are public)."""
    player = data["players"][seat]
    pool = [c for c, n in player["hand"].items() for _ in range(n)]
    pool += [c for c, n in data["bag"].items() for _ in range(n)]
    new_hand = _new_hand(rng, pool, sum(player["hand"].values()))
    rest = _without(pool, new_hand)
    player["hand"] = {c: new_hand.count(c) for c in player["hand"]}
    data["bag"] = {c: rest.count(c) for c in data["bag"]}
    data["rng"] = rng.getrandbits(64)
    return data


GAMES = {
    "tigris": (vary_tiles, {"tiles_drawn"}, uniform_choice),
    "euphrat-cards": (vary_cards, {"cards_drawn"}, purposeful_choice),
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


def _ends_turn_of(data: dict, after: dict, seat: int) -> bool:
    # At the end of his own turn a card player pays ship points from his hand in the
    # open (the rules make it public whether he holds that colour).
    return data["turn"]["active"] == seat and after["turn"]["number"] != data["turn"]["number"]


def check_step(game_id: str, game, state, seat: int, move: dict, rng: random.Random) -> None:
    vary, draw_events, _ = GAMES[game_id]
    data = game.to_json(state)
    players = len(data["players"])
    hidden = rng.choice([s for s in range(players) if s != seat])
    other = game.from_json(vary(json.loads(json.dumps(data)), hidden, rng))
    where = f"{game_id}, seat {hidden}'s hand changed, turn {data['turn']}"
    assert public(game, other, hidden, players) == public(game, state, hidden, players), where

    after, events = game.apply(state, seat, move)
    after_data = game.to_json(after)
    if any(e["type"] in draw_events for e in events) or after_data.get("finished"):
        return  # new draws come from the changed unseen cards; a finished game shows all
    if _ends_turn_of(data, after_data, hidden):
        return
    other_after, other_events = game.apply(other, seat, move)
    where += f", after seat {seat} played {move}"
    assert public(game, other_after, hidden, players) == public(game, after, hidden, players), where
    for viewer in [None, *(s for s in range(players) if s != hidden)]:
        assert events_for(other_events, viewer) == events_for(events, viewer), where


def play_and_check(game_id: str, players: int, seed: int) -> int:
    game = engine.get_game(game_id)
    choose = GAMES[game_id][2]
    chooser, rng = random.Random(seed), random.Random(seed + 1)
    state = game.setup(players, seed, {})
    for step in range(STEPS_CHECKED):
        if game.outcome(state) is not None:
            return step
        seat = chooser.choice(sorted(game.pending(state)))
        move = choose(chooser, state, game.legal_moves(state, seat))
        check_step(game_id, game, state, seat, move, rng)
        state, _ = game.apply(state, seat, move)
    return STEPS_CHECKED


@pytest.mark.parametrize("game_id", sorted(GAMES))
@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3)])
def test_no_public_fact_depends_on_another_seats_hand(game_id, players, seed):
    assert play_and_check(game_id, players, seed) > 50
