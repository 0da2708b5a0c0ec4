"""The content of a decision email, from real engine states."""
import json

from engine.simulate import random_playout
from workers.decision_mail import decision_summary

from tests.engine.tigris_positions import GAME, play, position

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
    assert summary["hand"] == "2 red, 4 black"


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
