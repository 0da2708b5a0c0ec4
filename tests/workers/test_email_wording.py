"""Emails say the clock and the points as a person would."""
from engine import get_game
from service.time_control import time_control_words
from workers.decision_mail import decision_summary


def test_the_clock_is_said_in_plain_words():
    assert time_control_words({}) == (
        "each player starts with 3 days to decide; every move you make adds 1 day, up to 7 days in hand.")
    assert time_control_words({"initial_seconds": 129600, "extension_seconds": 43200, "cap_seconds": 172800}) == (
        "each player starts with 1 day and 12 hours to decide; every move you make adds 12 hours, "
        "up to 2 days in hand.")
    assert time_control_words({"initial_seconds": 86400, "extension_seconds": 0, "cap_seconds": 86400}) == (
        "each player starts with 1 day to decide.")


def test_no_points_yet_is_said_so_and_points_list_only_what_was_scored():
    game = get_game("tigris")
    state = game.setup(2, 1)
    seat = next(iter(game.pending(state)))
    summary = decision_summary(game, state, seat, {0: "ann", 1: "bob"}, [])
    assert "Your points: none yet" in summary["summary_lines"]


def test_decision_emails_tell_turns_by_round_as_the_page_does():
    game = get_game("tigris")
    names = {0: "ann", 1: "bob", 2: "cy"}
    state = game.setup(3, 5)
    events = []
    for _ in range(3):  # round 1: everyone passes
        seat = next(iter(game.pending(state)))
        state, events = game.apply(state, seat, {"type": "pass"})
    seat = next(iter(game.pending(state)))
    summary = decision_summary(game, state, seat, names, events)
    assert summary["prompt"].startswith("Take your first action of round 2,")
    assert f"{names[(seat - 1) % 3]}'s turn in round 1 is over." in summary["changes"]


def test_the_game_over_email_says_each_games_final_score_in_its_words():
    score = {"points": {"red": 4}, "treasures": 0, "with_treasures": {"red": 4}, "sorted": [0, 2, 3, 4]}
    assert get_game("tigris").score_words(score) == "colours from weakest: 0 2 3 4"
    assert get_game("euphrat-cards").score_words({"sorted": [1, 1, 4, 8]}) == "colours from weakest: 1 1 4 8"
    assert get_game("eden").score_words(18) == "18 points"
    assert get_game("civ-cards").score_words({"vp": 15, "technologies": 5, "population": 10, "wonders": 0}) == (
        "15 VP (5 technologies, 10 population, 0 wonders)")
