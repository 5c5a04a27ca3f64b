"""FSRS-6 replay of a whole review log in plain floats, bit for bit what py-fsrs gives.

Why it exists: rescheduling a folder (new retention or fitted parameters, and their undo)
replays every card's log (decision 036). Through py-fsrs each review copies a `Card`, builds
datetimes and timedeltas and calls a dozen methods: about 24 us a review, 31 s for 200,000
cards in CPython and more in the page. This module runs one loop of float arithmetic per card
with no object made per review (decision 039).

It stays exactly py-fsrs 6.3.2 (pinned): the same formulas in the same order of operations,
the same clamps and rounding, the same learning and relearning steps, the same study days
(`scheduler._card` hands py-fsrs a last review that many whole days back, so its elapsed days
are the difference of study days) and the same seeded fuzz. Only the last review's due date
is computed: no later state reads a due date or an interval, so the fuzz (a hash of the card's
seed, `fuzz_draw`) is drawn once a card. `app.study.scheduler.replay` stays the reference, and what
live grades use; a property test holds the two equal (tests/study/test_fast_replay.py).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from datetime import timedelta
from functools import lru_cache
from typing import TYPE_CHECKING

from app.study.model import CardState, Progress, Rating, Weights, fuzz_draw
from app.study.scheduler import LEARNING_STEPS, RELEARNING_STEPS, scheduler

if TYPE_CHECKING:
    from app.study.days import Moment, ReviewLog
    from app.study.options import StudyOptions

LEARNING, REVIEW, RELEARNING = (
    int(s) for s in (CardState.LEARNING, CardState.REVIEW, CardState.RELEARNING)
)
# A card's schedule as the card table's columns hold it (state, step, stability, difficulty,
# due, last_review, reps, lapses); the study day of its last review is kept with the review.
Schedule = tuple[int, int | None, float, float, int, int, int, int]
# A logged review as the store reads it: (card id, grade 1-4, study day, when, epoch ms).
Review = tuple[int, int, int, int]
_STATES = {int(s): s for s in CardState}
_MS = timedelta(milliseconds=1)
_DAY_MS = 86_400_000
STABILITY_MIN = 0.001  # py-fsrs's floor of a stability


def _ms(wait: timedelta) -> int:
    whole = wait // _MS
    if whole * _MS != wait:
        raise ValueError("learning steps are whole milliseconds")
    return whole


# A step list: the state its cards are in, then its waits in ms for Again (step 0), for Hard at
# step 0 (py-fsrs's own arithmetic on timedeltas) and for each step.
Steps = tuple[int, int, int, tuple[int, ...]]


def _steps(state: int, steps: Sequence[timedelta]) -> Steps:
    if not steps:
        return state, -1, -1, ()
    hard = steps[0] * 1.5 if len(steps) == 1 else (steps[0] + steps[1]) / 2.0
    return state, _ms(steps[0]), _ms(hard), tuple(_ms(step) for step in steps)


class Replayer:
    """Replays logs with one scheduler's settings: a retention and parameters (None: FSRS-6's
    defaults), kept inside py-fsrs's bounds by taking them from py-fsrs's own scheduler."""

    def __init__(self, retention: float, weights: Weights | None) -> None:
        fsrs = scheduler(retention, weights)
        w = fsrs.parameters
        self._decay: float = fsrs._DECAY  # py-fsrs's own constants of its forgetting curve
        self._factor: float = fsrs._FACTOR
        self._interval_scale: float = (fsrs.desired_retention ** (1 / self._decay)) - 1
        self._maximum: int = fsrs.maximum_interval
        # What depends on the grade alone, index = grade (0 unused), computed as py-fsrs does.
        e = math.e
        self._first_s = [0.0, *(max(w[g - 1], STABILITY_MIN) for g in range(1, 5))]
        self._first_d = [
            0.0,
            *(min(max(w[4] - (e ** (w[5] * (g - 1))) + 1, 1.0), 10.0) for g in range(1, 5)),
        ]
        self._delta_d = [0.0, *(-(w[6] * (g - 3)) for g in range(1, 5))]
        self._short = [0.0, *(e ** (w[17] * (g - 3 + w[18])) for g in range(1, 5))]
        self._reversion = w[7] * (w[4] - (e ** (w[5] * 3)) + 1)  # toward Easy's first difficulty
        self._keep = 1 - w[7]
        self._forget_short = e ** (w[17] * w[18])
        self._recall_scale = e ** w[8]
        self._weights = (e, -w[9], w[10], w[11], -w[12], w[13], w[14], w[15], w[16], -w[19])
        self._curve = (self._decay, self._factor, self._recall_scale, self._forget_short)
        learning, relearning = (
            _steps(LEARNING, LEARNING_STEPS),
            _steps(RELEARNING, RELEARNING_STEPS),
        )
        # Where each grade takes a card: moves[state][step][grade] = (wait, state, step), as
        # `_stepped` says; a lookup in the loop instead of a call (a review in review state
        # that is not Again keeps its state; Again starts relearning).
        depth = range(max(len(LEARNING_STEPS), len(RELEARNING_STEPS), 1))
        again = _stepped(relearning, 1, 0)
        self._moves = (
            (),
            tuple(tuple(_stepped(learning, g, step) for g in range(5)) for step in depth),
            (((-1, REVIEW, 0), again, *((-1, REVIEW, 0),) * 3),),
            tuple(tuple(_stepped(relearning, g, step) for g in range(5)) for step in depth),
        )

    def schedule(  # noqa: PLR0912 (one loop: no call made per review)
        self,
        log: Sequence[Review],
        seed: str,
        recalls: list[tuple[float, bool]] | None = None,
        steps: list[Schedule] | None = None,
    ) -> Schedule:
        """The schedule after the reviews of `log`, in the order logged; `seed` names the card
        (card_seed). `recalls`, if given, gets for each review a study day or more after the
        one before the recall FSRS predicted and whether the learner recalled (not Again), as
        `scheduler.predictions` gives them. `steps`, if given, gets the schedule after each
        review, as `scheduler.replayed` gives them (a review row keeps the one before it).
        Raises ValueError when there is no review."""
        if not log:
            raise ValueError("no review to replay")
        # Local names: a loop over a card's reviews reads no attribute and calls nothing.
        (e, w9, w10, w11, w12, w13, w14, w15, w16, w19) = self._weights
        decay, factor, recall_scale, forget_short = self._curve
        short, delta_d, reversion, keep = self._short, self._delta_d, self._reversion, self._keep
        reviews = iter(log)
        _, first, day, at = next(reviews)
        s, d = self._first_s[first], self._first_d[first]
        lapses = 0
        moves = self._moves
        wait, state, step = moves[LEARNING][0][first]
        if steps is not None:
            steps.append(self._after(state, step, s, d, wait, at, seed, 1, lapses))
        for _, grade, today, at in reviews:
            elapsed = today - day
            day = today
            if elapsed < 1:
                # Same study day (or an earlier one, counted as none): short-term stability.
                increase = short[grade] * (s**w19)
                if grade > 1 and increase < 1.0:
                    increase = 1.0
                s = s * increase
            else:
                r = (1 + factor * elapsed / s) ** decay
                if recalls is not None:
                    recalls.append((r, grade != 1))
                if grade == 1:
                    long_term = w11 * (d**w12) * (((s + 1) ** w13) - 1) * (e ** ((1 - r) * w14))
                    short_term = s / forget_short
                    s = short_term if short_term < long_term else long_term
                else:
                    gain = recall_scale * (11 - d) * (s**w9) * ((e ** ((1 - r) * w10)) - 1)
                    if grade == 2:
                        gain = gain * w15
                    elif grade == 4:
                        gain = gain * w16
                    s = s * (1 + gain)
            if s < STABILITY_MIN:  # noqa: PLR1730 (max() is a call, this loop makes none)
                s = STABILITY_MIN
            d = reversion + keep * (d + (10.0 - d) * delta_d[grade] / 9.0)
            if d < 1.0:
                d = 1.0
            elif d > 10.0:
                d = 10.0
            if state == REVIEW and grade == 1:
                lapses += 1
            wait, state, step = moves[state][step][grade]
            if steps is not None:
                steps.append(self._after(state, step, s, d, wait, at, seed, len(steps) + 1, lapses))
        return self._after(state, step, s, d, wait, log[-1][3], seed, len(log), lapses)

    def _after(  # noqa: PLR0917 (the loop's locals, handed over once a review)
        self,
        state: int,
        step: int,
        s: float,
        d: float,
        wait: int,
        at: int,
        seed: str,
        reps: int,
        lapses: int,
    ) -> Schedule:
        """The schedule after a card's `reps`-th review, given at `at`: its due date is `wait`
        ms later, or (-1) the fuzzed interval of stability `s`."""
        if wait < 0:
            wait = self._fuzzed(s, seed, reps - 1) * _DAY_MS
        kept = None if state == REVIEW else step  # py-fsrs: a card in review has no step
        return state, kept, s, d, at + wait, at, reps, lapses

    def recall(self, stability: float, elapsed: int) -> float:
        """The recall FSRS predicts `elapsed` study days after a review (1 on its own day)."""
        return float((1 + self._factor * max(elapsed, 0) / stability) ** self._decay)

    def _fuzzed(self, s: float, seed: str, reps: int) -> int:
        """The review interval in days for stability `s`, fuzzed as py-fsrs fuzzes it, with
        the draw of the card's seed and count of earlier reviews (`fuzz_draw`, as live grades
        draw it: scheduler._SeededScheduler)."""
        days = round((s / self._factor) * self._interval_scale)
        days = min(max(days, 1), self._maximum)
        if days < 2.5:
            return days
        # py-fsrs's FUZZ_RANGES, (2.5, 7, 0.15), (7, 20, 0.1), (20, inf, 0.05), summed as it
        # sums them (a range below the interval adds 0.0, which changes no float).
        f = float(days)
        delta = 1.0 + 0.15 * ((7.0 if f > 7.0 else f) - 2.5)
        if f > 7.0:
            delta += 0.1 * ((20.0 if f > 20.0 else f) - 7.0)
            if f > 20.0:
                delta += 0.05 * (f - 20.0)
        low, high = max(2, round(days - delta)), min(round(days + delta), self._maximum)
        low = min(low, high)
        drawn = (fuzz_draw(seed, reps) * (high - low + 1)) + low
        return min(round(drawn), self._maximum)


def _stepped(steps: Steps, grade: int, step: int) -> tuple[int, int, int]:
    """(wait in ms, or -1 for a review interval; state; step, 0 in review) after `grade` at
    `step` of a learning or relearning list, as py-fsrs takes its steps."""
    state, again, hard, waits = steps
    count = len(waits)
    if count == 0 or (step >= count and grade > 1):
        return -1, REVIEW, 0
    if grade == 1:
        return again, state, 0
    if grade == 2:
        return (hard if step == 0 else waits[step]), state, step
    if grade == 3 and step + 1 != count:
        return waits[step + 1], state, step + 1
    return -1, REVIEW, 0


@lru_cache(maxsize=32)
def replayer(retention: float, weights: Weights | None = None) -> Replayer:
    return Replayer(retention, weights)


def progress_of(schedule: Schedule, day: int) -> Progress:
    """The schedule as a card's `Progress`, its last review on study day `day`."""
    state, step, s, d, due, last_review, reps, lapses = schedule
    return Progress(_STATES[state], step, s, d, due, last_review, reps, lapses, day)


