"""Consistency checks of a loaded state, so that a hand-written position (a test or a
bug report) that no game could reach is refused at once, saying what is wrong.

Each check returns a message or None; `check_state` raises the first one found.
"""
from __future__ import annotations

from engine.tigris.board import NEIGHBORS, SQUARE_NAMES, SQUARES, block_squares
from engine.tigris.regions import leader_code, next_to_temple, regions
from engine.tigris.state import (
    BUILDING_NAMES,
    CATASTROPHE,
    COLORS,
    FACE_DOWN,
    FACE_UP,
    HAND_SIZE,
    LEADER,
    LEADERS,
    MONUMENT_NAMES,
    MONUMENTS,
    RED,
    TILE_COUNTS,
    TOTAL_TILES,
    ZIGGURAT,
    State,
)


def check_state(s: State, discarded_given: bool) -> str | None:
    """The first inconsistency of `s`, or None. Without a stated `discarded` count the
    tiles out of the game are whatever the board, hands and bag leave of each colour."""
    for check in (_turn, _leaders, _hands, _monuments, _treasures, _catastrophes, _conflict, _wars,
                  _kingdom_leaders, _buildings, _ziggurat, _open_tiles):
        problem = check(s)
        if problem:
            return problem
    return _tiles(s, discarded_given)


def _turn(s: State) -> str | None:
    if not 0 <= s.active < s.players:
        return f"turn.active is {s.active}; seats are 0 to {s.players - 1}"
    if not 0 <= s.actions_left <= 2:
        return f"turn.actions_left is {s.actions_left}; it is 0, 1 or 2"
    return None


def _leaders(s: State) -> str | None:
    for seat, row in enumerate(s.leaders):
        for color, sq in enumerate(row):
            if sq >= 0 and not next_to_temple(s.cells, sq):
                return (f"seat {seat}'s {LEADERS[color]} on {SQUARE_NAMES[sq]} has no face-up "
                        "temple next to it; a leader always stands next to one")
    return None


def _hands(s: State) -> str | None:
    for seat, hand in enumerate(s.hands):
        if sum(hand) > HAND_SIZE:
            return f"seat {seat} holds {sum(hand)} tiles; a hand has at most {HAND_SIZE}"
    return None


def _monuments(s: State) -> str | None:
    under_monuments: set[int] = set()
    for monument, top_left in s.monuments:
        if top_left in under_monuments or not _block_fits(top_left):
            return (f"the {MONUMENT_NAMES[monument]} monument on {SQUARE_NAMES[top_left]} overlaps another "
                    "or leaves the board")
        squares = block_squares(top_left)
        codes = {s.cells[sq] for sq in squares}
        colors = {code - FACE_DOWN for code in codes}
        if len(codes) != 1 or not FACE_DOWN <= next(iter(codes)) < CATASTROPHE \
                or not colors <= set(MONUMENTS[monument]):
            return (f"the {MONUMENT_NAMES[monument]} monument on {SQUARE_NAMES[top_left]} needs four "
                    "face-down tiles of one of its colours under it")
        under_monuments.update(squares)
    if len({m for m, _ in s.monuments}) != len(s.monuments):
        return "a monument is listed twice"
    for sq in range(SQUARES):
        if FACE_DOWN <= s.cells[sq] < CATASTROPHE and sq not in under_monuments:
            return f"the face-down tile on {SQUARE_NAMES[sq]} is under no monument"
    return None


def _block_fits(top_left: int) -> bool:
    return top_left % 16 < 15 and top_left // 16 < 10


def _treasures(s: State) -> str | None:
    for sq in s.treasures:
        if s.cells[sq] not in (FACE_UP + RED, FACE_DOWN + RED, ZIGGURAT):
            return f"the treasure on {SQUARE_NAMES[sq]} lies on no temple"
    total = len(s.board_map.temples)
    if len(s.treasures) + sum(s.treasure_counts) > total:
        return f"{len(s.treasures)} treasures on the board and {sum(s.treasure_counts)} taken; the board has {total}"
    return None


def _catastrophes(s: State) -> str | None:
    if any(not 0 <= left <= 2 for left in s.catastrophes):
        return "a player has 0 to 2 catastrophe tiles left"
    placed = s.cells.count(CATASTROPHE)
    used = sum(2 - left for left in s.catastrophes)
    if placed > used:
        return f"{placed} catastrophes on the board but the players have used only {used}"
    return None


