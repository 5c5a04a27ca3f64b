"""Keyboard shortcuts for the whole page (the `?` dialog lists them, from app.ui.dialogs)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

import js

from app.browser.dom import data, found
from app.browser.study import StudyPage, study_key
from app.domain import FolderId
from app.ui.field_undo import FieldUndo
from app.ui.routes import Route

if TYPE_CHECKING:
    from app.browser.closing import DialogCloser
    from app.browser.drawers import DrawerGlue
    from app.browser.search_box import SearchBox

TEXT_FIELDS = {"INPUT", "TEXTAREA", "SELECT"}


class KeysPage(StudyPage, Protocol):
    """What the shortcuts need of the page (app.py's Page, which builds the shortcuts)."""

    closer: DialogCloser
    drawers: DrawerGlue
    search: SearchBox


class Shortcuts:
    def __init__(self, page: KeysPage) -> None:
        self.page = page
        self.undo = FieldUndo()

    def on_input(self, event: Any) -> None:
        """Text typed into a field: its own undo comes before the collection's."""
        target = event.target
        if hasattr(target, "setAttribute"):
            target.setAttribute("data-typed", self.undo.stamp())

    def on_keydown(self, event: Any) -> None:
        if event.defaultPrevented or event.isComposing:
            return
        key = str(event.key)
        in_field = event.target.tagName in TEXT_FIELDS or bool(event.target.isContentEditable)
        command = self._command(key, event, in_field)
        if command is not None:
            event.preventDefault()
            command()

    def _command(self, key: str, event: Any, in_field: bool) -> Callable[[], None] | None:
        page = self.page
        modifier = bool(event.ctrlKey or event.metaKey)
        field_keeps = in_field and self.undo.field_keeps(data(event.target, "typed"))
        if modifier and not field_keeps and key.lower() in ("z", "y"):
            redo = key.lower() == "y" or bool(event.shiftKey)
            return lambda: page.run("redo" if redo else "undo")
        if key == "Escape" and page.closer.guards_escape():
            return page.closer.request
        if key == "Escape" and not page.dialog.open and page.drawers.is_open:
            return page.drawers.close
        if key == "Escape" and not page.dialog.open:
            return self._escape if (in_field or page.search.is_open()) else None
        if in_field or modifier or (event.altKey and key != "ArrowUp"):
            return None
        studying = study_key(page, key, event.target)
        if studying is not None:
            return studying
        folder = page.controller.state.route.folder_id
        folder_id = str(folder) if folder is not None else None
        table = {
            "/": page.search.focus,
            "?": lambda: page.run("help"),
            "t": lambda: page.run("toggle-theme"),
            "a": lambda: page.run("open-assistant"),
            "f": lambda: page.run("new-folder", folder_id),
        }
        if not page.controller.state.route.view:  # not while a session or the stats are open
            table["s"] = lambda: page.run("study", folder_id)
            table["h"] = lambda: page.run("study", folder_id, {"value": "hands-free"})
        if folder_id is not None:
            table.update(
                n=lambda: self._focus("#word-new-term"),
                b=lambda: page.run("bulk-paste", folder_id),
            )
        word_id = self._selected_word(event.target)
        if word_id is not None:
            table["p"] = lambda: page.run("pronounce", word_id)
        if key == "ArrowUp" and event.altKey and folder is not None:
            return self._go_up
        # Letter shortcuts work with Caps Lock or Shift held too.
        return table.get(key.lower() if len(key) == 1 else key)

    def _selected_word(self, target: Any) -> str | None:
        """The word whose row holds the focus, else the one the address points at."""
        row = target.closest("[data-word-id]") if hasattr(target, "closest") else None
        if found(row):
            return data(row, "word-id")
        word = self.page.controller.state.route.word_id
        return None if word is None else str(word)

    def _focus(self, selector: str) -> None:
        target = js.document.querySelector(selector)
        if found(target):
            target.focus()

    def _escape(self) -> None:
        page = self.page
        if page.search.is_open():
            page.search.close()
            return
        if page.controller.state.editing_word is not None:
            page.run("cancel-word")
        elif page.controller.state.editing_note is not None or page.controller.state.adding_note:
            page.run("cancel-note")
        js.document.activeElement.blur()

    def _go_up(self) -> None:
        folder = self.page.controller.state.route.folder_id
        if folder is None:
            return
        path = self.page.controller.store.folder_path(FolderId(folder))
        parent = path[-2].id if len(path) > 1 else None
        js.location.hash = Route(parent).to_hash()
