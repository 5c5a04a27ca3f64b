"""Keys typed after a form is sent land in the next form (issue 25).

A form that comes back empty after it is sent ("Add word", marked `data-clears` by the view)
is emptied the moment it is sent, so what the user types next goes into an empty form instead
of after the last word. The page draws the new form once the edit is saved (decision 024); it
then gets what was typed in the meantime, with the focus and caret where they were. If the
action is refused, what was sent comes back into the fields the user has not typed in since.
"""

from __future__ import annotations

from typing import Any

import js

from app.browser.dom import data, form_fields, found

SENT = "data-sent"  # on a form emptied when it was sent, until it is drawn anew
TEXT_TYPES = frozenset({"text", "search", "url", "email", "tel", ""})


def clears(form: Any) -> bool:
    """Whether the form comes back empty after it is sent."""
    return data(form, "clears") is not None


def empty_on_send(form: Any) -> dict[str, str]:
    """Empty `form` as its next drawing will be; what it held, to put back if refused."""
    sent = form_fields(form)
    form.reset()
    form.setAttribute(SENT, "")
    return sent


def put_back(form: Any, sent: dict[str, str]) -> None:
    """The action was refused: what was sent goes back where nothing new was typed."""
    if not found(form) or not form.isConnected:
        return
    form.removeAttribute(SENT)
    for field in _text_fields(form):
        if not str(field.value) and sent.get(str(field.name)):
            field.value = sent[str(field.name)]


class TypedAhead:
    """What was typed into emptied forms inside a part of the page about to be replaced."""

    def __init__(self, node: Any) -> None:
        self._forms: list[tuple[tuple[str | None, str | None], dict[str, str]]] = []
        self._focus: tuple[str, int, int] | None = None
        if not hasattr(node, "querySelectorAll"):
            return
        forms = [node] if node.matches(f"form[{SENT}]") else []
        forms += list(js.Array.from_(node.querySelectorAll(f"form[{SENT}]")))
        active = js.document.activeElement
        for form in forms:
            typed = {str(f.name): str(f.value) for f in _text_fields(form) if str(f.value)}
            self._forms.append((_identity(form), typed))
            if found(active) and form.contains(active) and str(active.name):
                start, end = active.selectionStart, active.selectionEnd
                if found(start) and found(end):
                    self._focus = (str(active.name), int(start), int(end))

    def __call__(self, node: Any) -> None:
        """Into the same forms of `node`, the replacement (`Region`'s keep)."""
        if not self._forms or not hasattr(node, "querySelectorAll"):
            return
        candidates = [node] if node.matches("form") else []
        candidates += list(js.Array.from_(node.querySelectorAll("form")))
        for identity, typed in self._forms:
            form = next((f for f in candidates if _identity(f) == identity), None)
            if form is None:
                continue
            for field in _text_fields(form):
                name = str(field.name)
                if name in typed:
                    field.value = typed[name]
                if self._focus is not None and name == self._focus[0]:
                    field.focus()
                    field.setSelectionRange(self._focus[1], self._focus[2])


def _identity(form: Any) -> tuple[str | None, str | None]:
    return data(form, "action"), data(form, "id")


def _text_fields(form: Any) -> list[Any]:
    return [
        field
        for field in js.Array.from_(form.elements)
        if str(field.name)
        and (str(field.tagName) == "TEXTAREA" or str(field.type).lower() in TEXT_TYPES)
        and str(field.tagName) in ("INPUT", "TEXTAREA")
    ]
