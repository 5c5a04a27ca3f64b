"""Past study sessions of the same scope, read back so the learner (and the Scholar) can hear
how it went last time: the day, how many were right and the words missed. Bounded: only the
few newest sessions that graded something are read."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from app.store import Store
from app.store.study import ReviewRow
from app.study.model import MINUTE_MS, Rating
from app.text.counting import named

PAST_SESSIONS = 3  # remembered for the Scholar; the summary names the last one


@dataclass(frozen=True, slots=True)
class PastSession:
    day: date  # the local day it started
    cards: int
    correct: int
    missed: tuple[str, ...]  # terms graded Again, in the order first missed


def previous_sessions(
    store: Store, session_id: int, *, utc_offset_minutes: int, limit: int = PAST_SESSIONS
) -> list[PastSession]:
    """The sessions before `session_id` over the same scope, newest first, at most `limit`."""
    return [
        recorded(store, earlier, started_at, utc_offset_minutes)
        for earlier, started_at in store.study.earlier_sessions(session_id, limit)
    ]


def recorded(
    store: Store, session_id: int, started_at: int, utc_offset_minutes: int
) -> PastSession:
    """How one session went, from its reviews."""
    reviews = store.study.reviews(session_id)
    return PastSession(
        day=local_day(started_at, utc_offset_minutes),
        cards=len(reviews),
        correct=sum(1 for r in reviews if r.rating != Rating.AGAIN),
        missed=missed_terms(reviews),
    )


def missed_terms(reviews: Sequence[ReviewRow]) -> tuple[str, ...]:
    """The terms graded Again at least once, in the order first missed."""
    missed: dict[str, None] = {}
    for review in reviews:
        if review.rating == Rating.AGAIN:
            missed.setdefault(review.term)
    return tuple(missed)


def spoken_day(day: date) -> str:
    """ "24 November 2026": the same in every locale, and read out well by every voice."""
    return f"{day.day} {day:%B %Y}"


def local_day(at_ms: int, utc_offset_minutes: int) -> date:
    moment = datetime.fromtimestamp(at_ms / 1000, UTC)
    return (moment + timedelta(milliseconds=utc_offset_minutes * MINUTE_MS)).date()


def last_time(past: PastSession, today: date) -> str:
    """The previous session of the same scope in one sentence, for the screen and the ear."""
    went = f"you got {past.correct:,} of {past.cards:,} right and missed {named(past.missed)}."
    days_ago = (today - past.day).days
    if days_ago == 0:
        return f"Earlier today {went}"
    if days_ago == 1:
        return f"Yesterday {went}"
    return f"Last time ({spoken_day(past.day)}) {went}"
