"""Text notation for moves (email replies) and one-line descriptions.

Cards are named by their id in the card table (`swordsman`, `great-wall`); plots by
their number in the player's row (1 is the first) or on display; seats by number;
resources as `food`, `production`, `commerce`; a mix as FOOD/PRODUCTION/COMMERCE
(`5/5/5`). Case and spacing do not matter.
"""
from __future__ import annotations

from engine.civ_cards.table import RESOURCES
from engine.core import MoveParseError

FORMS = (
    "pick SLOT", "settle PLOT", "discard CARD", "collect F/P/C", "plot SLOT F/P/C", "population PLOT",
    "build CARD PLOT", "research CARD", "trade GIVE GET", "cash CARD RESOURCE", "scrap PLOT CARD",
    "give RESOURCE N", "done", "attack CARD SEAT", "fight", "catapult PLOT", "repel UNIT|none",
    "counter CARD UNIT", "counter done", "lose population PLOT...", "lose buildings PLOT:CARD...",
    "place PLOT...",
)
# verb -> (move type, fields with their reader); the simple one-to-one forms.
_SIMPLE = {
    "pick": ("pick_plot", (("slot", "int"),)),
    "settle": ("settle", (("plot", "int"),)),
    "discard": ("discard", (("card", "card"),)),
    "collect": ("collect", (("population", "mix"),)),
    "plot": ("buy_plot", (("slot", "int"), ("pay", "mix"))),
    "population": ("buy_population", (("plot", "int"),)),
    "build": ("build", (("card", "card"), ("plot", "int"))),
    "research": ("research", (("card", "card"),)),
    "trade": ("trade", (("give", "resource"), ("get", "resource"))),
    "cash": ("cash", (("card", "card"), ("resource", "resource"))),
    "scrap": ("scrap", (("plot", "int"), ("card", "card"))),
    "give": ("give", (("resource", "resource"), ("count", "int"))),
    "done": ("end_buying", ()),
    "attack": ("attack", (("card", "card"), ("target", "int"))),
    "fight": ("fight", ()),
    "catapult": ("return_walls", (("plot", "int"),)),
}


def _read(kind: str, word: str, text: str, form: str, cards=None):
    if kind == "card":
        return _card(word, text, cards)
    if kind == "resource":
        if word not in RESOURCES:
            raise MoveParseError(f"could not read {text!r}: {word!r} is not a resource ({', '.join(RESOURCES)})")
        return word
    if kind == "int":
        if not word.isdigit():
            raise MoveParseError(f"could not read {text!r}: {word!r} is not a number; expected `{form}`")
        return int(word)
    parts = word.split("/")
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        raise MoveParseError(f"could not read {text!r}: {word!r} is not FOOD/PRODUCTION/COMMERCE; expected `{form}`")
    return dict(zip(RESOURCES, map(int, parts)))


def _form(verb: str) -> str:
    return next(f for f in FORMS if f.split()[0] == verb)


def _card(word: str, text: str, cards) -> str:
    """The card id `word`; a word that names no card of the table (`cards`, when given) is a typo."""
    if cards is not None and word not in cards:
        raise MoveParseError(f"could not read {text!r}: {word!r} is not a card; cards are named by their id "
                             "(`swordsman`, `great-wall`)")
    return word


def parse_move(text: str, cards=None) -> dict:
    """The move written as `text`; `cards`, the card ids of the game's table, lets a
    misspelt card be a parse error rather than a move the rules refuse."""
    if not isinstance(text, str):
        raise MoveParseError("a move in text must be a string")
    words = text.strip().lower().split()
    if not words:
        raise MoveParseError("empty move; expected one of: " + "; ".join(FORMS))
    verb, args = words[0], words[1:]
    if verb in _SIMPLE:
        kind, fields = _SIMPLE[verb]
        form = _form(verb)
        if len(args) != len(fields):
            raise MoveParseError(f"could not read {text!r}: expected `{form}`")
        move = {"type": kind}
        for (field, reader), word in zip(fields, args):
            move[field] = _read(reader, word, text, form, cards)
        return move
    special = _SPECIAL.get(verb)
    if special is None:
        raise MoveParseError(f"unknown move {verb!r}; expected one of: " + "; ".join(FORMS))
    move = special(args, text)
    if move["type"] == "counter":
        _card(move["card"], text, cards)
    for _, card in move.get("buildings", ()):
        _card(card, text, cards)
    return move


