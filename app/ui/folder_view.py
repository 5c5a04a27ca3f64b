"""The main panel: the home screen and an open folder (breadcrumbs, subfolders, notes, words).

Pure functions from store data and view state to an element tree; every action is a button or
form carrying `data-action` (and `data-id`), which the browser layer dispatches to the controller.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.domain import COLOURS, Folder, Note, Word, default_lang
from app.store.due_counts import DueCount
from app.store.results import TreeRow
from app.store.word_list import WordPage
from app.text.markdown import render_markdown
from app.ui.counting import counted
from app.ui.nodes import Child, El, Node, h
from app.ui.routes import Route
from app.ui.state import ViewState
from app.ui.tree_view import folder_label, name_and_count
from app.ui.word_tools_view import no_match, shown, word_tools


def action(label: str, name: str, item_id: int | None = None, **attrs: str) -> El:
    """A button that the browser dispatches to the controller as `name` with `data-id`."""
    return h(
        "button",
        {"type": "button", "data-action": name, "data-id": item_id, **attrs},
        label,
    )


def form_error() -> El:
    return h(
        "p", {"class": "form-error", "data-role": "form-error", "role": "alert", "hidden": True}
    )


def colour_select(name: str, selected: str, label_id: str) -> El:
    return h(
        "select",
        {"name": name, "id": label_id},
        (h("option", {"value": c, "selected": c == selected}, c.title()) for c in COLOURS),
    )


def _block(block_id: str, title: str, button: El | None, *body: Child) -> El:
    """A titled panel of the main view, with an optional small button in its heading."""
    heading: list[Node] = [title]
    if button is not None:
        heading += [h("span", {"class": "spacer"}), button]
    return h(
        "section",
        {"class": "block", "aria-labelledby": block_id},
        h("h2", {"id": block_id}, heading),
        *body,
    )


def _small(label: str, name: str, item_id: int | None) -> El:
    return action(label, name, item_id, **{"class": "small-button"})


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
        _block(
            "home-folders",
            "Top-level folders",
            _small("+ New folder", "new-folder", None),
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
        _words_block(folder, default_lang(path), words, word_total, state),
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
    return _block("subfolders-title", "Subfolders", None, cards)


def _notes_block(folder: Folder, notes: Sequence[Note], state: ViewState) -> El:
    items: list[Node] = [
        note_form(note) if state.editing_note == note.id else _note(note) for note in notes
    ]
    if state.adding_note:
        items.append(note_form(None))
    if not items:
        items.append(h("p", {"class": "empty"}, "No notes. Notes can use Markdown."))
    return _block("notes-title", "Notes", _small("+ Add note", "add-note", folder.id), items)


def _note(note: Note) -> El:
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
                    "maxlength": 200,
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


def _words_block(folder: Folder, lang: str, page: WordPage, total: int, state: ViewState) -> El:
    rows = [
        word_form(word, folder.id)
        if state.editing_word == word.id
        else _word(word, highlighted=state.route.word_id == word.id)
        for word in page.words
    ]
    query = state.word_query
    if rows:
        listing = h("ul", {"class": "words", "aria-label": "Words"}, rows)
    elif query.needle:
        listing = h(
            "p", {"class": "empty"}, no_match(query), " ", action("Clear filter", "clear-filter")
        )
    else:
        listing = h("p", {"class": "empty"}, "No words yet. Add one above or paste a list.")
    end = page.start + len(page.words)
    return _block(
        "words-title",
        f"Words ({total:,})",
        _small("Bulk paste…", "bulk-paste", folder.id),
        word_form(None, folder.id, lang),
        word_tools(query, page, total) if total else None,
        _more(shown(page), "Show earlier", "show-earlier") if rows and page.start else None,
        listing,
        _more(shown(page), "Show more", "show-more") if end < page.matching else None,
    )


def _more(text: str, label: str, name: str) -> El:
    return h(
        "div", {"class": "more"}, h("span", {"class": "meta-line"}, text, " "), action(label, name)
    )


# A folder redraw renders hundreds of rows though few change: the same content gives back the
# element already built (which app.ui.diff then skips at once). Bounded by clearing when full.
_ROWS: dict[tuple[object, ...], El] = {}
ROWS_KEPT = 4096


def _word(word: Word, *, highlighted: bool) -> El:
    key = (word.id, word.term, tuple(word.meanings), word.notes, word.color, word.lang, highlighted)
    row = _ROWS.get(key)
    if row is None:
        if len(_ROWS) >= ROWS_KEPT:
            _ROWS.clear()
        row = _ROWS[key] = _word_row(word, highlighted=highlighted)
    return row


def _word_row(word: Word, *, highlighted: bool) -> El:
    return h(
        "li",
        {
            "class": "word",
            "id": f"word-{word.id}",
            "data-word-id": word.id,
            "data-color": word.color,
            "data-highlight": "true" if highlighted else None,
            "draggable": "true",
        },
        h(
            "div",
            {"class": "word-main"},
            h(
                "span",
                {"class": "word-term", "lang": word.lang or None},
                word.term,
            ),
            h("span", {"class": "word-lang"}, word.lang) if word.lang else None,
            h("ol", {"class": "word-meanings"}, (h("li", None, m) for m in word.meanings))
            if word.meanings
            else None,
            h("div", {"class": "word-notes"}, word.notes) if word.notes else None,
        ),
        h(
            "div",
            {"class": "word-actions"},
            action("Edit", "edit-word", word.id, **{"aria-label": f"Edit {word.term}"}),
            action("Move…", "move-word", word.id, **{"aria-label": f"Move {word.term}"}),
            action(
                "Delete",
                "delete-word",
                word.id,
                **{"class": "danger", "aria-label": f"Delete {word.term}"},
            ),
        ),
    )


def word_form(word: Word | None, folder_id: int, default_lang: str = "") -> El:
    """Edit `word`, or add one (None), which takes the folder's `default_lang` if it gives none."""
    prefix = f"word-{word.id}" if word else "word-new"
    main_fields: list[Node] = [
        h("label", {"for": f"{prefix}-term"}, "Term"),
        h(
            "input",
            {
                "id": f"{prefix}-term",
                "name": "term",
                "required": True,
                "maxlength": 200,
                "autocomplete": "off",
                "value": word.term if word else "",
            },
        ),
        h("label", {"for": f"{prefix}-meanings"}, "Meanings (one per line)"),
        h(
            "textarea",
            {"id": f"{prefix}-meanings", "name": "meanings", "rows": 2 if word else 1},
            "\n".join(word.meanings) if word else "",
        ),
    ]
    more_fields: list[Node] = [
        h("label", {"for": f"{prefix}-notes"}, "Notes"),
        h(
            "textarea",
            {"id": f"{prefix}-notes", "name": "notes", "rows": 2},
            word.notes if word else "",
        ),
        h("label", {"for": f"{prefix}-lang"}, "Language"),
        h(
            "input",
            {
                "id": f"{prefix}-lang",
                "name": "lang",
                "placeholder": f"Folder default: {default_lang}"
                if default_lang and not word
                else "e.g. en, es-MX",
                "maxlength": 35,
                "value": word.lang if word else "",
            },
        ),
        h("label", {"for": f"{prefix}-color"}, "Colour"),
        colour_select("color", word.color if word else "none", f"{prefix}-color"),
    ]
    buttons: list[Node] = [
        h("button", {"type": "submit", "class": "primary"}, "Save word" if word else "Add word")
    ]
    if word:
        buttons.insert(0, action("Cancel", "cancel-word"))
    form = h(
        "form",
        {
            "class": "word-main" if word else "add-word",
            "data-action": "save-word",
            "data-id": word.id if word else None,
            "data-folder": folder_id,
            "aria-label": f"Edit {word.term}" if word else "Add a word",
        },
        h("div", {"class": "form-grid"}, main_fields),
        # A new word needs only a term and meanings; the rest folds away to keep the list close.
        h("div", {"class": "form-grid"}, more_fields)
        if word
        else h(
            "details",
            {"class": "more-fields"},
            h("summary", None, "Notes, language and colour"),
            h("div", {"class": "form-grid"}, more_fields),
        ),
        form_error(),
        h("div", {"class": "form-actions"}, buttons),
    )
    if word is None:
        return form
    return h("li", {"class": "word", "data-word-id": word.id}, form)
