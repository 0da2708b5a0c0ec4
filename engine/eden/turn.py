"""The flow of play: setup, fertility and income, the end of a turn (drawing, the
next player's income) and the end of the game."""
from __future__ import annotations

from engine.core import rng_below, round_of, seed_state
from engine.eden.board import (
    CARD_NAMES,
    DRAW_BELOW,
    HAND_SIZE,
    INCOME_PER_RED_DOT,
    POINTS,
    RED_DOTS,
    SQUARES,
    STARTING_MANA,
    TILES,
    WINNING_POINTS,
)
from engine.eden.state import State


def setup(players: int, seed: int, options: dict) -> State:
    s = State.__new__(State)
    s.options = dict(options)
    s.owner = [-1] * SQUARES
    s.level = [0] * SQUARES
    s.mana = [STARTING_MANA] * players
    s.supply = [list(TILES) for _ in range(players)]
    rng = seed_state(seed)
    deck = list(range(len(CARD_NAMES)))
    for i in range(len(deck) - 1, 0, -1):  # Fisher-Yates
        rng, j = rng_below(rng, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    s.rng = rng
    s.hands = [sorted(deck[seat * HAND_SIZE:(seat + 1) * HAND_SIZE]) for seat in range(players)]
    s.deck = tuple(deck[players * HAND_SIZE:])
    s.discard, s.market, s.played = [], [], []
    s.turn, s.active, s.idle_turns = 1, 0, 0  # the oldest player, seat 0, starts
    s.acquisition = s.finished = None
    collect_income(s, [])
    return s


def points(s: State, seat: int) -> int:
    """Fertility points: every dot, white and red, on the seat's tiles."""
    return sum(POINTS[s.level[i]] for i in range(SQUARES) if s.owner[i] == seat)


def red_dots(s: State, seat: int) -> int:
    return sum(RED_DOTS[s.level[i]] for i in range(SQUARES) if s.owner[i] == seat)


def collect_income(s: State, events: list) -> None:
    """Step 1 of a turn: 5 mana per red dot on the active player's tiles."""
    amount = INCOME_PER_RED_DOT * red_dots(s, s.active)
    s.mana[s.active] += amount
    events.append({"type": "income_received", "seat": s.active, "amount": amount})


def check_winner(s: State, seat: int, events: list) -> bool:
    """The first player with 20 fertility points wins at once, in any player's turn.
    Only the seat whose tiles just grew can have reached it."""
    if points(s, seat) < WINNING_POINTS:
        return False
    s.finished = {"reason": "twenty_points", "winner": seat}
    s.acquisition = None
    events.append({"type": "game_ended", "reason": "twenty_points", **ranking(s)})
    return True


def end_turn(s: State, had_play: bool, events: list) -> None:
    """Step 3 (draw one card when holding fewer than 5), then the next player's income.

    The game also ends after a full round of turns in which no card was played, none
    could have been and none was drawn (rules digest, ruling 4: an added rule); a
    drawn card may be playable, so such a round is not yet a stalled game."""
    seat = s.active
    drew = len(s.hands[seat]) < DRAW_BELOW and bool(s.deck)
    if drew:
        card, s.deck = s.deck[0], s.deck[1:]
        s.hands[seat] = sorted(s.hands[seat] + [card])
        events.append({"type": "card_drawn", "seat": seat, "hidden_from": [seat]})  # the drawer's line is the next
        events.append({"type": "card_received", "seat": seat, "card": CARD_NAMES[card], "visible_to": [seat]})
    idle = not s.played and not had_play and not drew
    s.idle_turns = s.idle_turns + 1 if idle else 0
    events.append({"type": "turn_ended", "seat": seat, "turn": s.turn, "round": round_of(s.turn, s.players)})
    if s.idle_turns >= s.players:
        s.finished = {"reason": "no_play"}
        events.append({"type": "game_ended", "reason": "no_play", **ranking(s)})
        return
    s.active = (seat + 1) % s.players
    s.turn += 1
    s.played = []
    collect_income(s, events)


def ranking(s: State) -> dict:
    """The winner at 20 first; the others (or everyone, when play ran out) by
    fertility points, ties sharing a place."""
    scores = {seat: points(s, seat) for seat in range(s.players)}
    winner = (s.finished or {}).get("winner")
    places: list[list[int]] = [[winner]] if winner is not None else []
    last = None
    for seat in sorted(scores, key=lambda seat: -scores[seat]):
        if seat == winner:
            continue
        if places and last == scores[seat] and places[-1][0] != winner:
            places[-1].append(seat)
        else:
            places.append([seat])
        last = scores[seat]
    return {"ranking": places, "scores": scores}
