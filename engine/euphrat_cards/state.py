"""The card game's state: a compact mutable record, copied once per `apply`.

The table is 8 columns (lists of card codes, head first) and 7 gaps (a card code or
-1). The JSON form (docs/games/euphrat-cards.md) is the public, hand-writable format;
`to_json`/`from_json` convert exactly.
"""
from __future__ import annotations

from typing import Any

from engine.core import IllegalMove
from engine.euphrat_cards.cards import (
    CARD_CHARS,
    CATASTROPHES,
    COLOR_INDEX,
    COLORS,
    COLUMN_LETTERS,
    COLUMNS,
    DECK_COUNTS,
    DYNASTIES,
    GAP_BASE,
    GAPS,
    LEADER_INDEX,
    LEADERS,
    RED,
    ROW_SPAN,
    SHIP,
    SHIP_CODES,
    SHIP_NAMES,
    TREASURE,
    TREASURES,
    card_color,
    gap_index,
    parse_place,
    place_name,
)

DISCARD_KINDS = (*COLORS, "treasure", "catastrophe")
CATASTROPHE_DISCARD = 5
# A seat's standing answer to each kind of offer that pays with a hand card: asked each
# time, or declined without asking. Private to the seat. (No standing "accept": its
# outcome would show, within another seat's move, whether the hand held the card.)
STANDING_ANSWERS = {"score": ("ask", "decline"), "treasure": ("ask", "decline")}
ASK = {kind: "ask" for kind in STANDING_ANSWERS}


class State:
    """One position. Treat as immutable outside the rules modules of this package."""

    __slots__ = (
        "options", "columns", "gaps", "ships", "leaders", "hands", "catastrophes", "vp", "answers",
        "deck", "removed", "unused_catastrophes", "discard", "rng", "turn", "active",
        "actions_left", "conflict", "union", "offers", "finished", "end_proposed",
    )
    options: dict[str, Any]
    columns: list[list[int]]  # card codes, head first
    gaps: list[int]  # card code or -1
    ships: tuple[int, ...]
    leaders: list[list[int]]  # per seat, per colour: place or -1 in supply
    hands: list[list[int]]  # per seat, per colour
    catastrophes: list[int]  # per seat: 1 while unplayed
    vp: list[list[int]]  # per seat: card codes
    answers: tuple[dict[str, str], ...]  # per seat: offer kind -> standing answer
    deck: tuple[int, ...]
    removed: tuple[int, ...]
    unused_catastrophes: int
    discard: list[int]  # per kind of DISCARD_KINDS
    rng: int
    turn: int
    active: int
    actions_left: int
    conflict: dict[str, Any] | None
    union: dict[str, Any] | None
    offers: tuple[dict[str, Any], ...]
    finished: str | None  # the reason the game ended
    end_proposed: int | None

    def clone(self) -> State:
        new = State.__new__(State)
        new.options = self.options
        new.columns = [col[:] for col in self.columns]
        new.gaps = self.gaps[:]
        new.ships = self.ships  # tuple, replaced on change
        new.leaders = [row[:] for row in self.leaders]
        new.hands = [row[:] for row in self.hands]
        new.catastrophes = self.catastrophes[:]
        new.vp = [pile[:] for pile in self.vp]
        new.answers = self.answers  # tuple of dicts, replaced on change
        new.deck = self.deck  # tuple, replaced when drawn from
        new.removed = self.removed
        new.unused_catastrophes = self.unused_catastrophes
        new.discard = self.discard[:]
        new.rng = self.rng
        new.turn = self.turn
        new.active = self.active
        new.actions_left = self.actions_left
        new.conflict = self.conflict  # the dicts below are replaced, never edited
        new.union = self.union
        new.offers = self.offers  # tuple of dicts
        new.finished = self.finished
        new.end_proposed = self.end_proposed  # the turn of the last proposal to end the game, or None
        return new

    @property
    def players(self) -> int:
        return len(self.hands)


