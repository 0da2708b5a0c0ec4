"""The text notation as a player needs it in an email: the kinds of moves open now,
each with its form and a few examples taken from the legal moves."""
from __future__ import annotations


def move_kinds(game, legal_moves: list[dict], examples: int = 3) -> list[dict]:
    """[{"form": "tile COLOR SQUARE", "examples": ["tile red F7", ...], "count": 291}]
    in the order the legal moves first show each kind; examples spread over the list."""
    by_verb: dict[str, list[dict]] = {}
    for move in legal_moves:
        by_verb.setdefault(game.format_move(move).split()[0], []).append(move)
    forms = getattr(game, "move_forms", ())
    kinds = []
    for verb, moves in by_verb.items():
        texts = _varied([game.format_move(m) for m in moves], examples)
        form = next((f for f in forms if f.split()[0] == verb), texts[0])
        kinds.append({"form": form, "examples": texts, "count": len(moves)})
    return kinds


def all_forms(game) -> list[str]:
    """Every form of the game's notation (for an answer to a reply that could not be read)."""
    return list(getattr(game, "move_forms", ()))


def _varied(texts: list[str], count: int) -> list[str]:
    """`count` examples that differ in their second word where they can (a red and a
    blue tile rather than three red ones), spread over the list."""
    step = max(1, len(texts) // count)
    spread = texts[::step] + texts
    chosen, seen = [], set()
    for text in spread:
        word = text.split()[1] if len(text.split()) > 1 else text
        if word not in seen and text not in chosen:
            chosen.append(text)
            seen.add(word)
    for text in spread:
        if len(chosen) >= count:
            break
        if text not in chosen:
            chosen.append(text)
    return chosen[:count]
