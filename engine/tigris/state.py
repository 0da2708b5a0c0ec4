"""The Tigris game state: a compact mutable record, copied once per `apply`.

Cells hold one small integer per square so that copying a state is a list copy and
region finding reads one array. The JSON form (docs/games/tigris.md) is the public,
hand-writable format; `to_json`/`from_json` convert exactly.
"""
from __future__ import annotations

from operator import itemgetter
from typing import Any

from engine.core import IllegalMove
from engine.tigris.board import BOARD_MAPS, COLS, ROWS, SQUARE_NAMES, SQUARES, square_index

COLORS = ("red", "blue", "green", "black")
RED, BLUE, GREEN, BLACK = range(4)
COLOR_INDEX = {name: i for i, name in enumerate(COLORS)}
LEADERS = ("priest", "farmer", "trader", "king")  # by colour index
LEADER_INDEX = {name: i for i, name in enumerate(LEADERS)}
DYNASTIES = ("archer", "bull", "pot", "lion")
TILE_NAMES = ("temple", "farm", "market", "settlement")
BUILDING_NAMES = ("library", "granary", "market hall", "palace")  # by colour index
MONUMENTS = ((RED, BLACK), (RED, GREEN), (BLUE, BLACK), (BLUE, RED), (GREEN, BLACK), (GREEN, BLUE))
MONUMENT_NAMES = tuple(f"{COLORS[a]}-{COLORS[b]}" for a, b in MONUMENTS)
TILE_COUNTS = (57, 36, 30, 30)
TOTAL_TILES = sum(TILE_COUNTS)
HAND_SIZE = 6

# Cell codes.
EMPTY = 0
FACE_UP = 1  # + colour: 1..4
FACE_DOWN = 5  # + colour: 5..8, under a monument
CATASTROPHE = 9
ZIGGURAT = 10  # a ziggurat tile (option ziggurat)
LEADER = 11  # + seat * 4 + colour

CELL_CHARS = ".rbgkRBGKxz"
CHAR_CELLS = {ch: code for code, ch in enumerate(CELL_CHARS)}
CHAR_CELLS["~"] = EMPTY


# Cache entries that depend on the cells alone (see `State.clone`).
CELL_FACTS = frozenset({"regions", "temple_neighbors", "kingdoms_touching", "board_strings"})


class State:
    """One position. Treat as immutable outside `engine.tigris.rules`."""

    __slots__ = (
        "board", "options", "cells", "treasures", "monuments", "leaders", "hands",
        "scores", "treasure_counts", "catastrophes", "bag", "discarded", "rng",
        "turn", "active", "actions_left", "conflict", "wars", "monument",
        "finished", "cache", "buildings", "building", "ziggurat", "ziggurat_offer",
        "ziggurat_point_taken", "display", "draws",
    )
    board: str  # a key of BOARD_MAPS
    options: dict[str, Any]
    cells: list[int]  # one cell code per square
    treasures: frozenset[int]  # squares
    monuments: tuple[tuple[int, int], ...]  # (monument index, square)
    leaders: list[list[int]]  # per seat, per colour: square or -1 in supply
    hands: list[list[int]]  # per seat, per colour
    scores: list[list[int]]  # per seat, per colour
    treasure_counts: list[int]
    catastrophes: list[int]
    bag: list[int]  # per colour
    discarded: int
    rng: int
    turn: int
    active: int
    actions_left: int
    conflict: dict[str, Any] | None
    wars: dict[str, Any] | None
    monument: int | None  # the square of a monument to be built
    finished: str | None  # the reason the game ended
    cache: dict[str | tuple[str, int], Any]  # facts derived from the position
    buildings: tuple[int, ...]  # per colour: square or -1
    building: int | None
    ziggurat: int  # square or -1
    ziggurat_offer: int | None
    ziggurat_point_taken: bool
    display: tuple[int, ...]  # per colour
    draws: dict[str, Any] | None

    def clone(self) -> State:
        new = State.__new__(State)
        new.board = self.board
        new.options = self.options
        new.cells = self.cells[:]
        new.treasures = self.treasures  # frozenset, replaced on change
        new.monuments = self.monuments  # tuple, replaced on change
        new.leaders = [row[:] for row in self.leaders]
        new.hands = [row[:] for row in self.hands]
        new.scores = [row[:] for row in self.scores]
        new.treasure_counts = self.treasure_counts[:]
        new.catastrophes = self.catastrophes[:]
        new.bag = self.bag[:]
        new.discarded = self.discarded
        new.rng = self.rng
        new.turn = self.turn
        new.active = self.active
        new.actions_left = self.actions_left
        new.conflict = self.conflict  # dicts below are replaced, never edited
        new.wars = self.wars
        new.monument = self.monument
        new.finished = self.finished
        new.buildings = self.buildings  # tuple, replaced on change
        new.building = self.building
        new.ziggurat = self.ziggurat
        new.ziggurat_offer = self.ziggurat_offer
        new.ziggurat_point_taken = self.ziggurat_point_taken
        new.display = self.display  # tuple, replaced on change
        new.draws = self.draws  # dict, replaced on change
        # Same cells, same facts drawn from them: carry those over until the first
        # change of cells (which replaces the cache).
        new.cache = {key: value for key, value in self.cache.items() if key in CELL_FACTS}
        return new

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def board_map(self):
        return BOARD_MAPS[self.board]


