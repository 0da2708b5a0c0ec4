"""The card game's events as sentences with the players' names (for the game page's
log and the emails). An event type without a sentence here is told plainly."""
from __future__ import annotations

from engine.euphrat_cards.cards import COLORS, COLUMN_LETTERS, GAP_NAMES, LEADERS, RED, SHIP_NAMES
from engine.euphrat_cards.conflicts import base_strength, support_color, supporting_side
from engine.euphrat_cards.ending import may_propose
from engine.euphrat_cards.notation import describe
from engine.euphrat_cards.rewards import can_take, offer_for, ship_choices
from engine.sentences import count, told

OFFERS = {"score": "to score a card", "ship": "to build a ship", "treasure": "to swap for a treasure"}
# The end by treasures comes at the end of a turn with at most one treasure card on
# the table; none is left when a catastrophe removed the last but one.
ENDINGS = {"deck": "the deck ran out", "treasures": "only one treasure card or none is left on the table",
           "agreed": "the players agreed to end it, no card being playable to the table"}
ANSWERS = {"ask": "be asked about", "decline": "decline without being asked"}
SCORE_REASONS = {"card": "for a card played", "trader": "for a treasure",
                 "internal conflict": "for an internal conflict",
                 "external conflict": "for an external conflict"}


def cards(counts: dict, noun: str = "card") -> str:
    return ", ".join(count(n, f"{color} {noun}") for color, n in counts.items() if n) or f"no {noun}s"


def describe_event(event: dict, names: dict) -> str | None:
    def name(seat):
        return names.get(seat, f"seat {seat}")

    who = name(event.get("seat"))
    sentences = {
        "card_played": lambda: (f"{who} played a card face down into gap {event.get('place')}."
                                if event.get("face_down")
                                else f"{who} played a {event.get('color')} card on column {event.get('place')}."),
        "leader_placed": lambda: f"{who} put the {event['leader']} on {event['card']}.",
        "leader_moved": lambda: f"{who} moved the {event['leader']} from {event['from']} to {event['card']}.",
        "leader_withdrawn": lambda: f"{who} took the {event['leader']} back from {event['card']}.",
        "leader_returned": lambda: f"{who}'s {event['leader']} went back to the supply"
                                   + (" after losing the conflict." if event.get("reason") == "conflict" else "."),
        "catastrophe_played": lambda: f"{who} played a catastrophe on {event['card']}"
                                      + (f", removing a {event['removed']} card." if event.get("removed") else "."),
        "turn_passed": lambda: f"{who} passed.",
        "end_proposed": lambda: f"{who} proposed to end the game as it stands: no card can be played to the table.",
        "end_agreed": lambda: f"{who} agreed to end the game.",
        "end_refused": lambda: f"{who} refused to end the game; it goes on.",
        "offer_declined": lambda: f"{who} declined the offer {OFFERS.get(event.get('offer', ''), event.get('offer'))}.",
        "cards_drawn": lambda: f"{who} drew {count(event['count'], 'card')}.",
        "cards_received": lambda: f"{who} drew {cards(event.get('cards') or {})}.",
        "answer_set": lambda: f"{who} will {ANSWERS.get(event.get('answer', ''), 'answer')} every "
                              f"{event.get('offer')} offer from now on.",
        "points_scored": lambda: f"{who} scored {cards(event.get('cards') or {}, 'point')} "
                                 f"{_score_reason(str(event.get('reason')))}.",
        "conflict_started": lambda: f"{event['kind'].capitalize()} conflict over the {event['color']} leader: "
                                    f"{name(event['attacker'])} attacks {name(event['defender'])}.",
        "support_committed": lambda: f"{who} commits {count(event['count'], event.get('color', '') + ' supporter')} "
                                     f"as the {event['side']}.",
        "conflict_resolved": lambda: _resolved(event, name),
        "kingdoms_united": lambda: f"{who} united two kingdoms at gap {event['gap']}"
                                   + (f"; conflicts follow in {', '.join(event['conflicts'])}."
                                      if event.get("conflicts") else "."),
        "card_revealed": lambda: f"The face-down card in gap {event['gap']} is turned up: {event['color']}.",
        "conflict_chosen": lambda: f"{who} chose to fight the {event['color']} conflict next.",
        "conflicts_vanished": lambda: f"No longer in conflict: {', '.join(event.get('colors', []))}.",
        "treasure_swapped": lambda: f"{who} took a treasure from column {event['column']}.",
        "ship_built": lambda: f"{who} built the {event['ship']} ship on column {event['column']}"
                              + (f", discarding {cards(event['discarded'])}." if event.get("discarded") else "."),
        "turn_ended": lambda: f"{who}'s turn is over.",
        "game_ended": lambda: _ended(event, name),
    }
    return told(sentences, event, who)


