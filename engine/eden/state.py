"""Eden's state: a compact mutable record, copied once per `apply`.

The board is two lists of 49 (owner seat or -1, level 0-4), square A1 first, row by
row. The JSON form (docs/games/eden.md) is the public, hand-writable format;
`to_json`/`from_json` convert exactly.
"""
from __future__ import annotations

from typing import Any

from engine.core import IllegalMove
from engine.eden.board import (
    BID_STEP,
    CARD_INDEX,
    CARD_NAMES,
    COLOR_LETTERS,
    COLORS,
    HIGH,
    LOW,
    MAX_LEVEL,
    NEIGHBOURS,
    OPENING_BID,
    RAISE,
    SIZE,
    SQUARE_INDEX,
    SQUARE_NAMES,
    SQUARES,
    STARTING_MANA,
    TILES,
    tile_kind,
)


class State:
    """One position. Treat as immutable outside the rules modules of this package."""

    __slots__ = (
        "options", "owner", "level", "mana", "hands", "supply", "deck", "discard", "market",
        "rng", "turn", "active", "played", "idle_turns", "acquisition", "finished",
    )
    options: dict[str, Any]
    owner: list[int]  # per square: seat or -1
    level: list[int]  # per square: 0-4
    mana: list[int]  # per seat
    hands: list[list[int]]  # per seat: card indexes
    supply: list[list[int]]  # per seat: [tiles 1/2, tiles 3/4]
    deck: tuple[int, ...]
    discard: list[int]
    market: list[int]
    rng: int
    turn: int
    active: int
    played: list[int]
    idle_turns: int
    acquisition: dict[str, Any] | None
    finished: dict[str, Any] | None

    def clone(self) -> State:
        new = State.__new__(State)
        new.options = self.options
        new.owner = self.owner[:]
        new.level = self.level[:]
        new.mana = self.mana[:]
        new.hands = [hand[:] for hand in self.hands]
        new.supply = [pair[:] for pair in self.supply]
        new.deck = self.deck  # tuple, replaced when drawn from
        new.discard = self.discard[:]
        new.market = self.market[:]
        new.rng = self.rng
        new.turn = self.turn
        new.active = self.active
        new.played = self.played[:]
        new.idle_turns = self.idle_turns
        new.acquisition = self.acquisition  # replaced, never edited
        new.finished = self.finished
        return new

    @property
    def players(self) -> int:
        return len(self.hands)


def _names(cards) -> list[str]:
    return [CARD_NAMES[c] for c in cards]


def _squares(squares) -> list[str]:
    return [SQUARE_NAMES[i] for i in squares]


def board_rows(s: State) -> list[str]:
    """The board as 7 strings (row 1 first) of 7 cells: `..` empty, `r2` red level 2."""
    cells = [
        ".." if s.owner[i] < 0 else f"{COLOR_LETTERS[s.owner[i]]}{s.level[i]}" for i in range(SQUARES)
    ]
    return [" ".join(cells[row * SIZE:(row + 1) * SIZE]) for row in range(SIZE)]


def to_json(s: State) -> dict:
    return {
        "game": "eden",
        "options": dict(s.options),
        "board": board_rows(s),
        "players": [
            {
                "color": COLORS[seat],
                "mana": s.mana[seat],
                "hand": _names(sorted(s.hands[seat])),
                "supply": {"1/2": s.supply[seat][LOW], "3/4": s.supply[seat][HIGH]},
            }
            for seat in range(s.players)
        ],
        "deck": _names(s.deck),
        "discard": _names(s.discard),
        "market": _names(s.market),
        "rng": s.rng,
        "turn": {
            "number": s.turn, "active": s.active, "played": _names(s.played),
            "idle_turns": s.idle_turns,
        },
        "acquisition": _acquisition_json(s.acquisition),
        "finished": None if s.finished is None else dict(s.finished),
    }


def _acquisition_json(a: dict | None) -> dict | None:
    if a is None:
        return None
    return {
        "attacker": a["attacker"],
        "placed": SQUARE_NAMES[a["placed"]],
        "attack": _squares(a["attack"]),
        "defender": a["defender"],
        "defend": _squares(a["defend"]),
        "bids": list(a["bids"]),
    }


def _bad_state(message: str) -> IllegalMove:
    return IllegalMove(f"invalid state JSON: {message}", code="bad_state")


def from_json(data: dict) -> State:
    try:
        return _from_json(data)
    except IllegalMove:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise _bad_state(f"{type(exc).__name__}: {exc}") from None


def _card_list(names, what: str) -> list[int]:
    unknown = [n for n in names if n not in CARD_INDEX]
    if unknown:
        raise _bad_state(f"{what} holds unknown cards {unknown}; cards are A1-G7 and "
                         f"{CARD_NAMES[SQUARES]}-{CARD_NAMES[-1]}")
    return [CARD_INDEX[n] for n in names]


def _square_list(names, what: str) -> list[int]:
    unknown = [n for n in names if n not in SQUARE_INDEX]
    if unknown:
        raise _bad_state(f"{what} names unknown squares {unknown}")
    return [SQUARE_INDEX[n] for n in names]


def _read_board(s: State, rows: list[str], players: int) -> None:
    if len(rows) != SIZE:
        raise _bad_state(f"board must be {SIZE} strings, row 1 first")
    s.owner, s.level = [], []
    for row, text in enumerate(rows):
        cells = text.split()
        if len(cells) != SIZE:
            raise _bad_state(f"board row {row + 1} must have {SIZE} cells separated by spaces")
        for cell in cells:
            if cell == "..":
                s.owner.append(-1)
                s.level.append(0)
                continue
            letter, level = cell[0], cell[1:]
            if letter not in COLOR_LETTERS[:players] or level not in ("1", "2", "3", "4"):
                raise _bad_state(
                    f"board cell {cell!r} in row {row + 1}: a cell is `..` or a colour letter "
                    f"({COLOR_LETTERS[:players]}) and a level 1-{MAX_LEVEL}"
                )
            s.owner.append(COLOR_LETTERS.index(letter))
            s.level.append(int(level))