def _board_text_tables() -> bytes:
    """A byte translation from (cell code + 32 on river squares) to the JSON
    character: the board's strings come from one `bytes.translate`."""
    table = bytearray(b"?" * 256)
    for code in range(256):
        if code < 32:
            table[code] = ord(".") if code >= LEADER or code == EMPTY else ord(CELL_CHARS[code])
        elif code < 64:
            river_code = code - 32
            table[code] = ord("~") if river_code >= LEADER or river_code == EMPTY else ord(CELL_CHARS[river_code])
    return bytes(table)


_BOARD_TEXT = _board_text_tables()
# Per board, bit 5 set in the bytes of its river squares, as one integer: cell codes
# are below 32, so OR-ing it onto the cells' bytes (read as an integer) adds 32 on the
# river in one operation.
_RIVER_BITS = {
    name: int.from_bytes(bytes(32 if r else 0 for r in m.river), "big") for name, m in BOARD_MAPS.items()
}


def board_strings(state: State) -> list[str]:
    """The board's 11 strings of 16 cells, kept on the state (and carried to the next
    one with the squares that changed rewritten: `board_strings_after`)."""
    rows = state.cache.get("board_strings")
    if rows is None:
        marked = int.from_bytes(bytes(state.cells), "big") | _RIVER_BITS[state.board]
        text = marked.to_bytes(SQUARES, "big").translate(_BOARD_TEXT).decode("ascii")
        rows = state.cache["board_strings"] = [text[start:start + COLS] for start in range(0, SQUARES, COLS)]
    return rows[:]


def board_strings_after(rows: list[str], state: State, squares) -> list[str]:
    """`rows` (the board strings before `squares` changed) with those squares rewritten."""
    rows = rows[:]
    river = state.board_map.river
    for sq in squares:
        row, col = divmod(sq, COLS)
        char = chr(_BOARD_TEXT[state.cells[sq] + (32 if river[sq] else 0)])
        rows[row] = rows[row][:col] + char + rows[row][col + 1:]
    return rows


def _square_or_none(sq: int) -> str | None:
    return None if sq < 0 else SQUARE_NAMES[sq]


# A leader's square name by index; -1 (in supply) reads the None at the end.
_SQUARE_OR_NONE = (*SQUARE_NAMES, None)
# The JSON lists a player's leaders king first.
_LEADER_ORDER = itemgetter(BLACK, RED, BLUE, GREEN)
_LEADER_KEYS = tuple(LEADERS[c] for c in (BLACK, RED, BLUE, GREEN))


def _conflict_json(conflict: dict | None) -> dict | None:
    if conflict is None:
        return None
    out = dict(conflict)
    out["color"] = COLORS[conflict["color"]]
    out["attacker_leader"] = SQUARE_NAMES[conflict["attacker_leader"]]
    out["defender_leader"] = SQUARE_NAMES[conflict["defender_leader"]]
    return out


