"""Text notation for moves (email replies) and one-line descriptions.

`play red C`, `play red CD`, `leader king C2`, `withdraw king`, `catastrophe C2`,
`pass`, `support 2`, `conflict black`, `score`, `ship blue-green`, `treasure C`,
`decline`, `answer score decline`, `propose end`, `agree end`, `refuse end`. Case and
spacing do not matter.
"""
from __future__ import annotations

from engine.core import MoveParseError
from engine.euphrat_cards.cards import COLORS, COLUMN_LETTERS, GAP_NAMES, LEADERS, SHIP_CODES, parse_place
from engine.euphrat_cards.state import STANDING_ANSWERS

FORMS = (
    "play COLOR COLUMN|GAP", "leader LEADER CARD", "withdraw LEADER", "catastrophe CARD",
    "pass", "support N", "conflict COLOR", "score", "ship SHIP", "treasure COLUMN", "decline",
    "answer OFFER ANSWER", "propose end", "agree end", "refuse end",
)
# The vote to end a game whose table is full: two words each.
_END_VOTE = {"propose end": "propose_end", "agree end": "agree_end", "refuse end": "refuse_end"}
END_VOTE_FORMS = tuple(_END_VOTE)
_WORDS = {  # verb -> (move type, argument fields, form)
    "play": ("play_card", ("color", "place"), FORMS[0]),
    "leader": ("place_leader", ("leader", "card"), FORMS[1]),
    "withdraw": ("withdraw_leader", ("leader",), FORMS[2]),
    "catastrophe": ("play_catastrophe", ("card",), FORMS[3]),
    "pass": ("pass", (), FORMS[4]),
    "conflict": ("choose_conflict", ("color",), FORMS[6]),
    "score": ("score", (), FORMS[7]),
    "ship": ("build_ship", ("ship",), FORMS[8]),
    "treasure": ("swap_treasure", ("column",), FORMS[9]),
    "decline": ("decline", (), FORMS[10]),
    "no": ("decline", (), FORMS[10]),
    "answer": ("set_answer", ("offer", "answer"), FORMS[11]),
}
_UPPER = {"place", "card", "column"}
_ANSWER_WORDS = {
    "ask": "from now on, ask me about every {offer} offer",
    "decline": "from now on, decline every {offer} offer without asking me",
}


def parse_move(text: str) -> dict:
    if not isinstance(text, str):
        raise MoveParseError("a move in text must be a string")
    words = text.strip().lower().split()
    if not words:
        raise MoveParseError("empty move; expected one of: " + "; ".join(FORMS))
    verb, args = words[0], words[1:]
    if " ".join(words) in _END_VOTE:
        return {"type": _END_VOTE[" ".join(words)]}
    if verb == "support":
        if len(args) != 1 or not args[0].isdigit():
            raise MoveParseError(f"could not read {text!r}: expected `{FORMS[5]}`")
        return {"type": "commit_support", "count": int(args[0])}
    if verb not in _WORDS:
        raise MoveParseError(f"unknown move {verb!r}; expected one of: " + "; ".join(FORMS))
    kind, fields, form = _WORDS[verb]
    if len(args) != len(fields):
        raise MoveParseError(f"could not read {text!r}: expected `{form}`")
    move = {"type": kind}
    for field, word in zip(fields, args):
        move[field] = word.upper() if field in _UPPER else word
        _check_word(field, move[field], text)
    if kind == "set_answer" and move["answer"] not in STANDING_ANSWERS.get(move["offer"], ()):
        raise MoveParseError(f"could not read {text!r}: {move['answer']!r} is not an answer (ask, decline)")
    return move


_COLUMNS = frozenset(COLUMN_LETTERS)
# The words each field may be: a word outside them is a typo, never a move the rules refuse.
_VOCABULARY = {
    "color": (lambda word: word in COLORS, "a colour (" + ", ".join(COLORS) + ")"),
    "leader": (lambda word: word in LEADERS or word in COLORS, "a leader (" + ", ".join(LEADERS) + ")"),
    "place": (lambda word: word in _COLUMNS or word in GAP_NAMES, "a column (A-H) or a gap (AB, BC, ... GH)"),
    "card": (lambda word: parse_place(word) is not None,
             "a card (a column letter A-H and a row, C0 the column's head, or a gap AB..GH)"),
    "column": (lambda word: word in _COLUMNS, "a column (A-H)"),
    "ship": (lambda word: word in SHIP_CODES, "a ship (" + ", ".join(SHIP_CODES) + ")"),
    "offer": (lambda word: word in STANDING_ANSWERS, "an offer (" + ", ".join(STANDING_ANSWERS) + ")"),
}


def _check_word(field: str, word: str, text: str) -> None:
    """MoveParseError when `word` is not one of the words `field` may be."""
    fits, what = _VOCABULARY.get(field, (None, ""))
    if fits is not None and not fits(word):
        raise MoveParseError(f"could not read {text!r}: {word!r} is not {what}")


def format_move(move: dict) -> str:
    """The move in text notation (what a player would type)."""
    kind = move.get("type")
    if kind == "commit_support":
        return f"support {move['count']}"
    for text, vote in _END_VOTE.items():
        if vote == kind:
            return text
    for verb, (move_type, fields, _) in _WORDS.items():
        if move_type == kind:
            return " ".join([verb, *(str(move[f]) for f in fields)])
    return str(kind)


def describe(move: dict) -> str:
    """One line in words, for logs and emails."""
    kind = move.get("type")
    if kind == "play_card":
        place = str(move["place"])
        where = f"gap {place}" if len(place) == 2 else f"column {place}"
        return f"play a {move['color']} card in {where}"
    if kind == "place_leader":
        return f"put the {move['leader']} on card {move['card']}"
    if kind == "withdraw_leader":
        return f"withdraw the {move['leader']}"
    if kind == "play_catastrophe":
        return f"play the catastrophe on card {move['card']}"
    if kind == "pass":
        return "end the turn"
    if kind == "commit_support":
        count = move["count"]
        return f"commit {count} card{'s' if count != 1 else ''} to the conflict"
    if kind == "choose_conflict":
        return f"fight the {move['color']} conflict next"
    if kind == "score":
        return "score a card from hand"
    if kind == "build_ship":
        return f"build the {move['ship']} ship"
    if kind == "swap_treasure":
        return f"swap the treasure of column {move['column']} for a red card"
    if kind == "decline":
        return "decline"
    if kind == "propose_end":
        return "propose to end the game as it stands"
    if kind == "agree_end":
        return "agree to end the game as it stands"
    if kind == "refuse_end":
        return "refuse to end the game"
    if kind == "set_answer":
        words = _ANSWER_WORDS.get(str(move["answer"]), "answer {offer} offers: {answer}")
        return words.format(offer=move["offer"], answer=move["answer"])
    return format_move(move)
