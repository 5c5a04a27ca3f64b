"""The plain-float replay (app/study/fast_replay.py) is py-fsrs's replay, bit for bit: for any
grades at any times (same-day repeats, times around the study-day boundary, long gaps, days
counted back by travel), any retention allowed and default or any in-bounds parameters, every
field of the schedule is equal, floats compared with `==`."""

from __future__ import annotations

import fsrs.scheduler
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from app.study.days import Moment
from app.study.fast_replay import fast_predictions, fast_replay, fast_replayed
from app.study.model import DAY_MS, MINUTE_MS, Rating, Weights
from app.study.options import StudyOptions
from app.study.scheduler import predictions, replay, replayed
from tests.study.helpers import NOON

LOW, HIGH = fsrs.scheduler.LOWER_BOUNDS_PARAMETERS, fsrs.scheduler.UPPER_BOUNDS_PARAMETERS
# Gaps between reviews (ms): seconds, minutes either side of a step, hours either side of a
# study-day boundary, days and years.
gaps = st.one_of(
    st.integers(0, 120_000),
    st.integers(0, 30).map(lambda m: m * MINUTE_MS + 1),
    st.integers(1, 48).map(lambda h: h * 3_600_000 - 1),
    st.integers(1, 400).map(lambda d: d * DAY_MS - MINUTE_MS),
    st.integers(1, 3_000).map(lambda d: d * DAY_MS + 7),
)
# Study days move with the gap; a change of time zone can move one a day either way.
reviews = st.lists(
    st.tuples(st.sampled_from(list(Rating)), gaps, st.sampled_from([0, 0, 0, -1, 1])),
    min_size=1,
    max_size=40,
)
weights = st.one_of(
    st.none(),
    st.tuples(*(st.floats(lo, hi, allow_nan=False) for lo, hi in zip(LOW, HIGH, strict=True))),
    # Beyond py-fsrs's bounds (a hand-edited backup): both keep them inside.
    st.tuples(*(st.floats(0.0, 100.0) for _ in LOW)),
)
retentions = st.floats(0.70, 0.99)
DEFAULT: Weights | None = None


def _log(plan: list[tuple[Rating, int, int]], start: int) -> list[tuple[Rating, Moment]]:
    at, log = start, []
    for grade, gap, moved in plan:
        at += gap
        day = (at - 4 * 3_600_000) // DAY_MS + moved
        log.append((grade, Moment.logged(at, day)))
    return log


def _check(
    plan: list[tuple[Rating, int, int]],
    retention: float,
    w: Weights | None,
    seed: str = "7:forward",
    start: int = NOON,
) -> None:
    options = StudyOptions(retention=retention, parameters=w)
    log = _log(plan, start)
    assert fast_replay(log, options, seed) == replay(log, options, seed)
    assert fast_replayed(log, options, seed) == replayed(log, options, seed)
    assert fast_predictions(log, options) == list(predictions(log, options))


# Exactness is the point: more examples than the quick profile's 20 (about a second).
@settings(max_examples=200)
@given(reviews, retentions, weights, st.integers(1, 10**6))
@example([(Rating.GOOD, 0, 0)], 0.9, DEFAULT, 1)
@example([(Rating.AGAIN, 0, 0)] * 5, 0.7, DEFAULT, 1)
@example(
    [
        (Rating.EASY, 0, 0),
        (Rating.AGAIN, 30 * DAY_MS, 0),
        (Rating.HARD, 60_000, 0),
        (Rating.GOOD, 900_000, 0),
    ],
    0.99,
    DEFAULT,
    2,
)
@example(
    [
        (Rating.HARD, 0, 0),
        (Rating.HARD, 330_000, 0),
        (Rating.GOOD, 1, 0),
        (Rating.GOOD, DAY_MS - 1, 0),
    ],
    0.9,
    DEFAULT,
    3,
)
# A review logged on an earlier study day than the one before (travel west): no days pass.
@example(
    [(Rating.EASY, 0, 0), (Rating.GOOD, 3_600_000, -1), (Rating.GOOD, 10 * DAY_MS, 0)],
    0.85,
    DEFAULT,
    4,
)
# Decades between reviews, at the lowest retention: the interval hits py-fsrs's maximum.
@example(
    [(Rating.EASY, 0, 0), (Rating.EASY, 3_000 * DAY_MS, 0), (Rating.EASY, 3_000 * DAY_MS, 0)],
    0.7,
    tuple(HIGH),
    5,
)
@example([(Rating.AGAIN, 0, 0), (Rating.AGAIN, DAY_MS, 0)], 0.99, tuple(LOW), 6)
def test_the_fast_replay_is_py_fsrs_replay_exactly(
    plan: list[tuple[Rating, int, int]], retention: float, w: Weights | None, word: int
) -> None:
    _check(plan, retention, w, f"{word}:reverse")


@pytest.mark.parametrize("start", [0, NOON + 1, NOON + 999, 4_102_444_800_123])
def test_any_millisecond_of_any_year_gives_the_same_due(start: int) -> None:
    plan = [(Rating.GOOD, 0, 0), (Rating.GOOD, 601_234, 0), (Rating.GOOD, 3 * DAY_MS + 17, 0)]
    _check(plan, 0.9, DEFAULT, start=start)
