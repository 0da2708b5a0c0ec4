"""Civilization card game events told as sentences with the players' and the cards'
names: every event type random games produce has its own sentence (no plain
fallback), and the combat's sentences say who does what to whom."""
from engine import get_game
from engine.simulate import random_playout
from tests.engine.test_civ_cards_random import EVENT_TYPES

GAME = get_game("civ-cards")
NAMES = {0: "Ann", 1: "Bob", 2: "Cy", 3: "Dee"}
describe = GAME.describe_event


def test_every_event_of_random_games_is_a_sentence_with_names():
    seen = set()
    for seed in range(6):
        for _state, _seat, _move, _new, events in random_playout(GAME, 2 + seed % 3, seed, {}):
            for event in events:
                text = describe(event, NAMES)
                seen.add(event["type"])
                plain = f"{event['type'].replace('_', ' ')}."
                assert not text.endswith(plain) and "None" not in text and "{" not in text, (event, text)
                assert text[0].isupper() and text.endswith("."), text
    assert len(seen) >= 20, sorted(seen)


def test_every_documented_event_type_has_a_sentence():
    import inspect

    from engine.civ_cards import narration

    source = inspect.getsource(narration.describe_event)
    assert {t for t in EVENT_TYPES if f'"{t}":' not in source} == set()


def test_the_combat_is_told_with_names_and_cards():
    started = describe({"type": "combat_started", "seat": 0, "fronts": {"1": ["swordsman", "warrior"]}}, NAMES)
    assert started == "Ann attacks Bob with Swordsman, Warrior."
    revealed = describe({"type": "counters_revealed", "seat": 1, "counters": [["axeman", 1]], "steal": 1,
                         "destroy": 0}, NAMES)
    assert revealed == "Bob shows Axeman against unit 1, and loses 1 population."
    stolen = describe({"type": "population_stolen", "seat": 1, "by": 0, "plots": [2]}, NAMES)
    assert stolen == "Ann took population from Bob's plot 2."
    assert describe({"type": "plot_picked", "seat": 0, "plot": "iron-hills"},
                    NAMES) == "Ann took Iron Hills from the draft."


def test_payments_and_awards_read_as_sentences():
    bought = describe({"type": "plot_bought", "seat": 1, "plot": "grassland",
                       "paid": {"food": 3, "production": 5, "commerce": 0}}, NAMES)
    assert bought == "Bob bought Grassland, paying 3 food, 5 production."
    award = describe({"type": "award_changed", "award": "highest-happiness", "seat": 1, "previous": 0, "score": 3},
                     NAMES)
    assert award == "Bob takes Highest Happiness with 3 from Ann."


def test_a_price_paid_in_one_resource_names_it():
    assert describe({"type": "technology_bought", "seat": 0, "card": "pottery", "paid": 6}, NAMES) == \
        "Ann bought the technology Pottery, paying 6 commerce."
    assert describe({"type": "population_bought", "seat": 0, "plot": 2, "paid": 6}, NAMES) == \
        "Ann bought population for plot 2, paying 6 food."
