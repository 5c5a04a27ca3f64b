"""Closing the page's dialog without losing typed text: Esc and Cancel ask first.

What to do on each close request is decided by app.ui.dialogs.on_close_request; this module
finds the typed text in the DOM and shows or removes the question.
"""

from __future__ import annotations

from typing import Any

import js

from app.browser.commands import Command, plain
from app.browser.dom import by_id, data, found, to_dom
from app.ui.dialogs import DISCARD_TYPED, discard_question, on_close_request

# Fields marked by Shortcuts.on_input once something was typed or pasted into them; of those,
# the kinds that hold text (a chosen file or a ticked box is not typing to lose).
TYPED = "[data-typed]"
TEXT_TYPES = frozenset({"text", "textarea", "search", "password", "email", "url", "tel", "number"})


class DialogCloser:
    def __init__(self, dialog: Any) -> None:
        self.dialog = dialog

    def commands(self) -> dict[str, Command]:
        """The dialog buttons this handles instead of the controller."""
        return {
            "close-dialog": plain(self.request),
            "keep-text": plain(self.keep),
            "discard-text": plain(self.close),
        }

    def guards_escape(self) -> bool:
        """Esc would lose typed text (or answer the question), so it must not close at once."""
        return bool(self.dialog.open) and (self._asking() or self._typed_field() is not None)

    def request(self) -> None:
        field = self._typed_field()
        step = on_close_request(unsaved=field is not None, asking=self._asking())
        if step == "close":
            self.close()
        elif step == "keep":
            self.keep()
        else:
            holder = field.closest("[data-discard]")
            question = data(holder, "discard") if found(holder) else None
            self.dialog.appendChild(to_dom(discard_question(question or DISCARD_TYPED)))
            self.dialog.querySelector('[data-action="keep-text"]').focus()

    def keep(self) -> None:
        question = by_id("discard-question")
        if found(question):
            question.remove()
        field = self._typed_field()
        if field is not None:
            field.focus()

    def close(self) -> None:
        if self.dialog.open:
            self.dialog.close()

    def _asking(self) -> bool:
        return found(by_id("discard-question"))

    def _typed_field(self) -> Any:
        for field in js.Array.from_(self.dialog.querySelectorAll(TYPED)):
            if str(getattr(field, "type", "")) in TEXT_TYPES and str(field.value).strip():
                return field
        return None
