"""FSRS-6 scheduling through py-fsrs: a card's possible next schedules and history replay.

The only module that imports `fsrs`. It is imported when studying first needs it (never at
startup: due counts are plain SQL over stored due times), and the browser loads the wheel just
before. Fuzzing spreads reviews over nearby days; to keep the interval shown on each grade
button equal to the one applied, the four outcomes are computed once when the card is shown
and the chosen one is applied relative to the moment of the grade (`Outcome.applied_at`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from functools import lru_cache

from fsrs import Card, Rating, Scheduler, State

from app.study.model import CardState, Progress
from app.study.model import Rating as Grade

LEARNING_STEPS = (timedelta(minutes=1), timedelta(minutes=10))
RELEARNING_STEPS = (timedelta(minutes=10),)


def _utc(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, tz=UTC)


def _ms(moment: datetime) -> int:
    return round(moment.timestamp() * 1000)


@lru_cache(maxsize=32)
def scheduler(retention: float) -> Scheduler:
    """The default FSRS-6 parameters (the optimizer needs torch, which Pyodide lacks)."""
    return Scheduler(
        desired_retention=retention,
        learning_steps=LEARNING_STEPS,
        relearning_steps=RELEARNING_STEPS,
        enable_fuzzing=True,
    )


def _card(card_id: int, progress: Progress | None) -> Card:
    if progress is None or progress.state == CardState.NEW:
        return Card(card_id=card_id)
    return Card(
        card_id=card_id,
        state=State(int(progress.state)),
        step=progress.step,
        stability=progress.stability,
        difficulty=progress.difficulty,
        due=_utc(progress.due),
        last_review=None if progress.last_review is None else _utc(progress.last_review),
    )


def _progress(card: Card, before: Progress | None, rating: Grade) -> Progress:
    lapsed = before is not None and before.state == CardState.REVIEW and rating == Grade.AGAIN
    return Progress(
        state=CardState(int(card.state)),
        step=card.step,
        stability=card.stability,
        difficulty=card.difficulty,
        due=_ms(card.due),
        last_review=None if card.last_review is None else _ms(card.last_review),
        reps=(before.reps if before else 0) + 1,
        lapses=(before.lapses if before else 0) + int(lapsed),
    )


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a grade would do to a card reviewed at `reviewed_at`."""

    rating: Grade
    progress: Progress
    reviewed_at: int

    @property
    def interval_ms(self) -> int:
        return self.progress.due - self.reviewed_at

    def applied_at(self, moment: int) -> Progress:
        """The same schedule for a grade given at `moment` (seconds after it was shown)."""
        shift = moment - self.reviewed_at
        last = self.progress.last_review
        return replace(
            self.progress,
            due=self.progress.due + shift,
            last_review=None if last is None else last + shift,
        )


def _graded(
    chosen: Scheduler, progress: Progress | None, grade: Grade, now: int, card_id: int
) -> Progress:
    after, _ = chosen.review_card(_card(card_id, progress), Rating(int(grade)), _utc(now))
    return _progress(after, progress, grade)


def outcomes(
    progress: Progress | None, now: int, retention: float, card_id: int = 0
) -> dict[Grade, Outcome]:
    """The card's schedule after each of the four grades, reviewed at `now`."""
    chosen = scheduler(retention)
    return {
        grade: Outcome(grade, _graded(chosen, progress, grade, now, card_id), now)
        for grade in Grade
    }


def replayed(
    history: Iterable[tuple[Grade, int]], retention: float, card_id: int = 0
) -> list[Progress]:
    """The schedule after each grade of `history` (rating, epoch ms), taken in time order, as a
    live grade at that moment would have left it: what an imported review log is rebuilt
    from. Only the chosen grade is computed, a quarter of the work of `outcomes`."""
    chosen = scheduler(retention)
    steps: list[Progress] = []
    for grade, moment in sorted(history, key=lambda item: item[1]):
        steps.append(_graded(chosen, steps[-1] if steps else None, grade, moment, card_id))
    return steps


def replay(history: Iterable[tuple[Grade, int]], retention: float, card_id: int = 0) -> Progress:
    """A card's schedule rebuilt from its grades (rating, epoch ms) in time order, e.g. an
    Anki review log. Raises ValueError when there is no grade to replay."""
    steps = replayed(history, retention, card_id)
    if not steps:
        raise ValueError("no review to replay")
    return steps[-1]
