"""The flow of play: setup, drawing, what happens automatically after each decision
(conflicts in order, the end of a union), the end of a turn and of the game."""
from __future__ import annotations

from engine.core import rng_below, seed_state
from engine.euphrat_cards.cards import (
    CATASTROPHES,
    COLORS,
    DECK_COUNTS,
    GAP_BASE,
    HAND_SIZE,
    SHIP,
    SHIP_COLORS,
    TREASURE,
    TREASURES,
    TWO_PLAYER_TRIM,
    place_name,
)
from engine.euphrat_cards.conflicts import (
    resolve_conflict,
    start_external,
    union_conflict_colors,
)
from engine.euphrat_cards.rewards import answer_offers, offer_treasure_swap, score_ships
from engine.euphrat_cards.scoring import ranking
from engine.euphrat_cards.state import ASK, State
from engine.euphrat_cards.table import treasure_columns


def setup(players: int, seed: int, options: dict) -> State:
    s = State.__new__(State)
    s.options = dict(options)
    s.columns = [[TREASURE] for _ in range(TREASURES)]
    s.gaps = [-1] * (TREASURES - 1)
    s.ships = tuple(SHIP + c for c in SHIP_COLORS)
    s.leaders = [[-1] * 4 for _ in range(players)]
    s.hands = [[0] * 4 for _ in range(players)]
    s.catastrophes = [1] * players
    s.vp = [[] for _ in range(players)]
    s.answers = tuple(dict(ASK) for _ in range(players))
    s.unused_catastrophes = CATASTROPHES - players
    s.discard = [0] * 6
    rng = seed_state(seed)
    deck = [color for color, n in enumerate(DECK_COUNTS) for _ in range(n)]
    for i in range(len(deck) - 1, 0, -1):  # Fisher-Yates
        rng, j = rng_below(rng, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    s.rng, s.active = rng_below(rng, players)
    s.deck = tuple(deck)
    s.removed = ()
    s.turn = 1
    s.actions_left = 2
    s.conflict = s.union = s.finished = s.end_proposed = None
    s.offers = ()
    for offset in range(players):
        draw(s, (s.active + offset) % players, HAND_SIZE, [])
    if players == 2 and options.get("two_player_trim", True):
        s.removed, s.deck = s.deck[:TWO_PLAYER_TRIM], s.deck[TWO_PLAYER_TRIM:]
    return s


def draw(s: State, seat: int, count: int, events: list) -> bool:
    """Draw `count` cards from the top of the deck; False if it ran short."""
    taken, s.deck = s.deck[:count], s.deck[count:]
    hand = s.hands[seat]
    for card in taken:
        hand[card] += 1
    if taken:
        # The others learn how many, the drawer which: one line each in a log.
        events.append({"type": "cards_drawn", "seat": seat, "count": len(taken), "hidden_from": [seat]})
        got: dict[str, int] = {}
        for card in taken:
            got[COLORS[card]] = got.get(COLORS[card], 0) + 1
        events.append({"type": "cards_received", "seat": seat, "cards": got, "visible_to": [seat]})
    return len(taken) == count


def settle(s: State, events: list) -> None:
    """Run every automatic step until some seat owes a decision or the game is over."""
    while s.finished is None:
        if s.offers:
            answer_offers(s, events)
        if s.offers:
            return
        conflict = s.conflict
        if conflict is not None:
            if conflict["attacker_commit"] is None or conflict["defender_commit"] is None:
                return
            resolve_conflict(s, events)
            continue
        if s.union is not None:
            if _union_waits(s, events):
                return
            continue
        if s.actions_left > 0:
            return
        end_turn(s, events)
        return


def _union_waits(s: State, events: list) -> bool:
    """Advance a union: start its only conflict, wait for the order, or end it."""
    union = s.union
    assert union is not None  # called only during a union
    gap = union["gap"]
    remaining = [c for c in union["colors"] if c in union_conflict_colors(s, gap)]
    vanished = [c for c in union["colors"] if c not in remaining]
    if vanished:
        events.append({"type": "conflicts_vanished", "colors": [COLORS[c] for c in vanished]})
    s.union = {**union, "colors": remaining}
    if len(remaining) > 1:
        return True
    if remaining:
        start_external(s, remaining[0], events)
        return False
    s.union = None
    events.append({
        "type": "card_revealed", "gap": place_name(GAP_BASE + gap), "color": COLORS[s.gaps[gap]],
    })
    offer_treasure_swap(s, gap)
    return False


def end_turn(s: State, events: list) -> None:
    score_ships(s, events)
    players = s.players
    short = False
    for offset in range(players):
        seat = (s.active + offset) % players
        owed = HAND_SIZE - sum(s.hands[seat])
        if owed > 0 and not draw(s, seat, owed, events):
            short = True
    events.append({"type": "turn_ended", "seat": s.active, "turn": s.turn})
    if short:
        finish(s, "deck", events)
        return
    if len(treasure_columns(s)) <= 1:
        finish(s, "treasures", events)
        return
    s.active = (s.active + 1) % players
    s.actions_left = 2
    s.turn += 1


def finish(s: State, reason: str, events: list) -> None:
    s.finished = reason
    s.conflict = s.union = None
    s.offers = ()
    events.append({"type": "game_ended", "reason": reason, **ranking(s)})
