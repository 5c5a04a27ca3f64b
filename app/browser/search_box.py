"""Search as you type: the combobox in the top bar and its listbox of results.

Arrow keys move through results (aria-activedescendant keeps focus in the box, as the ARIA
combobox pattern asks), Enter opens one, Escape closes the list.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import js

from app.browser.dom import by_id, data, found, js_object, measured, replace_children
from app.ui.controller import Controller


class SearchBox:
    def __init__(self, controller: Controller, study: Callable[[str], None]) -> None:
        self.controller = controller
        self.study = study  # start a session over the words a query finds
        self.input = by_id("search")
        self.list = by_id("search-results")
        self._active = -1

    def start(self, listen: Callable[[Any, str, Any], None]) -> None:
        listen(self.input, "input", self._on_input)
        listen(self.input, "keydown", self._on_keydown)
        listen(self.input, "focus", self._on_input)
        listen(js.document, "pointerdown", self._on_outside)

    def focus(self) -> None:
        self.input.focus()
        self.input.select()

    def is_open(self) -> bool:
        return not self.list.hidden

    def close(self) -> None:
        self.list.hidden = True
        self.input.setAttribute("aria-expanded", "false")
        self.input.removeAttribute("aria-activedescendant")
        self._active = -1

    def open(self, hit: Any) -> None:
        query = data(hit, "study")
        if query is not None:
            self.study(query)
        else:
            js.location.hash = str(data(hit, "href"))
        self.close()

    def _options(self) -> Any:
        return self.list.querySelectorAll(".search-hit")

    def _on_input(self, _event: Any) -> None:
        query = str(self.input.value)
        if not query.strip():
            self.close()
            return
        navigated = self._active > 0
        with measured("search"):
            replace_children(self.list, *self.controller.search(query))
        self.list.hidden = False
        self.input.setAttribute("aria-expanded", "true")
        # Fresh results start unselected: select the first without scrolling to it, which
        # would force a layout on every keystroke; only a list moved by the arrows goes back up.
        if navigated:
            self.list.scrollTop = 0
        self._active = -1
        self._select(0 if self._options().length else -1, scroll=False)

    def _select(self, index: int, *, scroll: bool = True) -> None:
        options = self._options()
        for i in {self._active, index}:  # only the two options whose state changes
            if 0 <= i < options.length:
                options.item(i).setAttribute("aria-selected", "true" if i == index else "false")
        self._active = index
        if index >= 0:
            option = options.item(index)
            self.input.setAttribute("aria-activedescendant", option.id)
            if scroll:
                option.scrollIntoView(js_object(block="nearest"))
        else:
            self.input.removeAttribute("aria-activedescendant")

    def _on_keydown(self, event: Any) -> None:
        key = str(event.key)
        count = self._options().length
        if key in ("ArrowDown", "ArrowUp") and count:
            event.preventDefault()
            step = 1 if key == "ArrowDown" else -1
            self._select((self._active + step) % count)
        elif key == "Enter" and self._active >= 0:
            event.preventDefault()
            self.open(self._options().item(self._active))
        elif key == "Escape":
            event.preventDefault()
            self.close()

    def _on_outside(self, event: Any) -> None:
        inside = hasattr(event.target, "closest") and found(event.target.closest(".search"))
        if self.is_open() and not inside:
            self.close()
