"""The content of a decision email, from real engine states."""
import json

import pytest

import engine
from engine.simulate import random_playout
from tests.engine.civ_cards_positions import player as civ_player
from tests.engine.civ_cards_positions import position as civ_position
from tests.engine.tigris_positions import GAME, play, position
from workers.decision_mail import MAX_LINK_CHOICES, decision_summary
from workers.emails import render

NAMES = {0: "Ann", 1: "Bob", 2: "Cy"}


def test_defender_gets_one_choice_per_support_count_and_sees_the_attack():
    s = position(tiles={"G5": "red", "I5": "red", "G4": "red", "I4": "red"}, leaders={1: {"priest": "H5"}},
                 hands={0: {"red": 3}, 1: {"red": 2, "black": 4}})
    s, events = play(s, (0, "leader priest H4"), (0, "support 2"))
    summary = decision_summary(GAME, s, 1, NAMES, events)
    assert summary["kind"] == "support"
    assert [c["text"] for c in summary["choices"]] == ["support 0", "support 1", "support 2"]
    assert "You defend" in summary["prompt"] and "plus 2 committed" in summary["prompt"]
    assert "Ann put the priest on H4." in summary["changes"]
    assert "Ann committed 2 red supporters as attacker." in summary["changes"]
    assert "Your hand: 2 red, 4 black" in summary["summary_lines"]


def test_action_decisions_link_only_the_pass_not_hundreds_of_choices():
    s = GAME.setup(3, seed=4)
    seat = next(iter(GAME.pending(s)))
    summary = decision_summary(GAME, s, seat, NAMES, [])
    assert summary["kind"] == "action"
    assert summary["choices"] == [{"label": "pass: take no more actions this turn", "text": "pass"}]
    assert summary["reply_example"] and summary["reply_example"] != "pass"


def test_no_summary_leaks_another_seats_drawn_tiles_or_hand():
    for state, seat, _move, new_state, events in random_playout(GAME, 3, 11):
        for other in GAME.pending(new_state):
            summary = decision_summary(GAME, new_state, other, NAMES, events)
            text = json.dumps(summary)
            for event in events:
                if event["type"] == "tiles_received" and event["seat"] != other:
                    assert f"{NAMES[event['seat']]} drew" not in text
            for player, data in enumerate(summary["view"]["players"]):
                assert ("hand" in data) == (player == other)


CIV = engine.get_game("civ-cards")
# The choices of a Civilization decision that are one click each, however many others there are.
CIV_SIMPLE_CHOICES = ("end_buying", "research", "trade", "fight", "end_counters")


def civ_simple_choices(legal: list[dict]) -> list[dict]:
    return [m for m in legal if m["type"] in CIV_SIMPLE_CHOICES or m == {"type": "repel", "unit": None}]


@pytest.mark.parametrize("players, seed, options", [(2, 3, {}), (3, 5, {}), (4, 8, {"teams": "opposite"})])
def test_every_civ_decision_links_its_simple_choices(players, seed, options):
    for _state, _seat, _move, state, _events in random_playout(CIV, players, seed, options):
        for seat, kind in CIV.pending(state).items():
            # A gift to the teammate goes with any decision of one's own turn, offered as a link while buying only.
            legal = [m for m in CIV.legal_moves(state, seat) if m["type"] != "give" or kind == "buy"]
            links = [CIV.parse_move(c["text"]) for c in decision_summary(CIV, state, seat, NAMES, [])["choices"]]
            assert links and all(link in legal for link in links), (CIV.pending(state), links)
            expected = legal if len(legal) <= MAX_LINK_CHOICES else civ_simple_choices(legal)
            assert [m for m in expected if m not in links] == [], CIV.pending(state)


def test_a_civ_decision_email_names_the_cards_and_shows_resources_and_victory_points():
    s = civ_position({0: civ_player(hand={"swordsman": 2, "great-library": 1}, technologies=["masonry"],
                                    resources={"food": 3, "commerce": 1}, population={1: 2})})
    summary = decision_summary(CIV, s, 0, NAMES, [])
    assert summary["summary_lines"][:6] == [
        "Your hand: 2 Swordsman, 1 Great Library",
        "- Swordsman: Unit (melee): in attack, takes 1 population and destroys 1 building; in defence, counters "
        "Archer.",
        "- Great Library: Wonder, costs 12 production: +2 culture; draw 1 more card each turn before discarding; "
        "1 VP; cannot be destroyed.",
        "Your resources: 3 food, 1 commerce",
        "Your points: 3 VP (2 population, 1 technologies, 0 wonders); happiness 1, culture 0",
        "Your plots: 1. Grassland (2 food; population 2); 2. Plains (1 food, 1 production; population 0); "
        "3. Hills (2 production; population 0); 4. River (1 food, 2 commerce; population 0)"]
    assert "- Pottery: Technology, costs 4 commerce: draw 1 more card each turn before discarding; 1 VP." \
        in summary["summary_lines"]  # the technologies on display, with their text
    assert any(line.startswith("Seat 1: 0 VP; 0 food, 0 production, 0 commerce; 0 cards in hand; plots 1. Grassland")
               for line in summary["summary_lines"])
    _, text, _ = render("your_turn", {**summary, "game_title": "Civ #1", "deadline": "", "actions": [],
                                      "game_url": "https://t.test/g/1", "rules_url": "https://t.test/rules/civ-cards",
                                      "preferences_url": "https://t.test/p",
                                      "unsubscribe_url": "https://t.test/u", "board_cid": None, "board_alt": ""})
    assert "Your hand: 2 Swordsman, 1 Great Library\n- Swordsman: Unit (melee)" in text


def test_each_civ_email_link_names_the_card_or_plot_it_acts_on():
    s = civ_position({0: civ_player(hand={"walls": 1, "granary": 1, "silk": 1})}, phase="discard",
                     discarding={"order": [0], "left": 2})
    labels = [c["label"] for c in decision_summary(CIV, s, 0, NAMES, [])["choices"]]
    assert labels == ["discard Granary", "discard Walls", "discard Silk"]  # not six lines "discard a card"
    buying = civ_position({0: civ_player(hand={"silk": 1}, population={1: 1}, resources={"food": 6})})
    labels = [c["label"] for c in decision_summary(CIV, buying, 0, NAMES, [])["choices"]]
    assert "buy a population for plot 1 (Grassland)" in labels and "play Silk for 2 commerce" in labels
