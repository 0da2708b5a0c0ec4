"""Victory points and the optional rewards a player is offered: scoring a hand card,
building a ship, swapping a treasure. Offers wait in `state.offers` (a tuple of
dicts); each seat answers its own offers in order, different seats at once.

An offer that pays with a hand card is made whenever the rules give the choice,
whatever the hand holds (with nothing suitable, declining is the only answer): whether
the game waits on a seat must never tell the others what that seat holds. A seat's
standing answer (`state.answers`, private) may decline such offers without asking,
whatever the hand holds."""
from __future__ import annotations

from engine.euphrat_cards.cards import (
    BLUE,
    COLORS,
    COLUMN_LETTERS,
    GREEN,
    LEADERS,
    RED,
    ROW_SPAN,
    SHIP,
    SHIP_NAMES,
    TREASURE,
    card_color,
    ship_has_color,
)
from engine.euphrat_cards.state import State
from engine.euphrat_cards.table import leaders_in, place_span, region_span, return_leader, treasure_columns

SHIP_RUN = 4  # contiguous cards of one colour that may become a ship
CARD_NAMES = (*COLORS, "treasure")


def add_vp(s: State, seat: int, cards: list[int], reason: str, events: list) -> None:
    """Put cards on a seat's VP pile (last on top). Private unless scoring is open."""
    if not cards:
        return
    s.vp[seat].extend(cards)
    counts: dict[str, int] = {}
    for card in cards:
        counts[CARD_NAMES[card]] = counts.get(CARD_NAMES[card], 0) + 1
    event = {"type": "points_scored", "seat": seat, "cards": counts, "reason": reason}
    if not s.options.get("open_scoring"):
        event["visible_to"] = [seat]
    events.append(event)


def push_offer(s: State, offer: dict) -> None:
    s.offers = s.offers + (offer,)


def offer_for(s: State, seat: int) -> dict | None:
    """The offer `seat` answers next, if any."""
    for offer in s.offers:
        if offer["seat"] == seat:
            return offer
    return None


def close_offer(s: State, offer: dict) -> None:
    s.offers = tuple(o for o in s.offers if o is not offer)


def offer_score(s: State, seat: int, color: int, reason: str) -> None:
    """Offer `seat` to move a `color` card from hand to VP pile (asked even if it holds none)."""
    push_offer(s, {"kind": "score", "seat": seat, "color": color, "reason": reason})


def can_take(s: State, offer: dict) -> bool:
    """Whether the seat's hand holds what the offer pays with (ships pay with table cards)."""
    if offer["kind"] == "score":
        return s.hands[offer["seat"]][offer["color"]] > 0
    if offer["kind"] == "treasure":
        return s.hands[offer["seat"]][RED] > 0
    return True


def decline_offer(s: State, offer: dict, events: list) -> None:
    close_offer(s, offer)
    events.append({"type": "offer_declined", "seat": offer["seat"], "offer": offer["kind"]})


def answer_offers(s: State, events: list) -> None:
    """Answer, in order, the offers of seats whose standing answer covers them; stop at
    each seat's first offer it must be asked about."""
    asked: set[int] = set()
    for offer in s.offers:
        seat = offer["seat"]
        if seat in asked:
            continue
        if s.answers[seat].get(offer["kind"], "ask") == "decline":
            decline_offer(s, offer, events)
        else:
            asked.add(seat)


def score_from_hand(s: State, seat: int, color: int, reason: str, events: list) -> None:
    s.hands[seat][color] -= 1
    add_vp(s, seat, [color], reason, events)


def card_scorer(s: State, column: int, color: int) -> int | None:
    """Who may score a card of `color` played in `column`: the owner of that colour's
    leader in the kingdom, else the king's owner (wild), else nobody."""
    king = None
    for seat, leader_color, _ in leaders_in(s, region_span(s, column)):
        if leader_color == color:
            return seat
        if leader_color == 3:
            king = seat
    return king


def ship_run_color(s: State, column: int) -> int | None:
    """The colour of a run of SHIP_RUN equal cards at the bottom of a column (its head
    never counts: it is the treasure's place)."""
    cards = s.columns[column]
    if len(cards) - 1 < SHIP_RUN:
        return None
    color = cards[-1]
    if color >= TREASURE or any(card != color for card in cards[-SHIP_RUN:]):
        return None
    return color


def ship_choices(s: State, color: int) -> list[int]:
    """Free ships that 4 cards of `color` may build: any for blue, else blue/colour."""
    return [code for code in s.ships if color == BLUE or code == SHIP + color]


def offer_ship(s: State, seat: int, column: int) -> None:
    color = ship_run_color(s, column)
    if color is not None and ship_choices(s, color):
        push_offer(s, {"kind": "ship", "seat": seat, "column": column, "color": color})


def build_ship(s: State, seat: int, offer: dict, ship: int, events: list) -> None:
    column = offer["column"]
    cards = s.columns[column]
    first_row = len(cards) - SHIP_RUN
    base = column * ROW_SPAN
    for owner, row in enumerate(s.leaders):
        for color, place in enumerate(row):
            if base + first_row <= place < base + len(cards):
                return_leader(s, owner, color, "ship", events)
    del cards[first_row:]
    cards.append(ship)
    s.discard[offer["color"]] += SHIP_RUN
    s.ships = tuple(code for code in s.ships if code != ship)
    events.append({
        "type": "ship_built", "seat": seat, "ship": SHIP_NAMES[ship],
        "column": COLUMN_LETTERS[column], "discarded": {COLORS[offer["color"]]: SHIP_RUN},
    })


def offer_treasure_swap(s: State, gap: int) -> None:
    """After a union: a trader in the joined kingdom with 2+ treasures may swap one."""
    span = region_span(s, gap)
    treasures = treasure_columns(s, span)
    if len(treasures) < 2:
        return
    for seat, color, _ in leaders_in(s, span):
        if color == GREEN:  # asked even without a red card in hand
            push_offer(s, {"kind": "treasure", "seat": seat, "columns": treasures})


def swap_treasure(s: State, seat: int, column: int, events: list) -> None:
    """A red card from hand takes the treasure's place (a leader on it stays)."""
    s.hands[seat][RED] -= 1
    s.columns[column][0] = RED
    events.append({"type": "treasure_swapped", "seat": seat, "column": COLUMN_LETTERS[column]})
    add_vp(s, seat, [TREASURE], "trader", events)


def score_ships(s: State, events: list) -> None:
    """End of turn: 1 VP per own leader in a kingdom with a ship of its colour, paid
    with a hand card of that colour (the king is not wild here)."""
    seat = s.active
    for color, place in enumerate(s.leaders[seat]):
        if place < 0 or not s.hands[seat][color]:
            continue
        lo, hi = place_span(s, place)
        if any(ship_has_color(card, color) for c in range(lo, hi + 1) for card in s.columns[c]):
            score_from_hand(s, seat, color, f"ship ({LEADERS[color]})", events)


__all__ = ["add_vp", "card_color"]
