"""Forms: a form sent, a field typed into, and what went wrong said in the form that asked.

Any form or field with `data-action` (or `data-input-action`) is handled here for the whole
page: a submit runs its action with the form's fields; typing runs its action once the typing
pauses (a long bulk paste is previewed in steps); a pick (select, radio) runs it at once. An
error goes into the slot of the form that asked, or into a toast when no open form did.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

import js

from app.browser.dom import data, form_fields, found
from app.browser.page_parts import Applies, Runs, Toasts
from app.browser.typed_ahead import clears, empty_on_send, put_back
from app.domain import LexicalError
from app.ui.update import Update

if TYPE_CHECKING:
    from app.browser.last_screen import LastScreen
    from app.browser.transfer import TransferGlue
    from app.ui.controller import Controller

INPUT_DEBOUNCE_SECONDS = 0.15
FORM_ERROR = '[data-role="form-error"]'  # a form's slot for what went wrong (app.ui.widgets)

Caret = tuple[str, int, int]  # a text box's id and selection


class FormsPage(Applies, Runs, Toasts, Protocol):
    """What forms need of the page (app.py's Page, which builds them)."""

    controller: Controller
    transfer: TransferGlue
    last_screen: LastScreen


def caret(element: Any) -> Caret | None:
    """The id and selection of a focused text box, to put them back if a redraw rebuilds it
    (the filter box redraws the list as the user types in it)."""
    if not found(element) or str(element.tagName) != "INPUT" or not element.id:
        return None
    start, end = element.selectionStart, element.selectionEnd
    if not found(start) or not found(end):  # a box without a caret (checkbox, number)
        return None
    return str(element.id), int(start), int(end)


def restore_caret(target: Any, kept: Caret | None) -> None:
    if kept is not None and str(target.id) == kept[0]:
        target.setSelectionRange(kept[1], kept[2])


def hide_errors(container: Any) -> None:
    """A redraw answers the messages shown in its forms (they spoke of the page before it). A
    form drawn as before keeps its DOM (app.ui.diff), so the message is hidden here."""
    for slot in js.Array.from_(container.querySelectorAll(f"{FORM_ERROR}:not([hidden])")):
        slot.hidden = True


def _form_data(form: Any) -> dict[str, str]:
    fields = form_fields(form)
    for key in ("folder", "parent"):
        value = data(form, key)
        if value is not None and key not in fields:
            fields[key] = value
    return fields


def _shown(form: Any) -> bool:
    """Whether `form` is on the page where the user can see it: not in a closed dialog."""
    if not found(form) or not form.isConnected:
        return False
    dialog = form.closest("dialog")
    return not found(dialog) or bool(dialog.open)


def _typed_into(target: Any) -> bool:
    """Typing goes on key after key, so its action waits for a pause; a pick is done at once."""
    tag = str(target.tagName)
    return tag == "TEXTAREA" or (tag == "INPUT" and str(target.type) not in ("radio", "checkbox"))


class Forms:
    def __init__(self, page: FormsPage) -> None:
        self.page = page
        # Where an error about the action under way is shown: the form that asked for it (a
        # submit, or a click inside it); None when none did (a drop), and a toast says it.
        self.asking: Any = None
        self._sent: tuple[Any, dict[str, str]] | None = None  # an emptied form, what it held
        self._input_task: asyncio.Task[None] | None = None

    def start(self, listen: Callable[..., None]) -> None:
        doc = js.document
        listen(doc, "submit", self._on_submit)
        listen(doc, "input", self._on_input)
        listen(doc, "compositionend", self._on_input)

    def show_error(self, message: str) -> None:
        form = self.asking
        if self._sent is not None and self._sent[0] is form:
            put_back(*self._sent)
        self._sent = None
        slot = form.querySelector(FORM_ERROR) if _shown(form) else None
        if found(slot):
            slot.textContent = message
            slot.hidden = False
        else:  # no form asked (a drop), or its dialog is closed: the toast says it
            self.page.show_toast(message)

    def _on_submit(self, event: Any) -> None:
        form = event.target
        action = data(form, "action")
        if action is None:
            return
        event.preventDefault()
        if self._input_task is not None:
            # The submit carries what was typed: a redraw still waiting for a pause in the
            # typing would act on a form already sent (an import already made).
            self._input_task.cancel()
            self._input_task = None
        self.asking = form
        slot = form.querySelector(FORM_ERROR)
        if found(slot):
            slot.hidden = True
        fields = _form_data(form)
        if action == "transfer-apply":
            if fields.get("mode") == "replace":  # a restore: the old collection's words go
                self.page.last_screen.forget()
            self.page.transfer.submit(form, fields)
            return
        # Keys typed from now on belong to the next word (app/browser/typed_ahead.py).
        self._sent = (form, empty_on_send(form)) if clears(form) else None
        self.page.run(action, data(form, "id"), fields)

    def _on_input(self, event: Any) -> None:
        if getattr(event, "isComposing", False):
            # Mid-word in an input method (pinyin for 龍): redrawing now would rebuild the box
            # and end the composition; compositionend brings the finished text here.
            return
        target = event.target
        action = data(target, "input-action") if hasattr(target, "getAttribute") else None
        if action is None:
            return
        if not _typed_into(target):  # a pick (select, radio) redraws at once
            self.page.run(action, data(target, "id"), {"text": str(target.value)})
            return
        if self._input_task is not None:
            self._input_task.cancel()
        self._input_task = asyncio.ensure_future(
            self._debounced(action, data(target, "id"), str(target.value))
        )

    async def _debounced(self, action: str, item_id: str | None, text: str) -> None:
        await asyncio.sleep(INPUT_DEBOUNCE_SECONDS)
        if action != "bulk-preview":
            self.page.run(action, item_id, {"text": text})
            return
        # A long paste is previewed in steps, painting how far it got, so the page never
        # freezes; typing again cancels this task and starts over.
        folder = int(item_id) if item_id and item_id.isdigit() else None
        steps = self.page.controller.bulk_preview_steps(folder, text)
        while True:
            try:
                update = next(steps)
            except StopIteration as stop:
                self.page.apply(stop.value)
                return
            except LexicalError as error:
                self.page.apply(Update(error=error.message))
                return
            self.page.apply(update)
            await asyncio.sleep(0)
