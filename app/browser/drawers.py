"""The narrow-screen drawers in the page (the folder tree and the top bar's menu).

app.ui.drawers decides which one is open; this module feeds it the clicks, shows the result as
`<body data-open-drawer>` and the buttons' aria-expanded (static/app.css does the rest), and
moves focus into an opened drawer and back to its button when it closes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import js

from app.browser.dom import data, found
from app.ui.drawers import Drawer, Drawers

# Choosing one of these inside a drawer is the user moving on, so the drawer closes.
CHOICES = "a[href], .menu button"
FIRST_ITEM = {
    "folders": "#sidebar a[aria-current='page'], #sidebar a, #sidebar button:not(:disabled)",
    "menu": "#menu button:not(:disabled)",
}


def _toggle(drawer: Drawer) -> Any:
    return js.document.querySelector(f"[data-drawer-toggle='{drawer}']")


def _name(element: Any, attribute: str) -> Drawer | None:
    return cast("Drawer", data(element, attribute)) if found(element) else None


class DrawerGlue:
    def __init__(self) -> None:
        self.state = Drawers()

    def start(self, listen: Callable[..., None]) -> None:
        # Capture: the drawer closes (and its button takes focus) before the chosen action
        # runs, so a dialog opened from the menu gives focus back to the menu's button.
        listen(js.document, "click", self._on_click, capture=True)
        listen(js.window, "hashchange", self._on_navigate)
        for button in js.document.querySelectorAll("[data-drawer-toggle]"):
            button.disabled = False

    @property
    def is_open(self) -> bool:
        return self.state.open is not None

    def close(self) -> None:
        """Escape: close the open drawer and give its button the focus."""
        closed = self.state.close()
        self._show()
        if closed is not None:
            _toggle(closed).focus()

    def _on_click(self, event: Any) -> None:
        target = event.target
        if not hasattr(target, "closest"):
            return
        was = self.state.open
        chose = found(target.closest(CHOICES))
        self.state.click(
            toggle=_name(target.closest("[data-drawer-toggle]"), "drawer-toggle"),
            inside=_name(target.closest("[data-drawer]"), "drawer"),
            chose=chose,
        )
        if self.state.open == was:
            return
        self._show()
        if self.state.open is not None:
            first = js.document.querySelector(FIRST_ITEM[self.state.open])
            if found(first):
                first.focus()
        elif was is not None and chose:
            _toggle(was).focus()

    def _on_navigate(self, _event: Any) -> None:
        """Another place is showing (a folder was chosen or created): the drawer is done."""
        self.state.close()
        self._show()

    def _show(self) -> None:
        opened = self.state.open
        js.document.body.dataset.openDrawer = opened or ""
        for button in js.document.querySelectorAll("[data-drawer-toggle]"):
            expanded = data(button, "drawer-toggle") == opened
            button.setAttribute("aria-expanded", "true" if expanded else "false")
