"""Text notation for moves (email replies) and one-line descriptions.

`tile red F7`, `leader king G6`, `withdraw king`, `catastrophe F7`,
`swap red red blue`, `support 3`, `war black`, `monument red-black F7`,
`no monument`, `treasure B2`, `pass`, `building F7`, `no building`, `ziggurat H6`,
`no ziggurat`, `ziggurat point red`, `take red`, `blind 2`. Case and spacing do not matter.
"""
from __future__ import annotations

from engine.core import MoveParseError
from engine.tigris.state import COLORS, LEADER_INDEX, LEADERS, MONUMENT_NAMES, TILE_NAMES

FORMS = (
    "tile COLOR SQUARE", "leader LEADER SQUARE", "withdraw LEADER", "catastrophe SQUARE",
    "swap COLOR [COLOR ...]", "support N", "war COLOR", "monument COLOR-COLOR SQUARE",
    "no monument", "treasure SQUARE", "pass", "building SQUARE", "no building",
    "ziggurat SQUARE", "no ziggurat", "ziggurat point COLOR", "take COLOR", "blind N",
)


def _expect(ok: bool, text: str, form: str) -> None:
    if not ok:
        raise MoveParseError(f"could not read {text!r}: expected `{form}`")


def parse_move(text: str) -> dict:
    if not isinstance(text, str):
        raise MoveParseError("a move in text must be a string")
    words = text.strip().lower().split()
    if not words:
        raise MoveParseError("empty move; expected one of: " + "; ".join(FORMS))
    verb, args = words[0], words[1:]
    if verb == "tile":
        _expect(len(args) == 2, text, FORMS[0])
        return {"type": "place_tile", "color": args[0], "square": args[1].upper()}
    if verb == "leader":
        _expect(len(args) == 2, text, FORMS[1])
        return {"type": "place_leader", "leader": args[0], "square": args[1].upper()}
    if verb == "withdraw":
        _expect(len(args) == 1, text, FORMS[2])
        return {"type": "withdraw_leader", "leader": args[0]}
    if verb == "catastrophe":
        _expect(len(args) == 1, text, FORMS[3])
        return {"type": "place_catastrophe", "square": args[0].upper()}
    if verb == "swap":
        _expect(len(args) >= 1, text, FORMS[4])
        tiles: dict[str, int] = {}
        for word in args:
            tiles[word] = tiles.get(word, 0) + 1
        return {"type": "swap_tiles", "tiles": tiles}
    if verb == "support":
        _expect(len(args) == 1 and args[0].isdigit(), text, FORMS[5])
        return {"type": "commit_support", "count": int(args[0])}
    if verb == "war":
        _expect(len(args) == 1, text, FORMS[6])
        return {"type": "choose_war", "color": args[0]}
    if verb == "no" and args == ["monument"]:
        return {"type": "decline_monument"}
    if verb == "no" and args == ["building"]:
        return {"type": "decline_building"}
    if verb == "no" and args == ["ziggurat"]:
        return {"type": "decline_ziggurat"}
    if verb == "ziggurat" and args[:1] == ["point"]:
        _expect(len(args) == 2, text, FORMS[15])
        return {"type": "take_ziggurat_point", "color": args[1]}
    if verb == "ziggurat":
        _expect(len(args) == 1, text, FORMS[13])
        return {"type": "build_ziggurat", "square": args[0].upper()}
    if verb == "building":
        _expect(len(args) == 1, text, FORMS[11])
        return {"type": "place_building", "square": args[0].upper()}
    if verb == "monument":
        _expect(len(args) == 2, text, FORMS[7])
        return {"type": "build_monument", "monument": args[0], "square": args[1].upper()}
    if verb == "treasure":
        _expect(len(args) == 1, text, FORMS[9])
        return {"type": "take_treasure", "square": args[0].upper()}
    if verb == "take":
        _expect(len(args) == 1, text, FORMS[16])
        return {"type": "take_display_tile", "color": args[0]}
    if verb == "blind":
        _expect(len(args) == 1 and args[0].isdigit(), text, FORMS[17])
        return {"type": "draw_blind", "count": int(args[0])}
    if verb == "pass":
        _expect(not args, text, FORMS[10])
        return {"type": "pass"}
    raise MoveParseError(f"unknown move {verb!r}; expected one of: " + "; ".join(FORMS))


