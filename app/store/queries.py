"""Read queries: rows to domain models, folder paths and the counted folder tree.

Everything here is read-only and safe on a `query_only` connection.
"""

from __future__ import annotations

import json
import sqlite3
from collections import defaultdict
from collections.abc import Iterable, Sequence

from app import domain
from app.domain import Folder, FolderId, Note, NoteId, NotFound, Word, WordId
from app.store.changes import STUDY_TABLES, Change
from app.store.db import Database
from app.store.results import DeletionSummary, TreeRow

_FOLDER = "SELECT id, parent_id, name, emoji, color, lang, created_at, updated_at FROM folder"
_WORD = "SELECT id, folder_id, term, meanings, notes, color, lang, created_at, updated_at FROM word"
# json_each turns one bound JSON array into a table, so id lists never hit the variable limit.
IDS = "SELECT value FROM json_each(?)"
_NOTE = "SELECT id, folder_id, title, body, created_at, updated_at FROM note"


def to_folder(row: sqlite3.Row) -> Folder:
    return Folder(**row)


def to_word(row: sqlite3.Row) -> Word:
    return Word(**{**row, "meanings": json.loads(row["meanings"])})


def to_note(row: sqlite3.Row) -> Note:
    return Note(**row)


def folder(db: Database, folder_id: FolderId) -> Folder:
    row = db.first(f"{_FOLDER} WHERE id = ?", (folder_id,))
    if row is None:
        raise NotFound(f"Folder {folder_id} does not exist.")
    return to_folder(row)


def folders(db: Database) -> list[Folder]:
    return [to_folder(r) for r in db.all(f"{_FOLDER} ORDER BY name_key, id")]


def children(db: Database, parent_id: FolderId | None) -> list[Folder]:
    rows = db.all(f"{_FOLDER} WHERE parent_id IS ? ORDER BY name_key, id", (parent_id,))
    return [to_folder(r) for r in rows]


def find_folders(db: Database, name: str) -> list[Folder]:
    """Folders whose name equals `name` ignoring case, for resolving names said by a user."""
    rows = db.all(f"{_FOLDER} WHERE name_key = ? ORDER BY id", (name.strip().casefold(),))
    return [to_folder(r) for r in rows]


def find_words(db: Database, term: str) -> list[Word]:
    rows = db.all(f"{_WORD} WHERE term_key = ? ORDER BY id", (term.strip().casefold(),))
    return [to_word(r) for r in rows]


def sibling_named(
    db: Database, parent_id: FolderId | None, name: str, *, besides: FolderId | None = None
) -> Folder | None:
    row = db.first(
        f"{_FOLDER} WHERE parent_id IS ? AND name_key = ? AND id IS NOT ?",
        (parent_id, name.casefold(), besides),
    )
    return None if row is None else to_folder(row)


def folder_path(db: Database, folder_id: FolderId) -> list[Folder]:
    """The folder and its ancestors, root first."""
    rows = db.all(
        "WITH RECURSIVE up(id, depth) AS (SELECT ?, 0 UNION ALL "
        "SELECT f.parent_id, up.depth + 1 FROM folder f JOIN up ON f.id = up.id "
        "WHERE f.parent_id IS NOT NULL AND up.depth < 10000) "
        f"SELECT f.* FROM up JOIN ({_FOLDER}) f ON f.id = up.id ORDER BY up.depth DESC",
        (folder_id,),
    )
    if not rows:
        raise NotFound(f"Folder {folder_id} does not exist.")
    return [to_folder(r) for r in rows]


def default_lang(db: Database, folder_id: FolderId) -> str:
    return domain.default_lang(folder_path(db, folder_id))


def folder_paths(db: Database, folder_ids: Iterable[int]) -> dict[int, list[str]]:
    """The names on the path from the root to each folder, for many folders in one query."""
    rows = db.all(
        "WITH RECURSIVE up(start, id, depth) AS (SELECT value, value, 0 FROM json_each(?) "
        "UNION ALL SELECT up.start, f.parent_id, up.depth + 1 FROM folder f JOIN up "
        "ON f.id = up.id WHERE f.parent_id IS NOT NULL AND up.depth < 10000) "
        "SELECT up.start, f.name FROM up JOIN folder f ON f.id = up.id "
        "ORDER BY up.start, up.depth DESC",
        (json.dumps(sorted(folder_ids)),),
    )
    paths: dict[int, list[str]] = defaultdict(list)
    for row in rows:
        paths[row[0]].append(row[1])
    return paths


_SUBTREE = (
    "WITH RECURSIVE down(id, depth) AS (SELECT ?, 0 UNION ALL "
    "SELECT f.id, down.depth + 1 FROM folder f JOIN down ON f.parent_id = down.id) "
)


def subtree_ids(db: Database, folder_id: FolderId) -> list[FolderId]:
    """The folder and all its descendants, parents before children."""
    rows = db.all(f"{_SUBTREE} SELECT id FROM down ORDER BY depth", (folder_id,))
    return [FolderId(r["id"]) for r in rows]


def subtree_height(db: Database, folder_id: FolderId) -> int:
    """Levels of folders from this one down to its deepest subfolder (1: no subfolders)."""
    return int(db.scalar(f"{_SUBTREE} SELECT max(depth) + 1 FROM down", (folder_id,)))


