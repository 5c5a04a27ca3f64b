"""The portable workspace every import and export goes through, its limits, and progress steps.

Each file format (JSON backup, SQLite database, CSV, Anki) is read into a `ParsedImport`: a
validated `Workspace` of folders, words and notes with file-local ids, plus the rows that could
not be read and why. Planning and applying then work the same way whatever the format was.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StrictInt

from app.domain import Colour, Emoji, Lang, Meanings, Name, Text
from app.store.transfer import MAX_ID, MAX_TIMESTAMP, Mode, SourceKind

Id = Annotated[StrictInt, Field(ge=1, le=MAX_ID)]
Timestamp = Annotated[StrictInt, Field(ge=0, le=MAX_TIMESTAMP)]


class _Item(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class FolderItem(_Item):
    id: Id
    parent_id: Id | None = None
    name: Name
    emoji: Emoji = ""
    color: Colour = "none"
    created_at: Timestamp | None = None  # None: stamped when imported
    updated_at: Timestamp | None = None


class WordItem(_Item):
    id: Id | None = None  # kept by a replace restore, so links to words keep working
    folder_id: Id
    term: Name
    meanings: Meanings = []
    notes: Text = ""
    color: Colour = "none"
    lang: Lang = ""
    created_at: Timestamp | None = None
    updated_at: Timestamp | None = None
    line: int | None = Field(default=None, exclude=True)  # where it came from, for messages


class NoteItem(_Item):
    id: Id | None = None
    folder_id: Id
    title: Name
    body: Text = ""
    created_at: Timestamp | None = None
    updated_at: Timestamp | None = None


@dataclass(frozen=True)
class Workspace:
    """Folders parents-first, then words and notes, all pointing at folder ids of this file."""

    folders: list[FolderItem] = field(default_factory=list)
    words: list[WordItem] = field(default_factory=list)
    notes: list[NoteItem] = field(default_factory=list)


class _Result(BaseModel):
    model_config = ConfigDict(frozen=True)


class SkippedRow(_Result):
    """A row or item left out, with where it was (`line`) and why in plain words."""

    line: int | None
    term: str
    reason: str


@dataclass(frozen=True)
class ParsedImport:
    """A file read and checked, ready to preview and apply."""

    name: str
    kind: SourceKind
    workspace: Workspace
    item_label: str = "Line"  # what `line` numbers count: lines, notes, words
    skipped: list[SkippedRow] = field(default_factory=list)
    remarks: list[str] = field(default_factory=list)  # e.g. "12 media files were ignored."

    @property
    def modes(self) -> tuple[Mode, ...]:
        """A backup can replace the workspace; word lists and decks are only ever merged."""
        return ("merge", "replace") if self.kind in ("backup", "database") else ("merge",)
