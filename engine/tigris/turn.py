"""The flow of play: setup, drawing tiles, what happens automatically after each
decision (wars in order, monuments, treasures), the end of a turn and of the game."""
from __future__ import annotations

from engine.core import rng_below, round_of, seed_state
from engine.tigris.board import BLOCKS_OF, SQUARE_NAMES, block_squares
from engine.tigris.buildings import building_options, return_flipped_buildings
from engine.tigris.conflicts import resolve_conflict, start_war, war_colors
from engine.tigris.open_tiles import drawing_seat, queue_refills, refill_display, short_of_tiles, tiles_drawn
from engine.tigris.regions import leader_code, next_to_temple, regions, vacate
from engine.tigris.scoring import add_points, ranking
from engine.tigris.state import (
    BLACK,
    BOARD_MAPS,
    COLORS,
    EMPTY,
    FACE_DOWN,
    FACE_UP,
    GREEN,
    HAND_SIZE,
    LEADERS,
    MONUMENT_NAMES,
    MONUMENTS,
    RED,
    SQUARES,
    TILE_COUNTS,
    State,
)
from engine.tigris.ziggurat import ziggurat_options, ziggurat_point_owed


def setup(players: int, seed: int, options: dict) -> State:
    s = State.__new__(State)
    s.options = dict(options)
    s.board = options["board"]
    temples = BOARD_MAPS[s.board].temples
    s.cells = [EMPTY] * SQUARES
    for sq in temples:
        s.cells[sq] = FACE_UP + RED
    s.treasures = frozenset(temples)
    s.monuments = ()
    s.leaders = [[-1] * 4 for _ in range(players)]
    s.hands = [[0] * 4 for _ in range(players)]
    s.scores = [[0] * 4 for _ in range(players)]
    s.treasure_counts = [0] * players
    s.catastrophes = [2] * players
    s.bag = list(TILE_COUNTS)
    s.bag[RED] -= len(temples)
    s.discarded = 0
    s.rng, s.active = rng_below(seed_state(seed), players)
    s.turn = 1
    s.actions_left = 2
    s.conflict = s.wars = s.monument = s.finished = None
    s.buildings, s.building = (-1, -1, -1, -1), None
    s.ziggurat, s.ziggurat_offer, s.ziggurat_point_taken = -1, None, False
    s.display, s.draws = (0, 0, 0, 0), None
    s.cache = {}
    for seat in range(players):
        draw(s, seat, HAND_SIZE, [])
    if options.get("open_tiles"):  # "dopo la fase di preparazione iniziale"
        refill_display(s, [])
    return s


def draw(s: State, seat: int, count: int, events: list) -> bool:
    """Draw `count` tiles for `seat`, uniformly from the bag; False if it ran short."""
    bag, hand = s.bag, s.hands[seat]
    left = sum(bag)
    taking = min(count, left)
    got = [0, 0, 0, 0]
    rng = s.rng
    for _ in range(taking):
        rng, pick = rng_below(rng, left)
        color = 0
        while pick >= bag[color]:
            pick -= bag[color]
            color += 1
        bag[color] -= 1
        hand[color] += 1
        got[color] += 1
        left -= 1
    s.rng = rng
    if taking:
        events.append({"type": "tiles_drawn", "seat": seat, "count": taking})
        events.append({
            "type": "tiles_received", "seat": seat,
            "tiles": {COLORS[c]: n for c, n in enumerate(got) if n},
            "visible_to": [seat],
        })
    return taking == count


def finish(s: State, reason: str, events: list) -> None:
    s.finished = reason
    s.conflict = s.wars = s.monument = s.building = s.ziggurat_offer = s.draws = None
    events.append({"type": "game_ended", "reason": reason, **ranking(s)})


def settle(s: State, events: list) -> None:
    """Run every automatic step until some seat owes a decision or the game is over."""
    while s.finished is None:
        conflict = s.conflict
        if conflict is not None:
            if conflict["attacker_commit"] is None or conflict["defender_commit"] is None:
                return
            resolve_conflict(s, events)
            continue
        if s.wars is not None:
            remaining = [c for c in s.wars["colors"] if c in war_colors(s, s.wars["square"])]
            if len(remaining) == 1:
                s.wars = {**s.wars, "colors": remaining}
                start_war(s, remaining[0], events)
                continue
            if remaining:
                s.wars = {**s.wars, "colors": remaining}
                return
            events.append({"type": "wars_ended", "square": SQUARE_NAMES[s.wars["square"]]})
            s.wars = None
            continue
        if s.monument is not None:
            if monument_options(s):
                return
            s.monument = None
            continue
        if s.ziggurat_offer is not None:
            if ziggurat_options(s):
                return
            s.ziggurat_offer = None
            continue
        if s.building is not None:
            if building_options(s):
                return
            s.building = None
            continue
        if s.draws is not None:
            if draw_or_wait(s, events):
                return
            continue
        if take_forced_treasures(s, events):
            continue
        if treasure_choices(s) or s.actions_left > 0 or ziggurat_point_owed(s):
            return
        if s.options.get("open_tiles"):  # the refills wait on each player's choices
            score_monuments(s, events)
            queue_refills(s)
            continue
        end_turn(s, events)
        return


def draw_or_wait(s: State, events: list) -> bool:
    """Open tiles: make the owed draws that leave no choice; True when a seat must
    choose. When the queue is done, an end-of-turn refill ends the turn."""
    current = drawing_seat(s)
    if current is not None:
        if short_of_tiles(s):
            finish(s, "bag", events)
            return False
        seat, owed = current
        if sum(s.display):
            return True
        draw(s, seat, owed, events)  # an empty display leaves only the bag
        tiles_drawn(s, owed)
        return False
    assert s.draws is not None  # called only while draws are queued
    end_of_turn = s.draws["end_of_turn"]
    s.draws = None
    if end_of_turn:
        finish_turn(s, events)
    return False