def fast_replay(
    history: Iterable[tuple[Rating, Moment]], options: StudyOptions, seed: str
) -> Progress:
    """What `scheduler.replay` gives for `history`, computed by `Replayer`."""
    log = [(0, int(grade), at.day, at.at) for grade, at in history]
    schedule = replayer(options.retention, options.parameters).schedule(log, seed)
    return progress_of(schedule, log[-1][2])


def fast_replayed(
    history: Iterable[tuple[Rating, Moment]], options: StudyOptions, seed: str
) -> list[Progress]:
    """What `scheduler.replayed` gives for `history` (the schedule after each review),
    computed by `Replayer`: what a first sync writes for each card and its review rows."""
    log = [(0, int(grade), at.day, at.at) for grade, at in history]
    steps: list[Schedule] = []
    if log:
        replayer(options.retention, options.parameters).schedule(log, seed, steps=steps)
    return [progress_of(step, review[2]) for step, review in zip(steps, log, strict=True)]


def fast_predictions(log: ReviewLog, options: StudyOptions) -> list[tuple[float, bool]]:
    """What `scheduler.predictions` gives for `log`, computed by `Replayer`."""
    recalls: list[tuple[float, bool]] = []
    if log:
        reviews = [(0, int(grade), at.day, at.at) for grade, at in log]
        replayer(options.retention, options.parameters).schedule(reviews, "", recalls)
    return recalls