def _score_reason(reason: str) -> str:
    """Why points were scored; ship points name the leader beside the ship (`ship (farmer)`)."""
    if reason in SCORE_REASONS:
        return SCORE_REASONS[reason]
    if reason.startswith("ship (") and reason.endswith(")"):
        return f"for a ship in the {reason[len('ship ('):-1]}'s kingdom"
    return f"for {reason}"


def _resolved(event: dict, name) -> str:
    high, low = sorted((event["attacker_strength"], event["defender_strength"]), reverse=True)
    strengths = f"{high} to {low}"
    tie = event["attacker_strength"] == event["defender_strength"]
    text = (f"{name(event['winner'])} won the {event['kind']} {event['color']} conflict against "
            f"{name(event['loser'])}, {strengths}" + (" (a tie goes to the defender)" if tie else ""))
    if event.get("leader_returned"):
        text += f"; {name(event['loser'])}'s {event['leader_returned']} goes back"
    taken = event.get("cards_taken") or []
    if taken:
        text += f"; {count(len(taken), 'card')} taken from the table"
    return text + "."


def _ended(event: dict, name) -> str:
    text = f"The game ended: {ENDINGS.get(event.get('reason', ''), str(event.get('reason')).replace('_', ' '))}."
    ranking = event.get("ranking") or []
    if ranking and ranking[0]:
        first = [name(seat) for seat in ranking[0]]
        text += f" {first[0]} won." if len(first) == 1 else f" Tied for first: {' and '.join(first)}."
    return text



PROMPTS = {
    "action": "Your turn, {actions}: play a card from your hand to a column or a gap, place, move or "
              "withdraw a leader, {catastrophe}or end the turn.",
    "conflict_order": "Two kingdoms joined at gap {gap}: conflicts wait over {colors}. As the player whose "
                      "turn it is, choose which one is fought first.",
    "score": "{why}: you may move a {color} card from your hand to your victory pile (1 point), or decline.",
    "ship": "Four {color} cards lie at the bottom of column {column}: you may build {ships} there "
            "(the four cards go, leaders on them go home), or decline.",
    "treasure": "Your trader's kingdom now holds treasures in columns {columns}: you may swap one for a red "
                "card from your hand (the treasure goes to your victory pile), or decline.",
    "end_vote": "{proposer} proposes to end the game as it stands: no card can be played to the table again "
                "and the rulebook names no end for this. Agree to end it (normal final scoring), or refuse "
                "and play on.",
}
FULL_TABLE = ("No card can be played to the table again, and the rulebook names no end for this: "
              "you may propose to end the game as it stands (normal final scoring), if every player agrees.")
# Why a card may be scored, by the offer's reason.
SCORE_WHY = {"card": "A {color} card was played in your kingdom",
             "internal conflict": "You won the internal conflict with no card committed",
             "external conflict": "You won the {color} conflict with no card committed"}
# Offers are put to a player whatever his hand holds, so that the question tells nobody
# anything; the prompt, which only he reads, says when he cannot accept.
ASKED_ANYWAY = " You are asked whatever you hold, so the question tells nobody about your hand."


