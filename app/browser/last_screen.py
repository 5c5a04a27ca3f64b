"""Keep a copy of the last screen for a warm start (decision 023).

A second after the page last redrew, and at once when the tab is hidden or left, the sidebar
and main view as last drawn (app.ui.last_screen) are written to localStorage, where
static/warm.js finds them on the next start. Dialogs and the assistant panel are never part of
it. Blocked or full storage only means there is no copy.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import js

from app.browser import local_storage
from app.browser.timers import Timeout
from app.text.nodes import El
from app.ui.last_screen import last_screen

KEY = "lexical-last-screen"  # static/warm.js reads it
SAVE_AFTER_SECONDS = 1.0  # edits come in bursts: write once they pause

Screen = tuple[str, El | None, El | None]  # the route's address, the sidebar, the main view


class LastScreen:
    def __init__(self, screen: Callable[[], Screen]) -> None:
        self._screen = screen
        self._timeout: Timeout | None = None

    def start(self, listen: Callable[..., None]) -> None:
        listen(js.window, "pagehide", lambda _event: self.save())
        listen(js.document, "visibilitychange", self._on_visibility)

    def drawn(self) -> None:
        """The page redrew: keep the new screen once redrawing pauses."""
        self._cancel()
        self._timeout = Timeout(SAVE_AFTER_SECONDS, self.save)

    def save(self) -> None:
        self._cancel()
        route, tree, main = self._screen()
        if main is None:  # nothing drawn yet: the copy there is, is still the last screen
            return
        # Removed first, so that storage too full for the new copy keeps no stale one.
        local_storage.put(KEY, None)
        local_storage.put(KEY, last_screen(route, tree, main))

    def forget(self) -> None:
        """No copy (the collection was replaced): the next start shows the usual boot screen
        until the new screen is kept."""
        self._cancel()
        local_storage.put(KEY, None)

    def _on_visibility(self, _event: Any) -> None:
        if str(js.document.visibilityState) == "hidden":
            self.save()

    def _cancel(self) -> None:
        if self._timeout is not None:
            self._timeout.cancel()
            self._timeout = None
