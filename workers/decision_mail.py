"""What a "your decision" email says, computed from the engine alone: the decision in
words, what changed since the player's last decision (only what he may see), his hand,
score, mana and resources, and the choices that can be offered as one link each (for a turn's
action, which has too many choices to list, only a choice without arguments such as
a pass)."""
from __future__ import annotations

import engine
from engine.grammar import move_kinds

MAX_LINK_CHOICES = 12  # more choices than this are made on the game page


def _counts(counts: dict | None) -> str:
    if not counts:
        return ""
    return ", ".join(f"{n} {name}" for name, n in counts.items() if n) or "nothing"


def _hand(game: engine.Game, hand) -> str:
    """A hand as counts by kind (a dict) or as the cards held (a list), each card as
    the game names it for players (an Eden cultivation card with its shape, a
    Civilization card by its name)."""
    label = game.card_label
    if isinstance(hand, list):
        return ", ".join(label(card) for card in hand) or "nothing"
    return _counts({label(card): n for card, n in hand.items()} if hand else hand)


def _you_play(me: dict, seat: int) -> str:
    """Which side the reader is, as the board picture names the sides."""
    if me.get("dynasty"):
        return f"You play the {me['dynasty']} (seat {seat})."
    if me.get("color"):
        return f"You play {me['color']} (seat {seat})."
    return ""


def _score(me: dict) -> str:
    """The player's score: points by colour (a dict), one number (`points`) or
    victory points with what makes them (`figures`)."""
    if me.get("score"):
        return _counts(me["score"]) if any(me["score"].values()) else "none yet"
    if isinstance(me.get("points"), int):
        return str(me["points"])
    if me.get("figures"):
        figures = me["figures"]
        return (f"{figures['vp']} VP ({figures['population']} population, "
                f"{figures['technologies']} technologies, {figures['wonders']} wonders)")
    return ""


def _link_moves(game: engine.Game, state, seat: int, kind: str, legal: list[dict]) -> list[dict]:
    """The moves offered as links: a game may name a few among many (`link_moves`,
    e.g. accept or raise a bid by 5 or 10, or end the turn); otherwise all, when they
    are few; for a turn's action, only the moves without arguments (a pass)."""
    named = game.link_moves(state, seat)
    if named is not None:
        return named
    # A standing answer (the card game's `set_answer`) is a setting, not a choice of this decision.
    choices = [move for move in legal if move.get("type") != "set_answer"]
    if kind == "action":
        return [move for move in choices if set(move) == {"type"}]
    return choices if len(choices) <= MAX_LINK_CHOICES else []


def decision_summary(game: engine.Game, state, seat: int, names: dict, events_since: list[dict]) -> dict:
    view = game.view(state, seat)
    me = view["players"][seat]
    kind = game.pending(state).get(seat)
    legal = game.legal_moves(state, seat)
    choices = []
    if kind is not None:
        links = _link_moves(game, state, seat, kind, legal)[:MAX_LINK_CHOICES]
        choices = [{"label": game.describe(m), "text": game.format_move(m)} for m in links]
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
        "you_play": _you_play(me, seat),
        "hand": _hand(game, me.get("hand")),
        "board_text": game.board_text(view),
        "mana": me.get("mana"),
        "resources": _counts(me["resources"]) if "resources" in me else "",
        "scores": _score(me),
        "choices": choices,
        "reply_example": game.format_move(legal[0]) if legal else "",
        "view": view,
    }
