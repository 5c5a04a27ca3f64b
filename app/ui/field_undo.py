"""Whose undo Ctrl+Z is: the collection's last change, or text typed into a field since.

After a change the toast promises "Ctrl+Z undoes it", and focus often sits in a text field
(the add form's Term box). A field keeps Ctrl+Z for itself only when text was typed into it
after the newest change; otherwise the change is undone, whatever field holds focus. Fields
are marked with a stamp when typed into, and a change makes every earlier stamp stale.
"""

from __future__ import annotations


class FieldUndo:
    def __init__(self) -> None:
        self._changes = 0

    def changed(self) -> None:
        """The collection changed (an edit, an undo or a redo)."""
        self._changes += 1

    def stamp(self) -> str:
        """The mark for a field typed into now."""
        return str(self._changes)

    def field_keeps(self, stamp: str | None) -> bool:
        """Ctrl+Z in a field marked `stamp` (None: never typed into) is the field's own."""
        return stamp == self.stamp()
