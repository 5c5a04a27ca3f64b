"""What each user action does: turns UI events (plain strings and dicts) into store commands and
tells the browser what to redraw, where to go, what to focus and what to say.

Pure Python over the `Store`, so every action is unit-tested under CPython; the browser layer
only collects event data and applies the returned `Update`.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping, Sequence
from typing import Any

from app.domain import FolderId, InvalidInput, LexicalError, NoteId, NotFound, WordId
from app.store import Store
from app.store.due_counts import DueCount
from app.store.results import TreeRow
from app.store.transfer.steps import run_steps
from app.text.counting import counted
from app.text.nodes import El, h
from app.ui import dialogs
from app.ui.due import DueCounts
from app.ui.folder_view import due_text, render_folder, render_home
from app.ui.mapping_memory import MappingMemory
from app.ui.routes import Route
from app.ui.search_view import RESULTS_SHOWN, render_results
from app.ui.state import ViewState
from app.ui.study_actions import StudyActions, rescheduled
from app.ui.transfer_actions import TransferActions
from app.ui.transfer_view import progress_view
from app.ui.tree_view import TreeViews
from app.ui.update import Update, changed
from app.ui.word_list_actions import WordListActions

Data = Mapping[str, str]

# Actions that change the collection (or open a form to change it); a read-only tab refuses them.
WRITE_ACTIONS = frozenset(
    {
        *("new-folder", "save-folder", "edit-folder", "move-folder", "do-move-folder"),
        *("delete-folder", "confirm-delete-folder", "save-word", "edit-word", "move-word"),
        *("do-move-words", "delete-word", "bulk-paste", "bulk-add", "add-note", "edit-note"),
        *("save-note", "delete-note", "undo", "redo", "transfer-apply"),
        *("study", "study-reveal", "study-answer", "study-choose", "study-grade", "study-undo"),
        *("study-mode", "study-options", "save-study-options", "study-options-inherit"),
        *("study-spoken", "study-confirm"),
    }
)
# Actions that only open a dialog and validate nothing, so they run at once while pydantic-core
# is still loading after the first screen (decision 028): a first click must open what it
# asks for; its form's submit waits for the package (issue 25). tests/ui/test_packages_later.py
# runs each with pydantic unimportable.
OPENS_WITHOUT_PACKAGES = frozenset({"new-folder", "help", "transfer"})
ASSISTANT_BUSY = (
    "The assistant is changing your collection right now; wait until it finishes, or press "
    "Stop in the assistant panel."
)


def _need(item_id: int | None) -> int:
    """The id an action is about; a missing one means the item went away under the user."""
    if item_id is None:
        raise NotFound("That item is no longer here.")
    return item_id


def _id(value: str | None) -> int:
    """An id from form data (a <select> value or a data attribute)."""
    return _need(int(value) if value is not None and value.isdigit() else None)


def _lines(text: str) -> list[str]:
    return [line for line in text.replace("\r\n", "\n").split("\n") if line.strip()]


class Controller:
    """Owns the view state and answers every action with an `Update`."""

    def __init__(
        self,
        store: Store,
        state: ViewState | None = None,
        *,
        utc_offset: Callable[[], int] = lambda: 0,
        mappings: MappingMemory | None = None,
    ) -> None:
        self.store = store
        self.state = state or ViewState()
        self._trees = TreeViews()
        self.read_only: str | None = None  # why this tab may not write, when it may not
        self._actions: dict[str, Callable[[int | None, Data], Update]] = {
            "new-folder": self._new_folder,
            "save-folder": self._save_folder,
            "edit-folder": self._edit_folder,
            "move-folder": self._move_folder,
            "do-move-folder": self._do_move_folder,
            "delete-folder": self._delete_folder,
            "confirm-delete-folder": self._confirm_delete_folder,
            "toggle-folder": self._toggle_folder,
            "save-word": self._save_word,
            "edit-word": self._edit_word,
            "cancel-word": self._cancel_word,
            "move-word": self._move_word,
            "do-move-words": self._do_move_words,
            "delete-word": self._delete_word,
            "bulk-paste": self._bulk_paste,
            "bulk-preview": self._bulk_preview,
            "bulk-add": self._bulk_add,
            "add-note": self._add_note,
            "edit-note": self._edit_note,
            "cancel-note": self._cancel_note,
            "save-note": self._save_note,
            "delete-note": self._delete_note,
            "undo": lambda _i, _d: self._history(undo=True),
            "redo": lambda _i, _d: self._history(undo=False),
            "help": lambda _i, _d: Update(dialog=dialogs.help_dialog()),
        }
        self.transfer = TransferActions(
            lambda: self.store, self.refresh, memory=mappings, utc_offset=utc_offset
        )
        self._actions.update(self.transfer.actions())
        self.study = StudyActions(lambda: self.store, self._now, utc_offset)
        self._actions.update(self.study.actions())
        self.due = DueCounts(lambda: self.store, utc_offset)
        self.word_list = WordListActions(lambda: self.store, lambda: self.state)
        self._actions.update(self.word_list.actions())
        self._utc_offset = utc_offset

    def due_here(self) -> str:
        """The open folder's (or, at home, everything's) due line, for a redraw of it alone."""
        folder = self.state.route.folder_id
        if folder is None:
            return due_text(self.due_today())
        return due_text(
            self.due.counts(self._now(), self.store.folder_tree()).get(FolderId(folder))
        )

    def due_today(self) -> DueCount:
        """Due and new cards of the whole collection today, for the top bar."""
        return self.due.total(self._now(), self.store.folder_tree())

    def _now(self) -> int:
        return self.store.now()  # looked up each time: a promoted tab replaces its store

    # --- entry points -------------------------------------------------------------------------

    def dispatch(self, action: str, item_id: str | None = None, data: Data | None = None) -> Update:
        if action == "undo" and self.state.route.view == "study":
            action = "study-undo"  # Ctrl+Z while studying takes back a grade, not an edit
        handler = self._actions.get(action)
        if handler is None:
            return Update()
        if self.read_only and action in WRITE_ACTIONS:
            return Update(error=self.read_only, close_dialog=True)
        if self.store.busy and action in WRITE_ACTIONS:  # an edit now would join the agent's turn
            return Update(error=ASSISTANT_BUSY)
        try:
            return handler(int(item_id) if item_id and item_id.isdigit() else None, data or {})
        except InvalidInput as exc:  # nothing was written: only the message changes
            return Update(error=exc.message)
        except LexicalError as exc:
            return Update(error=exc.message, tree=True, main=isinstance(exc, NotFound))

    def navigate(self, route: Route) -> Update:
        if route.view == "study" and not self.study.resume():
            self.state.open(Route())
            return Update(tree=True, main=True, replace_url="#/", toast="No study session is open.")
        self.state.open(route)
        reveal = self.word_list.page_to_word(route)
        if route.folder_id is not None:
            try:
                self.state.expanded.update(
                    f.id for f in self.store.folder_path(FolderId(route.folder_id))[:-1]
                )
            except NotFound:
                # A stale link: show home (or all the stats), and say so in the address bar.
                fallback = Route(view=route.view) if route.view == "stats" else Route()
                self.state.open(fallback)
                return Update(tree=True, main=True, focus="#main", replace_url=fallback.to_hash())
        return Update(tree=True, main=True, focus="#main", reveal=reveal)

    def drop(self, kind: str, item_id: str, target: str) -> Update:
        """Drag and drop: a folder or word dropped onto a folder in the tree."""
        if kind == "folder":
            return self.dispatch("do-move-folder", item_id, {"target": target})
        return self.dispatch("do-move-words", item_id, {"target": target})

    def search(self, query: str) -> list[El]:
        return render_results(query, self.store.search(query, limit=RESULTS_SHOWN))

    def refresh(self) -> Update:
        """After changes from elsewhere (another tab): redraw and leave a folder that vanished."""
        folder = self.state.route.folder_id
        if folder is not None and not self._exists(folder):
            return Update(tree=True, main=True, navigate="#/")
        return changed()

    # --- rendering ----------------------------------------------------------------------------

    def render(self, *, tree: bool, main: bool) -> tuple[El | None, El | None]:
        """The sidebar and/or main panel, reading the folder tree once for both."""
        if not (tree or main):
            return None, None
        rows = self.store.folder_tree()
        return (
            self.render_tree(rows) if tree else None,
            self.render_main(rows) if main else None,
        )

    def render_tree(self, rows: Sequence[TreeRow] | None = None) -> El:
        rows = self.store.folder_tree() if rows is None else rows
        counts = self.due.counts(self._now(), rows)
        current = self.state.route.folder_id if not self.state.route.view else None
        return self._trees.sidebar(rows, current, self.state.expanded, counts)

    def render_main(self, rows: Sequence[TreeRow] | None = None) -> El:
        rows = self.store.folder_tree() if rows is None else rows
        if self.state.route.view == "study":
            return self.study.render()
        if self.state.route.view == "stats":
            return self._render_stats()
        folder_id = self.state.route.folder_id
        counts = self.due.counts(self._now(), rows)
        if folder_id is None:
            due = None if self.due.paused else self.due_today()
            return render_home(rows, due, locked=self.read_only is not None)
        try:
            path = self.store.folder_path(FolderId(folder_id))
        except NotFound:
            return h(
                "div",
                {"class": "empty-hero"},
                h("h1", None, "This folder is not here any more"),
                h(
                    "p",
                    None,
                    "It may have been deleted or moved. ",
                    h("a", {"href": "#/"}, "Go home"),
                ),
            )
        fid = FolderId(folder_id)
        return render_folder(
            path,
            subfolders=self._trees.children(rows).get(fid, []),
            notes=self.store.notes(fid),
            words=self.word_list.page(fid),
            word_total=self.store.word_count(fid),
            state=self.state,
            due=counts.get(fid),
            locked=self.read_only is not None,
        )

    def _render_stats(self) -> El:
        # Imported on first use: nothing of the stats page belongs to startup.
        from app.studying.stats import collect_stats  # noqa: PLC0415
        from app.ui.stats_view import render_stats  # noqa: PLC0415

        folder = self.state.route.folder_id
        fid = FolderId(folder) if folder is not None else None
        stats = collect_stats(self.store, fid, self._now(), self._utc_offset())
        path = self.store.folder_path(fid) if fid is not None else []
        narrower = self.store.children(fid)
        return render_stats(stats, path, narrower)

    def _exists(self, folder_id: int) -> bool:
        try:
            self.store.folder(FolderId(folder_id))
        except NotFound:
            return False
        return True

    # --- folders ------------------------------------------------------------------------------

    def _new_folder(self, parent_id: int | None, _data: Data) -> Update:
        parent = self.store.folder(FolderId(parent_id)) if parent_id is not None else None
        return Update(dialog=dialogs.folder_dialog(None, parent), focus="#folder-name")

    def _edit_folder(self, folder_id: int | None, _data: Data) -> Update:
        folder = self.store.folder(FolderId(_need(folder_id)))
        return Update(dialog=dialogs.folder_dialog(folder, None), focus="#folder-name")

    def _save_folder(self, folder_id: int | None, data: Data) -> Update:
        # The input rules are pydantic's, loaded after the first screen (decision 025).
        from app.inputs import FolderPatch, NewFolder, parse_input  # noqa: PLC0415

        fields = {
            "name": data.get("name", ""),
            "emoji": data.get("emoji", ""),
            "color": data.get("color") or "none",
            "lang": data.get("lang", ""),
        }
        if folder_id is not None:
            folder = self.store.update_folder(FolderId(folder_id), parse_input(FolderPatch, fields))
            return changed(close_dialog=True, toast=f"Saved folder {folder.name}")
        parent = data.get("parent")
        new = parse_input(NewFolder, {**fields, "parent_id": _id(parent) if parent else None})
        folder = self.store.create_folder(new)
        if folder.parent_id is not None:
            self.state.expanded.add(folder.parent_id)
        return changed(
            close_dialog=True,
            navigate=Route(folder.id).to_hash(),
            toast=f"Created folder {folder.name}",
        )

    def _move_folder(self, folder_id: int | None, _data: Data) -> Update:
        folder = self.store.folder(FolderId(_need(folder_id)))
        rows = self.store.folder_tree()
        banned = {folder.id}
        for row in rows:  # depth-first order: a descendant always follows its parent
            if row.folder.parent_id in banned:
                banned.add(row.folder.id)
        targets = [r for r in rows if r.folder.id not in banned]
        title = f"Move {folder.name} to…"
        return Update(
            dialog=dialogs.move_dialog(
                title, "do-move-folder", folder.id, targets, folder.parent_id
            ),
            focus="#move-target",
        )

    def _do_move_folder(self, folder_id: int | None, data: Data) -> Update:
        target = data.get("target", "")
        parent = None if target == "root" else FolderId(_id(target))
        folder = self.store.move_folder(FolderId(_need(folder_id)), parent)
        if parent is not None:
            self.state.expanded.add(parent)
        where = self.store.folder(parent).name if parent is not None else "the top level"
        return changed(close_dialog=True, toast=f"Moved {folder.name} to {where}")

    def _delete_folder(self, folder_id: int | None, _data: Data) -> Update:
        fid = FolderId(_need(folder_id))
        summary = self.store.deletion_summary(fid)
        if summary.subfolders or summary.words or summary.notes:
            return Update(
                dialog=dialogs.delete_folder_dialog(summary), focus="#dialog button.primary"
            )
        return self._confirm_delete_folder(fid, {})

    def _confirm_delete_folder(self, folder_id: int | None, _data: Data) -> Update:
        fid = FolderId(_need(folder_id))
        parent = self.store.folder(fid).parent_id
        summary = self.store.delete_folder(fid)
        return changed(
            close_dialog=True,
            navigate=Route(parent).to_hash(),
            toast=f"Deleted folder {summary.folder.name}. Ctrl+Z undoes it.",
            offer_undo=True,
        )

    def _toggle_folder(self, folder_id: int | None, _data: Data) -> Update:
        fid = _need(folder_id)
        self.state.expanded.symmetric_difference_update({fid})
        return Update(tree=True, focus=f'.tree-row[data-folder-id="{fid}"] .tree-toggle')

    # --- words --------------------------------------------------------------------------------

    def _word_fields(self, data: Data) -> dict[str, Any]:
        return {
            "term": data.get("term", ""),
            "meanings": _lines(data.get("meanings", "")),
            "notes": data.get("notes", ""),
            "lang": data.get("lang", ""),
            "color": data.get("color", "none") or "none",
        }

    def _save_word(self, word_id: int | None, data: Data) -> Update:
        # The input rules are pydantic's, loaded after the first screen (decision 025).
        from app.inputs import NewWord, WordPatch, parse_input  # noqa: PLC0415

        fields = self._word_fields(data)
        if word_id is not None:
            word = self.store.update_word(WordId(word_id), parse_input(WordPatch, fields))
            self.state.editing_word = None
            return changed(toast=f"Saved {word.term}", focus=f"#word-{word.id} button")
        folder = _id(data.get("folder"))
        word = self.store.add_word(parse_input(NewWord, {**fields, "folder_id": folder}))
        return changed(toast=f"Added {word.term}", focus="#word-new-term")

    def _edit_word(self, word_id: int | None, _data: Data) -> Update:
        word = self.store.word(WordId(_need(word_id)))
        self.state.editing_word = word.id
        return Update(main=True, focus=f"#word-{word.id}-term")

    def _cancel_word(self, _word_id: int | None, _data: Data) -> Update:
        editing = self.state.editing_word
        self.state.editing_word = None
        return Update(main=True, focus=f"#word-{editing} button" if editing else None)

    def _move_word(self, word_id: int | None, _data: Data) -> Update:
        word = self.store.word(WordId(_need(word_id)))
        rows = [r for r in self.store.folder_tree() if r.folder.id != word.folder_id]
        if not rows:
            raise LexicalError("There is no other folder to move it to. Create one first.")
        title = f"Move {word.term} to…"
        return Update(
            dialog=dialogs.move_dialog(title, "do-move-words", word.id, rows, None),
            focus="#move-target",
        )

    def _do_move_words(self, word_id: int | None, data: Data) -> Update:
        target = FolderId(_id(data.get("target")))
        result = self.store.move_words([WordId(_need(word_id))], target)
        if result.skipped:
            raise LexicalError(" ".join(result.skipped))
        return changed(close_dialog=True, toast=f"Moved to {self.store.folder(target).name}")

    def _delete_word(self, word_id: int | None, _data: Data) -> Update:
        word = self.store.word(WordId(_need(word_id)))
        self.store.delete_words([word.id])
        return changed(
            toast=f"Deleted {word.term}. Ctrl+Z undoes it.", focus="#word-new-term", offer_undo=True
        )

    # --- bulk paste ---------------------------------------------------------------------------

    def _bulk_paste(self, folder_id: int | None, _data: Data) -> Update:
        fid = folder_id if folder_id is not None else self.state.route.folder_id
        folder = self.store.folder(FolderId(_need(fid)))
        return Update(dialog=dialogs.bulk_dialog(folder, "", None), focus="#bulk-text")

    def _bulk_preview(self, folder_id: int | None, data: Data) -> Update:
        return run_steps(self.bulk_preview_steps(folder_id, data.get("text", "")))

    def bulk_preview_steps(
        self, folder_id: int | None, text: str
    ) -> Generator[Update, None, Update]:
        """The preview of a paste, with how far it got in between (a long paste takes a
        while, and the page paints each step)."""
        steps = self.store.preview_bulk_steps(FolderId(_need(folder_id)), text)
        while True:
            try:
                progress = next(steps)
            except StopIteration as stop:
                return Update(patch=("#bulk-preview", dialogs.bulk_preview(stop.value)))
            yield Update(patch=("#bulk-preview", progress_view("Your paste", progress)))

    def _bulk_add(self, folder_id: int | None, data: Data) -> Update:
        fid = FolderId(_need(folder_id))
        preview = self.store.preview_bulk(fid, data.get("text", ""))
        rows = [r for r in preview.rows if r.status == "ok"]
        if not rows:
            raise LexicalError("Nothing to add: every line is empty, a duplicate or has a problem.")
        result = self.store.bulk_add(fid, rows)
        skipped = len(preview.rows) - result.added
        more = f", skipped {skipped:,}" if skipped else ""
        return changed(close_dialog=True, toast=f"Added {counted(result.added, 'word')}{more}")

    # --- notes --------------------------------------------------------------------------------

    def _add_note(self, _folder: int | None, _data: Data) -> Update:
        self.state.adding_note, self.state.editing_note = True, None
        return Update(main=True, focus="#note-new-title")

    def _edit_note(self, note_id: int | None, _data: Data) -> Update:
        note = self.store.note(NoteId(_need(note_id)))
        self.state.editing_note, self.state.adding_note = note.id, False
        return Update(main=True, focus=f"#note-{note.id}-title")

    def _cancel_note(self, _note: int | None, _data: Data) -> Update:
        self.state.editing_note, self.state.adding_note = None, False
        return Update(main=True)

    def _save_note(self, note_id: int | None, data: Data) -> Update:
        # The input rules are pydantic's, loaded after the first screen (decision 025).
        from app.inputs import NewNote, NotePatch, parse_input  # noqa: PLC0415

        fields = {"title": data.get("title", ""), "body": data.get("body", "")}
        if note_id is not None:
            note = self.store.update_note(NoteId(note_id), parse_input(NotePatch, fields))
        else:
            folder = _need(self.state.route.folder_id)
            note = self.store.add_note(parse_input(NewNote, {**fields, "folder_id": folder}))
        self.state.editing_note, self.state.adding_note = None, False
        return changed(toast=f"Saved note {note.title}")

    def _delete_note(self, note_id: int | None, _data: Data) -> Update:
        note = self.store.delete_note(NoteId(_need(note_id)))
        return changed(toast=f"Deleted note {note.title}. Ctrl+Z undoes it.", offer_undo=True)

    # --- history ------------------------------------------------------------------------------

    def _history(self, *, undo: bool) -> Update:
        label = self.store.undo_label if undo else self.store.redo_label
        done = self.store.undo() if undo else self.store.redo()
        if done is None:
            return Update(toast="Nothing to undo." if undo else "Nothing to redo.")
        self.state.editing_word = self.state.editing_note = None
        self.state.adding_note = False
        update = self.refresh()
        said = f"{'Undid' if undo else 'Redid'}: {label}"
        update.toast = said
        options = any(change.table == "study_options" for change in done.changes)
        if options and self.store.study.studied():
            # Cards follow their folder's options: their schedules are replayed (decision 036).
            from app.studying.reschedule import rescheduling_by  # noqa: PLC0415 (the scheduler)

            update.then = rescheduled(rescheduling_by(self.store, done.changes), said, "").then
        return update
