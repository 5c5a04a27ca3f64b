"""Due and new counts for the sidebar and the top bar, read again only when something that
changes them happened: study progress or options, the folder tree or its word counts, a new
study day, or another store (a tab that took over writing). The same mapping comes back until
then, so the sidebar can tell by identity that its counts have not changed."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from app.domain import FolderId
from app.store import Store
from app.store.results import TreeRow
from app.store.study_queries import DueCount, collection_due
from app.study.days import StudyDay, study_day

Counts = Mapping[FolderId, DueCount]


class DueCounts:
    def __init__(self, store: Callable[[], Store], utc_offset: Callable[[], int]) -> None:
        self._store = store
        self._utc_offset = utc_offset
        self._key: tuple[object, ...] = ()
        self._counts: Counts = {}

    def day(self, now: int) -> StudyDay:
        return study_day(now, self._utc_offset(), self._store().study.day_start_hour())

    def counts(self, now: int, rows: Sequence[TreeRow]) -> Counts:
        """Per folder, subfolders included; `rows` is the store's current folder tree."""
        store = self._store()
        # The tree by identity: the store hands out the same tuple until it changes.
        key = (store, rows, store.study_version, self.day(now).number)
        if len(key) != len(self._key) or any(
            a is not b and a != b for a, b in zip(key, self._key, strict=True)
        ):
            self._counts = store.study.due_counts(self.day(now), rows)
            self._key = key
        return self._counts

    def total(self, now: int, rows: Sequence[TreeRow]) -> DueCount:
        return collection_due(self.counts(now, rows), rows)
