"""Text notation for moves (email replies) and one-line descriptions.

`tile red F7`, `leader king G6`, `withdraw king`, `catastrophe F7`,
`swap red red blue`, `support 3`, `war black`, `monument red-black F7`,
`no monument`, `treasure B2`, `pass`, `building F7`, `no building`, `ziggurat H6`,
`no ziggurat`, `ziggurat point red`, `take red`, `blind 2`. Case and spacing do not matter.
"""
from __future__ import annotations

from engine.core import MoveParseError
from engine.tigris.board import SQUARE_NAMES
from engine.tigris.state import COLOR_INDEX, COLORS, LEADER_INDEX, LEADERS, MONUMENT_NAMES, TILE_NAMES

# Each form of the notation: its words (capitals are the values) and the move it gives,
# the values filling the move's fields in order. `swap` takes any number of colours.
NOTATION = (
    ("tile COLOR SQUARE", "place_tile", ("color", "square")),
    ("leader LEADER SQUARE", "place_leader", ("leader", "square")),
    ("withdraw LEADER", "withdraw_leader", ("leader",)),
    ("catastrophe SQUARE", "place_catastrophe", ("square",)),
    ("swap COLOR [COLOR ...]", "swap_tiles", ("tiles",)),
    ("support N", "commit_support", ("count",)),
    ("war COLOR", "choose_war", ("color",)),
    ("monument COLOR-COLOR SQUARE", "build_monument", ("monument", "square")),
    ("no monument", "decline_monument", ()),
    ("treasure SQUARE", "take_treasure", ("square",)),
    ("pass", "pass", ()),
    ("building SQUARE", "place_building", ("square",)),
    ("no building", "decline_building", ()),
    ("ziggurat point COLOR", "take_ziggurat_point", ("color",)),
    ("ziggurat SQUARE", "build_ziggurat", ("square",)),
    ("no ziggurat", "decline_ziggurat", ()),
    ("take COLOR", "take_display_tile", ("color",)),
    ("blind N", "draw_blind", ("count",)),
)
FORMS = tuple(form for form, _, _ in NOTATION)
_FORM_OF = {kind: (form, fields) for form, kind, fields in NOTATION}


def parse_move(text: str) -> dict:
    if not isinstance(text, str):
        raise MoveParseError("a move in text must be a string")
    words = text.strip().lower().split()
    if not words:
        raise MoveParseError("empty move; expected one of: " + "; ".join(FORMS))
    if words[0] == "swap" and len(words) > 1:
        tiles: dict[str, int] = {}
        for word in words[1:]:
            _check_word("COLOR", word, text)
            tiles[word] = tiles.get(word, 0) + 1
        return {"type": "swap_tiles", "tiles": tiles}
    near = []
    for form, kind, fields in NOTATION:
        pattern = form.split()
        if pattern[0] != words[0]:
            continue
        near.append(form)
        move = _match(pattern, words, kind, fields)
        if move is not None:
            for expected, word in zip(pattern, words):
                _check_word(expected, word, text)
            return move
    if near:
        raise MoveParseError(f"could not read {text!r}: expected {' or '.join(f'`{f}`' for f in near)}")
    raise MoveParseError(f"unknown move {words[0]!r}; expected one of: " + "; ".join(FORMS))


# The words each value may be: a word outside them is a typo, never a move the rules refuse.
_VOCABULARY = {
    "COLOR": (frozenset(COLORS), "a colour (" + ", ".join(COLORS) + ")"),
    "LEADER": (frozenset(LEADER_INDEX) | frozenset(COLOR_INDEX), "a leader (" + ", ".join(LEADERS) + ")"),
    "SQUARE": (frozenset(name.lower() for name in SQUARE_NAMES), "a square (A1 to P11)"),
    "COLOR-COLOR": (frozenset(MONUMENT_NAMES), "a monument (" + ", ".join(MONUMENT_NAMES) + ")"),
}


def _check_word(expected: str, word: str, text: str) -> None:
    """MoveParseError when `word` is not one of the words the value `expected` may be."""
    allowed = _VOCABULARY.get(expected)
    if allowed is not None and word not in allowed[0]:
        shown = word.upper() if expected == "SQUARE" else word
        raise MoveParseError(f"could not read {text!r}: {shown!r} is not {allowed[1]}")


def _match(pattern: list[str], words: list[str], kind: str, fields: tuple) -> dict | None:
    """The move of `words` if they fit the form `pattern`, else None."""
    if len(pattern) != len(words):
        return None
    values: list[int | str] = []
    for expected, word in zip(pattern, words):
        if expected.islower():
            if word != expected:
                return None
        elif expected == "N":
            if not word.isdigit():
                return None
            values.append(int(word))
        else:
            values.append(word.upper() if expected == "SQUARE" else word)
    return {"type": kind, **dict(zip(fields, values))}


def format_move(move: dict) -> str:
    """The move in text notation (what a player would type)."""
    kind = move.get("type")
    if kind == "swap_tiles":
        return "swap " + " ".join(c for c, n in move["tiles"].items() for _ in range(n))
    if kind not in _FORM_OF:
        return str(kind)
    form, fields = _FORM_OF[kind]
    values = iter(str(move[field]) for field in fields)
    return " ".join(word if word.islower() else next(values) for word in form.split())


def describe(move: dict) -> str:
    """One line in words, for logs and emails."""
    kind = move.get("type")
    if kind == "place_tile" and move.get("color") in COLORS:
        return f"place a {move['color']} {TILE_NAMES[COLORS.index(move['color'])]} on {move['square']}"
    if kind == "place_leader":
        return f"put the {_leader_name(move['leader'])} on {move['square']}"
    if kind == "withdraw_leader":
        return f"withdraw the {_leader_name(move['leader'])}"
    if kind == "place_catastrophe":
        return f"place a catastrophe on {move['square']}"
    if kind == "swap_tiles":
        return f"swap {sum(move['tiles'].values())} tiles"
    if kind == "commit_support":
        count = move["count"]
        return f"commit {count} supporter{'s' if count != 1 else ''}"
    if kind == "choose_war":
        return f"fight the {move['color']} war next"
    if kind == "build_monument":
        return f"build the {move['monument']} monument on {move['square']}"
    if kind == "decline_monument":
        return "build no monument"
    if kind == "take_treasure":
        return f"take the treasure on {move['square']}"
    if kind == "pass":
        return "pass: take no more actions this turn"
    if kind == "place_building":
        return f"put the building on {move['square']}"
    if kind == "decline_building":
        return "place no building"
    if kind == "build_ziggurat":
        return f"build the ziggurat with its centre on {move['square']}"
    if kind == "decline_ziggurat":
        return "build no ziggurat"
    if kind == "take_ziggurat_point":
        return f"take the ziggurat's point in {move['color']}"
    if kind == "take_display_tile" and move.get("color") in COLORS:
        return f"take the face-up {move['color']} {TILE_NAMES[COLORS.index(move['color'])]}"
    if kind == "draw_blind":
        count = move["count"]
        return f"draw {count} tile{'s' if count != 1 else ''} from the bag"
    return format_move(move)


def _leader_name(word: str) -> str:
    if word in COLORS:
        return LEADERS[COLORS.index(word)]
    return word if word in LEADER_INDEX else str(word)


__all__ = ["parse_move", "format_move", "describe", "MONUMENT_NAMES"]
