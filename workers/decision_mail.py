"""What a "your decision" email says, computed from the engine alone: the decision in
words, what changed since the player's last decision (only what he may see), his hand
and score, and the choices that can be offered as one link each."""
from __future__ import annotations

import engine
from engine.grammar import move_kinds

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
    choices = []
    if kind is not None and kind != "action" and len(legal) <= MAX_LINK_CHOICES:
        choices = [{"label": game.describe(m), "text": game.format_move(m)} for m in legal]
    changes = [
        line
        for event in engine.events_for(events_since, seat)
        if (line := game.describe_event(event, names)) is not None
    ]
    waiting = {n: k for n, k in game.pending(state).items() if n != seat}
    return {
        "kind": kind,
        "move_kinds": move_kinds(game, legal) if kind is not None else [],
        "waiting_for": [names.get(n, f"seat {n}") for n in sorted(waiting)],
        "prompt": game.prompt(state, seat, names),
        "changes": changes,
        "hand": _counts(me.get("hand")),
        "scores": "your points: " + _counts(me.get("score")) if me.get("score") else "",
        "choices": choices,
        "reply_example": game.format_move(legal[0]) if legal else "",
        "view": view,
    }
