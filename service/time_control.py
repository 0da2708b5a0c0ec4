"""Time control: a chess clock counted in days, quiet hours and absences.

Each player has a bank of time. A decision may take at most what is in the bank; when
it is made, the time used is taken out and the extension added (up to the cap). The
deadline of a decision is its start plus the bank, moved out of the player's quiet
hours (in his own timezone) and past his declared absences. All functions are pure;
the caller passes the current time.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo


@dataclass(frozen=True)
class TimeControl:
    initial_seconds: int = 3 * 86400
    extension_seconds: int = 86400
    cap_seconds: int = 7 * 86400
    quiet_hours: tuple[int, int] | None = None  # (from hour, to hour) local, e.g. (22, 7)
    reminder_offsets: tuple[int, ...] = field(default=(86400, 7200))  # before the deadline

    def __post_init__(self):
        if min(self.initial_seconds, self.extension_seconds, self.cap_seconds) < 0:
            raise ValueError("time control seconds must not be negative")
        if self.initial_seconds > self.cap_seconds:
            raise ValueError("the initial time may not exceed the cap")
        if self.quiet_hours is not None and not all(0 <= h < 24 for h in self.quiet_hours):
            raise ValueError("quiet hours are two hours of the day, 0 to 23")


def bank_after_decision(bank_seconds: float, used_seconds: float, tc: TimeControl) -> float:
    """The bank after a decision that took `used_seconds`."""
    return min(tc.cap_seconds, max(0.0, bank_seconds - used_seconds) + tc.extension_seconds)


def _in_quiet_hours(moment: datetime, quiet: tuple[int, int]) -> bool:
    start, end = quiet
    hour = moment.hour
    return start <= hour < end if start < end else hour >= start or hour < end


def _after_quiet_hours(moment: datetime, quiet: tuple[int, int]) -> datetime:
    """The end of the quiet period that `moment` (local) falls in."""
    end = datetime.combine(moment.date(), time(quiet[1]), tzinfo=moment.tzinfo)
    return end if end > moment else end + timedelta(days=1)


def deadline_for(
    start: datetime,
    bank_seconds: float,
    tc: TimeControl,
    timezone: str = "UTC",
    absences: Sequence[tuple[date, date]] = (),
) -> datetime:
    """When a decision started at `start` (aware) times out."""
    zone = ZoneInfo(timezone)
    deadline = start + timedelta(seconds=bank_seconds)
    # Each absence (inclusive local dates) that overlaps the decision's time holds the
    # clock for its whole length.
    for first, last in sorted(absences):
        absent_from = datetime.combine(first, time(0), tzinfo=zone)
        absent_to = datetime.combine(last + timedelta(days=1), time(0), tzinfo=zone)
        if absent_from < deadline and absent_to > start:
            held = absent_to - max(absent_from, start)
            deadline += held
    if tc.quiet_hours is not None:
        local = deadline.astimezone(zone)
        if _in_quiet_hours(local, tc.quiet_hours):
            deadline = _after_quiet_hours(local, tc.quiet_hours).astimezone(start.tzinfo)
    return deadline


def reminder_times(start: datetime, deadline: datetime, tc: TimeControl) -> list[datetime]:
    """When to remind, earliest first: each offset before the deadline that is still
    after the decision started."""
    times = {deadline - timedelta(seconds=offset) for offset in tc.reminder_offsets}
    return sorted(t for t in times if t > start)


def duration_words(seconds: float) -> str:
    """3 days, 1 day, 12 hours, 1 day and 12 hours; under an hour, its minutes."""
    if 0 < seconds < 3600 - 30:
        minutes = max(1, round(seconds / 60))
        return f"{minutes} minute{'s' if minutes != 1 else ''}"
    days, hours = divmod(round(seconds / 3600), 24)
    parts = [f"{n} {unit}{'s' if n != 1 else ''}" for n, unit in ((days, "day"), (hours, "hour")) if n]
    return " and ".join(parts) or "no time"


def time_control_words(tc: dict | None) -> str:
    """The clock as a person would say it: a bank of days that each decision draws on
    and each decision made tops up, never above the cap."""
    tc = tc or {}
    initial, extension, cap = (tc.get("initial_seconds", 3 * 86400), tc.get("extension_seconds", 86400),
                               tc.get("cap_seconds", 7 * 86400))
    text = f"each player starts with {duration_words(initial)} to decide"
    if extension:
        text += f"; every move you make adds {duration_words(extension)}, up to {duration_words(cap)} in hand"
    return text + "."
