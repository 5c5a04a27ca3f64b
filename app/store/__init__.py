"""The workspace store: the one object the UI and the agent tools use to read and change data.

Every write is a command run as one SQL transaction and recorded as one undoable `Changeset`;
listeners receive what was written (the browser appends it to its operation log). All SQL lives
in this package.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from functools import cached_property
from typing import TYPE_CHECKING, TypeVar

from app.domain import Folder, FolderId, Note, NoteId, Word, WordId
from app.store import (
    bulk,
    empty_image,
    folders,
    notes,
    queries,
    schedules,
    transfer,
    word_list,
    words,
)
from app.store.changes import Change, Changeset, install_capture
from app.store.db import Database
from app.store.history import History, Listener
from app.store.migrations import migrate, schema_version
from app.store.results import (
    BulkPreview,
    BulkResult,
    BulkRow,
    DeletionSummary,
    SearchHit,
    TreeRow,
    WordsMoved,
)
from app.store.search import search
from app.store.synced import Synced
from app.store.transfer.steps import Steps, run_steps
from app.store.word_list import WordPage, WordQuery
from app.study import days
from app.study.days import Moment

if TYPE_CHECKING:
    from app.inputs import FolderPatch, NewFolder, NewNote, NewWord, NotePatch, WordPatch
    from app.store.conversations import Conversations
    from app.store.study import Study
    from app.store.transfer.parsed import ParsedImport
    from app.store.transfer.plan import PlanSummary

__all__ = ["Change", "Changeset", "Store"]

T = TypeVar("T")
Clock = Callable[[], int]


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


class Store:
    """Queries, commands, undo/redo and change notification over one SQLite database."""

    def __init__(self, db: Database, *, read_only: bool = False, clock: Clock = _now_ms) -> None:
        migrate(db)
        install_capture(db)
        if read_only:
            db.make_read_only()
        self._db = db
        self._clock = clock
        self._history = History(db, read_only=read_only)
        # The folder tree is read on every redraw and by every agent request, and costs
        # O(folders + words) to build. Between steps it is kept until a change touches folders or
        # moves, adds or deletes words. Inside a step (an agent turn) it is keyed on the history's
        # write count instead, since the step's writes are not emitted until it ends (and may be
        # rolled back).
        self._tree: tuple[int | None, tuple[TreeRow, ...]] | None = None
        # The folders alone (depth first), kept likewise until a change touches folders: what
        # options and subtrees need, without counting every word after each word added (a
        # first sync of 100,000 words read them after each of its thousand pieces).
        self._order: tuple[int | None, tuple[Folder, ...]] | None = None
        self._history.subscribe(self._forget_tree)
        # Grows when what is due or new may have changed, for the caches of due counts.
        self.study_version = 0

    # The assistant's conversations and studying are made on first use: their shapes are
    # validated with pydantic, which the first screen does not load (decision 025).
    @cached_property
    def conversations(self) -> Conversations:
        from app.store.conversations import Conversations  # noqa: PLC0415 (see above)

        return Conversations(self._db, self._history, self._clock)

    @cached_property
    def study(self) -> Study:
        from app.store.study import Study  # noqa: PLC0415 (see above)

        return Study(self._db, self._history, self._clock, self.folder_order)

    @cached_property
    def synced(self) -> Synced:
        """The rows sync compares with its document (app/sync)."""
        return Synced(self._db)

    @classmethod
    def open(cls, path: str = ":memory:", *, read_only: bool = False) -> Store:
        return cls(Database.open(path), read_only=read_only)

    @classmethod
    def from_snapshot(cls, data: bytes, *, read_only: bool = False) -> Store:
        return cls(Database.from_bytes(data), read_only=read_only)

    @classmethod
    def new(cls) -> Store:
        """A store for a new, empty collection: opened from the image the build ships when
        there is one, which is much quicker than creating the schema (app/store/empty_image.py)."""
        image = empty_image.shipped()
        return cls.open() if image is None else cls.from_snapshot(image)

    def now(self) -> int:
        """The store's clock (epoch ms): what commands stamp their writes with."""
        return self._clock()

    def snapshot(self) -> bytes:
        return self._db.serialize()

    @property
    def path(self) -> str:
        """The database's file (":memory:" for one that has none)."""
        return self._db.path

    @property
    def schema_version(self) -> int:
        return schema_version(self._db)

    @property
    def schedules_stale(self) -> bool:
        """Whether every card is to be replayed once the scheduler is loaded: stored due dates
        may be of the fuzz before decision 045's (app/studying/reschedule.py)."""
        return schedules.stale(self._db)

    def quick_check(self) -> bool:
        return bool(self._db.scalar("PRAGMA quick_check") == "ok")

    def close(self) -> None:
        self._db.close()

    # --- queries ------------------------------------------------------------------------------

    def folder(self, folder_id: FolderId) -> Folder:
        return queries.folder(self._db, folder_id)

    def folders(self) -> list[Folder]:
        return queries.folders(self._db)

    def children(self, parent_id: FolderId | None) -> list[Folder]:
        return queries.children(self._db, parent_id)

    def folder_path(self, folder_id: FolderId) -> list[Folder]:
        return queries.folder_path(self._db, folder_id)

    def default_lang(self, folder_id: FolderId) -> str:
        """The language tag a new word in the folder takes when it gives none."""
        return queries.default_lang(self._db, folder_id)

    def folder_tree(self) -> tuple[TreeRow, ...]:
        """Every folder with counts, depth first; kept between writes, since the sidebar and
        every agent request read it. The same tuple comes back until the tree changes, so
        views can tell by identity that it has not."""
        key = self._history.version if self._history.busy else None
        if self._tree is None or self._tree[0] != key:
            self._tree = (key, tuple(queries.folder_tree(self._db)))
        return self._tree[1]

    def folder_order(self) -> tuple[Folder, ...]:
        """Every folder depth first (a parent before its children), kept as the tree is but
        until a change touches folders."""
        key = self._history.version if self._history.busy else None
        if self._order is None or self._order[0] != key:
            self._order = (key, tuple(f for f, _ in queries.folder_order(self._db)))
        return self._order[1]

    def _forget_tree(self, changeset: Changeset) -> None:
        self._forget(changeset.changes)

    def _forget(self, changes: Sequence[Change]) -> None:
        if queries.changes_tree(changes):
            self._tree = None
        if any(change.table == "folder" for change in changes):
            self._order = None
        if queries.changes_study(changes):
            self.study_version += 1

    def find_folders(self, name: str) -> list[Folder]:
        return queries.find_folders(self._db, name)

    def find_words(self, term: str) -> list[Word]:
        """Words whose term equals `term` ignoring case, in any folder."""
        return queries.find_words(self._db, term)

    def deletion_summary(self, folder_id: FolderId) -> DeletionSummary:
        return queries.deletion_summary(self._db, folder_id)

    def words(self, folder_id: FolderId, offset: int = 0, limit: int = 200) -> list[Word]:
        """The folder's words A–Z, `limit` of them from `offset`."""
        return word_list.page(self._db, folder_id, WordQuery(), offset, limit).words

    def word_page(self, folder_id: FolderId, query: WordQuery, start: int, limit: int) -> WordPage:
        """One page of the folder's words as `query` filters and sorts them."""
        return word_list.page(self._db, folder_id, query, start, limit)

    def word_index(self, folder_id: FolderId, query: WordQuery, word_id: WordId) -> int | None:
        """Where `word_id` falls in that listing (None if it is not in it), to page to it."""
        return word_list.position(self._db, folder_id, query, word_id)

    def word_count(self, folder_id: FolderId) -> int:
        return queries.word_count(self._db, folder_id)

    def word(self, word_id: WordId) -> Word:
        return queries.word(self._db, word_id)

    def notes(self, folder_id: FolderId) -> list[Note]:
        return queries.notes(self._db, folder_id)

    def note(self, note_id: NoteId) -> Note:
        return queries.note(self._db, note_id)

    def search(self, query: str, limit: int = 50) -> list[SearchHit]:
        return search(self._db, query, limit)

    def preview_bulk(self, folder_id: FolderId, text: str) -> BulkPreview:
        return run_steps(self.preview_bulk_steps(folder_id, text))

    def preview_bulk_steps(self, folder_id: FolderId, text: str) -> Steps[BulkPreview]:
        return bulk.preview_steps(text, queries.term_keys(self._db, folder_id))

    # --- commands -----------------------------------------------------------------------------

    def _run(self, command: Callable[[int], tuple[T, str]]) -> T:
        with self._history.step() as step:
            result, label = command(self._clock())
            step.label = step.label or label
        return result

    def create_folder(self, new: NewFolder) -> Folder:
        return self._run(lambda now: folders.create(self._db, now, new))

    def update_folder(self, folder_id: FolderId, patch: FolderPatch) -> Folder:
        return self._run(lambda now: folders.update(self._db, now, folder_id, patch))

    def move_folder(self, folder_id: FolderId, parent_id: FolderId | None) -> Folder:
        return self._run(lambda now: folders.move(self._db, now, folder_id, parent_id))

    def delete_folder(self, folder_id: FolderId) -> DeletionSummary:
        return self._run(lambda now: folders.delete(self._db, folder_id))

    def add_word(self, new: NewWord) -> Word:
        return self._run(lambda now: words.add(self._db, now, new))

    def update_word(self, word_id: WordId, patch: WordPatch) -> Word:
        return self._run(lambda now: words.update(self._db, now, word_id, patch))

    def move_words(self, ids: Sequence[WordId], folder_id: FolderId) -> WordsMoved:
        return self._run(lambda now: words.move(self._db, now, ids, folder_id))

    def delete_words(self, ids: Sequence[WordId]) -> int:
        return self._run(lambda now: words.delete(self._db, ids))

    def bulk_add(self, folder_id: FolderId, rows: Sequence[BulkRow]) -> BulkResult:
        return self._run(lambda now: words.bulk_add(self._db, now, folder_id, rows))

    def add_note(self, new: NewNote) -> Note:
        return self._run(lambda now: notes.add(self._db, now, new))

    def update_note(self, note_id: NoteId, patch: NotePatch) -> Note:
        return self._run(lambda now: notes.update(self._db, now, note_id, patch))

    def delete_note(self, note_id: NoteId) -> Note:
        return self._run(lambda now: notes.delete(self._db, note_id))

    # --- import and export (app/store/transfer) ---------------------------------------------

    def export(self, kind: transfer.ExportKind) -> bytes:
        """The whole workspace as a JSON backup, an SQLite database or a CSV word list."""
        return transfer.export_workspace(self._db, kind, self._clock())

    def moment(self, utc_offset_minutes: int, at: int | None = None) -> Moment:
        """`at` (default: now) with the study days of this collection in that time zone."""
        hour = self.study.day_start_hour()
        return days.moment(self._clock() if at is None else at, utc_offset_minutes, hour)

    def preview_import(
        self, parsed: ParsedImport, mode: transfer.Mode, utc_offset_minutes: int = 0
    ) -> Steps[PlanSummary]:
        """What importing `parsed` with `mode` would change; writes nothing. Imported reviews
        fall on the study days of the learner's time zone (`utc_offset_minutes`)."""
        return transfer.preview_import(self._db, parsed, mode, self.moment(utc_offset_minutes))

    def import_parsed(
        self, parsed: ParsedImport, mode: transfer.Mode, utc_offset_minutes: int = 0
    ) -> PlanSummary:
        """Apply the import as one undoable step (planned again against the current data)."""
        return self._run(
            lambda now: transfer.import_parsed(
                self._db, self.moment(utc_offset_minutes, now), parsed, mode
            )
        )

    @contextmanager
    def query_only(self) -> Iterator[None]:
        """SQLite refuses every write for the block: the Scholar's tools run inside one."""
        with self._db.query_only():
            yield

    @property
    def busy(self) -> bool:
        """A group is open (an agent turn is running); edits made now would join it."""
        return self._history.busy

    @contextmanager
    def group(self, label: str) -> Iterator[None]:
        """Make every command inside one undo step labelled `label` (e.g. one agent turn)."""
        with self._history.step(label):
            if self._tree is not None and self._tree[0] is None:
                # Nothing is written yet, so the tree kept between steps is current here: an
                # agent turn's first request need not build it again.
                self._tree = (self._history.version, self._tree[1])
            yield

    # --- history and listeners ----------------------------------------------------------------

    def undo(self) -> Changeset | None:
        return self._history.undo()

    def redo(self) -> Changeset | None:
        return self._history.redo()

    @property
    def version(self) -> int:
        """Grows with every write to the collection (tells a caller that an action wrote)."""
        return self._history.version

    @property
    def can_undo(self) -> bool:
        return self._history.undo_label is not None

    @property
    def can_redo(self) -> bool:
        return self._history.redo_label is not None

    @property
    def undo_label(self) -> str | None:
        return self._history.undo_label

    @property
    def redo_label(self) -> str | None:
        return self._history.redo_label

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        return self._history.subscribe(listener)

    def apply_remote(self, changes: Iterable[Change], label: str = "Synced") -> list[Change]:
        """Write what another device changed (app/sync), through the ordinary `apply`: listeners
        receive exactly what was written (returned too), as after an undo, but it is never on
        the undo stack."""
        return self._history.apply_remote(changes, label)

    def apply_logged(self, changes: Iterable[Change]) -> None:
        changes = list(changes)
        self._history.apply_logged(changes)
        self._forget(changes)
