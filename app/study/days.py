"""Study days: the day boundary follows the user's local time (default 4 a.m., like Anki).

The browser supplies the local UTC offset (Pyodide's clock is UTC), so the core stays pure. One
definition serves everything that counts days: what is due today, and the days a card has gone
unreviewed when FSRS schedules it, counted as Anki and fsrs-rs count them, in study days, not
24-hour periods (decision 036). Each review keeps the number of its study day, so a replay of a
card's reviews counts the same days on any device, whatever its time zone.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.study.model import DAY_MS, MINUTE_MS, Rating


@dataclass(frozen=True, slots=True)
class StudyDay:
    """The study day containing a moment: [start, end) in epoch ms, and its local date number."""

    start: int
    end: int
    number: int  # days since the epoch in local time, shifted by the boundary hour


@dataclass(frozen=True, slots=True)
class Moment:
    """A moment (epoch ms) and the study days around it, as the learner's clock counts them."""

    at: int
    shift: int  # ms added to a moment before dividing into days: local offset minus start hour

    @classmethod
    def logged(cls, at: int, day: int) -> Moment:
        """A logged review's moment: its time and the study day it was kept with."""
        return cls(at, day * DAY_MS - at)

    @property
    def day(self) -> int:
        return self.day_of(self.at)

    def day_of(self, at: int) -> int:
        """The number of the study day that holds `at`, by this moment's clock."""
        return (at + self.shift) // DAY_MS


# A card's reviews in the order they were logged, each grade at its moment: what its schedule
# is the replay of (app/study/scheduler.py) and what FSRS's parameters are fitted to.
ReviewLog = list[tuple[Rating, "Moment"]]


def moment(now: int, utc_offset_minutes: int, start_hour: int) -> Moment:
    """`utc_offset_minutes` is local time minus UTC (e.g. +60 in Paris in winter)."""
    return Moment(now, utc_offset_minutes * MINUTE_MS - start_hour * 60 * MINUTE_MS)


def study_day(now: int, utc_offset_minutes: int, start_hour: int) -> StudyDay:
    """The study day holding `now` (see `moment` for the offset)."""
    at = moment(now, utc_offset_minutes, start_hour)
    start = at.day * DAY_MS - at.shift
    return StudyDay(start=start, end=start + DAY_MS, number=at.day)