def _repel(args, text):
    if len(args) != 1 or not (args[0].isdigit() or args[0] == "none"):
        raise MoveParseError(f"could not read {text!r}: expected `repel UNIT|none`")
    return {"type": "repel", "unit": None if args[0] == "none" else int(args[0])}


def _counter(args, text):
    if args == ["done"]:
        return {"type": "end_counters"}
    if len(args) != 2 or not args[1].isdigit():
        raise MoveParseError(f"could not read {text!r}: expected `counter CARD UNIT` or `counter done`")
    return {"type": "counter", "card": args[0], "unit": int(args[1])}


def _numbers(args, text, form):
    if not args or not all(a.isdigit() for a in args):
        raise MoveParseError(f"could not read {text!r}: expected `{form}` with plot numbers")
    return [int(a) for a in args]


def _lose(args, text):
    if args[:1] == ["population"]:
        return {"type": "give_population", "plots": _numbers(args[1:], text, "lose population PLOT...")}
    if args[:1] == ["buildings"]:
        pairs = []
        for word in args[1:]:
            plot, _, card = word.partition(":")
            if not plot.isdigit() or not card:
                raise MoveParseError(f"could not read {text!r}: {word!r} is not PLOT:CARD; expected `lose "
                                     "buildings PLOT:CARD...`")
            pairs.append([int(plot), card])
        if not pairs:
            raise MoveParseError(f"could not read {text!r}: expected `lose buildings PLOT:CARD...`")
        return {"type": "lose_buildings", "buildings": pairs}
    raise MoveParseError(f"could not read {text!r}: expected `lose population PLOT...` or `lose buildings "
                         "PLOT:CARD...`")


def _place(args, text):
    return {"type": "place_population", "plots": _numbers(args, text, "place PLOT...")}


_SPECIAL = {"repel": _repel, "counter": _counter, "lose": _lose, "place": _place}


def _mix(mix: dict) -> str:
    return "/".join(str(mix.get(k, 0)) for k in RESOURCES)


def format_move(move: dict) -> str:
    """The move in text notation (what a player would type)."""
    kind = move.get("type")
    if kind == "repel":
        return f"repel {'none' if move['unit'] is None else move['unit']}"
    if kind == "counter":
        return f"counter {move['card']} {move['unit']}"
    if kind == "end_counters":
        return "counter done"
    if kind == "give_population":
        return "lose population " + " ".join(map(str, move["plots"]))
    if kind == "lose_buildings":
        return "lose buildings " + " ".join(f"{plot}:{card}" for plot, card in move["buildings"])
    if kind == "place_population":
        return "place " + " ".join(map(str, move["plots"]))
    for verb, (move_type, fields) in _SIMPLE.items():
        if move_type == kind:
            return " ".join([verb, *(_mix(move[f]) if r == "mix" else str(move[f]) for f, r in fields)])
    return str(kind)


_WORDS = {
    "pick_plot": "pick plot {slot} of the draft",
    "settle": "put the free population on plot {plot}",
    "discard": "discard a card",
    "buy_population": "buy a population for plot {plot}",
    "build": "build {card} on plot {plot}",
    "research": "buy the technology {card}",
    "trade": "trade 3 {give} for 1 {get}",
    "cash": "play the bonus card {card} as {resource}",
    "scrap": "scrap {card} on plot {plot}",
    "give": "give {count} {resource} to the teammate",
    "end_buying": "end buying",
    "attack": "commit {card} against seat {target}",
    "fight": "start the fight",
    "return_walls": "return the Walls of plot {plot} to hand",
    "counter": "counter a unit",
    "end_counters": "end countering",
    "give_population": "give up population from plots {plots}",
    "lose_buildings": "lose buildings {buildings}",
    "place_population": "place stolen population on plots {plots}",
}


def describe(move: dict) -> str:
    """One line in words, for logs and emails (a card discarded or countered is not named:
    the line may reach other players before the card is shown)."""
    kind = move.get("type", "")
    if kind == "collect":
        return f"collect, population yielding {_mix(move['population'])} (food/production/commerce)"
    if kind == "buy_plot":
        return f"buy plot {move['slot']} on display paying {_mix(move['pay'])} (food/production/commerce)"
    if kind == "repel":
        return "let the attack through" if move["unit"] is None else f"send attacking unit {move['unit']} back"
    words = _WORDS.get(kind)
    if words is None:
        return format_move(move)
    try:
        return words.format(**move)
    except (KeyError, IndexError):
        return format_move(move)
