"""Due and new counts for the sidebar and the top bar, kept current at little cost.

The raw tallies are read and rolled up once (and again on a new study day, another store, a
new folder tree, or a change that is not a plain grade); a grade adjusts them from its
changeset, along the path from its folder to the top. The same mapping comes back until
something changes, so the sidebar can tell by identity that its counts have not.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from app.domain import FolderId
from app.store import Store
from app.store.changes import Changeset
from app.store.due_counts import DueCount, RollUp, collection_due, grade_folders, read_parts
from app.store.results import TreeRow
from app.store.study_queries import effective_options, stored_options
from app.study.days import StudyDay, study_day

Counts = Mapping[FolderId, DueCount]
NO_COUNTS: Counts = {}


class DueCounts:
    def __init__(self, store: Callable[[], Store], utc_offset: Callable[[], int]) -> None:
        self._store = store
        self._utc_offset = utc_offset
        self._rollup: RollUp | None = None
        self._key: tuple[object, ...] = ()
        self._total: tuple[tuple[object, ...], DueCount] | None = None  # for _key
        self._listening: Store | None = None
        # While paused (the first screen at startup) there are no counts yet: reading them
        # at 100,000 words takes longer than drawing the rest, so they follow just after.
        self.paused = False

    def day(self, now: int) -> StudyDay:
        return study_day(now, self._utc_offset(), self._store().study.day_start_hour())

    def counts(self, now: int, rows: Sequence[TreeRow]) -> Counts:
        """Per folder, subfolders included; `rows` is the store's current folder tree."""
        if self.paused:
            return NO_COUNTS
        store = self._store()
        self._listen(store)
        day = self.day(now)
        # The tree by identity: the store hands out the same tuple until it changes.
        key = (store, rows, store.study_version, day.number)
        if self._rollup is None or not _same(key, self._key):
            parts = read_parts(store.study.db, day.start, day.end)
            options = effective_options(store.folder_order(), stored_options(store.study.db))
            self._rollup = RollUp(parts, rows, options)
            self._key = key
        return self._rollup.counts

    def total(self, now: int, rows: Sequence[TreeRow]) -> DueCount:
        """The whole collection's counts (the top bar's, after every redraw): summed again only
        when the counts changed, which at 2,000 folders saves a millisecond an edit."""
        counts = self.counts(now, rows)
        if self.paused:
            return collection_due(counts, rows)
        if self._total is None or not _same(self._total[0], self._key):
            self._total = (self._key, collection_due(counts, rows))
        return self._total[1]

    def _listen(self, store: Store) -> None:
        if self._listening is not store:
            self._listening = store
            store.subscribe(lambda changeset: self._on_change(store, changeset))

    def _on_change(self, store: Store, changeset: Changeset) -> None:
        """A grade adjusts the counts in place; anything else leaves them to be read again."""
        rollup = self._rollup
        if rollup is None or self._key[:1] != (store,) or store is not self._store():
            return
        folders = grade_folders(changeset.changes)
        if folders is not None:
            rollup.regrade(folders, changeset.changes)
            self._key = (*self._key[:2], store.study_version, self._key[3])


def _same(a: tuple[object, ...], b: tuple[object, ...]) -> bool:
    return len(a) == len(b) and all(x is y or x == y for x, y in zip(a, b, strict=True))
