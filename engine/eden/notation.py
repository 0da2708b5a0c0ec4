"""Text notation for moves (email replies) and one-line descriptions.

`irrigate B4`, `cultivate card 3 B2 B3 C3`, `sell card 3`, `buy card 3`, `pass`,
`contest C4`, `uncontest`, `with B3`, `bid 25`, `accept`, `decline`. Case and spacing
do not matter. A cultivation card is written `card 3` (also `card3` or its id `K3`,
which the JSON moves carry): players never see the id, which reads like a square.
"""
from __future__ import annotations

from engine.core import MoveParseError
from engine.eden.board import (
    BUY_FEE,
    CARD_ID_BY_NUMBER,
    CULTIVATION_NAMES,
    SHAPE_CELLS,
    SHAPE_NAMES,
    SQUARE_INDEX,
    SQUARE_PRICE,
    card_number,
)

FORMS = (
    "irrigate SQUARE", "cultivate card N SQUARE SQUARE...", "sell card N", "buy card N", "pass",
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
_CARDS = "a cultivation card (card 1 to card " + str(len(CULTIVATION_NAMES)) + ")"


def parse_move(text: str) -> dict:
    if not isinstance(text, str):
        raise MoveParseError("a move in text must be a string")
    words = text.strip().upper().split()
    if not words:
        raise MoveParseError("empty move; expected one of: " + "; ".join(FORMS))
    verb, args = words[0].lower(), words[1:]
    if verb == "cultivate":
        card, squares = _take_card(args, text, FORMS[1])
        if not squares:
            raise MoveParseError(f"could not read {text!r}: expected `{FORMS[1]}`")
        for square in squares:
            _check_square(square, text)
        return {"type": "cultivate", "card": card, "squares": squares}
    if verb == "bid":
        if len(args) != 1 or not args[0].isdigit():
            raise MoveParseError(f"could not read {text!r}: expected `{FORMS[7]}`")
        return {"type": "bid", "amount": int(args[0])}
    if verb not in _WORDS:
        raise MoveParseError(f"unknown move {verb!r}; expected one of: " + "; ".join(FORMS))
    kind, field, form = _WORDS[verb]
    if field == "card":
        card, rest = _take_card(args, text, form)
        if rest:
            raise MoveParseError(f"could not read {text!r}: expected `{form}`")
        return {"type": kind, "card": card}
    if len(args) != (0 if field is None else 1):
        raise MoveParseError(f"could not read {text!r}: expected `{form}`")
    if field is None:
        return {"type": kind}
    _check_square(args[0], text)
    return {"type": kind, field: args[0]}


def _take_card(args: list[str], text: str, form: str) -> tuple[str, list[str]]:
    """The card at the start of `args` (`card 3`, `cultivation card 3`, `card3`, `K3`),
    as its id, and the words after it. A word that is no card is a typo, never a move
    the rules refuse."""
    if args[:1] == ["CULTIVATION"]:
        args = args[1:]
    if not args:
        raise MoveParseError(f"could not read {text!r}: expected `{form}`")
    number: str | None = None
    if args[0] == "CARD":
        if len(args) < 2:
            raise MoveParseError(f"could not read {text!r}: expected `{form}`")
        word, number, rest = " ".join(args[:2]), args[1], args[2:]
    else:
        word, rest = args[0], args[1:]
        if word.startswith("CARD"):
            number = word[4:]
    card = CARD_ID_BY_NUMBER.get(number) if number is not None else (word if word in CULTIVATION_NAMES else None)
    if card is None:
        raise MoveParseError(f"could not read {text!r}: {_as_written(word, text)!r} is not {_CARDS}")
    return card, rest


def _as_written(word: str, text: str) -> str:
    """`word` (read in capitals) as the player wrote it in `text`."""
    start = " ".join(text.split()).upper().find(word)
    return " ".join(text.split())[start:start + len(word)] if start >= 0 else word


def _check_square(word: str, text: str) -> None:
    """MoveParseError when `word` is not a square of the board."""
    if word not in SQUARE_INDEX:
        raise MoveParseError(f"could not read {text!r}: {word!r} is not a square (A1 to G7)")


def card_words(card: str) -> str:
    """A cultivation card as a player types it (`card 3`); anything else as given."""
    return f"card {card_number(card)}" if card in SHAPE_NAMES else str(card)


def format_move(move: dict) -> str:
    """The move in text notation (what a player would type)."""
    kind = move.get("type")
    if kind == "cultivate":
        return " ".join(["cultivate", card_words(move["card"]), *map(str, move["squares"])])
    if kind == "bid":
        return f"bid {move['amount']}"
    for verb, (move_type, field, _) in _WORDS.items():
        if move_type == kind:
            if field is None:
                return verb
            return f"{verb} {card_words(move[field]) if field == 'card' else move[field]}"
    return str(kind)


def card_with_shape(card: str) -> str:
    """A cultivation card as `card 3 (L tromino)`; anything else as given."""
    return f"{card_words(card)} ({SHAPE_NAMES[card]})" if card in SHAPE_NAMES else str(card)


def _price(card: str, buying: bool) -> int:
    """What the bank pays for a cultivation card, or the market asks (0 for no such card)."""
    if card not in SHAPE_CELLS:
        return 0
    return SQUARE_PRICE * len(SHAPE_CELLS[card]) + (BUY_FEE if buying else 0)


def describe(move: dict) -> str:
    """One line in words, for logs and emails."""
    kind = move.get("type")
    if kind == "irrigate":
        return f"irrigate {move['square']}"
    if kind == "cultivate":
        return f"cultivate {', '.join(map(str, move['squares']))} with {card_with_shape(move['card'])}"
    if kind == "sell":
        price = _price(move["card"], False)
        return f"sell {card_with_shape(move['card'])} to the bank{f' for {price} mana' if price else ''}"
    if kind == "buy":
        price = _price(move["card"], True)
        return f"buy {card_with_shape(move['card'])} from the market{f' for {price} mana' if price else ''}"
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
