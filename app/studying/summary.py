"""The end-of-session summary: how many, how well, how long, what was missed, what comes next."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from app.store import Store
from app.store.study import SessionRow
from app.study.intervals import spoken_interval
from app.study.model import DAY_MS, Rating
from app.studying.past import PastSession, local_day, missed_terms, previous_sessions
from app.text.counting import counted


@dataclass(frozen=True, slots=True)
class Summary:
    cards: int
    correct: int
    time_ms: int
    new_learned: int
    missed: tuple[str, ...]  # terms graded Again at least once, in the order first missed
    next_in_ms: int | None  # how long until the scope's next card is due
    due_tomorrow: int  # cards of the scope due within a day from now
    today: date  # the learner's local day when the session ended
    previous: PastSession | None = None  # the last session of the same scope before this one

    @property
    def accuracy(self) -> float | None:
        return self.correct / self.cards if self.cards else None


def summarise(store: Store, session: SessionRow, now: int, utc_offset_minutes: int) -> Summary:
    previous = previous_sessions(store, session.id, utc_offset_minutes=utc_offset_minutes, limit=1)
    reviews = store.study.reviews(session.id)
    next_due, tomorrow = store.study.upcoming(session.scope, now, now + DAY_MS)
    return Summary(
        cards=len(reviews),
        correct=sum(1 for r in reviews if r.rating != Rating.AGAIN),
        time_ms=sum(r.duration_ms for r in reviews),
        new_learned=sum(1 for r in reviews if r.was_new),
        missed=missed_terms(reviews),
        next_in_ms=None if next_due is None else next_due - now,
        due_tomorrow=tomorrow,
        today=local_day(now, utc_offset_minutes),
        previous=previous[0] if previous else None,
    )


MISSED_IN_PROMPT = 30


def scholar_prompt(missed: Sequence[str], scope: str) -> str:
    """What "Ask the Scholar about the words I missed" sends: the words, and what would help."""
    words = ", ".join(missed[:MISSED_IN_PROMPT])
    more = f" (and {len(missed) - MISSED_IN_PROMPT} more)" if len(missed) > MISSED_IN_PROMPT else ""
    return (
        f"I just studied {scope} and missed these words: {words}{more}. For each one, give me "
        "a short mnemonic to remember it and two example sentences that use it."
    )


def next_due(summary: Summary) -> str:
    if summary.next_in_ms is None:
        return "No reviews are scheduled yet."
    soon = f"The next review is due {spoken_interval(summary.next_in_ms)}"
    if summary.due_tomorrow:
        due = counted(summary.due_tomorrow, "card is", "cards are")
        return f"{soon}; {due} due within a day."
    return f"{soon}."
