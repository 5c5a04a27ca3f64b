"""Folder commands: create, rename/restyle, move and cascading delete.

Each function checks the rules (unique sibling names, no cycles), writes, and returns its result
with the label for the Undo menu. Transactions and recording are the caller's job (`history`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.domain import MAX_FOLDER_DEPTH, Conflict, Folder, FolderId
from app.store import queries
from app.store.db import Database
from app.store.results import DeletionSummary

if TYPE_CHECKING:
    from app.inputs import FolderPatch, NewFolder


def _where(db: Database, parent_id: FolderId | None) -> str:
    return "the top level" if parent_id is None else f'"{queries.folder(db, parent_id).name}"'


def _check_free(
    db: Database, parent_id: FolderId | None, name: str, besides: FolderId | None = None
) -> None:
    where = _where(db, parent_id)  # raises NotFound for a missing parent
    clash = queries.sibling_named(db, parent_id, name, besides=besides)
    if clash is not None:
        raise Conflict(f'{where} already has a folder named "{clash.name}".')


def _check_depth(db: Database, parent_id: FolderId | None, levels: int, what: str) -> None:
    """`levels` of folders can go under `parent_id` without nesting deeper than a backup may."""
    above = 0 if parent_id is None else len(queries.folder_path(db, parent_id))
    if above + levels > MAX_FOLDER_DEPTH:
        raise Conflict(
            f"{what} would nest folders {above + levels} levels deep; folders can nest at most "
            f"{MAX_FOLDER_DEPTH} levels, so that every backup can be restored."
        )


def create(db: Database, now: int, new: NewFolder) -> tuple[Folder, str]:
    _check_free(db, new.parent_id, new.name)
    _check_depth(db, new.parent_id, 1, f'"{new.name}" there')
    folder_id = db.insert(
        "folder",
        {
            "parent_id": new.parent_id,
            "name": new.name,
            "name_key": new.name.casefold(),
            "emoji": new.emoji,
            "color": new.color,
            "lang": new.lang,
        },
        now,
    )
    return queries.folder(db, FolderId(folder_id)), f'Create folder "{new.name}"'


def update(db: Database, now: int, folder_id: FolderId, patch: FolderPatch) -> tuple[Folder, str]:
    current = queries.folder(db, folder_id)
    values = patch.changes()
    if "name" in values:
        _check_free(db, current.parent_id, values["name"], besides=folder_id)
        values["name_key"] = values["name"].casefold()
    if values:
        db.update("folder", folder_id, values, now)
    renamed = "name" in values and values["name"] != current.name
    label = f'Rename folder "{current.name}" to "{values["name"]}"' if renamed else ""
    return queries.folder(db, folder_id), label or f'Edit folder "{current.name}"'


def move(
    db: Database, now: int, folder_id: FolderId, parent_id: FolderId | None
) -> tuple[Folder, str]:
    current = queries.folder(db, folder_id)
    destination = _where(db, parent_id)  # raises NotFound for a missing destination
    if parent_id is not None and parent_id in queries.subtree_ids(db, folder_id):
        raise Conflict(f'Cannot move "{current.name}" into itself or one of its subfolders.')
    if parent_id != current.parent_id:
        _check_free(db, parent_id, current.name, besides=folder_id)
        levels = queries.subtree_height(db, folder_id)
        _check_depth(db, parent_id, levels, f'Moving "{current.name}" there')
        db.update("folder", folder_id, {"parent_id": parent_id}, now)
    return queries.folder(db, folder_id), f'Move folder "{current.name}" to {destination}'


def delete(db: Database, folder_id: FolderId) -> tuple[DeletionSummary, str]:
    """Delete the folder with everything under it: contents first, then folders leaf-first,
    so the captured inverse recreates parents before their children."""
    summary = queries.deletion_summary(db, folder_id)
    ids = queries.subtree_ids(db, folder_id)
    params = [(i,) for i in ids]
    db.executemany("DELETE FROM word WHERE folder_id = ?", params)
    db.executemany("DELETE FROM note WHERE folder_id = ?", params)
    db.executemany("DELETE FROM folder WHERE id = ?", reversed(params))
    return summary, f'Delete folder "{summary.folder.name}"{_contents(summary)}'


def _contents(summary: DeletionSummary) -> str:
    counts = [(summary.subfolders, "subfolder"), (summary.words, "word"), (summary.notes, "note")]
    parts = [f"{n:,} {noun}{'' if n == 1 else 's'}" for n, noun in counts if n]
    return f" ({', '.join(parts)})" if parts else ""