# Card code <-> character as byte translations: states hold long card strings.
_TO_CHARS = bytes.maketrans(bytes(CARD_CHARS), "".join(CARD_CHARS.values()).encode())
_FROM_CHARS = bytes.maketrans("".join(CARD_CHARS.values()).encode(), bytes(CARD_CHARS))


def _cards_string(cards) -> str:
    return bytes(cards).translate(_TO_CHARS).decode("ascii")


def _place_or_none(place: int) -> str | None:
    return None if place < 0 else place_name(place)


def to_json(state: State) -> dict:
    return {
        "game": "euphrat-cards",
        "options": dict(state.options),
        "columns": [_cards_string(col) for col in state.columns],
        "gaps": "".join("." if g < 0 else CARD_CHARS[g] for g in state.gaps),
        "ships": [SHIP_NAMES[code] for code in state.ships],
        "players": [
            {
                "dynasty": DYNASTIES[seat],
                "leaders": {LEADERS[c]: _place_or_none(state.leaders[seat][c]) for c in range(4)},
                "hand": dict(zip(COLORS, state.hands[seat])),
                "catastrophe": bool(state.catastrophes[seat]),
                "vp": _cards_string(state.vp[seat]),
                "answers": dict(state.answers[seat]),
            }
            for seat in range(state.players)
        ],
        "deck": _cards_string(state.deck),
        "removed": _cards_string(state.removed),
        "unused_catastrophes": state.unused_catastrophes,
        "discard": dict(zip(DISCARD_KINDS, state.discard)),
        "rng": state.rng,
        "turn": {"number": state.turn, "active": state.active, "actions_left": state.actions_left},
        "conflict": _conflict_json(state.conflict),
        "union": None if state.union is None else {
            "gap": place_name(GAP_BASE + state.union["gap"]),
            "colors": [COLORS[c] for c in state.union["colors"]],
        },
        "offers": [_offer_json(o) for o in state.offers],
        "finished": None if state.finished is None else {"reason": state.finished},
        **({} if state.end_proposed is None else {"end_proposed": state.end_proposed}),
    }


def _conflict_json(conflict: dict | None) -> dict | None:
    if conflict is None:
        return None
    out = dict(conflict)
    out["color"] = COLORS[conflict["color"]]
    out["attacker_leader"] = place_name(conflict["attacker_leader"])
    out["defender_leader"] = place_name(conflict["defender_leader"])
    return out


def _offer_json(offer: dict) -> dict:
    out = dict(offer)
    if "color" in out:
        out["color"] = COLORS[out["color"]]
    if "column" in out:
        out["column"] = COLUMN_LETTERS[out["column"]]
    if "columns" in out:
        out["columns"] = [COLUMN_LETTERS[c] for c in out["columns"]]
    return out


def _bad_state(message: str) -> IllegalMove:
    return IllegalMove(f"invalid state JSON: {message}", code="bad_state")


def _cards(text: str, what: str, allowed: str = "rbgktRGK") -> list[int]:
    bad = sorted(set(text) - set(allowed))
    if bad:
        raise _bad_state(f"{what} has unknown cards {bad}; allowed: {allowed}")
    return list(text.encode("ascii").translate(_FROM_CHARS))


def _color_counts(data: dict, what: str) -> list[int]:
    if set(data) - set(COLORS):
        raise _bad_state(f"{what} has unknown colours {sorted(set(data) - set(COLORS))}")
    counts = [int(data.get(c, 0)) for c in COLORS]
    if min(counts) < 0:
        raise _bad_state(f"{what} has a negative count")
    return counts


def from_json(data: dict) -> State:
    """The state of `data`, refused with a message saying what is wrong if it is
    malformed or inconsistent (engine.euphrat_cards.checks)."""
    from engine.euphrat_cards.checks import check_state  # checks read regions, which need this module

    try:
        state = _from_json(data)
        problem = check_state(state)
    except IllegalMove:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise _bad_state(f"{type(exc).__name__}: {exc}") from None
    if problem:
        raise _bad_state(problem)
    return state


