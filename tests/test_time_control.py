"""Time control arithmetic: bank, quiet hours, absences, reminders."""
from datetime import UTC, date, datetime, timedelta

import pytest

from service.time_control import TimeControl, bank_after_decision, deadline_for, reminder_times

UTC = UTC
START = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
DAY = 86400


def test_bank_loses_time_used_gains_extension_and_stops_at_cap():
    tc = TimeControl(initial_seconds=3 * DAY, extension_seconds=DAY, cap_seconds=5 * DAY)
    assert bank_after_decision(3 * DAY, 0.5 * DAY, tc) == 3.5 * DAY
    assert bank_after_decision(5 * DAY, 0, tc) == 5 * DAY
    assert bank_after_decision(DAY, 2 * DAY, tc) == DAY  # overdrawn: only the extension


def test_deadline_is_start_plus_bank():
    assert deadline_for(START, 2 * DAY, TimeControl()) == START + timedelta(days=2)


def test_deadline_in_quiet_hours_moves_to_their_end_in_the_players_timezone():
    tc = TimeControl(quiet_hours=(22, 7))
    # 12:00 UTC + 11 h = 23:00 UTC = 00:00 in Rome (UTC+1): quiet until 07:00 Rome.
    deadline = deadline_for(START, 11 * 3600, tc, timezone="Europe/Rome")
    assert deadline == datetime(2026, 11, 24, 6, 0, tzinfo=UTC)
    assert deadline_for(START, 3600, tc, timezone="Europe/Rome") == START + timedelta(hours=1)


def test_absence_days_hold_the_clock():
    deadline = deadline_for(START, 2 * DAY, TimeControl(), absences=[(date(2026, 11, 24), date(2026, 11, 25))])
    assert deadline == START + timedelta(days=4)
    unaffected = deadline_for(START, 2 * DAY, TimeControl(), absences=[(date(2026, 12, 24), date(2026, 12, 25))])
    assert unaffected == START + timedelta(days=2)


def test_reminders_24h_and_2h_before_unless_already_past():
    deadline = START + timedelta(days=2)
    assert reminder_times(START, deadline, TimeControl()) == [deadline - timedelta(hours=24),
                                                              deadline - timedelta(hours=2)]
    short = START + timedelta(hours=5)
    assert reminder_times(START, short, TimeControl()) == [short - timedelta(hours=2)]


def test_bad_time_controls_are_refused():
    for bad in ({"initial_seconds": -1}, {"initial_seconds": 9 * DAY}, {"quiet_hours": (22, 25)}):
        with pytest.raises(ValueError):
            TimeControl(**bad)


def test_durations_are_said_in_days_and_hours_and_under_an_hour_in_minutes():
    from service.time_control import duration_words

    assert duration_words(3 * 86400) == "3 days"
    assert duration_words(86400 + 12 * 3600) == "1 day and 12 hours"
    assert duration_words(3600) == "1 hour"
    assert duration_words(20 * 60) == "20 minutes"
    assert duration_words(50) == "1 minute"
    assert duration_words(0) == "no time"
