"""How many reviews a day a parameter set asks of the learner at the desired retention (issue
26: what a fit changes, beside how well it predicts). Each card of a sample of the learner's own
starts from the memory state its log gives with those parameters and is studied for a year as
FSRS schedules it: on each due date the learner recalls it with the probability FSRS predicts
(Good) or forgets it (Again, then its relearning step), drawn from a generator seeded with the
card, so the figure is the same on every run. The average over the year counts the relearning
too; new cards are left out, since both sets introduce them alike.

It is an estimate, as Anki's simulator is: the learner's real recall is what the fit measured,
and a lower retention asks fewer reviews of any set."""

from __future__ import annotations

from dataclasses import dataclass
from random import Random
from typing import TYPE_CHECKING

from app.store.transfer.steps import Progress as Step
from app.store.transfer.steps import Steps
from app.study.days import Moment, ReviewLog
from app.study.fast_replay import replayer
from app.study.model import DAY_MS, Rating

if TYPE_CHECKING:
    from app.study.options import StudyOptions

HORIZON_DAYS = 365
# Cards simulated: the rest are like them (every n-th card of the folder, the same each time).
# About half a millisecond each under CPython; 600 of a simulated learner's 2,000 cards gave
# their figure within 15 %, and both sets draw alike, so their difference varies less.
SAMPLE = 1_000
MOST_REVIEWS = 2_000  # per card and year: a bound in case a set keeps a card in relearning


@dataclass(frozen=True, slots=True)
class Workload:
    """Reviews a day over the coming year, for all the cards the sample stands for."""

    per_day: float
    cards: int
    retention: float


def sample(logs: list[ReviewLog]) -> list[ReviewLog]:
    """Every n-th card's log, at most SAMPLE of them."""
    return logs[:: max(1, -(-len(logs) // SAMPLE))]


def workload(logs: list[ReviewLog], options: StudyOptions, now: Moment) -> Steps[Workload]:
    """The reviews a day `options` (its parameters, at its retention) asks of the cards with
    these `logs` from `now`; a step after each card simulated."""
    chosen = sample(logs)
    end = now.at + HORIZON_DAYS * DAY_MS
    reviews = 0
    for done, log in enumerate(chosen, 1):
        if log:  # seeded by the card's first review: a card draws alike in any sample
            reviews += _simulated(log, options, now, end, f"workload:{log[0][1].at}:{len(log)}")
        yield Step("Simulating a year of reviews", done, len(chosen))
    scale = len(logs) / len(chosen) if chosen else 0.0
    return Workload(reviews * scale / HORIZON_DAYS, len(logs), options.retention)


def _simulated(log: ReviewLog, options: StudyOptions, now: Moment, end: int, seed: str) -> int:
    """How many reviews the card of `log` gets from `now` until `end`."""
    chosen = replayer(options.retention, options.parameters)
    reviews = [(0, int(grade), at.day, at.at) for grade, at in log]
    _, _, stability, _, due, _, _, _ = chosen.schedule(reviews, seed)
    draw = Random(seed).random
    added = 0
    at = max(due, now.at)
    while at < end and added < MOST_REVIEWS:
        day = Moment(at, now.shift).day
        recalled = draw() < chosen.recall(stability, day - reviews[-1][2])
        reviews.append((0, int(Rating.GOOD if recalled else Rating.AGAIN), day, at))
        _, _, stability, _, due, _, _, _ = chosen.schedule(reviews, seed)
        added += 1
        at = max(due, at + 1)
    return added
