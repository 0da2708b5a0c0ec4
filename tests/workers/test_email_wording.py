"""Emails say the clock and the points as a person would."""
from engine import get_game
from workers.compose import _time_control_words
from workers.decision_mail import decision_summary


def test_the_clock_is_said_in_plain_words():
    assert _time_control_words({}) == (
        "each player starts with 3 days to decide; every move you make adds 1 day, up to 7 days in hand.")
    assert _time_control_words({"initial_seconds": 129600, "extension_seconds": 43200, "cap_seconds": 172800}) == (
        "each player starts with 1 day and 12 hours to decide; every move you make adds 12 hours, up to 2 days in hand.")
    assert _time_control_words({"initial_seconds": 86400, "extension_seconds": 0, "cap_seconds": 86400}) == (
        "each player starts with 1 day to decide.")


def test_no_points_yet_is_said_so_and_points_list_only_what_was_scored():
    game = get_game("tigris")
    state = game.setup(2, 1)
    seat = next(iter(game.pending(state)))
    summary = decision_summary(game, state, seat, {0: "ann", 1: "bob"}, [])
    assert summary["scores"] == "none yet"