def _from_json(data: dict) -> State:
    s = State.__new__(State)
    s.options = dict(data.get("options") or {})
    columns = data["columns"]
    if len(columns) != COLUMNS:
        raise _bad_state(f"columns must be {COLUMNS} strings")
    s.columns = [_cards(col, f"column {COLUMN_LETTERS[i]}") for i, col in enumerate(columns)]
    gaps = data.get("gaps", "." * GAPS)
    if len(gaps) != GAPS:
        raise _bad_state(f"gaps must be a string of {GAPS} characters")
    s.gaps = [-1 if ch == "." else _cards(ch, "gaps", "rbgk")[0] for ch in gaps]
    s.ships = tuple(SHIP_CODES[name] for name in data.get("ships", list(SHIP_CODES)))
    players = data["players"]
    if not 2 <= len(players) <= 4:
        raise _bad_state("2 to 4 players")
    s.leaders, s.hands, s.catastrophes, s.vp, answers = [], [], [], [], []
    for seat, p in enumerate(players):
        row = [-1] * 4
        for name, where in (p.get("leaders") or {}).items():
            if name not in LEADER_INDEX:
                raise _bad_state(f"seat {seat} has an unknown leader {name!r}; leaders: {', '.join(LEADERS)}")
            if where is not None:
                row[LEADER_INDEX[name]] = _leader_place(s, where, name)
        s.leaders.append(row)
        s.hands.append(_color_counts(p.get("hand", {}), "hand"))
        s.catastrophes.append(1 if p.get("catastrophe", True) else 0)
        s.vp.append(_cards(p.get("vp", ""), "vp", "rbgkt"))
        answers.append(_answers(p.get("answers") or {}, seat))
    s.answers = tuple(answers)
    s.deck = tuple(_cards(data.get("deck", ""), "deck", "rbgk"))
    s.removed = tuple(_cards(data.get("removed", ""), "removed", "rbgk"))
    s.unused_catastrophes = int(data.get("unused_catastrophes", 4 - len(players)))
    discard = data.get("discard") or {}
    if set(discard) - set(DISCARD_KINDS):
        raise _bad_state(f"discard kinds are {', '.join(DISCARD_KINDS)}")
    s.discard = [int(discard.get(k, 0)) for k in DISCARD_KINDS]
    s.rng = int(data.get("rng", 0))
    turn = data.get("turn") or {}
    s.turn = int(turn.get("number", 1))
    s.active = int(turn.get("active", 0))
    s.actions_left = int(turn.get("actions_left", 2))
    s.conflict = _conflict_from_json(data.get("conflict"))
    union = data.get("union")
    s.union = None if union is None else {
        "gap": _union_gap(union["gap"]), "colors": [COLOR_INDEX[c] for c in union["colors"]],
    }
    s.offers = tuple(_offer_from_json(o) for o in data.get("offers", []))
    finished = data.get("finished")
    s.finished = None if finished is None else finished["reason"]
    s.end_proposed = None if data.get("end_proposed") is None else int(data["end_proposed"])
    _check_places(s)
    _check_cards(s)
    return s


def _answers(data: dict, seat: int) -> dict:
    unknown = set(data) - set(STANDING_ANSWERS)
    if unknown:
        raise _bad_state(f"seat {seat} has standing answers for {sorted(unknown)}; offers: "
                         f"{', '.join(STANDING_ANSWERS)}")
    for kind, answer in data.items():
        if answer not in STANDING_ANSWERS[kind]:
            raise _bad_state(f"seat {seat}'s standing answer to {kind} offers is {answer!r}; one of: "
                             f"{', '.join(STANDING_ANSWERS[kind])}")
    return {**ASK, **data}


def _union_gap(name) -> int:
    gap = gap_index(name)
    if gap is None:
        raise _bad_state(f"union.gap {name!r} names no gap (AB to GH)")
    return gap


def _leader_place(s: State, where: str, leader: str) -> int:
    place = parse_place(where)
    if place is None:
        raise _bad_state(f"leader {leader} stands on {where!r}, which names no card (C2, CD)")
    return place


