"""Tools over any item (folder, word or note): delete, rename, move and open in the UI."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.domain import Conflict, Folder, Note, Word
from app.inputs import FolderPatch, Name, NotePatch, WordPatch
from app.text.counting import counted_list
from app.tools import resolve
from app.tools.registry import Link, Outcome, Params, Plan, Tool
from app.tools.views import folder_link, note_link, word_link
from app.tools.workspace import Workspace

Item = Folder | Word | Note
# Moving a folder that holds more than this many items asks the user first.
MANY = 25


class ItemRef(Params):
    kind: Literal["folder", "word", "note"] = Field(description="Its kind.")
    name: str = Field(
        min_length=1,
        description="Its path or name, term or title.",
    )
    folder: str = Field(
        "",
        description="For a word or note: its folder, if needed.",
    )


def find(ws: Workspace, ref: ItemRef) -> Item:
    if ref.kind == "folder":
        return resolve.folder(ws, ref.name)
    if ref.kind == "word":
        return resolve.word(ws, ref.name, ref.folder)
    return resolve.note(ws, ref.name, ref.folder)


def label(ws: Workspace, item: Item) -> str:
    """E.g. 'folder "Medicine/Cardiology"' or 'word "aorta" in Medicine/Cardiology'."""
    if isinstance(item, Folder):
        return f'folder "{resolve.folder_path(ws, item.id)}"'
    where = resolve.folder_path(ws, item.folder_id)
    if isinstance(item, Word):
        return f'word "{item.term}" in {where}'
    return f'note "{item.title}" in {where}'


def link(item: Item) -> Link:
    if isinstance(item, Folder):
        return folder_link(item)
    return word_link(item) if isinstance(item, Word) else note_link(item)


def _contents(ws: Workspace, folder: Folder) -> tuple[int, str]:
    """How many items a folder holds and a phrase for them ("3 subfolders and 120 words")."""
    summary = ws.store.deletion_summary(folder.id)
    counts = [(summary.subfolders, "subfolder"), (summary.words, "word"), (summary.notes, "note")]
    return summary.subfolders + summary.words + summary.notes, counted_list(*counts)


class DeleteItem(ItemRef):
    pass


def plan_delete(ws: Workspace, p: DeleteItem) -> Plan:
    item = find(ws, p)
    if not isinstance(item, Folder):
        name = item.term if isinstance(item, Word) else item.title
        return Plan(change=f"Delete {label(ws, item)}", deletes=1, targets=(name,))
    held, phrase = _contents(ws, item)
    change = f"Delete {label(ws, item)}" + (f" with {phrase}" if held else " (empty)")
    return Plan(change=change, deletes=1 + held, large=held > 0, targets=(item.name,))


def delete_item(ws: Workspace, p: DeleteItem) -> Outcome:
    item = find(ws, p)
    step = plan_delete(ws, p).change.replace("Delete", "Deleted", 1)
    if isinstance(item, Folder):
        ws.store.delete_folder(item.id)
    elif isinstance(item, Word):
        ws.store.delete_words([item.id])
    else:
        ws.store.delete_note(item.id)
    return Outcome(step=step, data={"deleted": step.removeprefix("Deleted ")})


class RenameItem(ItemRef):
    new_name: Name = Field(description="The new name.")


def rename_item(ws: Workspace, p: RenameItem) -> Outcome:
    item = find(ws, p)
    before = label(ws, item)
    renamed: Item
    if isinstance(item, Folder):
        renamed = ws.store.update_folder(item.id, FolderPatch(name=p.new_name))
    elif isinstance(item, Word):
        renamed = ws.store.update_word(item.id, WordPatch(term=p.new_name))
    else:
        renamed = ws.store.update_note(item.id, NotePatch(title=p.new_name))
    return Outcome(
        step=f'Renamed {before} to "{p.new_name}"',
        data={"renamed": before, "now": label(ws, renamed)},
        link=link(renamed),
    )


class MoveItem(ItemRef):
    kind: Literal["folder", "word"] = Field(description="Its kind.")
    destination: str = Field(
        description="The folder to move it into; empty for the top level (folders only)."
    )


def _movable(ws: Workspace, p: MoveItem) -> Folder | Word:
    return resolve.folder(ws, p.name) if p.kind == "folder" else resolve.word(ws, p.name, p.folder)


def plan_move(ws: Workspace, p: MoveItem) -> Plan | None:
    item = _movable(ws, p)
    if not isinstance(item, Folder):
        return None
    held, phrase = _contents(ws, item)
    target = resolve.destination(ws, p.destination)
    where = "the top level" if target is None else f'"{resolve.folder_path(ws, target.id)}"'
    change = f"Move {label(ws, item)}" + (f" with {phrase}" if held else "") + f" into {where}"
    return Plan(change=change, large=held > MANY)


def move_item(ws: Workspace, p: MoveItem) -> Outcome:
    item = _movable(ws, p)
    target = resolve.destination(ws, p.destination)
    before = label(ws, item)
    moved: Item
    if isinstance(item, Folder):
        moved = ws.store.move_folder(item.id, None if target is None else target.id)
    elif target is None:
        raise Conflict("Words live in folders: name the folder to move the word into.")
    else:
        result = ws.store.move_words([item.id], target.id)
        if result.skipped:
            raise Conflict(result.skipped[0])
        moved = ws.store.word(item.id)
    where = "the top level" if target is None else target.name
    return Outcome(
        step=f"Moved {before} to {where}",
        data={"moved": before, "now": label(ws, moved)},
        link=link(moved),
    )


class NavigateTo(ItemRef):
    pass


def navigate_to(ws: Workspace, p: NavigateTo) -> Outcome:
    item = find(ws, p)
    return Outcome(
        step=f"Opened {label(ws, item)}",
        data={"opened": label(ws, item)},
        link=link(item),
        navigate=True,
    )


ITEM_TOOLS = (
    Tool(
        "DELETE_ITEM",
        "Delete a folder with everything in it, a word or a note. The app asks the user "
        "when it matters.",
        DeleteItem,
        "destructive",
        delete_item,
        plan_delete,
    ),
    Tool("RENAME_ITEM", "Rename a folder, word or note.", RenameItem, "write", rename_item),
    Tool(
        "MOVE_ITEM",
        "Move a folder with everything in it, or a word, into another folder.",
        MoveItem,
        "destructive",
        move_item,
        plan_move,
    ),
    Tool(
        "NAVIGATE_TO",
        "Show a folder, word or note on the user's screen.",
        NavigateTo,
        "read",
        navigate_to,
    ),
)
