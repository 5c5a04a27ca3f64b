"""Modal dialog contents: folder form, "Move to…", delete confirmation, bulk paste, shortcuts.

Each returns the inside of the page's single <dialog>; the browser shows it modally, and forms
inside carry `data-action` like everything else.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from app.domain import Folder
from app.store.results import BulkPreview, BulkRow, DeletionSummary, TreeRow
from app.text.counting import counted
from app.text.nodes import El, Node, h
from app.ui.tree_view import folder_label
from app.ui.widgets import action, colour_select, form_error, table_box

SHORTCUTS: tuple[tuple[str, str], ...] = (
    ("/", "Search"),
    ("N", "Add a word to the open folder"),
    ("F", "New folder (inside the open one)"),
    ("B", "Bulk paste words"),
    ("P", "Pronounce the selected word"),
    ("S", "Study the open folder (everything on the home page)"),
    ("H", "Study the open folder hands-free, by voice (everything on the home page)"),
    ("Space", "Study: show the answer, or take the suggested grade"),
    ("1 2 3 4", "Study: grade Again, Hard, Good, Easy (or pick a choice)"),
    ("R", "Study (Listening, Speaking): hear the prompt again"),
    ("M (hold)", "Study (Listening, Speaking): say the answer; let go to check it"),
    ("Ctrl+Z", "Undo (while studying: undo the last grade)"),
    ("Ctrl+Shift+Z or Ctrl+Y", "Redo"),
    ("Alt+↑", "Go to the parent folder"),
    ("A", "Open the assistant (Enter sends, Shift+Enter is a new line)"),
    ("Ctrl+M (hold)", "Talk to the assistant; let go to send"),
    ("T", "Switch light / dark theme"),
    ("↑ ↓ Enter", "Move through and open search results"),
    ("Esc", "Stop listening or speaking; close a dialog, the search results or a form"),
    ("?", "Show this help"),
)


DISCARD_TYPED = "Discard what you typed?"
DISCARD_PASTED = "Discard the pasted text?"
CloseStep = Literal["close", "ask", "keep"]


def on_close_request(*, unsaved: bool, asking: bool) -> CloseStep:
    """Esc or Cancel in a dialog: close it, ask before text typed into it is lost, or (asked
    already, Esc again) keep it open with the text."""
    if asking:
        return "keep"
    return "ask" if unsaved else "close"


def discard_question(question: str) -> El:
    """The question shown inside a dialog that would lose typed or pasted text; the safe
    answer comes first."""
    return h(
        "div",
        {
            "id": "discard-question",
            "class": "discard-question",
            "role": "group",
            "aria-label": question,
        },
        h("p", None, question),
        h(
            "div",
            {"class": "form-actions"},
            action("Keep editing", "keep-text", None, **{"class": "primary"}),
            action("Discard", "discard-text", None, **{"class": "danger"}),
        ),
    )


def _dialog(title: str, *body: Node) -> El:
    return h("div", None, h("h2", {"id": "dialog-title"}, title), *body)


def _buttons(confirm: str, *, danger: bool = False) -> El:
    return h(
        "div",
        {"class": "form-actions"},
        action("Cancel", "close-dialog"),
        h(
            "button",
            {"type": "submit", "class": "primary danger" if danger else "primary"},
            confirm,
        ),
    )


def folder_dialog(folder: Folder | None, parent: Folder | None) -> El:
    """Create (folder is None) or edit a folder's name, emoji, colour and language."""
    title = (
        f"Edit {folder.name}"
        if folder
        else (f"New folder in {parent.name}" if parent else "New folder")
    )
    return _dialog(
        title,
        h(
            "form",
            {
                "data-action": "save-folder",
                "data-id": folder.id if folder else None,
                "data-parent": parent.id if parent and not folder else None,
                "aria-label": title,
            },
            h(
                "div",
                {"class": "form-grid"},
                h("label", {"for": "folder-name"}, "Name"),
                h(
                    "input",
                    {
                        "id": "folder-name",
                        "name": "name",
                        "required": True,
                        "autocomplete": "off",
                        "value": folder.name if folder else "",
                    },
                ),
                h("label", {"for": "folder-emoji"}, "Emoji"),
                h(
                    "input",
                    {
                        "id": "folder-emoji",
                        "name": "emoji",
                        "placeholder": "optional, e.g. 🫀",
                        "value": folder.emoji if folder else "",
                    },
                ),
                h("label", {"for": "folder-color"}, "Colour"),
                colour_select("color", folder.color if folder else "none", "folder-color"),
                h("label", {"for": "folder-lang"}, "Language"),
                h(
                    "input",
                    {
                        "id": "folder-lang",
                        "name": "lang",
                        "placeholder": "optional, e.g. de or zh-Hant",
                        "aria-describedby": "folder-lang-hint",
                        "value": folder.lang if folder else "",
                    },
                ),
                h(
                    "p",
                    {"id": "folder-lang-hint", "class": "hint"},
                    "New words here and in its subfolders take this language "
                    "unless they give their own.",
                ),
            ),
            form_error(),
            _buttons("Save" if folder else "Create folder"),
        ),
    )


