"""Review logs of a simulated learner, for the tests of fitting FSRS's parameters: cards
studied over months, each review a study day or more after the last, recalled with a
probability that falls with time since the last review (a memory that is not FSRS's own, so a
fit has something to learn)."""

from __future__ import annotations

import math
import random

import fsrs_rs_python

from app.study.days import Moment, ReviewLog
from app.study.model import DAY_MS, Rating
from app.study.training import TrainingSet

START_DAY = 20_000  # 2024-10-04


def simulated_logs(cards: int, seed: int = 7) -> list[ReviewLog]:
    rnd = random.Random(seed)
    logs = []
    for _ in range(cards):
        first = rnd.choice([Rating.AGAIN, Rating.HARD, Rating.GOOD, Rating.GOOD, Rating.EASY])
        strength = {Rating.AGAIN: 0.3, Rating.HARD: 1.2, Rating.GOOD: 3.0, Rating.EASY: 10.0}[first]
        day = START_DAY + rnd.randrange(60)
        log = [(first, _at(day, rnd))]
        for _ in range(rnd.randint(2, 9)):
            day += max(1, round(strength * rnd.uniform(0.6, 1.6)))
            recalled = rnd.random() < math.exp(math.log(0.9) * (day - log[-1][1].day) / strength)
            grade = rnd.choice([Rating.HARD, Rating.GOOD, Rating.GOOD, Rating.EASY])
            log.append((grade if recalled else Rating.AGAIN, _at(day, rnd)))
            strength = strength * (2.5 if recalled else 0.3) + 0.1
        logs.append(log)
    return logs


def _at(day: int, rnd: random.Random) -> Moment:
    return Moment.logged(day * DAY_MS + rnd.randrange(DAY_MS), day)


def rs_items(training: TrainingSet) -> list[fsrs_rs_python.FSRSItem]:
    """The same training items as fsrs-rs-python takes them."""
    items, start = [], 0
    for length in training.lengths:
        end = start + length
        pairs = zip(training.ratings[start:end], training.delta_ts[start:end], strict=True)
        items.append(fsrs_rs_python.FSRSItem([fsrs_rs_python.FSRSReview(r, d) for r, d in pairs]))
        start = end
    return items
