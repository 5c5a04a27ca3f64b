"""Reading a workspace out of a database: every folder, word and note as plain dicts (for the
exports and for restoring a SQLite file), and what is already there (for planning a merge)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from app.store.db import Database

RawItem = dict[str, Any]

# The explicit list of what a backup holds: these tables, these columns. Anything else in the
# database (settings, conversations, keys) is never exported.
FOLDER_FIELDS = ("id", "parent_id", "name", "emoji", "color", "created_at", "updated_at")
WORD_FIELDS = (
    *("id", "folder_id", "term", "meanings", "notes", "color", "lang"),
    *("created_at", "updated_at"),
)
NOTE_FIELDS = ("id", "folder_id", "title", "body", "created_at", "updated_at")


@dataclass(frozen=True)
class RawWorkspace:
    folders: list[RawItem]
    words: list[RawItem]
    notes: list[RawItem]


def raw_workspace(db: Database) -> RawWorkspace:
    """Everything in the workspace, ordered by id; meanings decoded from their JSON column.

    Raises ValueError when a meanings column is not a JSON list (a damaged or forged file)."""
    folders = [
        dict(r) for r in db.all(f"SELECT {', '.join(FOLDER_FIELDS)} FROM folder ORDER BY id")
    ]
    words = []
    for row in db.all(f"SELECT {', '.join(WORD_FIELDS)} FROM word ORDER BY id"):
        word = dict(row)
        word["meanings"] = _meanings(word["meanings"])
        words.append(word)
    notes = [dict(r) for r in db.all(f"SELECT {', '.join(NOTE_FIELDS)} FROM note ORDER BY id")]
    return RawWorkspace(folders, words, notes)


def _meanings(stored: Any) -> Any:
    decoded = json.loads(stored) if isinstance(stored, str) else stored
    if not isinstance(decoded, list):
        raise ValueError("meanings are not a list")
    return decoded


@dataclass(frozen=True)
class ExistingWord:
    id: int
    meanings: list[str]
    notes: str
    color: str
    lang: str


@dataclass
class Existing:
    """What the workspace holds now, keyed the way a merge matches things."""

    folders: dict[tuple[int | None, str], int] = field(default_factory=dict)
    words: dict[tuple[int, str], ExistingWord] = field(default_factory=dict)
    notes: set[tuple[int, str, str]] = field(default_factory=set)
    next_folder_id: int = 1
    counts: tuple[int, int, int] = (0, 0, 0)  # folders, words, notes


def existing(db: Database, *, contents: bool) -> Existing:
    """The current workspace; without `contents` only its counts (a replace needs no more)."""
    counts = (
        int(db.scalar("SELECT count(*) FROM folder")),
        int(db.scalar("SELECT count(*) FROM word")),
        int(db.scalar("SELECT count(*) FROM note")),
    )
    now = Existing(counts=counts)
    if not contents:
        return now
    for r in db.all("SELECT id, parent_id, name_key FROM folder"):
        now.folders[(r["parent_id"], r["name_key"])] = r["id"]
    now.next_folder_id = int(db.scalar("SELECT coalesce(max(id), 0) + 1 FROM folder"))
    for r in db.all("SELECT id, folder_id, term_key, meanings, notes, color, lang FROM word"):
        now.words[(r["folder_id"], r["term_key"])] = ExistingWord(
            r["id"], json.loads(r["meanings"]), r["notes"], r["color"], r["lang"]
        )
    now.notes = {(r[0], r[1], r[2]) for r in db.all("SELECT folder_id, title, body FROM note")}
    return now
