"""Text notation for moves (email replies) and one-line descriptions.

`irrigate B4`, `cultivate K3 B2 B3 C3`, `sell K3`, `buy K3`, `pass`, `contest C4`,
`uncontest`, `with B3`, `bid 25`, `accept`, `decline`. Case and spacing do not matter.
"""
from __future__ import annotations

from engine.core import MoveParseError
from engine.eden.board import CULTIVATION_NAMES, SQUARE_INDEX

FORMS = (
    "irrigate SQUARE", "cultivate CARD SQUARE SQUARE...", "sell CARD", "buy CARD", "pass",
    "contest SQUARE", "with SQUARE", "bid N", "accept", "decline", "uncontest",
)
_WORDS = {  # verb -> (move type, argument field, form)
    "irrigate": ("irrigate", "square", FORMS[0]),
    "sell": ("sell", "card", FORMS[2]),
    "buy": ("buy", "card", FORMS[3]),
    "pass": ("pass", None, FORMS[4]),
    "contest": ("contest", "square", FORMS[5]),
    "with": ("attack_with", "square", FORMS[6]),
    "accept": ("accept", None, FORMS[8]),
    "decline": ("decline", None, FORMS[9]),
    "no": ("decline", None, FORMS[9]),
    "uncontest": ("uncontest", None, FORMS[10]),
}


def parse_move(text: str) -> dict:
    if not isinstance(text, str):
        raise MoveParseError("a move in text must be a string")
    words = text.strip().upper().split()
    if not words:
        raise MoveParseError("empty move; expected one of: " + "; ".join(FORMS))
    verb, args = words[0].lower(), words[1:]
    if verb == "cultivate":
        if len(args) < 2:
            raise MoveParseError(f"could not read {text!r}: expected `{FORMS[1]}`")
        _check_word("card", args[0], text)
        for square in args[1:]:
            _check_word("square", square, text)
        return {"type": "cultivate", "card": args[0], "squares": args[1:]}
    if verb == "bid":
        if len(args) != 1 or not args[0].isdigit():
            raise MoveParseError(f"could not read {text!r}: expected `{FORMS[7]}`")
        return {"type": "bid", "amount": int(args[0])}
    if verb not in _WORDS:
        raise MoveParseError(f"unknown move {verb!r}; expected one of: " + "; ".join(FORMS))
    kind, field, form = _WORDS[verb]
    if len(args) != (0 if field is None else 1):
        raise MoveParseError(f"could not read {text!r}: expected `{form}`")
    if field is None:
        return {"type": kind}
    _check_word(field, args[0], text)
    return {"type": kind, field: args[0]}


# The words each field may be: a word outside them is a typo, never a move the rules refuse.
_VOCABULARY = {
    "square": (frozenset(SQUARE_INDEX), "a square (A1 to G7)"),
    "card": (frozenset(CULTIVATION_NAMES), "a cultivation card (" + ", ".join(CULTIVATION_NAMES) + ")"),
}


def _check_word(field: str, word: str, text: str) -> None:
    """MoveParseError when `word` is not one of the words `field` may be."""
    allowed, what = _VOCABULARY[field]
    if word not in allowed:
        raise MoveParseError(f"could not read {text!r}: {word!r} is not {what}")


def format_move(move: dict) -> str:
    """The move in text notation (what a player would type)."""
    kind = move.get("type")
    if kind == "cultivate":
        return " ".join(["cultivate", str(move["card"]), *map(str, move["squares"])])
    if kind == "bid":
        return f"bid {move['amount']}"
    for verb, (move_type, field, _) in _WORDS.items():
        if move_type == kind:
            return verb if field is None else f"{verb} {move[field]}"
    return str(kind)


def describe(move: dict) -> str:
    """One line in words, for logs and emails."""
    kind = move.get("type")
    if kind == "irrigate":
        return f"irrigate {move['square']}"
    if kind == "cultivate":
        return f"cultivate {', '.join(map(str, move['squares']))} with {move['card']}"
    if kind == "sell":
        return f"sell {move['card']} to the bank"
    if kind == "buy":
        return f"buy {move['card']} from the market"
    if kind == "pass":
        return "end the turn"
    if kind == "contest":
        return f"contest the tile on {move['square']}"
    if kind == "uncontest":
        return "give up the tiles contested, to choose again"
    if kind == "attack_with":
        return f"attack with {move['square']} too"
    if kind == "bid":
        return f"bid {move['amount']} mana per point"
    if kind == "accept":
        return "accept the bid"
    if kind == "decline":
        return "acquire nothing"
    return format_move(move)
