"""Note tools: a folder's Markdown notes (create, change, read)."""

from __future__ import annotations

from pydantic import Field

from app.domain import Note
from app.inputs import Name, NewNote, NotePatch, Text, parse_input
from app.text.counting import listed
from app.tools import resolve
from app.tools.registry import Outcome, Params, Plan, Tool
from app.tools.views import folder_link, note_data, note_link
from app.tools.workspace import Workspace

MAX_NOTES = 20


class CreateNote(Params):
    folder: str = Field(description="The folder.")
    title: Name = Field(description="Its title.")
    body: Text = Field("", description="Its text (Markdown).")


def create_note(ws: Workspace, p: CreateNote) -> Outcome:
    place = resolve.folder(ws, p.folder)
    added = ws.store.add_note(NewNote(folder_id=place.id, title=p.title, body=p.body))
    return Outcome(
        step=f'Added note "{added.title}" to {place.name}',
        data={"added": note_data(added)},
        link=note_link(added),
    )


class UpdateNote(Params):
    title: str = Field(min_length=1, description="The note's title.")
    folder: str = Field("", description="Its folder, when the title is in several.")
    new_title: Name | None = Field(None, description="A new title.")
    body: Text | None = Field(None, description="Replaces all its text.")
    append: Text | None = Field(None, description="Text to add at the end.")


def _patch(ws: Workspace, p: UpdateNote) -> tuple[Note, NotePatch]:
    current = resolve.note(ws, p.title, p.folder)
    body = current.body if p.body is None else p.body
    if p.append:
        body = f"{body}\n\n{p.append}" if body else p.append
    values = {"title": p.new_title, "body": None if body == current.body else body}
    return current, parse_input(NotePatch, {k: v for k, v in values.items() if v is not None})


def update_note(ws: Workspace, p: UpdateNote) -> Outcome:
    current, patch = _patch(ws, p)
    changed = list(patch.changes())
    if not changed:
        return Outcome(step=f'Left note "{current.title}" as it was', data={"unchanged": True})
    updated = ws.store.update_note(current.id, patch)
    return Outcome(
        step=f'Updated note "{updated.title}" ({listed(changed).replace("body", "text")})',
        data={"updated": note_data(updated)},
        link=note_link(updated),
    )


def plan_update_note(ws: Workspace, p: UpdateNote) -> Plan | None:
    """Replacing a note's text (not appending to it) overwrites what was there."""
    current, _ = _patch(ws, p)
    if p.body is None or not current.body.strip() or p.body == current.body:
        return None
    where = resolve.folder_path(ws, current.folder_id)
    return Plan(change=f'Replace the text of note "{current.title}" in {where}', overwrites=1)


class GetNotes(Params):
    folder: str = Field(description="The folder.")


def get_notes(ws: Workspace, p: GetNotes) -> Outcome:
    place = resolve.folder(ws, p.folder)
    notes = ws.store.notes(place.id)
    return Outcome(
        step=f"Read the notes of {place.name}",
        data={"notes": [note_data(n) for n in notes[:MAX_NOTES]], "total": len(notes)},
        link=folder_link(place),
    )


NOTE_TOOLS = (
    Tool("CREATE_NOTE", "Add a Markdown note to a folder.", CreateNote, "write", create_note),
    Tool(
        "UPDATE_NOTE",
        "Retitle a note, replace its text or (better) append to it.",
        UpdateNote,
        "destructive",
        update_note,
        plan_update_note,
    ),
    Tool("GET_NOTES", "Read a folder's notes.", GetNotes, "read", get_notes),
)
