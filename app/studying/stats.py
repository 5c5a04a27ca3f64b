"""The figures of the stats page, for the whole collection or one folder and its subfolders.

Reviews per day by rating, the due forecast, true retention per folder against its desired
retention, cards by state, the study streak and the hardest words. The SQL aggregates
(app/store/stats_queries.py); this module only shapes the aggregated rows, so its loops run
over days and folders, never over the review log. Days are study days in the user's local
time (app/study/days.py); history uses today's UTC offset throughout, so a daylight-saving
change can move a review near the boundary by an hour.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from app.domain import FolderId, NotFound
from app.store import Store
from app.store import stats_queries as sq
from app.store.db import Database
from app.store.results import TreeRow
from app.store.study_queries import Scope
from app.study.days import study_day
from app.study.model import DAY_MS, DIRECTIONS, CardState, Direction, Rating
from app.study.options import StudyOptions

DAYS = 30  # days of history and of forecast
HARDEST = 10
# Where the history's windows end: never. A review synced from a device whose clock runs ahead
# lies in this device's future, yet it was made; it counts today rather than staying hidden
# until this clock catches up (issue 27: a clock a day off makes no difference).
NO_END = (1 << 63) - 1  # SQLite's largest integer


@dataclass(frozen=True, slots=True)
class DayReviews:
    """One study day's reviews; `number` is the day's `StudyDay.number` (a local date)."""

    number: int
    by_rating: tuple[int, int, int, int]  # Again, Hard, Good, Easy

    @property
    def total(self) -> int:
        return sum(self.by_rating)


@dataclass(frozen=True, slots=True)
class DueDay:
    number: int
    due: int


@dataclass(frozen=True, slots=True)
class FolderRetention:
    """Reviews of Review-state cards in one folder over the last `DAYS` days."""

    folder_id: FolderId
    name: str
    emoji: str
    reviews: int
    passed: int  # not answered Again
    desired: float  # the folder's desired retention (its effective study options)

    @property
    def retention(self) -> float:
        return self.passed / self.reviews


@dataclass(frozen=True, slots=True)
class StateCounts:
    new: int
    learning: int
    review: int
    relearning: int

    @property
    def total(self) -> int:
        return self.new + self.learning + self.review + self.relearning


@dataclass(frozen=True, slots=True)
class Streak:
    current: int  # consecutive study days ending today, or yesterday if today has none yet
    longest: int
    studied_today: bool


@dataclass(frozen=True, slots=True)
class StudyStats:
    today: int  # today's StudyDay.number
    reviews: tuple[DayReviews, ...]  # the last DAYS days, oldest first, today last
    forecast: tuple[DueDay, ...]  # the next DAYS days from today; overdue cards count today
    retention: tuple[FolderRetention, ...]  # folders with reviews to measure, in tree order
    states: StateCounts
    streak: Streak
    hardest: tuple[sq.HardCard, ...]  # most lapses first, then most Again answers

    @property
    def total_reviews(self) -> int:
        return sum(d.total for d in self.reviews)

    @property
    def overall_retention(self) -> float | None:
        reviews = sum(f.reviews for f in self.retention)
        return sum(f.passed for f in self.retention) / reviews if reviews else None


def collect_stats(
    store: Store, scope_folder: FolderId | None, now_ms: int, utc_offset_minutes: int
) -> StudyStats:
    """Every figure of the stats page for `scope_folder` (None: the whole collection)."""
    rows = store.folder_tree()
    options = store.study.options_map()
    if scope_folder is not None and scope_folder not in options:
        raise NotFound("That folder is no longer in your collection.")
    folders = store.study.subtree(scope_folder) if scope_folder is not None else list(options)
    scope = Scope(None if scope_folder is None else tuple(folders))
    studied = _studied(folders, options)
    word_counts = {r.folder.id: r.word_count for r in rows}
    db = store.study.db
    today = study_day(now_ms, utc_offset_minutes, store.study.day_start_hour())
    first = today.start - (DAYS - 1) * DAY_MS
    due = sq.due_by_day(db, scope, studied, today.start, today.start + DAYS * DAY_MS)
    # Days of the whole history count from the first study-day boundary after the epoch, so
    # every review lies after it and today is day `today.start // DAY_MS`.
    reach = sq.reach(db, scope)
    days = sq.study_days(db, reach, today.start % DAY_MS, NO_END)
    return StudyStats(
        today=today.number,
        reviews=_history(sq.reviews_by_day(db, reach, first, NO_END), today.number),
        forecast=tuple(DueDay(today.number + i, due.get(i, 0)) for i in range(DAYS)),
        retention=_retention(sq.retention_by_folder(db, reach, first, NO_END), rows, options),
        states=_states(db, scope, studied, {f: word_counts[f] for f in folders}),
        streak=_streak(days, today.start // DAY_MS),
        hardest=tuple(sq.hardest_cards(db, scope, HARDEST)),
    )


def _studied(folders: Sequence[FolderId], options: Mapping[FolderId, StudyOptions]) -> sq.Studied:
    """For each direction some folder of the scope studies, which folders (None: all)."""
    studied: dict[Direction, frozenset[FolderId] | None] = {}
    for direction in DIRECTIONS:
        some = frozenset(f for f in folders if options[f].studies(direction))
        if some:
            studied[direction] = None if len(some) == len(folders) else some
    return studied


def _history(groups: Iterable[tuple[int, Rating, int]], today: int) -> tuple[DayReviews, ...]:
    """`groups`: (day from the first day shown, rating, reviews); days after today (another
    device's clock ahead) count today."""
    counts = [[0, 0, 0, 0] for _ in range(DAYS)]
    for day, rating, reviews in groups:
        counts[min(day, DAYS - 1)][rating - 1] += reviews
    first = today - (DAYS - 1)
    return tuple(DayReviews(first + i, (c[0], c[1], c[2], c[3])) for i, c in enumerate(counts))


def _retention(
    measured: Mapping[FolderId, tuple[int, int]],
    rows: Sequence[TreeRow],
    options: Mapping[FolderId, StudyOptions],
) -> tuple[FolderRetention, ...]:
    return tuple(
        FolderRetention(
            folder_id=r.folder.id,
            name=r.folder.name,
            emoji=r.folder.emoji,
            reviews=measured[r.folder.id][0],
            passed=measured[r.folder.id][1],
            desired=options[r.folder.id].retention,
        )
        for r in rows
        if r.folder.id in measured
    )


def _states(
    db: Database, scope: Scope, studied: sq.Studied, words: Mapping[FolderId, int]
) -> StateCounts:
    """Cards by state; new ones are the words with a meaning each folder of the scope (`words`:
    its words) could study in a direction it studies, minus the cards already made there."""
    unstudiable = sq.words_without_meaning(db, scope)
    cards = sq.cards_by_folder(db, scope, studied)
    new = sum(
        max(words.get(folder, 0) - unstudiable.get(folder, 0) - cards.get((folder, d), 0), 0)
        for d, folders in studied.items()
        for folder in words
        if folders is None or folder in folders
    )
    states = sq.cards_by_state(db, scope, studied)
    return StateCounts(
        new=new,
        learning=states.get(CardState.LEARNING, 0),
        review=states.get(CardState.REVIEW, 0),
        relearning=states.get(CardState.RELEARNING, 0),
    )


def _streak(days: Sequence[int], today: int) -> Streak:
    """`days`: the study days with reviews, ascending; those after `today` (another device's
    clock ahead) count as today."""
    longest = run = 0
    previous: int | None = None
    for day in sorted({min(d, today) for d in days}):
        run = run + 1 if previous == day - 1 else 1
        longest = max(longest, run)
        previous = day
    current = run if previous is not None and previous >= today - 1 else 0
    return Streak(current=current, longest=longest, studied_today=previous == today)
