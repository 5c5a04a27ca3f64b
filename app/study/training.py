"""What FSRS's parameters are fitted to, and how well a set of them fits: the learner's own
review log as fsrs-rs takes it (Anki's "Optimize"), and the log loss and RMSE of its
predictions.

A card's log of n reviews gives up to n - 1 training items, each its reviews up to one after
the first, with the days between them counted in study days (decision 036), as Anki gives its
log to fsrs-rs. An item whose reviews all fell on the first one's study day is left out:
fsrs-rs refuses it (it panics: "at least one review with delta_t > 0 is required"). The fit
itself runs in the page (fsrs-rs compiled to WebAssembly, in a worker); this module stays pure.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import pairwise

from app.study.days import ReviewLog

# Below about 230 items fsrs-rs keeps the default parameters; from there it fits the first
# stabilities only, and from about 400 nearly all 21 (measured with fsrs-rs-python 0.9.3 on a
# generated log; docs/decisions/037-fitted-parameters.md). So the fit is offered from 400.
MINIMUM_ITEMS = 400
BINS = 20  # predicted recall, in equal steps, for the RMSE
EPSILON = 1e-4  # a prediction of 0 or 1 would make the log loss infinite


@dataclass
class TrainingSet:
    """Training items flattened as fsrs-rs's `computeParameters` takes them: each item's
    grades (1-4) and days since the review before (0 for the first), and each item's length."""

    ratings: list[int] = field(default_factory=list)
    delta_ts: list[int] = field(default_factory=list)
    lengths: list[int] = field(default_factory=list)

    @property
    def items(self) -> int:
        return len(self.lengths)

    @property
    def enough(self) -> bool:
        return self.items >= MINIMUM_ITEMS

    def add(self, logs: Iterable[ReviewLog]) -> TrainingSet:
        """Add the training items of every card's log in `logs`; returns itself."""
        for log in logs:
            ratings = [int(grade) for grade, _ in log]
            days = [at.day for _, at in log]
            deltas = [0, *(max(later - earlier, 0) for earlier, later in pairwise(days))]
            for end in range(2, len(log) + 1):
                if not any(deltas[1:end]):
                    continue
                self.ratings.extend(ratings[:end])
                self.delta_ts.extend(deltas[:end])
                self.lengths.append(end)
        return self


def training_set(logs: Iterable[ReviewLog]) -> TrainingSet:
    """The training items of every card's log."""
    return TrainingSet().add(logs)


@dataclass(frozen=True, slots=True)
class Accuracy:
    """How well predictions of recall matched what the learner did: the log loss, and the
    RMSE between predicted and actual recall over bins of prediction (lower is better)."""

    log_loss: float
    rmse: float
    reviews: int


@dataclass
class Tally:
    """Predictions of recall counted as they come (a chunk of cards at a time), towards
    their `Accuracy`."""

    loss: float = 0.0
    count: int = 0
    # Per bin of predicted recall: how many, their sum, and how many were recalled.
    bins: list[list[float]] = field(default_factory=lambda: [[0.0, 0.0, 0.0] for _ in range(BINS)])

    def add(self, predictions: Iterable[tuple[float, bool]]) -> None:
        """Of (predicted recall, recalled) pairs; reviews on the day of the one before are
        left out by the caller, as fsrs-rs leaves them out of its loss."""
        for predicted, recalled in predictions:
            p = min(max(predicted, EPSILON), 1 - EPSILON)
            self.loss -= math.log(p if recalled else 1 - p)
            self.count += 1
            slot = self.bins[min(int(p * BINS), BINS - 1)]
            slot[0] += 1
            slot[1] += p
            slot[2] += recalled

    def accuracy(self) -> Accuracy:
        if not self.count:
            return Accuracy(0.0, 0.0, 0)
        squared = sum((b[1] - b[2]) ** 2 / b[0] for b in self.bins if b[0])
        return Accuracy(self.loss / self.count, math.sqrt(squared / self.count), self.count)


def accuracy(predictions: Iterable[tuple[float, bool]]) -> Accuracy:
    """Of (predicted recall, recalled) pairs, all at once (see `Tally.add`)."""
    tally = Tally()
    tally.add(predictions)
    return tally.accuracy()
