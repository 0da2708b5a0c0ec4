"""The engine contract shared by every game: the `Game` protocol and the `BaseGame` it is
built on, errors, the seeded RNG, event visibility.

Engines are pure: no I/O, no clock, no global random. All randomness comes from an
RNG whose state is a plain integer kept inside the game state, so the same seed and
the same moves always give the same game, and a state round-trips through JSON.
"""
from __future__ import annotations

import importlib
from functools import cache
from types import ModuleType
from typing import Any, ClassVar, Protocol

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


@cache
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
    A public event may carry `"hidden_from": [seats]`: those seats are told the same
    thing in a private event of their own (a draw: the others learn how many cards, the
    drawer which), so each reader gets one line.
    """
    if seat is not None and seat in event.get("hidden_from", ()):
        return False
    seats = event.get("visible_to")
    return seats is None or (seat is not None and seat in seats)


def events_for(events: list[dict], seat: int | None) -> list[dict]:
    """The events `seat` may see, without the visibility field itself."""
    return [
        {k: v for k, v in e.items() if k not in ("visible_to", "hidden_from")}
        for e in events
        if visible_to(e, seat)
    ]


class Game(Protocol):
    """Everything the service, the workers and the bots call on a game (docs/engine.md).
    `BaseGame` provides every optional part with its default."""

    id: str
    name: str
    description: str
    min_players: int
    max_players: int
    option_choices: dict[str, tuple]
    move_forms: tuple[str, ...]
    setting_moves: tuple[str, ...]
    shared_board_picture: bool
    drawing: ModuleType | None

    def default_options(self) -> dict: ...
    def validate_options(self, options: dict | None, players: int) -> dict: ...
    def setup(self, players: int, seed: int, options: dict | None = None) -> Any: ...
    def is_over(self, state: Any) -> bool: ...
    def pending(self, state: Any) -> dict[int, str]: ...
    def legal_moves(self, state: Any, seat: int) -> list[dict]: ...
    def apply(self, state: Any, seat: int, move: dict) -> tuple[Any, list[dict]]: ...
    def default_move(self, state: Any, seat: int) -> dict | None: ...
    def link_moves(self, state: Any, seat: int) -> list[dict] | None: ...
    def view(self, state: Any, seat: int | None) -> dict: ...
    def outcome(self, state: Any) -> dict | None: ...
    def to_json(self, state: Any) -> dict: ...
    def from_json(self, data: dict) -> Any: ...
    def parse_move(self, text: str) -> dict: ...
    def describe(self, move: dict) -> str: ...
    def choice_label(self, state: Any, seat: int, move: dict) -> str: ...
    def format_move(self, move: dict) -> str: ...
    def prompt(self, state: Any, seat: int, names: dict) -> str: ...
    def describe_event(self, event: dict, names: dict) -> str | None: ...
    def board_text(self, view: dict) -> str: ...
    def card_label(self, card: str) -> str: ...
    def card_text(self, card: str) -> str: ...
    def card_picture(self, card: str) -> str | None: ...
    def determinise(self, view: dict, seat: int, rng: Any) -> Any: ...
    def bot_knowledge(self) -> Any: ...
    def forms_for(self, options: dict) -> tuple[str, ...]: ...
    unplaced_moves: tuple[str, ...]
    def form_options(self, players: int, options: dict) -> dict: ...
    def option_words(self) -> dict[str, dict]: ...
    def touched_squares(self, move: dict) -> list[str]: ...
    def summary_lines(self, view: dict, seat: int) -> list[str]: ...
    def score_words(self, score: Any) -> str: ...
    def end_words(self, reason: str) -> str: ...


class BaseGame:
    """The base of every game: the forwarding to the game's own modules, the guard of
    `apply`, and each optional hook with its default. A game declares its facts and
    modules as class attributes and writes `setup`, `is_over`, `pending`,
    `legal_moves`, `apply_checked`, `view` and `outcome` (docs/engine.md)."""

    id: ClassVar[str]
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    description: str = ""
    # Option name -> its allowed values, the first being the default.
    option_choices: ClassVar[dict[str, tuple]] = {}
    # Move type -> its fields besides "type"; decision kind -> the move types answering it.
    move_fields: ClassVar[dict[str, tuple[str, ...]]]
    moves_by_decision: ClassVar[dict[str, tuple[str, ...]]]
    # Moves that change a seat's standing setting and answer no decision (the card
    # game's standing answers): bots skip them, the others never notice them.
    setting_moves: ClassVar[tuple[str, ...]] = ()
    # Whether the picture differs between seats only by the reader's own marks, so
    # every reader of a position may share the spectators' picture.
    shared_board_picture: ClassVar[bool] = False
    # Move types that put nothing on the board, always offered as page buttons.
    unplaced_moves: ClassVar[tuple[str, ...]] = ()
    # The game's modules the forwarding methods call: `states` (to_json, from_json),
    # `notation` (parse_move, describe, format_move, FORMS), `narration`
    # (describe_event, prompt) and `drawing` (board_text, board_svg, picture_layers;
    # None for a game without a picture). Not ClassVar: mypy reads a module assigned in
    # a class body as an instance variable, which may not override a ClassVar.
    states: ModuleType
    notation: ModuleType
    narration: ModuleType
    drawing: ModuleType | None = None

    # -- options and setup --------------------------------------------------------

    def default_options(self) -> dict:
        return {name: choices[0] for name, choices in self.option_choices.items()}

    def checked_options(self, options: dict | None) -> dict:
        """The default options with `options` over them, each a known option and one of
        its values (of the same JSON kind: true is not 1); EngineError otherwise."""
        merged = self.default_options()
        for name, value in (options or {}).items():
            if name not in self.option_choices:
                raise EngineError(
                    f"unknown option {name!r}; options: {', '.join(self.option_choices)}", code="bad_option"
                )
            choices = self.option_choices[name]
            if value not in choices or type(value) is not type(choices[0]):
                raise EngineError(f"option {name} takes one of {list(choices)}, not {value!r}", code="bad_option")
            merged[name] = value
        return merged

    def validate_options(self, options: dict | None, players: int) -> dict:
        """The options a game of `players` is set up with; EngineError(bad_players or
        bad_option) when they are not allowed. Default: min to max players, any choices."""
        if not isinstance(players, int) or isinstance(players, bool) or not (
            self.min_players <= players <= self.max_players
        ):
            raise EngineError(
                f"{self.name} is for {self.min_players} to {self.max_players} players, not {players!r}",
                code="bad_players",
            )
        return self.checked_options(options)

    def setup(self, players: int, seed: int, options: dict | None = None) -> Any:
        raise NotImplementedError

    # -- playing --------------------------------------------------------------------

    def is_over(self, state: Any) -> bool:
        raise NotImplementedError

    def pending(self, state: Any) -> dict[int, str]:
        raise NotImplementedError

    def legal_moves(self, state: Any, seat: int) -> list[dict]:
        raise NotImplementedError

    def apply(self, state: Any, seat: int, move: dict) -> tuple[Any, list[dict]]:
        """The new state and the events of `move` by `seat`; `state` is not changed.
        The guard every game shares: a known move type with its fields, a game not
        over, a seat that owes a decision, a move that answers it."""
        kind = move_type(move, self.move_fields)
        if self.is_over(state):
            raise IllegalMove("the game is over", code="game_over")
        from engine.grammar import not_open, not_yours  # the refusals in the player's words

        decision = self.pending(state).get(seat)
        if decision is None:
            raise not_yours()
        if not self.answers(state, seat, decision, kind):
            raise not_open(self, state, seat, move)
        return self.apply_checked(state, seat, move, decision)

    def answers(self, state: Any, seat: int, decision: str, kind: str) -> bool:
        """Whether a move of type `kind` answers the `decision` the seat owes. Default:
        the move types `moves_by_decision` lists for it."""
        return kind in self.moves_by_decision[decision]

    def apply_checked(self, state: Any, seat: int, move: dict, decision: str) -> tuple[Any, list[dict]]:
        """`apply` after its guard: `move` answers the `decision` that `seat` owes."""
        raise NotImplementedError

    def default_move(self, state: Any, seat: int) -> dict | None:
        """The move made for a seat that lets its deadline pass. Default: its first
        legal move (None when it owes nothing)."""
        legal = self.legal_moves(state, seat)
        return legal[0] if legal else None

    def link_moves(self, state: Any, seat: int) -> list[dict] | None:
        """The few moves offered as links and buttons when the game chooses them
        itself. Default None: the page and the email choose from the legal moves."""
        return None

    def view(self, state: Any, seat: int | None) -> dict:
        raise NotImplementedError

    def outcome(self, state: Any) -> dict | None:
        raise NotImplementedError

    # -- forwarding to the game's modules ---------------------------------------

    def to_json(self, state: Any) -> dict:
        return self.states.to_json(state)

    def from_json(self, data: dict) -> Any:
        return self.states.from_json(data)

    def parse_move(self, text: str) -> dict:
        return self.notation.parse_move(text)

    def describe(self, move: dict) -> str:
        return self.notation.describe(move)

    def format_move(self, move: dict) -> str:
        return self.notation.format_move(move)

    @property
    def move_forms(self) -> tuple[str, ...]:
        """The text notation's forms, for players' help."""
        return tuple(self.notation.FORMS)

    def forms_for(self, options: dict) -> tuple[str, ...]:
        """The notation's forms a game with these options can use (a reply's `help`).
        Default: every form (no option turns a move on or off)."""
        return self.move_forms

    def describe_event(self, event: dict, names: dict) -> str | None:
        """An event in words with the players' names; None for one players are not told."""
        return self.narration.describe_event(event, names)

    def prompt(self, state: Any, seat: int, names: dict) -> str:
        """The decision `seat` owes, in words ("" when it owes none)."""
        kind = self.pending(state).get(seat)
        return "" if kind is None else self.narration.prompt(state, seat, kind, names)

    def board_text(self, view: dict) -> str:
        """The board of a view in characters or words, for plain-text emails ("" without a drawing)."""
        return "" if self.drawing is None else self.drawing.board_text(view)

    # -- optional hooks -------------------------------------------------------------

    def choice_label(self, state: Any, seat: int, move: dict) -> str:
        """A legal move of `seat` as a link of his decision email or a button on his page,
        in words for him: it names what it acts on where the move alone does not (the card
        game: the colour of the cards committed) and may name what only he sees
        (Civilization: the card discarded). Default: `describe(move)`."""
        return self.describe(move)

    def card_label(self, card: str) -> str:
        """A card as players know it. Default: its id."""
        return str(card)

    def card_text(self, card: str) -> str:
        """What a card of the hand does, in a player's words, for the hand on the game
        page. Default: "" (nothing said)."""
        return ""

    def card_picture(self, card: str) -> str | None:
        """A card as a small SVG for the hand on the game page. Default: None (no picture)."""
        return None

    def determinise(self, view: dict, seat: int, rng: Any) -> Any:
        """A state consistent with what `seat` sees, the hidden parts filled in from
        `rng`, for bots. Default None: the generic bot knowledge tries the view itself."""
        return None

    def bot_knowledge(self) -> Any:
        """The game's own bot knowledge (engine/bots/knowledge.py's interface: an
        evaluation and a determinisation), or None for the generic one (the default)."""
        return None

    def form_options(self, players: int, options: dict) -> dict:
        """The options a new game gets from the new-game form's choices for `players`
        players (Eden: two players means its two-player option). Default: unchanged."""
        return dict(options)

    def touched_squares(self, move: dict) -> list[str]:
        """The board's squares a move put something on or took something from, which the
        game page marks as the last move. Default: none."""
        return []

    def option_words(self) -> dict[str, dict]:
        """Each option in players' words for the new-game page: {"label": its name,
        "explains": what it changes, in a sentence, "values": {value: words}}, from the
        game's own `option_words.py` (`OPTION_WORDS`). Default: the option's name in
        words, no sentence, a value as on/off or its name with spaces for underscores."""
        words = _option_words_of(type(self).__module__.rpartition(".")[0])
        shown = {}
        for name, choices in self.option_choices.items():
            own = words.get(name, {})
            values = {value: own.get("values", {}).get(value, _value_words(value)) for value in choices}
            shown[name] = {"label": own.get("label", name.replace("_", " ").capitalize()),
                           "explains": own.get("explains", ""), "values": values}
        return shown

    def summary_lines(self, view: dict, seat: int) -> list[str]:
        """The seat's own position in lines (hand, points, supply), for its decision
        email. Default: none."""
        return []

    def score_words(self, score: Any) -> str:
        """One seat's final score (from `outcome()["scores"]`) in words, for the
        game-over email and the finished game's page. Default: nothing (the place in the
        ranking says it)."""
        return ""

    def end_words(self, reason: str) -> str:
        """Why the game ended (`outcome()["reason"]`) as a clause, "the bag ran out of
        tiles", for the game-over email and the finished game's page: from the
        narration module's `ENDINGS`; a reason it does not name, in plain words."""
        return self.narration.ENDINGS.get(reason) or reason.replace("_", " ")


@cache
def _option_words_of(package: str) -> dict[str, dict]:
    """A game package's `option_words.OPTION_WORDS`, or {} when it has none."""
    try:
        module = importlib.import_module(f"{package}.option_words")
    except ModuleNotFoundError as missing:
        if missing.name != f"{package}.option_words":
            raise
        return {}
    return module.OPTION_WORDS


def _value_words(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value).replace("_", " ")


def named_squares(move: dict) -> list[str]:
    """The squares a move names in its `square` or `squares` field (a board game's
    `touched_squares`)."""
    squares = move.get("squares") or ([move["square"]] if move.get("square") else [])
    return [str(square) for square in squares]
