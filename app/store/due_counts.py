"""Due and new counts per folder (subfolders included), cheap enough for every grade.

Reading them from scratch means grouping every card (200,000 at 100,000 words), which takes
tens of milliseconds; so the raw tallies (`DueParts`) are read once per study day and a grade,
which changes one card and adds one review, adjusts them from its changeset. Anything else
(an edit that moves or deletes words, new options, an undone grade) reads them again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from app.domain import FolderId
from app.store.changes import Change
from app.store.db import Database
from app.store.results import TreeRow
from app.store.study_queries import default_options
from app.study.model import CardState

if TYPE_CHECKING:
    from app.study.options import StudyOptions

Pair = tuple[int, str]  # (folder id, direction)


@dataclass(frozen=True, slots=True)
class DueCount:
    """A folder's cards due today and new cards it may still introduce today."""

    due: int
    new: int


@dataclass
class DueParts:
    """What the counts are made of, per folder: cards and due cards per direction, new cards
    introduced and review cards reviewed since the day started, words without a meaning."""

    end: int  # cards due before this moment (the end of the study day) are due
    start: int
    cards: Counter[Pair] = field(default_factory=Counter)
    due: Counter[Pair] = field(default_factory=Counter)
    introduced: Counter[int] = field(default_factory=Counter)
    reviewed: Counter[int] = field(default_factory=Counter)
    without_meaning: Counter[int] = field(default_factory=Counter)


def read_parts(db: Database, start: int, end: int) -> DueParts:
    parts = DueParts(end=end, start=start)
    for folder, direction, count, due in db.execute(
        "SELECT folder_id, direction, count(*), sum(due < ?) FROM card "
        "GROUP BY folder_id, direction",
        (end,),
    ):
        parts.cards[folder, direction] = count
        parts.due[folder, direction] = due or 0
    for folder, state in db.execute(
        "SELECT c.folder_id, r.state_before FROM review r JOIN card c ON c.id = r.card_id "
        "WHERE r.reviewed_at >= ?",
        (start,),
    ):
        parts.introduced[folder] += state == CardState.NEW
        parts.reviewed[folder] += state == CardState.REVIEW
    # Read from a small partial index: most words have a meaning.
    for folder, count in db.execute(
        "SELECT folder_id, count(*) FROM word WHERE meanings = '[]' GROUP BY folder_id"
    ):
        parts.without_meaning[folder] = count
    return parts


def grade_folders(changes: Iterable[Change]) -> set[int] | None:
    """The folders whose tallies a grade changes, or None when `changes` are not a grade
    (then the tallies must be read again)."""
    changes = list(changes)
    if not any(c.table == "review" and c.op == "insert" for c in changes) or any(
        c.table not in ("card", "review", "study_session") or c.op == "delete" for c in changes
    ):
        return None
    return {int(c.new["folder_id"] or 0) for c in changes if c.table == "card" and c.new}


def apply_grade(parts: DueParts, changes: Iterable[Change]) -> None:
    """Adjust the tallies for a grade (`grade_folders` said it is one)."""
    folders: dict[object, int] = {}
    for change in changes:
        if change.table == "card" and change.new is not None:
            old, new = change.old, change.new
            pair = (int(new["folder_id"] or 0), str(new["direction"]))
            folders[new["id"]] = pair[0]
            parts.cards[pair] += old is None
            parts.due[pair] += _due(new, parts.end) - (0 if old is None else _due(old, parts.end))
        elif change.table == "review" and change.new is not None:
            folder = folders.get(change.new["card_id"], 0)
            state = change.new["state_before"]
            parts.introduced[folder] += state == CardState.NEW
            parts.reviewed[folder] += state == CardState.REVIEW


def _due(row: Mapping[str, object], end: int) -> int:
    due = row.get("due")
    return int(isinstance(due, int) and due < end)


Sums = list[int]  # due, new, introduced today, reviewed today: a subtree's, before limits


class RollUp:
    """Each folder's counts with its subfolders', its own daily limits applied to the sums.
    Built in one pass over the tree; a grade then updates only its folder and the folders
    above it (this runs after every grade)."""

    def __init__(
        self, parts: DueParts, rows: Sequence[TreeRow], options: Mapping[FolderId, StudyOptions]
    ) -> None:
        self._default = default_options()
        self.parts = parts
        self._rows = {row.folder.id: row for row in rows}
        self._options = options
        self._sums: dict[FolderId, Sums] = {}
        self.counts: dict[FolderId, DueCount] = {}
        # Children come after their parent in `rows`: walking it backwards finishes every
        # subfolder's sums before they are added to its parent's.
        pending: dict[FolderId, Sums] = {}
        for row in reversed(rows):
            fid, parent = row.folder.id, row.folder.parent_id
            total = pending.pop(fid, [0, 0, 0, 0])
            for i, value in enumerate(self._own(fid)):
                total[i] += value
            self._set(fid, total)
            if parent is not None:
                above = pending.setdefault(parent, [0, 0, 0, 0])
                for i in range(4):
                    above[i] += total[i]

    def _own(self, fid: FolderId) -> Sums:
        parts, row = self.parts, self._rows[fid]
        directions = self._options.get(fid, self._default).direction_list
        studied = row.word_count - parts.without_meaning.get(fid, 0)
        return [
            sum(parts.due.get((fid, d), 0) for d in directions),
            sum(max(studied - parts.cards.get((fid, d), 0), 0) for d in directions),
            parts.introduced.get(fid, 0),
            parts.reviewed.get(fid, 0),
        ]

    def _set(self, fid: FolderId, total: Sums) -> None:
        self._sums[fid] = total
        chosen = self._options.get(fid, self._default)
        self.counts[fid] = DueCount(
            due=min(total[0], max(chosen.reviews_per_day - total[3], 0)),
            new=min(total[1], max(chosen.new_per_day - total[2], 0)),
        )

    def regrade(self, folders: set[int], changes: Iterable[Change]) -> None:
        """Apply a grade to the tallies and to the sums of `folders` and their ancestors."""
        known = [FolderId(f) for f in folders if f in self._rows]
        before = {fid: self._own(fid) for fid in known}
        apply_grade(self.parts, changes)
        self.counts = dict(self.counts)  # a new mapping: the sidebar redraws by identity
        for fid in known:
            delta = [a - b for a, b in zip(self._own(fid), before[fid], strict=True)]
            current: FolderId | None = fid
            while current is not None:
                self._set(current, [a + b for a, b in zip(self._sums[current], delta, strict=True)])
                current = self._rows[current].folder.parent_id


def collection_due(counts: Mapping[FolderId, DueCount], rows: Sequence[TreeRow]) -> DueCount:
    roots = [r.folder.id for r in rows if r.folder.parent_id is None and r.folder.id in counts]
    return DueCount(due=sum(counts[f].due for f in roots), new=sum(counts[f].new for f in roots))