def _read_supply(s: State, seat: int, supply: dict | None) -> list[int]:
    on_board = [0, 0]
    for i in range(SQUARES):
        if s.owner[i] == seat:
            on_board[tile_kind(s.level[i])] += 1
    pair = [TILES[LOW] - on_board[LOW], TILES[HIGH] - on_board[HIGH]]
    if supply is not None:
        given = [int(supply["1/2"]), int(supply["3/4"])]
        if given != pair:
            raise _bad_state(
                f"seat {seat}'s supply {given} plus its tiles on the board must make "
                f"{TILES[LOW]} tiles 1/2 and {TILES[HIGH]} tiles 3/4 (expected {pair})"
            )
    if min(pair) < 0:
        raise _bad_state(f"seat {seat} has more tiles on the board than it owns")
    return pair


def _from_json(data: dict) -> State:
    s = State.__new__(State)
    s.options = dict(data.get("options") or {})
    players = data["players"]
    if not 2 <= len(players) <= 4:
        raise _bad_state("2 to 4 players")
    _read_board(s, data["board"], len(players))
    s.mana, s.hands, s.supply = [], [], []
    for seat, p in enumerate(players):
        mana = int(p.get("mana", STARTING_MANA))
        if mana < 0:
            raise _bad_state(f"seat {seat} has negative mana")
        s.mana.append(mana)
        s.hands.append(sorted(_card_list(p.get("hand", []), f"seat {seat}'s hand")))
        s.supply.append(_read_supply(s, seat, p.get("supply")))
    s.deck = tuple(_card_list(data.get("deck", []), "deck"))
    s.discard = _card_list(data.get("discard", []), "discard")
    s.market = _card_list(data.get("market", []), "market")
    everywhere = [*s.deck, *s.discard, *s.market, *(c for hand in s.hands for c in hand)]
    if len(everywhere) != len(set(everywhere)):
        raise _bad_state("a card lies in two places")
    s.rng = int(data.get("rng", 0))
    turn = data.get("turn") or {}
    s.turn = int(turn.get("number", 1))
    s.active = int(turn.get("active", 0))
    if not 0 <= s.active < len(players):
        raise _bad_state("turn.active must be a seat")
    s.played = _card_list(turn.get("played", []), "turn.played")
    s.idle_turns = int(turn.get("idle_turns", 0))
    s.acquisition = _acquisition_from_json(data.get("acquisition"))
    if s.acquisition is not None:
        _check_acquisition(s, s.acquisition)
    finished = data.get("finished")
    s.finished = None if finished is None else dict(finished)
    if s.finished is not None and s.finished.get("winner") is not None and not 0 <= s.finished["winner"] < len(players):
        raise _bad_state("finished.winner must be a seat")
    return s


def _check_acquisition(s: State, a: dict) -> None:
    """A hand-written acquisition must be one that play could reach (acquisition.py)."""
    attacker, placed, attack, defend = a["attacker"], a["placed"], a["attack"], a["defend"]
    if attacker != s.active:
        raise _bad_state("acquisition.attacker must be the active seat (he acquires in his own turn)")
    if s.owner[placed] != attacker:
        raise _bad_state("acquisition.placed must hold one of the attacker's tiles")
    if attack[:1] != [placed]:
        raise _bad_state("acquisition.attack must start with the placed tile")
    if len(attack) > 2 or any(s.owner[i] != attacker or i not in NEIGHBOURS[placed] for i in attack[1:]):
        raise _bad_state(
            "acquisition.attack holds the placed tile and at most one more of the attacker's tiles beside it")
    defender = a["defender"]
    if defender is not None and not (0 <= defender < s.players and defender != attacker):
        raise _bad_state("acquisition.defender must be another seat, or null")
    if (defender is None) != (not defend):
        raise _bad_state("acquisition.defender is null exactly while nothing is contested")
    for n, i in enumerate(defend):
        touching = NEIGHBOURS[placed] if n == 0 else {j for k in defend[:n] for j in NEIGHBOURS[k]}
        if s.owner[i] != defender or i not in touching or i in defend[:n]:
            raise _bad_state(
                "acquisition.defend must be a chain of the defender's tiles: the first beside the placed "
                "tile, each further one beside one before it")
    _check_bids(a["bids"], bool(defend))


def _check_bids(bids: list[int], contested: bool) -> None:
    if bids and not contested:
        raise _bad_state("acquisition.bids need a contested tile")
    if any(b % BID_STEP for b in bids) or (bids and bids[0] < OPENING_BID):
        raise _bad_state(f"acquisition.bids are multiples of {BID_STEP}, the first at least {OPENING_BID}")
    if any(later < earlier + RAISE for earlier, later in zip(bids, bids[1:])):
        raise _bad_state(f"acquisition.bids: each raise at least {RAISE} over the bid before")


def _acquisition_from_json(a: dict | None) -> dict | None:
    if a is None:
        return None
    return {
        "attacker": int(a["attacker"]),
        "placed": SQUARE_INDEX[a["placed"]],
        "attack": _square_list(a["attack"], "acquisition.attack"),
        "defender": None if a.get("defender") is None else int(a["defender"]),
        "defend": _square_list(a.get("defend", []), "acquisition.defend"),
        "bids": [int(b) for b in a.get("bids", [])],
    }


__all__ = ["State", "to_json", "from_json", "board_rows"]
