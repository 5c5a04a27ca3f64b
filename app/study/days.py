"""Study days: the day boundary follows the user's local time (default 4 a.m., like Anki).

The browser supplies the local UTC offset (Pyodide's clock is UTC), so the core stays pure.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.study.model import DAY_MS, MINUTE_MS


@dataclass(frozen=True, slots=True)
class StudyDay:
    """The study day containing a moment: [start, end) in epoch ms, and its local date number."""

    start: int
    end: int
    number: int  # days since the epoch in local time, shifted by the boundary hour


def study_day(now: int, utc_offset_minutes: int, start_hour: int) -> StudyDay:
    """`utc_offset_minutes` is local time minus UTC (e.g. +60 in Paris in winter)."""
    shift = utc_offset_minutes * MINUTE_MS - start_hour * 60 * MINUTE_MS
    number = (now + shift) // DAY_MS
    start = number * DAY_MS - shift
    return StudyDay(start=start, end=start + DAY_MS, number=number)
