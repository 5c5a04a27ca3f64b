"""Dragging a folder or a word onto a folder in the sidebar tree: the browser's drag events,
adapted. The row under the pointer is marked while it would take the drop; the move itself is
the page's (`drop(kind, item_id, folder_id)`), which the controller may refuse with a reason
(a folder into its own subfolder)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import js

from app.browser.dom import closest, data, found

DRAGGED = "[data-folder-id], [data-word-id]"
TARGET = ".tree-row"


class DragDrop:
    def __init__(self, drop: Callable[[str, str, str], None]) -> None:
        self._drop = drop
        self._dragged: str | None = None  # "folder:<id>" or "word:<id>"

    def start(self, listen: Callable[..., None]) -> None:
        doc = js.document
        listen(doc, "dragstart", self._on_dragstart)
        listen(doc, "dragover", self._on_dragover)
        listen(doc, "dragleave", self._on_dragleave)
        listen(doc, "drop", self._on_drop)

    def _on_dragstart(self, event: Any) -> None:
        row = closest(event, DRAGGED)
        if not found(row):
            return
        folder = data(row, "folder-id")
        self._dragged = f"folder:{folder}" if folder is not None else f"word:{data(row, 'word-id')}"
        event.dataTransfer.setData("text/plain", self._dragged)
        event.dataTransfer.effectAllowed = "move"

    def _on_dragover(self, event: Any) -> None:
        row = closest(event, TARGET)
        if found(row) and self._dragged is not None:
            event.preventDefault()
            row.dataset.drop = "true"

    def _on_dragleave(self, event: Any) -> None:
        row = closest(event, TARGET)
        if found(row):
            row.dataset.drop = "false"

    def _on_drop(self, event: Any) -> None:
        row = closest(event, TARGET)
        if not found(row) or self._dragged is None:
            return
        event.preventDefault()
        row.dataset.drop = "false"
        kind, item_id = self._dragged.split(":", 1)
        self._dragged = None
        self._drop(kind, item_id, str(data(row, "folder-id")))