def _check_places(s: State) -> None:
    seen = set()
    for seat, row in enumerate(s.leaders):
        for color, place in enumerate(row):
            if place < 0:
                continue
            card = card_at(s, place)
            name = place_name(place)
            if card is None or card >= SHIP:
                raise _bad_state(f"seat {seat}'s {LEADERS[color]} stands on {name}, which holds no card")
            if place in seen:
                raise _bad_state(f"two leaders stand on {name}")
            seen.add(place)
            if card == TREASURE and color == RED:
                raise _bad_state(f"seat {seat}'s priest stands on the treasure {name}; a priest never "
                                 "stands on a treasure")
            if card_color(card) == color:
                raise _bad_state(
                    f"seat {seat}'s {LEADERS[color]} stands on a {COLORS[color]} card ({name}); "
                    "a leader stands on a card of another colour"
                )


def _check_cards(s: State) -> None:
    """Every card of the game is somewhere, once: say where each kind that is off was found."""
    places = {
        "hands": [c for seat, hand in enumerate(s.hands) for c in range(4) for _ in range(hand[c])],
        "deck": list(s.deck),
        "removed": list(s.removed),
        "table": [c for col in s.columns for c in col] + [g for g in s.gaps if g >= 0],
        "vp piles": [c for pile in s.vp for c in pile],
        "discard": [kind for kind, n in enumerate(s.discard[:CATASTROPHE_DISCARD]) for _ in range(n)],
        "committed to the conflict": _committed_cards(s.conflict),
    }
    expected = dict(zip(COLORS, DECK_COUNTS), treasure=TREASURES)
    for kind, name in enumerate(DISCARD_KINDS[:CATASTROPHE_DISCARD]):
        found = {where: cards.count(kind) for where, cards in places.items()}
        if sum(found.values()) != expected[name]:
            detail = ", ".join(f"{where} {n}" for where, n in found.items() if n)
            raise _bad_state(
                f"cards are not conserved: {sum(found.values())} {name} cards ({detail or 'none'}) "
                f"where the game has {expected[name]}"
            )
    for code, ship in SHIP_NAMES.items():
        count = s.ships.count(code) + sum(col.count(code) for col in s.columns)
        if count != 1:
            raise _bad_state(f"the {ship} ship is {'missing' if not count else 'there twice'}: it is "
                             "either free or in a column, once")
    catastrophes = sum(s.catastrophes) + s.unused_catastrophes + s.discard[CATASTROPHE_DISCARD]
    if catastrophes != CATASTROPHES:
        raise _bad_state(
            f"cards are not conserved: {catastrophes} catastrophe cards (held, unused and discarded) "
            f"where the game has {CATASTROPHES}"
        )


def _committed_cards(conflict: dict | None) -> list[int]:
    if conflict is None:
        return []
    color = RED if conflict["kind"] == "internal" else conflict["color"]
    return [color] * ((conflict["attacker_commit"] or 0) + (conflict["defender_commit"] or 0))


def card_at(s: State, place: int) -> int | None:
    """The card at a place, or None if there is none."""
    if place >= GAP_BASE:
        card = s.gaps[place - GAP_BASE]
        return None if card < 0 else card
    column, row = divmod(place, ROW_SPAN)
    col = s.columns[column]
    return col[row] if row < len(col) else None


def _conflict_from_json(conflict: dict | None) -> dict | None:
    if conflict is None:
        return None
    out = dict(conflict)
    out["color"] = COLOR_INDEX[conflict["color"]]
    out["attacker_leader"] = parse_place(conflict["attacker_leader"])
    out["defender_leader"] = parse_place(conflict["defender_leader"])
    return out


def _offer_from_json(offer: dict) -> dict:
    out = dict(offer)
    if "color" in out:
        out["color"] = COLOR_INDEX[out["color"]]
    if "column" in out:
        out["column"] = COLUMN_LETTERS.index(out["column"])
    if "columns" in out:
        out["columns"] = [COLUMN_LETTERS.index(c) for c in out["columns"]]
    return out


__all__ = ["State", "to_json", "from_json", "card_at", "TREASURE", "DISCARD_KINDS", "STANDING_ANSWERS", "ASK"]
