"""Recording of steps, undo/redo stacks and change listeners.

A step is one SQL transaction whose captured rows become one `Changeset`. Steps nest: commands
run inside a `group` join the group's step, so an agent turn is undone in one go, and an
exception escaping the outermost step rolls everything back and records nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from app.domain import LexicalError
from app.store.changes import Change, Changeset, apply, invert, take_captured
from app.store.db import Database

Listener = Callable[[Changeset], None]


@dataclass
class Step:
    """Filled in by the command running inside a step; a group's own label wins."""

    label: str = ""


class History:
    def __init__(self, db: Database, *, read_only: bool = False, limit: int = 500) -> None:
        self._db = db
        self._read_only = read_only
        self._limit = limit
        self._undo: list[Changeset] = []
        self._redo: list[Changeset] = []
        self._listeners: list[Listener] = []
        self._outer: Step | None = None
        self.version = 0  # grows with every write to the collection, for caches of reads

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call `listener` with what was written after each committed step; returns an
        unsubscribe function."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    @contextmanager
    def step(self, label: str = "") -> Iterator[Step]:
        if self._read_only:
            raise LexicalError("This workspace is open read-only, so it cannot be changed.")
        current = Step(label)
        if self._outer is not None:
            with self._writing():
                yield current
            return
        self._outer = current
        try:
            with self._writing():
                yield current
        finally:
            self._outer = None
        self._record(current.label)

    @contextmanager
    def _writing(self, *, collection: bool = True) -> Iterator[None]:
        """A transaction; afterwards, committed or rolled back, reads of the collection cached
        against `version` are stale (the assistant's own records do not count)."""
        try:
            with self._db.transaction():
                yield
        finally:
            if collection:
                self.version += 1

    @contextmanager
    def apart(self, label: str) -> Iterator[list[Change]]:
        """Write outside undo (the assistant's conversation records): saved and broadcast like
        a step, but never on the undo stack. Refused inside a step, so such rows can never be
        mixed into an undoable changeset. The block may add changes it wrote uncaptured
        (`changes.uncaptured`) to the list it is given; they follow the captured ones."""
        if self._read_only:
            raise LexicalError("This workspace is open read-only, so it cannot be changed.")
        self._check_idle()
        recorded: list[Change] = []
        with self._writing(collection=False):
            yield recorded
        written = take_captured(self._db) + recorded
        if written:
            self._emit(Changeset(label=label, changes=written))

    @property
    def busy(self) -> bool:
        """A step is open (an agent turn is running): other edits would join it."""
        return self._outer is not None

    def _record(self, label: str) -> None:
        changes = take_captured(self._db)
        if not changes:
            return
        changeset = Changeset(label=label, changes=changes)
        self._undo = [*self._undo[-(self._limit - 1) :], changeset]
        self._redo.clear()
        self._emit(changeset)

    def _emit(self, changeset: Changeset) -> None:
        for listener in list(self._listeners):
            listener(changeset)

    @property
    def undo_label(self) -> str | None:
        return self._undo[-1].label if self._undo else None

    @property
    def redo_label(self) -> str | None:
        return self._redo[-1].label if self._redo else None

    def undo(self) -> Changeset | None:
        """Revert the newest step and return it, or None when there is nothing to undo."""
        if not self._undo:
            return None
        changeset = self._undo.pop()
        self._replay(invert(changeset.changes), f"Undo {changeset.label}")
        self._redo.append(changeset)
        return changeset

    def redo(self) -> Changeset | None:
        if not self._redo:
            return None
        changeset = self._redo.pop()
        self._replay(changeset.changes, f"Redo {changeset.label}")
        self._undo.append(changeset)
        return changeset

    def _replay(self, changes: Iterable[Change], label: str) -> list[Change]:
        # Written through the capture triggers so listeners log exactly what changed.
        self._check_idle()
        with self._writing():
            apply(self._db, changes)
        written = take_captured(self._db)
        if written:
            self._emit(Changeset(label=label, changes=written))
        return written

    def apply_remote(self, changes: Iterable[Change], label: str) -> list[Change]:
        """Write changes another device made (app/sync): not undoable, but saved, logged and
        broadcast like any step, so durability and a following tab need nothing new. Returns
        what was written, triggers' writes included."""
        return self._replay(changes, label)

    def apply_logged(self, changes: Iterable[Change]) -> None:
        """Replay changes from the operation log: not undoable, not emitted."""
        self._check_idle()
        with self._writing():
            apply(self._db, changes)
        take_captured(self._db)

    def _check_idle(self) -> None:
        if self._outer is not None:
            raise LexicalError("Finish the current step before undoing or replaying changes.")
