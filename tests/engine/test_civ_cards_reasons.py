"""Civilization's prompts say why a decision is owed (a discard: what was drawn and how
many are left; buying: what the resources held can pay for; combat without a unit),
and every card has its rules text in words."""
import pytest

from engine.civ_cards.card_text import card_text
from tests.engine.civ_cards_positions import GAME, TABLE, player, position


def prompt(state, seat=0):
    return GAME.prompt(state, seat, {0: "ann", 1: "bob", 2: "cy"})


def test_a_discard_at_the_end_of_a_turn_says_what_was_drawn_and_how_many_are_left():
    s = position({0: player(hand={"walls": 3})}, phase="discard", discarding={"order": [0], "left": 2})
    assert prompt(s) == ("Discard a card from your hand. Your turn ends: you drew 4 cards and discard 2 "
                         "(2 still to discard, this one included).")
    last = position({0: player(hand={"walls": 3})}, phase="discard", discarding={"order": [0], "left": 1})
    assert prompt(last).endswith("discard 2 (this is the last one).")


def test_the_cards_that_draw_or_discard_more_are_named():
    s = position({0: player(hand={"walls": 3}, technologies=["pottery"])}, phase="discard",
                 discarding={"order": [0], "left": 3}, awards={"highest-culture": 0})
    assert "you drew 6 cards (4, and 2 more for Pottery and Highest Culture) and discard 3 (2, and 1 more for " \
           "Highest Culture) (3 still to discard" in prompt(s)


def test_the_opening_discard_says_it_comes_before_the_first_turn():
    s = position({0: player(hand={"walls": 6})}, phase="opening_discard", discarding={"order": [0, 1, 2], "left": 2})
    assert "Before the first turn each player discards 2 cards of those dealt (2 still to discard" in prompt(s)


def test_buying_says_what_the_resources_held_pay_for():
    s = position({0: player(resources={"food": 8, "production": 1, "commerce": 3})})
    words = prompt(s)
    assert "You hold 8 food, 1 production, 3 commerce. A plot costs 15 of any mix, a population 6 food;" in words
    assert "technologies are paid in commerce" in words and "units wait for combat" in words


def test_an_attack_without_units_says_combat_can_only_be_skipped():
    s = position({0: player(hand={"walls": 1})}, phase="combat", combat={"stage": "declare", "fronts": [],
                                                                         "stolen": 0})
    assert "You hold no unit" in prompt(s)
    armed = position({0: player(hand={"warrior": 1})}, phase="combat", combat={"stage": "declare", "fronts": [],
                                                                               "stolen": 0})
    assert "You hold no unit" not in prompt(armed)


@pytest.mark.parametrize("card", sorted(TABLE.cards))
def test_every_card_has_rules_text_in_words(card):
    text = card_text(TABLE, card)
    assert text.endswith(".") and "_" not in text and "{" not in text


def test_card_texts_say_cost_and_effect():
    assert card_text(TABLE, "granary") == "Building, costs 4 production: its plot yields its food once more."
    assert card_text(TABLE, "great-merchant") == "Bonus card: play it for 3 of any one resource."
    assert card_text(TABLE, "plains") == ("Plot: yields 1 food and 1 production each turn, and 1 food or production "
                                          "more for each population on it.")
