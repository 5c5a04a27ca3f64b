"""Turning untrusted item lists (from a JSON backup or a foreign SQLite file) into a `Workspace`.

Every item is validated with the same rules as the forms (names, meanings, colours, languages),
in chunks so a big file reports progress. The folder tree must be sound: unique ids, parents
that exist, no cycles, at most `MAX_DEPTH` levels. Any problem rejects the whole file with a
message naming the item, so a restore never writes half a backup.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from pydantic import BaseModel, TypeAdapter, ValidationError

from app.domain import InvalidInput, user_message
from app.store.transfer import MAX_DEPTH, MAX_FOLDERS, MAX_NOTES, MAX_WORDS
from app.store.transfer.model import FolderItem, NoteItem, WordItem, Workspace
from app.store.transfer.steps import CHUNK, Progress, Steps

ItemT = TypeVar("ItemT", bound=BaseModel)


def build_workspace(
    folders: Sequence[Any], words: Sequence[Any], notes: Sequence[Any], source: str
) -> Steps[Workspace]:
    """Validate raw items into a workspace; `source` names the file kind in messages."""
    for items, limit, noun in (
        (folders, MAX_FOLDERS, "folders"),
        (words, MAX_WORDS, "words"),
        (notes, MAX_NOTES, "notes"),
    ):
        if len(items) > limit:
            raise InvalidInput(
                f"This {source} has {len(items):,} {noun}; Lexical imports at most {limit:,}."
            )
    checked_folders = yield from _validate(FolderItem, folders, "Folder", source)
    checked_words = yield from _validate(WordItem, words, "Word", source)
    checked_notes = yield from _validate(NoteItem, notes, "Note", source)
    ordered = parents_first(checked_folders, source)
    known = {f.id for f in ordered}
    _check_refs(checked_words, known, "Word", source)
    _check_refs(checked_notes, known, "Note", source)
    return Workspace(folders=ordered, words=checked_words, notes=checked_notes)


def _validate(
    model: type[ItemT], raw: Sequence[Any], label: str, source: str
) -> Steps[list[ItemT]]:
    adapter = TypeAdapter(list[model])  # type: ignore[valid-type]
    checked: list[ItemT] = []
    for start in range(0, len(raw), CHUNK):
        chunk = raw[start : start + CHUNK]
        try:
            checked.extend(adapter.validate_python(chunk))
        except ValidationError:
            _raise_first_error(model, chunk, start, label, source)
        yield Progress(f"Checking {label.lower()}s", start + len(chunk), len(raw))
    return checked


def _raise_first_error(
    model: type[BaseModel], chunk: Sequence[Any], start: int, label: str, source: str
) -> None:
    for offset, item in enumerate(chunk):
        try:
            model.model_validate(item)
        except ValidationError as exc:
            name = _item_name(item)
            raise InvalidInput(
                f"This {source} cannot be imported: {label.lower()} {start + offset + 1:,}"
                f"{name} is not valid: {user_message(exc)}"
            ) from exc


def _item_name(item: Any) -> str:
    if isinstance(item, dict):
        for key in ("name", "term", "title"):
            value = item.get(key)
            if isinstance(value, str) and value.strip():
                shown = value.strip()[:60]
                return f' ("{shown}")'
    return ""


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
        if depth > MAX_DEPTH:
            raise InvalidInput(
                f"This {source} nests folders more than {MAX_DEPTH} levels deep; "
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