def to_json(state: State) -> dict:
    data = {
        "game": "tigris",
        "options": dict(state.options),
        "board": board_strings(state),
        "treasures": [SQUARE_NAMES[sq] for sq in sorted(state.treasures)],
        "monuments": [
            {"colors": list(MONUMENT_NAMES[m].split("-")), "square": SQUARE_NAMES[sq]}
            for m, sq in state.monuments
        ],
        "players": [
            {
                "dynasty": DYNASTIES[seat],
                "leaders": dict(zip(_LEADER_KEYS,
                                    map(_SQUARE_OR_NONE.__getitem__, _LEADER_ORDER(state.leaders[seat])))),
                "hand": dict(zip(COLORS, state.hands[seat])),
                "score": dict(zip(COLORS, state.scores[seat])),
                "treasures": state.treasure_counts[seat],
                "catastrophes": state.catastrophes[seat],
            }
            for seat in range(state.players)
        ],
        "bag": dict(zip(COLORS, state.bag)),
        "discarded": state.discarded,
        "rng": state.rng,
        "turn": {"number": state.turn, "active": state.active, "actions_left": state.actions_left},
        "conflict": _conflict_json(state.conflict),
        "wars": None if state.wars is None else {
            "square": SQUARE_NAMES[state.wars["square"]],
            "owner": state.wars["owner"],
            "colors": [COLORS[c] for c in state.wars["colors"]],
        },
        "monument": None if state.monument is None else SQUARE_NAMES[state.monument],
        "finished": None if state.finished is None else {"reason": state.finished},
    }
    if state.options.get("buildings"):
        data["buildings"] = {COLORS[c]: _square_or_none(sq) for c, sq in enumerate(state.buildings)}
        data["building"] = None if state.building is None else SQUARE_NAMES[state.building]
    if state.options.get("ziggurat"):
        data["ziggurat"] = {
            "square": _square_or_none(state.ziggurat),
            "offer": None if state.ziggurat_offer is None else SQUARE_NAMES[state.ziggurat_offer],
            "point_taken": state.ziggurat_point_taken,
        }
    if state.options.get("open_tiles"):
        data["display"] = dict(zip(COLORS, state.display))
        data["draws"] = None if state.draws is None else {
            "seats": [{"seat": seat, "owed": owed} for seat, owed in state.draws["queue"]],
            "end_of_turn": state.draws["end_of_turn"],
        }
    return data


def _bad_state(message: str) -> IllegalMove:
    return IllegalMove(f"invalid state JSON: {message}", code="bad_state")


def _square(name) -> int:
    try:
        return square_index(name)
    except (KeyError, AttributeError):
        raise _bad_state(f"{name!r} is not a square (A1..P11)") from None


def _monument(colors) -> int:
    name = "-".join(colors)
    if name not in MONUMENT_NAMES:
        raise _bad_state(f"no monument has colours {name!r}; monuments: {', '.join(MONUMENT_NAMES)}")
    return MONUMENT_NAMES.index(name)


def _color_counts(data: dict, what: str) -> list[int]:
    if set(data) - set(COLORS):
        raise _bad_state(f"{what} has unknown colours {sorted(set(data) - set(COLORS))}")
    counts = [int(data.get(c, 0)) for c in COLORS]
    if min(counts) < 0:
        raise _bad_state(f"{what} has a negative count")
    return counts


