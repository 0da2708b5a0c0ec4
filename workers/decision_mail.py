"""What a "your decision" email says, computed from the engine alone: the decision in
words, what changed since the player's last decision (only what he may see), his own
position in the game's words (`summary_lines`: his side, hand, holdings, points), and
the choices that can be offered as one link each (for a turn's action, which has too
many choices to list, only a choice without arguments such as a pass)."""
from __future__ import annotations

import engine
from engine.grammar import move_kinds

MAX_LINK_CHOICES = 12  # more choices than this are made on the game page


def _link_moves(game: engine.Game, state, seat: int, kind: str, legal: list[dict]) -> list[dict]:
    """The moves offered as links: a game may name a few among many (`link_moves`,
    e.g. accept or raise a bid by 5 or 10, or end the turn); otherwise all, when they
    are few; for a turn's action, only the moves without arguments (a pass)."""
    named = game.link_moves(state, seat)
    if named is not None:
        return named
    # A setting (a standing answer to a later offer) is not a choice of this decision.
    choices = [move for move in legal if move.get("type") not in game.setting_moves]
    if kind == "action":
        return [move for move in choices if set(move) == {"type"}]
    return choices if len(choices) <= MAX_LINK_CHOICES else []


def decision_summary(game: engine.Game, state, seat: int, names: dict, events_since: list[dict]) -> dict:
    view = game.view(state, seat)
    kind = game.pending(state).get(seat)
    legal = game.legal_moves(state, seat)
    choices = []
    if kind is not None:
        links = _link_moves(game, state, seat, kind, legal)[:MAX_LINK_CHOICES]
        choices = [{"label": game.choice_label(state, seat, m), "text": game.format_move(m)} for m in links]
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
        "summary_lines": game.summary_lines(view, seat),
        "board_text": game.board_text(view),
        "choices": choices,
        "reply_example": game.format_move(legal[0]) if legal else "",
        "view": view,
    }
