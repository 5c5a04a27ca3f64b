"""What a tool call works on: the store, what the user is looking at, and what "it" means.

`References` is the per-conversation memory of the items last named or touched, so "it",
"that folder" or "that word" in a later call (or a later turn) resolve to them. It is saved with
the conversation as plain JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from app.domain import FolderId, NoteId, WordId
from app.store import Store

Kind = Literal["folder", "word", "note"]


@dataclass
class References:
    folder: FolderId | None = None
    word: WordId | None = None
    note: NoteId | None = None
    last: Kind | None = None  # which of the three was named most recently

    def saw(self, kind: Kind, item_id: int) -> None:
        if kind == "folder":
            self.folder = FolderId(item_id)
        elif kind == "word":
            self.word = WordId(item_id)
        else:
            self.note = NoteId(item_id)
        self.last = kind

    def to_json(self) -> dict[str, Any]:
        return {"folder": self.folder, "word": self.word, "note": self.note, "last": self.last}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> References:
        """Tolerant of anything stored: unknown or malformed entries are simply forgotten."""

        def item(key: str) -> int | None:
            value = data.get(key)
            return value if isinstance(value, int) and not isinstance(value, bool) else None

        folder, word, note = item("folder"), item("word"), item("note")
        last = data.get("last")
        return cls(
            folder=None if folder is None else FolderId(folder),
            word=None if word is None else WordId(word),
            note=None if note is None else NoteId(note),
            last=last if last in ("folder", "word", "note") else None,
        )


@dataclass
class Workspace:
    store: Store
    refs: References = field(default_factory=References)
    open_folder: FolderId | None = None  # the folder on screen, for "here"
    selected_word: WordId | None = None  # the word on screen, when nothing was named yet
    utc_offset_minutes: int = 0  # the user's local time minus UTC, for study days
