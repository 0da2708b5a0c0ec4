"""Listing the legal moves of a seat, in full, so clients can offer them as choices."""
from __future__ import annotations

from engine.eden.acquisition import bid_range, contest_choices, support_choices
from engine.eden.actions import buy_price, cultivation_refusal, irrigation_refusal
from engine.eden.board import BID_STEP, CARD_NAMES, PLACEMENTS, SQUARE_NAMES, SQUARES, is_cultivation
from engine.eden.state import State


def card_plays(s: State, seat: int) -> list[dict]:
    """Every irrigation and cultivation the seat could play from its hand now."""
    moves: list[dict] = []
    for card in s.hands[seat]:
        if not is_cultivation(card):
            if irrigation_refusal(s, seat, card) is None:
                moves.append({"type": "irrigate", "square": SQUARE_NAMES[card]})
            continue
        if s.played:
            continue
        for squares in PLACEMENTS[card - SQUARES]:
            if any(s.owner[i] != seat for i in squares):
                continue
            if cultivation_refusal(s, seat, card, squares) is None:
                moves.append({
                    "type": "cultivate", "card": CARD_NAMES[card],
                    "squares": [SQUARE_NAMES[i] for i in squares],
                })
    return moves


def _sales(s: State, seat: int) -> list[dict]:
    return [{"type": "sell", "card": CARD_NAMES[c]} for c in s.hands[seat] if is_cultivation(c)]


def action_moves(s: State, seat: int) -> list[dict]:
    moves = card_plays(s, seat)
    moves.extend(_sales(s, seat))
    moves.extend(
        {"type": "buy", "card": CARD_NAMES[c]} for c in sorted(s.market) if buy_price(c) <= s.mana[seat]
    )
    moves.append({"type": "pass"})
    return moves


def _bids(s: State, seat: int) -> list[dict]:
    lowest, highest = bid_range(s, seat)
    return [{"type": "bid", "amount": amount} for amount in range(lowest, highest + 1, BID_STEP)]


def acquire_moves(s: State, seat: int) -> list[dict]:
    a = s.acquisition
    assert a is not None  # listed only during an acquisition
    moves = [{"type": "contest", "square": SQUARE_NAMES[i]} for i in contest_choices(s, a)]
    moves.extend({"type": "attack_with", "square": SQUARE_NAMES[i]} for i in support_choices(s, a))
    if a["defend"]:
        moves.append({"type": "uncontest"})
        moves.extend(_bids(s, seat))
    moves.extend(_sales(s, seat))
    moves.append({"type": "decline"})
    return moves


def bid_moves(s: State, seat: int) -> list[dict]:
    """Accept or raise; the attacker, in his own action step, may also sell (ruling 6)."""
    assert s.acquisition is not None  # listed only during an acquisition
    sales = _sales(s, seat) if seat == s.acquisition["attacker"] else []
    return [{"type": "accept"}, *_bids(s, seat), *sales]


def card_refusals(s: State, seat: int) -> dict[str, str]:
    """Why each card of the seat's hand that has no play now cannot be played, in words,
    by card id: what the page and the email say beside the hand."""
    playable = {move.get("card") or move.get("square") for move in card_plays(s, seat)}
    refusals = {}
    for card in s.hands[seat]:
        name = CARD_NAMES[card]
        if name in playable:
            continue
        if not is_cultivation(card):
            refusals[name] = irrigation_refusal(s, seat, card) or "it has no play now"
            continue
        refusals[name] = _cultivation_refusal(s, seat, card)
    return refusals


def _cultivation_refusal(s: State, seat: int, card: int) -> str:
    """Why no placement of a cultivation card is open: that its tiles nowhere form the
    shape, or the rule the first placement on them breaks."""
    own = [squares for squares in PLACEMENTS[card - SQUARES] if all(s.owner[i] == seat for i in squares)]
    if s.played:
        return "a card was played this turn already: a cultivation card must be the turn's only card"
    if not own:
        return f"your tiles nowhere form its shape ({len(PLACEMENTS[card - SQUARES][0])} squares)"
    return cultivation_refusal(s, seat, card, own[0]) or "it has no play now"
