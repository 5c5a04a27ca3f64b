"""Small, bounded descriptions of folders, words and notes: JSON for the model, links for the UI."""

from __future__ import annotations

from typing import Any

from app.domain import Folder, Note, Word
from app.tools.registry import Link
from app.tools.resolve import folder_path
from app.tools.workspace import Workspace

MEANING_CHARS = 300  # per meaning, when listing many words
BODY_CHARS = 2_000  # per note body returned to the model
LISTED_MEANINGS = 3


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def folder_link(folder: Folder) -> Link:
    return Link(kind="folder", id=folder.id, folder_id=folder.id, label=folder.name)


def word_link(word: Word) -> Link:
    return Link(kind="word", id=word.id, folder_id=word.folder_id, label=word.term)


def note_link(note: Note) -> Link:
    return Link(kind="note", id=note.id, folder_id=note.folder_id, label=note.title)


def folder_data(ws: Workspace, folder: Folder) -> dict[str, Any]:
    data: dict[str, Any] = {
        "path": folder_path(ws, folder.id),
        "words": ws.store.word_count(folder.id),
        "subfolders": len(ws.store.children(folder.id)),
    }
    if folder.emoji:
        data["emoji"] = folder.emoji
    if folder.color != "none":
        data["colour"] = folder.color
    if folder.lang:
        data["language"] = folder.lang
    return data


def word_data(ws: Workspace, word: Word, *, brief: bool = False) -> dict[str, Any]:
    """The word as the model reads it; `brief` keeps a listing of many words small."""
    meanings = word.meanings[:LISTED_MEANINGS] if brief else word.meanings
    data: dict[str, Any] = {
        "term": word.term,
        "meanings": [clip(m, MEANING_CHARS) for m in meanings] if brief else meanings,
    }
    if not brief:
        data["folder"] = folder_path(ws, word.folder_id)
        data.update({k: v for k, v in (("notes", word.notes), ("lang", word.lang)) if v})
        if word.color != "none":
            data["colour"] = word.color
    return data


def note_data(note: Note) -> dict[str, Any]:
    return {"title": note.title, "body": clip(note.body, BODY_CHARS)}