def prompt(s, seat: int, kind: str, names: dict) -> str:
    """The decision `seat` owes, in words: what it may do now and why it is asked."""
    if kind == "support":
        return support_prompt(s, seat, names)
    if kind == "action":
        left = count(s.actions_left, "action") + " left"
        catastrophe = "play your catastrophe, " if s.catastrophes[seat] else ""
        return PROMPTS["action"].format(actions=left, catastrophe=catastrophe) + (
            " " + FULL_TABLE if may_propose(s) else "")
    if kind == "conflict_order":
        colors = ", ".join(COLORS[c] for c in s.union["colors"])
        return PROMPTS[kind].format(gap=GAP_NAMES[s.union["gap"]], colors=colors)
    offer = offer_for(s, seat) or {}
    if kind == "end_vote":
        return PROMPTS[kind].format(proposer=names.get(offer.get("proposer"), "A player"))
    if kind == "score":
        color = COLORS[offer["color"]]
        why = SCORE_WHY.get(offer["reason"], "You may score").format(color=color)
        text = PROMPTS[kind].format(why=why, color=color)
        lacking = f"no {color} card"
    elif kind == "ship":
        ships = " or ".join(f"the {SHIP_NAMES[code]} ship" for code in ship_choices(s, offer["color"]))
        return PROMPTS[kind].format(color=COLORS[offer["color"]], column=COLUMN_LETTERS[offer["column"]],
                                    ships=ships)
    else:
        text = PROMPTS[kind].format(columns=", ".join(COLUMN_LETTERS[c] for c in offer["columns"]))
        lacking = f"no {COLORS[RED]} card"
    if not can_take(s, offer):
        return text + f" You hold {lacking}, so decline." + ASKED_ANYWAY
    return text + ASKED_ANYWAY


def support_prompt(s, seat: int, names: dict) -> str:
    """The support decision in words: the seat's side, both strengths so far (the
    attacker's committed cards counted once known), what may be committed."""
    conflict = s.conflict
    side = supporting_side(s)
    other = "defender" if side == "attacker" else "attacker"
    theirs = base_strength(s, other) + (conflict["attacker_commit"] or 0 if other == "attacker" else 0)
    color = support_color(conflict)
    rival = names.get(conflict[other], f"seat {conflict[other]}")
    text = (f"You {'attack' if side == 'attacker' else 'defend'} in the {conflict['kind']} "
            f"{COLORS[conflict['color']]} conflict (the {LEADERS[conflict['color']]}s) against {rival}. "
            f"Strength so far: you {base_strength(s, side)}, {rival} {theirs}")
    if side == "defender":
        text += f" (with the {count(conflict['attacker_commit'], 'card')} committed)"
    return (text + f". Commit up to {count(s.hands[seat][color], COLORS[color] + ' card')} from your hand; "
            "a tie goes to the defender.")


DECLINED = {"score": "decline to score a {color} card", "ship": "decline to build a ship on column {column}",
            "treasure": "decline to swap a treasure"}


def describe_choice(s, seat: int, move: dict) -> str:
    """A legal move of `seat` as a link or a button: what it acts on, named."""
    kind = move.get("type")
    offer = offer_for(s, seat) or {}
    if kind == "commit_support" and s.conflict is not None:
        color = COLORS[support_color(s.conflict)]
        cards_committed = count(move["count"], f"{color} card") if move["count"] else "no card"
        return f"commit {cards_committed} to the {COLORS[s.conflict['color']]} conflict"
    if kind == "score" and "color" in offer:
        return f"score a {COLORS[offer['color']]} card from your hand"
    if kind == "build_ship" and "column" in offer:
        return f"build the {move['ship']} ship on column {COLUMN_LETTERS[offer['column']]}"
    if kind == "decline" and offer.get("kind") in DECLINED:
        return DECLINED[offer["kind"]].format(color=COLORS[offer.get("color", RED)],
                                              column=COLUMN_LETTERS[offer.get("column", 0)])
    return describe(move)
