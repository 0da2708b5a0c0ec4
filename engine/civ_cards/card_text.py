"""Each card's rules text in words, read from its row of the card table: what it is,
what it costs and what it does. Shown when a card is pointed at or tapped on the game
page and beside a card the decision email offers."""
from __future__ import annotations

from engine.civ_cards.table import CardTable

KIND_WORDS = {"plot": "Plot", "technology": "Technology", "unit": "Unit", "building": "Building",
              "wonder": "Wonder", "bonus": "Bonus card", "award": "Award", "resource": "Resource card",
              "population": "Population card"}
PAID_WITH = {"technology": "commerce", "building": "production", "wonder": "production"}


def listing(parts: list[str]) -> str:
    """["a", "b", "c"] as "a, b and c"."""
    return " and ".join(parts) if len(parts) < 3 else ", ".join(parts[:-1]) + " and " + parts[-1]


def amounts(counts: dict) -> str:
    """`{"food": 1, "production": 2}` as "1 food and 2 production"."""
    return listing([f"{n} {kind}" for kind, n in counts.items() if n])


def card_text(table: CardTable, card: str) -> str:
    """The card's rules text: "Technology, costs 4 commerce: draw 1 more card each turn."."""
    kind = table.kind(card)
    if kind is None:
        return ""
    head = KIND_WORDS[kind] + (f" ({table.cards[card]['unit_class']})" if kind == "unit" else "")
    if kind in PAID_WITH:
        head += f", costs {table.cost(card)} {PAID_WITH[kind]}"
    does = effect_words(table, table.effects(card), kind)
    extra = {"wonder": "1 VP; cannot be destroyed", "technology": "1 VP"}.get(kind)
    return f"{head}: {'; '.join([*does, *([extra] if extra else [])]) or 'no effect'}."


def effect_words(table: CardTable, effects: dict, kind: str) -> list[str]:
    """Each effect of a card as a phrase."""
    words = []
    if "yield" in effects:
        kinds = " or ".join(kind for kind, n in effects["yield"].items() if n)
        words.append(f"yields {amounts(effects['yield'])} each turn, and 1 {kinds} more for each population on it")
    if "flat_yield" in effects:
        words.append(f"{amounts(effects['flat_yield'])} more each turn")
    if "plot_bonus" in effects:
        words.append(f"its plot yields its {effects['plot_bonus']} once more")
    for effect, phrase in (("happiness", "happiness"), ("culture", "culture")):
        if effects.get(effect):
            words.append(f"+{effects[effect]} {phrase}")
    if effects.get("extra_draw"):
        words.append(f"draw {effects['extra_draw']} more card each turn before discarding")
    if effects.get("building_slot"):
        words.append("a second building or wonder on any plot")
    if effects.get("walls"):
        words.append("when attacked, you may send one attacking unit back")
    attack = [phrase for effect, phrase in (
        ("removes_walls", "returns one of the defender's Walls to his hand"),
        ("steal_population", f"takes {effects.get('steal_population')} population"),
        ("destroy_buildings", f"destroys {effects.get('destroy_buildings')} building")) if effects.get(effect)]
    if attack:
        words.append("in attack, " + " and ".join(attack))
    if effects.get("counters"):
        countered = [table.name(c) if c in table.cards else f"{c} units" for c in effects["counters"]]
        words.append(f"in defence, counters {listing(countered)}")
    if "bonus" in effects:
        bonus = effects["bonus"]
        of = "of any one resource" if bonus["resource"] == "wild" else bonus["resource"]
        words.append(f"play it for {bonus['value']} {of}")
    if "award" in effects:
        award = effects["award"]
        grants = [f"{w} {award[k]} {more}" for k, w, more in (
            ("discount", "technologies, buildings and wonders cost", "less"), ("draw", "draw", "more card each turn"),
            ("discard", "discard", "more card each turn")) if award.get(k)]
        words.append(f"held by the player with the most {award['score']} (at least {award['minimum']}): "
                     + listing(grants))
    return words
