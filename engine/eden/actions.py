"""The action step of a turn: irrigation, cultivation, selling and buying cultivation
cards. Each function checks the rules, raises IllegalMove with the reason, or
changes the (already copied) state and appends events."""
from __future__ import annotations

from engine.core import IllegalMove
from engine.eden.board import (
    BUY_FEE,
    CARD_NAMES,
    CULTIVATION_COST,
    HIGH,
    LOW,
    MAX_LEVEL,
    NEIGHBOURS,
    PLACEMENT_SETS,
    SQUARE_NAMES,
    SQUARE_PRICE,
    SQUARES,
    cultivation_size,
    is_cultivation,
    tile_kind,
)
from engine.eden.notation import card_with_shape, card_words
from engine.eden.state import State
from engine.eden.turn import check_winner


def _words(card: int) -> str:
    """A card in an error, as players write it (`card 3`), never its id."""
    return card_words(CARD_NAMES[card]) if 0 <= card < len(CARD_NAMES) else str(card)


def irrigation_refusal(s: State, seat: int, square: int) -> str | None:
    """Why the irrigation card of `square` cannot be played now, or None."""
    name = SQUARE_NAMES[square]
    if square not in s.hands[seat]:
        return f"you hold no irrigation card {name}"
    if any(is_cultivation(c) for c in s.played):
        return "a cultivation card was played this turn: no irrigation card may follow it"
    if len(s.played) >= 2:
        return "two irrigation cards were played this turn, the most a turn allows"
    if s.owner[square] >= 0:
        return f"{name} already holds a tile; its irrigation card stays in your hand"
    if s.supply[seat][LOW] == 0:
        return "you have no 1/2 tile left in your supply"
    return None


def irrigate(s: State, seat: int, square: int, events: list) -> None:
    refusal = irrigation_refusal(s, seat, square)
    if refusal:
        raise IllegalMove(refusal, code="bad_irrigation")
    s.hands[seat].remove(square)
    s.discard.append(square)
    s.played.append(square)
    s.owner[square], s.level[square] = seat, 1
    s.supply[seat][LOW] -= 1
    events.append({"type": "land_irrigated", "seat": seat, "square": SQUARE_NAMES[square]})
    if check_winner(s, seat, events):
        return
    if contestable(s, seat, square):
        s.acquisition = {
            "attacker": seat, "placed": square, "attack": [square], "defender": None,
            "defend": [], "bids": [],
        }


def contestable(s: State, seat: int, square: int) -> list[int]:
    """Opponent tiles next to the new tile that the attacker's supply could replace."""
    return [
        n for n in NEIGHBOURS[square]
        if s.owner[n] >= 0 and s.owner[n] != seat and s.supply[seat][tile_kind(s.level[n])] > 0
    ]


def cultivation_refusal(s: State, seat: int, card: int, squares: tuple[int, ...]) -> str | None:
    """Why `card` cannot cultivate `squares` now, or None."""
    name = _words(card)
    if not is_cultivation(card) or card not in s.hands[seat]:
        return f"you hold no cultivation {name}" if is_cultivation(card) else f"{name} is no cultivation card"
    if s.played:
        return "a card was played this turn already: a cultivation card must be the turn's only card"
    if frozenset(squares) not in PLACEMENT_SETS[card - SQUARES] or len(set(squares)) != len(squares):
        return f"those squares do not form the shape of {name} (it may be turned, not mirrored)"
    if any(s.owner[i] != seat for i in squares):
        return "every square of the shape must hold one of your tiles"
    lowest = min(s.level[i] for i in squares)
    if lowest == MAX_LEVEL:
        return f"every tile there is at level {MAX_LEVEL}, the top: nothing would rise"
    rising = sum(1 for i in squares if s.level[i] == lowest)
    if lowest == 2 and s.supply[seat][HIGH] < rising:
        return f"rising to level 3 needs {rising} tiles 3/4 and your supply has {s.supply[seat][HIGH]}"
    cost = CULTIVATION_COST * rising
    if s.mana[seat] < cost:
        return f"raising {rising} tile{'s' if rising > 1 else ''} costs {cost} mana and you have {s.mana[seat]}"
    return None


def cultivate(s: State, seat: int, card: int, squares: tuple[int, ...], events: list) -> None:
    refusal = cultivation_refusal(s, seat, card, squares)
    if refusal:
        raise IllegalMove(refusal, code="bad_cultivation")
    lowest = min(s.level[i] for i in squares)
    rising = sorted(i for i in squares if s.level[i] == lowest)
    for i in rising:
        s.level[i] += 1
    if lowest == 2:  # the 1/2 tile goes back, a 3/4 tile comes out
        s.supply[seat][LOW] += len(rising)
        s.supply[seat][HIGH] -= len(rising)
    cost = CULTIVATION_COST * len(rising)
    s.mana[seat] -= cost
    s.hands[seat].remove(card)
    s.discard.append(card)
    s.played.append(card)
    events.append({
        "type": "land_cultivated", "seat": seat, "card": CARD_NAMES[card],
        "squares": [SQUARE_NAMES[i] for i in sorted(squares)],
        "raised": [SQUARE_NAMES[i] for i in rising], "level": lowest + 1, "cost": cost,
    })
    check_winner(s, seat, events)


def sell(s: State, seat: int, card: int, events: list) -> None:
    if not is_cultivation(card) or card not in s.hands[seat]:
        raise IllegalMove(f"you hold no cultivation {_words(card)} to sell", code="bad_sale")
    price = SQUARE_PRICE * cultivation_size(card)
    s.hands[seat].remove(card)
    s.market.append(card)
    s.mana[seat] += price
    events.append({"type": "card_sold", "seat": seat, "card": CARD_NAMES[card], "price": price})


def buy_price(card: int) -> int:
    return BUY_FEE + SQUARE_PRICE * cultivation_size(card)


def buy(s: State, seat: int, card: int, events: list) -> None:
    if card not in s.market:
        offered = ", ".join(card_with_shape(CARD_NAMES[c]) for c in s.market) or "none"
        raise IllegalMove(f"{_words(card)} is not in the market; market: {offered}", code="bad_purchase")
    price = buy_price(card)
    if s.mana[seat] < price:
        raise IllegalMove(f"{_words(card)} costs {price} mana and you have {s.mana[seat]}", code="bad_purchase")
    s.market.remove(card)
    s.hands[seat] = sorted(s.hands[seat] + [card])
    s.mana[seat] -= price
    events.append({"type": "card_bought", "seat": seat, "card": CARD_NAMES[card], "price": price})
