"""The main panel: the home screen and an open folder (breadcrumbs, subfolders, notes, words).

Pure functions from store data and view state to an element tree; every action is a button or
form carrying `data-action` (and `data-id`), which the browser layer dispatches to the controller.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.domain import Folder, Note, default_lang
from app.store.due_counts import DueCount
from app.store.results import TreeRow
from app.store.word_list import WordPage
from app.text.counting import counted
from app.text.markdown import render_markdown
from app.text.nodes import El, Node, h
from app.ui.reuse import Reused
from app.ui.routes import Route
from app.ui.state import ViewState
from app.ui.tree_view import folder_label, name_and_count
from app.ui.widgets import action, block, form_error, small_button
from app.ui.word_view import words_block


def due_text(due: DueCount | None) -> str:
    """Today's due and new counts in words ("" until they are counted)."""
    if due is None:
        return ""
    if due.due or due.new:
        return f"{due.due:,} due · {due.new:,} new today"
    return "Nothing due today"


READ_ONLY_STUDY = "Studying is off in this tab: it is read-only while another tab saves changes."


def study_line(due: DueCount | None, folder_id: int | None, *, locked: bool = False) -> El:
    """Today's due and new counts (once they are counted) and the buttons to study them; in a
    read-only tab the buttons are marked unavailable and a sentence says why."""
    off = {"aria-disabled": "true", "aria-describedby": "study-locked"} if locked else {}
    return h(
        "div",
        {"class": "study-line"},
        action("Study", "study", folder_id, **{"class": "primary", "title": "Study (S)", **off}),
        action(
            "Hands-free",
            "study",
            folder_id,
            **{"data-value": "hands-free", "title": "Study by voice, hands-free (H)", **off},
        ),
        h("span", {"class": "meta-line", "id": "study-due"}, due_text(due)),
        action("Study options…", "study-options", folder_id, **{"class": "small-button", **off}),
        h("a", {"href": Route(folder_id, view="stats").to_hash()}, "Stats"),
        h("p", {"class": "meta-line", "id": "study-locked"}, READ_ONLY_STUDY) if locked else None,
    )


def render_home(
    rows: Sequence[TreeRow], due: DueCount | None = None, *, locked: bool = False
) -> El:
    roots = [r for r in rows if r.folder.parent_id is None]
    total = sum(r.word_count for r in rows)
    if not roots:
        return h(
            "div",
            {"class": "empty-hero"},
            h("div", {"class": "big", "aria-hidden": "true"}, "📚"),
            h("h1", None, "Welcome to Lexical"),
            h("p", None, "Collect words into folders, add meanings and notes, and find them fast."),
            action("Create your first folder", "new-folder", None, **{"class": "primary"}),
            h(
                "p",
                {"class": "meta-line"},
                "Everything stays in this browser. Press ? for shortcuts.",
            ),
        )
    return h(
        "div",
        None,
        h("h1", None, "Your collection"),
        h(
            "p",
            {"class": "meta-line"},
            f"{counted(len(rows), 'folder')} · {counted(total, 'word')}. "
            "Everything is saved in this browser.",
        ),
        study_line(due, None, locked=locked),
        block(
            "home-folders",
            "Top-level folders",
            small_button("+ New folder", "new-folder", None),
            _folder_cards([r.folder for r in roots], {r.folder.id: r.total_words for r in rows}),
        ),
    )


def _folder_cards(folders: Sequence[Folder], totals: dict[int, int]) -> El:
    return h(
        "ul",
        {"class": "subfolders"},
        (
            h(
                "li",
                {"data-color": f.color},
                h(
                    "a",
                    {"href": Route(f.id).to_hash(), "data-color": f.color},
                    name_and_count(
                        folder_label(f.emoji, f.name), totals.get(f.id, 0), "name", "count"
                    ),
                ),
            )
            for f in folders
        ),
    )


def render_breadcrumbs(path: Sequence[Folder]) -> El:
    crumbs: list[Node] = [h("li", None, h("a", {"href": "#/"}, "Home"))]
    for i, folder in enumerate(path):
        last = i == len(path) - 1
        crumbs.append(
            h(
                "li",
                None,
                h(
                    "a",
                    {"href": Route(folder.id).to_hash(), "aria-current": "page" if last else None},
                    folder_label(folder.emoji, folder.name),
                ),
            )
        )
    return h("nav", {"class": "breadcrumbs", "aria-label": "Breadcrumbs"}, h("ol", None, crumbs))


