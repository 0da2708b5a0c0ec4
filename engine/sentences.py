"""What the games' narrations share: plurals, counts of things held, and the plain
telling of an event that has no sentence of its own."""
from __future__ import annotations

from collections.abc import Callable


def count(n: int, noun: str) -> str:
    """`n noun`, with the plural when it is not one: 1 card, 2 cards."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def counts_text(counts: dict) -> str:
    """Things held by kind, those held at all: `2 red, 4 black`; "nothing" for none."""
    return ", ".join(f"{n} {name}" for name, n in counts.items() if n) or "nothing"


def told(sentences: dict[str, Callable[[], str]], event: dict, who: str) -> str:
    """The event's own sentence, else its type in words after the seat's name."""
    sentence = sentences.get(event.get("type", ""))
    if sentence is None:
        return f"{who + ': ' if event.get('seat') is not None else ''}{str(event.get('type')).replace('_', ' ')}."
    return sentence()


def turn_over(who: str, event: dict) -> str:
    """A `turn_ended` event told with its round, as the game page's log counts them; an
    event without one (from an older game record) is told without it."""
    if "round" in event:
        return f"{who}'s turn in round {event['round']} is over."
    return f"{who}'s turn is over."


def weakest_colours_first(score) -> str:
    """A Tigris-family final score (`outcome()["scores"]`: the colours' points sorted) in
    words for the game-over email: the colours from the weakest, the one that ranks."""
    weakest_first = score.get("sorted") if isinstance(score, dict) else None
    return "colours from weakest: " + " ".join(map(str, weakest_first)) if weakest_first else ""
