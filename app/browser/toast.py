"""The toast: one short message at the foot of the page for a few seconds, with an Undo
button when what it reports can be undone."""

from __future__ import annotations

import asyncio
from typing import Any

import js

SECONDS = 5.0


class Toast:
    def __init__(self, element: Any) -> None:
        self.element = element
        self._hiding: asyncio.Task[None] | None = None

    def show(self, message: str, *, undo: bool = False) -> None:
        """`message` for a few seconds (a newer one replaces it and starts the time again)."""
        toast = self.element
        toast.replaceChildren(js.document.createTextNode(message))
        if undo:
            button = js.document.createElement("button")
            button.type = "button"
            button.textContent = "Undo"
            button.dataset.action = "undo"
            toast.appendChild(button)
        toast.hidden = False
        if self._hiding is not None:
            self._hiding.cancel()
        self._hiding = asyncio.ensure_future(self._hide())

    async def _hide(self) -> None:
        await asyncio.sleep(SECONDS)
        self.element.hidden = True
