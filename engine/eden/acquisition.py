"""Acquiring land: right after a tile is placed its owner may contest a group of one
opponent's tiles. The attacker chooses the groups, then both sides bid (mana per
fertility point of the other side's group) until one accepts; the last bidder pays
its bid times its multiplier to the side that accepted and replaces that side's
contested tiles with its own of the same levels.

`s.acquisition` holds `attacker`, `placed` (the new tile), `attack` (the new tile and
at most one own neighbour), `defender`, `defend` (a chain of the defender's tiles, the
first next to the new tile) and `bids` (the attacker's opening first, alternating).
"""
from __future__ import annotations

from engine.core import IllegalMove
from engine.eden.board import (
    BID_STEP,
    NEIGHBOURS,
    OPENING_BID,
    POINTS,
    RAISE,
    SQUARE_NAMES,
    tile_kind,
)
from engine.eden.state import State
from engine.eden.turn import check_winner


def group_points(s: State, squares) -> int:
    return sum(POINTS[s.level[i]] for i in squares)


def tiles_needed(s: State, squares) -> list[int]:
    """Tiles 1/2 and 3/4 needed to replace `squares` with tiles of the same levels."""
    needed = [0, 0]
    for i in squares:
        needed[tile_kind(s.level[i])] += 1
    return needed


def can_replace(s: State, seat: int, squares) -> bool:
    supply = s.supply[seat]
    return all(n <= have for n, have in zip(tiles_needed(s, squares), supply))


def decider(a: dict) -> int:
    """Whose answer the bidding waits for: the defender after the attacker's bids."""
    return a["defender"] if len(a["bids"]) % 2 == 1 else a["attacker"]


def multiplier(s: State, a: dict, seat: int) -> int:
    """A side pays per fertility point of the other side's group."""
    return group_points(s, a["defend"] if seat == a["attacker"] else a["attack"])


def contest_choices(s: State, a: dict) -> list[int]:
    """Tiles that may join the defending group next."""
    if a["defender"] is None:
        touching = NEIGHBOURS[a["placed"]]
        candidates = [n for n in touching if s.owner[n] >= 0 and s.owner[n] != a["attacker"]]
    else:
        candidates = sorted({
            n for i in a["defend"] for n in NEIGHBOURS[i]
            if s.owner[n] == a["defender"] and n not in a["defend"]
        })
    return [n for n in candidates if can_replace(s, a["attacker"], a["defend"] + [n])]


def support_choices(s: State, a: dict) -> list[int]:
    """Own tiles next to the new tile that may join the attacking group (one at most)."""
    if len(a["attack"]) > 1:
        return []
    return [n for n in NEIGHBOURS[a["placed"]] if s.owner[n] == a["attacker"]]


def contest(s: State, seat: int, square: int, events: list) -> None:
    a = s.acquisition
    assert a is not None  # these moves answer a running acquisition
    if square not in contest_choices(s, a):
        allowed = ", ".join(SQUARE_NAMES[i] for i in contest_choices(s, a)) or "none"
        rule = (
            "the first contested tile must be an opponent's tile next to the new tile"
            if a["defender"] is None else
            "each further contested tile must be the same opponent's, next to one already contested"
        )
        raise IllegalMove(
            f"{SQUARE_NAMES[square]} cannot be contested: {rule}, and your supply must hold "
            f"tiles of its levels; allowed now: {allowed}", code="bad_contest",
        )
    defender = s.owner[square]
    s.acquisition = {**a, "defender": defender, "defend": a["defend"] + [square]}
    events.append({"type": "tile_contested", "seat": seat, "square": SQUARE_NAMES[square], "defender": defender})


def uncontest(s: State, seat: int, events: list) -> None:
    """Give up the defending group chosen so far, to choose another (ruling 7: a group
    whose opening bid he cannot pay is not a dead end)."""
    a = s.acquisition
    assert a is not None  # these moves answer a running acquisition
    if not a["defend"]:
        raise IllegalMove("no tile is contested yet; contest one, or decline", code="bad_uncontest")
    s.acquisition = {**a, "defender": None, "defend": []}
    events.append({"type": "contest_withdrawn", "seat": seat, "defender": a["defender"],
                   "squares": [SQUARE_NAMES[i] for i in a["defend"]]})


