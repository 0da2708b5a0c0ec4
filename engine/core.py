"""The engine contract shared by every game: errors, the seeded RNG, event visibility.

Engines are pure: no I/O, no clock, no global random. All randomness comes from an
RNG whose state is a plain integer kept inside the game state, so the same seed and
the same moves always give the same game, and a state round-trips through JSON.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Protocol

MASK64 = (1 << 64) - 1


class EngineError(Exception):
    """Base of every error an engine raises on bad input. `code` is stable."""

    code = "engine_error"

    def __init__(self, message: str, code: str | None = None):
        super().__init__(message)
        if code is not None:
            self.code = code
        self.message = message

    def to_dict(self) -> dict:
        return {"code": self.code, "message": self.message}


class IllegalMove(EngineError):
    """The move is well formed but the rules forbid it now (or it is malformed JSON)."""

    code = "illegal_move"


class NotYourTurn(IllegalMove):
    """The seat owes no decision of this kind right now."""

    code = "not_your_turn"


class MoveParseError(EngineError):
    """Text notation that does not parse; says what was expected."""

    code = "parse_error"


@lru_cache(maxsize=None)
def _fields_and_type(fields: tuple[str, ...]) -> frozenset[str]:
    return frozenset(fields) | {"type"}


def move_type(move, move_fields: dict[str, tuple[str, ...]]) -> str:
    """Check a move's shape against a game's move types and their fields (besides
    "type"): a known type with exactly its fields. Returns the type."""
    if not isinstance(move, dict):
        raise IllegalMove("a move must be a JSON object with a 'type'", code="bad_move")
    kind = move.get("type")
    if not isinstance(kind, str) or kind not in move_fields:
        raise IllegalMove(
            f"unknown move type {kind!r}; types: {', '.join(move_fields)}", code="unknown_move_type"
        )
    expected = _fields_and_type(move_fields[kind])
    if move.keys() != expected:
        missing, extra = expected - set(move), set(move) - expected
        parts = [f"missing {', '.join(sorted(missing))}"] if missing else []
        if extra:
            parts.append(f"unexpected {', '.join(sorted(extra))}")
        raise IllegalMove(
            f"{kind} takes fields {', '.join(move_fields[kind]) or 'none'}: {'; '.join(parts)}", code="bad_move"
        )
    return kind


class ReadOnlyDict(dict):
    """A dict that refuses changes. Listings hand out the same move objects again and
    again rather than build hundreds of dicts per decision: a move stays a plain JSON
    dict to read, compare, repr and serialise, and `dict(move)` is a copy to change.
    Its repr is kept once made: the strong bot names moves by it."""

    __slots__ = ("_repr",)

    def __repr__(self):
        try:
            return self._repr
        except AttributeError:
            self._repr = text = dict.__repr__(self)
            return text

    def _refuse(self, *args, **kwargs):
        raise TypeError("a listed move is shared and read-only; change a copy: dict(move)")

    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return type(self), (dict(self),)


def rng_next(state: int) -> tuple[int, int]:
    """One step of splitmix64: returns (new_state, 64-bit output).

    Chosen because its whole state is one integer (trivial to keep in JSON) and it
    passes BigCrush; a game draws at most a few hundred numbers.
    """
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def rng_below(state: int, n: int) -> tuple[int, int]:
    """A uniform integer in [0, n) and the new RNG state (rejection sampling, no bias)."""
    if n <= 0:
        raise ValueError("n must be positive")
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        state, value = rng_next(state)
        if value < limit:
            return state, value % n


def seed_state(seed: int) -> int:
    """The RNG state for a seed chosen by the service (any integer)."""
    return seed & MASK64


def round_of(turn: int, players: int) -> int:
    """The round a game-wide turn count (1, 2, ...) falls in, for games where every player
    takes one turn per round in seat order: a player's n-th turn is in round n."""
    return (turn - 1) // players + 1


def round_of_view(view: dict) -> int | None:
    """The round of a view's game-wide turn counter (`turn.number`) and its players;
    None when the view has no counter or no players."""
    number, players = (view.get("turn") or {}).get("number"), len(view.get("players") or [])
    return round_of(int(number), players) if number is not None and players else None


def visible_to(event: dict, seat: int | None) -> bool:
    """Whether `seat` (None: a spectator) may see `event`.

    Events carry `"visible_to": [seats]` when private; without it they are public.
    """
    seats = event.get("visible_to")
    return seats is None or (seat is not None and seat in seats)


def events_for(events: list[dict], seat: int | None) -> list[dict]:
    """The events `seat` may see, without the visibility field itself."""
    return [
        {k: v for k, v in e.items() if k != "visible_to"}
        for e in events
        if visible_to(e, seat)
    ]


class Game(Protocol):
    """What every game module provides (see docs/engine.md)."""

    id: str
    min_players: int
    max_players: int

    def default_options(self) -> dict: ...
    def validate_options(self, options: dict, players: int) -> dict: ...
    def setup(self, players: int, seed: int, options: dict | None = None) -> Any: ...
    def pending(self, state: Any) -> dict[int, str]: ...
    def legal_moves(self, state: Any, seat: int) -> list[dict]: ...
    def apply(self, state: Any, seat: int, move: dict) -> tuple[Any, list[dict]]: ...
    def view(self, state: Any, seat: int | None) -> dict: ...
    def outcome(self, state: Any) -> dict | None: ...
    def to_json(self, state: Any) -> dict: ...
    def from_json(self, data: dict) -> Any: ...
    def parse_move(self, text: str) -> dict: ...
    def describe(self, move: dict) -> str: ...