def format_move(move: dict) -> str:
    """The move in text notation (what a player would type)."""
    kind = move.get("type")
    if kind == "place_tile":
        return f"tile {move['color']} {move['square']}"
    if kind == "place_leader":
        return f"leader {move['leader']} {move['square']}"
    if kind == "withdraw_leader":
        return f"withdraw {move['leader']}"
    if kind == "place_catastrophe":
        return f"catastrophe {move['square']}"
    if kind == "swap_tiles":
        return "swap " + " ".join(c for c, n in move["tiles"].items() for _ in range(n))
    if kind == "commit_support":
        return f"support {move['count']}"
    if kind == "choose_war":
        return f"war {move['color']}"
    if kind == "build_monument":
        return f"monument {move['monument']} {move['square']}"
    if kind == "decline_monument":
        return "no monument"
    if kind == "take_treasure":
        return f"treasure {move['square']}"
    if kind == "pass":
        return "pass"
    if kind == "place_building":
        return f"building {move['square']}"
    if kind == "decline_building":
        return "no building"
    if kind == "build_ziggurat":
        return f"ziggurat {move['square']}"
    if kind == "decline_ziggurat":
        return "no ziggurat"
    if kind == "take_ziggurat_point":
        return f"ziggurat point {move['color']}"
    if kind == "take_display_tile":
        return f"take {move['color']}"
    if kind == "draw_blind":
        return f"blind {move['count']}"
    return str(kind)


def describe(move: dict) -> str:
    """One line in words, for logs and emails."""
    kind = move.get("type")
    if kind == "place_tile" and move.get("color") in COLORS:
        return f"place a {move['color']} {TILE_NAMES[COLORS.index(move['color'])]} on {move['square']}"
    if kind == "place_leader":
        return f"put the {_leader_name(move['leader'])} on {move['square']}"
    if kind == "withdraw_leader":
        return f"withdraw the {_leader_name(move['leader'])}"
    if kind == "place_catastrophe":
        return f"place a catastrophe on {move['square']}"
    if kind == "swap_tiles":
        return f"swap {sum(move['tiles'].values())} tiles"
    if kind == "commit_support":
        count = move["count"]
        return f"commit {count} supporter{'s' if count != 1 else ''}"
    if kind == "choose_war":
        return f"fight the {move['color']} war next"
    if kind == "build_monument":
        return f"build the {move['monument']} monument on {move['square']}"
    if kind == "decline_monument":
        return "build no monument"
    if kind == "take_treasure":
        return f"take the treasure on {move['square']}"
    if kind == "pass":
        return "pass: take no more actions this turn"
    if kind == "place_building":
        return f"put the building on {move['square']}"
    if kind == "decline_building":
        return "place no building"
    if kind == "build_ziggurat":
        return f"build the ziggurat with its centre on {move['square']}"
    if kind == "decline_ziggurat":
        return "build no ziggurat"
    if kind == "take_ziggurat_point":
        return f"take the ziggurat's point in {move['color']}"
    if kind == "take_display_tile" and move.get("color") in COLORS:
        return f"take the face-up {move['color']} {TILE_NAMES[COLORS.index(move['color'])]}"
    if kind == "draw_blind":
        count = move["count"]
        return f"draw {count} tile{'s' if count != 1 else ''} from the bag"
    return format_move(move)


def _leader_name(word: str) -> str:
    if word in COLORS:
        return LEADERS[COLORS.index(word)]
    return word if word in LEADER_INDEX else str(word)


__all__ = ["parse_move", "format_move", "describe", "MONUMENT_NAMES"]
