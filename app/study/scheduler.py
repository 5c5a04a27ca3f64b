"""FSRS-6 scheduling through py-fsrs: a card's possible next schedules and history replay.

The only module that imports `fsrs`. It is imported when studying first needs it (never at
startup: due counts are plain SQL over stored due times), and the browser loads the wheel just
before. A card's schedule is a pure function of its reviews (decision 036): each grade is
computed at the moment it is logged, the days between reviews are the learner's study days
kept with each review (app/study/days.py, as Anki counts them), and the fuzz that spreads
reviews over nearby days is drawn from a hash of the card and its review count (`fuzz_draw`).
So the intervals shown on the grade buttons are the ones applied (unless a study day ends
between showing and grading), and a replay of the log gives the stored schedule exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import TYPE_CHECKING

import fsrs.scheduler
from fsrs import Card, Rating, Scheduler, State

from app.study.days import Moment, ReviewLog
from app.study.model import CardState, Progress, Weights, fuzz_draw
from app.study.model import Rating as Grade

if TYPE_CHECKING:
    from app.study.options import StudyOptions

LEARNING_STEPS = (timedelta(minutes=1), timedelta(minutes=10))
RELEARNING_STEPS = (timedelta(minutes=10),)
_FSRS_GLOBALS = vars(fsrs.scheduler)


def _utc(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, tz=UTC)


def _ms(moment: datetime) -> int:
    return round(moment.timestamp() * 1000)


class _SeededScheduler(Scheduler):
    """py-fsrs's scheduler with its fuzz drawn from `draw`, set before each review. py-fsrs
    draws from the module's `random` (6.3.2, pinned); its own fuzz ranges are kept by lending
    it the seeded draw for that one call."""

    draw: Callable[[], float]

    def _get_fuzzed_interval(self, *, interval: timedelta) -> timedelta:
        shared = _FSRS_GLOBALS["random"]
        _FSRS_GLOBALS["random"] = self.draw
        try:
            return super()._get_fuzzed_interval(interval=interval)
        finally:
            _FSRS_GLOBALS["random"] = shared


@lru_cache(maxsize=32)
def scheduler(retention: float, weights: Weights | None = None) -> _SeededScheduler:
    """A scheduler aiming at `retention`, with the folder's fitted parameters (None: FSRS-6's
    defaults), each kept inside py-fsrs's bounds."""
    return _SeededScheduler(
        parameters=_bounded(weights) if weights else _FSRS_GLOBALS["DEFAULT_PARAMETERS"],
        desired_retention=retention,
        learning_steps=LEARNING_STEPS,
        relearning_steps=RELEARNING_STEPS,
        enable_fuzzing=True,
    )


def _bounded(weights: Weights) -> Weights:
    low, high = _FSRS_GLOBALS["LOWER_BOUNDS_PARAMETERS"], _FSRS_GLOBALS["UPPER_BOUNDS_PARAMETERS"]
    return tuple(min(max(v, lo), hi) for v, lo, hi in zip(weights, low, high, strict=True))


def _card(progress: Progress | None, at: Moment) -> Card:
    # A card id is given: without one, py-fsrs makes one from the clock and sleeps 1 ms.
    if progress is None or progress.state == CardState.NEW:
        return Card(card_id=0)
    last_review = None
    if progress.last_review is not None:
        # py-fsrs counts whole 24-hour periods since the last review; a last review that many
        # days before this moment makes it count study days instead.
        last_day = progress.last_day
        if last_day is None:
            last_day = at.day_of(progress.last_review)
        last_review = _utc(at.at) - timedelta(days=max(at.day - last_day, 0))
    return Card(
        card_id=0,
        state=State(int(progress.state)),
        step=progress.step,
        stability=progress.stability,
        difficulty=progress.difficulty,
        due=_utc(progress.due),
        last_review=last_review,
    )


def _progress(card: Card, before: Progress | None, rating: Grade, at: Moment) -> Progress:
    lapsed = before is not None and before.state == CardState.REVIEW and rating == Grade.AGAIN
    return Progress(
        state=CardState(int(card.state)),
        step=card.step,
        stability=card.stability,
        difficulty=card.difficulty,
        due=_ms(card.due),
        last_review=at.at,
        reps=(before.reps if before else 0) + 1,
        lapses=(before.lapses if before else 0) + int(lapsed),
        last_day=at.day,
    )


def graded(
    progress: Progress | None,
    grade: Grade,
    at: Moment,
    options: StudyOptions,
    seed: str,
) -> Progress:
    """The card's schedule after `grade` given at `at`; `seed` names the card (card_seed)."""
    chosen = scheduler(options.retention, options.parameters)
    drawn = fuzz_draw(seed, progress.reps if progress else 0)
    chosen.draw = lambda: drawn
    after, _ = chosen.review_card(_card(progress, at), Rating(int(grade)), _utc(at.at))
    return _progress(after, progress, grade, at)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a grade would do to a card reviewed at `reviewed_at`."""

    rating: Grade
    progress: Progress
    reviewed_at: int

    @property
    def interval_ms(self) -> int:
        return self.progress.due - self.reviewed_at


def outcomes(
    progress: Progress | None,
    at: Moment,
    options: StudyOptions,
    seed: str,
) -> dict[Grade, Outcome]:
    """The card's schedule after each of the four grades, reviewed at `at`."""
    return {
        grade: Outcome(grade, graded(progress, grade, at, options, seed), at.at) for grade in Grade
    }


def replayed(
    history: Iterable[tuple[Grade, Moment]],
    options: StudyOptions,
    seed: str,
) -> list[Progress]:
    """The schedule after each grade of `history`, in the order given (the log's), as a live
    grade at that moment left it (or would have): what a card's review log, or an imported
    one, gives."""
    steps: list[Progress] = []
    for grade, at in history:
        steps.append(graded(steps[-1] if steps else None, grade, at, options, seed))
    return steps


def replay(
    history: Iterable[tuple[Grade, Moment]],
    options: StudyOptions,
    seed: str,
) -> Progress:
    """A card's schedule rebuilt from its grades in order. Raises ValueError when there
    is no grade to replay."""
    steps = replayed(history, options, seed)
    if not steps:
        raise ValueError("no review to replay")
    return steps[-1]


def predictions(log: ReviewLog, options: StudyOptions) -> Iterator[tuple[float, bool]]:
    """For each review of `log` a study day or more after the one before: the recall FSRS
    predicted with `options`' parameters, and whether the learner recalled (not Again)."""
    progress: Progress | None = None
    for grade, at in log:
        if progress is not None and at.day > (progress.last_day or at.day):
            yield retrievability(progress, at, options), grade != Grade.AGAIN
        progress = graded(progress, grade, at, options, "")  # fuzz does not touch memory


def retrievability(progress: Progress, at: Moment, options: StudyOptions) -> float:
    """The recall FSRS predicts for a studied card at `at`, with `options`' parameters."""
    chosen = scheduler(options.retention, options.parameters)
    return float(chosen.get_card_retrievability(_card(progress, at), _utc(at.at)))