def _conflict(s: State) -> str | None:
    conflict = s.conflict
    if conflict is None:
        return None
    if conflict.get("kind") not in ("revolt", "war"):
        return "conflict.kind is 'revolt' or 'war'"
    if conflict["kind"] == "war" and s.wars is None:
        return "a war is fought only while `wars` names the unification square"
    for side in ("attacker", "defender"):
        seat, sq = conflict[side], conflict[side + "_leader"]
        code = s.cells[sq]
        if code < LEADER or divmod(code - LEADER, 4) != (seat, conflict["color"]):
            return (f"the {side}'s leader is not on {SQUARE_NAMES[sq]}: the {side} (seat {seat}) "
                    f"needs its {LEADERS[conflict['color']]} there")
        commit = conflict[side + "_commit"]
        if commit is not None and (not isinstance(commit, int) or commit < 0):
            return f"conflict.{side}_commit is a count or null"
    if conflict["attacker_commit"] is None and conflict["defender_commit"] is not None:
        return "the defender commits only after the attacker"
    return None


def _wars(s: State) -> str | None:
    if s.wars is None:
        return None
    if not 0 <= s.wars["owner"] < s.players:
        return "wars.owner is a seat"
    code = s.cells[s.wars["square"]]
    if not FACE_UP <= code < FACE_DOWN:
        return f"the unification square {SQUARE_NAMES[s.wars['square']]} holds no face-up tile"
    return None


def _kingdom_leaders(s: State) -> str | None:
    """Two leaders of one colour share a kingdom only while they fight: a revolt, or
    the wars of a unification tile (the colour fought now or still to be fought)."""
    fought = set(s.wars["colors"]) if s.wars is not None else set()
    if s.conflict is not None:
        fought.add(s.conflict["color"])
    for group in regions(s).leaders:
        seen: dict[int, int] = {}
        for sq in group:
            seat, color = leader_code(s.cells, sq)
            if color in seen and color not in fought:
                first = seen[color]
                return (f"seat {leader_code(s.cells, first)[0]}'s {LEADERS[color]} on {SQUARE_NAMES[first]} and "
                        f"seat {seat}'s {LEADERS[color]} on {SQUARE_NAMES[sq]} stand in one kingdom; two leaders "
                        "of one colour share a kingdom only during their revolt or war")
            seen[color] = sq
    return None


def _buildings(s: State) -> str | None:
    if not s.options.get("buildings") and (s.building is not None or any(sq >= 0 for sq in s.buildings)):
        return "buildings stand only in games with the option `buildings`"
    for color, sq in enumerate(s.buildings):
        if sq >= 0 and s.cells[sq] != FACE_UP + color:
            return (f"the {BUILDING_NAMES[color]} on {SQUARE_NAMES[sq]} needs a face-up "
                    f"{COLORS[color]} tile under it")
    if s.building is not None and not FACE_UP <= s.cells[s.building] < FACE_DOWN:
        return f"the building decision's square {SQUARE_NAMES[s.building]} holds no face-up tile"
    return None


def _ziggurat(s: State) -> str | None:
    placed = {sq for sq in range(SQUARES) if s.cells[sq] == ZIGGURAT}
    if not s.options.get("ziggurat") and (placed or s.ziggurat >= 0 or s.ziggurat_offer is not None):
        return "a ziggurat stands only in games with the option `ziggurat`"
    if s.ziggurat < 0:
        return "ziggurat tiles (z) stand only where `ziggurat.square` names the centre" if placed else None
    cross = {s.ziggurat, *NEIGHBORS[s.ziggurat]}
    if len(cross) != 5 or placed != cross:
        return (f"the ziggurat centred on {SQUARE_NAMES[s.ziggurat]} is the five ziggurat tiles (z) "
                "of a plus-shaped cross, and there are no others")
    return None


def _open_tiles(s: State) -> str | None:
    if not s.options.get("open_tiles"):
        if any(s.display) or s.draws is not None:
            return "a display and owed draws exist only in games with the option `open_tiles`"
        return None
    if sum(s.display) > 6:
        return f"the display shows {sum(s.display)} tiles; it holds at most 6"
    for seat, owed in (s.draws or {}).get("queue", []):
        if not 0 <= seat < s.players or owed <= 0 or sum(s.hands[seat]) + owed > HAND_SIZE:
            return f"draws.seats: seat {seat} cannot owe {owed} tiles (hands hold at most {HAND_SIZE})"
    return None


def _tiles(s: State, discarded_given: bool) -> str | None:
    on_board = [0, 0, 0, 0]
    for code in s.cells:
        if FACE_UP <= code < CATASTROPHE:
            on_board[(code - FACE_UP) % 4] += 1
    counted = 0
    for color in range(4):
        present = on_board[color] + sum(hand[color] for hand in s.hands) + s.bag[color] + s.display[color]
        if present > TILE_COUNTS[color]:
            return (f"{present} {COLORS[color]} tiles on the board, in hands, in the bag and face up; "
                    f"the game has {TILE_COUNTS[color]}")
        counted += present
    if not discarded_given:
        s.discarded = TOTAL_TILES - counted
    elif counted + s.discarded != TOTAL_TILES:
        return (f"tiles are not conserved: {counted} on the board, in hands, in the bag and face up plus "
                f"{s.discarded} discarded make {counted + s.discarded}, not {TOTAL_TILES}")
    return None
