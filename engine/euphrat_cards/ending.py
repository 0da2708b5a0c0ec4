"""Ending a game on a full table by agreement.

With every column and every gap full and no catastrophe left, no card can be played to
the table again. Cards may still leave hands (red cards in internal conflicts, ship
points), but once none can, nobody draws and neither of the rulebook's ends (the deck,
the treasures) can come: the rulebook names no end for this. The engine invents none;
the players may agree to end the game as it stands, ranked by the normal final scoring.
Whether the table is full depends on public facts only, so the offer to vote tells
nobody anything about a hand."""
from __future__ import annotations

from engine.core import IllegalMove
from engine.euphrat_cards.cards import MAX_UNDER
from engine.euphrat_cards.state import State
from engine.euphrat_cards.table import under

END_VOTE = "end_vote"


def table_full(s: State) -> bool:
    """No card can be played to the table again: every column and gap full, no catastrophe left."""
    return (all(under(column) >= MAX_UNDER for column in s.columns) and all(g >= 0 for g in s.gaps)
            and not any(s.catastrophes))


def may_propose(s: State) -> bool:
    """The active player may propose the end on a full table, once per turn."""
    return table_full(s) and s.end_proposed != s.turn and not s.offers


def propose_end(s: State, seat: int, events: list) -> None:
    if not table_full(s):
        raise IllegalMove("the game may be ended by agreement only when no card can be played to the table "
                          "(every column and gap full, no catastrophe left)", code="table_not_full")
    if s.end_proposed == s.turn:
        raise IllegalMove("you proposed to end the game this turn already", code="end_already_proposed")
    s.end_proposed = s.turn
    s.offers = s.offers + tuple({"kind": END_VOTE, "seat": other, "proposer": seat}
                                for other in range(s.players) if other != seat)
    events.append({"type": "end_proposed", "seat": seat})


def agree_end(s: State, seat: int, events: list) -> bool:
    """Record the seat's agreement; True when every player has agreed."""
    s.offers = tuple(o for o in s.offers if not (o["kind"] == END_VOTE and o["seat"] == seat))
    events.append({"type": "end_agreed", "seat": seat})
    return not any(o["kind"] == END_VOTE for o in s.offers)


def refuse_end(s: State, seat: int, events: list) -> None:
    """One refusal ends the vote: the game goes on."""
    s.offers = tuple(o for o in s.offers if o["kind"] != END_VOTE)
    events.append({"type": "end_refused", "seat": seat})