def render_folder(
    path: Sequence[Folder],
    *,
    subfolders: Sequence[TreeRow],
    notes: Sequence[Note],
    words: WordPage,
    word_total: int,
    state: ViewState,
    due: DueCount | None = None,
    locked: bool = False,
) -> El:
    folder = path[-1]
    return h(
        "div",
        None,
        render_breadcrumbs(path),
        h(
            "div",
            {"class": "folder-head", "data-color": folder.color},
            h("h1", {"id": "folder-title"}, folder_label(folder.emoji, folder.name)),
            h(
                "div",
                {"class": "folder-actions"},
                action("+ New subfolder", "new-folder", folder.id),
                action("Edit", "edit-folder", folder.id),
                action("Move to…", "move-folder", folder.id),
                action("Delete", "delete-folder", folder.id, **{"class": "danger"}),
            ),
        ),
        h("p", {"class": "meta-line"}, _summary(subfolders, word_total, len(notes))),
        study_line(due, folder.id, locked=locked),
        _subfolder_block(subfolders),
        words_block(folder, default_lang(path), words, word_total, state),
        _notes_block(folder, notes, state),
    )


def _summary(subfolders: Sequence[TreeRow], words: int, notes: int) -> str:
    """The folder's own counts; the tree counts the words of subfolders too, so that total
    is given as well when it differs."""
    inside = words + sum(row.total_words for row in subfolders)
    with_subfolders = f" ({inside:,} with subfolders)" if inside != words else ""
    return " · ".join(
        [
            counted(len(subfolders), "subfolder"),
            counted(words, "word") + with_subfolders,
            counted(notes, "note"),
        ]
    )


def _subfolder_block(subfolders: Sequence[TreeRow]) -> El | None:
    if not subfolders:
        return None
    totals: dict[int, int] = {r.folder.id: r.total_words for r in subfolders}
    cards = _folder_cards([r.folder for r in subfolders], totals)
    return block("subfolders-title", "Subfolders", None, cards)


def _notes_block(folder: Folder, notes: Sequence[Note], state: ViewState) -> El:
    items: list[Node] = [
        note_form(note) if state.editing_note == note.id else _note(note) for note in notes
    ]
    if state.adding_note:
        items.append(note_form(None))
    if not items:
        items.append(h("p", {"class": "empty"}, "No notes. Notes can use Markdown."))
    return block("notes-title", "Notes", small_button("+ Add note", "add-note", folder.id), items)


_NOTES: Reused[tuple[object, ...]] = Reused(kept=1024)


def _note(note: Note) -> El:
    return _NOTES.get((note.id, note.title, note.body), lambda: _note_block(note))


def _note_block(note: Note) -> El:
    return h(
        "div",
        {"class": "note", "data-note-id": note.id},
        h(
            "h3",
            None,
            note.title,
            h("span", {"class": "spacer"}),
            action("Edit", "edit-note", note.id, **{"aria-label": f"Edit note {note.title}"}),
            action(
                "Delete",
                "delete-note",
                note.id,
                **{"class": "danger", "aria-label": f"Delete note {note.title}"},
            ),
        ),
        h("div", {"class": "markdown"}, render_markdown(note.body)),
    )


def note_form(note: Note | None) -> El:
    prefix = f"note-{note.id}" if note else "note-new"
    return h(
        "form",
        {
            "class": "note",
            "data-action": "save-note",
            "data-id": note.id if note else None,
            "aria-label": "Edit note" if note else "New note",
        },
        h(
            "div",
            {"class": "form-grid"},
            h("label", {"for": f"{prefix}-title"}, "Title"),
            h(
                "input",
                {
                    "id": f"{prefix}-title",
                    "name": "title",
                    "required": True,
                    "value": note.title if note else "",
                },
            ),
            h("label", {"for": f"{prefix}-body"}, "Text (Markdown)"),
            h(
                "textarea",
                {"id": f"{prefix}-body", "name": "body", "rows": 6},
                note.body if note else "",
            ),
        ),
        form_error(),
        h(
            "div",
            {"class": "form-actions"},
            action("Cancel", "cancel-note"),
            h("button", {"type": "submit", "class": "primary"}, "Save note"),
        ),
    )