def add_attacker(s: State, seat: int, square: int, events: list) -> None:
    a = s.acquisition
    assert a is not None  # these moves answer a running acquisition
    if square not in support_choices(s, a):
        allowed = ", ".join(SQUARE_NAMES[i] for i in support_choices(s, a)) or "none"
        raise IllegalMove(
            f"{SQUARE_NAMES[square]} cannot join the attack: only one of your own tiles next to "
            f"the new tile may; allowed now: {allowed}", code="bad_attacker",
        )
    s.acquisition = {**a, "attack": a["attack"] + [square]}
    events.append({"type": "attacker_joined", "seat": seat, "square": SQUARE_NAMES[square]})


def bid_range(s: State, seat: int) -> tuple[int, int]:
    """(lowest, highest) bid `seat` may make now; highest < lowest when none."""
    a = s.acquisition
    assert a is not None  # these moves answer a running acquisition
    lowest = a["bids"][-1] + RAISE if a["bids"] else OPENING_BID
    if not a["defend"]:
        return lowest, 0
    if seat == a["defender"] and not can_replace(s, seat, a["attack"]):
        return lowest, 0  # ruling 9: a defender who could not take the attacking group may only accept
    most = s.mana[seat] // multiplier(s, a, seat)
    return lowest, most - most % BID_STEP


def bidding(s: State, seat: int) -> dict:
    """The bids open to `seat` now, for its own view: the lowest and highest amount
    (highest < lowest when it may only accept), the step, and the fertility points each
    mana of the bid is multiplied by (what the seat pays if the other side accepts)."""
    lowest, highest = bid_range(s, seat)
    assert s.acquisition is not None, "bids are open only during an acquisition"
    return {"lowest": lowest, "highest": highest, "step": BID_STEP, "points": multiplier(s, s.acquisition, seat)}


def bid(s: State, seat: int, amount, events: list) -> None:
    a = s.acquisition
    assert a is not None  # these moves answer a running acquisition
    if not a["defend"]:
        raise IllegalMove("contest at least one tile before bidding", code="bad_bid")
    lowest, highest = bid_range(s, seat)
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < lowest or amount % BID_STEP:
        what = "open with at least" if not a["bids"] else "raise to at least"
        raise IllegalMove(f"bids are multiples of {BID_STEP}: {what} {lowest}, not {amount!r}", code="bad_bid")
    if amount > highest:
        if seat == a["defender"] and not can_replace(s, seat, a["attack"]):
            reason = "your supply lacks the tiles to take the attacking group: you may only accept"
        else:
            reason = (
                f"{amount} x {multiplier(s, a, seat)} fertility points = {amount * multiplier(s, a, seat)} mana, "
                f"more than you have ({s.mana[seat]})"
            )
        raise IllegalMove(f"you cannot bid {amount}: {reason}", code="bid_unpayable")
    s.acquisition = {**a, "bids": a["bids"] + [amount]}
    events.append({
        "type": "bid_made", "seat": seat, "amount": amount, "multiplier": multiplier(s, a, seat),
    })


def accept(s: State, seat: int, events: list) -> None:
    """The side that accepts is paid and loses its contested tiles to the last bidder."""
    a = s.acquisition
    assert a is not None  # these moves answer a running acquisition
    winner = a["defender"] if seat == a["attacker"] else a["attacker"]
    lost = a["attack"] if winner == a["defender"] else a["defend"]
    paid = a["bids"][-1] * multiplier(s, a, winner)
    s.mana[winner] -= paid
    s.mana[seat] += paid
    for i in lost:
        kind = tile_kind(s.level[i])
        s.supply[seat][kind] += 1
        s.supply[winner][kind] -= 1
        s.owner[i] = winner
    s.acquisition = None
    events.append({
        "type": "acquisition_settled", "seat": seat, "winner": winner, "bid": a["bids"][-1],
        "paid": paid, "squares": [SQUARE_NAMES[i] for i in lost],
    })
    check_winner(s, winner, events)


def decline(s: State, seat: int, events: list) -> None:
    s.acquisition = None
    events.append({"type": "acquisition_declined", "seat": seat})
