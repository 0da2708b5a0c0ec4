"""What a "your decision" email says, computed from the engine alone: the decision in
words, what changed since the player's last decision (only what he may see), his hand
and score, and the choices that can be offered as one link each (for a turn's action, which has
too many choices to list, only a choice without arguments such as a pass)."""
from __future__ import annotations

import engine

MAX_LINK_CHOICES = 12  # more choices than this are made on the game page


def _counts(counts: dict | None) -> str:
    if not counts:
        return ""
    return ", ".join(f"{n} {name}" for name, n in counts.items() if n) or "nothing"


def decision_summary(game, state, seat: int, names: dict, events_since: list[dict]) -> dict:
    view = game.view(state, seat)
    me = view["players"][seat]
    kind = game.pending(state).get(seat)
    legal = game.legal_moves(state, seat)
    linked = legal
    if kind == "action":  # too many to list: link only the moves without arguments (a pass)
        linked = [m for m in legal if set(m) == {"type"}]
    choices = []
    if kind is not None and len(linked) <= MAX_LINK_CHOICES:
        choices = [{"label": game.describe(m), "text": game.format_move(m)} for m in linked]
    changes = [
        line
        for event in engine.events_for(events_since, seat)
        if (line := game.describe_event(event, names)) is not None
    ]
    return {
        "kind": kind,
        "prompt": game.prompt(state, seat, names),
        "changes": changes,
        "hand": _counts(me.get("hand")),
        "scores": "your points: " + _counts(me.get("score")) if me.get("score") else "",
        "choices": choices,
        "reply_example": game.format_move(legal[0]) if legal else "",
        "view": view,
    }
