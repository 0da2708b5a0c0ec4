"""The text notation as a player needs it in an email: the kinds of moves open now,
each with its form and a few examples taken from the legal moves."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core import Game, IllegalMove, NotYourTurn


def move_kinds(game: Game, legal_moves: list[dict], examples: int = 3) -> list[dict]:
    """[{"form": "tile COLOR SQUARE", "examples": ["tile red F7", ...], "count": 291}]
    in the order the legal moves first show each kind; examples vary and spread over the list."""
    by_type: dict[str, list[dict]] = {}
    for move in legal_moves:
        by_type.setdefault(move["type"], []).append(move)
    forms = game.move_forms
    kinds = []
    for moves in by_type.values():
        chosen = _varied(moves, examples, game.format_move)
        kinds.append({"form": _form_of(chosen[0], forms) or chosen[0], "examples": chosen, "count": len(moves)})
    return kinds


def _form_of(example: str, forms) -> str | None:
    """The form an example is written in: the one whose leading literal words (before
    the first CAPITALISED placeholder) it starts with, the longest such."""
    words = example.lower().split()
    best, best_length = None, -1
    for form in forms:
        literal = []
        for word in form.split():
            if not word.islower():
                break
            literal.append(word)
        if words[:len(literal)] == literal and len(literal) > best_length:
            best, best_length = form, len(literal)
    return best


def all_forms(game: Game, options: dict | None = None) -> list[str]:
    """Every form of the game's notation (for an answer to a reply that could not be read);
    with the game's options, only the forms they allow (`forms_for`)."""
    return list(game.move_forms if options is None else game.forms_for(options))


def not_open(game: Any, state, seat: int, move: dict) -> IllegalMove:
    """The error for a move of a kind the seat's decision does not take, in the words a
    player types: the move as written and the forms open now (never the move's type)."""
    forms = [kind["form"] for kind in move_kinds(game, game.legal_moves(state, seat))]
    try:
        written = f"`{game.format_move(move)}`"
    except (TypeError, ValueError, KeyError, AttributeError, IndexError):  # fields of the wrong kind (JSON)
        written = "that move"
    return IllegalMove(
        f"{written} is not open now; moves open now: " + ", ".join(f"`{form}`" for form in forms),
        code="wrong_decision",
    )


def not_yours() -> NotYourTurn:
    """The error for a move by a seat that owes no decision (seats are numbered from 0 in
    the engine, so no number is named: the page and the email name the players waited for)."""
    return NotYourTurn("it is not your decision now; the game waits for another player")


def _varied(moves: list[dict], count: int, text_of: Callable[[dict], str]) -> list[str]:
    """`count` examples that differ in their second word where they can (a red and a
    blue tile rather than three red ones), spread over the list. Only the moves looked
    at are written out: a turn may have hundreds, and three examples are wanted."""
    step = max(1, len(moves) // count)
    spread = [*range(0, len(moves), step), *range(len(moves))]
    texts: dict[int, str] = {}

    def text(index: int) -> str:
        if index not in texts:
            texts[index] = text_of(moves[index])
        return texts[index]

    chosen: list[str] = []
    seen = set()
    for index in spread:
        words = text(index).split()
        word = words[1] if len(words) > 1 else text(index)
        if word not in seen and text(index) not in chosen:
            chosen.append(text(index))
            seen.add(word)
            if len(chosen) == count:
                return chosen
    for index in spread:
        if len(chosen) >= count:
            break
        if text(index) not in chosen:
            chosen.append(text(index))
    return chosen[:count]
