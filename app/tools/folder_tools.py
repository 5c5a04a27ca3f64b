"""Folder tools: create, restyle, outline the tree, and find folders by name."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from app.domain import Colour, InvalidInput
from app.inputs import Emoji, FolderPatch, Lang, Name, NewFolder
from app.text.counting import listed
from app.tools import resolve
from app.tools.outline import outline
from app.tools.registry import Outcome, Params, Tool
from app.tools.views import folder_data, folder_link
from app.tools.workspace import Workspace

MAX_OUTLINE_ROWS = 150
MAX_FOUND = 50
_LANG = "Language tag (de, zh-Hant) for words added to it without one"


class CreateFolder(Params):
    name: Name = Field(description="Its name.")
    parent: str = Field("", description="The parent folder; empty for the top level.")
    emoji: Emoji = Field("", description="An emoji.")
    color: Colour = Field("none", description="A colour label.")
    lang: Lang = Field("", description=f"{_LANG}.")


def create_folder(ws: Workspace, p: CreateFolder) -> Outcome:
    parent = resolve.destination(ws, p.parent)
    parent_id = None if parent is None else parent.id
    created = ws.store.create_folder(
        NewFolder(name=p.name, parent_id=parent_id, emoji=p.emoji, color=p.color, lang=p.lang)
    )
    where = f" in {parent.name}" if parent else ""
    return Outcome(
        step=f"Created folder {created.name}{where}",
        data={"created": folder_data(ws, created)},
        link=folder_link(created),
    )


class UpdateFolder(Params):
    folder: str = Field(description="The folder.")
    emoji: Emoji | None = Field(None, description="New emoji; empty removes it.")
    color: Colour | None = Field(None, description="New colour; 'none' removes it.")
    lang: Lang | None = Field(None, description=f"{_LANG}; empty removes it.")


def update_folder(ws: Workspace, p: UpdateFolder) -> Outcome:
    patch = FolderPatch(emoji=p.emoji, color=p.color, lang=p.lang)
    if not patch.changes():
        raise InvalidInput(
            "Give an emoji, a colour or a language to change (renaming is RENAME_ITEM)."
        )
    target = resolve.folder(ws, p.folder)
    updated = ws.store.update_folder(target.id, patch)
    changed = [
        f"{name} {value or 'removed'}"
        for name, value in (("emoji", p.emoji), ("colour", p.color), ("language", p.lang))
        if value is not None
    ]
    return Outcome(
        step=f"Updated folder {updated.name} ({listed(changed)})",
        data={"updated": folder_data(ws, updated)},
        link=folder_link(updated),
    )


class FolderStructure(Params):
    folder: str = Field("", description="Whose subfolders; empty for all.")
    depth: int = Field(2, ge=1, le=6, description="Levels to show.")


def folder_structure(ws: Workspace, p: FolderStructure) -> Outcome:
    root = resolve.destination(ws, p.folder)
    shape = outline(
        ws.store.folder_tree(),
        None if root is None else root.id,
        max_depth=p.depth if root else p.depth - 1,
        max_rows=MAX_OUTLINE_ROWS,
    )
    rows: list[dict[str, Any]] = []
    for row in shape.rows:
        item: dict[str, Any] = {"path": row.path, "words": row.total_words}
        if row.hidden_subfolders:
            item["subfolders_not_shown"] = row.hidden_subfolders
        rows.append(item)
    where = root.name if root else "the collection"
    data: dict[str, Any] = {"folders": rows, "words_include_subfolders": True}
    if shape.omitted:
        data["folders_not_shown"] = shape.omitted
    return Outcome(step=f"Looked at the folders of {where}", data=data)


class SearchFolders(Params):
    query: str = Field(min_length=1, max_length=200, description="Words in its name.")
    limit: int = Field(20, ge=1, le=MAX_FOUND, description="Most to return.")


def search_folders(ws: Workspace, p: SearchFolders) -> Outcome:
    exact = ws.store.find_folders(p.query)
    hits = [h for h in ws.store.search(p.query, limit=200) if h.kind == "folder"]
    found = {f.id: f for f in exact}
    for hit in hits:
        found.setdefault(hit.folder_id, ws.store.folder(hit.folder_id))
    shown = [folder_data(ws, f) for f in list(found.values())[: p.limit]]
    return Outcome(
        step=f'Searched folders for "{p.query}"',
        data={"folders": shown, "more": max(0, len(found) - p.limit)},
    )


FOLDER_TOOLS = (
    Tool(
        "CREATE_FOLDER",
        "Create a folder, at the top level or in another folder.",
        CreateFolder,
        "write",
        create_folder,
    ),
    Tool(
        "UPDATE_FOLDER_METADATA",
        "Change a folder's emoji, colour or default language (not its name).",
        UpdateFolder,
        "write",
        update_folder,
    ),
    Tool(
        "GET_FOLDER_STRUCTURE",
        "The folder tree, or a folder's subfolders: paths and word counts.",
        FolderStructure,
        "read",
        folder_structure,
    ),
    Tool(
        "SEARCH_FOLDERS",
        "Find folders by words in their names; gives their paths.",
        SearchFolders,
        "read",
        search_folders,
    ),
)
