"""Note commands: free-text notes attached to a folder (add, edit, delete)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.domain import Note, NoteId
from app.store import queries
from app.store.db import Database

if TYPE_CHECKING:
    from app.inputs import NewNote, NotePatch


def add(db: Database, now: int, new: NewNote) -> tuple[Note, str]:
    folder = queries.folder(db, new.folder_id)
    note_id = db.insert(
        "note",
        {
            "folder_id": new.folder_id,
            "title": new.title,
            "body": new.body,
        },
        now,
    )
    return queries.note(db, NoteId(note_id)), f'Add note "{new.title}" to "{folder.name}"'


def update(db: Database, now: int, note_id: NoteId, patch: NotePatch) -> tuple[Note, str]:
    current = queries.note(db, note_id)
    values = patch.changes()
    if values:
        db.update("note", note_id, values, now)
    return queries.note(db, note_id), f'Edit note "{current.title}"'


def delete(db: Database, note_id: NoteId) -> tuple[Note, str]:
    current = queries.note(db, note_id)
    db.execute("DELETE FROM note WHERE id = ?", (note_id,))
    return current, f'Delete note "{current.title}"'