def _parse_cells(state: State, rows: list[str]) -> None:
    if len(rows) != ROWS or any(len(r) != COLS for r in rows):
        raise _bad_state(f"board must be {ROWS} strings of {COLS} cells")
    river = state.board_map.river
    for sq in range(SQUARES):
        ch = rows[sq // COLS][sq % COLS]
        if ch not in CHAR_CELLS:
            raise _bad_state(f"unknown cell {ch!r} at {SQUARE_NAMES[sq]}; allowed: {CELL_CHARS}~")
        code = CHAR_CELLS[ch]
        if code in (FACE_UP + BLUE, FACE_DOWN + BLUE) and not river[sq]:
            raise _bad_state(f"blue farm on land at {SQUARE_NAMES[sq]}")
        if FACE_UP <= code < CATASTROPHE and code not in (FACE_UP + BLUE, FACE_DOWN + BLUE) and river[sq]:
            raise _bad_state(f"{ch!r} on a river square at {SQUARE_NAMES[sq]}")
        state.cells[sq] = code


def from_json(data: dict) -> State:
    """The state of `data`, refused with a message saying what is wrong if it is
    malformed or inconsistent (engine.tigris.checks)."""
    from engine.tigris.checks import check_state  # checks read regions, which need this module

    try:
        state = _from_json(data)
        problem = check_state(state, "discarded" in data)
    except IllegalMove:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise _bad_state(f"{type(exc).__name__}: {exc}") from None
    if problem:
        raise _bad_state(problem)
    return state


def _from_json(data: dict) -> State:
    s = State.__new__(State)
    s.options = dict(data.get("options") or {})
    s.board = s.options.get("board", "standard")
    if s.board not in BOARD_MAPS:
        raise _bad_state(f"unknown board {s.board!r}")
    s.cells = [EMPTY] * SQUARES
    _parse_cells(s, data["board"])
    s.treasures = frozenset(_square(name) for name in data.get("treasures", []))
    s.monuments = tuple((_monument(m["colors"]), _square(m["square"])) for m in data.get("monuments", []))
    players = data["players"]
    if not 2 <= len(players) <= 4:
        raise _bad_state("2 to 4 players")
    s.leaders, s.hands, s.scores = [], [], []
    s.treasure_counts, s.catastrophes = [], []
    for seat, p in enumerate(players):
        row = [-1] * 4
        for name, where in (p.get("leaders") or {}).items():
            if name not in LEADER_INDEX:
                raise _bad_state(f"unknown leader {name!r}; leaders: {', '.join(LEADER_INDEX)}")
            if where is not None:
                sq = _square(where)
                row[LEADER_INDEX[name]] = sq
                if s.cells[sq] != EMPTY or s.board_map.river[sq]:
                    raise _bad_state(f"leader {name} on an occupied or river square {where}")
                s.cells[sq] = LEADER + seat * 4 + LEADER_INDEX[name]
        s.leaders.append(row)
        s.hands.append(_color_counts(p.get("hand", {}), "hand"))
        s.scores.append(_color_counts(p.get("score", {}), "score"))
        s.treasure_counts.append(int(p.get("treasures", 0)))
        s.catastrophes.append(int(p.get("catastrophes", 2)))
    s.bag = _color_counts(data.get("bag", {}), "bag")
    s.discarded = int(data.get("discarded", 0))  # derived by the checks when absent
    s.rng = int(data.get("rng", 0))
    turn = data.get("turn") or {}
    s.turn = int(turn.get("number", 1))
    s.active = int(turn.get("active", 0))
    s.actions_left = int(turn.get("actions_left", 2))
    s.conflict = _conflict_from_json(data.get("conflict"))
    wars = data.get("wars")
    s.wars = None if wars is None else {
        "square": _square(wars["square"]),
        "owner": int(wars["owner"]),
        "colors": [COLOR_INDEX[c] for c in wars["colors"]],
    }
    s.monument = None if data.get("monument") is None else _square(data["monument"])
    finished = data.get("finished")
    s.finished = None if finished is None else finished["reason"]
    buildings = data.get("buildings") or {}
    if set(buildings) - set(COLORS):
        raise _bad_state(f"buildings are named by colour: {', '.join(COLORS)}")
    s.buildings = tuple(-1 if buildings.get(c) is None else _square(buildings[c]) for c in COLORS)
    s.building = None if data.get("building") is None else _square(data["building"])
    ziggurat = data.get("ziggurat") or {}
    s.ziggurat = -1 if ziggurat.get("square") is None else _square(ziggurat["square"])
    s.ziggurat_offer = None if ziggurat.get("offer") is None else _square(ziggurat["offer"])
    s.ziggurat_point_taken = bool(ziggurat.get("point_taken", False))
    s.display = tuple(_color_counts(data.get("display") or {}, "display"))
    draws = data.get("draws")
    s.draws = None if draws is None else {
        "queue": [[int(entry["seat"]), int(entry["owed"])] for entry in draws["seats"]],
        "end_of_turn": bool(draws["end_of_turn"]),
    }
    s.cache = {}
    return s


def _conflict_from_json(conflict: dict | None) -> dict | None:
    if conflict is None:
        return None
    out = dict(conflict)
    out["color"] = COLOR_INDEX[conflict["color"]]
    out["attacker_leader"] = _square(conflict["attacker_leader"])
    out["defender_leader"] = _square(conflict["defender_leader"])
    return out
