"""Turning untrusted item lists (from a JSON backup or a foreign SQLite file) into a `Workspace`.

Every item is validated with the same rules as the forms (names, meanings, colours, languages),
in chunks so a big file reports progress. The folder tree must be sound: unique ids, parents
that exist, no cycles, at most `MAX_FOLDER_DEPTH` levels. Study progress, when the file has it, is
checked by `study_checks`. Any problem rejects the whole file with a message naming the item,
so a restore never writes half a backup.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.domain import MAX_FOLDER_DEPTH, InvalidInput
from app.store.transfer import MAX_FOLDERS, MAX_NOTES, MAX_WORDS
from app.store.transfer.model import FolderItem, NoteItem, WordItem, Workspace
from app.store.transfer.steps import Steps
from app.store.transfer.study_checks import StudySections, build_study
from app.store.transfer.validation import check_limit, check_unique_gids, validate_items


def build_workspace(
    folders: Sequence[Any],
    words: Sequence[Any],
    notes: Sequence[Any],
    source: str,
    study: StudySections | None = None,
) -> Steps[Workspace]:
    """Validate raw items into a workspace; `source` names the file kind in messages and
    `study` is None for a file without study progress (a version 1 backup)."""
    check_limit(folders, MAX_FOLDERS, "folders", source)
    check_limit(words, MAX_WORDS, "words", source)
    check_limit(notes, MAX_NOTES, "notes", source)
    checked_folders = yield from validate_items(FolderItem, folders, "Folder", source)
    checked_words = yield from validate_items(WordItem, words, "Word", source)
    checked_notes = yield from validate_items(NoteItem, notes, "Note", source)
    ordered = parents_first(checked_folders, source)
    known = {f.id for f in ordered}
    _check_refs(checked_words, known, "Word", source)
    _check_refs(checked_notes, known, "Note", source)
    check_unique_gids(checked_folders, "folder", source)
    check_unique_gids(checked_words, "word", source)
    check_unique_gids(checked_notes, "note", source)
    checked_study = None
    if study is not None:
        word_ids = {w.id for w in checked_words if w.id is not None}
        checked_study = yield from build_study(study, known, word_ids, source)
    return Workspace(ordered, checked_words, checked_notes, checked_study)


def parents_first(folders: list[FolderItem], source: str) -> list[FolderItem]:
    """The folders ordered so each parent comes before its children; refuses broken trees."""
    by_id: dict[int, FolderItem] = {}
    for folder in folders:
        if folder.id in by_id:
            raise InvalidInput(f"This {source} has two folders with id {folder.id}.")
        by_id[folder.id] = folder
    children: dict[int | None, list[FolderItem]] = {}
    for folder in folders:
        if folder.parent_id is not None and folder.parent_id not in by_id:
            raise InvalidInput(
                f'This {source} cannot be imported: folder "{folder.name}" is inside folder '
                f"{folder.parent_id}, which is not in the file."
            )
        children.setdefault(folder.parent_id, []).append(folder)
    ordered: list[FolderItem] = []
    level = children.get(None, [])
    depth = 0
    while level:
        depth += 1
        if depth > MAX_FOLDER_DEPTH:
            raise InvalidInput(
                f"This {source} nests folders more than {MAX_FOLDER_DEPTH} levels deep; "
                "Lexical imports at most that many."
            )
        ordered.extend(level)
        level = [child for f in level for child in children.get(f.id, [])]
    if len(ordered) != len(folders):
        raise InvalidInput(
            f"This {source} cannot be imported: some folders are inside each other in a loop."
        )
    return ordered


def _check_refs(
    items: Sequence[WordItem | NoteItem], known: set[int], label: str, source: str
) -> None:
    ids: set[int] = set()
    for number, item in enumerate(items, start=1):
        if item.folder_id not in known:
            raise InvalidInput(
                f"This {source} cannot be imported: {label.lower()} {number:,} is in folder "
                f"{item.folder_id}, which is not in the file."
            )
        if item.id is not None:
            if item.id in ids:
                raise InvalidInput(f"This {source} has two {label.lower()}s with id {item.id}.")
            ids.add(item.id)
