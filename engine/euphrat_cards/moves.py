"""Listing the legal moves of a seat, in full, so clients can offer them as choices."""
from __future__ import annotations

from engine.euphrat_cards.actions import column_refusal, gap_refusal
from engine.euphrat_cards.cards import (
    COLORS,
    COLUMN_LETTERS,
    COLUMNS,
    GAP_BASE,
    GAP_NAMES,
    GAPS,
    LEADERS,
    PLACE_NAMES,
    RED,
    ROW_SPAN,
    SHIP,
    SHIP_NAMES,
    TREASURE,
)
from engine.euphrat_cards.conflicts import support_color
from engine.euphrat_cards.rewards import can_take, offer_for, ship_choices
from engine.euphrat_cards.state import STANDING_ANSWERS, State


def action_moves(s: State, seat: int) -> list[dict]:
    moves: list[dict] = []
    _card_moves(s, seat, moves)
    free = _free_cards(s)
    _leader_moves(s, seat, free, moves)
    if s.catastrophes[seat]:
        moves.extend({"type": "play_catastrophe", "card": name} for name, card in free if card < SHIP)
    moves.append({"type": "pass"})
    return moves


def _card_moves(s: State, seat: int, out: list) -> None:
    colors = [COLORS[c] for c, n in enumerate(s.hands[seat]) if n]
    if not colors:
        return
    places = [COLUMN_LETTERS[c] for c in range(COLUMNS) if column_refusal(s, c) is None]
    places += [GAP_NAMES[g] for g in range(GAPS) if gap_refusal(s, g) is None]
    for color in colors:
        out.extend({"type": "play_card", "color": color, "place": place} for place in places)


def _free_cards(s: State) -> list[tuple[str, int]]:
    """(place name, card) of every table card no leader stands on, ships included."""
    occupied = {place for row in s.leaders for place in row if place >= 0}
    free: list[tuple[str, int]] = []
    for column, cards in enumerate(s.columns):
        base = column * ROW_SPAN
        free.extend((PLACE_NAMES[base + row], card) for row, card in enumerate(cards) if base + row not in occupied)
    free.extend(
        (GAP_NAMES[g], card) for g, card in enumerate(s.gaps) if card >= 0 and GAP_BASE + g not in occupied
    )
    return free


def _leader_moves(s: State, seat: int, free: list[tuple[str, int]], out: list) -> None:
    for color in (3, RED, 1, 2):  # king, priest, farmer, trader
        leader = LEADERS[color]
        out.extend([
            {"type": "place_leader", "leader": leader, "card": name}
            for name, card in free
            if card < SHIP and card != color and (card != TREASURE or color != RED)
        ])
        if s.leaders[seat][color] >= 0:
            out.append({"type": "withdraw_leader", "leader": leader})


def support_moves(s: State, seat: int) -> list[dict]:
    assert s.conflict is not None  # listed only during a conflict
    held = s.hands[seat][support_color(s.conflict)]
    return [{"type": "commit_support", "count": n} for n in range(held + 1)]


def conflict_order_moves(s: State) -> list[dict]:
    assert s.union is not None  # listed only while a union's conflicts wait
    return [{"type": "choose_conflict", "color": COLORS[c]} for c in s.union["colors"]]


def offer_moves(s: State, seat: int) -> list[dict]:
    """Taking the offer (if the hand holds what it pays with) or declining."""
    offer = offer_for(s, seat)
    assert offer is not None  # listed only for a seat with an offer
    kind = offer["kind"]
    if not can_take(s, offer):
        moves = []
    elif kind == "score":
        moves = [{"type": "score"}]
    elif kind == "ship":
        moves = [{"type": "build_ship", "ship": SHIP_NAMES[code]} for code in ship_choices(s, offer["color"])]
    else:
        moves = [{"type": "swap_treasure", "column": COLUMN_LETTERS[c]} for c in offer["columns"]]
    moves.append({"type": "decline"})
    return moves


def answer_moves(s: State, seat: int) -> list[dict]:
    """Changing one of the seat's standing answers (any decision it owes allows it)."""
    return [
        {"type": "set_answer", "offer": kind, "answer": answer}
        for kind, answers in STANDING_ANSWERS.items()
        for answer in answers if s.answers[seat][kind] != answer
    ]


__all__ = ["action_moves", "support_moves", "conflict_order_moves", "offer_moves", "answer_moves", "TREASURE"]
