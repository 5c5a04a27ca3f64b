"""In a read-only tab, controls that would change the collection look off before the click.

The controller refuses those actions and says why (app.ui.controller.WRITE_ACTIONS); this makes
the refusal visible too: aria-disabled and the dimmed style, on buttons and on the submit
buttons of such forms. Marked elements carry `data-locked`, so a tab that becomes the writer
unmarks exactly those.
"""

from __future__ import annotations

import js

from app.browser.dom import data
from app.ui.controller import WRITE_ACTIONS

LOCKED = "data-locked"


def show_locks(locked: bool) -> None:
    doc = js.document
    if not locked:
        for element in js.Array.from_(doc.querySelectorAll(f"[{LOCKED}]")):
            element.removeAttribute("aria-disabled")
            element.removeAttribute(LOCKED)
        return
    for element in js.Array.from_(doc.querySelectorAll(f"[data-action]:not([{LOCKED}])")):
        if data(element, "action") not in WRITE_ACTIONS:
            continue
        element.setAttribute(LOCKED, "")  # a form too, so it is not looked at again
        buttons = (
            js.Array.from_(element.querySelectorAll("button[type=submit]"))
            if element.tagName == "FORM"
            else [element]
        )
        for button in buttons:
            button.setAttribute("aria-disabled", "true")
            button.setAttribute(LOCKED, "")
