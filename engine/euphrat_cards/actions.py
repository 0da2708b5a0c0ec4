"""The four actions of a turn: play a card, place/move or withdraw a leader, play
the catastrophe; and passing the rest of the turn. Each checks its rule and raises
IllegalMove naming it."""
from __future__ import annotations

from engine.core import IllegalMove
from engine.euphrat_cards.cards import (
    COLORS,
    COLUMN_LETTERS,
    GAP_BASE,
    GAP_MIN_UNDER,
    GAP_NAMES,
    LEADERS,
    MAX_UNDER,
    RED,
    SHIP,
    TREASURE,
    card_color,
    place_name,
)
from engine.euphrat_cards.conflicts import start_internal, start_union
from engine.euphrat_cards.rewards import card_scorer, offer_score, offer_ship
from engine.euphrat_cards.state import CATASTROPHE_DISCARD, State, card_at
from engine.euphrat_cards.table import leader_on, take_card, under


def _take_from_hand(s: State, seat: int, color: int) -> None:
    if not s.hands[seat][color]:
        held = ", ".join(f"{n} {COLORS[c]}" for c, n in enumerate(s.hands[seat]) if n) or "nothing"
        raise IllegalMove(f"you hold no {COLORS[color]} card (you hold {held})", code="card_not_in_hand")
    s.hands[seat][color] -= 1


def column_refusal(s: State, column: int) -> str | None:
    if len(s.columns[column]) > MAX_UNDER:
        return f"column {COLUMN_LETTERS[column]} already holds {MAX_UNDER} cards under its head"
    return None


def gap_refusal(s: State, gap: int) -> str | None:
    if s.gaps[gap] >= 0:
        return f"gap {GAP_NAMES[gap]} already holds a card"
    short = [c for c in (gap, gap + 1) if under(s.columns[c]) < GAP_MIN_UNDER]
    if short:
        names = " and ".join(COLUMN_LETTERS[c] for c in short)
        return f"a gap card needs {GAP_MIN_UNDER} cards under the head of both neighbours; column {names} has fewer"
    return None


def play_to_column(s: State, seat: int, color: int, column: int, events: list) -> None:
    refusal = column_refusal(s, column)
    if refusal:
        raise IllegalMove(refusal + "; play in another column or a gap", code="column_full")
    _take_from_hand(s, seat, color)
    s.columns[column].append(color)
    events.append({
        "type": "card_played", "seat": seat, "color": COLORS[color],
        "place": COLUMN_LETTERS[column], "row": len(s.columns[column]) - 1,
    })
    scorer = card_scorer(s, column, color)
    if scorer is not None:
        offer_score(s, scorer, color, "card")
    offer_ship(s, seat, column)


def play_to_gap(s: State, seat: int, color: int, gap: int, events: list) -> None:
    refusal = gap_refusal(s, gap)
    if refusal:
        raise IllegalMove(refusal, code="gap_closed")
    _take_from_hand(s, seat, color)
    s.gaps[gap] = color
    # Face down until the union's conflicts are over: the colour stays private.
    events.append({"type": "card_played", "seat": seat, "place": GAP_NAMES[gap], "face_down": True})
    start_union(s, gap, events)


def leader_refusal(s: State, seat: int, color: int, place: int) -> tuple[str, str] | None:
    """(code, message) if the leader may not stand on `place`, else None."""
    card = card_at(s, place)
    name = place_name(place)
    if card is None:
        return "no_card", f"there is no card at {name}"
    if card >= SHIP:
        return "leader_on_ship", f"{name} is a ship; leaders stand on civilization cards"
    if s.leaders[seat][color] == place:
        return "same_place", f"your {LEADERS[color]} already stands on {name}"
    if leader_on(s, place) is not None:
        return "card_taken", f"a leader already stands on {name}"
    if card == TREASURE and color == RED:
        return "priest_on_treasure", "a priest may never stand on a treasure card (treasures are red)"
    if card_color(card) == color:
        return "same_color", f"a {LEADERS[color]} may not stand on a {COLORS[color]} card ({name})"
    return None


def place_leader(s: State, seat: int, color: int, place: int, events: list) -> None:
    refusal = leader_refusal(s, seat, color, place)
    if refusal:
        raise IllegalMove(refusal[1], code=refusal[0])
    origin = s.leaders[seat][color]
    s.leaders[seat][color] = place
    event = {"type": "leader_placed", "seat": seat, "leader": LEADERS[color], "card": place_name(place)}
    if origin >= 0:
        event = {**event, "type": "leader_moved", "from": place_name(origin)}
    events.append(event)
    start_internal(s, seat, color, events)


def withdraw_leader(s: State, seat: int, color: int, events: list) -> None:
    place = s.leaders[seat][color]
    if place < 0:
        raise IllegalMove(f"your {LEADERS[color]} is not on the table", code="leader_not_on_table")
    s.leaders[seat][color] = -1
    events.append({"type": "leader_withdrawn", "seat": seat, "leader": LEADERS[color], "card": place_name(place)})


def catastrophe_refusal(s: State, place: int) -> str | None:
    card = card_at(s, place)
    name = place_name(place)
    if card is None:
        return f"there is no card at {name}"
    if card >= SHIP:
        return f"{name} is a ship; a catastrophe removes civilization cards only"
    if leader_on(s, place) is not None:
        return f"a leader stands on {name}; a catastrophe may not remove it"
    return None


def play_catastrophe(s: State, seat: int, place: int, events: list) -> None:
    if not s.catastrophes[seat]:
        raise IllegalMove("you have played your catastrophe card already (once per game)", code="no_catastrophe")
    refusal = catastrophe_refusal(s, place)
    if refusal:
        raise IllegalMove(refusal, code="catastrophe_forbidden")
    card = take_card(s, place)
    s.catastrophes[seat] = 0
    s.discard[card] += 1  # a treasure's discard slot is its code, 4
    s.discard[CATASTROPHE_DISCARD] += 1
    events.append({
        "type": "catastrophe_played", "seat": seat, "card": place_name(place),
        "removed": COLORS[card] if card < TREASURE else "treasure",
    })


def pass_turn(s: State, seat: int, events: list) -> None:
    events.append({"type": "turn_passed", "seat": seat, "actions_left": s.actions_left})
    s.actions_left = 0


__all__ = ["GAP_BASE"]