def move_dialog(
    title: str, form_action: str, item_id: int, targets: Sequence[TreeRow], current: int | None
) -> El:
    """Pick a destination folder; `targets` are already filtered to legal destinations."""
    options: list[Node] = []
    if form_action == "do-move-folder":
        options.append(h("option", {"value": "root", "selected": current is None}, "(Top level)"))
    for row in targets:
        indent = "\u00a0\u00a0" * row.depth
        label = indent + folder_label(row.folder.emoji, row.folder.name)
        options.append(
            h("option", {"value": row.folder.id, "selected": row.folder.id == current}, label)
        )
    return _dialog(
        title,
        h(
            "form",
            {"data-action": form_action, "data-id": item_id, "aria-label": title},
            h(
                "div",
                {"class": "form-grid"},
                h("label", {"for": "move-target"}, "Destination"),
                h("select", {"id": "move-target", "name": "target", "size": 10}, options),
            ),
            form_error(),
            _buttons("Move here"),
        ),
    )


def delete_folder_dialog(summary: DeletionSummary) -> El:
    folder = summary.folder
    parts = [
        (summary.subfolders, "subfolder"),
        (summary.words, "word"),
        (summary.notes, "note"),
    ]
    consequences = [h("li", None, counted(n, noun)) for n, noun in parts if n]
    return _dialog(
        f"Delete {folder_label(folder.emoji, folder.name)}?",
        h("p", None, "This also deletes everything inside it:"),
        h("ul", {"class": "consequences"}, consequences),
        h("p", {"class": "meta-line"}, "You can undo this with Ctrl+Z."),
        h(
            "form",
            {
                "data-action": "confirm-delete-folder",
                "data-id": folder.id,
                "aria-label": "Confirm delete",
            },
            form_error(),
            _buttons("Delete folder and contents", danger=True),
        ),
    )


def bulk_dialog(folder: Folder, text: str, preview: BulkPreview | None) -> El:
    return _dialog(
        f"Bulk paste into {folder.name}",
        h(
            "p",
            {"class": "meta-line"},
            "One word per line: term - meaning, term: meaning, or term<TAB>meaning. "
            "Separate several meanings with ; or |.",
        ),
        h(
            "form",
            {
                "data-action": "bulk-add",
                "data-id": folder.id,
                "aria-label": "Bulk paste",
                "data-discard": DISCARD_PASTED,
            },
            h("label", {"for": "bulk-text", "class": "visually-hidden"}, "Lines to add"),
            h(
                "textarea",
                {
                    "id": "bulk-text",
                    "name": "text",
                    "rows": 8,
                    "data-input-action": "bulk-preview",
                    "data-id": folder.id,
                    "placeholder": "photosynthesis - making food from light\nmitosis: division",
                },
                text,
            ),
            h("div", {"id": "bulk-preview", "aria-live": "polite"}, bulk_preview(preview)),
        ),
    )


def _bulk_button(preview: BulkPreview | None) -> str:
    ok = preview.count("ok") if preview else 0
    return f"Add {counted(ok, 'word')}" if ok else "Add words"


def bulk_preview(preview: BulkPreview | None) -> El:
    """The preview table with the form's buttons, whose label counts the words to add."""
    return h("div", None, _preview_table(preview), form_error(), _buttons(_bulk_button(preview)))


def _status_text(row: BulkRow) -> str:
    if row.status == "ok":
        return "✓ add"
    if row.status == "duplicate":
        return row.reason or "Duplicate"
    return f"✗ {row.reason or 'Not readable'}"


def _preview_table(preview: BulkPreview | None) -> Node:
    if preview is None or not preview.rows:
        note = preview.note if preview else ""
        return h("p", {"class": "empty"}, note or "The preview appears here as you type or paste.")
    ok, dup, bad = (preview.count(s) for s in ("ok", "duplicate", "invalid"))
    summary = f"{ok:,} to add · {counted(dup, 'duplicate')} · {bad:,} with problems"
    rows = [
        h(
            "tr",
            None,
            h("td", None, str(row.line)),
            h("td", None, row.term),
            h("td", None, "; ".join(row.meanings)),
            h("td", {"class": f"status-{row.status}"}, _status_text(row)),
        )
        for row in preview.rows[:500]
    ]
    return h(
        "div",
        None,
        h("p", {"class": "preview-summary", "data-role": "bulk-summary"}, summary),
        h("p", {"class": "meta-line"}, preview.note) if preview.note else None,
        table_box("Preview", ("Line", "Term", "Meanings", "Status"), rows),
        h("p", {"class": "meta-line"}, f"Showing the first 500 of {len(preview.rows):,} lines.")
        if len(preview.rows) > 500
        else None,
    )


def help_dialog() -> El:
    return _dialog(
        "Keyboard shortcuts",
        h(
            "div",
            {"class": "shortcuts"},
            (
                (h("div", None, h("kbd", None, key)), h("div", None, what))
                for key, what in SHORTCUTS
            ),
        ),
        h(
            "div",
            {"class": "form-actions"},
            action("Close", "close-dialog", None, **{"class": "primary"}),
        ),
    )