def folder_order(db: Database) -> list[tuple[Folder, int]]:
    """All folders depth-first (a parent before its children), each with its depth."""
    kids: dict[FolderId | None, list[Folder]] = defaultdict(list)
    for f in folders(db):
        kids[f.parent_id].append(f)
    order: list[tuple[Folder, int]] = []
    stack = [(f, 0) for f in reversed(kids[None])]
    while stack:
        f, depth = stack.pop()
        order.append((f, depth))
        stack.extend((c, depth + 1) for c in reversed(kids[f.id]))
    return order


def folder_tree(db: Database) -> list[TreeRow]:
    """All folders depth-first with counts, from two queries however many folders there are."""
    counted = db.all("SELECT folder_id, count(*) FROM word GROUP BY folder_id")
    direct: dict[FolderId, int] = {FolderId(r[0]): r[1] for r in counted}
    order = folder_order(db)
    kids: dict[FolderId | None, list[Folder]] = defaultdict(list)
    for f, _ in order:
        kids[f.parent_id].append(f)
    totals: dict[FolderId, int] = {}
    for f, _ in reversed(order):  # children come after their parent, so they are summed first
        totals[f.id] = direct.get(f.id, 0) + sum(totals[c.id] for c in kids[f.id])
    return [
        TreeRow(folder=f, depth=d, word_count=direct.get(f.id, 0), total_words=totals[f.id])
        for f, d in order
    ]


def changes_tree(changes: Iterable[Change]) -> bool:
    """Whether `changes` alter the folder tree or its word counts (a word edit in place does
    not, so the tree need not be read again after it)."""
    for change in changes:
        if change.table == "folder" or (change.table == "word" and change.op != "update"):
            return True
        old, new = change.old or {}, change.new or {}
        if change.table == "word" and old.get("folder_id") != new.get("folder_id"):
            return True
    return False


_PLACEMENT = {"card": "folder_id", "folder": "parent_id"}


def moved_placement(change: Change) -> bool:
    """Whether `change` put a card in another folder (its word moved) or a folder under
    another parent."""
    key = _PLACEMENT.get(change.table)
    old, new = change.old, change.new
    return key is not None and old is not None and new is not None and old[key] != new[key]


def changes_placement(changes: Iterable[Change]) -> bool:
    """Whether `changes` moved a card or a folder: what reschedules cards whose folder's
    options now schedule otherwise (app/studying/reschedule.py), told without the scheduler."""
    return any(moved_placement(change) for change in changes)


def changes_study(changes: Iterable[Change]) -> bool:
    """Whether `changes` can alter what is due or new: progress, options, words added or
    deleted, or a word moving or gaining or losing its last meaning (words without one are
    not studied)."""
    for change in changes:
        if change.table in STUDY_TABLES or (change.table == "word" and change.op != "update"):
            return True
        if change.table == "word":
            old, new = change.old or {}, change.new or {}
            if (old.get("meanings") == "[]") != (new.get("meanings") == "[]") or old.get(
                "folder_id"
            ) != new.get("folder_id"):
                return True
    return False


def word_count(db: Database, folder_id: FolderId) -> int:
    return int(db.scalar("SELECT count(*) FROM word WHERE folder_id = ?", (folder_id,)))


def word(db: Database, word_id: WordId) -> Word:
    row = db.first(f"{_WORD} WHERE id = ?", (word_id,))
    if row is None:
        raise NotFound(f"Word {word_id} does not exist.")
    return to_word(row)


def words_by_id(db: Database, ids: Sequence[WordId]) -> list[Word]:
    rows = db.all(f"{_WORD} WHERE id IN ({IDS}) ORDER BY id", (json.dumps(list(ids)),))
    return [to_word(r) for r in rows]


def word_with_term(db: Database, folder_id: FolderId, term: str) -> Word | None:
    row = db.first(f"{_WORD} WHERE folder_id = ? AND term_key = ?", (folder_id, term.casefold()))
    return None if row is None else to_word(row)


def term_keys(db: Database, folder_id: FolderId) -> set[str]:
    rows = db.all("SELECT term_key FROM word WHERE folder_id = ?", (folder_id,))
    return {r[0] for r in rows}


def notes(db: Database, folder_id: FolderId) -> list[Note]:
    return [to_note(r) for r in db.all(f"{_NOTE} WHERE folder_id = ? ORDER BY id", (folder_id,))]


def note(db: Database, note_id: NoteId) -> Note:
    row = db.first(f"{_NOTE} WHERE id = ?", (note_id,))
    if row is None:
        raise NotFound(f"Note {note_id} does not exist.")
    return to_note(row)


def deletion_summary(db: Database, folder_id: FolderId) -> DeletionSummary:
    target = folder(db, folder_id)

    def count(table: str) -> int:
        sql = f"{_SUBTREE} SELECT count(*) FROM {table} WHERE folder_id IN (SELECT id FROM down)"
        return int(db.scalar(sql, (folder_id,)))

    return DeletionSummary(
        folder=target,
        subfolders=len(subtree_ids(db, folder_id)) - 1,
        words=count("word"),
        notes=count("note"),
    )
