"""Open tiles (option `open_tiles`, the older edition's variant "delle Tessere
Scoperte"): six tiles lie face up beside the board, the display. Whenever a player
draws, he takes each tile either from the display (everyone sees which) or blind from
the bag; "ogni volta che il numero di tessere della riserva scende al di sotto del 6"
the display is refilled from the bag at once, so a tile revealed by the refill may be
the player's next pick. The game ends when a hand cannot be completed from the bag
and the display.

Owed draws wait in `state.draws`: the seats in drawing order with the tiles each
still owes, and whether they are the refills of the end of a turn (after which the
turn ends) or the draw of a swap (after which the turn goes on).
"""
from __future__ import annotations

from engine.core import rng_below
from engine.tigris.state import COLORS, HAND_SIZE, State

DISPLAY_SIZE = 6


def refill_display(s: State, events: list) -> None:
    """Fill the display back to six from the bag (fewer if the bag runs out)."""
    bag = s.bag
    display = list(s.display)
    missing = min(DISPLAY_SIZE - sum(display), sum(bag))
    if missing <= 0:
        return
    got = [0, 0, 0, 0]
    rng, left = s.rng, sum(bag)
    for _ in range(missing):
        rng, pick = rng_below(rng, left)
        color = 0
        while pick >= bag[color]:
            pick -= bag[color]
            color += 1
        bag[color] -= 1
        display[color] += 1
        got[color] += 1
        left -= 1
    s.rng = rng
    s.display = tuple(display)
    events.append({"type": "display_refilled", "tiles": {COLORS[c]: n for c, n in enumerate(got) if n}})


def queue_draws(s: State, owed: list[tuple[int, int]], end_of_turn: bool) -> None:
    s.draws = {"queue": [[seat, n] for seat, n in owed if n > 0], "end_of_turn": end_of_turn}


def queue_refills(s: State) -> None:
    """End of turn: the active player refills first, then the others clockwise."""
    order = [(s.active + offset) % s.players for offset in range(s.players)]
    queue_draws(s, [(seat, HAND_SIZE - sum(s.hands[seat])) for seat in order], True)


def drawing_seat(s: State) -> tuple[int, int] | None:
    """(seat, tiles owed) of the seat choosing its draws now, or None."""
    if s.draws is None or not s.draws["queue"]:
        return None
    seat, owed = s.draws["queue"][0]
    return seat, owed


def short_of_tiles(s: State) -> bool:
    """Whether the seat about to draw cannot complete its hand from bag and display."""
    assert s.draws is not None  # asked only while a seat draws
    seat, owed = s.draws["queue"][0]
    return owed > sum(s.bag) + sum(s.display)


def tiles_drawn(s: State, count: int) -> None:
    """The drawing seat got `count` of its owed tiles; the queue moves on when done."""
    assert s.draws is not None  # called only while a seat draws
    queue = [entry[:] for entry in s.draws["queue"]]
    queue[0][1] -= count
    if queue[0][1] == 0:
        queue.pop(0)
    s.draws = {**s.draws, "queue": queue}


def take_display_tile(s: State, seat: int, color: int, events: list) -> None:
    display = list(s.display)
    display[color] -= 1
    s.display = tuple(display)
    s.hands[seat][color] += 1
    events.append({"type": "display_tile_taken", "seat": seat, "color": COLORS[color]})
    tiles_drawn(s, 1)
    refill_display(s, events)