def monument_options(s: State) -> list[tuple[int, int]]:
    """(monument, top-left square) pairs the active player may build now."""
    sq = s.monument
    assert sq is not None  # asked only after a tile that may complete a square
    cells = s.cells
    code = cells[sq]
    if not FACE_UP <= code < FACE_DOWN:
        return []
    color = code - FACE_UP
    built = {m for m, _ in s.monuments}
    unbuilt = [m for m in range(len(MONUMENTS)) if m not in built and color in MONUMENTS[m]]
    if not unbuilt:
        return []
    return [
        (m, top_left)
        for top_left in BLOCKS_OF[sq]
        if all(cells[b] == code for b in block_squares(top_left))
        for m in unbuilt
    ]


def build_monument(s: State, seat: int, monument: int, top_left: int, events: list) -> None:
    flipped = block_squares(top_left)
    for sq in flipped:
        s.cells[sq] += FACE_DOWN - FACE_UP
    s.cache = {}
    s.monuments = s.monuments + ((monument, top_left),)
    s.monument = None
    events.append({
        "type": "monument_built", "seat": seat, "monument": MONUMENT_NAMES[monument],
        "square": SQUARE_NAMES[top_left],
    })
    return_flipped_buildings(s, flipped, events)
    return_stranded_leaders(s, events)


def return_stranded_leaders(s: State, events: list) -> None:
    """Leaders with no face-up temple next to them go back to their owner's supply."""
    for seat, row in enumerate(s.leaders):
        for color, sq in enumerate(row):
            if sq >= 0 and not next_to_temple(s.cells, sq):
                vacate(s, [sq])
                row[color] = -1
                events.append({
                    "type": "leader_returned", "seat": seat, "leader": LEADERS[color],
                    "square": SQUARE_NAMES[sq], "reason": "no_temple",
                })


def _treasure_kingdoms(s: State) -> list[tuple[int, list[int], list[int]]]:
    """(owner, treasures, take-first treasures) per kingdom owing a treasure pick."""
    cached = s.cache.get("treasure_kingdoms")
    if cached is None:
        cached = s.cache["treasure_kingdoms"] = []
        labels = regions(s).labels
        take_first = s.board_map.take_first
        for seat, row in enumerate(s.leaders):
            trader = row[GREEN]
            if trader < 0:
                continue
            rid = labels[trader]
            found = [t for t in s.treasures if labels[t] == rid]
            if len(found) >= 2:
                cached.append((seat, found, [t for t in found if t in take_first]))
    return cached


def take_forced_treasures(s: State, events: list) -> bool:
    """Take the treasures that leave no choice (take-first ones that must all go)."""
    forced = [
        (seat, first)
        for seat, found, first in _treasure_kingdoms(s)
        if first and len(first) <= len(found) - 1
    ]
    for seat, squares in forced:
        for sq in sorted(squares):
            take_treasure(s, seat, sq, events)
    return bool(forced)


def treasure_choices(s: State) -> dict[int, list[int]]:
    """Per seat, the treasure squares it may pick next (take-first ones first)."""
    cached = s.cache.get("treasure_choices")
    if cached is None:
        cached = {}
        for seat, found, first in _treasure_kingdoms(s):
            cached.setdefault(seat, []).extend(sorted(first or found))
        s.cache["treasure_choices"] = cached
    return cached


def take_treasure(s: State, seat: int, sq: int, events: list) -> None:
    s.treasures = s.treasures - {sq}
    s.treasure_counts[seat] += 1
    s.cache.pop("treasure_choices", None)
    s.cache.pop("treasure_kingdoms", None)
    events.append({"type": "treasure_taken", "seat": seat, "square": SQUARE_NAMES[sq]})


def score_monuments(s: State, events: list) -> None:
    """End of turn: 1 VP per own leader in a kingdom with a monument of its colour."""
    if not s.monuments:
        return
    reg = regions(s)
    seat = s.active
    for color, sq in enumerate(s.leaders[seat]):
        if sq < 0:
            continue
        rid = reg.labels[sq]
        count = sum(
            1 for m, top_left in s.monuments
            if reg.labels[top_left] == rid and color in MONUMENTS[m]
        )
        add_points(s, seat, color, count, "monument", events)


def end_turn(s: State, events: list) -> None:
    score_monuments(s, events)
    players = s.players
    for offset in range(players):
        seat = (s.active + offset) % players
        owed = HAND_SIZE - sum(s.hands[seat])
        if owed > 0 and not draw(s, seat, owed, events):
            finish(s, "bag", events)
            return
    finish_turn(s, events)


def finish_turn(s: State, events: list) -> None:
    """After the refills: the end of the game by treasures, or the next turn."""
    players = s.players
    if len(s.treasures) <= 2:
        finish(s, "treasures", events)
        return
    events.append({"type": "turn_ended", "seat": s.active, "turn": s.turn, "round": round_of(s.turn, players)})
    s.active = (s.active + 1) % players
    s.actions_left = 2
    s.ziggurat_point_taken = False
    s.turn += 1


def king_or_leader_owner(s: State, rid: int, color: int) -> int | None:
    """Who scores a tile of `color` in kingdom `rid`: that colour's leader, else the king."""
    king = None
    for sq in regions(s).leaders[rid]:
        seat, leader_color = leader_code(s.cells, sq)
        if leader_color == color:
            return seat
        if leader_color == BLACK:
            king = seat
    return king
